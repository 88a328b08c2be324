"""Brute-force loop oracles for the JAX ops, written from JAX's documented semantics.

Nothing here imports gatherscatter: each function is a readable loop over output
(or update) positions, written from the JAX docstrings and docs/semantics.md#s2-3,
docs/semantics.md#s3-2, docs/semantics.md#s6-5 and docs/semantics.md#s7 (jax 0.10, jax_enable_x64=True). NumPy's own
``x[idx]`` is used
for the placement rules of NumPy-style indexing; the out-of-range rules are
applied here, index by index.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

__all__ = [
    "at_get",
    "at_scatter",
    "default_fill",
    "lax_gather",
    "lax_scatter",
    "take",
    "take_along_axis",
]


def default_fill(dtype: np.dtype[Any]) -> Any:
    """NaN for inexact dtypes, iinfo.min for signed, iinfo.max for unsigned, True for bool."""
    dtype = np.dtype(dtype)
    if dtype.kind in "fc" or dtype.name == "bfloat16":
        return np.nan
    if dtype.kind == "i":
        return np.iinfo(dtype).min
    if dtype.kind == "u":
        return np.iinfo(dtype).max
    return True


def _fill(dtype: np.dtype[Any], value: Any) -> Any:
    v = default_fill(dtype) if value is None else value
    with np.errstate(all="ignore"):
        return np.asarray(v).astype(dtype)[()]


def take(a: Any, indices: Any, axis: int | None = None, mode: str | None = None, fill_value: Any = None) -> Any:
    """``jnp.take``: fill (default; negatives wrap once), clip (negatives -> 0), wrap (mod)."""
    a = np.asarray(a)
    idx = np.asarray(indices)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim
    s = a.shape[axis]
    if s == 0:
        if idx.size:
            raise IndexError("non-empty take from an empty axis")
        return a.copy()
    out_shape = a.shape[:axis] + idx.shape + a.shape[axis + 1 :]
    out = np.empty(out_shape, a.dtype)
    fv = _fill(a.dtype, fill_value)
    for pos in itertools.product(*(range(n) for n in out_shape)):
        p, i, r = pos[:axis], pos[axis : axis + idx.ndim], pos[axis + idx.ndim :]
        k = int(idx[i])
        if mode in (None, "fill"):
            if k < 0:
                k += s
            out[pos] = a[p + (k,) + r] if 0 <= k < s else fv
        elif mode == "clip":
            out[pos] = a[p + (min(max(k, 0), s - 1),) + r]
        elif mode == "wrap":
            out[pos] = a[p + (k % s,) + r]
        else:
            raise ValueError(mode)
    return out


def take_along_axis(
    arr: Any,
    indices: Any,
    axis: int | None,
    mode: str | None = None,
    fill_value: Any = None,
    wrap_negative_indices: bool | None = None,
) -> Any:
    """``jnp.take_along_axis``: broadcast, then one element per index; fill / clip / promise_in_bounds."""
    a = np.asarray(arr)
    idx = np.asarray(indices)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = axis % a.ndim
    s = a.shape[axis]
    ashape = list(a.shape)
    ashape[axis] = 1
    out_shape = np.broadcast_shapes(idx.shape, tuple(ashape))
    if s == 0:
        return np.zeros(out_shape, a.dtype)
    wrap = (mode != "promise_in_bounds") if wrap_negative_indices is None else wrap_negative_indices
    ib = np.broadcast_to(idx, out_shape)
    dshape = list(out_shape)
    dshape[axis] = s
    ab = np.broadcast_to(a, dshape)
    fv = _fill(a.dtype, fill_value)
    out = np.empty(out_shape, a.dtype)
    for pos in itertools.product(*(range(n) for n in out_shape)):
        k = int(ib[pos])
        if wrap and k < 0:
            k += s
        src = list(pos)
        if mode in (None, "fill", "drop"):
            if 0 <= k < s:
                src[axis] = k
                out[pos] = ab[tuple(src)]
            else:
                out[pos] = fv
        else:  # clip, promise_in_bounds: clamp
            src[axis] = min(max(k, 0), s - 1)
            out[pos] = ab[tuple(src)]
    return out


# ---------------------------------------------------------------------------------------
# x.at[idx]


def _entries(idx: Any, ndim: int) -> list[tuple[Any, tuple[int, ...]]]:
    """Each index entry with the axes it consumes (NumPy's reading)."""
    items = list(idx) if isinstance(idx, tuple) else [idx]
    conv = []
    for it in items:
        if it is None or it is Ellipsis or isinstance(it, (slice, bool, np.bool_, int, np.integer)):
            conv.append(it)
        else:
            conv.append(np.asarray(it) if not (isinstance(it, list) and len(it) == 0) else np.zeros(0, np.int64))
    used = 0
    for it in conv:
        if isinstance(it, np.ndarray) and it.dtype == bool:
            used += it.ndim
        elif it is None or it is Ellipsis or isinstance(it, (bool, np.bool_)):
            pass
        else:
            used += 1
    out = []
    axis = 0
    if not any(it is Ellipsis for it in conv):
        conv.append(Ellipsis)
    for it in conv:
        if it is Ellipsis:
            n = ndim - used
        elif isinstance(it, np.ndarray) and it.dtype == bool:
            n = it.ndim
        elif it is None or isinstance(it, (bool, np.bool_)):
            n = 0
        else:
            n = 1
        out.append((it, tuple(range(axis, axis + n))))
        axis += n
    return out


def _rewrite(
    x: np.ndarray[Any, Any], idx: Any, clip: bool, pad_value: Any
) -> tuple[np.ndarray[Any, Any], tuple[Any, ...]]:
    """The index with integer entries wrapped once and clamped (clip) or sent to a padding
    row holding ``pad_value`` (fill / drop), and the (padded) array to index."""
    entries = _entries(idx, x.ndim)
    padded = [
        ax[0]
        for it, ax in entries
        if not (it is Ellipsis or isinstance(it, slice) or it is None)
        and not isinstance(it, (bool, np.bool_))
        and not (isinstance(it, np.ndarray) and it.dtype == bool)
    ]
    xp = x
    if not clip and padded:
        shape = list(x.shape)
        for d in padded:
            shape[d] += 1
        xp = np.full(shape, pad_value, dtype=x.dtype)
        xp[tuple(slice(0, n) for n in x.shape)] = x
    new = []
    for it, ax in entries:
        if it is None or isinstance(it, (slice, bool, np.bool_)):
            new.append(it)
        elif it is Ellipsis:
            new.append(Ellipsis)
        elif isinstance(it, np.ndarray) and it.dtype == bool:
            new.append(it)
        else:
            d = ax[0]
            s = x.shape[d]
            v = np.array(it, dtype=object)
            out = np.empty(v.shape, np.int64)
            for p in np.ndindex(*v.shape):
                k = int(v[p])
                if k < 0 and np.asarray(it).dtype.kind != "u":
                    k += s
                if clip:
                    k = min(max(k, 0), s - 1)
                elif not 0 <= k < s:
                    k = s
                out[p] = k
            new.append(out if out.ndim else int(out))
    return xp, tuple(new)


def at_get(x: Any, idx: Any, mode: str | None = None, fill_value: Any = None) -> Any:
    """``x.at[idx].get``: negatives wrap once; clamp (default, clip, promise_in_bounds) or fill."""
    x = np.asarray(x)
    fill = mode in ("fill", "drop")
    fv = _fill(x.dtype, fill_value)
    xp, new = _rewrite(x, idx, clip=not fill, pad_value=fv)
    return np.array(xp[new], dtype=x.dtype, copy=True)


def _nan(old: Any, new: Any) -> bool:
    return bool(np.asarray(old).dtype.kind == "f" and (np.isnan(old) or np.isnan(new)))


def _min(old: Any, new: Any) -> Any:
    if _nan(old, new):
        return np.nan
    return new if new < old else old


def _max(old: Any, new: Any) -> Any:
    if _nan(old, new):
        return np.nan
    return new if new > old else old


_OPS = {
    "set": lambda old, new: new,
    "add": lambda old, new: old + new,
    "multiply": lambda old, new: old * new,
    "min": _min,
    "max": _max,
}


def at_scatter(x: Any, idx: Any, values: Any, op: str, mode: str | None = None) -> Any:
    """``x.at[idx].<op>(values)`` for values of ``x``'s dtype: updates applied in row-major
    order of ``x[idx]``; out-of-range updates dropped (default) or clamped ('clip')."""
    x = np.asarray(x)
    addr = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    ap, new = _rewrite(addr, idx, clip=(mode == "clip"), pad_value=-1)
    targets = ap[new]
    v = np.broadcast_to(np.asarray(values, dtype=x.dtype), targets.shape)
    out = x.copy()
    flat = out.reshape(-1)
    f = _OPS[op]
    with np.errstate(all="ignore"):
        for p in np.ndindex(*targets.shape):
            t = int(targets[p])
            if t >= 0:
                flat[t] = f(flat[t], v[p])
    return out


# ---------------------------------------------------------------------------------------
# lax


def lax_gather(
    operand: Any, start_indices: Any, dn: Any, slice_sizes: Any, mode: str | None = None, fill_value: Any = None
) -> Any:
    """XLA gather (StableHLO formula), start clamped so the window fits, or fill whole windows."""
    op = np.asarray(operand)
    idx = np.asarray(start_indices)
    off, col, sim = tuple(dn[0]), tuple(dn[1]), tuple(dn[2])
    obd = tuple(dn[3]) if len(dn) > 3 else ()
    ibd = tuple(dn[4]) if len(dn) > 4 else ()
    sizes = tuple(slice_sizes)
    r = op.ndim
    out_rank = len(off) + idx.ndim - 1
    batch_dims = [d for d in range(out_rank) if d not in off]
    win = [d for d in range(r) if d not in col and d not in obd]
    bshape = iter(idx.shape[:-1])
    wshape = iter(sizes[d] for d in win)
    out_shape = tuple(next(wshape) if d in off else next(bshape) for d in range(out_rank))
    fv = _fill(op.dtype, fill_value)
    out = np.empty(out_shape, op.dtype)
    for R in itertools.product(*(range(n) for n in out_shape)):
        G = tuple(R[d] for d in batch_dims)
        S = [int(v) for v in idx[G]]
        full = [0] * r
        ok = True
        for k, d in enumerate(sim):
            hi = op.shape[d] - sizes[d]
            if mode in ("fill", "drop"):
                ok = ok and 0 <= S[k] <= hi
                full[d] = S[k]
            else:
                full[d] = min(max(S[k], 0), hi)
        for j, d in enumerate(obd):
            full[d] += G[ibd[j]]
        for i, d in enumerate(win):
            full[d] += R[off[i]]
        out[R] = op[tuple(full)] if ok else fv
    return out


_COMBINE = {
    "scatter": lambda old, new: new,
    "scatter_add": lambda old, new: old + new,
    "scatter_mul": lambda old, new: old * new,
    "scatter_min": _OPS["min"],
    "scatter_max": _OPS["max"],
}


def lax_scatter(operand: Any, scatter_indices: Any, updates: Any, dn: Any, name: str, mode: str | None = None) -> Any:
    """XLA scatter: for each scatter index (row-major), its window (row-major); a window with
    any element out of range is skipped whole, or its start is clamped ('clip')."""
    op = np.asarray(operand)
    idx = np.asarray(scatter_indices)
    upd = np.asarray(updates, dtype=op.dtype)
    uwd, iwd, sdod = tuple(dn[0]), tuple(dn[1]), tuple(dn[2])
    obd = tuple(dn[3]) if len(dn) > 3 else ()
    ibd = tuple(dn[4]) if len(dn) > 4 else ()
    r = op.ndim
    scatter_dims = [d for d in range(upd.ndim) if d not in uwd]
    win = [d for d in range(r) if d not in iwd and d not in obd]
    wsize = {d: upd.shape[uwd[i]] for i, d in enumerate(win)}
    out = op.copy()
    f = _COMBINE[name]
    with np.errstate(all="ignore"):
        for G in itertools.product(*(range(upd.shape[d]) for d in scatter_dims)):
            S = [int(v) for v in idx[G]]
            start = [0] * r
            for k, d in enumerate(sdod):
                start[d] = S[k]
                if mode == "clip":
                    start[d] = min(max(S[k], 0), op.shape[d] - wsize.get(d, 1))
            for j, d in enumerate(obd):
                start[d] = G[ibd[j]]
            elements = []
            for W in itertools.product(*(range(wsize[d]) for d in win)):
                full = list(start)
                for i, d in enumerate(win):
                    full[d] += W[i]
                upos = [0] * upd.ndim
                for t, d in enumerate(scatter_dims):
                    upos[d] = G[t]
                for i, d in enumerate(uwd):
                    upos[d] = W[i]
                elements.append((tuple(full), tuple(upos)))
            if all(all(0 <= c < n for c, n in zip(full, op.shape, strict=True)) for full, _ in elements):
                for full, upos in elements:
                    out[full] = f(out[full], upd[upos])
    return out
