"""Sources: OpenVINO (opset ops by version, CPU plugin semantics as the dialects define them).

``axis`` (an input in OpenVINO) is a translation attribute here. Versions:
Gather-1/7 (``[0, s-1]``, anything else raises) and -8 (negative indices wrap,
out of range reads 0); GatherND-5 (no negatives; ``batch_dims > 1`` merges the
batch dims into one leading output dim) and -8; ScatterElementsUpdate-3 (no
reduction, no negatives) and -12 (reductions, ``use_init_val``, negatives wrap);
ScatterNDUpdate-3 and -15 (reductions incl. ``sub``, negatives wrap);
ScatterUpdate-3 (whole slices along ``axis``: an nd scatter into
``moveaxis(data, axis, 0)``, docs/semantics.md#e17). Duplicate overwrites are unspecified.
"""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedError
from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_bool, check_choice, check_int, moved_axis_args

_INT = ("int32", "int64")
_SEU = {"none": "none", "sum": "add", "prod": "mul", "min": "min", "max": "max", "mean": "mean"}
_SNDU = {"none": "none", "sum": "add", "sub": "sub", "prod": "mul", "min": "min", "max": "max"}
_FINITE_START = Residual("nonfinite", "starts max/min from the finite lowest()/max() with use_init_val=False, so an "
                         "infinite update of the wrong sign gives that finite extreme", "excludes the initial value "
                         "(the result is the infinite update)")


def _reduction(op: str, reduction: str, names: dict[str, str]) -> str:
    if not isinstance(reduction, str):
        raise UnsupportedError(f"translate {op}: reduction must be a string (got {reduction!r})")
    return names[check_choice(op, "reduction", reduction.lower(), tuple(names))]


@source("openvino.Gather")
def gather(axis: int, batch_dims: int = 0, version: int = 8) -> Source:
    op = "openvino.Gather"
    axis = check_int(op, "axis", axis)
    b = check_int(op, "batch_dims", batch_dims)
    v = check_choice(op, "version", version, (1, 7, 8))
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims={b} counts from the end of indices, whose rank a "
                               "translation does not know; give the non-negative batch_dims")
    if b and axis < 0:
        raise UnsupportedError(f"translate {op}: a negative axis ({axis}) with batch_dims={b}: give the "
                               "non-negative axis")
    kw: dict[str, Any] = (dict(negative="wrap", bounds="fill", fill_value=0) if v == 8
                          else dict(negative="raise", bounds="raise"))
    c = canonical("gather", axis=axis, batch_dims=b, **kw)
    return Source(op, {"axis": axis, "batch_dims": b, "version": v}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT + ("int16", "uint8")})


@source("openvino.GatherElements")
def gather_elements(axis: int, version: int = 6) -> Source:
    op = "openvino.GatherElements"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (6,))
    c = canonical("gather_elements", axis=axis, negative="raise")
    return Source(op, {"axis": axis, "version": v}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT, "full_index": True})


@source("openvino.GatherND")
def gather_nd(batch_dims: int = 0, version: int = 8) -> Source:
    op = "openvino.GatherND"
    b = check_int(op, "batch_dims", batch_dims)
    v = check_choice(op, "version", version, (5, 8))
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims must be >= 0 (got {b})")
    attrs = {"batch_dims": b, "version": v}
    layout: dict[str, Any] = {"index_dtypes": _INT + ("int16",), "rank": (b + 1, b + 2)}
    if v == 8:
        return Source(op, attrs, ("data", "indices"), canonical("gather_nd", batch_dims=b), layout=layout)
    if b <= 1:
        return Source(op, attrs, ("data", "indices"), canonical("gather_nd", batch_dims=b, negative="raise"),
                      layout=layout)
    c = canonical("gather_nd", batch_dims=b, negative="raise", out="y")
    post = [Step.adapt("merge_leading", "out", "y", count=b,
                       why="GatherND-5 flattens the batch dims into one leading dim (docs/semantics.md#pitfall-7)")]
    return Source(op, attrs, ("data", "indices"), c, post=post, layout=layout)


@source("openvino.ScatterElementsUpdate")
def scatter_elements_update(axis: int, reduction: str = "none", use_init_val: bool = True,
                            version: int = 12) -> Source:
    op = "openvino.ScatterElementsUpdate"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (3, 12))
    r = _reduction(op, reduction, _SEU if v == 12 else {"none": "none"})
    use_init_val = check_bool(op, "use_init_val", use_init_val)
    if v == 3 and not use_init_val:
        raise UnsupportedError(f"translate {op}: ScatterElementsUpdate-3 has no use_init_val")
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=r, include_self=use_init_val,
                  negative="wrap" if v == 12 else "raise", duplicates_specified=False, mean_rounding="floor")
    res = [_FINITE_START] if not use_init_val and r in ("max", "min") else []
    layout: dict[str, Any] = {"index_dtypes": _INT, "smaller_index": True}
    if r in ("max", "min"):
        layout["nonfinite"] = 0.2
    return Source(op, {"axis": axis, "reduction": reduction, "use_init_val": use_init_val, "version": v},
                  ("data", "indices", "updates"), c, residuals=res, layout=layout)


@source("openvino.ScatterNDUpdate")
def scatter_nd_update(reduction: str = "none", version: int = 15) -> Source:
    op = "openvino.ScatterNDUpdate"
    v = check_choice(op, "version", version, (3, 15))
    r = _reduction(op, reduction, _SNDU if v == 15 else {"none": "none"})
    c = canonical("scatter_nd", updates="updates", reduction=r, negative="wrap" if v == 15 else "raise",
                  duplicates_specified=False)
    return Source(op, {"reduction": reduction, "version": v}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _INT})


@source("openvino.ScatterUpdate")
def scatter_update(axis: int, version: int = 3) -> Source:
    op = "openvino.ScatterUpdate"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (3,))
    pre = [Step.adapt("moveaxis", "data0", "data", source=axis, destination=0,
                      why="ScatterUpdate writes whole slices along axis: move it first (docs/semantics.md#e17)"),
           Step.adapt("expand_dims", "tuples", "indices", axis=-1, why="one-component index tuples"),
           Step.adapt("moveaxis_block", "upd", "updates", "indices", "data", axis=axis,
                      why="the updates' index dims sit at axis: move them first")]
    c = canonical("scatter_nd", data="data0", indices="tuples", updates="upd", out="y", negative="raise",
                  duplicates_specified=False)
    post = [Step.adapt("moveaxis", "out", "y", source=0, destination=axis, why="move axis back")]
    need = axis + 1 if axis >= 0 else -axis
    return Source(op, {"axis": axis, "version": v}, ("data", "indices", "updates"), c, pre=pre, post=post,
                  layout={"index_dtypes": _INT + ("int16",), "k": 1, "rank": (need, need + 1),
                          "to_source": moved_axis_args(axis, "data", "indices", "updates")})
