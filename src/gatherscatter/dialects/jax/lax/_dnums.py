"""``jax.lax`` dimension numbers, their validation, and their lowering to explicit coordinates.

XLA's general gather/scatter (docs/semantics.md#s7) are lowered onto the core by
building, for every operand axis, the coordinate each output (gather) or update
(scatter) element reads or writes: ``start (clamped) + batching iota + window
offset iota``. Leading/trailing operand axes taken whole (window = the axis,
not indexed) stay whole rows, so only the other axes need a coordinate grid
(an index array the size of the output over those axes).

JAX fixes ``index_vector_dim`` to the last axis of the indices and never wraps
negative indices (``-1`` is out of range).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ....core.context import OpContext
from ....core.shape import IndexSpec, to_int
from ....errors import ArgumentError, AxisError, ShapeError
from .._common import GatherScatterMode

__all__ = [
    "GatherDimensionNumbers",
    "GatherScatterMode",
    "ScatterDimensionNumbers",
    "gather_coordinates",
    "parse_gather_dnums",
    "parse_scatter_dnums",
    "scatter_coordinates",
]

_I64_MAX = np.iinfo(np.int64).max


class GatherDimensionNumbers(NamedTuple):
    """``jax.lax.GatherDimensionNumbers`` (``index_vector_dim`` is the last axis of the indices).

    ``offset_dims``: output dims that index inside a window (sorted);
    ``collapsed_slice_dims``: operand dims with window size 1 dropped from the
    output (sorted); ``start_index_map``: the operand dim each index-vector
    component starts; ``operand_batching_dims`` / ``start_indices_batching_dims``:
    paired batch dims of the operand and the indices.
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """``jax.lax.ScatterDimensionNumbers`` (the mirror image of the gather's).

    ``update_window_dims``: updates dims inside a window (sorted);
    ``inserted_window_dims``: operand dims with window size 1 absent from the
    updates (sorted); ``scatter_dims_to_operand_dims``: the operand dim each
    index-vector component starts; ``operand_batching_dims`` /
    ``scatter_indices_batching_dims``: paired batch dims.
    """

    update_window_dims: Sequence[int]
    inserted_window_dims: Sequence[int]
    scatter_dims_to_operand_dims: Sequence[int]
    operand_batching_dims: Sequence[int] = ()
    scatter_indices_batching_dims: Sequence[int] = ()


