"""Target MLX 0.32 (``mlx.core``, CPU): take, take_along_axis, put_along_axis, ``array.at[].add/...``.

Negative indices wrap once; MLX checks no bound (out of range: undefined; the dialect raises). take/put
_along_axis broadcast the indices. No gather_nd or tuple scatter: flat offsets into the flattened array
(take; put_along_axis overwrites, last duplicate wins on CPU; ``.at[]`` reduces every repeat in turn).
MLX computes float64 data in float32: no plan is exact for it.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ..ir import Step
from ..model import Canonical, TargetPlan
from ..plan import Names
from ._common import Mode, Plan

MODES: dict[Any, Mode] = {None: ("wrap", "unchecked")}
FLAT: dict[Any, Mode] = {None: ("bounds", "unchecked")}  # ravel_tuples: a bad component maps past the end
AT = {"add": qn(_d.mlx.at_add), "sub": qn(_d.mlx.at_subtract), "mul": qn(_d.mlx.at_multiply),
      "max": qn(_d.mlx.at_maximum), "min": qn(_d.mlx.at_minimum)}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p, fam = Plan.start("mlx", c, names), c.family
    c = c.with_(indices=p.float_cast(c.indices, "MLX"))
    if fam == "gather" and c.batch_dims == 0:
        _, ad = p.policy(c, MODES, None, target="mx.take")
        p.gather_op(c, ad, qn(_d.mlx.take), {"a": c.data, "indices": p.apply(ad)[0]}, axis=c.axis)
    elif fam == "gather_elements":
        p.along_axis_gather(c, MODES, None, qn(_d.mlx.take_along_axis), "mx.take_along_axis", arr="a")
    elif fam in ("gather", "gather_nd"):
        p.flat_gather(c, FLAT, qn(_d.mlx.take), ("a", "indices"), "MLX has no gather_nd: axis=None reads the "
                      "flattened array", axis=None)
    elif fam == "scatter_elements" and c.reduction == "none" and c.broadcast:
        _, _, i, u = p.indices(c, MODES, target="mx.put_along_axis")
        p.op(qn(_d.mlx.put_along_axis), c.out, {"a": c.data, "indices": i, "values": u or ""}, axis=c.axis)
    else:
        _scatter(p, c)
    p.duplicates(c, False, "mx.put_along_axis")
    p.residual("always", "keeps float64 data float64", "MLX computes float64 data in 32 bits (float32: no float64 "
               "on its CPU arrays by default) and returns float32")
    return p.tp


def flat_scatter(p: Plan, c: Canonical, modes: dict[Any, Mode], target: str, call: Any, native: frozenset[str],
                 column: bool = False) -> None:
    """``c`` as ``call`` scatters into the flattened data at flat offsets (1-D; ``column``: ``(n, 1)`` index
    tuples), then reshaped back: for targets without a scatter by index tuples (MLX) or with 2-D ones only."""
    _, c2, d, coords, u = p.scatter_tuples(c, modes, None, target, always=True)
    off = p.adapt("ravel_tuples", "off", coords, d, why="flat offsets into the flattened data")
    off, u = p.adapt("flatten", "off", off, why="1-D offsets ..."), p.adapt("flatten", "u", u, why="... and updates")
    if column:
        off = p.adapt("expand_dims", "off", off, axis=-1, why="one-component index tuples")
    flat, res = p.adapt("flatten", "flat", d, why="scatter into the flattened data"), p.names("y")
    p.reduce(c2.with_(out=res), call, data=flat, indices=off, updates=u, native=native)
    p.adapt_to(c.out, "reshape_like", res, d, why="back to the data's shape")


def _scatter(p: Plan, c: Canonical) -> None:
    def call(data: str, ix: str, upd: str, reduction: str, out: str) -> list[Step]:
        args = {"a": data, "indices": ix, "values": upd}
        return [Step.op(qn(_d.mlx.put_along_axis), out, args, axis=0) if reduction == "none" else
                Step.op(AT[reduction], out, args)]

    flat_scatter(p, c, FLAT, "a flat MLX scatter", call, frozenset({"none", *AT}))
    if c.reduction != "none":
        p.residual("empty", "returns empty data unchanged", "MLX's array.at[] raises on a size-0 array ('updates "
                   "too large'; the dialect does not)")
