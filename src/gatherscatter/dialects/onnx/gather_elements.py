"""ONNX ``GatherElements`` (opsets 11, 13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, normalize_axis
from .._record import Description, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, data_and_indices, onnx_context, op_version
from ._describe import _INT, _opset, onnx_op

divergence_table("onnx.GatherElements", r'''
[[divergence]]
case = "index outside [-s, s-1]"
when = "out_of_range"
reference = "onnx.reference 1.23 (ReferenceEvaluator)"
theirs = "wraps the index modulo s (np.choose mode='wrap'), silently"
ours = "IndexOutOfRangeError, as the spec ('it is an error') and ONNX Runtime CPU"
evidence = "docs/behavior-matrix.md#t6-2 (ref: wrap [[1],[4]] for index 3); docs/semantics.md#s3-2"
kind = "oracle"
[divergence.example]
call = "onnx.reference:GatherElements"
opset = 13
args = { data = [1, 2, 3], indices = [3] }
kwargs = { axis = 0 }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [1] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "indices smaller than data on a non-axis dim"
when = "always"
reference = "onnx.reference 1.23"
theirs = "ValueError 'all dimensions of index and self should be the same size'"
ours = "accepted (reads the leading block), as ONNX Runtime and torch.gather"
evidence = "docs/behavior-matrix.md#t6-2 and docs/behavior-matrix.md#t6-10 (ORT [[1],[5]], ref error)"
kind = "oracle"
[divergence.example]
call = "onnx.reference:GatherElements"
opset = 13
args = { data = [[1, 2], [3, 4]], indices = [[0]] }
kwargs = { axis = 0 }
dtypes = { data = "float32", indices = "int64" }
theirs = { raises = "ValueError" }
ours = { equals = [[1]] }

[[divergence]]
case = "gathered axis longer than 64"
when = "always"
reference = "onnx.reference 1.23"
theirs = "fails (np.choose accepts at most 64 choices; fallback reshapes wrongly)"
ours = "any length"
evidence = "docs/behavior-matrix.md#perf-8"
kind = "oracle"
[divergence.example]
call = "onnx.reference:GatherElements"
opset = 13
kwargs = { axis = 0 }
dtypes = { data = "float32", indices = "int64" }
theirs = { raises = "ValueError" }
ours = { equals = [64] }
[divergence.example.args]
data = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
    58, 59, 60, 61, 62, 63, 64,
]
indices = [64]
''')


def _describe(axis: int = 0, opset: int | None = None) -> Description:
    axis = check_int("onnx.GatherElements", "axis", axis)
    c = canonical("gather_elements", axis=axis)
    return Description("onnx.GatherElements", {"axis": axis, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT})


@onnx_op("GatherElements", family="gather_elements", versions=(11, 13), adds={13: "bfloat16"}, differentiable=("data",),
         describe=_describe, variants=({"axis": 1},))
def GatherElements(data: Any, indices: Any, axis: int = 0, opset: int | None = None) -> Lowering:
    """ONNX GatherElements: one element of ``data`` per index (= ``torch.gather``).

    Versions: GatherElements-11, -13 (bfloat16). ``opset=None``: the newest.

    ``indices`` has the rank of ``data``; the output has the shape of
    ``indices``. On every dim except ``axis`` the indices may be shorter than the
    data (ONNX Runtime accepts it; the leading block is read), never longer.
    Negative indices wrap once; outside ``[-s, s-1]`` raises.

    Equivalent loop::

        for j in ndindex(indices.shape):
            k = indices[j]; k = k + s if k < 0 else k
            Y[j] = data[j[:axis] + (k,) + j[axis+1:]]

    Differs from ``np.take_along_axis`` / ``torch.take_along_dim``, which
    broadcast the indices; from ``torch.gather``, which rejects negatives; and
    from ``onnx.reference``, which wraps out-of-range indices silently.

    >>> import gatherscatter as gs
    >>> gs.onnx.GatherElements([[1, 2], [3, 4]], [[0, 0], [1, 0]], axis=1).tolist()
    [[1, 1], [4, 3]]
    >>> gs.onnx.GatherElements([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-1, -2, 0], [-2, 0, 0]]).tolist()
    [[7, 5, 3], [4, 2, 3]]
    """
    opset, version = op_version("GatherElements", (11, 13), opset)
    ctx = onnx_context("GatherElements", opset, version)
    d, i = data_and_indices(ctx, version, data, indices, INDEX_INT32_INT64)
    a = normalize_axis(ctx, axis, d.ndim)
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=a, elementwise=True), WRAPPING, ctx)
