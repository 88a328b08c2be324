"""Brute-force loop oracles for the torch dialect, written from torch's documented semantics.

Every function here is an explicit Python loop over index positions, written
from the torch 2.13 docstrings (``torch.gather``, ``Tensor.scatter_`` ...) plus
the rules measured on torch 2.13 CPU (which ops reject negative indices, 0-d
tensors counting as 1-d, empty indices returning early, integer ``mean``
flooring). They never call gatherscatter. Errors are builtin exceptions:
``IndexError`` for an index out of range, ``ValueError`` for shapes and dims,
``TypeError`` for dtypes; the property tests check that gatherscatter raises
the matching GatherScatterError subclass.

The oracles cover the data dtypes the property tests draw (float64, int64,
int32, bool); float16 accumulation details are checked against torch itself
(tests/frameworks/test_torch.py).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

INT32_INT64 = (np.int32, np.int64)


def _dim(dim: int, ndim: int) -> int:
    r = max(ndim, 1)
    if not -r <= dim < r:
        raise ValueError(f"dim {dim} out of range for rank {ndim}")
    return dim + r if dim < 0 else dim


def _index(index: Any, allowed: tuple[type, ...] = INT32_INT64) -> np.ndarray:
    i = np.asarray(index)
    if i.dtype.type not in allowed:
        raise TypeError(f"index dtype {i.dtype}")
    return i


def _at_least_1d(a: np.ndarray) -> np.ndarray:
    return a.reshape(1) if a.ndim == 0 else a


def _replace(j: tuple[int, ...], dim: int, k: int) -> tuple[int, ...]:
    return j[:dim] + (k,) + j[dim + 1 :]


def _check(k: int, s: int, *, negative: bool) -> int:
    """An index into a dim of size s: negative wrap once when allowed, else IndexError."""
    if negative and -s <= k < 0:
        return k + s
    if not 0 <= k < s:
        raise IndexError(f"index {k} out of range for size {s}")
    return k


# ----------------------------------------------------------------------------- gathers

def gather(input: Any, dim: int, index: Any) -> np.ndarray:
    """out[j] = input[j[:dim] + (index[j],) + j[dim+1:]]; index no larger than input except along dim."""
    x = np.asarray(input)
    d = _dim(dim, x.ndim)
    i = np.asarray(index)
    if i.size == 0:
        return np.empty(i.shape, x.dtype)
    i = _index(i)
    if max(i.ndim, 1) != max(x.ndim, 1):
        raise ValueError("rank mismatch")
    x1, i1 = _at_least_1d(x), _at_least_1d(i)
    for k in range(i1.ndim):
        if k != d and i1.shape[k] > x1.shape[k]:
            raise ValueError("index larger than input")
    out = np.empty(i1.shape, x.dtype)
    for j in np.ndindex(*i1.shape):
        out[j] = x1[_replace(j, d, _check(int(i1[j]), x1.shape[d], negative=False))]
    return out.reshape(i.shape)


def index_select(input: Any, dim: int, index: Any) -> np.ndarray:
    """Slices input[..., index[k], ...] stacked along dim; a 0-d index keeps a size-1 dim."""
    x = np.asarray(input)
    i = _index(index)
    if i.ndim > 1:
        raise ValueError("index must be 0-d or 1-d")
    d = _dim(dim, x.ndim)
    ks = [int(k) for k in i.reshape(-1)]
    if x.ndim == 0:
        if len(ks) != 1:
            raise ValueError("index into a 0-d input must hold one value")
        _check(ks[0], 1, negative=False)
        return x.copy()
    shape = list(x.shape)
    shape[d] = len(ks)
    out = np.empty(shape, x.dtype)
    for n, k in enumerate(ks):
        k = _check(k, x.shape[d], negative=False)
        for p in np.ndindex(*x.shape[:d]):
            for r in np.ndindex(*x.shape[d + 1 :]):
                out[p + (n,) + r] = x[p + (k,) + r]
    return out


def take(input: Any, index: Any) -> np.ndarray:
    """out[j] = input.flatten()[index[j]]; negative indices wrap once; int64 only."""
    x = np.asarray(input).reshape(-1)
    i = _index(index, (np.int64,))
    out = np.empty(i.shape, x.dtype)
    for j in np.ndindex(*i.shape):
        out[j] = x[_check(int(i[j]), x.size, negative=True)]
    return out


def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> np.ndarray:
    """dim=None: a flat gather (negatives raise); dim: broadcast, then every index taken modulo s."""
    x = np.asarray(input)
    if dim is None:
        return gather(x.reshape(-1), 0, np.asarray(indices).reshape(-1))
    i = _index(indices, (np.int64,))
    if x.ndim == 0:
        raise ValueError("0-d input has no dim")
    if i.ndim != x.ndim:
        raise ValueError("rank mismatch")
    d = _dim(dim, x.ndim)
    bshape = []
    for k in range(x.ndim):
        if k == d:
            continue
        a, b = x.shape[k], i.shape[k]
        if a != b and 1 not in (a, b):
            raise ValueError("shapes do not broadcast")
        bshape.append(b if a == 1 else a)
    xs = tuple(bshape[:d]) + (x.shape[d],) + tuple(bshape[d:])
    is_ = tuple(bshape[:d]) + (i.shape[d],) + tuple(bshape[d:])
    xb, ib = np.broadcast_to(x, xs), np.broadcast_to(i, is_)
    out = np.empty(is_, x.dtype)
    s = x.shape[d]
    for j in np.ndindex(*is_):
        if s == 0:
            raise IndexError("size-0 dim")
        out[j] = xb[_replace(j, d, int(ib[j]) % s)]
    return out


# ----------------------------------------------------------------------------- scatters along a dim

_RED = {
    "add": lambda a, b: a + b,
    "multiply": lambda a, b: a * b,
    "sum": lambda a, b: a + b,
    "prod": lambda a, b: a * b,
    "mean": lambda a, b: a + b,
    "amax": lambda a, b: a if (a != a) else (b if (b != b or b > a) else a),
    "amin": lambda a, b: a if (a != a) else (b if (b != b or b < a) else a),
}


def _bool_red(red: str) -> Any:
    return {"add": np.logical_or, "sum": np.logical_or, "multiply": np.logical_and, "prod": np.logical_and,
            "amax": np.logical_or, "amin": np.logical_and}[red]


def _identity(red: str, dtype: np.dtype) -> Any:
    if red in ("sum", "mean"):
        return 0
    if red == "prod":
        return 1
    if dtype.kind == "b":
        return red == "amin"
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if red == "amax" else info.max
    return -np.inf if red == "amax" else np.inf


def _combine(out: np.ndarray, t: tuple[int, ...], u: Any, red: str | None) -> None:
    if red is None:
        out[t] = u
    elif out.dtype.kind == "b":
        out[t] = _bool_red(red)(out[t], u)
    else:
        with np.errstate(all="ignore"):
            out[t] = _RED[red](out.dtype.type(out[t]), out.dtype.type(u))


def _divide(total: Any, n: int, dtype: np.dtype) -> Any:
    if dtype.kind in "iu":
        return int(total) // n  # floor, as torch
    return total / dtype.type(n)


def scatter_elementwise(input: Any, dim: int, index: Any, src: Any = None, value: Any = None,
                        reduce: str | None = None, include_self: bool = True) -> np.ndarray:
    """torch.scatter / scatter_add / scatter_reduce for src arrays or a scalar value."""
    x = np.asarray(input)
    d = _dim(dim, x.ndim)
    i = np.asarray(index)
    if src is not None:
        s = np.asarray(src)
        if s.dtype != x.dtype:
            raise TypeError("src dtype")
    if i.size == 0:
        return x.copy()
    i = _index(i)
    if max(i.ndim, 1) != max(x.ndim, 1) or (src is not None and max(s.ndim, 1) != max(x.ndim, 1)):
        raise ValueError("rank mismatch")
    x1, i1 = _at_least_1d(x), _at_least_1d(i)
    for k in range(i1.ndim):
        if k != d and i1.shape[k] > x1.shape[k]:
            raise ValueError("index larger than input")
        if src is not None and i1.shape[k] > _at_least_1d(s).shape[k]:
            raise ValueError("index larger than src")
    out = x1.copy()
    count = np.zeros(out.shape, np.int64)
    for j in np.ndindex(*i1.shape):
        t = _replace(j, d, _check(int(i1[j]), x1.shape[d], negative=False))
        u = _at_least_1d(s)[j] if src is not None else value
        if reduce is not None and not include_self and count[t] == 0:
            out[t] = _identity(reduce, out.dtype)
        _combine(out, t, u, reduce)
        count[t] += 1
    if reduce == "mean":
        for t in itertools.product(*(range(n) for n in out.shape)):
            if count[t]:
                out[t] = _divide(out[t], int(count[t]) + (1 if include_self else 0), out.dtype)
    return out.reshape(x.shape)


def scatter(input: Any, dim: int, index: Any, src: Any = None, value: Any = None, reduce: str | None = None) -> np.ndarray:
    if reduce not in (None, "add", "multiply"):
        raise ValueError(f"reduce {reduce!r}")
    return scatter_elementwise(input, dim, index, src=src, value=value, reduce=reduce)


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> np.ndarray:
    return scatter_elementwise(input, dim, index, src=src, reduce="add")


def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, include_self: bool = True) -> np.ndarray:
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in ("sum", "prod", "mean", "amax", "amin"):
        raise ValueError(f"reduce {reduce!r}")
    if reduce == "mean" and np.asarray(input).dtype.kind == "b":
        raise TypeError("mean of bool")
    return scatter_elementwise(input, dim, index, src=src, reduce=reduce, include_self=include_self)


# ----------------------------------------------------------------------------- index_* ops (whole slices)

def _slices(x: np.ndarray, d: int, k: int) -> list[tuple[int, ...]]:
    """Every position of slice k along dim d."""
    return [p + (k,) + r for p in np.ndindex(*x.shape[:d]) for r in np.ndindex(*x.shape[d + 1 :])]


def _source_slices(src: np.ndarray, d: int, n: int) -> list[tuple[int, ...]]:
    return [p + (n,) + r for p in np.ndindex(*src.shape[:d]) for r in np.ndindex(*src.shape[d + 1 :])]


def _index_func_checks(x: np.ndarray, dim: int, index: Any, source: Any) -> tuple[int, np.ndarray, np.ndarray]:
    i = _index(index)
    if i.ndim > 1:
        raise ValueError("index must be 0-d or 1-d")
    d = _dim(dim, x.ndim)
    s = np.asarray(source)
    if s.dtype != x.dtype:
        raise TypeError("source dtype")
    if s.ndim != x.ndim or any(s.shape[k] != x.shape[k] for k in range(x.ndim) if k != d):
        raise ValueError("source shape")
    if i.size != (s.shape[d] if s.ndim else 1):
        raise ValueError("number of indices")
    return d, i.reshape(-1), s


def index_add(input: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> np.ndarray:
    """out[..., index[k], ...] += alpha * source[..., k, ...] (index order; negatives raise)."""
    x = np.asarray(input)
    d, i, s = _index_func_checks(x, dim, index, source)
    if x.ndim >= 2 and (x.size == 0 or i.size == 0):
        return x.copy()
    x1, s1 = _at_least_1d(x).copy(), _at_least_1d(s)
    a = x.dtype.type(alpha)
    for n, k in enumerate(int(v) for v in i):
        k = _check(k, x1.shape[d], negative=False)
        for t, u in zip(_slices(x1, d, k), _source_slices(s1, d, n), strict=True):
            with np.errstate(all="ignore"):
                x1[t] = np.logical_or(x1[t], s1[u] and a) if x.dtype.kind == "b" else x1[t] + s1[u] * a
    return x1.reshape(x.shape)


def index_copy(input: Any, dim: int, index: Any, source: Any) -> np.ndarray:
    """out[..., index[k], ...] = source[..., k, ...]; int64 index; negatives raise; last wins."""
    x = np.asarray(input)
    i = _index(index, (np.int64,))
    if i.ndim > 1:
        raise ValueError("index must be 0-d or 1-d")
    d = _dim(dim, x.ndim)
    s = np.asarray(source)
    if s.dtype != x.dtype:
        raise TypeError("source dtype")
    if s.ndim and x.ndim and s.ndim != x.ndim:
        raise ValueError("ranks")
    if i.size != (s.shape[d] if s.ndim else 1):
        raise ValueError("number of indices")
    drop = lambda shape: shape[:d] + shape[d + 1 :] if shape else ()  # noqa: E731
    if drop(s.shape) != drop(x.shape):
        raise ValueError("slice shapes")
    x1 = _at_least_1d(x).copy()
    s1 = s.reshape(x1.shape[:d] + (i.size,) + x1.shape[d + 1 :])
    if int(np.prod(drop(x1.shape))) == 0:
        return x.copy()
    for n, k in enumerate(int(v) for v in i.reshape(-1)):
        k = _check(k, x1.shape[d], negative=False)
        for t, u in zip(_slices(x1, d, k), _source_slices(s1, d, n), strict=True):
            x1[t] = s1[u]
    return x1.reshape(x.shape)


def index_fill(input: Any, dim: int, index: Any, value: Any) -> np.ndarray:
    """out[..., index[k], ...] = value; int64 index; negative indices wrap once."""
    x = np.asarray(input)
    i = _index(index, (np.int64,))
    if i.ndim > 1:
        raise ValueError("index must be 0-d or 1-d")
    d = _dim(dim, x.ndim)
    x1 = _at_least_1d(x).copy()
    if int(np.prod(x1.shape[:d] + x1.shape[d + 1 :])) == 0:
        return x.copy()
    for k in (int(v) for v in i.reshape(-1)):
        k = _check(k, x1.shape[d], negative=True)
        for t in _slices(x1, d, k):
            x1[t] = value
    return x1.reshape(x.shape)


def index_reduce(input: Any, dim: int, index: Any, source: Any, reduce: str, include_self: bool = True) -> np.ndarray:
    """Slice-wise prod/mean/amax/amin of source into input along dim; integer mean floors."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise ValueError(f"reduce {reduce!r}")
    x = np.asarray(input)
    d, i, s = _index_func_checks(x, dim, index, source)
    if x.dtype.kind not in "iuf":
        raise TypeError("index_reduce dtype")
    x1, s1 = _at_least_1d(x).copy(), _at_least_1d(s)
    count = np.zeros(x1.shape[d], np.int64)
    for n, k in enumerate(int(v) for v in i):
        k = _check(k, x1.shape[d], negative=False)
        for t, u in zip(_slices(x1, d, k), _source_slices(s1, d, n), strict=True):
            if not include_self and count[k] == 0:
                x1[t] = _identity(reduce, x1.dtype)
            _combine(x1, t, s1[u], reduce)
        count[k] += 1
    if reduce == "mean":
        for k in range(x1.shape[d]):
            if count[k]:
                for t in _slices(x1, d, k):
                    x1[t] = _divide(x1[t], int(count[k]) + (1 if include_self else 0), x1.dtype)
    return x1.reshape(x.shape)


