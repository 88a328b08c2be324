"""Target ONNX (by opset): Gather, GatherElements, GatherND, ScatterElements, ScatterND.

Native semantics (opset >= 11): negative indices wrap once, out-of-range
indices are an error, duplicate overwrites are unspecified, ``GatherND`` and
``ScatterND`` take int64 indices only. Reductions: add/mul since 16, max/min
since 18; no sub (add the negated updates), no mean (E11), no include_self
(E10).
"""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedError
from ..ir import Step
from ..model import Canonical, Residual, TargetPlan
from ..plan import Names, adapt_indices, decompose_reduction, duplicates_residual, gather_post
from . import target

DEFAULT_OPSET = 18
"""The default target opset: these ops last changed at 18, and every runtime loads it."""

_REDUCTIONS = {11: frozenset({"none"}), 16: frozenset({"none", "add", "mul"}), 18: frozenset(
    {"none", "add", "mul", "max", "min"})}


def reductions(opset: int) -> frozenset[str]:
    """The ScatterElements/ScatterND reductions of ``opset``."""
    return _REDUCTIONS[max(v for v in _REDUCTIONS if v <= max(opset, 11))]


@target("onnx")
def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    opset = DEFAULT_OPSET if version is None else int(version)
    if opset < 11:
        raise UnsupportedError(f"translate to onnx: opset {opset} is not supported (the gather/scatter ops "
                               "with negative indices and GatherND/ScatterND need opset >= 11)")
    tp = TargetPlan("onnx", [])
    ad = adapt_indices(c, names, negative="wrap", bounds="raise")
    tp.steps += ad.pre
    tp.residuals += ad.residuals
    i = ad.indices
    if c.index_dtype != "int" or c.family in ("gather_nd", "scatter_nd"):
        n = names("i")
        why = "ONNX GatherND/ScatterND take int64 indices only" if c.index_dtype == "int" else \
            "ONNX indices are integers"
        tp.steps.append(Step.adapt("cast", n, i, dtype="int64", why=why))
        i = n
    fam = c.family
    if fam == "gather":
        res = names("y") if ad.post_mask else c.out
        if c.batch_dims == 0:
            tp.steps.append(Step.op("onnx.Gather", res, {"data": c.data, "indices": i}, axis=c.axis, opset=opset))
        elif c.axis == c.batch_dims:
            if opset < 12:
                raise UnsupportedError("translate to onnx: Gather with batch_dims needs GatherND with batch_dims "
                                       "(opset >= 12)")
            n = names("i")
            tp.steps.append(Step.adapt("expand_dims", n, i, axis=-1, why="one-component index tuples (E7)"))
            tp.steps.append(Step.adapt("cast", names("i"), n, dtype="int64", why="GatherND takes int64"))
            tp.steps.append(Step.op("onnx.GatherND", res, {"data": c.data, "indices": tp.steps[-1].out},
                                    batch_dims=c.batch_dims, opset=opset))
        else:
            raise UnsupportedError(
                f"translate to onnx: a gather with batch_dims={c.batch_dims} < axis={c.axis} needs a Transpose of "
                "data to put the axis after the batch dims and one of the result back (E7); not planned yet"
            )
        tp.steps += gather_post(c, names, res, ad)
    elif fam == "gather_elements":
        d = c.data
        if c.broadcast:
            n, m = names("i"), names("d")
            tp.steps.append(Step.adapt("broadcast_indices", n, i, c.data, axis=c.axis,
                                       why="GatherElements does not broadcast (E14)"))
            tp.steps.append(Step.adapt("broadcast_data", m, c.data, i, axis=c.axis, why="nor does its data"))
            i, d = n, m
        res = names("y") if ad.post_mask else c.out
        tp.steps.append(Step.op("onnx.GatherElements", res, {"data": d, "indices": i}, axis=c.axis, opset=opset))
        tp.steps += gather_post(c, names, res, ad)
    elif fam == "gather_nd":
        res = names("y") if ad.post_mask else c.out
        tp.steps.append(Step.op("onnx.GatherND", res, {"data": c.data, "indices": i}, batch_dims=c.batch_dims,
                                opset=opset))
        tp.steps += gather_post(c, names, res, ad)
    elif fam in ("scatter_elements", "scatter_nd"):
        if fam == "scatter_nd" and c.batch_dims:
            raise UnsupportedError("translate to onnx: ScatterND has no batch_dims; give the index tuples their "
                                   "batch coordinates first (not planned yet)")
        assert ad.updates is not None
        u = ad.updates
        if fam == "scatter_elements" and c.broadcast:
            n, m = names("i"), names("u")
            tp.steps.append(Step.adapt("broadcast_indices", n, i, c.data, axis=c.axis,
                                       why="ScatterElements does not broadcast"))
            tp.steps.append(Step.adapt("broadcast_data", m, u, n, axis=None, why="updates take the indices' shape"))
            i, u = n, m
        onnx_op = "onnx.ScatterElements" if fam == "scatter_elements" else "onnx.ScatterND"
        extra: dict[str, Any] = {"axis": c.axis} if fam == "scatter_elements" else {}

        def call(data: str, indices: str, updates: str, reduction: str, out: str) -> list[Step]:
            return [Step.op(onnx_op, out, {"data": data, "indices": indices, "updates": updates},
                            reduction=reduction, opset=opset, **extra)]

        native = reductions(opset)
        r = c.reduction
        if (r not in native and r not in ("sub", "mean")) or (r in ("sub", "mean") and "add" not in native):
            tp.exact = False
            tp.steps += call(c.data, i, u, "none", c.out)
            tp.residuals.append(Residual("always", f"reduces with {r!r}", f"overwrites (opset {opset} has no "
                                         f"{r!r} reduction; ScatterND/ScatterElements reductions need opset 16, "
                                         "max/min 18)"))
        else:
            steps, res_ = decompose_reduction(c, names, call, data=c.data, indices=i, updates=u, native=native)
            tp.steps += steps
            tp.residuals += res_
        tp.residuals += duplicates_residual(c, False, "ONNX")
    else:
        raise UnsupportedError(f"translate to onnx: family {fam!r} has no ONNX op")
    return tp