def _ints(ctx: OpContext, name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise ArgumentError(f"{ctx.label}: {name} must be a sequence of ints (got {value!r})")
    return tuple(to_int(ctx, name, v) for v in value)


def _fields(ctx: OpContext, dn: Any, cls: type, kind: str) -> tuple[tuple[int, ...], ...]:
    names = cls._fields  # type: ignore[attr-defined]
    if all(hasattr(dn, f) for f in names):
        values = [getattr(dn, f) for f in names]
    elif isinstance(dn, (tuple, list)) and 3 <= len(dn) <= 5:
        values = list(dn) + [()] * (5 - len(dn))
    else:
        raise ArgumentError(
            f"{ctx.label}: dimension_numbers must be a {kind} (or a tuple of its 3 to 5 fields); got {dn!r}"
        )
    return tuple(_ints(ctx, f, v) for f, v in zip(names, values, strict=True))


def parse_gather_dnums(ctx: OpContext, dn: Any) -> GatherDimensionNumbers:
    """A :class:`GatherDimensionNumbers` from ours, JAX's, or a plain tuple of fields."""
    return GatherDimensionNumbers(*_fields(ctx, dn, GatherDimensionNumbers, "GatherDimensionNumbers"))


def parse_scatter_dnums(ctx: OpContext, dn: Any) -> ScatterDimensionNumbers:
    """A :class:`ScatterDimensionNumbers` from ours, JAX's, or a plain tuple of fields."""
    return ScatterDimensionNumbers(*_fields(ctx, dn, ScatterDimensionNumbers, "ScatterDimensionNumbers"))


# ---------------------------------------------------------------------------------------
# validation (the order and rules of jax/_src/lax/slicing.py _gather_shape_rule / _scatter_shape_rule)


def _sorted(ctx: OpContext, dims: tuple[int, ...], name: str) -> None:
    if list(dims) != sorted(dims):
        raise ShapeError(f"{ctx.label}: {name} must be sorted; got {dims}")


def _unique(ctx: OpContext, dims: tuple[int, ...], name: str) -> None:
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{ctx.label}: {name} must not repeat; got {dims}")


def _in_range(ctx: OpContext, dims: tuple[int, ...], rank: int, name: str, what: str) -> None:
    for d in dims:
        if not 0 <= d < rank:
            raise AxisError(f"{ctx.label}: invalid {name}: {d} is not a dim of {what} (valid range [0, {rank}))")


def _dims(ctx: OpContext, dims: tuple[int, ...], name: str, rank: int, what: str) -> None:
    """A dimension-number list: sorted, without repeats, every entry a dim of ``what`` (of rank ``rank``)."""
    _sorted(ctx, dims, name)
    _unique(ctx, dims, name)
    _in_range(ctx, dims, rank, name, what)


def _disjoint(ctx: OpContext, a: tuple[int, ...], b: tuple[int, ...], na: str, nb: str) -> None:
    if set(a) & set(b):
        raise ShapeError(f"{ctx.label}: {na} and {nb} must be disjoint; got {a} and {b}")


def _check_index_map(ctx: OpContext, m: tuple[int, ...], name: str, ishape: tuple[int, ...], r: int) -> None:
    """``start_index_map`` / ``scatter_dims_to_operand_dims``: one distinct operand dim per index-vector component."""
    if len(m) != ishape[-1]:
        raise ShapeError(
            f"{ctx.label}: {name} has {len(m)} elements but the index vectors (last axis of "
            f"{ctx.indices}, shape {list(ishape)}) have {ishape[-1]}; these must be equal"
        )
    _in_range(ctx, m, r, name, ctx.data)
    _unique(ctx, m, name)


def _check_indices_rank(ctx: OpContext, indices: np.ndarray[Any, Any]) -> None:
    if indices.ndim < 1:
        raise ShapeError(
            f"{ctx.label}: {ctx.indices} must have rank >= 1: its last axis holds the index vectors "
            f"(add a trailing axis of size 1 for scalar indices); got a 0-d array"
        )


def _check_batching(ctx: OpContext, obd: tuple[int, ...], ibd: tuple[int, ...], window: tuple[tuple[int, ...], str],
                    index_map: tuple[tuple[int, ...], str], ibd_name: str, oshape: tuple[int, ...],
                    ishape: tuple[int, ...]) -> None:
    """The batching dims: ``operand_batching_dims`` (disjoint from the collapsed/inserted ``window`` dims and from
    the ``index_map``, each given with its name) and ``ibd`` (named ``ibd_name``), pairwise of equal sizes."""
    _dims(ctx, obd, "operand_batching_dims", len(oshape), ctx.data)
    for dims, name in (window, index_map):
        _disjoint(ctx, dims, obd, name, "operand_batching_dims")
    _unique(ctx, ibd, ibd_name)
    _in_range(ctx, ibd, len(ishape), ibd_name, ctx.indices)
    if len(ishape) - 1 in ibd:
        raise ShapeError(
            f"{ctx.label}: the index vector dim ({len(ishape) - 1}, the last) cannot be a batching dim; "
            f"got {ibd_name}={ibd}"
        )
    if len(obd) != len(ibd):
        raise ShapeError(
            f"{ctx.label}: operand_batching_dims and {ibd_name} must have equal lengths; got {obd} and {ibd}"
        )
    ob = tuple(oshape[d] for d in obd)
    ib = tuple(ishape[d] for d in ibd)
    if ob != ib:
        raise ShapeError(
            f"{ctx.label}: operand batching dims and {ctx.indices} batching dims must have the same shape; "
            f"got {list(ob)} and {list(ib)}"
        )


def gather_output_shape(ctx: OpContext, oshape: tuple[int, ...], ishape: tuple[int, ...], dn: GatherDimensionNumbers,
                        slice_sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Validate a gather and return its output shape."""
    r, q = len(oshape), len(ishape)
    off, col, sim, obd, ibd = dn
    out_rank = len(off) + q - 1
    _dims(ctx, off, "offset_dims", out_rank, "the output")
    _check_index_map(ctx, sim, "start_index_map", ishape, r)
    _sorted(ctx, col, "collapsed_slice_dims")
    _in_range(ctx, col, r, "collapsed_slice_dims", ctx.data)
    _unique(ctx, col, "collapsed_slice_dims")
    _check_batching(ctx, obd, ibd, (col, "collapsed_slice_dims"), (sim, "start_index_map"),
                    "start_indices_batching_dims", oshape, ishape)
    if len(slice_sizes) != r:
        raise ShapeError(
            f"{ctx.label}: slice_sizes must have one entry per {ctx.data} dim ({r}); got {list(slice_sizes)}"
        )
    if r != len(off) + len(col) + len(obd):
        raise ShapeError(
            f"{ctx.label}: every {ctx.data} dim must be an offset, collapsed or batching dim: rank {r} != "
            f"len(offset_dims) {len(off)} + len(collapsed_slice_dims) {len(col)} + "
            f"len(operand_batching_dims) {len(obd)}"
        )
    empty = 0 in ishape
    for d, (n, s) in enumerate(zip(oshape, slice_sizes, strict=True)):
        if s < 0 or (not empty and s > n):
            raise ShapeError(
                f"{ctx.label}: slice_sizes[{d}] = {s} is out of range: it must be in [0, {n}] "
                f"({ctx.data} shape {list(oshape)})"
            )
    for d in col:
        if slice_sizes[d] != 1:
            raise ShapeError(
                f"{ctx.label}: collapsed_slice_dims may only collapse dims with slice size 1; "
                f"slice_sizes[{d}] = {slice_sizes[d]}"
            )
    for d in obd:
        if slice_sizes[d] > 1:
            raise ShapeError(
                f"{ctx.label}: operand_batching_dims need slice size 0 or 1; slice_sizes[{d}] = {slice_sizes[d]}"
            )
    batch = iter(ishape[:-1])
    window = iter(s for d, s in enumerate(slice_sizes) if d not in col and d not in obd)
    return tuple(next(window) if i in off else next(batch) for i in range(out_rank))


def scatter_check(ctx: OpContext, oshape: tuple[int, ...], ishape: tuple[int, ...], ushape: tuple[int, ...],
                  dn: ScatterDimensionNumbers) -> None:
    """Validate a scatter's dimension numbers against the three shapes."""
    r, q = len(oshape), len(ishape)
    uwd, iwd, sdod, obd, ibd = (tuple(x) for x in dn)
    if len(ushape) != q - 1 + len(uwd):
        raise ShapeError(
            f"{ctx.label}: {ctx.updates} must have rank {q - 1 + len(uwd)} (the batch dims of "
            f"{ctx.indices} plus update_window_dims); got shape {list(ushape)}"
        )
    _dims(ctx, uwd, "update_window_dims", len(ushape), ctx.updates)
    _dims(ctx, iwd, "inserted_window_dims", r, ctx.data)
    _check_batching(ctx, obd, ibd, (iwd, "inserted_window_dims"), (sdod, "scatter_dims_to_operand_dims"),
                    "scatter_indices_batching_dims", oshape, ishape)
    scatter_dims = [d for d in range(len(ushape)) if d not in uwd]
    ub = tuple(ushape[scatter_dims[t]] for t in ibd)
    if ub != tuple(oshape[d] for d in obd):
        raise ShapeError(
            f"{ctx.label}: operand batching dims and {ctx.updates} batching dims must have the same shape; "
            f"got {[oshape[d] for d in obd]} and {list(ub)}"
        )
    if r != len(uwd) + len(iwd) + len(obd):
        raise ShapeError(
            f"{ctx.label}: the scatter window has {len(uwd) + len(iwd) + len(obd)} dims "
            f"(update_window_dims + inserted_window_dims + operand_batching_dims) but {ctx.data} has rank {r}"
        )
    _check_index_map(ctx, sdod, "scatter_dims_to_operand_dims", ishape, r)
    window_dims = [d for d in range(r) if d not in iwd and d not in obd]
    for u, d in zip(uwd, window_dims, strict=True):
        if ushape[u] > oshape[d]:
            raise ShapeError(
                f"{ctx.label}: window dim {u} of {ctx.updates} has size {ushape[u]}, larger than {ctx.data} "
                f"dim {d} ({oshape[d]})"
            )
    for t, u in enumerate(scatter_dims):
        if ushape[u] != ishape[t]:
            raise ShapeError(
                f"{ctx.label}: scatter dim {u} of {ctx.updates} has size {ushape[u]} but the matching dim {t} "
                f"of {ctx.indices} has size {ishape[t]}; they must be equal"
            )


# ---------------------------------------------------------------------------------------
# coordinates


def _starts(indices: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Index vectors as int64 (unsigned values above the int64 range saturate: still out of range)."""
    if indices.dtype.kind == "u" and indices.dtype.itemsize == 8:
        indices = np.minimum(indices, np.uint64(_I64_MAX))
    return indices.astype(np.int64, copy=False)


def _place(values: np.ndarray[Any, Any], dims: Sequence[int], rank: int) -> np.ndarray[Any, Any]:
    shape = [1] * rank
    for d, n in zip(dims, values.shape, strict=True):
        shape[d] = n
    return values.reshape(shape)


def gather_coordinates(oshape: tuple[int, ...], indices: np.ndarray[Any, Any], dn: GatherDimensionNumbers,
                       slice_sizes: tuple[int, ...], out_shape: tuple[int, ...],
                       mode: GatherScatterMode) -> tuple[np.ndarray[Any, Any], IndexSpec]:
    """Index tuples and spec for a core gather equal to the XLA gather.

    Out-of-range windows (fill mode) get a coordinate of -1, so a core gather with
    ``bounds=fill``, ``negative='bounds'`` fills them whole; other modes clamp the
    start so the window fits.
    """
    r, out_rank = len(oshape), len(out_shape)
    off, col, sim, obd, ibd = dn
    window = [d for d in range(r) if d not in col and d not in obd]
    off_of = dict(zip(window, off, strict=True))
    batch_out = [d for d in range(out_rank) if d not in off]

    def whole(d: int) -> bool:
        return d in off_of and d not in sim and slice_sizes[d] == oshape[d]

    lead = 0
    while lead < r and whole(lead) and off_of[lead] == lead:
        lead += 1
    trail = 0
    while trail < r - lead and whole(r - 1 - trail) and off_of[r - 1 - trail] == out_rank - 1 - trail:
        trail += 1
    mid_shape = out_shape[lead : out_rank - trail]
    mrank = len(mid_shape)
    starts = _starts(indices)
    valid: np.ndarray[Any, Any] | None = None
    # the coordinate grid is written in place, one component at a time (no per-component copies)
    tuples = np.zeros((*mid_shape, r - lead - trail), np.int64)
    for j, d in enumerate(range(lead, r - trail)):
        c = tuples[..., j]
        if d in sim:
            s = starts[..., sim.index(d)]
            hi = oshape[d] - slice_sizes[d]
            if mode is GatherScatterMode.FILL_OR_DROP:
                ok = (s >= 0) & (s <= hi)
                valid = ok if valid is None else valid & ok
            else:
                s = np.clip(s, 0, max(hi, 0))
            c += _place(s, [b - lead for b in batch_out], mrank)
        if d in obd:
            t = ibd[obd.index(d)]
            c += _place(np.arange(indices.shape[t], dtype=np.int64), [batch_out[t] - lead], mrank)
        if d in off_of:
            c += _place(np.arange(slice_sizes[d], dtype=np.int64), [off_of[d] - lead], mrank)
    if valid is not None and not valid.all():
        first = next(d for d in range(lead, r - trail) if d in sim) - lead
        bad = _place(~valid, [b - lead for b in batch_out], mrank)
        np.copyto(tuples[..., first], -1, where=bad)
    return tuples, IndexSpec(axis=lead, depth=r - lead - trail, vector=True)


def scatter_coordinates(oshape: tuple[int, ...], indices: np.ndarray[Any, Any], ushape: tuple[int, ...],
                        dn: ScatterDimensionNumbers,
                        mode: GatherScatterMode) -> tuple[np.ndarray[Any, Any], tuple[int, ...], IndexSpec]:
    """Index tuples, the updates permutation and the spec for a core scatter equal to the XLA one.

    Updates are visited with the scatter (index) dims outer and the window dims
    inner, which is the order XLA's CPU loop applies them in (the last window wins
    where windows overlap). A window with any element out of range is dropped whole
    (coordinate -1, core ``bounds='drop'``, ``negative='bounds'``); ``clip`` clamps
    its start so it fits.
    """
    r = len(oshape)
    uwd, iwd, sdod, obd, ibd = (tuple(x) for x in dn)
    scatter_dims = [d for d in range(len(ushape)) if d not in uwd]
    perm = tuple(scatter_dims) + uwd
    pshape = tuple(ushape[p] for p in perm)
    nb = len(scatter_dims)
    window = [d for d in range(r) if d not in iwd and d not in obd]
    wpos = {d: nb + i for i, d in enumerate(window)}  # the window dim's position in the permuted updates
    wsize = {d: (ushape[uwd[i]]) for i, d in enumerate(window)}
    prank = len(pshape)

    trail = 0
    while (
        trail < r
        and (d := r - 1 - trail) in wpos
        and d not in sdod
        and wsize[d] == oshape[d]
        and wpos[d] == prank - 1 - trail
    ):
        trail += 1
    mid_shape = pshape[: prank - trail]
    mrank = len(mid_shape)
    starts = _starts(indices)
    valid: np.ndarray[Any, Any] | None = None
    # the coordinate grid is written in place, one component at a time (no per-component copies)
    tuples = np.zeros((*mid_shape, r - trail), np.int64)
    for d in range(r - trail):
        c = tuples[..., d]
        if d in sdod:
            s = starts[..., sdod.index(d)]
            hi = oshape[d] - wsize.get(d, 1)
            if mode is GatherScatterMode.CLIP:
                s = np.minimum(np.maximum(s, 0), hi)  # XLA clamp: hi < 0 keeps the window out of range
            ok = (s >= 0) & (s <= hi)
            valid = ok if valid is None else valid & ok
            c += _place(s, range(nb), mrank)
        if d in obd:
            t = ibd[obd.index(d)]
            c += _place(np.arange(indices.shape[t], dtype=np.int64), [t], mrank)
        if d in wpos:
            c += _place(np.arange(wsize[d], dtype=np.int64), [wpos[d]], mrank)
    if valid is not None and not valid.all():
        first = next(d for d in range(r - trail) if d in sdod)
        bad = _place(~valid, range(nb), mrank)
        np.copyto(tuples[..., first], -1, where=bad)
    return tuples, perm, IndexSpec(axis=0, depth=r - trail, vector=True)
