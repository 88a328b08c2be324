"""TFLite builtin ``SCATTER_ND`` (``tf.scatter_nd`` converted by the TFLite converter)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_array, as_index_array, check_allocatable
from ...errors import DTypeError, ShapeError
from .._common import check_data_dtype, data_array
from .._record import Description, Step, canonical
from .._registry import Lowering, dialect_op
from ._tfl import TFLITE_VERSION, check_in_range, tfl_context

#: facts for the op record
DATA_DTYPES = frozenset({"float32", "int8", "uint8", "int32", "int64"})
INDEX_DTYPES = frozenset({"int32"})


def _describe() -> Description:
    c = canonical("scatter_nd", data="zeros", updates="updates", reduction="add", negative="raise", bounds="raise")
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="SCATTER_ND adds into a zero tensor")]
    return Description("tflite.SCATTER_ND", {}, ("indices", "updates", "shape"), c, pre=pre, roles={"data": "shape"},
                       layout={"index_dtypes": ("int32",), "index_ndim": (1, 2),
                               "data_dtypes": ("float32", "int32", "int64"), "rank": (1, 3)})


@dialect_op("tflite", "SCATTER_ND", family="scatter_nd", kind="scatter", versions=(TFLITE_VERSION,),
            differentiable=("updates",), describe=_describe, variants=({},),
            values={"shape": "shape"})
def SCATTER_ND(indices: Any, updates: Any, shape: Any) -> Lowering:
    """TFLite ``SCATTER_ND``: sum ``updates`` into zeros of ``shape`` at the index tuples of ``indices``.

    Provenance: the TFLite builtin SCATTER_ND (``tensorflow/lite/kernels/scatter_nd.cc``),
    as converted from ``tf.scatter_nd(indices, updates, shape)`` and run by the TF
    2.21 ``tf.lite.Interpreter``. Indices are int32 with the tuples on the last axis
    (``k = indices.shape[-1]``); ``updates.shape == indices.shape[:-1] + shape[k:]``.
    Duplicate tuples are summed (the reference kernel adds). A negative or
    out-of-range tuple fails the invoke ('scatter_nd index out of bounds').

    Lowering: core ``scatter`` with ``IndexSpec(axis=0, depth=k, vector=True)``,
    reduction add, into zeros.

    Equivalent loop::

        out = zeros(shape, updates.dtype)
        for i in ndindex(indices.shape[:-1]):
            out[tuple(indices[i])] += updates[i]

    Differs from ``tf.scatter_nd`` on GPU/XLA (bad updates dropped there) and from
    ONNX ``ScatterND`` (no zeros, duplicates undefined).

    >>> import numpy as np, gatherscatter as gs
    >>> gs.tflite.SCATTER_ND(np.int32([[1], [1], [3]]), np.float32([1, 2, 3]), [4]).tolist()
    [0.0, 3.0, 0.0, 3.0]
    """
    ctx = tfl_context("SCATTER_ND", data="output", indices="indices", updates="updates")
    i = as_index_array(ctx, indices, "indices", INDEX_DTYPES)
    u = data_array(ctx, updates, "updates")
    check_data_dtype(ctx, u, DATA_DTYPES, name="updates")
    s = as_array(ctx, shape, "shape")
    if s.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: shape must hold integers (got dtype {s.dtype})")
    if s.ndim != 1 or s.size == 0 or (s < 0).any():
        raise ShapeError(f"{ctx.label}: shape must be a non-empty vector of sizes >= 0 (got {s.tolist()!r})")
    dims = tuple(int(v) for v in s)
    if i.ndim < 1 or i.shape[-1] > len(dims) or i.shape[-1] < 1:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] must be in [1, {len(dims)}] (got indices shape {list(i.shape)})"
        )
    k = i.shape[-1]
    want = i.shape[:-1] + dims[k:]
    if u.shape != want:
        raise ShapeError(f"{ctx.label}: updates must have shape {list(want)} (got {list(u.shape)})")
    check_allocatable(ctx, dims, u.dtype)
    check_in_range(ctx, i, dims[:k], "tuple")
    out = np.broadcast_to(np.zeros((), u.dtype), dims)
    policy = Policy(bounds="raise", negative="raise", reduction="add")
    return Lowering("scatter", out, i, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=u)
