"""Offsets: where each index (tuple) reads or writes in C-ordered data, in pieces.

The arithmetic both primitives and the accelerated path share: flat row ids for
the non-elementwise specs (:func:`row_offsets`, :func:`row_pieces`), flat element
offsets for the elementwise ones (:func:`element_offsets`), and how large one work
piece is (:func:`piece_size`). Indices reach here resolved (in range).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .shape import IndexSpec, prod

__all__ = [
    "MAX_PIECE",
    "MIN_PIECE",
    "element_offsets",
    "last_axis_rows",
    "leading_rows_match",
    "piece_size",
    "row_offsets",
    "row_pieces",
]

MAX_PIECE = 1 << 20
"""Most elements (rows or offsets) one work piece of the primitives holds: bounds temporaries."""
MIN_PIECE = 1 << 16
"""Fewest elements per work piece (below it, per-piece overhead would dominate)."""


def piece_size(total: int) -> int:
    """Elements per work piece for a call over ``total`` elements.

    At most an eighth of ``total`` (so temporary index arrays stay a small
    fraction of the output), at least :data:`MIN_PIECE`, at most :data:`MAX_PIECE`.
    """
    return min(MAX_PIECE, max(MIN_PIECE, total // 8))


def row_offsets(
    dshape: tuple[int, ...], lin: np.ndarray[Any, Any], spec: IndexSpec
) -> tuple[np.ndarray[Any, Any], int]:
    """Flat row ids into ``data.reshape(-1, R)`` for a non-elementwise spec.

    Rows are ordered as the output ``B + P + M``; ``R`` is the row length.
    """
    b, a, k = spec.batch, spec.axis, spec.depth
    B, P, S, R = prod(dshape[:b]), prod(dshape[b:a]), prod(dshape[a : a + k]), prod(dshape[a + k :])
    M = prod(lin.shape[b:])
    if B * P == 1:
        return lin.reshape(-1), R
    rows = np.arange(B * P, dtype=np.int64).reshape(B, P, 1) * S + lin.reshape(B, 1, M)
    return rows.reshape(-1), R


def row_pieces(
    dshape: tuple[int, ...], lin: np.ndarray[Any, Any], spec: IndexSpec, piece: int
) -> Iterator[tuple[int, np.ndarray[Any, Any]]]:
    """:func:`row_offsets` in consecutive pieces: ``(first, rows)`` with ``rows`` the ids of
    output rows ``first .. first + rows.size - 1``.

    Without leading (batch or pre-axis) dims the rows are ``lin`` itself (one
    piece). Otherwise each piece covers whole ``(β, p)`` blocks, about ``piece``
    rows, so the grid of row ids (``B * P`` times the indices) never exists whole.
    """
    b, a, k = spec.batch, spec.axis, spec.depth
    B, P, S = prod(dshape[:b]), prod(dshape[b:a]), prod(dshape[a : a + k])
    M = prod(lin.shape[b:])
    if B * P == 1:
        yield 0, lin.reshape(-1)
        return
    lin2 = lin.reshape(B, M)
    step = max(1, piece // max(1, M))
    for bp0 in range(0, B * P, step):
        bp = np.arange(bp0, min(B * P, bp0 + step), dtype=np.int64)
        rows = lin2[bp // P] if B > 1 else np.broadcast_to(lin2, (bp.size, M)).copy()
        rows += (bp * S)[:, None]
        yield bp0 * M, rows.reshape(-1)


def leading_rows_match(dshape: tuple[int, ...], ishape: tuple[int, ...], axis: int) -> bool:
    """Whether an elementwise index of shape ``ishape`` reads the data's leading blocks in order: the dims before
    ``axis`` equal the data's, except dim 0, which may be cut short (a piece of a larger index)."""
    return ishape[:axis] == dshape[:axis] or (ishape[1:axis] == dshape[1:axis] and ishape[0] <= dshape[0])


