"""Glue between the core primitives and the numba kernels.

Each function returns None when the accelerated path does not apply (dtype,
layout), and the core then runs its NumPy path. Indices reaching here are
resolved and in range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.shape import IndexSpec, prod
from . import threads_for

__all__ = ["gather", "scatter_elements", "scatter_rows"]

_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}
_REDUCE_OK = frozenset(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"])


def _bits_ok(dtype: np.dtype[Any]) -> bool:
    return dtype.kind in "biufcV" and not dtype.hasobject and dtype.itemsize in _UINT and not dtype.fields


def _bits(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The same memory viewed as unsigned integers (16-byte items as two uint64)."""
    return a.view(_UINT[a.dtype.itemsize])


def _set_threads(nbytes: int) -> int:
    import numba

    n = min(threads_for(nbytes), int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    numba.set_num_threads(n)
    return n


def _c(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.ascontiguousarray(a, dtype=np.int64)


def _elementwise_3d(
    dshape: tuple[int, ...], ishape: tuple[int, ...], axis: int
) -> tuple[tuple[int, int, int], tuple[int, int, int]] | None:
    """(A, s, C) views of data and indices when the paired dims collapse, else None."""
    lead_d, lead_i = dshape[:axis], ishape[:axis]
    tail_d, tail_i = dshape[axis + 1 :], ishape[axis + 1 :]
    if lead_d != lead_i and len(lead_d) > 1:
        return None
    if tail_d != tail_i and len(tail_d) > 1:
        return None
    return (
        (prod(lead_d), dshape[axis], prod(tail_d)),
        (prod(lead_i), ishape[axis], prod(tail_i)),
    )


def gather(
    k: Any, d: np.ndarray[Any, Any], lin: np.ndarray[Any, Any], spec: IndexSpec, out_shape: tuple[int, ...]
) -> np.ndarray[Any, Any] | None:
    """The gather on the kernels, or None when they do not apply."""
    if not _bits_ok(d.dtype):
        return None
    out = np.empty(out_shape, d.dtype)
    a = spec.axis
    if spec.elementwise:
        shapes = _elementwise_3d(d.shape, lin.shape, a)
        if shapes is None or d.dtype.itemsize > 8:
            # 16-byte items are two uint64 words: the index would address half-items
            return None
        d3, i3 = shapes
        _set_threads(out.nbytes + lin.nbytes)
        if i3[2] == 1 and d3[2] == 1 and i3[0] >= 8:  # (a trailing dim of indices shorter than data's: 3-D)
            d2, i2 = (d3[0], d3[1]), (i3[0], i3[1])
            k.gather_elements2(_bits(d.reshape(d2)), _c(lin).reshape(i2), _bits(out.reshape(i2)))
        else:
            k.gather_elements3(_bits(d.reshape(d3)), _c(lin).reshape(i3), _bits(out.reshape(i3)))
        return out
    if spec.batch == 0 and a > 0 and not spec.vector:
        P, S, R = prod(d.shape[:a]), d.shape[a], prod(d.shape[a + 1 :])
        M = lin.size
        _set_threads(out.nbytes + lin.nbytes)
        k.gather_mid(_bits(d.reshape(P, S, R)), _c(lin).reshape(-1), _bits(out.reshape(P, M, R)))
        return out
    from ..core.gather import row_offsets

    rows, R = row_offsets(d.shape, lin, spec)
    _set_threads(out.nbytes + rows.nbytes)
    k.gather_rows(_bits(d.reshape(-1, R)), _c(rows), _bits(out.reshape(-1, R)))
    return out


def _opcode(k: Any, reduction: str, dtype: np.dtype[Any]) -> int | None:
    if reduction == "none":
        return int(k.NONE) if _bits_ok(dtype) else None
    if str(dtype) not in _REDUCE_OK:
        return None
    return int(k.OPS[reduction])


def scatter_rows(
    k: Any, o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], u2: np.ndarray[Any, Any], reduction: str
) -> bool:
    """``o2[rows[i]] = f(o2[rows[i]], u2[i])`` in order on the kernels; False if not applicable."""
    op = _opcode(k, reduction, o2.dtype)
    if op is None:
        return False
    n = _set_threads(o2.nbytes // max(1, o2.shape[0]) * rows.size * 2 + rows.nbytes)
    u2 = np.ascontiguousarray(u2)  # broadcast (zero-stride) updates cannot be re-viewed
    if op == k.NONE:
        o2, u2 = _bits(o2), _bits(u2)
    k.scatter_rows(o2, _c(rows), u2, op, n)
    return True


def scatter_elements(
    k: Any,
    out: np.ndarray[Any, Any],
    lin: np.ndarray[Any, Any],
    u: np.ndarray[Any, Any],
    axis: int,
    reduction: str,
) -> bool:
    """The elementwise scatter on an (A, s, C) view; False if not applicable."""
    op = _opcode(k, reduction, out.dtype)
    if op is None:
        return False
    shapes = _elementwise_3d(out.shape, lin.shape, axis)
    if shapes is None or out.dtype.itemsize > 8:
        return False
    d3, i3 = shapes
    n = _set_threads(u.nbytes * 3 + lin.nbytes)
    o3 = out.reshape(d3)
    u3 = np.ascontiguousarray(u).reshape(i3)
    if op == k.NONE:
        o3, u3 = _bits(o3), _bits(u3)
    if i3[2] == 1 and i3[0] >= n:
        k.scatter_elements2(o3[:, :, 0], _c(lin).reshape(i3[:2]), u3[:, :, 0], op)
    else:
        k.scatter_elements3(o3, _c(lin).reshape(i3), u3, op, n)
    return True
