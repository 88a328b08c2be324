"""Target OpenVINO (by opset; default 15): Gather-8, GatherElements-6, GatherND-8, ScatterElementsUpdate-12,
ScatterNDUpdate-15.

Native semantics: Gather-8 wraps negative indices and returns 0 for
out-of-range ones (so a zero fill is native, and a source that raises keeps
a residual); GatherElements-6 takes ``[0, s-1]`` only (the spec; negatives
are normalised here) and raises out of range; GatherND-8, ScatterElementsUpdate-12
and ScatterNDUpdate-15 wrap negatives and raise out of range (the CPU plugin's
GatherND-8 reads garbage memory there instead). Gather and GatherND have
``batch_dims``; GatherElements does not broadcast and wants the data's shape
off the axis. ScatterElementsUpdate-12 has sum/prod/min/max/mean with
``use_init_val`` (its mean is not used: the CPU plugin truncates integer means, so
mean is docs/semantics.md#e11); ScatterNDUpdate-15 has
sum/sub/prod/min/max (mean is docs/semantics.md#e11, ``use_init_val=False`` docs/semantics.md#e10). Duplicate
overwrites update in an undefined order (CPU last-wins). Before opset 15
(ScatterNDUpdate-3 has no reduction) nd scatters run ScatterElementsUpdate-12
on the flattened data at flat offsets.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ...errors import UnsupportedError
from ._common import RAISE, WRAP_RAISE, Canonical, Mode, Names, Plan, TargetPlan, include_self, zero_fill

DEFAULT_OPSET = 15
GATHER8: dict[Any, Mode] = {None: ("wrap", "zero")}
SEU = {"none": "none", "add": "sum", "mul": "prod", "max": "max", "min": "min", "mean": "mean"}
SNDU = {"none": "none", "add": "sum", "sub": "sub", "mul": "prod", "max": "max", "min": "min"}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    opset = DEFAULT_OPSET if version is None else int(version)
    if opset < 12:
        raise UnsupportedError(f"translate to openvino: opset {opset} is not supported (Gather-8 needs opset 8, "
                               "ScatterElementsUpdate-12 with negative indices and reductions opset 12)")
    p = Plan.start("openvino", c, names)
    c = c.with_(indices=p.float_cast(c.indices, "OpenVINO"))
    fam = c.family
    if fam == "gather" and not (c.bounds == "fill" and c.batch_dims and c.axis != c.batch_dims
                                and not zero_fill(c)):
        _, ad, i, _ = p.indices(c, GATHER8, target="Gather-8")
        p.gather_op(c, ad, qn(_d.openvino.Gather), {"data": c.data, "indices": i}, axis=c.axis, batch_dims=c.batch_dims,
                    version=8)
        p.residual("empty", "applies its index policy to an index into a size-0 axis (raises, or clamps and "
                   "then raises)", "Gather-8 returns 0 for every index into a size-0 axis")
    elif fam == "gather_elements":
        p.along_axis_gather(c, RAISE, None, qn(_d.openvino.GatherElements), "GatherElements-6 (indices in "
                            "[0, s-1])", arr="data", broadcast=True, cast="GatherElements-6", version=6)
    elif fam in ("gather", "gather_nd"):
        c2 = c
        if fam == "gather":
            c2, _ = p.element_coordinates(c, c.indices, c.data, why="a fill with batch_dims < axis: element "
                                          "coordinates, so the fill mask lines up with the result")
        _, ad, i, _ = p.indices(c2, WRAP_RAISE, target="GatherND-8")
        p.gather_op(c2, ad, qn(_d.openvino.GatherND), {"data": c.data, "indices": i}, batch_dims=c2.batch_dims,
                    version=8)
        if c.bounds == "raise":
            p.note("the CPU plugin's GatherND-8 reads garbage memory for an out-of-range index instead of raising")
    elif fam == "scatter_elements":
        _scatter_elements(p, c)
    else:
        _scatter_nd(p, c, opset)
    return p.tp


def _scatter_elements(p: Plan, c: Canonical) -> None:
    _, _, i, u = p.indices(c, WRAP_RAISE, target="ScatterElementsUpdate-12")
    i, d, u = p.broadcast_elements(c, i, c.data, u, "ScatterElementsUpdate-12")
    call = p.scatter_call(qn(_d.openvino.ScatterElementsUpdate), "data", "indices", "updates", axis=c.axis,
                          reduction=SEU.__getitem__,
                          use_init_val=lambda r: include_self(c, r) or r in ("max", "min"), version=12)

    # no native mean: the CPU plugin truncates integer means (the spec rounds down) and divides floats in
    # another order than sum / count; docs/semantics.md#e11 computes the source's mean on the real plugin too
    # use_init_val=False pre-fills a FINITE lowest()/max() for max/min (an all -inf max would give lowest()):
    # pre-fill the true identity (-inf/+inf) with docs/semantics.md#e10 instead
    p.reduce(c, call, data=d, indices=i, updates=u, native=frozenset({"none", "add", "mul", "max", "min"}),
             native_include_self=c.reduction not in ("max", "min"))
    p.duplicates(c, False, "OpenVINO ScatterElementsUpdate")
    if c.reduction == "mean":
        p.note("mean is sum / count (docs/semantics.md#e11), not ScatterElementsUpdate's own mean: the CPU plugin "
               "truncates integer means toward zero where the spec rounds down")


def _scatter_nd(p: Plan, c: Canonical, opset: int) -> None:
    if opset < 15:
        p.flat_scatter(c, RAISE, "ScatterElementsUpdate-12", "ScatterNDUpdate-3 has no reduction (opset < 15): "
                       "scatter elements of the flattened data", lambda c2, flat, off, u, y: _scatter_elements(
                           p, c2.with_(family="scatter_elements", data=flat, indices=off, updates=u, axis=0, out=y,
                                       negative="wrap", bounds="raise", broadcast=False)))
        return
    c2 = p.nd_call(c, why="ScatterNDUpdate-15 has no batch dims: element coordinates", cast="ScatterNDUpdate-15")
    _, _, i, u = p.indices(c2, WRAP_RAISE, target="ScatterNDUpdate-15")
    call = p.scatter_call(qn(_d.openvino.ScatterNDUpdate), "data", "indices", "updates", reduction=SNDU.__getitem__,
                          version=15)
    p.reduce(c2, call, data=c.data, indices=i, updates=u, native=frozenset(SNDU))
    p.duplicates(c, False, "OpenVINO ScatterNDUpdate")
