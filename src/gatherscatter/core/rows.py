"""The row engine: the scatter's updates applied fast and in order, bit for bit.

:mod:`gatherscatter.core.scatter` says *what* a scatter computes (validation,
policies, the definition); this module is *how* the NumPy path applies resolved
updates quickly while keeping the sequential loop's exact result:

* the updates are walked in row-major order as pieces of about
  :func:`~gatherscatter.core.offsets.piece_size` rows (:func:`pieces`), so no
  int64 array as large as the updates ever exists;
* whole-row assignments move each row as one opaque (void) item
  (:func:`put_rows`);
* row reductions of at least :data:`ROUNDS_MIN_ROW` elements run in rounds of
  distinct rows (:func:`reduce_rows`, buffers in :class:`RowScratch`, allocated
  once per call), the rest with ``ufunc.at``; dtypes whose ``ufunc.at`` rounds
  differently from the ufunc's own loop (float16, complex) go through
  :func:`reduce_ranked`;
* each piece is first offered to the numba kernels (:mod:`.accel`);
* an elementwise scatter along the last axis with long index rows runs row by
  row instead, with no flat offsets (:func:`along_last_rows`).

See ``docs/memory.md`` for the scratch sizes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from . import accel
from .offsets import element_offsets, last_axis_rows, piece_size, row_pieces
from .shape import IndexSpec, prod

__all__ = [
    "MAX_ROUNDS",
    "ROUNDS_CHUNK",
    "ROUNDS_MIN_ROW",
    "ROW_ASSIGN_MIN",
    "ROW_AT_MIN",
    "WIDE_ROUND",
    "Piece",
    "R_of",
    "RowScratch",
    "along_last_rows",
    "assign_pieces",
    "at_exact",
    "chunk_rows",
    "pieces",
    "put_rows",
    "reduce_pieces",
    "reduce_ranked",
    "reduce_rows",
    "small",
]

#: One piece of a scatter: (output row ids, update rows, positions of the kept updates or None)
Piece = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]


def assign_pieces(o2: np.ndarray[Any, Any], parts: Iterable[Piece], kern: Any, *, reverse: bool = False) -> None:
    """``o2[rows] = u2`` for every piece in order (the last of duplicated rows wins).

    With ``reverse`` the pieces (already reversed by the caller) are applied back to
    front within each piece too, so the *first* update wins.
    """
    for rows, u2, _ in parts:
        if reverse:
            rows, u2 = rows[::-1], u2[::-1]
        if kern is not None and accel.scatter_rows(kern, o2, rows, u2, "none"):
            continue
        if o2.shape[1] == 1:
            o2.reshape(-1)[rows] = u2.reshape(-1)  # 1-D fancy assignment: ~1.8x faster than 2-D
        else:
            put_rows(o2, rows, u2)


ROW_ASSIGN_MIN = 512
"""Indices per row from which an elementwise assignment along the last axis runs row by row
(:func:`along_last_rows`): a fancy assignment per row against flat offsets and one assignment, float32, 2**20
updates (session 17, benchmarks/README.md): 1.79x at 128 per row, 1.14x at 256, 0.89x at 512, 0.76-0.82x from
1024."""

ROW_AT_MIN = 2048
"""Indices per row from which an elementwise reduction along the last axis runs ``ufunc.at`` row by row
(:func:`along_last_rows`): ``ufunc.at`` has a larger fixed cost per call than an assignment. Measured as for
:data:`ROW_ASSIGN_MIN` with ``np.add.at``: 1.82x at 512 per row, 1.04x at 1024, 0.83-0.84x from 2048."""


def along_last_rows(
    o: np.ndarray[Any, Any],
    lin: np.ndarray[Any, Any],
    axis: int,
    u: np.ndarray[Any, Any],
    ufunc: np.ufunc | None,
    *,
    first_wins: bool = False,
    ident: Any = None,
) -> bool:
    """An elementwise scatter along ``axis`` applied row by row, if that is ``o``'s last and its rows are long enough.

    Index row r writes output row r (:func:`~gatherscatter.core.offsets.last_axis_rows`): per row a fancy
    assignment (``ufunc`` None; the last of duplicated indices wins, the first with ``first_wins``) or
    ``ufunc.at`` (after writing ``ident`` at every targeted position when it is not None: ``include_self=False``).
    Rows are disjoint, so the row-major order of the updates is kept. ``lin`` must be resolved, with nothing
    dropped, or be signed indices under NumPy's own rule (negative ones count from the end, others outside the
    row raise IndexError, possibly after earlier rows were written); ``ufunc.at`` only on dtypes where it is
    exact (:func:`at_exact`). False (nothing written) for another axis or rows shorter than
    :data:`ROW_ASSIGN_MIN` or :data:`ROW_AT_MIN`.
    """
    rows = last_axis_rows(o, lin, axis, u, ROW_ASSIGN_MIN if ufunc is None else ROW_AT_MIN)
    if rows is None:
        return False
    if ufunc is None:
        step = -1 if first_wins else 1  # backwards within a row: its first update is written last
        for o_row, i_row, u_row in zip(*rows, strict=True):
            o_row[i_row[::step]] = u_row[::step]
        return True
    with np.errstate(all="ignore"):
        if ident is not None:
            for o_row, i_row, _ in zip(*rows, strict=True):
                o_row[i_row] = ident
        for o_row, i_row, u_row in zip(*rows, strict=True):
            ufunc.at(o_row, i_row, u_row)
    return True


def reduce_pieces(
    ufunc: np.ufunc,
    reduction: str,
    o2: np.ndarray[Any, Any],
    parts: Iterable[Piece],
    kern: Any,
    counts: np.ndarray[Any, Any] | None,
) -> None:
    """``o2[rows[j]] = ufunc(o2[rows[j]], u2[j])`` for every update in order; ``counts[row] += 1`` per update.

    ``reduction`` is the policy's name for ``ufunc`` (what the kernels are told).
    """
    R = o2.shape[1]
    flat_out = o2.reshape(-1)
    # rows of at least ROUNDS_MIN_ROW elements are reduced in rounds of distinct rows (reduce_rows)
    exact_at = at_exact(o2.dtype)
    scratch = RowScratch(o2, chunk_rows(o2)) if R >= ROUNDS_MIN_ROW and exact_at and o2.dtype.kind != "O" else None
    for rows, u2, _ in parts:
        if counts is not None:
            np.add.at(counts, rows, 1)  # in place: no count array per piece
        if kern is not None and accel.scatter_rows(kern, o2, rows, u2, reduction):
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


def small(u: np.ndarray[Any, Any]) -> bool:
    """Few enough updates to cut the pieces once and keep them (they are walked up to three times);
    larger scatters regenerate them, so that their row ids never exist all at once."""
    return u.size <= 1 << 16


def pieces(
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
