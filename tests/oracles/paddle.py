"""Brute-force Paddle 3.3.1 oracles, one element at a time, from Paddle's docs and measured behaviour.

They share no code with gatherscatter. Each loop transcribes the docstring
formula of the op (``paddle.gather``, ``gather_nd``, ``scatter``,
``scatter_nd_add``, ``scatter_nd``, ``take``, ``take_along_axis``,
``put_along_axis``, ``index_select``) plus the CPU rules measured on 3.3.1 (see
docs/behavior-matrix.md#s6): an out-of-range index raises a plain ``IndexError``, a
shape that breaks the op's rule a plain ``ValueError``; tests map those to the
library's errors. Where Paddle returns garbage or crashes the oracle raises too
(that is what gatherscatter does and records as a divergence).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _norm(k: int, s: int) -> int:
    """Paddle's kernels: indices in [-s, s-1], negative counts from the back."""
    if not -s <= k <= s - 1:
        raise IndexError(f"index {k} out of range for size {s}")
    return k + s if k < 0 else k


def _axis(axis: int, r: int) -> int:
    if not -r <= axis < r:
        raise ValueError(f"axis {axis} out of range for rank {r}")
    return axis + r if axis < 0 else axis


def gather(x: Array, index: Array, axis: int | None = None) -> Array:
    """out[p, i, r] = x[p, index[i], r]; index 0-D, 1-D or 2-D [n, 1]."""
    if x.ndim == 0:
        raise ValueError("x must have rank >= 1")
    a = 0 if axis is None else _axis(axis, x.ndim)
    if index.ndim == 2 and index.shape[1] in (0, 1):
        index = index.reshape(-1)
    elif index.ndim > 1:
        raise ValueError("index must be 0-D or 1-D")
    s = x.shape[a]
    out_shape = x.shape[:a] + index.shape + x.shape[a + 1 :]
    out = np.empty(out_shape, x.dtype)
    q = index.ndim
    for pos in np.ndindex(*out_shape):
        k = _norm(int(index[pos[a : a + q]]), s)
        out[pos] = x[pos[:a] + (k,) + pos[a + q :]]
    return out


def index_select(x: Array, index: Array, axis: int = 0) -> Array:
    """out[p, n, r] = x[p, index[n], r]; index 1-D (or [n, 1])."""
    if x.ndim == 0:
        raise ValueError("x must have rank >= 1")
    a = _axis(axis, x.ndim)
    if index.ndim == 2 and index.shape[1] == 1:
        index = index.reshape(-1)
    if index.ndim != 1:
        raise ValueError("index must be 1-D")
    s = x.shape[a]
    out_shape = x.shape[:a] + index.shape + x.shape[a + 1 :]
    out = np.empty(out_shape, x.dtype)
    for pos in np.ndindex(*out_shape):
        out[pos] = x[pos[:a] + (_norm(int(index[pos[a]]), s),) + pos[a + 1 :]]
    return out


def take(x: Array, index: Array, mode: str = "raise") -> Array:
    """out[i] = x.flatten()[rule(index[i])] (paddle/tensor/math.py take())."""
    flat = x.reshape(-1)
    n = flat.size
    out = np.empty(index.shape, x.dtype)
    for i in np.ndindex(*index.shape):
        k = int(index[i])
        if n == 0:
            raise IndexError("x is empty")
        if mode == "raise":
            if k < 0:
                k += n  # paddle adds n once, then index_select wraps once more
            k = _norm(k, n)
        elif mode == "wrap":
            k = k % n
        elif mode == "clip":
            k = min(max(k, 0), n - 1)
        else:
            raise ValueError(mode)
        out[i] = flat[k]
    return out


def gather_nd(x: Array, index: Array) -> Array:
    """output[(i_0, ..., i_{K-2})] = input[index[(i_0, ..., i_{K-2})]]."""
    if index.ndim < 1:
        raise ValueError("index must have rank >= 1")
    k = index.shape[-1]
    if k > x.ndim:
        raise ValueError("index.shape[-1] > rank")
    out_shape = index.shape[:-1] + x.shape[k:]
    out = np.empty(out_shape, x.dtype)
    if math.prod(out_shape) == 0:
        return out
    for i in np.ndindex(*index.shape[:-1]):
        t = tuple(_norm(int(index[i + (j,)]), x.shape[j]) for j in range(k))
        out[i] = x[t]
    return out


def scatter(x: Array, index: Array, updates: Array, overwrite: bool = True) -> Array:
    """The docstring's pseudo-code: zero the rows (overwrite=False), then assign or add row by row."""
    if x.ndim == 0:
        raise ValueError("x must have rank >= 1")
    if index.ndim == 0:
        index, updates = index.reshape(1), updates.reshape((1, *updates.shape))
    elif index.ndim == 2 and index.shape[1] == 1:
        index = index.reshape(-1)
    if index.ndim != 1:
        raise ValueError("index must be 1-D")
    if updates.ndim != x.ndim or updates.shape[1:] != x.shape[1:] or updates.shape[0] < index.shape[0]:
        raise ValueError("updates shape")
    out = x.copy()
    if out.size == 0:
        return out
    s = x.shape[0]
    rows = [_norm(int(v), s) for v in index]
    if not overwrite:
        for r in rows:
            out[r] = 0
    for n, r in enumerate(rows):
        if overwrite:
            out[r] = updates[n]
        else:
            out[r] = out[r] + updates[n]
    return out


