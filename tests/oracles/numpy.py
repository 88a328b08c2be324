"""Brute-force NumPy 2.4 oracles, one element at a time, from NumPy's documentation.

They share no code with gatherscatter. Each loop transcribes the "equivalent
loop" of the NumPy docstring (``np.take``, ``np.take_along_axis``,
``np.put_along_axis``, ``np.put``, ``ufunc.at``). Bad indices raise a plain
``IndexError``; tests map that to the library's error classes. The oracles take
ndarrays with integer indices already converted (the conversion rules are
tested separately).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _norm(k: int, s: int, mode: str = "raise") -> int:
    if mode == "wrap":
        if s == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        return k % s
    if mode == "clip":
        if s == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        return min(max(k, 0), s - 1)
    if not -s <= k < s:
        raise IndexError(f"index {k} is out of bounds for size {s}")
    return k + s if k < 0 else k


def take(a: Array, indices: Array, axis: int | None = None, mode: str = "raise") -> Array:
    """``Ni, Nk = a.shape[:axis], a.shape[axis+1:]; out[ii + jj + kk] = a[ii + (indices[jj],) + kk]``.

    As NumPy's loop: indices are read once per outer row ``ii`` (none when there
    is no row); an empty axis is an error when the result is not empty.
    ``mode='wrap'`` on an empty axis loops forever in NumPy; here it reads nothing.
    """
    if axis is None:
        a, axis = a.reshape(-1), 0
    if a.ndim == 0:
        a = a.reshape(1)
    axis = axis + a.ndim if axis < 0 else axis
    s = a.shape[axis]
    out = np.empty(a.shape[:axis] + indices.shape + a.shape[axis + 1 :], a.dtype)
    if s == 0 and out.size:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    for ii in np.ndindex(*a.shape[:axis]):
        for jj in np.ndindex(*indices.shape):
            if s == 0:
                if mode == "raise":
                    raise IndexError(f"index {int(indices[jj])} is out of bounds for size 0")
                continue
            k = _norm(int(indices[jj]), s, mode)
            for kk in np.ndindex(*a.shape[axis + 1 :]):
                out[ii + jj + kk] = a[ii + (k,) + kk]
    return out


def _bshape(ishape: tuple[int, ...], dshape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    out = []
    for d, (i, n) in enumerate(zip(ishape, dshape, strict=True)):
        if d == axis:
            out.append(i)
        elif i == n or n == 1 or i == 1:
            out.append(n if i == 1 else i)
        else:
            raise ValueError("shape mismatch")
    return tuple(out)


def take_along_axis(arr: Array, indices: Array, axis: int | None = -1) -> Array:
    """``out[ii + (j,) + kk] = arr[ii + (indices[ii + (j,) + kk],) + kk]``, broadcasting ``ii``/``kk``."""
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, indices must have a single dimension")
        arr, axis = arr.reshape(-1), 0
    axis = axis + arr.ndim if axis < 0 else axis
    if indices.ndim != arr.ndim:
        raise ValueError("indices and arr must have the same number of dimensions")
    shape = _bshape(indices.shape, arr.shape, axis)
    out = np.empty(shape, arr.dtype)
    s = arr.shape[axis]
    for pos in np.ndindex(*shape):
        ipos = tuple(p if n > 1 else 0 for p, n in zip(pos, indices.shape, strict=True))
        dpos = [p if n > 1 else 0 for p, n in zip(pos, arr.shape, strict=True)]
        dpos[axis] = _norm(int(indices[ipos]), s)
        out[pos] = arr[tuple(dpos)]
    return out


def put_along_axis(arr: Array, indices: Array, values: Array, axis: int | None) -> Array:
    """``arr[ii + (indices[ii + (j,) + kk],) + kk] = values[ii + (j,) + kk]`` in row-major order."""
    out = arr.copy()
    view = out.reshape(-1) if axis is None else out
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, indices must have a single dimension")
        axis = 0
    axis = axis + view.ndim if axis < 0 else axis
    if indices.ndim != view.ndim:
        raise ValueError("indices and arr must have the same number of dimensions")
    shape = _bshape(indices.shape, view.shape, axis)
    vals = np.broadcast_to(np.asarray(values).astype(arr.dtype), shape)
    s = view.shape[axis]
    for pos in np.ndindex(*shape):
        ipos = tuple(p if n > 1 else 0 for p, n in zip(pos, indices.shape, strict=True))
        dpos = [p if n > 1 else 0 for p, n in zip(pos, view.shape, strict=True)]
        dpos[axis] = _norm(int(indices[ipos]), s)
        view[tuple(dpos)] = vals[pos]
    return out


def put(a: Array, ind: Array, v: Array, mode: str = "raise") -> Array:
    """``a.flat[ind[n]] = v.flat[n % len(v)]`` for ``n`` in order."""
    out = a.copy()
    flat = out.reshape(-1)
    ind = ind.reshape(-1)
    v = np.asarray(v).astype(a.dtype).reshape(-1)
    if ind.size and not flat.size:
        raise IndexError("cannot replace elements of an empty array")
    if not v.size:
        return out
    for n in range(ind.size):
        flat[_norm(int(ind[n]), flat.size, mode)] = v[n % v.size]
    return out


def ufunc_at(ufunc: np.ufunc, a: Array, indices: Any, b: Array) -> Array:
    """``for j: a[t_j] = ufunc(a[t_j], b_j)``, unbuffered, ``t_j`` the positions ``a[indices]`` selects.

    The positions come from indexing an array of flat positions with
    ``indices`` (NumPy's documented ``a[indices]``). ``b`` must have the dtype
    of ``a`` here (the cross-dtype rules are compared with NumPy itself).
    """
    out = a.copy()
    flat = out.reshape(-1)
    sel = np.asarray(np.arange(a.size).reshape(a.shape)[indices])
    bb = np.broadcast_to(np.asarray(b, dtype=a.dtype), sel.shape)
    with np.errstate(all="ignore"):
        for j in np.ndindex(*sel.shape):
            t = int(sel[j])
            flat[t] = ufunc(flat[t], bb[j])
    return out
