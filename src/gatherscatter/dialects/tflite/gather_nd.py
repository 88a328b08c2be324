"""TFLite builtin ``GATHER_ND`` (``tf.gather_nd`` converted by the TFLite converter)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array
from ...errors import ShapeError
from .._common import check_data_dtype, data_array
from .._record import Description, Residual, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._tfl import GATHER_INDEX_DTYPES, TFLITE_VERSION, check_in_range, tfl_context

#: facts for the op record
DATA_DTYPES = frozenset({"float32", "int8", "uint8", "int16", "int32", "int64", "str", "bytes", "object"})

divergence_table("tflite.GATHER_ND", r'''
[[divergence]]
case = "an index component past its axis whose tuple still lands inside params (e.g. [0, 4] in shape [3, 4])"
when = "out_of_range"
reference = "TF 2.21 CPU"
theirs = "TF raises; TFLite checks only the flat offset and reads the cell it lands on (params[1, 0] here)"
ours = "as TFLite: the flat offset is read; it raises only past the end of params"
evidence = "tensorflow/lite/kernels/internal/reference/reference_ops.h GatherNd (from_pos + slice_size check)"
kind = "undefined"
[divergence.example]
call = "tflite:tensorflow.gather_nd"
args = { params = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], indices = [[0, 4]] }
dtypes = { params = "int32", indices = "int32" }
theirs = { equals = [4] }
ours = "same"

[[divergence]]
case = "negative or out-of-range index tuple"
when = "negative out_of_range"
reference = "TF 2.21 on GPU / XLA"
theirs = "tf.gather_nd on GPU returns 0, under XLA clamps; TF on CPU raises"
ours = "IndexOutOfRangeError, as the TFLite kernel"
evidence = "tensorflow/lite/kernels/gather_nd.cc: indices_has_only_positive_elements; reference GatherNd status"
kind = "device"
[divergence.example]
call = "tflite:tensorflow.gather_nd"
args = { params = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], indices = [[-1, 0]] }
dtypes = { params = "int32", indices = "int32" }
theirs = { raises = "RuntimeError" }
ours = { raises = "IndexOutOfRangeError" }
''')


def _describe() -> Description:
    c = canonical("gather_nd", data="params", negative="raise", bounds="raise")
    res = [Residual("out_of_range", "reads on past a component's axis while the row-major flat offset stays in "
                    "range (the kernel checks the flat offset only)", "raises for the component")]
    return Description("tflite.GATHER_ND", {}, ("params", "indices"), c, residuals=res,
                       layout={"index_dtypes": ("int32", "int64"), "data_dtypes": ("float32", "int32", "int64")})


@dialect_op("tflite", "GATHER_ND", family="gather_nd", kind="gather", versions=(TFLITE_VERSION,),
            differentiable=("params",), describe=_describe, variants=({},))
def GATHER_ND(params: Any, indices: Any) -> Lowering:
    """TFLite ``GATHER_ND``: the slices of ``params`` at the index tuples on the last axis of ``indices``.

    Provenance: the TFLite builtin GATHER_ND (``tensorflow/lite/kernels/gather_nd.cc``),
    as converted from ``tf.gather_nd(params, indices)`` (no batch_dims) and run by
    the TF 2.21 ``tf.lite.Interpreter``. ``indices.shape[-1] = k <= params.ndim``;
    output shape ``indices.shape[:-1] + params.shape[k:]``. A negative or
    out-of-range component fails the invoke.

    Lowering: core ``gather`` of rows of ``params`` viewed as ``(prod(shape[:k]),) +
    shape[k:]`` at the flat row offsets ``sum(indices[..., c] * stride_c)``.

    Equivalent loop::

        for i in ndindex(indices.shape[:-1]):
            out[i] = params.reshape(-1, *params.shape[k:])[ravel(indices[i], params.shape[:k])]

    Differs from ``tf.gather_nd`` on GPU (zero fill) / XLA (clamp), and from ONNX
    ``GatherND`` (negative components wrap there).

    >>> import gatherscatter as gs
    >>> gs.tflite.GATHER_ND([[1, 2], [3, 4]], [[1, 0], [0, 1]]).tolist()
    [3, 2]
    """
    ctx = tfl_context("GATHER_ND", data="params", indices="indices")
    p = data_array(ctx, params)
    check_data_dtype(ctx, p, DATA_DTYPES)
    i = as_index_array(ctx, indices, "indices", GATHER_INDEX_DTYPES)
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: indices must have rank >= 1 (got a 0-d array)")
    k = i.shape[-1]
    if k > p.ndim:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] = {k} must be <= params rank {p.ndim} (params shape {list(p.shape)})"
        )
    neg = i < 0
    if neg.any():
        check_in_range(ctx, i, tuple(p.shape[:k]), "tuple")  # raises for the first negative component
    # TFLite's reference kernel bounds-checks the flat offset only: a component past its axis reads on
    lead = p.shape[:k]
    rows = int(np.prod(lead)) if k else 1
    strides = np.array([int(np.prod(lead[c + 1 :])) for c in range(k)], np.int64)
    flat = (i.astype(np.int64) * strides).sum(axis=-1) if k else np.zeros(i.shape[:-1], np.int64)
    if flat.size and int(flat.max()) >= rows:
        j = int(np.argmax(flat.reshape(-1) >= rows))
        pos = tuple(int(x) for x in np.unravel_index(j, flat.shape)) if flat.ndim else ()
        tup = i.reshape(-1, k)[j].tolist()
        note = f"TFLite checks the flat offset only, and this one is past the end (params shape {list(p.shape)})"
        raise ctx.with_(position_sep=",", bounds_note=note).index_error(
            value=int(flat.reshape(-1)[j]), position=pos, size=rows, axis=0,
            where=f"indices[{','.join(map(str, pos))}] = {tup}: flat row", target=f"params' {rows} rows",
        )
    data = p.reshape((rows, *p.shape[k:]))
    return Lowering("gather", data, flat, IndexSpec(axis=0), Policy(bounds="raise", negative="raise"), ctx)
