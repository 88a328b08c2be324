"""Brute-force OpenVINO oracles, written one element at a time from the OpenVINO specs.

They share no code with gatherscatter: each loop transcribes the formula of the
op's specification (docs/articles_en/documentation/openvino-ir-format/
operation-sets/operation-specs/movement/*.rst, OpenVINO 2026.4). Indices outside
the range the spec allows raise a plain ``IndexError`` unless the spec defines the
result (Gather-8: zero fill); tests map it to the library's error.

Where the spec leaves a choice these oracles follow the same documented choices
as the library (duplicates without reduction: updates applied in row-major order
of the indices, so the last wins; integer mean rounds down, as the
ScatterElementsUpdate-12 spec says).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def _norm(k: int, s: int, negative: bool) -> int:
    """An index of an axis of size ``s``: ``[0, s-1]``, plus ``[-s, -1]`` when ``negative``."""
    if negative and -s <= k < 0:
        k += s
    if not 0 <= k < s:
        raise IndexError(f"index {k} out of range for size {s}")
    return k


def gather(data: Array, indices: Array, axis: int, batch_dims: int = 0, version: int = 8) -> Array:
    """output[p_0..p_{axis-1}, i_b..i_{M-1}, p_{axis+1}..] = data[p.., indices[p_0..p_{b-1}, i_b..], p_{axis+1}..].

    Gather-8: indices in [-s, s-1]; others give zero. Gather-1/7: [0, s-1], else IndexError.
    """
    r, q = data.ndim, indices.ndim
    a = axis + r if axis < 0 else axis
    b = batch_dims + q if batch_dims < 0 else batch_dims
    s = data.shape[a]
    m = q - b
    out_shape = data.shape[:a] + indices.shape[b:] + data.shape[a + 1 :]
    out = np.zeros(out_shape, data.dtype)
    if version != 8:
        for j in np.ndindex(*indices.shape):
            _norm(int(indices[j]), s, False)
    for pos in np.ndindex(*out_shape):
        p, i, t = pos[:a], pos[a : a + m], pos[a + m :]
        k = int(indices[p[:b] + i])
        if version == 8:
            if -s <= k < 0:
                k += s
            if 0 <= k < s:
                out[pos] = data[p + (k,) + t]
            # else: stays zero (spec Example 7)
        else:
            out[pos] = data[p + (_norm(k, s, False),) + t]
    return out


def gather_elements(data: Array, indices: Array, axis: int) -> Array:
    """out[i][j][k] = data[indices[i][j][k]][j][k] if axis = 0, and so on; indices in [0, s-1]."""
    r = data.ndim
    a = axis + r if axis < 0 else axis
    s = data.shape[a]
    out = np.zeros(indices.shape, data.dtype)
    for j in np.ndindex(*indices.shape):
        k = _norm(int(indices[j]), s, False)
        out[j] = data[j[:a] + (k,) + j[a + 1 :]]
    return out


def gather_nd(data: Array, indices: Array, batch_dims: int = 0, version: int = 8) -> Array:
    """output[i_0..i_{K-2}, :, ..] = data[i_0..i_{b-1}, indices[i_0..i_{K-2}], :, ..].

    GatherND-8 keeps the batch dims; GatherND-5 flattens them into one leading dim.
    GatherND-8 indices in [-s, s-1]; GatherND-5 in [0, s-1].
    """
    b = batch_dims
    k = indices.shape[-1]
    lead = indices.shape[:-1]
    out = np.zeros(lead + data.shape[b + k :], data.dtype)
    for i in np.ndindex(*lead):
        comps = tuple(
            _norm(int(indices[i + (j,)]), data.shape[b + j], version == 8) for j in range(k)
        )
        out[i] = data[i[:b] + comps]
    if version == 5 and b > 0:
        n = 1
        for x in indices.shape[:b]:
            n *= x
        out = out.reshape((n,) + indices.shape[b:-1] + data.shape[b + k :])
    return out


def _neutral(reduction: str, dtype: np.dtype[Any]) -> Any:
    """ScatterElementsUpdate-12 with use_init_val=false: the reduction's starting value."""
    if dtype.kind == "b":
        return {"sum": False, "prod": True, "max": False, "min": True, "mean": False}[reduction]
    if reduction in ("sum", "mean"):
        return dtype.type(0)
    if reduction == "prod":
        return dtype.type(1)
    info = np.iinfo(dtype) if dtype.kind in "iu" else np.finfo(dtype)
    return dtype.type(info.min if reduction == "max" else info.max)  # numeric_limits lowest() / max()


