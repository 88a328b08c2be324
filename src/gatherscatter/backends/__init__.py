"""Backends: who executes the primitives.

NumPy is the default and the definition. When numba is installed (the ``fast``
extra), the primitives use compiled, multi-threaded kernels for the cases where
plain NumPy cannot keep up; the results are bit-identical (the same exactness
tests run against both paths). numba is imported lazily, on the first call that
can use it, never when gatherscatter is imported.

Control: ``gs.set_backend('auto' | 'numpy' | 'numba')`` (environment variable
``GATHERSCATTER_BACKEND``), ``gs.set_num_threads(n)`` / ``gs.get_num_threads()``
(default: every core; calls moving less than :data:`PARALLEL_BYTES` run on one thread). A call on
one thread runs each kernel's serial form (the same source compiled without ``parallel``): a
parallel region's launch alone cost 50-100 µs on numba's ``workqueue`` layer, even at one thread
(1.6-95 µs on ``tbb``, by how long its workers were idle).

Threading layer. Unless the user chose one (``NUMBA_THREADING_LAYER`` in the
environment, or ``numba.config.THREADING_LAYER`` set before the first kernel),
the kernels run on numba's ``tbb`` layer when a TBB runtime of 2021.6 or later
loads (the ``tbb`` wheel, part of the ``fast`` extra where it has wheels), else on
its ``workqueue`` layer. Measured on a 2-vCPU VM (benchmarks/README.md): a
parallel region's launch costs 1.6 µs on ``tbb`` back to back and 64 µs after 20 ms
idle, against 104 and 194 µs on ``workqueue``; at 1/16 of the benchmark's sizes
(calls of 0.2-3 ms), on five of eight workloads measured in turn, the 2-thread
calls' ratio to the best peer fell from 0.85-2.18 on ``workqueue`` to 0.40-1.10,
and the other three stayed within the measurements' spread. ``omp`` is
never chosen here: with libgomp's default wait policy its
workers spin between regions and made 2-thread calls 2-5x slower than 1-thread
ones (GatherND of 100k rows of 256 B: 8.4 ms on 1 thread, 32 ms on 2), and
making it wait passively would change the policy of every other libgomp user
in the process (torch ships the same runtime). On either layer, calls from
:data:`PARALLEL_BYTES` up may run on more threads (the tuner below decides). The layer is numba's,
process-wide: it is set when gatherscatter first loads its kernels, and applies
to other numba code in the process that has not run a parallel region yet. On top of that, when more than one
thread is asked for, each kernel and size class is timed on 1 and on n threads
for its first few calls and keeps the faster, measured again a few dozen calls later
until two measurements agree (:func:`_run`, :func:`tuned_threads`, :func:`reset_tuning`;
``GATHERSCATTER_AUTOTUNE=0`` turns this off).

First call. With the ``auto`` backend, a call never waits for numba: numba is
imported, and each kernel signature compiled (or loaded from numba's cache), by
one background thread; until a call's kernel is ready (a short wait covers a
load from cache), that call runs on the NumPy path, which gives the same bits.
``set_backend('numba')`` compiles in the calling thread instead (the tests use
it), and :func:`warm_up` compiles the common signatures at once.

Threads. Every op may be called from many threads at once: ops keep no mutable
state between calls, never write into their inputs, and return new arrays;
numba's own thread count is set per calling thread, and where numba runs on its
``workqueue`` threading layer (not thread-safe: it aborts the process on
concurrent parallel launches) kernel launches are serialised with a lock
(``tbb`` and ``omp`` launch concurrently). ``set_backend`` and
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

import atexit
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from statistics import median
from types import ModuleType
from typing import Any, cast

import numpy as np

from ..errors import ArgumentError, UnsupportedError
from . import pool

__all__ = [
    "LINE_BYTES",
    "PARALLEL_BYTES",
    "PREFETCH_LINES",
    "SMALL_BYTES",
    "STREAM_BYTES",
    "STREAM_CAP",
    "STREAM_VECTOR",
    "KernelNotReadyError",
    "compile_seconds",
    "get_backend",
    "get_num_threads",
    "kernels",
    "launch",
    "pool",
    "reset_tuning",
    "serial_form",
    "set_backend",
    "set_kernel_threads",
    "set_num_threads",
    "settled_one",
    "threads_for",
    "tuned_threads",
    "tuning_pending",
    "tuning_votes",
    "wait_compiled",
    "warm_up",
]

SMALL_BYTES = 1 << 20
"""Below this many bytes moved, the ``auto`` backend stays on NumPy (its call overhead is lower)."""

LINE_BYTES = 64
"""Bytes of one cache line: the step of GatherElements' in-order row read (the kernels) and the unit a random
element read is weighed by when choosing threads (``core.accel``)."""



def _last_cache_bytes(default: int = 32 << 20) -> int:
    """The size of the CPU's last-level cache (Linux sysfs: the highest level cpu0 reports), else ``default``."""
    best, size = -1, default
    root = "/sys/devices/system/cpu/cpu0/cache"
    try:
        names = os.listdir(root)
    except OSError:
        return default
    for name in names:
        try:
            with open(f"{root}/{name}/level") as f:
                level = int(f.read())
            with open(f"{root}/{name}/size") as f:
                text = f.read().strip()
            n = int(text.rstrip("KMG")) << {"K": 10, "M": 20, "G": 30}.get(text[-1:], 0)
        except (OSError, ValueError):
            continue
        if level > best and n > 0:
            best, size = level, n
    return size