def scatter_nd_add(x: Array, index: Array, updates: Array) -> Array:
    """output = copy(x); output[index[i]] += updates[i] for every tuple, in order (docstring)."""
    if index.ndim < 1:
        raise ValueError("index must have rank >= 1")
    k = index.shape[-1]
    if k > x.ndim:
        raise ValueError("index.shape[-1] > rank")
    if updates.shape != index.shape[:-1] + x.shape[k:]:
        raise ValueError("updates shape")
    out = x.copy()
    if out.size == 0:
        return out
    for i in np.ndindex(*index.shape[:-1]):
        t = tuple(_norm(int(index[i + (j,)]), x.shape[j]) for j in range(k))
        with np.errstate(all="ignore"):
            out[t] = out[t] + updates[i]
    return out


def scatter_nd(index: Array, updates: Array, shape: tuple[int, ...]) -> Array:
    """scatter_nd_add(zeros(shape, updates.dtype), index, updates) (docstring)."""
    return scatter_nd_add(np.zeros(shape, updates.dtype), index, updates)


def _broadcast_shape(a_shape: tuple[int, ...], b_shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    """NumPy broadcasting of two same-rank shapes on every dim but ``axis`` (that entry is -1)."""
    out = []
    for d, (n, m) in enumerate(zip(a_shape, b_shape, strict=True)):
        if d == axis:
            out.append(-1)
        elif n == m or m == 1:
            out.append(n)
        elif n == 1:
            out.append(m)
        else:
            raise ValueError(f"shapes {a_shape} and {b_shape} do not broadcast on dim {d}")
    return tuple(out)


def take_along_axis(arr: Array, indices: Array, axis: int, broadcast: bool = True) -> Array:
    """out[j] = arr[j with axis replaced by indices[j]] after broadcasting (or not)."""
    if arr.ndim != indices.ndim:
        raise ValueError("rank")
    a = _axis(axis, arr.ndim)
    if broadcast:
        shape = _broadcast_shape(arr.shape, indices.shape, a)
        ish = tuple(indices.shape[a] if n < 0 else n for n in shape)
        ash = tuple(arr.shape[a] if n < 0 else n for n in shape)
        indices = np.broadcast_to(indices, ish)
        arr = np.broadcast_to(arr, ash)
    else:
        for d in range(arr.ndim):
            if d != a and indices.shape[d] > arr.shape[d]:
                raise ValueError("indices larger than arr")
    s = arr.shape[a]
    out = np.empty(indices.shape, arr.dtype)
    for j in np.ndindex(*indices.shape):
        out[j] = arr[j[:a] + (_norm(int(indices[j]), s),) + j[a + 1 :]]
    return out


def put_along_axis(
    arr: Array,
    indices: Array,
    values: Any,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> Array:
    """paddle/tensor/manipulation.py put_along_axis() shape handling, then a sequential kernel loop."""
    if arr.ndim != indices.ndim:
        raise ValueError("rank")
    a = _axis(axis, arr.ndim)
    values = np.asarray(values)
    if broadcast:
        if all(m <= n for m, n in zip(indices.shape, arr.shape, strict=True)):
            target = arr.shape[:a] + (indices.shape[a],) + arr.shape[a + 1 :]
            indices = np.broadcast_to(indices, target)
        values = np.broadcast_to(values, indices.shape)
        if arr.size == 0:
            return arr.copy()
        if any(indices.shape[d] > arr.shape[d] for d in range(arr.ndim) if d != a):
            raise ValueError("paddle writes out of bounds")
    else:
        if values.ndim == 0:
            values = np.broadcast_to(values, indices.shape)
        if values.ndim != indices.ndim:
            raise ValueError("values rank")
        for d in range(arr.ndim):
            if (d != a and arr.shape[d] < indices.shape[d]) or indices.shape[d] > values.shape[d]:
                raise ValueError("size does not match")
        if indices.size and int(indices.max()) >= arr.shape[a]:
            raise IndexError("index >= size")
        if arr.size == 0:
            return arr.copy()
    s = arr.shape[a]
    out = arr.copy()
    hits: dict[tuple[int, ...], list[Any]] = {}
    for j in np.ndindex(*indices.shape):
        t = j[:a] + (_norm(int(indices[j]), s),) + j[a + 1 :]
        hits.setdefault(t, []).append(values[j])
    for t, us in hits.items():
        x = arr[t]
        if reduce == "assign":
            out[t] = us[-1]
            continue
        pool = ([x] if include_self else []) + us
        with np.errstate(all="ignore"):
            if reduce == "add":
                acc = pool[0]
                for u in pool[1:]:
                    acc = acc + u
            elif reduce in ("mul", "multiply"):
                acc = pool[0]
                for u in pool[1:]:
                    acc = acc * u
            elif reduce == "amax":
                acc = max(pool)
            elif reduce == "amin":
                acc = min(pool)
            elif reduce == "mean":
                total = pool[0]
                for u in pool[1:]:
                    total = total + u
                # integers: floor, as paddle
                acc = int(total) // len(pool) if arr.dtype.kind in "iu" else total / arr.dtype.type(len(pool))
            else:
                raise ValueError(reduce)
        out[t] = acc
    return out