# ----------------------------------------------------------------------------- index_put

def index_put(input: Any, indices: tuple[Any, ...], values: Any, accumulate: bool = False) -> np.ndarray:
    """input[indices] = values (or +=) with torch advanced indexing: int arrays and bool masks, broadcast."""
    x = np.asarray(input)
    arrays: list[np.ndarray] = []
    dims: list[int] = []
    used = 0
    for ix in indices:
        a = np.asarray(ix)
        if a.dtype == bool:
            if used + a.ndim > x.ndim or a.shape != x.shape[used : used + a.ndim]:
                raise ValueError("mask shape")
            for c in np.nonzero(a):
                arrays.append(c)
                dims.append(used)
                used += 1
        else:
            if a.dtype.type not in INT32_INT64:
                raise TypeError("index dtype")
            if used + 1 > x.ndim:
                raise ValueError("too many indices")
            arrays.append(a)
            dims.append(used)
            used += 1
    b = np.broadcast_shapes(*(a.shape for a in arrays))  # ValueError if they do not broadcast
    if any(x.shape[k] == 0 for k in dims) and 0 not in b:
        raise IndexError("size-0 dim")
    rest = x.shape[used:]
    v = np.asarray(values)
    if v.dtype != x.dtype:
        raise TypeError("values dtype")
    result_shape = tuple(b) + tuple(rest)
    if v.ndim > len(result_shape) or np.broadcast_shapes(v.shape, result_shape) != result_shape:
        raise ValueError("values shape")
    vb = np.broadcast_to(v, result_shape)
    ab = [np.broadcast_to(a, b) for a in arrays]
    out = x.copy()
    if int(np.prod(result_shape)) == 0:
        return out
    for p in np.ndindex(*b):
        t = tuple(_check(int(a[p]), x.shape[k], negative=True) for a, k in zip(ab, dims, strict=True))
        for r in np.ndindex(*rest):
            if accumulate:
                out[t + r] = np.logical_or(out[t + r], vb[p + r]) if x.dtype == bool else out[t + r] + vb[p + r]
            else:
                out[t + r] = vb[p + r]
    return out
