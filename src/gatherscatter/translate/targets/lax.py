"""Target ``jax.lax`` (JAX 0.10, ``jax_enable_x64``): XLA's general ``lax.gather`` / ``lax.scatter*``.

Every family reduces to one form (docs/semantics.md#e21): the indices become
element coordinates (one component per data dim: ``coordinates``,
``take_coordinates``, ``nd_coordinates``), the index policy is adapted on them,
and ``ravel_tuples`` turns each tuple into a row-major offset into the
flattened data (a tuple with a component out of range maps one past the end).
The op is then ``lax.gather`` / ``lax.scatter*`` with *fixed* dimension
numbers -- one collapsed dim, unit slices (``GATHER_DN``, ``SCATTER_DN``) -- so the plan is rank-generic.
``lax`` never wraps negative indices; ``mode='fill'`` fills a gather's
out-of-range reads with ``fill_value`` and ``mode='drop'`` drops a scatter's
out-of-range updates, both exact on the raveled offsets; ``'clip'`` would
clamp the flat offset (not each component), so clamping sources clamp the
components first. lax cannot raise (a source that raises keeps a residual).
Reductions: scatter / add / mul / min / max (sub, mean and include_self=False by
:func:`..plan.decompose_reduction`); duplicate overwrites leave the winner
implementation-defined.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import Canonical, Mode, Names, Plan, TargetPlan

GATHER: dict[Any, Mode] = {"fill": ("bounds", "fill")}
SCATTER: dict[Any, Mode] = {"drop": ("bounds", "drop")}
GATHER_DN = _d.jax.lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
SCATTER_DN = _d.jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                                scatter_dims_to_operand_dims=(0,))
SCATTER_OPS = {"none": qn(_d.jax.lax.scatter), "add": qn(_d.jax.lax.scatter_add),
               "mul": qn(_d.jax.lax.scatter_mul), "max": qn(_d.jax.lax.scatter_max),
               "min": qn(_d.jax.lax.scatter_min)}
_RAVEL = "row-major offsets into the flattened data (a tuple out of range maps one past the end)"


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The ``lax.gather`` / ``lax.scatter*`` plan of ``c`` (see the module docstring)."""
    p = Plan.start("lax", c, names)
    c = c.with_(indices=p.float_cast(c.indices, "lax"))
    (_scatter if c.is_scatter else _gather)(p, c)
    p.residual("out_of_range", "treats an index beyond the int32 range (e.g. 2**40) by its bounds policy",
               "JAX may narrow int64 indices to int32 when the data fits, so such an index can wrap modulo 2**32")
    if c.bounds == "raise" or c.negative == "raise":
        p.note("lax cannot raise on an index (no 'raise' mode under jit): a bad index is filled or dropped")
    return p.tp


def _offsets(p: Plan, c: Canonical, i: str, data: str) -> tuple[str, str]:
    """Flat data and offsets of shape ``i.shape[:-1] + (1,)`` (the index vector on the last axis)."""
    off = p.adapt("ravel_tuples", "off", i, data, why=_RAVEL)
    off = p.adapt("expand_dims", "off", off, axis=-1, why="lax reads one-component index vectors on the last axis")
    flat = p.adapt("flatten", "flat", data, why="one operand dim: the dimension numbers do not depend on the rank")
    return flat, off


def _gather(p: Plan, c: Canonical) -> None:
    c2 = p.gather_coordinates(c, "lax.gather")
    mode, ad, i, _ = p.indices(c2, GATHER, "fill", target="lax.gather")
    flat, off = _offsets(p, c2, i, c2.data)
    fill = 0 if c2.fill_value is None or c2.bounds != "fill" else c2.fill_value
    p.gather_op(c2, ad, qn(_d.jax.lax.gather), {"operand": flat, "start_indices": off}, dimension_numbers=GATHER_DN,
                slice_sizes=(1,), mode=mode, fill_value=fill)
    p.residual("empty", "reads by its policy (raises or fills for each index into a size-0 axis)",
               "fills every read of an empty data (lax.gather on an empty operand)")


def _scatter(p: Plan, c: Canonical) -> None:
    mode, c2, d, i, u = p.scatter_tuples(c, SCATTER, "drop", "lax.scatter", always=True)
    flat, off = _offsets(p, c2, i, d)
    y = p.names("y")
    call = p.scatter_call(SCATTER_OPS, "operand", "scatter_indices", "updates", dimension_numbers=SCATTER_DN, mode=mode)
    p.reduce(c2.with_(out=y), call, data=flat, indices=off, updates=u, native=frozenset(SCATTER_OPS))
    p.adapt_to(c.out, "reshape_like", y, d, why="back to the data's shape")
    p.duplicates(c, False, "lax.scatter")
    p.residual("empty", "writes by its policy (raises or drops for each index into a size-0 axis)",
               "drops every update into an empty data")
