"""Shared lowering of JAX's ``x.at[idx]`` gathers and scatters.

``x.at[idx]`` reads ``idx`` as NumPy-style indexing (through
:func:`~gatherscatter.dialects._npindex.normalize_index` with JAX's adjacency
rule) and lowers to one core gather/scatter over index tuples for the indexed
middle axes; leading and trailing full slices (``:``) stay whole rows. With
advanced indices next to sliced axes the index tuples are an explicit
coordinate grid over those result dims.

JAX specifics reproduced here: negative indices wrap once (unsigned never);
out-of-range reads clamp by default (``promise_in_bounds``; ``'fill'`` fills),
out-of-range writes are dropped by default (``'clip'`` clamps); a non-tuple
list index is an error; an integer on an axis of size 0 is an error; an empty
target returns ``x`` unchanged; scatters run in the promoted dtype of ``x`` and
``values`` and cast back to ``x``'s dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy, Reduction, fill
from ...core.shape import IndexSpec, dtype_name
from ...errors import ArgumentError, DTypeError, IndexOutOfRangeError, ShapeError, UnsupportedError
from .._npindex import IndexPlan, index_tuples, normalize_index
from .._registry import Lowering, divergence_table
from ._common import (
    NO_BOOL,
    GatherScatterMode,
    check_data,
    common_divergences,
    fill_value_of,
    index_example,
    int32_index_divergence,
    jax_cast,
    jax_context,
    narrow_index_divergence,
    parse_mode,
    promote,
)

__all__ = ["at_context", "at_divergences", "jax_index_plan", "lower_get", "lower_scatter"]

_I64 = np.iinfo(np.int64)


def at_context(method: str) -> OpContext:
    """``jax x.at[idx].set (jax 0.10)``: x, idx, values in JAX's names."""
    return jax_context(f"jax x.at[idx].{method}", data="x", indices="idx", updates="values")


def jax_index_plan(ctx: OpContext, shape: tuple[int, ...], idx: Any) -> IndexPlan:
    """Read ``idx`` as jax.numpy does (see the module docstring)."""
    if not isinstance(idx, tuple) and isinstance(idx, Sequence) and not isinstance(idx, (str, bytes)):
        raise ArgumentError(
            f"{ctx.label}: using a non-tuple sequence for multidimensional indexing is not allowed; use "
            "x.at[np.array(seq)] or x.at[tuple(seq)] instead of x.at[seq] (jax-ml/jax#4564)"
        )
    items = idx if isinstance(idx, tuple) else (idx,)
    for pos, item in enumerate(items):
        if isinstance(item, str):
            raise ArgumentError(f"{ctx.label}: JAX does not support string indexing; got idx entry {pos} = {item!r}")
        if isinstance(item, int) and not isinstance(item, bool) and not _I64.min <= item <= _I64.max:
            raise IndexOutOfRangeError(
                f"{ctx.label}: idx entry {pos} = {item} is too large to convert to int64", value=item
            )
    plan = normalize_index(idx, shape, ctx=ctx, adjacency="jax")
    for d, ax in enumerate(plan.axes):
        if ax.kind == "int" and shape[d] == 0:
            # jax.numpy checks a static int index before anything runs (NumPy's words, the core's formatter)
            numpy_words = ctx.with_(range_style="numpy", bounds_word="out of bounds", axis="axis")
            raise numpy_words.index_error(value=int(ax.values), position=(), size=0, axis=d,
                                          where=f"{ctx.indices}: axis {d} of {ctx.data} is empty")
    return plan


def _advanced_on_empty_axis(plan: IndexPlan) -> int | None:
    for d, ax in enumerate(plan.axes):
        if ax.kind == "array" and plan.shape[d] == 0:
            return d
    return None


def _form(plan: IndexPlan) -> tuple[np.ndarray[Any, Any], IndexSpec]:
    lead, trail = plan.full_ends()
    tuples = index_tuples(plan, lead, trail)
    depth = len(plan.axes) - lead - trail
    return tuples, IndexSpec(axis=lead, depth=depth, vector=True)


