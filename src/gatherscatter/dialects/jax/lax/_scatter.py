"""Shared lowering of ``jax.lax.scatter`` and its reductions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.policy import Policy, Reduction
from ....core.shape import as_array, as_updates, dtype_name
from ....errors import DTypeError, UnsupportedError
from ..._registry import Lowering, divergence_table
from .._common import NO_BOOL, GatherScatterMode, check_data, common_divergences, jax_context, parse_mode
from ._dnums import _check_indices_rank, parse_scatter_dnums, scatter_check, scatter_coordinates

__all__ = ["lax_scatter_divergences", "lower_lax_scatter"]


def lower_lax_scatter(name: str, reduction: Reduction, operand: Any, scatter_indices: Any, updates: Any,
                      dimension_numbers: Any, mode: Any) -> Lowering:
    """``jax.lax.<name>`` as a core scatter over explicit coordinates (see ``_dnums``)."""
    ctx = jax_context(f"jax.lax.{name}", data="operand", indices="scatter_indices", updates="updates")
    d = check_data(ctx, operand, "operand")
    i = as_array(ctx, scatter_indices, "scatter_indices")
    if i.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: scatter_indices must have an integer type; got {i.dtype}")
    u = as_updates(ctx, updates, d.dtype)
    dn = parse_scatter_dnums(ctx, dimension_numbers)
    m = parse_mode(ctx, mode, default=GatherScatterMode.FILL_OR_DROP)
    kind = dtype_name(d.dtype)
    if kind == "bool" and reduction in NO_BOOL:
        what = NO_BOOL[reduction]
        raise DTypeError(f"{ctx.label}: {what} does not accept dtype bool; accepted: integer, floating, complex")
    if d.dtype.kind == "c" and reduction in (Reduction.MIN, Reduction.MAX):
        raise UnsupportedError(
            f"{ctx.label}: complex {reduction.value} is not supported (XLA orders complex numbers "
            "lexicographically; the gatherscatter core defines no complex ordering)"
        )
    _check_indices_rank(ctx, i)
    scatter_check(ctx, d.shape, i.shape, u.shape, dn)
    tuples, perm, spec = scatter_coordinates(d.shape, i, u.shape, dn, m)
    ut = np.transpose(u, perm)
    policy = Policy(bounds="drop", negative="bounds", reduction=reduction)
    result = d.copy() if (u.size == 0 or d.size == 0) else None
    return Lowering("scatter", d, tuples, spec, policy, ctx, updates=ut, result=result)


def lax_scatter_divergences(op: str) -> None:
    """Record what every ``lax.scatter*`` op shares."""
    common_divergences(op)
    divergence_table(op, __file__, "unique_indices_true_or")
    divergence_table(op, __file__, "out_of_range_windows")