def last_axis_rows(
    a: np.ndarray[Any, Any], lin: np.ndarray[Any, Any], axis: int, b: np.ndarray[Any, Any], m_min: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]] | None:
    """An elementwise spec along ``axis`` as matching rows ``(a rows, index rows, b rows)``, or None.

    Index row r addresses row r of ``a`` (a gather's data, a scatter's output) and goes with row r of ``b`` (a
    gather's result, a scatter's updates: shaped like the index), so a per-row ``take``, assignment or
    ``ufunc.at`` needs no flat offsets. None unless ``axis`` is ``a``'s last, every index row has at least
    ``m_min`` entries (below that the per-row call costs more than the offsets it saves), the index reads ``a``'s
    leading rows in order (:func:`leading_rows_match`) and ``a`` is C-contiguous (its rows are views). ``b``'s
    rows are views only if ``b`` is C-contiguous: a caller that writes them checks that.
    """
    if axis != a.ndim - 1 or lin.ndim < 2 or lin.ndim != a.ndim or lin.shape[-1] < m_min:
        return None
    if not a.flags.c_contiguous or not leading_rows_match(a.shape, lin.shape, axis):
        return None
    m = lin.shape[-1]
    return a[: lin.shape[0]].reshape(-1, a.shape[-1]), lin.reshape(-1, m), b.reshape(-1, m)


def element_offsets(
    dshape: tuple[int, ...],
    lin: np.ndarray[Any, Any],
    axis: int,
    first: int = 0,
    out: np.ndarray[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """Flat element offsets into C-ordered data for an elementwise spec (shape of ``lin``).

    ``lin`` may be the piece of a larger index starting at ``first`` on dim 0
    (its offsets then start ``first`` leading rows later; dim 0 must not be
    ``axis`` unless ``first`` is 0). ``out`` is an optional int64 scratch buffer of
    at least ``lin.size`` elements, written instead of allocating (pieces reuse
    one buffer, so their offsets never fault fresh pages). The result may be a
    view of ``lin`` (when no offset is added) or of ``out``: read it only.
    """
    r = len(dshape)
    ishape = lin.shape
    shift = first * prod(dshape[1:]) if first and axis != 0 else 0
    dst = None if out is None else out[: lin.size].reshape(ishape)
    if leading_rows_match(dshape, ishape, axis) and ishape[axis + 1 :] == dshape[axis + 1 :]:
        # the leading block may be cut short on dim 0 only: its rows keep data's strides
        A, s, C = prod(ishape[:axis]), dshape[axis], prod(dshape[axis + 1 :])
        m = ishape[axis]
        lin3 = lin.reshape(A, m, C)
        if A == 1 and C == 1 and not shift:
            return lin
        # offset = lin * C + (leading row * s * C + shift) + c, in one or two passes
        base = (np.arange(A, dtype=np.int64) * (s * C) + shift).reshape(A, 1, 1)
        if C > 1:
            base = base + np.arange(C, dtype=np.int64)
            flat = np.multiply(lin3, C, out=None if dst is None else dst.reshape(A, m, C))
            np.add(flat, base, out=flat)
        else:  # 2-D: a trailing length-1 axis makes NumPy's broadcast add 1.5x slower
            flat = np.add(lin.reshape(A, m), base.reshape(A, 1), out=None if dst is None else dst.reshape(A, m))
        res: np.ndarray[Any, Any] = flat.reshape(ishape)
        return res
    strides = [prod(dshape[d + 1 :]) for d in range(r)]
    offs: np.ndarray[Any, Any] = np.multiply(lin, strides[axis], out=dst)
    if shift:
        offs += shift
    for d in range(r):
        if d != axis and ishape[d] > 1:
            shape = [1] * r
            shape[d] = ishape[d]
            offs += (np.arange(ishape[d], dtype=np.int64) * strides[d]).reshape(shape)
    return offs
