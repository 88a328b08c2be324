"""ONNX ``GatherND`` (opsets 11, 12, 13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, to_int
from ...errors import AxisError, ShapeError, UnsupportedError
from .._record import Description, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT64, data_and_indices, onnx_context, op_version
from ._describe import _I64, _opset, onnx_op

divergence_table("onnx.GatherND", r'''
[[divergence]]
case = "int32 indices"
when = "dtype"
reference = "onnx.reference 1.23"
theirs = "accepted"
ours = "DTypeError: GatherND takes int64 indices only (schema; ONNX Runtime rejects int32 at load)"
evidence = "onnx.defs schema GatherND; docs/behavior-matrix.md#t6-3 index dtypes"
kind = "oracle"
[divergence.example]
call = "onnx.reference:GatherND"
opset = 13
args = { data = [1, 2], indices = [[1]] }
dtypes = { data = "float32", indices = "int32" }
theirs = { equals = [2] }
ours = { raises = "DTypeError" }
''')


def _describe(batch_dims: int = 0, opset: int | None = None) -> Description:
    b = check_int("onnx.GatherND", "batch_dims", batch_dims)
    c = canonical("gather_nd", batch_dims=b)
    return Description("onnx.GatherND", {"batch_dims": b, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _I64})


@onnx_op("GatherND", family="gather_nd", versions=(11, 12, 13), adds={12: "batch_dims", 13: "bfloat16"},
         differentiable=("data",), describe=_describe, variants=({}, {"batch_dims": 1}))
def GatherND(data: Any, indices: Any, batch_dims: int = 0, opset: int | None = None) -> Lowering:
    """ONNX GatherND: gather slices addressed by index tuples on the last axis of ``indices``.

    Versions: GatherND-11, -12 (``batch_dims``), -13 (bfloat16). ``opset=None``:
    the newest. Indices are int64 only.

    With ``k = indices.shape[-1]`` and ``b = batch_dims``:
    ``Y.shape = indices.shape[:-1] + data.shape[b+k:]``. Rules: ``r >= 1``,
    ``q >= 1``, ``0 <= b < min(q, r)``, ``1 <= k <= r - b``,
    ``data.shape[:b] == indices.shape[:b]``. Negative indices wrap once; outside
    ``[-s, s-1]`` raises.

    Equivalent loop::

        for i in ndindex(indices.shape[:-1]):
            t = tuple(x + s_j if x < 0 else x for j, x in enumerate(indices[i]))
            Y[i] = data[i[:b] + t]

    Differs from MXNet ``gather_nd`` (index tuples on the FIRST axis) and from
    ``tf.gather_nd`` (negative indices rejected, ``k = 0`` allowed).

    >>> import gatherscatter as gs
    >>> gs.onnx.GatherND([[0, 1], [2, 3]], [[0, 0], [1, 1]]).tolist()
    [0, 3]
    >>> gs.onnx.GatherND([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[1], [0]], batch_dims=1).tolist()
    [[2, 3], [4, 5]]
    """
    opset, version = op_version("GatherND", (11, 12, 13), opset)
    ctx = onnx_context("GatherND", opset, version)
    b = to_int(ctx, "batch_dims", batch_dims)
    if version < 12 and b != 0:
        raise UnsupportedError(
            f"{ctx.label}: the batch_dims attribute was added in opset 12 (GatherND-12); got batch_dims={b}"
        )
    d, i = data_and_indices(ctx, version, data, indices, INDEX_INT64)
    r, q = d.ndim, i.ndim
    if q < 1:
        raise ShapeError(f"{ctx.label}: indices must have rank q >= 1; got a 0-d array")
    if not 0 <= b < min(q, r):
        raise AxisError(
            f"{ctx.label}: batch_dims must satisfy 0 <= batch_dims < min(rank(indices), rank(data)) "
            f"= {min(q, r)}; got batch_dims={b} with data shape {list(d.shape)} and indices shape "
            f"{list(i.shape)}"
        )
    k = i.shape[-1]
    if not 1 <= k <= r - b:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] (the index tuple length) must be in [1, rank(data) - "
            f"batch_dims] = [1, {r - b}]; got {k} (indices shape {list(i.shape)}, data shape "
            f"{list(d.shape)})"
        )
    return Lowering("gather", d, i, IndexSpec(axis=b, depth=k, batch=b, vector=True), WRAPPING, ctx)
