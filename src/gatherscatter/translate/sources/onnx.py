"""Sources: ONNX Gather, GatherElements, GatherND, ScatterElements, ScatterND, Scatter (every opset).

From opset 11 on every op wraps negative indices once and raises out of range
(ONNX says "error"; ONNX Runtime's CPU kernels raise); the opset-1..10 ops
are read the way ONNX Runtime runs them (negative indices wrap, see the
dialect's divergence records). Duplicate overwrites are unspecified
(``duplicates_specified=False``). GatherND/ScatterND take int64 indices only.
"""

from __future__ import annotations

from typing import Any

from ..model import Source
from . import canonical, source
from ._layout import check_choice, check_int

_INT = ("int32", "int64")
_I64 = ("int64",)
_REDUCTIONS = ("none", "add", "mul", "max", "min")


def _opset(opset: Any) -> dict[str, Any]:
    return {"opset": check_int("onnx", "opset", opset, optional=True)}


@source("onnx.Gather")
def gather(axis: int = 0, opset: int | None = None) -> Source:
    axis = check_int("onnx.Gather", "axis", axis)
    c = canonical("gather", axis=axis)
    return Source("onnx.Gather", {"axis": axis, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


@source("onnx.GatherElements")
def gather_elements(axis: int = 0, opset: int | None = None) -> Source:
    axis = check_int("onnx.GatherElements", "axis", axis)
    c = canonical("gather_elements", axis=axis)
    return Source("onnx.GatherElements", {"axis": axis, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT})


@source("onnx.GatherND")
def gather_nd(batch_dims: int = 0, opset: int | None = None) -> Source:
    b = check_int("onnx.GatherND", "batch_dims", batch_dims)
    c = canonical("gather_nd", batch_dims=b)
    return Source("onnx.GatherND", {"batch_dims": b, **_opset(opset)}, ("data", "indices"), c,
                  layout={"index_dtypes": _I64})


@source("onnx.ScatterElements")
def scatter_elements(axis: int = 0, reduction: str = "none", opset: int | None = None) -> Source:
    axis = check_int("onnx.ScatterElements", "axis", axis)
    check_choice("onnx.ScatterElements", "reduction", reduction, _REDUCTIONS)
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=reduction,
                  duplicates_specified=False)
    return Source("onnx.ScatterElements", {"axis": axis, "reduction": reduction, **_opset(opset)},
                  ("data", "indices", "updates"), c, layout={"index_dtypes": _INT, "smaller_index": True})


@source("onnx.Scatter")
def scatter(axis: int = 0, opset: int = 9) -> Source:
    axis = check_int("onnx.Scatter", "axis", axis)
    c = canonical("scatter_elements", updates="updates", axis=axis, duplicates_specified=False)
    return Source("onnx.Scatter", {"axis": axis, **_opset(opset)}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _INT, "smaller_index": True})


@source("onnx.ScatterND")
def scatter_nd(reduction: str = "none", opset: int | None = None) -> Source:
    check_choice("onnx.ScatterND", "reduction", reduction, _REDUCTIONS)
    c = canonical("scatter_nd", updates="updates", reduction=reduction, duplicates_specified=False)
    return Source("onnx.ScatterND", {"reduction": reduction, **_opset(opset)}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _I64})
