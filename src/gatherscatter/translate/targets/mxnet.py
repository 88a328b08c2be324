"""Target MXNet 1.9.1 (``mx.nd``): take, gather_nd, scatter_nd -- index tuples on the FIRST axis.

Native semantics: ``take`` has modes ``'clip'`` (its default: -1 reads
element 0), ``'wrap'`` (i mod s) and ``'raise'`` (only ``[0, s-1]``: negative
indices raise); ``gather_nd`` wraps negatives once and raises out of range;
``scatter_nd(data=updates, indices, shape)`` writes into ZEROS, overwrites,
and checks no index (a bad index crashes MXNet; the dialect raises). Index
tuples lie on the first axis of ``indices`` (docs/semantics.md#e6). MXNet has no element-wise
gather (docs/semantics.md#e4 coordinates + gather_nd) and no accumulating scatter: a scatter
into ``data`` is ``where(scatter_nd(ones), f(data, scatter_nd(updates)), data)``,
exact for an overwrite but, for a reduction, only without duplicate indices.
MXNet 1.9 cannot express empty or 0-d arrays.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import RAISE, WRAP_RAISE, Canonical, Mode, Names, Plan, Step, TargetPlan

TAKE: dict[Any, Mode] = {"raise": ("raise", "raise"), "clip": ("bounds", "clip"), "wrap": ("wrap", "wrap")}
_INT = "MXNet takes int32/int64 (or float) indices: not int16/uint8"
_FIRST = "MXNet keeps index tuples on the FIRST axis (docs/semantics.md#e6)"


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("mxnet", c, names)
    fam = c.family
    if c.index_dtype == "int" and ((fam == "gather" and c.batch_dims == 0) or fam == "gather_nd"):
        c = c.with_(indices=p.adapt("cast", "i", c.indices, dtype="int64", why=_INT))
    if fam == "gather" and c.batch_dims == 0:
        mode, ad, i, _ = p.indices(c, TAKE, "raise", target="mx.nd.take")
        p.gather_op(c, ad, qn(_d.mxnet.take), {"a": c.data, "indices": i}, axis=c.axis, mode=mode)
    elif fam in ("gather", "gather_elements", "gather_nd"):
        c2 = c if fam == "gather_nd" and not c.batch_dims else p.gather_coordinates(
            c, "MXNet", "MXNet has no element-wise gather: full index tuples for gather_nd (docs/semantics.md#e4)"
            if fam == "gather_elements" else "")
        _, ad, i, _ = p.indices(c2, WRAP_RAISE, target="mx.nd.gather_nd")
        m = p.adapt("moveaxis", "idx", i, source=-1, destination=0, why=_FIRST)
        p.gather_op(c2, ad, qn(_d.mxnet.gather_nd), {"data": c2.data, "indices": m})
    else:
        _scatter(p, c)
    p.residual("empty", "accepts empty arrays", "MXNet 1.9 cannot express an empty array (a 0 dim means 'unknown')")
    p.residual("scalar", "accepts 0-d indices and results and a single index tuple",
               "MXNet 1.9 has no 0-d arrays, and gather_nd/scatter_nd need indices of rank >= 2")
    return p.tp


def _scatter(p: Plan, c: Canonical) -> None:
    _, c2, d, idx, u = p.scatter_tuples(c, RAISE, None, "mx.nd.scatter_nd", why="MXNet scatters take index "
                                        "tuples: full coordinates (docs/semantics.md#e16)", cast=lambda i: i if
                                        c.index_dtype != "int" else p.adapt("cast", "i", i, dtype="int64", why=_INT))
    m = p.adapt("moveaxis", "idx", idx, source=-1, destination=0, why=_FIRST)
    shape = p.adapt("shape_of", "shape", d, why="scatter_nd builds a new array of this shape")
    state: dict[str, str] = {}

    def call(data: str, ix: str, upd: str, reduction: str, out: str) -> list[Step]:
        steps: list[Step] = []
        if "mask" not in state:
            ones, mask = p.names("ones"), p.names("hit")
            steps += [Step.adapt("ones_like", ones, upd, why="mark the targeted positions ..."),
                      Step.op(qn(_d.mxnet.scatter_nd), mask, {"data": ones, "indices": m, "shape": shape},
                              why="... 1 where an index points, 0 elsewhere")]
            state["mask"] = mask
        s = p.names("s")
        steps.append(Step.op(qn(_d.mxnet.scatter_nd), s, {"data": upd, "indices": m, "shape": shape},
                             why="scatter_nd writes into zeros: the updates alone"))
        if reduction != "none":
            f = p.names("f")
            steps.append(Step.adapt("combine", f, data, s, reduction=reduction, why=f"{reduction} with the written "
                                    "update (MXNet has no accumulating scatter: one update per position)"))
            s = f
        steps.append(Step.adapt("select", out, state["mask"], s, data, why="keep data where nothing was written"))
        return steps

    p.reduce(c2, call, data=d, indices=m, updates=u, native=frozenset({"none", "add", "sub", "mul", "max", "min"}))
    p.duplicates(c, False, "mx.nd.scatter_nd")
    if c.reduction != "none":
        p.tp.exact = False
        p.residual("duplicates", "reduces every update", "reduces only one update per position (MXNet scatter_nd "
                   "overwrites; no accumulating scatter exists)")
        p.meet(c, "reduces every update (after its bounds policy)", "reduces only one update per position")
    if c.bounds == "raise":
        for when in ("out_of_range", "negative"):
            p.residual(when, "raises" if when == "out_of_range" or c.negative != "wrap" else "wraps it once",
                       "MXNet scatter_nd checks no index: it crashes or writes out of bounds (gatherscatter's "
                       "dialect raises)")
