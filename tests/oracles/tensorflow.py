"""Brute-force TensorFlow oracles, written one element at a time from TF's documentation.

They share no code with gatherscatter: each loop transcribes the TF 2.21
docstrings (``tf.gather``, ``tf.gather_nd``, ``tf.scatter_nd``,
``tf.tensor_scatter_nd_*``, the ``bad_indices_policy`` text of the raw ops) and
the device behaviour of docs/behavior-matrix.md#surprise-3 / docs/behavior-matrix.md#t6-1 / docs/behavior-matrix.md#t6-3
/ docs/behavior-matrix.md#t6-5 plus the
observed XLA quirks recorded as divergences:

* ``device='cpu'``: a negative or out-of-range index raises ``IndexError``
  (unless the output is empty, or ``bad_indices_policy='IGNORE'``);
* ``device='gpu'``: gathers give 0, scatters skip the update;
* ``device='xla'``: gathers clamp into ``[0, s-1]`` (a negative int64 index with
  ``batch_dims > 0`` in ``tf.gather`` reads ``s-1``), scatters skip.

Shape errors are not modelled here (the dialect tests have error tables); the
oracles expect valid shapes. Duplicates without reduction: updates in row-major
order, the last wins. Max/min follow C++ ``(old < u) ? u : old``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _zero(dtype: np.dtype[Any]) -> Any:
    if dtype.kind == "U":
        return ""
    if dtype.kind == "S":
        return b""
    return np.zeros((), dtype)[()]


def gather(params: Array, indices: Array, axis: int | None = None, batch_dims: int = 0, device: str = "cpu") -> Array:
    """output[p.., i.., r..] = params[p.., indices[p[:b], i..], r..] (tf.gather docstring)."""
    b = batch_dims
    a = b if axis is None else axis
    if a == 0:
        b = 0  # the Python wrapper drops batch_dims when axis == 0
    r, q = params.ndim, indices.ndim
    if a < 0:
        a += r
    if b < 0:
        b += q
    s = params.shape[a]
    out_shape = params.shape[:a] + indices.shape[b:] + params.shape[a + 1 :]
    out = np.empty(out_shape, params.dtype)
    m = q - b
    for pos in np.ndindex(*out_shape):
        pre, ipos, post = pos[:a], pos[a : a + m], pos[a + m :]
        k = int(indices[pre[:b] + ipos])
        if not 0 <= k < s:
            if device == "cpu":
                raise IndexError(f"indices{list(pre[:b] + ipos)} = {k} is not in [0, {s})")
            if device == "gpu" or s == 0:
                out[pos] = _zero(params.dtype)
                continue
            if k < 0 and b > 0 and indices.dtype == np.int64:
                k = s - 1
            k = min(max(k, 0), s - 1)
        out[pos] = params[pre + (k,) + post]
    return out


def gather_nd(
    params: Array, indices: Array, batch_dims: int = 0, device: str = "cpu", bad_indices_policy: str = ""
) -> Array:
    """output[β, i] = params[β + tuple(indices[β, i])] (tf.gather_nd docstring)."""
    b = batch_dims
    k = indices.shape[-1]
    lead = indices.shape[:-1]
    sizes = params.shape[b : b + k]
    out = np.empty(lead + params.shape[b + k :], params.dtype)
    if int(np.prod(lead)) > 0 and params.size == 0:
        if device == "xla":
            return np.zeros(out.shape, params.dtype)
        raise ValueError("Requested more than 0 entries, but params is empty")
    ignore = bad_indices_policy == "IGNORE"
    for i in np.ndindex(*lead):
        t = [int(v) for v in indices[i]]
        bad = any(not 0 <= v < n for v, n in zip(t, sizes, strict=True))
        if bad:
            if device == "cpu" and not ignore:
                raise IndexError(f"indices{list(i)} = {t} does not index into param shape {list(params.shape)}")
            if device == "gpu" or ignore:
                out[i] = _zero(params.dtype)
                continue
            t = [min(max(v, 0), n - 1) for v, n in zip(t, sizes, strict=True)]
        out[i] = params[i[:b] + tuple(t)]
    return out


def _combine(op: str, old: Any, u: Any, dtype: np.dtype[Any]) -> Any:
    if op == "update":
        return u
    if dtype.kind == "b":
        return {"add": old or u, "max": old or u, "min": old and u}[op]
    if dtype.kind in "USO":
        return old + u  # scatter_nd concatenates strings
    with np.errstate(all="ignore"):
        if op == "add":
            return np.add(old, u, dtype=dtype)
        if op == "sub":
            return np.subtract(old, u, dtype=dtype)
    if op == "max":
        return u if old < u else old
    if op == "min":
        return u if u < old else old
    raise ValueError(op)


def tensor_scatter(
    op: str, tensor: Array, indices: Array, updates: Array, device: str = "cpu", bad_indices_policy: str = ""
) -> Array:
    """out = copy(tensor); out[tuple(indices[i])] = f(out[...], updates[i]) in row-major order of i."""
    out = tensor.copy()
    if indices.ndim == 1:  # XLA: one index tuple
        indices = indices[None]
        updates = updates[None]
    k = indices.shape[-1]
    sizes = tensor.shape[:k]
    ignore = bad_indices_policy == "IGNORE"
    lead = indices.shape[:-1]
    for i in np.ndindex(*lead):
        t = tuple(int(v) for v in indices[i])
        if any(not 0 <= v < n for v, n in zip(t, sizes, strict=True)):
            if device == "cpu" and not ignore:
                raise IndexError(f"indices{list(i)} = {list(t)} does not index into shape {list(tensor.shape)}")
            continue
        for r in np.ndindex(*tensor.shape[k:]):
            out[t + r] = _combine(op, out[t + r], updates[i + r], tensor.dtype)
    return out


def scatter_nd(indices: Array, updates: Array, shape: tuple[int, ...], device: str = "cpu", bad_indices_policy: str = "") -> Array:
    """tf.tensor_scatter_nd_add(tf.zeros(shape, updates.dtype), indices, updates) (tf.scatter_nd docstring)."""
    if updates.dtype.kind in "US":
        zeros = np.full(shape, _zero(updates.dtype), dtype=object)
        res = tensor_scatter("add", zeros, indices, updates.astype(object), device, bad_indices_policy)
        return res.astype(str if updates.dtype.kind == "U" else bytes)
    if updates.dtype.kind == "O":
        zero = "" if updates.size and isinstance(updates.reshape(-1)[0], str) else b""
        return tensor_scatter("add", np.full(shape, zero, object), indices, updates, device, bad_indices_policy)
    return tensor_scatter("add", np.zeros(shape, updates.dtype), indices, updates, device, bad_indices_policy)
