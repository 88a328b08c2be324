"""ONNX ``Gather`` (opsets 1, 11, 13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, normalize_axis
from .._record import Description, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, data_and_indices, onnx_context, op_version
from ._describe import _INT, _opset, onnx_op

divergence_table("onnx.Gather", r'''
[[divergence]]
case = "negative index at opsets 1-10"
when = "negative"
reference = "ONNX spec (Gather-1)"
theirs = "Gather-1 says only that indices must be 'within bounds'; early ONNX Runtime rejected negatives"
ours = "negative indices wrap once (i + s), as ONNX Runtime 1.31 and onnx.reference do at opsets 9 and 10"
evidence = """
docs/behavior-matrix.md#t6-8 (Gather idx [-1] ok at opsets 9, 10); microsoft/onnxruntime#1533; onnx/onnx#2260"""
kind = "spec"
versions = "1"
not_reproducible = "the reference is spec text (ONNX Runtime 1.31 and onnx.reference do what ours does)"

[[divergence]]
case = "index outside [-s, s-1]"
when = "out_of_range"
reference = "ONNX Runtime CUDA / DirectML / OpenVINO EP"
theirs = """
CUDA does not check, DirectML clamps, OpenVINO EP on GPU returns zeros; the spec says only 'it is an error'"""
ours = "IndexOutOfRangeError, as ONNX Runtime CPU ('indices element out of data bounds')"
evidence = "onnx/onnx#2179, #2202; microsoft/onnxruntime#10234, #25251; docs/behavior-matrix.md#t6-1"
kind = "device"
not_reproducible = "GPU / DirectML / OpenVINO execution providers only (ONNX Runtime CPU raises, as ours)"
''')


def _describe(axis: int = 0, opset: int | None = None) -> Description:
    axis = check_int("onnx.Gather", "axis", axis)
    c = canonical("gather", axis=axis)
    return Description("onnx.Gather", {"axis": axis, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


@onnx_op("Gather", family="gather", versions=(1, 11, 13), adds={11: "negative indices made explicit", 13: "bfloat16"},
         differentiable=("data",), describe=_describe, variants=({"axis": 1},))
def Gather(data: Any, indices: Any, axis: int = 0, opset: int | None = None) -> Lowering:
    """ONNX Gather: take whole slices of ``data`` along ``axis`` (= ``np.take``).

    Versions: Gather-1, -11 (negative indices made explicit), -13 (bfloat16).
    ``opset`` selects the version in force (``None``: the newest, 28).

    ``Y.shape = data.shape[:axis] + indices.shape + data.shape[axis+1:]``; a 0-d
    ``indices`` removes the axis. Indices are int32 or int64; negative indices
    wrap once; anything outside ``[-s, s-1]`` raises ``IndexOutOfRangeError``.

    Equivalent loop::

        for p in ndindex(data.shape[:axis]), i in ndindex(indices.shape), r in ndindex(data.shape[axis+1:]):
            k = indices[i]; k = k + s if k < 0 else k
            Y[p + i + r] = data[p + (k,) + r]

    Differs from ``torch.gather`` (that is ONNX GatherElements) and from
    ``tf.gather`` (no ``batch_dims``; TF rejects negative indices on CPU).

    >>> import gatherscatter as gs
    >>> gs.onnx.Gather([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], [[0, 1], [1, 2]]).tolist()
    [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]]
    >>> gs.onnx.Gather([10, 20, 30], [-1, 0]).tolist()
    [30, 10]
    """
    opset, version = op_version("Gather", (1, 11, 13), opset)
    ctx = onnx_context("Gather", opset, version)
    d, i = data_and_indices(ctx, version, data, indices, INDEX_INT32_INT64)
    a = normalize_axis(ctx, axis, d.ndim)
    return Lowering("gather", d, i, IndexSpec(axis=a), WRAPPING, ctx)
