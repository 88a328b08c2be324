"""Target ONNX (by opset): Gather, GatherElements, GatherND, ScatterElements, ScatterND.

Native semantics (opset >= 11): negative indices wrap once, out-of-range
indices are an error, duplicate overwrites are unspecified, ``GatherND`` and
``ScatterND`` take int64 indices only. Reductions: add/mul since 16, max/min
since 18; no sub (add the negated updates), no mean (docs/semantics.md#e11), no include_self
(docs/semantics.md#e10).
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ...errors import UnsupportedError
from ..ir import Step
from ..model import Canonical, Residual, TargetPlan
from ..plan import Names, adapt_indices, decompose_reduction, duplicates_residual, gather_post

DEFAULT_OPSET = 18
"""The default target opset: these ops last changed at 18, and every runtime loads it."""

_REDUCTIONS = {11: frozenset({"none"}), 16: frozenset({"none", "add", "mul"}), 18: frozenset(
    {"none", "add", "mul", "max", "min"})}


_K0 = Residual("empty", "accepts index tuples of length k = 0 if it does (TF, Paddle, the neutral API: each one "
               "selects all of data)", "rejects k = 0 (GatherND/ScatterND need 1 <= k; docs/semantics.md#pitfall-14)")


def reductions(opset: int) -> frozenset[str]:
    """The ScatterElements/ScatterND reductions of ``opset``."""
    return _REDUCTIONS[max(v for v in _REDUCTIONS if v <= max(opset, 11))]


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    opset = DEFAULT_OPSET if version is None else int(version)
    if opset < 11:
        raise UnsupportedError(f"translate to onnx: opset {opset} is not supported (the gather/scatter ops "
                               "with negative indices and GatherND/ScatterND need opset >= 11)")
    tp = TargetPlan("onnx", [])
    n = names("i")
    if c.index_dtype == "int":  # integer indices: cast first, so the index adapters compute in int64
        why = "ONNX GatherND/ScatterND take int64 indices only (docs/semantics.md#pitfall-1)" if c.family in (
            "gather_nd", "scatter_nd") else ("ONNX takes int32/int64 indices only (docs/semantics.md#pitfall-1: "
                                             "int8/int16/uint8 sources)")
        tp.steps.append(Step.adapt("cast", n, c.indices, dtype="int64", why=why))
        c = c.with_(indices=n)
    ad = adapt_indices(c, names, negative="wrap", bounds="raise")
    tp.steps += ad.pre
    tp.residuals += ad.residuals
    i = ad.indices
    if c.index_dtype != "int":  # float indices (MXNet): their policies first, then the cast truncates
        tp.steps.append(Step.adapt("cast", n, i, dtype="int64", why="ONNX indices are integers"))
        i = n
    fam = c.family
    if fam in ("gather_nd", "scatter_nd"):
        tp.residuals.append(_K0)
    if fam == "gather":
        res = names("y") if ad.post_mask else c.out
        if c.batch_dims == 0:
            tp.steps.append(Step.op(qn(_d.onnx.Gather), res, {"data": c.data, "indices": i}, axis=c.axis, opset=opset))
        elif c.axis == c.batch_dims and opset >= 12:
            n = names("i")
            tp.steps.append(Step.adapt("expand_dims", n, i, axis=-1, why="one-component index tuples "
                                                                         "(docs/semantics.md#e7)"))
            tp.steps.append(Step.op(qn(_d.onnx.GatherND), res, {"data": c.data, "indices": n},
                                    batch_dims=c.batch_dims, opset=opset))
        else:
            # ONNX Gather has no batch_dims, and GatherND's batch dims (opset >= 12) must come right before the
            # gathered axis: gather single elements at their full coordinates instead
            # (docs/semantics.md#e1/docs/semantics.md#e7)
            n = names("i")
            tp.steps.append(Step.adapt("take_coordinates", n, i, c.data, axis=c.axis, batch_dims=c.batch_dims,
                                       why="gather with batch_dims < axis (or opset < 12): read each output "
                                       "element at its coordinates (docs/semantics.md#e1/docs/semantics.md#e7)"))
            tp.steps.append(Step.op(qn(_d.onnx.GatherND), res, {"data": c.data, "indices": n}, batch_dims=0,
                                    opset=opset))
        tp.steps += gather_post(c, names, res, ad)
    elif fam == "gather_elements":
        d = c.data
        if c.broadcast:
            n, m = names("i"), names("d")
            tp.steps.append(Step.adapt("broadcast_indices", n, i, c.data, axis=c.axis,
                                       why="GatherElements does not broadcast (docs/semantics.md#e14)"))
            tp.steps.append(Step.adapt("broadcast_data", m, c.data, i, axis=c.axis, why="nor does its data"))
            i, d = n, m
        res = names("y") if ad.post_mask else c.out
        tp.steps.append(Step.op(qn(_d.onnx.GatherElements), res, {"data": d, "indices": i}, axis=c.axis, opset=opset))
        tp.steps += gather_post(c, names, res, ad)
    elif fam == "gather_nd":
        res = names("y") if ad.post_mask else c.out
        b = c.batch_dims
        if b and opset < 12:  # GatherND's batch_dims arrived in opset 12: element coordinates instead
            n = names("i")
            tp.steps.append(Step.adapt("nd_coordinates", n, i, c.data, batch_dims=b,
                                       why="GatherND has no batch_dims before opset 12: read single elements at "
                                       "their full coordinates"))
            i, b = n, 0
        tp.steps.append(Step.op(qn(_d.onnx.GatherND), res, {"data": c.data, "indices": i}, batch_dims=b, opset=opset))
        tp.steps += gather_post(c, names, res, ad)
    elif fam in ("scatter_elements", "scatter_nd"):
        assert ad.updates is not None
        u = ad.updates
        if fam == "scatter_nd" and c.batch_dims:
            n = names("i")
            tp.steps.append(Step.adapt("nd_coordinates", n, i, c.data, batch_dims=c.batch_dims,
                                       why="ScatterND has no batch_dims: scatter single elements at their full "
                                       "coordinates (the updates already have that shape)"))
            i = n
        if fam == "scatter_elements" and c.broadcast:
            n, m = names("i"), names("u")
            tp.steps.append(Step.adapt("broadcast_indices", n, i, c.data, axis=c.axis,
                                       why="ScatterElements does not broadcast"))
            tp.steps.append(Step.adapt("broadcast_data", m, u, n, axis=None, why="updates take the indices' shape"))
            i, u = n, m
        onnx_op = qn(_d.onnx.ScatterElements) if fam == "scatter_elements" else qn(_d.onnx.ScatterND)
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
