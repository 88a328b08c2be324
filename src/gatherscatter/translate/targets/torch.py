"""Target PyTorch 2.13 (CPU): index_select, gather, take, take_along_dim, scatter, scatter_reduce, index_put.

Native semantics: ``index_select``/``gather``/``scatter``/``scatter_reduce``
reject negative indices and raise out of range; ``take`` and ``index_put``
wrap negatives once and raise out of range; ``take_along_dim`` (with ``dim``)
broadcasts and takes every index modulo the axis size. torch has no gather_nd
function: index tuples become element coordinates and flat offsets for
``torch.take``. Reductions: ``scatter_reduce`` has sum/prod/mean/amax/amin
and ``include_self`` (integer means round down), ``index_put`` accumulates
(``accumulate=True``); sub adds the negated updates. Overwrite scatters leave
the winner of duplicate indices unspecified (CPU last-wins, CUDA not).
torch accumulates float16/bfloat16 sums and products in float32.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import RAISE, WRAP_RAISE, Canonical, Names, Plan, Step, TargetPlan, include_self, native_reductions

REDUCE = {"add": "sum", "mul": "prod", "mean": "mean", "max": "amax", "min": "amin"}

_HALF = ("torch accumulates float16/bfloat16 sums, products and means in float32 and rounds once "
         "(and keeps the mean count in the data dtype)")


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("torch", c, names)
    fam = c.family
    if fam == "gather" and c.batch_dims == 0:
        p.flat_index_gather(c, RAISE, qn(_d.torch.index_select), "input", "dim")
    elif fam == "gather_elements":
        _gather_elements(p, c)
    elif fam in ("gather", "gather_nd"):
        p.flat_gather(c, RAISE, qn(_d.torch.take), ("input", "index"), "torch has no gather_nd: torch.take reads "
                      "the flattened input")
    elif fam == "scatter_elements":
        _scatter_elements(p, c)
    else:
        _scatter_nd(p, c)
    return p.tp


def _gather_elements(p: Plan, c: Canonical) -> None:
    if c.bounds == "wrap" and c.negative in ("wrap", "bounds"):
        take = qn(_d.torch.take_along_dim)
        p.along_axis_gather(c, {None: ("wrap", "wrap")}, None, take, take, arr="input", cast=take, axis_kw="dim",
                            why="take_along_dim takes every index modulo the axis size, as the source's wrap mode")
        return
    gather = qn(_d.torch.gather)
    _, ad, i, _ = p.indices(c, RAISE, target=gather, cast=gather)
    i, d, _ = p.broadcast_elements(c, i, c.data, None, gather)
    p.gather_op(c, ad, gather, {"input": d, "index": i}, dim=c.axis)


def _dtype_residual(p: Plan, c: Canonical) -> None:
    if c.reduction in ("add", "sub", "mul", "mean"):
        p.residual("dtype", "rounds at every step in the data dtype", _HALF)


def _scatter(c: Canonical, dim: int | None) -> Any:
    """``scatter`` (overwrite) or ``scatter_reduce`` along ``dim``."""

    def call(data: str, idx: str, upd: str, reduction: str, out: str) -> list[Step]:
        if reduction == "none":
            return [Step.op(qn(_d.torch.scatter), out, {"input": data, "index": idx, "src": upd}, dim=dim)]
        return [Step.op(qn(_d.torch.scatter_reduce), out, {"input": data, "index": idx, "src": upd}, dim=dim,
                        reduce=REDUCE[reduction], include_self=include_self(c, reduction))]

    return call


def _scatter_elements(p: Plan, c: Canonical) -> None:
    _, _, i, u = p.indices(c, RAISE, target=qn(_d.torch.scatter), cast=qn(_d.torch.scatter))
    i, d, u = p.broadcast_elements(c, i, c.data, u, qn(_d.torch.scatter))
    p.reduce(c, _scatter(c, c.axis), data=d, indices=i, updates=u, native=native_reductions(c),
             native_include_self=True)
    p.duplicates(c, False, qn(_d.torch.scatter))
    _dtype_residual(p, c)


def _scatter_nd(p: Plan, c: Canonical) -> None:
    if c.reduction in ("none", "add", "sub"):
        # index_put: a tuple of index arrays, negative indices wrap, accumulate=True adds every update
        c2 = p.nd_call(c, cast=qn(_d.torch.index_put))
        _, _, i, u = p.indices(c2, WRAP_RAISE, target=qn(_d.torch.index_put))
        t = p.adapt("unstack_last", "idx", i, why="torch.index_put takes a tuple of index tensors, one per "
                    "leading dim")
        call = p.scatter_call(qn(_d.torch.index_put), "input", "indices", "values", accumulate=lambda r: r == "add")
        p.reduce(c2, call, data=c.data, indices=t, updates=u, native=frozenset({"none", "add"}))
        p.duplicates(c, False, qn(_d.torch.index_put))
    else:  # other reductions: scatter_reduce on the flattened input at flat offsets
        p.flat_scatter(c, RAISE, "torch.scatter_reduce", "torch has no scatter_nd with these reductions: "
                       "scatter_reduce into the flattened input", lambda c2, flat, off, u, y: p.reduce(
                           c2.with_(out=y), _scatter(c, 0), data=flat, indices=off, updates=u,
                           native=native_reductions(c), native_include_self=True))
    _dtype_residual(p, c)
