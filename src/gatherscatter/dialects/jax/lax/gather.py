"""JAX ``jax.lax.gather``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.policy import Policy, fill
from ....core.shape import as_array, to_int
from ....errors import ArgumentError, DTypeError, UnsupportedError
from ..._record import Description, Residual, Step, canonical, check_int
from ..._registry import Lowering, dialect_op, divergence_table
from .._common import (
    GRAD,
    MODE_VALUES,
    GatherScatterMode,
    check_data,
    common_divergences,
    fill_value_of,
    int32_index_divergence,
    jax_context,
    parse_mode,
)
from .._describe import _INT, _fill_value, _gather, _mode
from ._describe import _axis_windows, _ctx, _expand_last, _unsupported
from ._dnums import (
    GatherDimensionNumbers,
    _check_indices_rank,
    gather_coordinates,
    gather_output_shape,
    parse_gather_dnums,
)

common_divergences("jax.lax.gather")
int32_index_divergence("jax.lax.gather", "mode='fill' (_gather_fill)")
divergence_table("jax.lax.gather", __file__)


def _slice_sizes(ctx: Any, value: Any) -> tuple[int, ...]:
    try:
        items = list(value)
    except TypeError:
        raise ArgumentError(f"{ctx.label}: slice_sizes must be a sequence of ints (got {value!r})") from None
    return tuple(to_int(ctx, "slice_sizes", v) for v in items)


def _describe(dimension_numbers: Any, slice_sizes: Any, mode: Any = None, fill_value: Any = None) -> Description:
    op = "jax.lax.gather"
    dn = parse_gather_dnums(_ctx(op), dimension_numbers)
    sizes = tuple(check_int(op, "slice_sizes", s) for s in slice_sizes)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    fill_value = _fill_value(op, fill_value)
    fill = mode is not None and m is GatherScatterMode.FILL_OR_DROP  # lax.gather's default clamps
    attrs: dict[str, Any] = {"dimension_numbers": dimension_numbers, "slice_sizes": slice_sizes, "mode": mode,
                             "fill_value": fill_value}
    r = len(sizes)
    layout: dict[str, Any]
    off, col, smap, ob, ib = (tuple(f) for f in dn)
    k = len(smap)
    b = len(ob)
    res = [Residual("empty", "returns zeros when the result is empty", "may raise for an index into a size-0 axis")]
    # element-wise first: it also matches a batched nd form when the axis is the last dim
    if k == 1 and col == smap and not off and all(s == 1 for s in sizes):
        a = smap[0]
        others = tuple(d for d in range(r) if d != a)
        if ob == others and ib == others:
            layout = {"index_dtypes": _INT, "full_index": True, "rank": (r, r),
                      "to_source": _expand_last("operand", "start_indices")}
            pre = [Step.adapt("squeeze", "idx", "start_indices", axis=-1, why="one-component index vectors")]
            base = canonical("gather_elements", data="operand", indices="idx", axis=a)
            p2, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False)
            return Description(op, attrs, ("operand", "start_indices"), c, pre=pre + p2, post=post, residuals=res,
                          layout=layout)
    if k and smap == tuple(range(b, b + k)) and col == smap and ob == tuple(range(b)) and ib == ob \
            and all(sizes[d] == 1 for d in range(b + k)):
        n_off = r - b - k
        if off and off != tuple(range(off[0], off[0] + n_off)):
            raise _unsupported(op, dn, "the window dims must be the trailing result dims")
        if len(off) != n_off:
            raise _unsupported(op, dn, "every operand dim after the index tuple must be a whole window")
        layout = {"index_dtypes": _INT, "k": k, "data_shape": tuple([None] * (b + k) + list(sizes[b + k:]))}
        if off:
            q = off[0] + 1  # start_indices rank
            if q - 1 - b < 0:
                raise _unsupported(op, dn, "the window dims overlap the batch dims")
            layout["index_ndim"] = (q - 1 - b, q - 1 - b)
        base = canonical("gather_nd", data="operand", indices="start_indices", batch_dims=b)
        pre, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False)
        return Description(op, attrs, ("operand", "start_indices"), c, pre=pre, post=post, residuals=res, layout=layout)
    if k == 1 and col == smap and not ob and not ib:
        a = smap[0]
        win = [d for d in range(r) if d != a]
        if sizes[a] != 1:
            raise _unsupported(op, dn, "the indexed dim must have slice size 1")
        if len(off) != r - 1:
            raise _unsupported(op, dn, "every other operand dim must be a whole window")
        q_i = _axis_windows(op, dn, off, a, "result")
        layout = {"index_dtypes": _INT, "data_shape": tuple(None if d == a else sizes[d] for d in range(r)),
                  "to_source": _expand_last("operand", "start_indices")}
        if q_i is not None:
            layout["index_ndim"] = (q_i, q_i)
        pre = [Step.adapt("squeeze", "idx", "start_indices", axis=-1, why="one-component index vectors")]
        base = canonical("gather", data="operand", indices="idx", axis=a)
        p2, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False, lead=a)
        del win
        return Description(op, attrs, ("operand", "start_indices"), c, pre=pre + p2, post=post, residuals=res,
                      layout=layout)
    raise _unsupported(op, dn, "no canonical family matches")


#: the calls worth probing: the nd (gather_nd) configuration of docs/semantics.md#e21
_PROBE: tuple[dict[str, Any], ...] = (
    {
        "dimension_numbers": GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)),
        "slice_sizes": (1, 3),
    },
)


@dialect_op(
    "jax",
    "lax.gather",
    family="general",
    kind="gather",
    versions=("0.10",),
    differentiable=("operand",),
    describe=_describe, grad=GRAD,
    variants=_PROBE,
    values={"mode": MODE_VALUES, "dimension_numbers": "dimension_numbers", "slice_sizes": "shape",
            "fill_value": "number"},
)
def gather(operand: Any, start_indices: Any, dimension_numbers: Any, slice_sizes: Any, mode: Any = None,
           fill_value: Any = None, *, unique_indices: bool = False, indices_are_sorted: bool = False) -> Lowering:
    """JAX ``lax.gather``: XLA's general gather, described by dimension numbers.

    Provenance: ``jax.lax.gather`` (jax 0.10; batching dims since 0.4.31), XLA /
    StableHLO ``gather`` with ``index_vector_dim`` = the last axis of
    ``start_indices``; ``jax_enable_x64=True``. ``dimension_numbers`` is a
    :class:`GatherDimensionNumbers` (JAX's own is accepted too, or a tuple of its
    fields). ``unique_indices`` / ``indices_are_sorted`` are ignored promises.

    For an output index ``R``: ``G = R[batch dims]``, ``S = start_indices[G]``;
    the window starts at ``S[k]`` on operand dim ``start_index_map[k]`` and at the
    paired batch position on ``operand_batching_dims``; ``R[offset_dims]`` is the
    offset inside the window. Modes: ``None`` / ``'promise_in_bounds'`` /
    ``'clip'``: the start is clamped so the whole window fits (XLA; no negative
    wrapping: -1 becomes 0); ``'fill'`` / ``'drop'``: a window with any element
    out of range is entirely ``fill_value`` (default NaN, ``iinfo.min``,
    ``iinfo.max`` or True by dtype). Lowered as a core gather over explicit
    per-element coordinates (whole leading/trailing windows stay rows).

    Equivalent loop::

        for R in ndindex(out_shape):
            G = R[batch_dims]; S = start_indices[G]
            start = [clamp(S[k], 0, operand.shape[d] - slice_sizes[d]) for k, d in enumerate(start_index_map)]
            Y[R] = operand[start + batch(G) + offset(R[offset_dims])]    # fill: fill_value if any S[k] is out

    Differs from ``jnp.take`` / ``x.at[].get`` (they wrap negative indices first)
    and from StableHLO's per-element text (XLA fills/drops whole windows).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    >>> gs.jax.lax.gather([0.0, 1.0, 2.0, 3.0, 4.0], [[7], [-3]], dn, (1,)).tolist()
    [4.0, 0.0]
    >>> gs.jax.lax.gather([0.0, 1.0, 2.0, 3.0, 4.0], [[7], [1]], dn, (1,), mode="fill").tolist()
    [nan, 1.0]
    >>> win = gs.jax.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(), start_index_map=(0,))
    >>> gs.jax.lax.gather([0, 1, 2, 3, 4], [[4]], win, (2,), mode="clip").tolist()
    [[3, 4]]
    """
    ctx = jax_context("jax.lax.gather", data="operand", indices="start_indices")
    d = check_data(ctx, operand, "operand")
    i = as_array(ctx, start_indices, "start_indices")
    if i.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: start_indices must have an integer type; got {i.dtype}")
    dn = parse_gather_dnums(ctx, dimension_numbers)
    sizes = _slice_sizes(ctx, slice_sizes)
    m = parse_mode(ctx, mode, default=GatherScatterMode.PROMISE_IN_BOUNDS)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"{ctx.label}: mode='one_hot' is only defined for jnp.take_along_axis")
    _check_indices_rank(ctx, i)
    out_shape = gather_output_shape(ctx, d.shape, i.shape, dn, sizes)
    if m is GatherScatterMode.FILL_OR_DROP:
        policy = Policy(bounds=fill(fill_value_of(ctx, d.dtype, fill_value)), negative="bounds")
    else:
        policy = Policy(bounds="clip", negative="bounds")
    tuples, spec = gather_coordinates(d.shape, i, dn, sizes, out_shape, m)
    result = np.zeros(out_shape, d.dtype) if 0 in out_shape else None
    return Lowering("gather", d, tuples, spec, policy, ctx, result=result)
