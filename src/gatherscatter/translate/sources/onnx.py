"""Sources: ONNX Gather, GatherElements, GatherND, ScatterElements, ScatterND, Scatter."""

from __future__ import annotations

from ..model import Source
from . import canonical, source


def _opset(opset: int | None) -> dict[str, int | None]:
    return {"opset": opset}


@source("onnx.Gather")
def gather(axis: int = 0, opset: int | None = None) -> Source:
    c = canonical("gather", axis=axis)
    return Source("onnx.Gather", {"axis": axis, **_opset(opset)}, ("data", "indices"), c)


@source("onnx.GatherElements")
def gather_elements(axis: int = 0, opset: int | None = None) -> Source:
    c = canonical("gather_elements", axis=axis)
    return Source("onnx.GatherElements", {"axis": axis, **_opset(opset)}, ("data", "indices"), c)


@source("onnx.GatherND")
def gather_nd(batch_dims: int = 0, opset: int | None = None) -> Source:
    c = canonical("gather_nd", batch_dims=batch_dims)
    return Source("onnx.GatherND", {"batch_dims": batch_dims, **_opset(opset)}, ("data", "indices"), c)


@source("onnx.ScatterElements")
def scatter_elements(axis: int = 0, reduction: str = "none", opset: int | None = None) -> Source:
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=reduction,
                  duplicates_specified=False)
    return Source("onnx.ScatterElements", {"axis": axis, "reduction": reduction, **_opset(opset)},
                  ("data", "indices", "updates"), c)


@source("onnx.Scatter")
def scatter(axis: int = 0, opset: int = 9) -> Source:
    c = canonical("scatter_elements", updates="updates", axis=axis, duplicates_specified=False)
    return Source("onnx.Scatter", {"axis": axis, "opset": opset}, ("data", "indices", "updates"), c)


@source("onnx.ScatterND")
def scatter_nd(reduction: str = "none", opset: int | None = None) -> Source:
    c = canonical("scatter_nd", updates="updates", reduction=reduction, duplicates_specified=False)
    return Source("onnx.ScatterND", {"reduction": reduction, **_opset(opset)}, ("data", "indices", "updates"), c)
