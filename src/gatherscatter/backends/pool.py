"""A bounded pool of pre-faulted outputs for gathers and out-of-place scatters (no ``out=`` needed).

A fresh output of 256 MB costs about 30 ms of page faults on one thread (the kernel zeroes
every new page on first write), a large share of a big gather; onnxruntime avoids it by
recycling its arena. :func:`empty` does the same for outputs of at least :data:`MIN_BYTES`:
it returns an ordinary NumPy array (``arr.base`` is a pool buffer of raw bytes) that the
caller owns. A buffer is handed out again only when nothing but the pool refers to it: the
result, every view of it (NumPy views refer to the buffer itself) and every exported buffer
(memoryview, ``torch.from_numpy``) hold a reference, so two live arrays never share memory.

Memory is bounded: the buffers the pool tracks (in use or idle) never exceed the cap
(:func:`set_pool_bytes`, environment variable ``GATHERSCATTER_OUTPUT_POOL`` in bytes;
0 disables the pool); past it, outputs are plain ``np.empty``. Idle buffers are released
after :data:`IDLE_S` seconds without use (one background thread) and at every full garbage
collection. The only visible difference from ``np.empty``: ``arr.flags.owndata`` is False
(so ``arr.resize`` refuses; ``np.resize`` and copies work).

>>> import numpy as np
>>> a = empty((3, 4), np.float32)
>>> a.shape, a.dtype.name
((3, 4), 'float32')
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from typing import Any

import numpy as np

__all__ = ["ALIGN", "IDLE_S", "MIN_BYTES", "empty", "get_pool_bytes", "pool_stats", "set_pool_bytes", "trim"]

MIN_BYTES = 1 << 20
"""Outputs smaller than this (1 MiB, the ``auto`` backend's :data:`~gatherscatter.backends.SMALL_BYTES`) are
plain ``np.empty``. 8 MiB until session 12: in a caller that keeps each result until the next call (``y =
op(...)`` in a loop), every fresh output is new memory, faulted in and written cold; a GatherElements with a
4 MiB output, one thread, took 0.80x its time with the pool from 1 MiB against 8 MiB (the same process,
interleaved rounds)."""
ALIGN = 64
"""Every pooled output starts at a multiple of this many bytes (a cache line; NumPy's large arrays start 16 bytes
into a page): the kernels' streaming stores (``numba_kernels._stream_span``) then fill whole lines of each row."""
IDLE_S = 5.0
"""An idle buffer unused for this long is released (at most :func:`get_pool_bytes` of them at any time).

1 s until session 22, shorter than the time between two calls of a large gather in the benchmark's rounds
(every peer runs in between: 1.5-2 s at full size), so each call met a released buffer and paid its page
faults: the gather of 2 M rows of 256 B at one thread (a 512 MB output, ``benchmarks/parts.py gather_rows``,
an Intel Xeon VM) took 200.8 ms, of which faults 68.9 ms and the kernel 135.2 ms (onnxruntime 139.8 ms);
with 5 s, 135.5 ms. The price: idle memory held up to 4 s longer after the last call."""
_STEP = 1 << 21  # sizes of _STEP_FROM and more rounded up to 2 MiB (a huge page) ...
_SMALL_STEP = 1 << 18  # ... smaller ones to 256 KiB (a 1 MiB output would otherwise hold 2 MiB)
_STEP_FROM = 1 << 23

_lock = threading.Lock()
_cap = int(os.environ.get("GATHERSCATTER_OUTPUT_POOL", str(1 << 30)))
_bufs: list[list[Any]] = []  # [buffer (uint8 ndarray), last use (monotonic)]
_trimmer: threading.Thread | None = None  # one long-lived thread releases idle buffers (_trim_loop)
_busy = threading.Event()  # set while the pool tracks buffers: the trimmer waits on it when there are none
_hits = 0
_misses = 0


def _refs(entry: list[Any]) -> int:
    return sys.getrefcount(entry[0])


_FREE = _refs([np.empty(0, np.uint8), 0.0])
"""The reference count of a buffer referred to by the pool alone (measured, not assumed)."""


def set_pool_bytes(n: int) -> None:
    """Cap the bytes the pool tracks (buffers in use or idle); 0 disables it and releases idle buffers."""
    global _cap
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        from ..errors import ArgumentError

        raise ArgumentError(f"set_pool_bytes: n must be an int >= 0 (got {n!r})")
    _cap = n
    trim(0.0)


def get_pool_bytes() -> int:
    """The pool's cap in bytes (0: disabled)."""
    return _cap


def pool_stats() -> dict[str, int]:
    """Buffers and bytes tracked, idle bytes, and hand-outs served by reuse / by a new buffer."""
    with _lock:
        idle = sum(e[0].nbytes for e in _bufs if _refs(e) <= _FREE)
        return {
            "buffers": len(_bufs),
            "bytes": sum(e[0].nbytes for e in _bufs),
            "idle_bytes": idle,
            "hits": _hits,
            "misses": _misses,
        }


def _trim_locked(older_than: float) -> None:
    now = time.monotonic()
    _bufs[:] = [e for e in _bufs if not (_refs(e) <= _FREE and now - e[1] >= older_than)]


def trim(older_than: float = IDLE_S) -> None:
    """Release the idle buffers unused for ``older_than`` seconds (0: every idle buffer)."""
    with _lock:
        _trim_locked(older_than)


def _trim_loop(busy: threading.Event) -> None:
    """The trimmer: every :data:`IDLE_S` seconds while the pool tracks buffers, release the idle ones; with none
    tracked, wait (no wake-ups) until a buffer is made. One thread for the process's life (it used to be a
    ``threading.Timer``, a new thread every second while buffers were held)."""
    while True:
        busy.wait()
        time.sleep(IDLE_S)
        with _lock:
            _trim_locked(IDLE_S)
            if not _bufs:
                busy.clear()


def _schedule_locked() -> None:
    global _trimmer
    if _trimmer is None:
        _trimmer = threading.Thread(target=_trim_loop, args=(_busy,), name="gatherscatter-pool-trim", daemon=True)
        _trimmer.start()
    if not _busy.is_set():
        _busy.set()


def _after_fork() -> None:
    """In a forked child: the parent's trimmer thread is not there, and the lock may have been held."""
    global _lock, _trimmer, _busy
    _lock, _trimmer, _busy = threading.Lock(), None, threading.Event()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "stop" and info.get("generation") == 2 and _lock.acquire(blocking=False):
        try:
            _trim_locked(0.0)
        finally:
            _lock.release()


gc.callbacks.append(_on_gc)


def empty(shape: tuple[int, ...], dtype: Any, nbytes: int | None = None) -> np.ndarray[Any, Any]:
    """An uninitialised C-contiguous array of ``shape`` and ``dtype``, from the pool when large enough.

    ``nbytes``: the array's size in bytes, when the caller already knows it (a call plan): under
    :data:`MIN_BYTES` the array is then a plain ``np.empty`` at once, without working the size out again."""
    global _hits, _misses
    if nbytes is not None and nbytes < MIN_BYTES:
        return np.empty(shape, dtype)
    dt = np.dtype(dtype)
    n = dt.itemsize
    for s in shape:
        n *= int(s)
    if n < MIN_BYTES or _cap <= 0 or dt.hasobject:
        return np.empty(shape, dt)
    step = _STEP if n >= _STEP_FROM else _SMALL_STEP
    size = -(-n // step) * step
    with _lock:
        now = time.monotonic()
        found = None
        for e in _bufs:
            if size <= e[0].nbytes - ALIGN <= size + size // 4 and _refs(e) <= _FREE:
                found = e
                break
        if found is None:
            _trim_locked(IDLE_S)
            total = sum(e[0].nbytes for e in _bufs)
            if total + size + ALIGN > _cap:
                _trim_locked(0.0)  # idle buffers of other sizes go first
                total = sum(e[0].nbytes for e in _bufs)
            if total + size + ALIGN > _cap:
                return np.empty(shape, dt)
            raw = np.empty(size + ALIGN, np.uint8)
            found = [raw, now, -raw.ctypes.data % ALIGN]
            _bufs.append(found)
            _misses += 1
        else:
            _hits += 1
        found[1] = now
        _schedule_locked()
        buf: np.ndarray[Any, Any] = found[0]
    at = found[2]
    res: np.ndarray[Any, Any] = buf[at : at + n].view(dt).reshape(shape)
    return res