def lower_get(ctx: OpContext, x: Any, idx: Any, mode: Any, fill_value: Any, wrap: bool = True) -> Lowering:
    """``x.at[idx].get(mode=mode, fill_value=fill_value, wrap_negative_indices=wrap)`` as a core gather."""
    d = check_data(ctx, x, "x")
    m = parse_mode(ctx, mode, default=GatherScatterMode.PROMISE_IN_BOUNDS)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"{ctx.label}: mode='one_hot' is only defined for jnp.take_along_axis")
    if fill_value is not None and np.ndim(fill_value) != 0:
        raise ArgumentError(f"{ctx.label}: fill_value argument to indexed get() must be a scalar")
    plan = jax_index_plan(ctx, d.shape, idx)
    tuples, spec = _form(plan)
    neg = "wrap" if wrap else "bounds"
    if m is GatherScatterMode.FILL_OR_DROP:
        policy = Policy(bounds=fill(fill_value_of(ctx, d.dtype, fill_value)), negative=neg)
    else:
        policy = Policy(bounds="clip", negative=neg)
    result = None
    if 0 in plan.result_shape:
        result = np.zeros(plan.result_shape, d.dtype)
    else:
        bad = _advanced_on_empty_axis(plan)
        if bad is not None:
            raise IndexOutOfRangeError(
                f"{ctx.label}: cannot gather from axis {bad} of x, which has size 0 (x shape "
                f"{list(d.shape)}, result shape {list(plan.result_shape)})"
            )
    return Lowering("gather", d, tuples, spec, policy, ctx, result=result)


def _broadcast_values(ctx: OpContext, v: np.ndarray[Any, Any], shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    if v.ndim > len(shape):
        raise ShapeError(
            f"{ctx.label}: cannot broadcast values of shape {list(v.shape)} to the indexed shape "
            f"{list(shape)} (values has more dimensions)"
        )
    try:
        return np.broadcast_to(v, shape)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: values of shape {list(v.shape)} do not broadcast to the indexed shape {list(shape)}"
        ) from None


def lower_scatter(ctx: OpContext, reduction: Reduction, x: Any, idx: Any, values: Any, mode: Any,
                  wrap: bool = True) -> Lowering:
    """``x.at[idx].<op>(values, mode=mode, wrap_negative_indices=wrap)`` as a core scatter (see the module
    docstring)."""
    d = check_data(ctx, x, "x")
    plan = jax_index_plan(ctx, d.shape, idx)
    v, pd = promote(ctx, d.dtype, values)
    m = parse_mode(ctx, mode, default=GatherScatterMode.FILL_OR_DROP)
    tuples, spec = _form(plan)
    bounds = "clip" if m is GatherScatterMode.CLIP else "drop"
    neg = "wrap" if wrap else "bounds"
    if 0 in plan.result_shape:
        # JAX returns x untouched (no promotion, no broadcasting check) when the target is empty
        empty = np.zeros(plan.result_shape, d.dtype)
        policy = Policy(bounds=bounds, negative=neg, reduction=reduction)
        return Lowering("scatter", d, tuples, spec, policy, ctx, updates=empty, result=d.copy())
    name = dtype_name(pd)
    if name == "bool" and reduction in NO_BOOL:
        what = NO_BOOL[reduction]
        raise DTypeError(
            f"{ctx.label}: {what} does not accept dtype bool (x dtype {dtype_name(d.dtype)}, values dtype "
            f"{dtype_name(v.dtype)}); accepted: integer, floating, complex"
        )
    if pd.kind == "c" and reduction in (Reduction.MIN, Reduction.MAX):
        raise UnsupportedError(
            f"{ctx.label}: complex {reduction.value} is not supported (JAX orders complex numbers "
            "lexicographically; the gatherscatter core defines no complex ordering)"
        )
    ub = _broadcast_values(ctx, v, plan.result_shape)
    data = d if pd == d.dtype else d.astype(pd)
    post = None
    if pd != d.dtype:
        xdtype = d.dtype

        def post(r: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            return jax_cast(r, xdtype)

    policy = Policy(bounds=bounds, negative=neg, reduction=reduction)
    result = None
    if _advanced_on_empty_axis(plan) is not None:
        # every update addresses an empty axis: XLA drops them all (clamping cannot help either)
        result = jax_cast(data, d.dtype) if post is not None else d.copy()
    return Lowering("scatter", data, tuples, spec, policy, ctx, updates=ub, post=post, result=result)


def at_divergences(op: str) -> None:
    """Record the divergences every ``x.at[idx]`` op shares (call at module level in the op's file)."""
    common_divergences(op)
    int32_index_divergence(op, "jax.numpy indexing (_index_to_gather)")
    narrow_index_divergence(op, raises=True)
    divergence_table(op, __file__, "numpy_bool_scalar_np", example=index_example(op, "bool_scalar"))
    divergence_table(op, __file__, "unique_indices_true_or")
