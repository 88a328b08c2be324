"""The scatter primitive: write or reduce updates into a copy of the data.

:func:`scatter` is the transpose of :func:`~gatherscatter.core.gather.gather`
with the same :class:`~gatherscatter.core.shape.IndexSpec`: the updates have
the shape the gather would return, and each update lands where the gather would
have read it. The caller's data is copied once; updates are applied with
vectorised NumPy (flat fancy assignment, 1-D ``ufunc.at``).

Order: updates are applied in row-major order of the update index space, so
``duplicates='last'`` means the last update in that order wins and floating
sums are accumulated in that order, exactly as a sequential CPU kernel does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import backends
from ..backends import accel
from ..errors import DTypeError, DuplicateIndexError, ShapeError, UnsupportedError
from .context import NEUTRAL, OpContext
from .gather import element_offsets, piece_size, row_pieces
from .indices import format_position, resolve
from .out import check_out
from .policy import Bounds, Duplicates, MeanRounding, Negative, Policy, Reduction
from .shape import (
    IndexSpec,
    as_array,
    as_index_array,
    as_updates,
    check_allocatable,
    check_spec,
    dtype_name,
    gather_shape,
    prod,
)

__all__ = ["identity_of", "reduction_ufunc", "scatter"]

_DEFAULT = Policy()
#: One piece of a scatter: (output row ids, update rows, positions of the kept updates or None)
Piece = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]

_UFUNCS = {
    Reduction.ADD: np.add,
    Reduction.SUB: np.subtract,
    Reduction.MUL: np.multiply,
    Reduction.MAX: np.maximum,
    Reduction.MIN: np.minimum,
    Reduction.MEAN: np.add,
}
_BOOL_UFUNCS = {
    Reduction.ADD: np.logical_or,
    Reduction.SUB: np.logical_xor,
    Reduction.MUL: np.logical_and,
    Reduction.MAX: np.logical_or,
    Reduction.MIN: np.logical_and,
}


def reduction_ufunc(ctx: OpContext, reduction: Reduction, dtype: np.dtype[Any]) -> np.ufunc:
    """The ufunc that combines ``(current, update)`` for ``reduction`` on ``dtype``.

    Booleans follow OpenVINO: add = OR, sub = XOR, mul = AND, max = OR, min = AND;
    ``mean`` is not defined for booleans. Strings and objects take no reduction.
    """
    kind = dtype.kind
    if kind in "OUS":
        raise DTypeError(
            f"{ctx.label}: reduction '{reduction.value}' is not defined for {dtype_name(dtype)} {ctx.data}"
        )
    if kind == "b":
        if reduction is Reduction.MEAN:
            raise DTypeError(f"{ctx.label}: reduction 'mean' is not defined for bool {ctx.data}")
        return _BOOL_UFUNCS[reduction]
    if kind == "c" and reduction in (Reduction.MAX, Reduction.MIN):
        raise DTypeError(
            f"{ctx.label}: reduction '{reduction.value}' is not defined for complex {ctx.data} (no ordering)"
        )
    return _UFUNCS[reduction]


def identity_of(reduction: Reduction, dtype: np.dtype[Any]) -> Any:
    """Neutral element written before reducing when ``include_self`` is False."""
    kind = dtype.kind
    if reduction in (Reduction.ADD, Reduction.SUB, Reduction.MEAN):
        return np.zeros((), dtype)
    if reduction is Reduction.MUL:
        return np.ones((), dtype)
    if kind == "b":
        return np.array(reduction is Reduction.MIN)
    if kind in "iu":
        info = np.iinfo(dtype)
        return np.array(info.min if reduction is Reduction.MAX else info.max, dtype)
    inf = np.array(np.inf).astype(dtype)
    return -inf if reduction is Reduction.MAX else inf


def _raise_duplicate(
    ctx: OpContext,
    rows: np.ndarray[Any, Any],
    order: np.ndarray[Any, Any],
    keep: np.ndarray[Any, Any] | None,
    ishape: tuple[int, ...],
    dshape: tuple[int, ...],
    spec: IndexSpec,
    R: int,
) -> None:
    srt = rows[order]
    hit = np.flatnonzero(srt[1:] == srt[:-1])
    n1, n2 = int(order[hit[0]]), int(order[hit[0] + 1])
    if keep is not None:
        n1, n2 = int(keep[n1]), int(keep[n2])
    n1, n2 = sorted((n1, n2))

    def ipos(n: int) -> tuple[int, ...]:
        if spec.elementwise:
            return tuple(int(x) for x in np.unravel_index(n, ishape))
        b = spec.batch
        bshape = ishape[:b]
        mshape = ishape[b:-1] if spec.vector else ishape[b:]
        P = prod(dshape[b : spec.axis])
        M = prod(mshape)
        bp, m = divmod(n, M) if M else (0, 0)
        bi = bp // P if P else 0
        return tuple(int(x) for x in np.unravel_index(bi, bshape)) + tuple(int(x) for x in np.unravel_index(m, mshape))

    target = tuple(int(x) for x in np.unravel_index(int(srt[hit[0]]) * R, dshape))
    what = "element" if R == 1 else "slice starting at"
    raise DuplicateIndexError(
        f"{ctx.label}: {format_position(ctx.indices, ipos(n1))} and "
        f"{format_position(ctx.indices, ipos(n2))} both address the {ctx.data} {what} "
        f"{list(target)}; duplicate indices are not allowed without a reduction "
        f"(duplicates='raise')"
    )


def _mean_divide(
    values: np.ndarray[Any, Any], count: np.ndarray[Any, Any], rounding: MeanRounding
) -> np.ndarray[Any, Any]:
    if values.dtype.kind in "iu":
        q: np.ndarray[Any, Any] = np.floor_divide(values, count.astype(values.dtype))
        if rounding is MeanRounding.TRUNC and values.dtype.kind == "i":
            rem = values - q * count.astype(values.dtype)
            q = np.where((rem != 0) & (values < 0), q + 1, q)
        return q
    with np.errstate(all="ignore"):
        res: np.ndarray[Any, Any] = (values / count.astype(values.dtype)).astype(values.dtype)
        return res


def scatter(
    data: Any,
    indices: Any,
    updates: Any,
    spec: IndexSpec,
    policy: Policy = _DEFAULT,
    ctx: OpContext = NEUTRAL,
    out: np.ndarray[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """Scatter ``updates`` into a copy of ``data`` at ``indices`` (``spec``, ``policy``).

    Equivalent loop (non-elementwise; ``f`` is the reduction, ``norm`` the policy)::

        Y = copy(D)
        for β, p, i in ndindex(B, P, M):                     # row-major order
            t = (β, p, norm(I[β, i]))
            if t is valid:  Y[t + (:,)] = f(Y[t + (:,)], U[β, p, i, :])

    ``include_self=False`` first writes the reduction's neutral element at every
    targeted position; ``mean`` divides each targeted sum by its count (+1 with
    ``include_self``), rounding integers per ``mean_rounding``.

    With ``out`` the result is written there and ``out`` is returned (rules in
    :mod:`gatherscatter.core.out`); ``out`` may be ``data`` itself (the same
    memory and layout), which updates ``data`` in place: the copy is skipped.
    """
    d = as_array(ctx, data, ctx.data)
    idx = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, idx.shape, spec)
    if policy.bounds is Bounds.FILL:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'fill' applies to gathers; use 'drop' for scatters")
    u = as_updates(ctx, updates, d.dtype)
    ushape = gather_shape(d.shape, idx.shape, spec)
    if tuple(u.shape) != ushape:
        raise ShapeError(
            f"{ctx.label}: {ctx.updates} must have shape {list(ushape)} for {ctx.data} shape "
            f"{list(d.shape)} and {ctx.indices} shape {list(idx.shape)}; got {list(u.shape)}"
        )
    red = policy.reduction
    ufunc = reduction_ufunc(ctx, red, d.dtype) if red is not Reduction.NONE else None
    inplace = False
    if out is not None:
        inplace = check_out(
            ctx, out, d.shape, d.dtype, {ctx.data: d, ctx.indices: idx, ctx.updates: u}, inplace=ctx.data
        )
    a, k = spec.axis, spec.depth
    sizes = tuple(d.shape[a : a + k])
    check_allocatable(ctx, d.shape, d.dtype)
    # the output before the indices are read: fail fast on an enormous (broadcast) data
    mine: np.ndarray[Any, Any] | None = np.empty(d.shape, d.dtype) if out is None else None
    kern = backends.kernels(u.nbytes + idx.nbytes)
    fast_ok = (
        kern is not None
        and red is not Reduction.MEAN
        and (policy.include_self or red is Reduction.NONE)
        and (red is not Reduction.NONE or policy.duplicates is Duplicates.LAST)
    )
    if fast_ok and u.size and d.size and prod(sizes) and accel.raw_ok(idx) and d.flags.c_contiguous:
        # the caller's indices straight to the kernels, checked there; a bad one sends us below
        target = out if out is not None else mine
        assert target is not None
        done = accel.scatter(
            kern, target, idx, u, spec, red.value, raw=True, wrap=policy.negative is Negative.WRAP,
            data=None if inplace else d,
        )
        if done:
            return target
    lin, valid = resolve(ctx, idx, sizes, spec, policy)
    empty = u.size == 0 or d.size == 0
    pieces = list(_pieces(d.shape, lin, valid, u, spec)) if not empty and _small(u) else None

    def each(reuse: bool = False) -> Iterator[Piece]:
        # small index sets are cut once; large ones are regenerated on every pass, so that
        # the pieces never exist all at once (with ``reuse``, one piece at a time: a loop
        # that is done with a piece before drawing the next)
        return iter(pieces) if pieces is not None else _pieces(d.shape, lin, valid, u, spec, reuse)

    if not empty and ufunc is None and policy.duplicates is Duplicates.RAISE:
        # every error before the first write (out= may be the caller's array)
        _check_duplicates(ctx, list(each()), idx.shape, d.shape, spec, R_of(d.shape, spec))
    if out is None:
        out = mine if mine is not None else np.empty(d.shape, d.dtype)
    if not inplace:
        np.copyto(out, d)
    if empty:
        return out
    k = kern
    if (
        k is not None
        and fast_ok
        and spec.elementwise
        and valid is None
        and accel.scatter(k, out, lin, u, spec, red.value, raw=False)
    ):
        return out
    o2 = out.reshape(-1, R_of(d.shape, spec))
    if ufunc is None:
        parts = list(each())[::-1] if policy.duplicates is Duplicates.FIRST else each(reuse=True)
        for rows, u2, _ in parts:
            if policy.duplicates is Duplicates.FIRST:
                rows, u2 = rows[::-1], u2[::-1]
            if kern is not None and accel.scatter_rows(kern, o2, rows, u2, "none"):
                continue
            if o2.shape[1] == 1:
                o2.reshape(-1)[rows] = u2.reshape(-1)  # 1-D fancy assignment: ~1.8x faster than 2-D
            else:
                put_rows(o2, rows, u2)
        return out
    if not policy.include_self:
        ident = identity_of(red, d.dtype)
        for rows, _, _ in each(reuse=True):
            o2[rows] = ident
    # a count per output row: int32 holds any count below 2**31 updates (half an int64 array)
    count_dtype = np.int32 if u.size // max(1, o2.shape[1]) < 2**31 else np.int64
    counts = np.zeros(o2.shape[0], count_dtype) if red is Reduction.MEAN else None
    R = o2.shape[1]
    flat_out = out.reshape(-1)
    # rows of at least ROUNDS_MIN_ROW elements are reduced in rounds of distinct rows (reduce_rows)
    exact_at = at_exact(out.dtype)
    scratch = RowScratch(o2, chunk_rows(o2)) if R >= ROUNDS_MIN_ROW and exact_at and out.dtype.kind != "O" else None
    for rows, u2, _ in each(reuse=True):
        if counts is not None:
            np.add.at(counts, rows, 1)  # in place: no count array per piece
        if kern is not None and accel.scatter_rows(kern, o2, rows, u2, red.value):
            continue
        with np.errstate(all="ignore"):
            if not exact_at:
                step = chunk_rows(o2)
                for s0 in range(0, rows.size, step):
                    reduce_ranked(ufunc, o2, rows[s0 : s0 + step], u2[s0 : s0 + step])
            elif R == 1:
                ufunc.at(flat_out, rows, u2.reshape(-1))
            else:
                step = max(1, piece_size(rows.size * R) // R)
                if scratch is not None:
                    step = chunk_rows(o2)
                for s0 in range(0, rows.size, step):
                    if scratch is not None:
                        reduce_rows(ufunc, o2, rows[s0 : s0 + step], u2[s0 : s0 + step], scratch)
                    else:
                        _reduce_rows_at(ufunc, o2, rows[s0 : s0 + step], u2[s0 : s0 + step])
    if counts is not None:
        _finish_mean(o2, counts, policy)
    return out


#: Row length from which :func:`reduce_rows` beats ``ufunc.at`` on flat element offsets
#: (measured: at 64 float32 per row 2.5x faster, at 8 slower)
ROUNDS_MIN_ROW = 16
#: Bytes of rows per :func:`reduce_rows` call (its scratch stays in L2)
ROUNDS_CHUNK = 1 << 19
#: Rounds of distinct rows before the remaining (heavily duplicated) updates go to ``ufunc.at``
MAX_ROUNDS = 8


def at_exact(dtype: np.dtype[Any]) -> bool:
    """Whether ``ufunc.at`` gives the bits of the ufunc's own loop on ``dtype``.

    True for bool, integers, float32, float64 and objects (NaN payloads and signs
    included, measured for add/sub/mul/max/min on NumPy 2.4). NumPy's indexed
    ``ufunc.at`` loops round complex products differently and give float16 sums
    and products NaNs of another sign, so those dtypes never use ``ufunc.at``:
    they are reduced by :func:`reduce_ranked`, which calls the ufunc itself.
    """
    return dtype.kind in "biuO" or (dtype.kind == "f" and dtype.itemsize in (4, 8))


def _row_view(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any] | None:
    """A C-contiguous 2-D array as 1-D of one opaque (void) item per row, or None.

    Moving whole rows as single items is a memcpy per row: 1-D ``put`` on this
    view runs 2-2.5x faster than 2-D fancy assignment of the same rows.
    """
    if a.dtype.kind == "O" or not a.flags.c_contiguous or a.ndim != 2 or a.shape[1] == 0:
        return None
    return a.view(np.dtype((np.void, a.shape[1] * a.itemsize))).reshape(-1)


def put_rows(o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], vals: np.ndarray[Any, Any]) -> None:
    """``o2[rows] = vals`` (rows of a 2-D array; the last of duplicated rows wins)."""
    ov = _row_view(o2)
    vv = _row_view(np.ascontiguousarray(vals)) if ov is not None else None
    if ov is None or vv is None:
        o2[rows] = vals
    else:
        np.put(ov, rows, vv)  # sequential: the last of duplicated rows wins


class RowScratch:
    """Buffers for :func:`reduce_rows`, allocated once per scatter call (no malloc per chunk).

    ``owner`` holds one int32 per output row; the others one chunk of rows.
    """

    def __init__(self, o2: np.ndarray[Any, Any], chunk_rows: int) -> None:
        self.out_rows = _row_view(o2)  # o2 as one void item per row, for put
        self.owner = np.empty(o2.shape[0], np.int32)
        self.pos = np.arange(chunk_rows, dtype=np.int32)
        self.got = np.empty(chunk_rows, np.int32)
        self.first = np.empty(chunk_rows, bool)
        self.rows = np.empty((chunk_rows, o2.shape[1]), o2.dtype)
        self.upd = np.empty((chunk_rows, o2.shape[1]), o2.dtype)


def chunk_rows(o2: np.ndarray[Any, Any]) -> int:
    """Rows per :func:`reduce_rows` call for the 2-D output view ``o2``."""
    return max(64, ROUNDS_CHUNK // max(1, int(o2.shape[1]) * int(o2.itemsize)))


def reduce_rows(
    ufunc: np.ufunc,
    o2: np.ndarray[Any, Any],
    rows: np.ndarray[Any, Any],
    u2: np.ndarray[Any, Any],
    scratch: RowScratch,
) -> None:
    """``ufunc.at(o2, rows, u2)`` in update order, exactly, as rounds of distinct rows.

    ``o2`` is C-contiguous; ``rows`` (valid row ids) holds at most ``chunk_rows(o2)``
    entries. Each round takes the first remaining update of every row that still
    has one (found by writing positions into ``scratch.owner`` back to front, so
    the first occurrence wins) and applies them all at once:
    ``o2[r] = ufunc(o2[r], u)``. Per row the updates are applied in their order,
    one at a time, as a sequential loop does, so floating results are
    bit-identical. After :data:`MAX_ROUNDS` rounds the rest go to ``ufunc.at``.
    """
    sc = scratch
    left: np.ndarray[Any, Any] | None = None  # positions (in order) of the updates not yet applied
    cur = rows
    for _ in range(MAX_ROUNDS):
        n = cur.size
        if n == 0:
            return
        np.put(sc.owner, cur[::-1], sc.pos[n - 1 :: -1])  # sequential: the first occurrence wins
        first = np.equal(np.take(sc.owner, cur, out=sc.got[:n], mode="wrap"), sc.pos[:n], out=sc.first[:n])
        if first.all():
            _apply_rows(ufunc, o2, cur, u2 if left is None else u2[left], sc)
            return
        sel = np.flatnonzero(first)
        _apply_rows(ufunc, o2, cur[sel], np.take(u2, sel if left is None else left[sel], axis=0,
                                                 out=sc.upd[: sel.size], mode="wrap"), sc)
        rest = np.flatnonzero(~first)
        left = rest if left is None else left[rest]
        cur = rows[left]
    if left is not None and left.size:
        _reduce_rows_at(ufunc, o2, cur, u2[left])


def _apply_rows(
    ufunc: np.ufunc, o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], u: np.ndarray[Any, Any], sc: RowScratch
) -> None:
    """``o2[rows] = ufunc(o2[rows], u)`` for distinct ``rows``."""
    cur = np.take(o2, rows, axis=0, out=sc.rows[: rows.size], mode="wrap")
    ufunc(cur, u, out=cur)
    cur_rows = _row_view(cur) if sc.out_rows is not None else None  # a leading slice of a C buffer
    if sc.out_rows is None or cur_rows is None:
        o2[rows] = cur
    else:
        np.put(sc.out_rows, rows, cur_rows)


def _reduce_rows_at(
    ufunc: np.ufunc, o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], u2: np.ndarray[Any, Any]
) -> None:
    """``ufunc.at`` on the flat element offsets of whole rows (any duplicates, in order)."""
    R = o2.shape[1]
    el = (rows[:, None] * R + np.arange(R, dtype=np.int64)).reshape(-1)
    ufunc.at(o2.reshape(-1), el, u2.reshape(-1))


#: A round of :func:`reduce_ranked` narrower than this many rows ends the rounds: the few rows
#: left are reduced one update at a time
WIDE_ROUND = 64


def reduce_ranked(
    ufunc: np.ufunc, o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], u2: np.ndarray[Any, Any]
) -> None:
    """``o2[rows[j]] = ufunc(o2[rows[j]], u2[j])`` for j in order, without ``ufunc.at``.

    The updates are ranked within their row (a stable sort); round r applies every
    row's r-th update at once. Once a round is narrower than :data:`WIDE_ROUND`
    rows, each remaining row is finished by calling the ufunc once per remaining
    update, in order (fewer than WIDE_ROUND rows, but a hot row may take many calls).
    Both call the ufunc's own array loop, element by element in update order per
    row, exactly as the sequential loop does.
    """
    n = rows.size
    if n == 0:
        return
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    first = np.empty(n, bool)
    first[0] = True
    np.not_equal(srt[1:], srt[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    rank = np.arange(n) - starts[np.cumsum(first) - 1]
    by_rank = order[np.argsort(rank, kind="stable")]  # rank 0 of every row, then rank 1, ...
    at = 0
    for width in np.bincount(rank).tolist():
        if width < WIDE_ROUND:
            break
        sel = by_rank[at : at + width]
        r = rows[sel]
        o2[r] = ufunc(o2[r], u2[sel])
        at += width
    rest = np.sort(by_rank[at:])  # the remaining updates, in update order
    if rest.size == 0:
        return
    rr = rows[rest]
    grp = np.argsort(rr, kind="stable")
    bounds = np.flatnonzero(np.diff(rr[grp])) + 1
    for g in np.split(grp, bounds):
        r0 = int(rr[g[0]])
        acc = o2[r0].copy()
        for j in rest[g].tolist():
            # neither ufunc.accumulate nor out=acc: both round complex products differently
            acc = ufunc(acc, u2[j])
        o2[r0] = acc


def R_of(dshape: tuple[int, ...], spec: IndexSpec) -> int:
    """Row length of the scatter's 2-D view of the output (1 for elementwise specs)."""
    return 1 if spec.elementwise else prod(dshape[spec.axis + spec.depth :])


