"""TFLite builtin ``GATHER`` (``tf.gather`` converted by the TFLite converter)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array, normalize_axis, to_int
from ...errors import ShapeError, UnsupportedError
from .._common import check_data_dtype, data_array
from .._record import Description, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._tfl import GATHER_INDEX_DTYPES, TFLITE_VERSION, check_in_range, tfl_context

#: facts for the op record
DATA_DTYPES = frozenset({"float32", "float16", "int8", "uint8", "int16", "int32", "int64", "bool"})

divergence_table("tflite.GATHER", r'''
[[divergence]]
case = "negative or out-of-range index"
when = "negative out_of_range"
reference = "TF 2.21 on GPU / XLA"
theirs = "tf.gather on GPU returns 0, under XLA clamps; TF on CPU raises"
ours = "IndexOutOfRangeError, as the TFLite kernel (negative indices are rejected, not wrapped)"
evidence = "tensorflow/lite/kernels/gather.cc: indices_has_only_positive_elements, 'gather index out of bounds'"
kind = "device"
[divergence.example]
call = "tflite:tensorflow.gather"
args = { params = [10, 20, 30], indices = [-1] }
dtypes = { params = "float32", indices = "int32" }
theirs = { raises = "RuntimeError" }
ours = { raises = "IndexOutOfRangeError" }
''')


def _describe(axis: int = 0, batch_dims: int = 0) -> Description:
    op = "tflite.GATHER"
    a, b = check_int(op, "axis", axis), check_int(op, "batch_dims", batch_dims)
    if b < 0 or (a < 0 and b):
        raise UnsupportedError(f"translate {op}: batch_dims={b} with axis={a} needs the ranks of params and indices; "
                               "give non-negative values")
    c = canonical("gather", data="params", axis=a, batch_dims=b, negative="raise", bounds="raise")
    return Description(op, {"axis": a, "batch_dims": b}, ("params", "indices"), c,
                       layout={"index_dtypes": ("int16", "int32", "int64"), "data_dtypes": _DTYPES})


_DTYPES = ("float32", "int32", "int64")


@dialect_op("tflite", "GATHER", family="gather", kind="gather", versions=(TFLITE_VERSION,),
            differentiable=("params",), describe=_describe,
            variants=({}, {"axis": 1}, {"axis": -1}, {"axis": 1, "batch_dims": 1}))
def GATHER(params: Any, indices: Any, axis: int = 0, batch_dims: int = 0) -> Lowering:
    """TFLite ``GATHER``: slices of ``params`` at ``indices`` along ``axis`` (with ``batch_dims``).

    Provenance: the TFLite builtin GATHER (``tensorflow/lite/kernels/gather.cc``),
    as produced by converting ``tf.gather(params, indices, axis, batch_dims)`` and
    run by the TF 2.21 ``tf.lite.Interpreter`` on CPU. Indices: int16/int32/int64;
    a negative or out-of-range index fails the invoke ('gather index out of
    bounds'), where TF on GPU would return 0. Output shape
    ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]``.

    Lowering: core ``gather`` with ``IndexSpec(axis=axis, batch=batch_dims)``,
    bounds and negative indices raise.

    Equivalent loop::

        for b, p, i, r in ndindex(B, P, I, R):
            out[b, p, i, r] = params[b, p, indices[b, i], r]

    Differs from ``tf.gather`` on GPU (zero fill) and XLA (clamp), and from
    ``numpy.take`` (negative indices wrap there).

    >>> import gatherscatter as gs
    >>> gs.tflite.GATHER([[1, 2], [3, 4], [5, 6]], [2, 0]).tolist()
    [[5, 6], [1, 2]]
    """
    ctx = tfl_context("GATHER", data="params", indices="indices")
    p = data_array(ctx, params)
    check_data_dtype(ctx, p, DATA_DTYPES)
    i = as_index_array(ctx, indices, "indices", GATHER_INDEX_DTYPES)
    b = to_int(ctx, "batch_dims", batch_dims)
    if b < 0:
        b += i.ndim
    if not 0 <= b <= i.ndim:
        raise ShapeError(f"{ctx.label}: batch_dims {batch_dims} must be in [-{i.ndim}, {i.ndim}]")
    a = normalize_axis(ctx, to_int(ctx, "axis", axis), p.ndim)
    if a < b:
        raise ShapeError(f"{ctx.label}: axis ({a}) must be >= batch_dims ({b})")
    if p.shape[:b] != i.shape[:b]:
        raise ShapeError(
            f"{ctx.label}: params.shape[:batch_dims] must equal indices.shape[:batch_dims]; got {list(p.shape)} "
            f"and {list(i.shape)}"
        )
    check_in_range(ctx, i, (p.shape[a],), "scalar", a)
    return Lowering("gather", p, i, IndexSpec(axis=a, batch=b), Policy(bounds="raise", negative="raise"), ctx)
