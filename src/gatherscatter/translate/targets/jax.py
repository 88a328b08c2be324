"""Target JAX 0.10 (``jax_enable_x64``): ``jnp.take``, ``jnp.take_along_axis``, ``x.at[idx].get/set/add/...``.

Native semantics: negative indices wrap once; out-of-range behaviour is a
*mode*: gathers fill (``'fill'``, with ``fill_value``), clamp (``'clip'``; in
``jnp.take`` without wrapping negatives first) or wrap (``jnp.take``'s
``'wrap'``); scatters drop (``'drop'``) or clamp (``'clip'``). JAX cannot
raise on a bad index (there is no ``'raise'`` mode under jit), so a source
that raises keeps a residual divergence. Index tuples are a tuple of index
arrays (``x.at[tuple(idx)]``); element-wise families and batch dims use
element coordinates. Scatter reductions: set/add/multiply/min/max (sub adds
the negated updates, mean is docs/semantics.md#e11, ``include_self=False`` docs/semantics.md#e10); duplicate
``set`` updates leave the winner implementation-defined.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import Canonical, Mode, Names, Plan, TargetPlan

TAKE: dict[Any, Mode] = {"fill": ("wrap", "fill"), "clip": ("bounds", "clip"), "wrap": ("wrap", "wrap")}
ALONG: dict[Any, Mode] = {"fill": ("wrap", "fill"), "clip": ("wrap", "clip"), "promise_in_bounds": ("bounds", "clip")}
GET: dict[Any, Mode] = {"fill": ("wrap", "fill"), "clip": ("wrap", "clip")}
SCATTER: dict[Any, Mode] = {"drop": ("wrap", "drop"), "clip": ("wrap", "clip")}
_EMPTY = {
    "gather": "jnp.take returns the data itself for empty indices on a size-0 axis and raises for non-empty ones",
    "gather_elements": "jnp.take_along_axis returns zeros from a size-0 axis in every mode",
    "gather_nd": "x.at[idx].get raises on a gather from a size-0 axis (even in fill mode)",
    "scatter": "x.at[idx].<op> returns x unchanged, checking nothing, when the target x[idx] is empty",
}
_TUPLE = "x.at[...] takes a tuple of index arrays, one per leading axis"
AT = {
    "none": qn(_d.jax.at_set),
    "add": qn(_d.jax.at_add),
    "mul": qn(_d.jax.at_multiply),
    "max": qn(_d.jax.at_max),
    "min": qn(_d.jax.at_min),
}


def _fill_attrs(c: Canonical, mode: Any) -> dict[str, Any]:
    """``mode`` and, for a fill the source asked for, its value (the source's None means 0; JAX's means NaN)."""
    attrs: dict[str, Any] = {"mode": mode}
    if mode == "fill" and c.bounds == "fill":
        attrs["fill_value"] = 0 if c.fill_value is None else c.fill_value
    return attrs


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("jax", c, names)
    c = c.with_(indices=p.float_cast(c.indices, "JAX"))
    fam = c.family
    if fam == "gather" and c.batch_dims == 0:
        mode, ad, i, _ = p.indices(c, TAKE, "fill", target="jnp.take")
        p.gather_op(c, ad, qn(_d.jax.take), {"a": c.data, "indices": i}, axis=c.axis, **_fill_attrs(c, mode))
    elif fam == "gather_elements":
        p.along_axis_gather(c, ALONG, "fill", qn(_d.jax.take_along_axis), "jnp.take_along_axis",
                            lambda mode: _fill_attrs(c, mode))
    elif fam in ("gather", "gather_nd"):
        c2 = p.nd_call(c)
        mode, ad, i, _ = p.indices(c2, GET, "fill", target="x.at[idx].get")
        t = p.adapt("unstack_last", "idx", i, why=_TUPLE)
        p.gather_op(c2, ad, qn(_d.jax.at_get), {"x": c.data, "idx": t}, **_fill_attrs(c2, mode))
    else:
        _scatter(p, c)
    p.residual("empty", "reads/writes by its policy (raises, fills or drops for each index into a size-0 axis)",
               _EMPTY["scatter" if c.is_scatter else fam if fam != "gather" or c.batch_dims == 0 else "gather_nd"])
    p.residual("out_of_range", "treats an index beyond the int32 range (e.g. 2**40) by its bounds policy",
               "JAX narrows int64 indices to int32 when the axis fits, so such an index wraps modulo 2**32 "
               "(2**40 reads/writes element 0)")
    if c.bounds == "raise" or c.negative == "raise":
        p.note("JAX cannot raise on an index (no 'raise' mode under jit): a bad index is filled, clamped or dropped")
    return p.tp


def _scatter(p: Plan, c: Canonical) -> None:
    mode, c2, d, idx, u = p.scatter_tuples(c, SCATTER, "drop", "x.at[idx].set")
    t = p.adapt("unstack_last", "idx", idx, why=_TUPLE)
    p.reduce(c2, p.scatter_call(AT, "x", "idx", "values", mode=mode), data=d, indices=t, updates=u,
             native=frozenset(AT))
    p.duplicates(c, False, "JAX .at[].set")
