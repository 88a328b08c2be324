"""Learning a dialect's adapters by probing its lowering with coded inputs.

A :class:`~gatherscatter.dialects._registry.Lowering` only holds the arrays the
primitive sees (``data``, ``updates``) and a ``post`` callable; the dialect's
pre-processing (broadcast, slice, reshape, ``moveaxis``, ``astype``, torch's
``alpha * source``, ...) is gone by then. To pull a cotangent back through it
we learn, element by element, which user element each lowering element came
from and with which factor (an *affine movement/scaling map*)::

    field.flat[e] = const[e] + sum_k factor_k[e] * user_k.flat[source_k[e]]

The map is read from a few extra calls of ``op.lower`` (or of ``post``):

* all differentiable inputs zero                 -> ``const``
* input ``k`` = ``1, 2, 3, ...`` (float64), others zero -> ``factor_k * code``
* input ``k`` = ones, others zero                -> ``factor_k``
* every input random                             -> check of the whole map

and transposed with ``numpy.bincount``. A map that fails the check (an adapter
that sums, squares or otherwise mixes elements) raises
:class:`~gatherscatter.errors.UnsupportedError`: a wrong gradient is never
returned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedError

__all__ = ["AffineMap", "learn_map", "transpose"]

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class AffineMap:
    """``out.flat[e] = const[e] + sum_k factor[k][e] * x_k.flat[source[k][e]]`` (``factor 0``: none)."""

    shape: tuple[int, ...]
    source: tuple[Array, ...]
    factor: tuple[Array, ...]


def _as_f64(value: Any) -> Array | None:
    if value is None:
        return None
    arr = np.asarray(value)
    if arr.dtype.kind not in "biufc":
        return None
    with np.errstate(all="ignore"):
        return np.asarray(arr, dtype=np.float64) if arr.dtype.kind != "c" else None


def learn_map(
    what: str,
    shapes: Sequence[tuple[int, ...]],
    run: Callable[[Sequence[Array]], Any],
) -> AffineMap | None:
    """The affine map from inputs of ``shapes`` to the array ``run(inputs)`` returns.

    ``run`` returns the field (or None when the lowering has no such field).
    Returns None when the field is absent. Raises :class:`UnsupportedError`
    when the field is not an affine movement/scaling of the inputs.
    """
    zeros = [np.zeros(s, np.float64) for s in shapes]
    base = _as_f64(run(zeros))
    if base is None:
        return None
    c = base.reshape(-1)
    sources: list[Array] = []
    factors: list[Array] = []
    for k, s in enumerate(shapes):
        n = int(np.prod(s, dtype=np.int64))
        code = list(zeros)
        code[k] = np.arange(1, n + 1, dtype=np.float64).reshape(s)
        ones = list(zeros)
        ones[k] = np.ones(s, np.float64)
        vc, v1 = _as_f64(run(code)), _as_f64(run(ones))
        if vc is None or v1 is None or vc.shape != base.shape or v1.shape != base.shape:
            raise UnsupportedError(f"{what}: the adapter changes shape with the input values; no gradient")
        with np.errstate(all="ignore"):
            f = np.where(np.isfinite(c), v1.reshape(-1) - c, 0.0)
            ratio = np.where(f != 0, (vc.reshape(-1) - c) / np.where(f != 0, f, 1.0), 0.0)
        src = np.rint(ratio).astype(np.int64) - 1
        bad = (f != 0) & ((src < 0) | (src >= n) | ~np.isfinite(ratio))
        if bad.any():
            raise UnsupportedError(
                f"{what}: the dialect's adapter is not a linear movement/scaling of its inputs "
                "(an element is not one input element times a factor); no gradient"
            )
        sources.append(np.where(f != 0, src, 0))
        factors.append(f)
    # check the whole map on random values
    rng = np.random.default_rng(1234)
    rand = [1.0 + rng.integers(0, 256, s) / 256.0 for s in shapes]  # exact in float32: dialects may compute there
    got = _as_f64(run([r.copy() for r in rand]))  # a post may work in place on what it is given
    pred = c.copy()
    for k, r in enumerate(rand):
        pred = pred + factors[k] * r.reshape(-1)[sources[k]] if r.size else pred
    if got is None or got.shape != base.shape or not np.allclose(
        got.reshape(-1), pred, rtol=1e-9, atol=1e-12, equal_nan=True
    ):
        raise UnsupportedError(
            f"{what}: the dialect's adapter is not a linear movement/scaling of its inputs "
            "(checked on random values); no gradient"
        )
    return AffineMap(tuple(base.shape), tuple(sources), tuple(factors))


def transpose(m: AffineMap, cot: Array, k: int, size: int) -> Array:
    """``d x_k`` (flat, length ``size``) for the cotangent ``cot`` of the mapped array."""
    f = m.factor[k]
    w = f * np.asarray(cot, np.float64).reshape(-1)
    nz = f != 0
    return np.bincount(m.source[k][nz], weights=w[nz], minlength=size).astype(np.float64)