def _cpu_vendor(path: str = "/proc/cpuinfo") -> str:
    """The CPU's vendor string (Linux: ``vendor_id`` in /proc/cpuinfo, e.g. ``GenuineIntel``), else ``""``."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _prefetch_lines(vendor: str) -> int:
    """:data:`PREFETCH_LINES` on a CPU of ``vendor`` (:func:`_cpu_vendor`)."""
    return 0 if vendor == "GenuineIntel" else 4


PREFETCH_LINES = _prefetch_lines(_cpu_vendor())
"""Cache lines of the row ahead a row gather prefetches (``numba_kernels.gather_rows``; rows under 128 items:
this many lines; wider rows: their first line; 0: no prefetch at all). On an AMD EPYC VM a single line left the
gather of 256 B rows waiting on the rest of each row (session 17): 4 lines there. On an Intel Xeon VM the core's
own prefetchers fetch the rows: 4 lines took more time than 1 (the serial kernel alone, 256 B rows, one line
against four, 0.88x at 2 M rows, 0.87x at 1 M, 0.79x at 125 k; session 22), and 1 more than none: ours / the
best peer at one thread (``benchmarks/ab.py``, 7-9 rounds), none against one line: gather_rows 0.89 / 0.91 (full
size), 0.88 / 0.95 (1/2), 0.92 / 0.99 (1/16); gather_rows_out 1.05 / 1.11, 1.02 / 1.06, 1.02 / 1.08; rows of
1 KiB (gathernd_batch1, gather_axis1 at 1/2) the same within 0.02 (session 24). numba's cache is kept per CPU
model, so a kernel compiled with one value is never loaded on the other kind of CPU."""

STREAM_VECTOR = 32
"""Bytes of each streaming store of the kernels (``numba_kernels._stream_span``; an AVX register, which LLVM
splits where the CPU has only 16-byte stores): 16 and 64 measured slower (a 2-vCPU EPYC VM, one thread, copies
of 16-128 MiB). A row gather streams rows that are whole vectors from an aligned start (``core.accel``)."""

STREAM_CAP = 32 << 20
"""The most :data:`STREAM_BYTES` can be, whatever the last-level cache the CPU reports."""


def _stream_bytes(last_cache: int) -> int:
    """:data:`STREAM_BYTES` for a last-level cache of ``last_cache`` bytes."""
    return max(1 << 20, min(STREAM_CAP, last_cache // 2))


STREAM_BYTES = _stream_bytes(_last_cache_bytes())
"""Bytes of a copy's destination from which the kernels copy with streaming stores (``numba_kernels._stream_span``:
the destination's lines are written without being read first): half the last-level cache, where the copy's
source and destination together no longer fit in it, and at most :data:`STREAM_CAP`. 16 MiB on the 32 MiB L3
of an AMD EPYC VM (2 vCPUs), where a one-thread copy of 16 MiB took 0.55-0.80x, of 64 and 128 MiB 0.55-0.75x,
the time of a ``memcpy`` (glibc streams only from 192 MiB there; benchmarks/README.md, session 19). The cap: a
VM's share of a large L3 is not the whole of it. An Intel Xeon VM (2 vCPUs) reports 480 MiB of L3, whose half
would stream only from 240 MiB; there one-thread copies with streaming stores took 1.21x ``memcpy``'s time at
24 MiB, 0.89x at 32, 0.75x at 48 and 0.62x at 56-128 MiB (session 22)."""

PARALLEL_BYTES = 1 << 22
"""Below this many bytes moved, a kernel runs on one thread; from it up, the tuner (:func:`_run`) chooses 1 or
n threads by measurement.

