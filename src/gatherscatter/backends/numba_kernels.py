"""numba kernels for the accelerated path (imported only when numba is installed and used).

Every kernel receives indices that the core has already resolved and checked
(int64, in range), so kernels never see a bad index: bounds are checked before
entering. Each kernel reproduces the NumPy path bit for bit:

* gathers copy bits (data viewed as unsigned integers of its item size);
* scatters are *owner-computes*: each thread owns a block of output rows (or of
  inner columns) and scans every update in row-major order, so duplicates resolve
  and floating sums accumulate in exactly the sequential order, with no atomics.

Reductions are compile-time constants (one kernel per op code), keeping the
switch out of the inner loop.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__ = [
    "OPS",
    "gather_elements2",
    "gather_elements3",
    "gather_mid",
    "gather_rows",
    "scatter_elements2",
    "scatter_elements3",
    "scatter_rows",
]

NONE, ADD, SUB, MUL, MAX, MIN = 0, 1, 2, 3, 4, 5
OPS = {"none": NONE, "add": ADD, "sub": SUB, "mul": MUL, "max": MAX, "min": MIN, "mean": ADD}

_OPTS: dict[str, Any] = {"parallel": True, "cache": True, "nogil": True, "boundscheck": False}


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_rows(data: Any, rows: Any, out: Any) -> None:  # pragma: no cover - compiled
    """out[i, :] = data[rows[i], :]  (data, out 2-D; rows int64 in range)."""
    n = rows.shape[0]
    r = data.shape[1]
    if r == 1:
        for i in nb.prange(n):
            out[i, 0] = data[rows[i], 0]
    else:
        for i in nb.prange(n):
            out[i, :] = data[rows[i], :]


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_mid(data: Any, idx: Any, out: Any) -> None:  # pragma: no cover - compiled
    """out[p, m, :] = data[p, idx[m], :]  (data (P, S, R), out (P, M, R))."""
    p_n = data.shape[0]
    m_n = idx.shape[0]
    r = data.shape[2]
    if p_n >= m_n:
        for p in nb.prange(p_n):
            for m in range(m_n):
                out[p, m, :] = data[p, idx[m], :]
    else:
        for m in nb.prange(m_n):
            src = idx[m]
            for p in range(p_n):
                out[p, m, :] = data[p, src, :]


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_elements2(data: Any, idx: Any, out: Any) -> None:  # pragma: no cover - compiled
    """out[a, j] = data[a, idx[a, j]]  (the last-axis case: one row per task, kept in cache)."""
    a_n, m_n = idx.shape
    for a in nb.prange(a_n):
        for j in range(m_n):
            out[a, j] = data[a, idx[a, j]]


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_elements3(data: Any, idx: Any, out: Any) -> None:  # pragma: no cover - compiled
    """out[a, j, c] = data[a, idx[a, j, c], c]  (idx smaller than data on a and c is allowed)."""
    a_n, m_n, c_n = idx.shape
    if c_n == 1:
        if a_n >= 8:
            for a in nb.prange(a_n):
                for j in range(m_n):
                    out[a, j, 0] = data[a, idx[a, j, 0], 0]
        else:
            for j in nb.prange(m_n):
                for a in range(a_n):
                    out[a, j, 0] = data[a, idx[a, j, 0], 0]
    elif a_n >= 8:
        for a in nb.prange(a_n):
            for j in range(m_n):
                for c in range(c_n):
                    out[a, j, c] = data[a, idx[a, j, c], c]
    else:
        for j in nb.prange(m_n):
            for a in range(a_n):
                for c in range(c_n):
                    out[a, j, c] = data[a, idx[a, j, c], c]


@nb.njit(inline="always")
def _combine(op: int, x: Any, u: Any) -> Any:  # pragma: no cover - compiled
    if op == NONE:
        return u
    if op == ADD:
        return x + u
    if op == SUB:
        return x - u
    if op == MUL:
        return x * u
    if op == MAX:
        # NaN propagates as np.maximum does
        if x != x:
            return x
        if u != u:
            return u
        # ties (0.0 and -0.0) keep the update, as np.maximum (x86-64 SIMD: the second operand)
        return x if x > u else u
    if u != u:
        return u
    if x != x:
        return x
    return x if x < u else u


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_rows(out: Any, rows: Any, upd: Any, op: int, nthreads: int) -> None:  # pragma: no cover - compiled
    """out[rows[i], :] = f(out[rows[i], :], upd[i, :]) for i in order (owner computes by row block)."""
    n_rows = out.shape[0]
    r = out.shape[1]
    n = rows.shape[0]
    if nthreads == 1:
        if r == 1:
            for i in range(n):
                t = rows[i]
                out[t, 0] = _combine(op, out[t, 0], upd[i, 0])
        else:
            for i in range(n):
                t = rows[i]
                for j in range(r):
                    out[t, j] = _combine(op, out[t, j], upd[i, j])
        return
    blocks = max(1, min(nthreads, n_rows))
    step = (n_rows + blocks - 1) // blocks
    for b in nb.prange(blocks):
        lo = b * step
        hi = min(n_rows, lo + step)
        for i in range(n):
            t = rows[i]
            if lo <= t < hi:
                for j in range(r):
                    out[t, j] = _combine(op, out[t, j], upd[i, j])


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_elements2(out: Any, idx: Any, upd: Any, op: int) -> None:  # pragma: no cover - compiled
    """out[a, idx[a, j]] = f(., upd[a, j]) in order: the last-axis case, one row per task."""
    a_n, m_n = idx.shape
    for a in nb.prange(a_n):
        for j in range(m_n):
            t = idx[a, j]
            out[a, t] = _combine(op, out[a, t], upd[a, j])


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_elements3(out: Any, idx: Any, upd: Any, op: int, nthreads: int) -> None:  # pragma: no cover
    """out[a, idx[a,j,c], c] = f(., upd[a,j,c]) in row-major order (owner: slices a, or column blocks)."""
    a_n, m_n, c_n = idx.shape
    if c_n == 1:
        for a in nb.prange(a_n):
            for j in range(m_n):
                t = idx[a, j, 0]
                out[a, t, 0] = _combine(op, out[a, t, 0], upd[a, j, 0])
    elif a_n >= nthreads or c_n < 2 * nthreads:
        for a in nb.prange(a_n):
            for j in range(m_n):
                for c in range(c_n):
                    t = idx[a, j, c]
                    out[a, t, c] = _combine(op, out[a, t, c], upd[a, j, c])
    else:
        blocks = nthreads
        step = (c_n + blocks - 1) // blocks
        for b in nb.prange(blocks):
            lo = b * step
            hi = min(c_n, lo + step)
            for a in range(a_n):
                for j in range(m_n):
                    for c in range(lo, hi):
                        t = idx[a, j, c]
                        out[a, t, c] = _combine(op, out[a, t, c], upd[a, j, c])


def warm_up() -> float:
    """Compile (or load from cache) every kernel for float32/int64; returns seconds taken."""
    import time

    t0 = time.perf_counter()
    for dt in (np.uint32, np.uint64):
        d = np.zeros((4, 3), dt)
        gather_rows(d, np.zeros(2, np.int64), np.zeros((2, 3), dt))
        gather_mid(d.reshape(1, 4, 3), np.zeros(2, np.int64), np.zeros((1, 2, 3), dt))
        gather_elements3(d.reshape(1, 4, 3), np.zeros((1, 2, 3), np.int64), np.zeros((1, 2, 3), dt))
    for rdt in (np.float32, np.float64, np.int32, np.int64):
        o = np.zeros((4, 3), rdt)
        scatter_rows(o, np.zeros(2, np.int64), np.ones((2, 3), rdt), ADD, 1)
        scatter_elements3(o.reshape(1, 4, 3), np.zeros((1, 2, 3), np.int64), np.ones((1, 2, 3), rdt), ADD, 1)
    return time.perf_counter() - t0
