"""ONNX ``GatherElements`` (opsets 11, 13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, normalize_axis
from .._record import Description, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, data_and_indices, onnx_context, op_version
from ._describe import _INT, _opset, onnx_op

divergence_table("onnx.GatherElements", __file__)


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
