"""Target PaddlePaddle 3.3.1 (CPU): gather, gather_nd, take_along_axis, put_along_axis, scatter_nd_add.

Native semantics: negative indices wrap once, out-of-range indices raise,
int32/int64 indices only. ``paddle.gather`` takes a 1-D index (flattened and
reshaped back here) and has no batch dims; ``gather_nd`` has no batch dims
(element coordinates instead). ``put_along_axis`` has the reductions
assign/add/mul/mean/amin/amax with ``include_self`` (integer means round
down); ``scatter_nd_add`` adds index tuples into ``x``; other nd scatters run
``put_along_axis`` on the flattened data at flat offsets. Overwrite scatters
are documented as nondeterministic for duplicate indices (CPU last-wins).
``put_along_axis`` takes int16/int32/int64/uint8/float32/float64 data only.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import RAISE, WRAP_RAISE, Canonical, Names, Plan, TargetPlan, include_self, native_reductions

REDUCE = {"none": "assign", "add": "add", "mul": "mul", "mean": "mean", "max": "amax", "min": "amin"}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("paddle", c, names)
    fam = c.family
    if fam == "gather" and c.batch_dims == 0:
        p.flat_index_gather(c, WRAP_RAISE, qn(_d.paddle.gather), "x", "axis")
    elif fam == "gather_elements":
        take = qn(_d.paddle.take_along_axis)
        _, ad, i, _ = p.indices(c, WRAP_RAISE, target=take, cast=take)
        p.gather_op(c, ad, take, {"arr": c.data, "indices": i}, axis=c.axis, broadcast=c.broadcast)
    elif fam in ("gather", "gather_nd"):
        c2 = p.nd_call(c, why="" if fam == "gather" else "paddle.gather_nd has no batch dims: element coordinates",
                       cast=qn(_d.paddle.gather_nd))
        _, ad, i, _ = p.indices(c2, WRAP_RAISE, target=qn(_d.paddle.gather_nd))
        p.gather_op(c2, ad, qn(_d.paddle.gather_nd), {"x": c.data, "index": i})
    else:
        (_scatter_elements if fam == "scatter_elements" else _scatter_nd)(p, c)
        p.residual("empty", "checks every index against the data (an index into a size-0 axis raises)",
                   "Paddle's scatters return an empty x unchanged without checking the indices")
    if not c.is_scatter:
        p.residual("empty", "raises for an index into a size-0 axis", "Paddle 3.3.1's CPU gathers read "
                   "uninitialised memory there (gatherscatter's dialect raises)")
    elif c.reduction in ("max", "min"):
        p.residual("nonfinite", f"propagates a NaN update ({c.reduction})", f"Paddle 3.3.1's a{c.reduction} "
                   "keeps the other value (a NaN update is ignored; gatherscatter's dialect propagates it)")
    return p.tp


def _put(p: Plan, c: Canonical, axis: int | None) -> Any:
    return p.scatter_call(qn(_d.paddle.put_along_axis), "arr", "indices", "values", axis=axis,
                          reduce=REDUCE.__getitem__, include_self=lambda r: include_self(c, r), broadcast=False)


def _put_residuals(p: Plan, c: Canonical) -> None:
    p.duplicates(c, False, "paddle.put_along_axis(reduce='assign')")
    p.residual("dtype", "scatters any data dtype", "paddle.put_along_axis takes int16/int32/int64/uint8/"
               "float32/float64 data only")


def _scatter_elements(p: Plan, c: Canonical) -> None:
    put = qn(_d.paddle.put_along_axis)
    _, _, i, u = p.indices(c, WRAP_RAISE, target=put, cast=put)
    i, d, u = p.broadcast_elements(c, i, c.data, u, "paddle.put_along_axis(broadcast=False)")
    p.reduce(c, _put(p, c, c.axis), data=d, indices=i, updates=u, native=native_reductions(c), native_include_self=True)
    _put_residuals(p, c)


def _scatter_nd(p: Plan, c: Canonical) -> None:
    if c.reduction in ("add", "sub") and c.include_self and c.batch_dims == 0:
        add = qn(_d.paddle.scatter_nd_add)
        _, _, i, u = p.indices(c, WRAP_RAISE, target=add, cast=add)
        assert u is not None
        if c.reduction == "sub":
            u = p.adapt("negative", "u", u, why="no subtracting scatter: add the negated updates")
        p.op(add, c.out, {"x": c.data, "index": i, "updates": u})
        return
    p.flat_scatter(c, RAISE, "paddle.put_along_axis", "Paddle has no scatter_nd with this reduction: put_along_axis "
                   "into the flattened data", lambda c2, flat, off, u, y: p.reduce(
                       c2.with_(out=y), _put(p, c, 0), data=flat, indices=off, updates=u, native=native_reductions(c),
                       native_include_self=True))
    _put_residuals(p, c)