def _combine(reduction: str, x: Any, u: Any, dtype: np.dtype[Any]) -> Any:
    """f(output, update) of the spec, in the data type (integer overflow wraps)."""
    if dtype.kind == "b":
        x, u = bool(x), bool(u)
        return {
            "sum": x or u, "prod": x and u, "sub": x != u, "max": x or u, "min": x and u, "mean": None,
        }[reduction]
    with np.errstate(all="ignore"):
        if reduction in ("sum", "mean"):
            return np.add(x, u, dtype=dtype)
        if reduction == "sub":
            return np.subtract(x, u, dtype=dtype)
        if reduction == "prod":
            return np.multiply(x, u, dtype=dtype)
        if reduction == "max":
            return np.maximum(x, u, dtype=dtype)
        if reduction == "min":
            return np.minimum(x, u, dtype=dtype)
    raise ValueError(reduction)


def scatter_elements_update(
    data: Array, indices: Array, updates: Array, axis: int, reduction: str = "none",
    use_init_val: bool = True, version: int = 12,
) -> Array:
    """output[... indices[j] ...] = reduction(updates[j], output[... indices[j] ...]), j in row-major order.

    -12 indices in [-s, s-1], -3 in [0, s-1]. mean: (init + sum) / (count + 1), or
    sum / count without use_init_val; integers rounded down.
    """
    r = data.ndim
    a = axis + r if axis < 0 else axis
    s = data.shape[a]
    dt = data.dtype
    targets = []
    for j in np.ndindex(*indices.shape):
        k = _norm(int(indices[j]), s, version == 12)
        targets.append((j, j[:a] + (k,) + j[a + 1 :]))
    out = data.copy()
    if reduction == "none":
        for j, t in targets:
            out[t] = updates[j]
        return out
    if not use_init_val:
        for _, t in targets:
            out[t] = _neutral(reduction, dt)
    count: dict[tuple[int, ...], int] = {}
    for j, t in targets:
        out[t] = _combine(reduction, out[t], updates[j], dt)
        count[t] = count.get(t, 0) + 1
    if reduction == "mean":
        for t, c in count.items():
            n = c + (1 if use_init_val else 0)
            if dt.kind in "iu":
                out[t] = dt.type(int(out[t]) // n)  # Python // rounds down
            else:
                out[t] = dt.type(out[t] / dt.type(n))
    return out


def scatter_nd_update(data: Array, indices: Array, updates: Array, reduction: str = "none", version: int = 15) -> Array:
    """The ScatterNDUpdate-15 NumPy snippet: out[tuple(indices[i])] = func(out[...], updates[i]).

    -15 indices in [-s_j, s_j-1], -3 in [0, s_j-1]; a 1-element updates is read as 0-D when
    the expected updates shape is ().
    """
    k = indices.shape[-1]
    lead = indices.shape[:-1]
    if lead + data.shape[k:] == () and updates.size == 1:
        updates = updates.reshape(())
    dt = data.dtype
    tuples = []
    for i in np.ndindex(*lead):
        tuples.append((i, tuple(_norm(int(indices[i + (j,)]), data.shape[j], version == 15) for j in range(k))))
    out = data.copy()
    for i, t in tuples:
        if reduction == "none":
            out[t] = updates[i]
            continue
        block = np.asarray(out[t])
        upd = np.asarray(updates[i])
        new = np.empty(block.shape, dt)
        for e in np.ndindex(*block.shape):
            new[e] = _combine(reduction, block[e], upd[e], dt)
        out[t] = new
    return out


def scatter_update(data: Array, indices: Array, updates: Array, axis: int) -> Array:
    """data[..., indices[m, n, ..., p], ...] = updates[..., m, n, ..., p, ...]; indices in [0, s-1]."""
    r = data.ndim
    a = axis + r if axis < 0 else axis
    s = data.shape[a]
    q = indices.ndim
    ks = {i: _norm(int(indices[i]), s, False) for i in np.ndindex(*indices.shape)}
    out = data.copy()
    for pos in np.ndindex(*updates.shape):
        p, i, t = pos[:a], pos[a : a + q], pos[a + q :]
        out[p + (ks[i],) + t] = updates[pos]
    return out
