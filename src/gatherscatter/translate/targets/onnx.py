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
from ..model import Residual
from ..plan import adapt_indices
from ._common import Canonical, Names, Plan, TargetPlan, duplicates_residual

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
    p = Plan.start("onnx", c, names)
    n = names("i")
    if c.index_dtype == "int":  # integer indices: cast first, so the index adapters compute in int64
        why = "ONNX GatherND/ScatterND take int64 indices only (docs/semantics.md#pitfall-1)" if c.family in (
            "gather_nd", "scatter_nd") else ("ONNX takes int32/int64 indices only (docs/semantics.md#pitfall-1: "
                                             "int8/int16/uint8 sources)")
        c = c.with_(indices=p.adapt_to(n, "cast", c.indices, dtype="int64", why=why))
    ad = adapt_indices(c, names, negative="wrap", bounds="raise")
    i, u = p.apply(ad)
    if c.index_dtype != "int":  # float indices (MXNet): their policies first, then the cast truncates
        i = p.adapt_to(n, "cast", i, dtype="int64", why="ONNX indices are integers")
    fam = c.family
    if fam in ("gather_nd", "scatter_nd"):
        p.tp.residuals.append(_K0)
    if fam == "gather":
        op, attrs = qn(_d.onnx.GatherND), dict[str, Any](batch_dims=0)
        if c.batch_dims == 0:
            op, attrs = qn(_d.onnx.Gather), {"axis": c.axis}
        elif c.axis == c.batch_dims and opset >= 12:
            i = p.adapt("expand_dims", "i", i, axis=-1, why="one-component index tuples (docs/semantics.md#e7)")
            attrs = {"batch_dims": c.batch_dims}
        else:
            # ONNX Gather has no batch_dims, and GatherND's batch dims (opset >= 12) must come right before the
            # gathered axis: gather single elements at their full coordinates instead
            i = p.adapt("take_coordinates", "i", i, c.data, axis=c.axis, batch_dims=c.batch_dims,
                        why="gather with batch_dims < axis (or opset < 12): read each output element at its "
                        "coordinates (docs/semantics.md#e1/docs/semantics.md#e7)")
        p.gather_op(c, ad, op, {"data": c.data, "indices": i}, **attrs, opset=opset)
    elif fam == "gather_elements":
        i, d, _ = p.broadcast_elements(c, i, c.data, None, "GatherElements")
        p.gather_op(c, ad, qn(_d.onnx.GatherElements), {"data": d, "indices": i}, axis=c.axis, opset=opset)
    elif fam == "gather_nd":
        b = c.batch_dims
        if b and opset < 12:  # GatherND's batch_dims arrived in opset 12: element coordinates instead
            i, b = p.adapt("nd_coordinates", "i", i, c.data, batch_dims=b, why="GatherND has no batch_dims before "
                           "opset 12: read single elements at their full coordinates"), 0
        p.gather_op(c, ad, qn(_d.onnx.GatherND), {"data": c.data, "indices": i}, batch_dims=b, opset=opset)
    else:
        if fam == "scatter_nd" and c.batch_dims:
            i = p.adapt("nd_coordinates", "i", i, c.data, batch_dims=c.batch_dims, why="ScatterND has no batch_dims: "
                        "scatter single elements at their full coordinates (the updates already have that shape)")
        if fam == "scatter_elements":
            i, _, u = p.broadcast_elements(c, i, c.data, u, "ScatterElements")
        assert u is not None
        extra: dict[str, Any] = {"axis": c.axis} if fam == "scatter_elements" else {}
        call = p.scatter_call(qn(_d.onnx.ScatterElements) if fam == "scatter_elements" else qn(_d.onnx.ScatterND),
                              "data", "indices", "updates", reduction=lambda r: r, opset=opset, **extra)
        native = reductions(opset)
        r = c.reduction
        if (r not in native and r not in ("sub", "mean")) or (r in ("sub", "mean") and "add" not in native):
            p.tp.exact = False
            p.tp.steps += call(c.data, i, u, "none", c.out)
            p.residual("always", f"reduces with {r!r}", f"overwrites (opset {opset} has no {r!r} reduction; "
                       "ScatterND/ScatterElements reductions need opset 16, max/min 18)")
        else:
            p.reduce(c, call, data=c.data, indices=i, updates=u, native=native)
        p.tp.residuals += duplicates_residual(c, False, "ONNX")
    return p.tp
