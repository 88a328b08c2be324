"""Brute-force MXNet 1.9.1 oracles, one element at a time, from MXNet's docs and kernels.

They share no code with gatherscatter. Index conversion transcribes the C
casts of ``src/operator/tensor/indexing_op.h`` and ``broadcast_reduce_op_index``
(truncation toward zero; ``pick`` into int32; ``gather_nd`` adds the axis size in
the index dtype first). Inputs here are finite; indices MXNet cannot handle
(NaN, crashes) are not generated. Errors raise a plain ``IndexError``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _trunc(x: Any) -> int:
    return math.trunc(float(x))


def take(a: Array, indices: Array, axis: int = 0, mode: str = "clip") -> Array:
    """``output[p, i, r] = a[p, norm(indices[i]), r]`` with ``norm`` per mode."""
    axis = axis + a.ndim if axis < 0 else axis
    s = a.shape[axis]
    out = np.empty(a.shape[:axis] + indices.shape + a.shape[axis + 1 :], a.dtype)
    ks = {}
    for i in np.ndindex(*indices.shape):
        x = indices[i]
        if mode == "raise":
            if not (0 <= float(x) <= s - 1):
                raise IndexError("take operator contains indices out of bound")
            k = _trunc(x)
        elif mode == "clip":
            k = min(max(_trunc(x), 0), s - 1)
        else:
            k = _trunc(x) % s
        ks[i] = k
    for p in np.ndindex(*a.shape[:axis]):
        for i in np.ndindex(*indices.shape):
            for r in np.ndindex(*a.shape[axis + 1 :]):
                out[p + i + r] = a[p + (ks[i],) + r]
    return out


def pick(data: Array, index: Array, axis: int = -1, mode: str = "clip", keepdims: bool = False) -> Array:
    """``out[j] = data[j[:axis] + (norm(index[j]),) + j[axis:]]`` over the shape without ``axis``."""
    axis = axis + data.ndim if axis < 0 else axis
    s = data.shape[axis]
    rest = data.shape[:axis] + data.shape[axis + 1 :]
    idx = index.reshape(rest) if rest else index.reshape(())
    out = np.empty(rest, data.dtype)
    for j in np.ndindex(*rest):
        k = _trunc(idx[j])
        k = int(np.array(k).astype(np.int32))  # MXNet casts to int (32 bits)
        k = min(max(k, 0), s - 1) if mode == "clip" else k % s
        out[j] = data[j[:axis] + (k,) + j[axis:]]
    if keepdims:
        return out.reshape(data.shape[:axis] + (1,) + data.shape[axis + 1 :])
    return out.reshape(rest or (1,))


def _nd_index(x: Any, s: int, dtype: np.dtype[Any]) -> int:
    """gather_nd: check ``-s <= x <= s-1``, then ``int(x + s) % s`` with the sum in the index dtype."""
    if not (-s <= float(x) <= s - 1):
        raise IndexError(f"index {x} is out of bounds for size {s}")
    if dtype.kind == "f":
        if dtype == np.float16:
            shifted = float(np.float16(np.float32(x) + np.float32(s)))
        else:
            shifted = float(dtype.type(x) + dtype.type(s))
        return math.trunc(shifted) % s
    return (int(x) + s) % s


def gather_nd(data: Array, indices: Array) -> Array:
    """``output[y, r] = data[indices[0, y], ..., indices[M-1, y], r]``."""
    m = indices.shape[0]
    ys = indices.shape[1:]
    out = np.empty(ys + data.shape[m:], data.dtype)
    for y in np.ndindex(*ys):
        t = tuple(_nd_index(indices[(j, *y)], data.shape[j], indices.dtype) for j in range(m))
        out[y] = data[t]
    return out


def scatter_nd(data: Array, indices: Array, shape: tuple[int, ...]) -> Array:
    """``output = zeros(shape); output[indices[:, y]] = data[y]`` in row-major order of ``y``."""
    m = indices.shape[0]
    out = np.zeros(shape, data.dtype)
    for y in np.ndindex(*indices.shape[1:]):
        t = tuple(_trunc(indices[(j, *y)]) for j in range(m))
        if any(k < 0 or k >= shape[j] for j, k in enumerate(t)):
            raise IndexError(f"index tuple {t} is out of bounds for shape {shape}")
        out[t] = data[y]
    return out
