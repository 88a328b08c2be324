"""Keras 3 ``keras.ops.take``, per backend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy, fill
from ...core.shape import IndexSpec, normalize_axis, to_int
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ..jax._common import default_fill
from ..jax._describe import _axis_mask
from ._backend import (
    BACKENDS,
    KERAS_VERSION,
    backend_inputs,
    gather_description,
    index_policy,
    torch_scalar_x,
)

divergence_table("keras.take", __file__)


def _describe(axis: int | None = None, backend: str = "tensorflow") -> Description:
    axis = check_int("keras.take", "axis", axis, optional=True)
    index_policy("take", backend)
    pre: list[Step] = []
    data, idx = "x", "indices"
    if axis is None:
        data = "flat"
        if backend == "torch":  # wraps a negative index by x.shape[0] (a Keras bug), then reads the flattened x
            pre.append(Step.adapt("normalize_negative", "i0", "indices", "x", axis=0,
                                  why="the torch backend wraps negatives by x.shape[0], not x.size"))
            idx = "i0"
        pre.append(Step.adapt("flatten", "flat", "x", why="axis=None takes from the flattened x"))
    a = 0 if axis is None else axis
    d = gather_description("take", backend, {"axis": axis, "backend": backend}, canonical("gather", data=data,
                           indices=idx, axis=a), pre, ("x", "indices"), _axis_mask(a), index_ndim=(0, 2))
    if idx == "i0":
        d.canonical = d.canonical.with_(negative="raise")
    return d


@dialect_op("keras", "take", family="gather", kind="gather", versions=(KERAS_VERSION,),
            differentiable=("x",), describe=_describe, values={"backend": BACKENDS, "axis": "int"},
            fuzz={"axis_none": True},
            variants=tuple({"axis": a, "backend": b} for b in BACKENDS for a in (None, 1)))
def take(x: Any, indices: Any, axis: Any = None, *, backend: str = "tensorflow") -> Lowering:
    """Keras 3 ``keras.ops.take``: elements (``axis=None``: of the flattened ``x``) or slices along ``axis``.

    Provenance: ``keras.ops.take(x, indices, axis=None)``, Keras 3.15.1 on CPU, with
    ``backend=`` selecting what ``KERAS_BACKEND`` would run (default ``'tensorflow'``,
    Keras' default):

    - ``'jax'``: ``jnp.take`` in JAX's 32-bit mode: negative indices wrap once,
      out-of-range ones read the fill value (NaN, the integer minimum); 64-bit
      inputs come back 32-bit.
    - ``'tensorflow'``: negative indices wrap once, out-of-range ones raise (``tf.gather`` on CPU).
    - ``'torch'``: negative indices wrap once (with ``axis=None``: by ``x.shape[0]``, a
      Keras bug), out-of-range ones raise.
    - ``'numpy'``: ``np.take``: negative indices wrap once, out-of-range ones raise.

    Lowering: core ``gather`` with ``IndexSpec(axis=axis)`` on ``x`` (flattened for
    ``axis=None``), negative ``wrap``, bounds ``fill`` (jax) or ``raise``.

    Equivalent loop::

        for p, i, r in ndindex(P, I, R):
            k = indices[i] + (size if indices[i] < 0 else 0)
            out[p, i, r] = x[p, k, r] if 0 <= k < size else FILL_OR_ERROR

    Differs from itself across backends (this op's subject): see above.

    Python lists, tuples and scalars are read as each backend reads them (``PYTHON_RULES`` /
    ``PYTHON_ARGS`` in ``dialects/keras/_backend.py``): jax, tensorflow and torch convert them
    (``convert_to_tensor``: ints int32, floats float32, bools bool; ints past int32 are int64 on
    tensorflow, an error on jax and torch); the numpy backend's ``np.take`` reads them as NumPy
    does (int64 / float64). Float index lists are truncated by torch and numpy and refused by jax
    and tensorflow; a Python scalar ``x`` raises on torch (it reads ``x.shape[0]``).

    >>> import gatherscatter as gs
    >>> gs.keras.take([1.5, 2.5, 3.5], [2.0, 0.0], backend="torch").dtype
    dtype('float32')
    >>> gs.keras.take([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [3, 0], axis=1, backend="jax").tolist()
    [[nan, 1.0], [nan, 4.0]]
    >>> gs.keras.take([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [-1], backend="torch").tolist()
    [2.0]
    """
    b, ctx, d, i = backend_inputs("take", backend, x, indices, data="x", indices="indices")
    if b == "torch":
        torch_scalar_x(ctx, x, d)
    elif b == "numpy" and d.ndim == 0 and axis is not None:  # np.take(7, [0], axis=0) reads [7] (0-d arrays too)
        d = d.reshape(1)
    if axis is None:
        flat = d.reshape(-1)
        if b == "torch" and d.ndim:
            i = np.where(i < 0, i + d.shape[0], i)
            return Lowering("gather", flat, i, IndexSpec(axis=0), Policy(bounds="raise", negative="raise"), ctx)
        d, a = flat, 0
    else:
        a = normalize_axis(ctx, to_int(ctx, "axis", axis), d.ndim)
    bounds: Any = fill(default_fill(d.dtype)) if b == "jax" else "raise"
    return Lowering("gather", d, i, IndexSpec(axis=a), Policy(bounds=bounds, negative="wrap"), ctx)
