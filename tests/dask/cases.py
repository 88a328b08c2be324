"""Random calls of the neutral API, with random chunkings, for the Dask differential tests.

Expected values always come from the NumPy path (``gs.take(...)`` on NumPy
arrays), which is tested against loop oracles elsewhere; the code under test
here is the Dask layer (:mod:`gatherscatter.core.dask`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import gatherscatter as gs

GATHERS = ("take", "take_along_axis", "gather_nd")
SCATTERS = ("scatter_along_axis", "scatter_nd")
DTYPES = ("float64", "float32", "int64", "int32", "float16", "bool", "complex128", "uint8")


@dataclass
class Call:
    fn: str
    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray | None
    kwargs: dict[str, Any]
    chunks: dict[str, Any] = field(default_factory=dict)

    def numpy(self) -> Any:
        args = [self.data, self.indices] + ([self.updates] if self.updates is not None else [])
        return getattr(gs, self.fn)(*args, **self.kwargs)

    def dask(self, lazy_indices: bool = True) -> Any:
        import dask.array as da

        d = da.from_array(self.data, chunks=self.chunks["data"])
        i = da.from_array(self.indices, chunks=self.chunks["indices"]) if lazy_indices else self.indices
        args = [d, i]
        if self.updates is not None:
            args.append(da.from_array(self.updates, chunks=self.chunks["updates"]))
        return getattr(gs, self.fn)(*args, **self.kwargs)

    def __repr__(self) -> str:
        return (
            f"Call({self.fn}, data={self.data.dtype}{list(self.data.shape)}, indices={self.indices.tolist()}, "
            f"updates={None if self.updates is None else list(self.updates.shape)}, {self.kwargs}, {self.chunks})"
        )


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    n = int(np.prod(shape))
    if dtype == "bool":
        return rng.random(n).reshape(shape) < 0.5
    if dtype.startswith("complex"):
        return (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n) + 1j * rng.standard_normal(n)).reshape(
            shape
        ).astype(dtype)
    if dtype.startswith(("float",)):
        # magnitudes spread over many decades: a float sum in another order gives other bits
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)
        return v.reshape(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -50), min(info.max, 50), n).reshape(shape).astype(dtype)


def _chunks(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for n in shape:
        if n == 0:
            out.append((0,))
            continue
        if rng.random() < 0.5:  # regular chunks (Dask's usual layout), the last one possibly shorter
            c = int(rng.integers(1, n + 1))
            out.append(tuple(min(c, n - s) for s in range(0, n, c)))
            continue
        cuts = sorted(set(rng.integers(1, n, rng.integers(0, n)).tolist())) if n > 1 else []
        edges = [0, *cuts, n]
        out.append(tuple(b - a for a, b in itertools.pairwise(edges)))
    return tuple(out)


def _index(rng: np.random.Generator, size: int, shape: tuple[int, ...], bad: float) -> np.ndarray:
    n = int(np.prod(shape))
    lo, hi = (-size, size) if size else (0, 1)
    idx = rng.integers(lo, hi, n)
    out = rng.random(n) < bad
    idx[out] = rng.choice([-size - 3, -size - 1, size, size + 2], int(out.sum()))
    return idx.reshape(shape).astype(rng.choice(["int64", "int32"]))


def _shape(rng: np.random.Generator, rank: int, lo: int = 1, hi: int = 6) -> tuple[int, ...]:
    return tuple(int(x) for x in rng.integers(lo, hi, rank))


def _policy(rng: np.random.Generator, kind: str) -> dict[str, Any]:
    kw: dict[str, Any] = {"negative": str(rng.choice(["wrap", "raise", "bounds"]))}
    if kind == "gather":
        kw["bounds"] = str(rng.choice(["raise", "wrap", "clip", "fill"]))
        if kw["bounds"] == "fill" and rng.random() < 0.7:
            kw["fill_value"] = int(rng.integers(-9, 9))
        return kw
    kw["bounds"] = str(rng.choice(["raise", "wrap", "clip", "drop"]))
    kw["reduction"] = str(rng.choice(["none", "add", "sub", "mul", "max", "min", "mean"]))
    if kw["reduction"] == "none":
        kw["duplicates"] = str(rng.choice(["last", "first", "raise"], p=[0.4, 0.4, 0.2]))
    else:
        kw["include_self"] = bool(rng.random() < 0.5)
        if kw["reduction"] == "mean":
            kw["mean_rounding"] = str(rng.choice(["floor", "trunc"]))
    return kw


def random_call(seed: int, fn: str | None = None) -> Call:
    """A random valid-shaped call (its indices may be out of range: the policy decides)."""
    rng = np.random.default_rng(seed)
    fn = fn or str(rng.choice(GATHERS + SCATTERS))
    kind = "gather" if fn in GATHERS else "scatter"
    kw = _policy(rng, kind)
    dtype = str(rng.choice(DTYPES))
    if kw.get("reduction") == "mean" and dtype == "bool":
        dtype = "float64"
    if kw.get("reduction") in ("max", "min") and dtype.startswith("complex"):
        dtype = "float32"
    bad = float(rng.choice([0.0, 0.0, 0.1, 0.3]))
    rank = int(rng.integers(1, 4))
    dshape = _shape(rng, rank)
    updates = None
    if fn in ("take_along_axis", "scatter_along_axis"):
        axis = int(rng.integers(0, rank))
        ishape = tuple(
            int(rng.integers(0, 9)) if d == axis else int(rng.integers(1, dshape[d] + 1)) for d in range(rank)
        )
        indices = _index(rng, dshape[axis], ishape, bad)
        kw["axis"] = axis - rank if rng.random() < 0.3 else axis
        if kind == "scatter":
            updates = _values(rng, ishape, dtype)
    elif fn == "take":
        axis = int(rng.integers(0, rank))
        b = int(rng.integers(0, axis + 1))
        ishape = dshape[:b] + _shape(rng, int(rng.integers(0, 3)), 0, 5)
        indices = _index(rng, dshape[axis], ishape, bad)
        kw.update(axis=axis, batch_dims=b)
    else:
        b = int(rng.integers(0, rank))
        k = int(rng.integers(0, rank - b + 1))
        ishape = dshape[:b] + _shape(rng, int(rng.integers(0, 3)), 0, 6)
        cols = [_index(rng, dshape[b + j], ishape, bad) for j in range(k)]
        indices = np.stack(cols, axis=-1) if k else np.zeros(ishape + (0,), np.int64)
        if rng.random() < 0.3 and indices.ndim > 1:
            indices = np.ascontiguousarray(np.moveaxis(indices, -1, 0))
            kw["index_axis"] = 0
        kw["batch_dims"] = b
        if kind == "scatter":
            updates = _values(rng, ishape + dshape[b + k :], dtype)
    data = _values(rng, dshape, dtype)
    chunks = {"data": _chunks(rng, dshape), "indices": _chunks(rng, indices.shape)}
    if updates is not None:
        chunks["updates"] = _chunks(rng, updates.shape)
    return Call(fn, data, indices, updates, kw, chunks)


def same_bits(a: Any, b: Any) -> bool:
    """Equal shape, dtype and bytes (NaN payloads and signed zeros included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(
        b
    ).tobytes()
