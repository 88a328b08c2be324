"""Brute-force ONNX oracles, written one element at a time from the ONNX spec text.

They share no code with gatherscatter: each loop transcribes the formula of the
op's documentation (onnx/defs/tensor/defs.cc, Operators.md). Out-of-range
indices raise a plain ``IndexError``; tests map that to the library's error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _norm(k: int, s: int) -> int:
    """ONNX: indices in [-s, s-1]; negative counts from the back; else an error."""
    if not -s <= k <= s - 1:
        raise IndexError(f"index {k} out of range for size {s}")
    return k + s if k < 0 else k


def gather(data: Array, indices: Array, axis: int = 0) -> Array:
    """output[j_0..j_{a-1}, i_0..i_{q-1}, j_{a+1}..] = data[j_0.., indices[i], j_{a+1}..]."""
    r = data.ndim
    a = axis + r if axis < 0 else axis
    q = indices.ndim
    s = data.shape[a]
    out_shape = data.shape[:a] + indices.shape + data.shape[a + 1 :]
    out = np.empty(out_shape, data.dtype)
    for pos in np.ndindex(*out_shape):
        i = pos[a : a + q]
        k = _norm(int(indices[i]), s)
        out[pos] = data[pos[:a] + (k,) + pos[a + q :]]
    # an index that lands in no output cell (zero-size output) is still checked
    for i in np.ndindex(*indices.shape):
        _norm(int(indices[i]), s)
    return out


def gather_elements(data: Array, indices: Array, axis: int = 0) -> Array:
    """out[i][j][k] = data[index[i][j][k]][j][k] (axis 0), and so on."""
    r = data.ndim
    a = axis + r if axis < 0 else axis
    s = data.shape[a]
    out = np.empty(indices.shape, data.dtype)
    for pos in np.ndindex(*indices.shape):
        k = _norm(int(indices[pos]), s)
        out[pos] = data[pos[:a] + (k,) + pos[a + 1 :]]
    return out


def gather_nd(data: Array, indices: Array, batch_dims: int = 0) -> Array:
    """Each index tuple on the last axis selects a slice of data[batch..]."""
    b = batch_dims
    k = indices.shape[-1]
    out_shape = indices.shape[:-1] + data.shape[b + k :]
    out = np.empty(out_shape, data.dtype)
    for i in np.ndindex(*indices.shape[:-1]):
        tup = tuple(_norm(int(indices[i + (j,)]), data.shape[b + j]) for j in range(k))
        out[i] = data[i[:b] + tup]
    return out


def _combine(reduction: str, x: Any, u: Any) -> Any:
    if reduction == "none":
        return u
    if reduction == "add":
        return np.add(x, u)
    if reduction == "mul":
        return np.multiply(x, u)
    if reduction == "max":
        return np.maximum(x, u)
    if reduction == "min":
        return np.minimum(x, u)
    raise ValueError(reduction)


def scatter_elements(data: Array, indices: Array, updates: Array, axis: int = 0, reduction: str = "none") -> Array:
    """output = copy(data); output[idx with axis replaced by indices[idx]] = f(., updates[idx]) in row-major order."""
    r = data.ndim
    a = axis + r if axis < 0 else axis
    s = data.shape[a]
    out = data.copy()
    for idx in np.ndindex(*indices.shape):
        k = _norm(int(indices[idx]), s)
        t = idx[:a] + (k,) + idx[a + 1 :]
        with np.errstate(all="ignore"):
            out[t] = _combine(reduction, out[t], updates[idx])
    return out


def scatter_nd(data: Array, indices: Array, updates: Array, reduction: str = "none") -> Array:
    """output = copy(data); output[tuple(indices[idx])] = f(., updates[idx]) in row-major order."""
    k = indices.shape[-1]
    out = data.copy()
    for idx in np.ndindex(*indices.shape[:-1]):
        t = tuple(_norm(int(indices[idx + (j,)]), data.shape[j]) for j in range(k))
        with np.errstate(all="ignore"):
            out[t] = _combine(reduction, out[t], updates[idx])
    return out


def tensor_scatter(
    past_cache: Array, update: Array, write_indices: Array | None = None, axis: int = -2, mode: str = "linear"
) -> Array:
    """TensorScatter-24, one element at a time (onnx/defs/tensor/defs.cc pseudocode and attribute texts).

    present[p, (w[b] + j) (mod S in circular mode), q] = update[p, j, q] for every element of update, b = p[0].
    The rules the spec states (and ONNX Runtime enforces) raise: a negative write index, or in linear mode
    ``write_indices[b] + sequence_length > max_sequence_length``, is an ``IndexError``; shapes, axis 0 and
    unknown modes are a ``ValueError``.
    """
    if mode not in ("linear", "circular"):
        raise ValueError(f"mode {mode!r}")
    r = past_cache.ndim
    if r < 2 or update.ndim != r or not (-r < axis < 0 or 0 < axis < r):
        raise ValueError("rank or axis")
    a = axis + r if axis < 0 else axis
    big_s, seq = past_cache.shape[a], update.shape[a]
    if seq > big_s or any(update.shape[k] != past_cache.shape[k] for k in range(r) if k != a):
        raise ValueError("shapes")
    batch = past_cache.shape[0]
    w = [0] * batch if write_indices is None else [int(v) for v in write_indices]
    if len(w) != batch:
        raise ValueError("write_indices shape")
    for b in range(batch):
        if w[b] < 0 or (mode == "linear" and w[b] + seq > big_s):
            raise IndexError(f"write_indices[{b}] = {w[b]}")
    out = past_cache.copy()
    for pos in np.ndindex(*update.shape):
        t = w[pos[0]] + pos[a]
        if mode == "circular":
            t = t % big_s
        out[pos[:a] + (t,) + pos[a + 1 :]] = update[pos]
    return out
