"""Segment reductions as scatters: the lowering every framework's ``segment_*`` op shares.

A segment reduction combines the rows of ``data`` (the slices along its first
``segment_ids.ndim`` axes) that carry the same segment id::

    out = full((num_segments,) + data.shape[ids.ndim:], empty)   # the value of an empty segment
    for j in ndindex(segment_ids.shape):                          # row-major order
        s = segment_ids[j]
        if 0 <= s < num_segments:                                 # else: the framework's rule
            out[s] = data[j] if first row of s else f(out[s], data[j])

It is one core ``scatter`` with ``IndexSpec(axis=0)`` (one whole slice per id)
and ``include_self=False`` (so that ``empty`` survives only where no row lands):
``data`` flattened to ``(ids.size,) + rest`` is the scatter's updates, ``out``
its data. Means and ``sqrt_n`` scatter a sum and divide afterwards (``post``).
Each dialect checks its framework's rules (sortedness, negative ids, ids past
``num_segments``) before calling :func:`segment_lowering`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.context import OpContext
from ..core.policy import Policy, Reduction
from ..core.shape import IndexSpec, check_allocatable
from ._registry import Lowering

__all__ = ["EMPTY_KINDS", "counts", "empty_value", "segment_lowering", "trunc_divide"]


EMPTY_KINDS = ("zero", "one", "lowest", "highest", "-inf", "+inf")


def empty_value(kind: str, dtype: np.dtype[Any]) -> Any:
    """The value of an empty segment, by kind, in ``dtype``.

    ``'zero'``, ``'one'``; ``'lowest'`` / ``'highest'``: the most negative /
    positive finite value (TF's ``NumTraits<T>::lowest()``: ``-3.4e38`` for
    float32); ``'-inf'`` / ``'+inf'``: infinities for floats (JAX, torch), the
    integer limits otherwise. Booleans: False for the low kinds, True for the high.

    >>> empty_value("lowest", np.dtype("float32")), empty_value("-inf", np.dtype("int8"))
    (np.float32(-3.4028235e+38), np.int8(-128))
    """
    if kind == "zero":
        return np.zeros((), dtype)[()]
    if kind == "one":
        return np.ones((), dtype)[()]
    low = kind in ("lowest", "-inf")
    if dtype.kind == "b":
        return np.bool_(not low)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(info.min if low else info.max)
    if kind in ("-inf", "+inf") or dtype.kind == "c":
        return dtype.type(-np.inf if low else np.inf)
    big = np.finfo(dtype).max
    return dtype.type(-big if low else big)


def segment_lowering(
    ctx: OpContext,
    data: np.ndarray[Any, Any],
    ids: np.ndarray[Any, Any],
    num_segments: int,
    reduction: Reduction,
    empty: Any,
    *,
    bounds: str = "drop",
    post: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]] | None = None,
) -> Lowering:
    """Scatter the rows of ``data`` into ``num_segments`` rows holding ``empty``.

    ``ids.shape`` must be a prefix of ``data.shape`` (checked by the caller).
    ``bounds``: what an id outside ``[0, num_segments)`` does (``'drop'`` or
    ``'clip'``; negative ids go through the same mode); a dialect whose framework
    raises checks first. ``empty`` may be a scalar or an array of the output shape.
    """
    rest = data.shape[ids.ndim :]
    shape = (num_segments, *rest)
    check_allocatable(ctx, shape, data.dtype)
    # the scatter's data is a read-only broadcast of the empty value: the scatter's own copy is the only output
    out = np.broadcast_to(np.asarray(empty, data.dtype), shape)
    upd = data.reshape((ids.size, *rest))
    idx = ids.reshape(-1)
    if num_segments == 0:
        bounds = "drop"  # no segment to clip into: every row is dropped
    policy = Policy(bounds=bounds, negative="bounds", reduction=reduction, include_self=False)
    return Lowering("scatter", out, idx, IndexSpec(axis=0), policy, ctx, updates=upd, post=post)


def counts(ids: np.ndarray[Any, Any], num_segments: int, *, clip: bool = False) -> np.ndarray[Any, Any]:
    """How many ids fall in each segment (ids outside ``[0, num_segments)`` dropped, or clipped)."""
    flat = ids.reshape(-1).astype(np.int64)
    flat = np.clip(flat, 0, num_segments - 1) if clip and num_segments else flat[(flat >= 0) & (flat < num_segments)]
    return np.bincount(flat, minlength=num_segments)[:num_segments]


def trunc_divide(y: np.ndarray[Any, Any], c: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Integer ``y / c`` rounded toward zero (C++ integer division), in place in ``y`` (rows of ``y`` by ``c >= 1``).

    Works in blocks of rows so that no temporary is larger than a block.

    >>> trunc_divide(np.array([[-7, 7], [5, -5]]), np.array([2, 5])).tolist()
    [[-3, 3], [1, -1]]
    """
    if y.size == 0:
        return y
    flat = y.reshape(y.shape[0], -1)
    step = max(1, 65536 // max(1, flat.shape[1]))
    for s0 in range(0, flat.shape[0], step):
        blk = flat[s0 : s0 + step]
        cc = c[s0 : s0 + step].reshape(-1, 1).astype(y.dtype)
        fix = (blk % cc != 0) & (blk < 0)
        np.floor_divide(blk, cc, out=blk)
        blk += fix.astype(y.dtype)
    return y
