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
from ...errors import UnsupportedError
from ..ir import Step
from ..model import Canonical, TargetPlan
from ..plan import Names
from ._common import Mode, Plan, include_self, native_reductions

WRAP_RAISE: dict[Any, Mode] = {None: ("wrap", "raise")}
FLAT: dict[Any, Mode] = {None: ("raise", "raise")}
REDUCE = {"none": "assign", "add": "add", "mul": "mul", "mean": "mean", "max": "amax", "min": "amin"}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("paddle", c, names)
    fam = c.family
    if fam == "gather" and c.batch_dims == 0:
        p.flat_index_gather(c, WRAP_RAISE, qn(_d.paddle.gather), "x", "axis")
    elif fam == "gather_elements":
        c = c.with_(indices=p.index_cast(c.indices, qn(_d.paddle.take_along_axis)))
        _, ad = p.policy(c, WRAP_RAISE, None, target=qn(_d.paddle.take_along_axis))
        i, _ = p.apply(ad)
        p.gather_op(c, ad, qn(_d.paddle.take_along_axis), {"arr": c.data, "indices": i}, axis=c.axis,
                    broadcast=c.broadcast)
    elif fam in ("gather", "gather_nd"):
        if fam == "gather" or c.batch_dims:
            c2, _ = p.element_coordinates(c, c.indices, c.data, why="" if fam == "gather" else "paddle.gather_nd "
                                          "has no batch dims: element coordinates")
        else:
            c2 = c = c.with_(indices=p.index_cast(c.indices, qn(_d.paddle.gather_nd)))
        _, ad = p.policy(c2, WRAP_RAISE, None, target=qn(_d.paddle.gather_nd))
        i, _ = p.apply(ad)
        p.gather_op(c2, ad, qn(_d.paddle.gather_nd), {"x": c.data, "index": i})
    elif fam in ("scatter_elements", "scatter_nd"):
        (_scatter_elements if fam == "scatter_elements" else _scatter_nd)(p, c)
        p.residual("empty", "checks every index against the data (an index into a size-0 axis raises)",
                   "Paddle's scatters return an empty x unchanged without checking the indices")
    else:
        raise UnsupportedError(f"translate to paddle: unknown family {fam!r}")
    if not c.is_scatter:
        p.residual("empty", "raises for an index into a size-0 axis", "Paddle 3.3.1's CPU gathers read "
                   "uninitialised memory there (gatherscatter's dialect raises)")
    elif c.reduction in ("max", "min"):
        p.residual("nonfinite", f"propagates a NaN update ({c.reduction})", f"Paddle 3.3.1's a{c.reduction} "
                   "keeps the other value (a NaN update is ignored; gatherscatter's dialect propagates it)")
    return p.tp


def _put(c: Canonical, axis: int | None) -> Any:
    def call(data: str, idx: str, upd: str, reduction: str, out: str) -> list[Step]:
        return [Step.op(qn(_d.paddle.put_along_axis), out, {"arr": data, "indices": idx, "values": upd}, axis=axis,
                        reduce=REDUCE[reduction], include_self=include_self(c, reduction), broadcast=False)]

    return call


def _put_residuals(p: Plan, c: Canonical) -> None:
    p.duplicates(c, False, "paddle.put_along_axis(reduce='assign')")
    p.residual("dtype", "scatters any data dtype", "paddle.put_along_axis takes int16/int32/int64/uint8/"
               "float32/float64 data only")


def _scatter_elements(p: Plan, c: Canonical) -> None:
    assert c.updates is not None
    c = c.with_(indices=p.index_cast(c.indices, qn(_d.paddle.put_along_axis)))
    _, ad = p.policy(c, WRAP_RAISE, None, target=qn(_d.paddle.put_along_axis))
    i, u = p.apply(ad)
    assert u is not None
    i, d, u = p.broadcast_elements(c, i, c.data, u, "paddle.put_along_axis(broadcast=False)")
    assert u is not None
    p.reduce(c, _put(c, c.axis), data=d, indices=i, updates=u, native=native_reductions(c), native_include_self=True)
    _put_residuals(p, c)


def _scatter_nd(p: Plan, c: Canonical) -> None:
    assert c.updates is not None
    if c.reduction in ("add", "sub") and c.include_self and c.batch_dims == 0:
        c = c.with_(indices=p.index_cast(c.indices, qn(_d.paddle.scatter_nd_add)))
        _, ad = p.policy(c, WRAP_RAISE, None, target=qn(_d.paddle.scatter_nd_add))
        i, u = p.apply(ad)
        assert u is not None
        if c.reduction == "sub":
            u = p.adapt("negative", "u", u, why="no subtracting scatter: add the negated updates")
        p.op(qn(_d.paddle.scatter_nd_add), c.out, {"x": c.data, "index": i, "updates": u})
        return
    p.flat_scatter(c, FLAT, "paddle.put_along_axis", "Paddle has no scatter_nd with this reduction: put_along_axis "
                   "into the flattened data", lambda c2, flat, off, u, y: p.reduce(
                       c2.with_(out=y), _put(c, 0), data=flat, indices=off, updates=u, native=native_reductions(c),
                       native_include_self=True))
    _put_residuals(p, c)
