"""Backends: who executes the primitives.

NumPy is the default and the definition. When numba is installed (the ``fast``
extra), the primitives use compiled, multi-threaded kernels for the cases where
plain NumPy cannot keep up; the results are bit-identical (the same exactness
tests run against both paths). numba is imported lazily, on the first call that
can use it, never when gatherscatter is imported.

Control: ``gs.set_backend('auto' | 'numpy' | 'numba')`` (environment variable
``GATHERSCATTER_BACKEND``), ``gs.set_num_threads(n)`` / ``gs.get_num_threads()``
(default: every core; calls moving less than :data:`SMALL_BYTES` run on one thread).

Threads. Every op may be called from many threads at once: ops keep no mutable
state between calls, never write into their inputs, and return new arrays;
numba's own thread count is set per calling thread, and where numba runs on its
``workqueue`` threading layer (not thread-safe: it aborts the process on
concurrent parallel launches) kernel launches are serialised with a lock
(``omp`` and ``tbb`` launch concurrently). ``set_backend`` and
``set_num_threads`` are **process-wide** settings, not thread- or
context-local: set them once at start-up. Changing them while other threads run
ops is safe but applies to those threads' next primitive calls too; it never
changes a result, since both backends are bit-identical, only speed.

Layering. ``errors -> backends -> core -> dialects``: this package imports nothing
from :mod:`gatherscatter.core` (nor from any layer above it). It holds what runs
compiled code: the numba kernels (:mod:`.numba_kernels`, plain arrays and ints in,
plain arrays out), the backend and thread settings and :func:`launch`. The glue
that decides *whether* a primitive call can go to the kernels (which index specs,
dtypes, layouts and policies they reproduce) is written in terms of the core's
data description, so it lives in the core (:mod:`gatherscatter.core.accel`), which
calls down into this package. ``tests/test_layering.py`` checks the rule on the
import graph.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..errors import ArgumentError, UnsupportedError

__all__ = [
    "SMALL_BYTES",
    "compile_seconds",
    "get_backend",
    "get_num_threads",
    "kernels",
    "launch",
    "set_backend",
    "set_kernel_threads",
    "set_num_threads",
    "threads_for",
    "warm_up",
]

SMALL_BYTES = 1 << 20
"""Below this many bytes moved, a call runs on one thread (thread start-up would dominate)."""

_lock = threading.Lock()
_backend = os.environ.get("GATHERSCATTER_BACKEND", "auto")
_threads: int | None = None
_kernels: ModuleType | None = None
_tried = False
_compile_seconds: float | None = None


def set_backend(name: str) -> None:
    """Choose the backend: ``'auto'`` (numba when installed), ``'numpy'`` or ``'numba'``.

    Process-wide (every thread sees it), not thread-local; see the module docstring.
    """
    global _backend
    if name not in ("auto", "numpy", "numba"):
        raise UnsupportedError(f"unknown backend {name!r}; expected one of: auto, numpy, numba")
    if name == "numba" and _load() is None:
        raise UnsupportedError("backend 'numba' needs numba: pip install 'gatherscatter[fast]'")
    _backend = name


def get_backend() -> str:
    """The backend in effect: ``'numba'`` or ``'numpy'``."""
    return "numba" if kernels() is not None else "numpy"


def set_num_threads(n: int) -> None:
    """Threads for the accelerated kernels (``n >= 1``); process-wide, like :func:`set_backend`."""
    global _threads
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ArgumentError(f"set_num_threads: n must be an int >= 1 (got {n!r})")
    _threads = n


def get_num_threads() -> int:
    """Threads the accelerated kernels use for large calls (default: every core)."""
    return _threads if _threads is not None else (os.cpu_count() or 1)


def threads_for(nbytes: int) -> int:
    """Threads for a call moving ``nbytes``: one below :data:`SMALL_BYTES`."""
    return 1 if nbytes < SMALL_BYTES else get_num_threads()


def set_kernel_threads(nbytes: int) -> int:
    """Set numba's thread count for a call moving ``nbytes`` (see :func:`threads_for`); returns it."""
    import numba

    n = min(threads_for(nbytes), int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    numba.set_num_threads(n)
    return n


_launch_lock = threading.Lock()
_serial: bool | None = None
"""Whether parallel kernel launches must be serialised: None until the first launch tells.

numba's ``workqueue`` threading layer (the fallback when neither TBB nor an
OpenMP runtime is available) aborts the whole process when two Python threads
launch parallel kernels at the same time ("Concurrent access has been
detected"). Under that layer every launch holds :data:`_launch_lock`; the
``omp`` and ``tbb`` layers are thread-safe and launch freely.
"""


def _layer_is_serial() -> bool | None:
    import numba

    try:
        return str(numba.threading_layer()) == "workqueue"  # type: ignore[attr-defined]
    except ValueError:  # no parallel region has run yet
        return None


def launch(kernel: Callable[..., Any], *args: Any) -> Any:
    """Run a parallel kernel (returning its result), serialised under numba's non-thread-safe ``workqueue`` layer."""
    global _serial
    if _serial is False:
        return kernel(*args)
    with _launch_lock:
        result = kernel(*args)
        if _serial is None:
            _serial = _layer_is_serial()
        return result


def _load() -> ModuleType | None:
    global _kernels, _tried, _compile_seconds
    if _tried:
        return _kernels
    with _lock:
        if not _tried:
            try:
                from . import numba_kernels as k
            except ImportError:
                k = None  # type: ignore[assignment]
            _kernels = k
            _tried = True
    return _kernels


def kernels(nbytes: int | None = None) -> Any:
    """The numba kernels module when the accelerated path is in use, else None.

    With the ``auto`` backend, calls moving fewer than :data:`SMALL_BYTES`
    (``nbytes``) stay on NumPy, whose call overhead is lower; ``numba`` forces
    the kernels at every size (the tests use it).
    """
    if _backend == "numpy":
        return None
    if _backend == "auto" and nbytes is not None and nbytes < SMALL_BYTES:
        return None
    return _load()


def warm_up() -> float | None:
    """Compile (or load from numba's cache) the common kernel signatures now; returns seconds.

    Kernels otherwise compile on first use, one signature at a time. None when
    numba is not installed.
    """
    global _compile_seconds
    k = _load()
    if k is None:
        return None
    t0 = time.perf_counter()
    launch(k.warm_up)  # its kernels run in parallel regions: serialised like any other launch
    _compile_seconds = time.perf_counter() - t0
    return _compile_seconds


def compile_seconds() -> float | None:
    """Seconds the last :func:`warm_up` took; None before one ran."""
    return _compile_seconds