def _small(u: np.ndarray[Any, Any]) -> bool:
    """Few enough updates to cut the pieces once and keep them (they are walked up to three times);
    larger scatters regenerate them, so that their row ids never exist all at once."""
    return u.size <= 1 << 16


def _pieces(
    dshape: tuple[int, ...],
    lin: np.ndarray[Any, Any],
    valid: np.ndarray[Any, Any] | None,
    u: np.ndarray[Any, Any],
    spec: IndexSpec,
    reuse: bool = False,
) -> Iterator[Piece]:
    """The updates in row-major order, as ``(rows, updates2d, positions)`` pieces.

    ``rows`` index the output's 2-D view; invalid (dropped) updates are removed
    and ``positions`` then maps each kept update to its place in the full update
    space (None when nothing was dropped). Pieces hold about
    :func:`~gatherscatter.core.gather.piece_size` updates (at most an eighth of
    them), so the flat offsets never need an int64 array as large as the updates.
    With ``reuse`` the elementwise offsets of every piece are written into one
    buffer: each piece is then valid only until the next one is drawn.
    """
    a = spec.axis
    if spec.elementwise:
        n0 = lin.shape[0]
        per = max(1, prod(lin.shape[1:]))
        step = max(1, piece_size(lin.size) // per)
        buf = np.empty(min(lin.size, step * per), np.int64) if reuse else None
        for s0 in range(0, n0, step):
            part = lin[s0 : s0 + step]
            rows = element_offsets(dshape, part, a, first=s0, out=buf).reshape(-1)
            u2 = u[s0 : s0 + step].reshape(-1, 1)
            keep = None
            if valid is not None:
                keep = np.flatnonzero(valid[s0 : s0 + step].reshape(-1))
                rows, u2 = rows[keep], u2[keep]
                keep = keep + s0 * per
            yield rows, u2, keep
        return
    R = R_of(dshape, spec)
    uall = u.reshape(-1, R)
    b = spec.batch
    B, P, M = prod(dshape[:b]), prod(dshape[b:a]), prod(lin.shape[b:])
    valid2 = None if valid is None else valid.reshape(B, M)
    for first, rows in row_pieces(dshape, lin, spec, piece_size(uall.shape[0])):
        u2 = uall[first : first + rows.size]
        keep = None
        if valid2 is not None:
            bp = np.arange(first // M, (first + rows.size) // M)
            keep = np.flatnonzero(valid2[bp // P])
            rows, u2 = rows[keep], u2[keep]
            keep = keep + first
        yield rows, u2, keep


def _check_duplicates(
    ctx: OpContext,
    parts: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]],
    ishape: tuple[int, ...],
    dshape: tuple[int, ...],
    spec: IndexSpec,
    R: int,
) -> None:
    """DuplicateIndexError naming the first duplicated pair (duplicates='raise')."""
    rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    if rows.size < 2:
        return
    keeps = [p[2] for p in parts]
    keep = None if all(k is None for k in keeps) else np.concatenate(
        [k if k is not None else np.arange(p[0].size) for p, k in zip(parts, keeps, strict=True)]
    )
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    if np.any(srt[1:] == srt[:-1]):
        _raise_duplicate(ctx, rows, order, keep, ishape, dshape, spec, R)


def _finish_mean(o2: np.ndarray[Any, Any], counts: np.ndarray[Any, Any], policy: Policy) -> None:
    """Divide each targeted row's sum by its count (+1 with include_self), in pieces of rows."""
    extra = 1 if policy.include_self else 0
    n = o2.shape[0]
    step = max(1, piece_size(o2.size) // max(1, o2.shape[1]))
    for r0 in range(0, n, step):
        c = counts[r0 : r0 + step]
        hit = np.flatnonzero(c)
        if hit.size == 0:
            continue
        rows = hit + r0
        o2[rows] = _mean_divide(o2[rows], (c[hit] + extra)[:, None], policy.mean_rounding)