8 MiB from session 12 to 22, on a 2-vCPU AMD EPYC where sending the calls of 2-8 MiB through the tuner fixed
no miss and once put a 2-thread row 1.06x over its one-thread time (session 15). On the Intel Xeon VM of
session 22 the calls of 4-8 MiB gain a second thread where the peers do: at 1/16 of the benchmark's sizes, ours
at 2 threads / the best peer's (``benchmarks/ab.py``, 9 rounds each, session 23) went from 1.19 to 0.72 on
gathernd_elem, 1.72 to 1.19 on gathernd_batch1 and 1.25 to 0.94 on scatternd_add_elem. From 1 MiB (runs 50 and
51) a call of 2-4 MiB broke the 2-thread guarantee: the in-place ScatterND at 1/16 (1,024 rows of 1 KiB into
16 MiB), whose tuner measured two threads faster in back-to-back calls (their halves of the rows stay in each
core's 2 MiB L2), ran 1.42x slower on two threads than on one in the benchmark's rounds (219 against 148 µs),
where every other contestant runs between two of its calls."""

WAIT_S = 0.05
"""How long one call waits, in all, for numba's import or a kernel signature in the background
before it runs on the NumPy path instead (same bits; at most 1.5x slower on the benchmark's
workloads). Importing numba and loading the kernels of one call from numba's cache took
0.5-1.2 s on a loaded 2-vCPU VM, so waiting longer than this mostly wastes the caller's time."""

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
    """Threads for a call moving ``nbytes``: one below :data:`PARALLEL_BYTES`."""
    return 1 if nbytes < PARALLEL_BYTES else get_num_threads()


_max_threads: int | None = None  # numba's NUMBA_NUM_THREADS, read once


def _size_class(nbytes: int) -> int:
    """The tuner's size class of a call moving ``nbytes``: its bit length."""
    return max(0, nbytes).bit_length()


def set_kernel_threads(nbytes: int) -> int:
    """Choose the thread count for this thread's next kernel calls, moving ``nbytes`` (see :func:`threads_for`);
    returns it. numba's own count is set when a parallel form runs (:func:`_run`); at one thread the kernels
    run in their serial form (:func:`launch`), which needs no numba setting.
    """
    global _max_threads
    n = threads_for(nbytes)
    if n > 1:
        import numba

        if _max_threads is None:
            _max_threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        n = min(n, _max_threads)
    _call.n = n
    _call.nbytes = nbytes
    _call.bucket = _size_class(nbytes)
    return n


TUNE_BLOCK = 3
"""Calls in a row on one side (1 thread, n threads) in a measurement; the sides take turns by blocks,
one thread first.

Blocks, not single calls in turn (until session 14): a parallel call right after a serial one finds the
pool's worker asleep and pays for waking it, which calls back to back do not. The benchmark's top-k element
gather at full size (2 vCPUs, tbb), 1 thread against 2, medians of three trials each: back to back 355-685 µs against
220-234 µs; in turn call by call 387-968 against 289-641 µs (2 threads at 0.66-0.91 of one; above TUNE_GAIN,
a vote for 1 thread, in 2 of 6 trials); in blocks of 3 without their first calls 400-522 against 228-326 µs
(0.57-0.65). The benchmark's runs had voted 1 thread there (runs 26 and 27)."""
TUNE_WARMUP = 1
"""Calls at the start of each block not counted: the first pays for the switch of side (a sleeping worker to
wake, caches the other side filled), for a side's first call also a fresh output's page faults or a thread
pool's start (9 ms measured), not its speed."""
TUNE_BLOCKS = 3
"""Blocks on each side in one measurement."""
TUNE_CALLS = TUNE_BLOCK * TUNE_BLOCKS
"""Calls on each side in one measurement."""
TUNE_SAMPLES = TUNE_BLOCKS * (TUNE_BLOCK - TUNE_WARMUP)
"""Calls timed on each side in one measurement (all but each block's first)."""
TUNE_GAIN = 0.9
"""n threads are kept only when their median time is below this fraction of one thread's.

0.95 until session 10, when a call whose measurements voted 2, 1, 2 (a 2-thread gain of a few percent,
measured on back-to-back calls) ran 1.26x slower on 2 threads in an idle benchmark run's timed rounds,
where each call follows a pause: a marginal gain is not worth a second core.

Medians, not minima: with 3 samples and minima a lucky parallel call (0.56 ms against a steady 0.93 ms)
beat the serial form's cold first calls (0.84-1.1 ms against a steady 0.45 ms), and 2 threads then ran
the benchmark's gather_axis1 at 1/16 size 1.75x slower than 1 (session 7's runs)."""
TUNE_RECHECK = 24
"""Calls on the chosen side after a measurement before the choice is measured again.

One measurement was not enough: the same kernel and size gave opposite choices in two idle runs
(gather_rows at 1/2 size, where 2 threads take 0.6x one thread's time, kept one thread in run 14), and
the first parallel calls after an idle spell ran 1.5-2.5x slower than the steady ones (GatherElements at
1/16: 1.4, 0.9, 0.8, 0.7, 0.6, 0.6 ms). So the choice is measured a second time; if the two agree it
is final, otherwise a third measurement decides (two out of three). Cost: at most 3 x 2 x TUNE_CALLS calls
per (kernel, size class, n) to reach a final choice (and see :data:`TUNE_REVISIT_S`)."""
TUNE_VOTES = 3
TUNE_REVISIT_S = 10.0
"""Seconds after a final choice before it is measured once more; each revisit that agrees doubles the wait (up
to :data:`TUNE_REVISIT_MAX_S`). A revisit that disagrees reopens the choice: the old choice and the new vote
stand as two disagreeing measurements, a third one ``TUNE_RECHECK`` calls later decides (two out of three),
and the wait starts again at this value.

A final choice used to stay for the process. On this 2-vCPU VM the same call's one-thread time moved by up to
4x within minutes (session 15: top-k GatherElements 569 µs on one thread in run 28, 1.99 ms in run 29), so a
choice made in such a moment could keep one thread for the whole run: 5 of the 10 rows of runs 28 and 29 that
missed only at 2 threads were rows whose tuner had voted one thread. Cost: one measurement (``2 *
TUNE_CALLS`` calls, half on each side) per revisit, at most one per 10 s and, while the choice holds, about
one per 11 minutes after an hour."""
TUNE_REVISIT_MAX_S = 640.0
"""The longest wait between two revisits of a final choice (:data:`TUNE_REVISIT_S`), unless its calls are so long
that :data:`TUNE_REVISIT_SHARE` asks for more."""
TUNE_REVISIT_SHARE = 0.01
"""A revisit comes no sooner than the wall time of the measurement behind the final choice divided by this: the
calls a revisit runs on the slower side then cost about 1% of the time between revisits, however long each call.

A revisit's 18 calls include 9 on the side not chosen, in blocks of 3. With large calls in a loop that is visible:
the benchmark's gather_rows at full size at 2 threads (calls of 60-65 ms, one-thread ones 120-130 ms, rounds of
about 2 s) met its 10 s revisit inside the timed rounds, and a block of three one-thread calls made three of its
seven rounds 133-140 ms (median 81.5 ms against 64.9 ms with no revisit there; session 26, the same process): runs
55, 59, 60 and 62 had it at 1.19-1.30x the best peer, runs 56, 57 and 61 at 0.95-0.96. Its measurement takes about
1.7 s, so its first revisit now comes after about 170 s; a call of 1 ms keeps the 10 s."""
_tune_on = os.environ.get("GATHERSCATTER_AUTOTUNE", "1") != "0"


class _Tuning:
    """The measurements of one (kernel, size class, n): the samples of the one being taken, the choices so far."""

    __slots__ = ("calls", "due", "many", "ones", "recent", "settled", "since", "spent", "votes", "wait")

    def __init__(self) -> None:
        self.settled = 0  # the final choice once there is one (launch then skips the tuner until a revisit)
        self.calls = 0  # calls so far in the measurement being taken
        self.ones: list[float] = []
        self.many: list[float] = []
        self.votes: list[int] = []  # every measurement's choice, oldest first (tuning_votes)
        self.recent: list[int] = []  # the votes the current choice stands on
        self.since = 0  # calls on the current choice since the last measurement
        self.wait = TUNE_REVISIT_S  # seconds from a final choice to its next revisit
        self.due = 0.0  # time.monotonic() of the next revisit of a final choice
        self.spent = 0.0  # wall seconds of the calls of the measurement being taken (TUNE_REVISIT_SHARE)

    @property
    def choice(self) -> int | None:
        """The thread count in use between measurements: the majority of the recent votes, else the latest."""
        v = self.recent
        if not v:
            return None
        return max(set(v), key=lambda c: (v.count(c), c == v[-1]))

    @property
    def final(self) -> bool:
        v = self.recent
        return len(v) >= TUNE_VOTES or (len(v) >= 2 and v.count(v[-1]) >= 2)

    def revisit_due(self) -> bool:
        """Whether a final choice is due to be measured again (:data:`TUNE_REVISIT_S`)."""
        return time.monotonic() >= self.due

    def holds_one(self) -> bool:
        """Whether the final choice is one thread and no revisit is due: the call needs no tuner on its way."""
        return self.settled == 1 and not self.revisit_due()

    @property
    def measuring(self) -> bool:
        if not self.recent:
            return True
        if self.final:
            return self.revisit_due()
        return self.since >= TUNE_RECHECK

    def vote(self, v: int, spent: float = 0.0) -> None:
        """A measurement chose ``v`` threads; its calls took ``spent`` seconds (:data:`TUNE_REVISIT_SHARE`)."""
        self.votes.append(v)
        if self.settled and v == self.settled:  # a revisit confirms the final choice: wait longer for the next
            self.wait = min(2 * self.wait, TUNE_REVISIT_MAX_S)
        elif self.settled:  # a revisit disagrees: two disagreeing votes, a third measurement decides
            self.recent, self.settled, self.wait = [self.settled, v], 0, TUNE_REVISIT_S
        else:
            self.recent.append(v)
        if self.final:
            self.settled = self.choice or 0
            self.due = time.monotonic() + max(self.wait, spent / TUNE_REVISIT_SHARE)


_tuning: dict[tuple[str, int, int], _Tuning] = {}


def _tune_key(kernel: Any, n: int, bucket: int | None = None) -> tuple[str, int, int]:
    """The tuner's key for ``kernel``: (kernel name, size class, threads asked); the size class of this thread's
    call unless ``bucket`` is given."""
    return (getattr(kernel, "__name__", "kernel"), getattr(_call, "bucket", 0) if bucket is None else bucket, n)


def _split(args: tuple[Any, ...], at: int | None, n: int) -> tuple[Any, ...]:
    """``args`` with the kernel's own thread-count argument (its work split, at position ``at``) set to ``n``."""
    return args if at is None else (*args[:at], n, *args[at + 1 :])


def tuned_threads() -> dict[tuple[str, int, int], int]:
    """The thread counts chosen so far: (kernel, size class = bit length of bytes moved, threads asked) -> used."""
    return {k: c for k, t in list(_tuning.items()) if (c := t.choice) is not None}


def tuning_pending() -> list[tuple[str, int, int]]:
    """The (kernel, size class, threads asked) whose choice is not final yet (a measurement is due or under way)."""
    return [k for k, t in list(_tuning.items()) if not t.final]


def tuning_votes() -> dict[tuple[str, int, int], list[int]]:
    """Each measurement's choice so far, per (kernel, size class, threads asked), oldest first."""
    return {k: list(t.votes) for k, t in list(_tuning.items())}


def reset_tuning() -> None:
    """Forget every thread-count choice: the next calls measure again (e.g. after the machine's load changed)."""
    _tuning.clear()


def _run(kernel: Any, args: tuple[Any, ...], nthreads_at: int | None = None, one: Any = None) -> Any:
    """Call ``kernel``; with more than one thread asked, choose 1 or n threads for its size class by measurement.

    A measurement: the next ``TUNE_CALLS`` calls on each side of a (kernel, size class, n) run in blocks of
    ``TUNE_BLOCK`` on one thread and on n in turn, timed; the side with the lower median over its blocks' calls
    after their first (``TUNE_WARMUP``) is chosen (n only if clearly faster: ``TUNE_GAIN``). ``TUNE_RECHECK`` calls
    later the choice is measured again; two agreeing measurements (or two of three) make it final
    (:data:`TUNE_RECHECK`); a final choice is measured again after :data:`TUNE_REVISIT_S`, then at doubling
    intervals while it holds (later for long calls: :data:`TUNE_REVISIT_SHARE`). The thread count never changes a
    result (the kernels are bit-identical at any count, tested), only speed: this is how a second thread never makes
    a call slower than one on whatever machine, threading layer and load the process meets (a 2-vCPU VM measured 2
    threads 1.07-5x slower than one on some memory-bound kernels, faster on others). ``one``: the kernel's serial
    form, which the one-thread side runs (no parallel launch).
    """
    n = getattr(_call, "n", 1)
    if n <= 1:
        return kernel(*args)
    import numba

    if not _tune_on:
        numba.set_num_threads(n)
        return kernel(*args)
    key = _tune_key(kernel, n)
    st = _tuning.get(key)
    if st is None:
        st = _tuning.setdefault(key, _Tuning())
    measuring = st.measuring
    if measuring:
        side = st.many if (st.calls // TUNE_BLOCK) % 2 else st.ones
        use = 1 if side is st.ones else n
    else:
        use = st.choice or n
        st.since += 1
    if use != n:  # a kernel that splits its work by its own count gets one block per thread
        args = _split(args, nthreads_at, use)
    if use != n and one is not None:
        kernel = one
    else:
        numba.set_num_threads(use)
    t0 = time.perf_counter()
    result = kernel(*args)
    dt = time.perf_counter() - t0
    if measuring:
        if st.calls % TUNE_BLOCK >= TUNE_WARMUP:
            side.append(dt)
        st.calls += 1
        st.spent += dt
        if st.calls >= 2 * TUNE_CALLS:
            faster = median(st.many) < TUNE_GAIN * median(st.ones)
            spent = st.spent
            st.ones, st.many, st.since, st.calls, st.spent = [], [], 0, 0, 0.0
            st.vote(n if faster else 1, spent)
    return result


_launch_lock = threading.Lock()
_serial: bool | None = None
"""Whether parallel kernel launches must be serialised: None until the first launch tells.

numba's ``workqueue`` threading layer (the default here without TBB, see the module docstring)
aborts the whole process when two Python threads launch parallel kernels at the
same time ("Concurrent access has been detected"). Under that layer every launch
holds :data:`_launch_lock`; the ``omp`` and ``tbb`` layers are thread-safe and
launch freely.
"""


class KernelNotReadyError(Exception):
    """A kernel signature is still compiling in the background: the caller takes the NumPy path."""


def _layer_is_serial() -> bool | None:
    import numba

    try:
        return str(numba.threading_layer()) == "workqueue"  # type: ignore[attr-defined]
    except ValueError:  # no parallel region has run yet
        return None


TBB_INTERFACE = 12060
"""The oldest TBB runtime numba's ``tbb`` layer accepts (TBB 2021.6, its ``TBB_runtime_interface_version``)."""


def _tbb_usable() -> bool:
    """Whether numba's ``tbb`` layer can load: a TBB runtime of 2021.6 or later, found by the dynamic loader or
    in the ``tbb`` wheel's files (pip puts its libraries in ``<prefix>/lib``, off the loader's path in a venv;
    loading that file first makes numba's own load by name find it), and numba's TBB pool built against it."""
    import ctypes
    import importlib
    import importlib.metadata
    import sys

    name = {"win32": "tbb12.dll", "darwin": "libtbb.12.dylib"}.get(sys.platform, "libtbb.so.12")
    try:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            found = [f for f in importlib.metadata.files("tbb") or () if f.name == name]
            if not found:
                return False
            lib = ctypes.CDLL(str(found[0].locate()), mode=ctypes.RTLD_GLOBAL)
        version = lib.TBB_runtime_interface_version
        version.restype = ctypes.c_int
        if int(version()) < TBB_INTERFACE:
            return False
        # numba's own TBB pool: a numba built without it (some platforms' wheels) cannot use the layer
        importlib.import_module("numba.np.ufunc.tbbpool")
    except (OSError, AttributeError, ImportError):  # importlib.metadata.PackageNotFoundError is an ImportError
        return False
    return True


def _choose_layer() -> str:
    """Set numba's threading layer unless the user chose one: ``tbb`` when a TBB runtime loads, else
    ``workqueue`` (see the module docstring); returns the layer in effect."""
    import numba

    cfg: Any = numba.config
    if "NUMBA_THREADING_LAYER" not in os.environ and cfg.THREADING_LAYER == "default":
        cfg.THREADING_LAYER = "tbb" if _tbb_usable() else "workqueue"
    return str(cfg.THREADING_LAYER)


# ---- background compilation -------------------------------------------------------------------

_jobs: dict[Any, threading.Event] = {}
"""(kernel, signature) -> set when that signature is compiled (or failed); guarded by :data:`_lock`."""
_queue: list[Callable[[], None]] = []
_wake = threading.Condition(_lock)
_worker: threading.Thread | None = None
_closing = False
_child: Any = None  # the compiling child process (subprocess.Popen) while there is one


BACKGROUND_SWITCH_S = 0.0001
"""The interpreter's switch interval (``sys.setswitchinterval``; Python's default is 5 ms) while the background
thread runs a job (numba's import, a kernel loaded from cache): the caller's thread meanwhile runs its calls on
the NumPy path, and each NumPy call that releases the GIL then waits for the background thread to hand it back,
up to a switch interval each time. The benchmark's scatter-add of rows at 1/16 of its size (about 640 NumPy calls,
22-39 ms once numba is loaded), its slowest call while numba loaded in a fresh process (warm cache, a 2-vCPU VM):
421-552 ms with 5 ms (four processes), 189-193 ms with 0.1 ms (three); the kernels were ready after 1.02-1.72 s
and 0.92-1.23 s. The setting is the interpreter's, so it holds for every thread of the process while a job runs
(a cold compile, mostly a wait for the compiling child, can take tens of seconds); it is restored after each
job unless something else changed it meanwhile."""


def _work() -> None:
    while True:
        with _wake:
            while not _queue and not _closing:
                _wake.wait()
            if _closing:
                return
            job = _queue.pop(0)
        was = sys.getswitchinterval()
        sys.setswitchinterval(BACKGROUND_SWITCH_S)
        now = sys.getswitchinterval()  # as the interpreter rounded it
        try:
            job()
        finally:
            if sys.getswitchinterval() == now:
                sys.setswitchinterval(was)


def _submit(job: Callable[[], None]) -> None:
    """Run ``job`` on the one background compile thread (started on first use); caller holds _lock."""
    global _worker
    _queue.append(job)
    if _worker is None:
        _worker = threading.Thread(target=_work, name="gatherscatter-compile", daemon=True)
        _worker.start()
    _wake.notify()


def _close() -> None:
    """At exit: no new job starts, and a compiling child is stopped (its work is only a cache entry)."""
    global _closing
    with _wake:
        _closing = True
        _wake.notify_all()
        if _child is not None and _child.poll() is None:
            _child.kill()


atexit.register(_close)


_call = threading.local()


def _wait_left() -> float:
    until = getattr(_call, "until", None)
    return WAIT_S if until is None else max(0.0, until - time.monotonic())


_seen: set[tuple[Any, ...]] = set()
"""(kernel, :func:`_arg_key` of each argument) of signatures found compiled: numba's ``typeof`` of the
arguments, the other way to tell, cost 4 µs per array (measured: 12 µs of a 30 µs call on 3 arrays)."""


def _arg_key(a: Any) -> Any:
    """What decides numba's type of a kernel argument (dtype, rank, layout, read-only, aligned for an array, as numba's
    ``typeof``; the Python type of a bool or float, of an int in int64), or None when that is not all of it."""
    t = type(a)
    if t is np.ndarray:
        f = a.flags
        return a.dtype, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned
    if t is bool or t is float or (t is int and -(1 << 63) <= a < 1 << 63):
        return t
    return None


def _ready(kernel: Any, args: tuple[Any, ...]) -> bool:
    """Whether ``kernel`` has a compiled signature for ``args``; else queue its compile and wait up to WAIT_S."""
    seen = (kernel, *map(_arg_key, args))
    if seen in _seen:
        return True
    try:
        sig = tuple(kernel.typeof_pyval(a) for a in args)
    except Exception:  # an untypeable argument: let the call itself report it
        return True
    if sig in kernel.overloads:
        if None not in seen:
            _seen.add(seen)
        return True
    key = (kernel, sig)
    with _lock:
        done = _jobs.get(key)
        if done is None:
            done = _jobs[key] = threading.Event()

            def job(kernel: Any = kernel, sig: Any = sig, done: threading.Event = done) -> None:
                with contextlib.suppress(Exception):  # the call in the caller's thread will report it
                    _compile_in_child(kernel, sig)
                    kernel.compile(sig)  # from numba's cache when the child filled it; else compiled here
                done.set()

            _submit(job)
    done.wait(_wait_left())
    return sig in kernel.overloads or done.is_set()


def _sig_namespace() -> dict[str, Any]:
    from numba.core import types

    ns = dict(vars(types))
    ns["bool"] = types.boolean
    return ns


def _compile_in_child(kernel: Any, sig: Any) -> None:
    """Compile ``kernel`` for ``sig`` in a child process, which leaves it in numba's cache.

    Compiling in this process's background thread would hold the GIL for most of a compile
    (numba's typing and lowering are Python): the NumPy-path calls meanwhile measured up to 8x
    slower (0.84 s for a 0.1 s call). A child leaves this process free; when it fails or the
    cache cannot be written, the caller's ``kernel.compile`` compiles here instead.
    """
    if _closing or os.environ.get("GATHERSCATTER_COMPILE_CHILD") == "0":
        return
    with contextlib.suppress(Exception):  # numba internals: when they change, the child compiles anyway
        if kernel._cache.load_overload(sig, kernel.targetctx) is not None:
            return  # in numba's cache already: the caller loads it
    text = repr(tuple(sig))
    if eval(text, _sig_namespace()) != tuple(sig):  # numba's own type reprs, built here
        return
    import subprocess
    import sys

    code = "from gatherscatter.backends import _child_compile; _child_compile()"
    global _child
    with _lock:
        if _closing:
            return
        _child = subprocess.Popen(  # this interpreter, a fixed command
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
        )
    try:
        _child.communicate(f"{kernel.__name__}\n{text}", timeout=900)
    finally:
        with _lock:
            if _child.poll() is None:
                _child.kill()
            _child = None


def _child_compile() -> None:
    """The child side of :func:`_compile_in_child`: read kernel name and signature from stdin, compile."""
    import sys

    name, text = sys.stdin.read().split("\n", 1)
    k = _load()
    if k is not None:
        getattr(k, name).compile(eval(text, _sig_namespace()))  # from the parent, see above


def settled_one(kernel: Callable[..., Any], nbytes: int) -> bool:
    """Whether a call of ``kernel`` moving ``nbytes`` runs on one thread now without the tuner: below
    :data:`PARALLEL_BYTES` (or one thread asked), or the tuner's final choice for its size class is one thread and
    no revisit is due. A caller holding the kernel's serial form may then call it directly, as :func:`launch`
    would (a call plan: no launch, no tuner lookup on each call)."""
    n = threads_for(nbytes)
    if n <= 1:
        return True
    if not _tune_on or _max_threads is None:
        return False
    st = _tuning.get(_tune_key(kernel, min(n, _max_threads), _size_class(nbytes)))  # as set_kernel_threads
    return st is not None and st.holds_one()


def serial_form(kernel: Callable[..., Any], nbytes: int) -> Callable[..., Any] | None:
    """The serial form :func:`launch` runs for ``kernel`` on one thread at ``nbytes`` (see
    :func:`set_kernel_threads`), or None when it runs the parallel form there (or has no kernels)."""
    k = _kernels
    if k is None:
        return None
    one = k.SERIAL.get(kernel)
    if one is None or nbytes > k.SERIAL_BYTES.get(kernel, nbytes):
        return None
    return cast(Callable[..., Any], one)


def launch(kernel: Callable[..., Any], *args: Any, nthreads_at: int | None = None) -> Any:
    """Run a parallel kernel (returning its result), serialised under numba's non-thread-safe ``workqueue`` layer.

    With the ``auto`` backend, raises :class:`KernelNotReadyError` (before running anything) when the kernel's
    signature is still compiling in the background; the dispatch in the core then takes the NumPy path.
    ``nthreads_at``: the position of the kernel's own thread-count argument (its work split), which
    follows the thread count chosen at run time (:func:`_run`). The arrays the kernel only reads go to it
    read-only (``numba_kernels.frozen``: one compiled signature whether the caller's arrays are writeable or not).
    """
    global _serial
    if _kernels is not None:
        args = _kernels.frozen(kernel, args)
    # its serial form, unless that is slower than the parallel form at one thread at this size
    one = serial_form(kernel, getattr(_call, "nbytes", 0))
    n = getattr(_call, "n", 1)
    if n > 1 and one is not None and _tune_on:
        st = _tuning.get(_tune_key(kernel, n))
        if st is not None and st.holds_one():
            n = 1
            args = _split(args, nthreads_at, 1)
    if n <= 1:
        if one is not None:
            # one thread: the kernel's serial form, no parallel region (whose launch alone costs 50-100 µs)
            if _backend == "auto" and not _ready(one, args):
                raise KernelNotReadyError(getattr(kernel, "__name__", "kernel"))
            return one(*args)
        import numba

        numba.set_num_threads(1)  # the parallel form on one thread
    if _backend == "auto" and not (_ready(kernel, args) and (one is None or not _tune_on or _ready(one, args))):
        raise KernelNotReadyError(getattr(kernel, "__name__", "kernel"))
    if _serial is False:
        return _run(kernel, args, nthreads_at, one)
    with _launch_lock:
        result = _run(kernel, args, nthreads_at, one)
        if _serial is None:
            _serial = _layer_is_serial()
        return result


def _import() -> ModuleType | None:
    global _kernels, _tried
    try:
        import numba  # noqa: F401

        _choose_layer()
        from . import numba_kernels as k
    except ImportError:
        k = None  # type: ignore[assignment]
    _kernels = k
    _tried = True
    return k


_importing: threading.Event | None = None
_import_lock = threading.Lock()


def _load(block: bool = True) -> ModuleType | None:
    """The kernels module (None without numba). With ``block=False`` the import runs in the background
    and None is returned until it is done (importing numba takes 0.3-1 s)."""
    global _importing
    if _tried:
        return _kernels
    if block:
        with _import_lock:
            if not _tried:
                _import()
        return _kernels
    with _lock:
        if _importing is None:
            ev = _importing = threading.Event()

            def job() -> None:
                with _import_lock:
                    if not _tried:
                        _import()
                ev.set()

            _submit(job)
        ev = _importing
    ev.wait(_wait_left())
    return _kernels if _tried else None


def kernels(nbytes: int | None = None) -> Any:
    """The numba kernels module when the accelerated path is in use, else None.

    With the ``auto`` backend, calls moving fewer than :data:`SMALL_BYTES`
    (``nbytes``) stay on NumPy, whose call overhead is lower, and numba is
    imported in the background (None until then); ``numba`` forces the kernels
    at every size, compiling in the calling thread (the tests use it).
    """
    if _backend == "numpy":
        return None
    if _backend == "auto":
        if nbytes is not None and nbytes < SMALL_BYTES:
            return None
        _call.until = time.monotonic() + WAIT_S  # one primitive call's waits share WAIT_S
        return _load(block=False)
    return _load()


def wait_compiled(timeout: float | None = None) -> bool:
    """Wait until the background thread has no compile left (numba imported, every queued signature
    compiled); True when idle. For benchmarks and tests: a call never needs it."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        with _lock:
            pending = [e for e in _jobs.values() if not e.is_set()]
            if _importing is not None and not _importing.is_set():
                pending.append(_importing)
        if not pending:
            return True
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return False
        pending[0].wait(left)


def warm_up(part: int = 0, parts: int = 1, signatures: Iterable[str] = (), common: bool = True) -> float | None:
    """Compile (or load from numba's cache) the common kernel signatures now, in this thread; returns seconds.

    Kernels otherwise compile on first use, one signature at a time (in the background
    with the ``auto`` backend). None when numba is not installed. ``part`` of ``parts``: only that share
    of the kernels, for processes that fill numba's cache side by side (each kernel in one share only).
    ``signatures``: more to compile, as ``"kernel: signature"`` lines, e.g. those a workload compiled on
    first use (``numba_kernels.signature_lines()`` after it ran; ``.ci/run`` warms up the test suite's,
    ``.ci/numba-signatures.txt``), to fill the cache of a machine or image beforehand. ``common=False``:
    only those lines, not the common signatures (a workload's own list, nothing it will not run).
    """
    global _compile_seconds
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise ArgumentError(f"warm_up: parts must be an int >= 1 (got {parts!r})")
    if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < parts:
        raise ArgumentError(f"warm_up: part must be an int in [0, parts) = [0, {parts}) (got {part!r})")
    if not isinstance(common, bool):
        raise ArgumentError(f"warm_up: common must be True or False (got {common!r})")
    k = _load()
    if k is None:
        return None
    t0 = time.perf_counter()
    with _launch_lock:  # its kernels run in parallel regions: serialised like any other launch
        k.warm_up(part, parts, signatures, common)
    _compile_seconds = time.perf_counter() - t0
    return _compile_seconds


def compile_seconds() -> float | None:
    """Seconds the last :func:`warm_up` took; None before one ran."""
    return _compile_seconds
