"""The accelerated path's runtime: threading layer choice, background compilation, the output pool.

Functional checks only (nothing here is timed). Expected values come from plain NumPy
indexing (``d[i]``), never from gatherscatter itself.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import time
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

from gatherscatter.backends import pool
from tests.conftest import has, has_dist, pool_cap

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _python(code: str, **env: str) -> dict:
    full = {**os.environ, "PYTHONPATH": SRC, **env}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=full)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


LAYER = """
import json, numba
from gatherscatter import backends
backends._load()
print(json.dumps({"layer": numba.config.THREADING_LAYER}))
"""

RAN = """
import numpy as np
import gatherscatter as gs
backends.set_backend("numba")
backends.set_num_threads(2)
d = np.arange(4 << 20, dtype=np.float32).reshape(1 << 12, 1 << 10)
i = np.arange(1 << 12)[::-1].copy()
for _ in range(8):  # the run-time tuner times the serial form and the parallel one in turn
    assert np.array_equal(gs.take(d, i, axis=0), d[i])
print(json.dumps({"layer": numba.config.THREADING_LAYER,
                  "ran": numba.threading_layer()}))
"""

NO_TBB = "from gatherscatter import backends; backends._tbb_usable = lambda: False\n"


def _default_layer(code: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env={**env, "PYTHONPATH": SRC}
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not (has("numba") and has_dist("tbb")), reason="numba or tbb not installed")
def test_threading_layer_defaults_to_tbb_when_it_loads():
    from gatherscatter import backends

    assert backends._tbb_usable()
    got = _default_layer(LAYER + RAN)
    assert got == {"layer": "tbb", "ran": "tbb"}


@pytest.mark.skipif(not (has_dist("tbb") and sys.platform == "linux"), reason="the tbb wheel on Linux")
def test_tbb_found_in_the_wheels_files_when_off_the_loader_path(monkeypatch):
    """pip puts libtbb in <prefix>/lib, which a venv's loader does not search: the wheel's file list finds it."""
    import ctypes

    from gatherscatter import backends

    real, asked = ctypes.CDLL, []

    def cdll(name, *args, **kwargs):
        asked.append(str(name))
        if "/" not in str(name):
            raise OSError(f"{name}: cannot open shared object file")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(ctypes, "CDLL", cdll)
    assert backends._tbb_usable()
    assert asked[0] == "libtbb.so.12" and asked[1].endswith("/libtbb.so.12") and len(asked) == 2


@pytest.mark.parametrize(("version", "usable"), [(12050, False), (12060, True), (12200, True)])
def test_tbb_older_than_numba_accepts_is_not_used(monkeypatch, version, usable):
    import ctypes

    from gatherscatter import backends

    class Lib:
        def __init__(self):
            self.TBB_runtime_interface_version = lambda: version

    monkeypatch.setattr(ctypes, "CDLL", lambda *a, **k: Lib())
    monkeypatch.setitem(sys.modules, "numba.np.ufunc.tbbpool", types.ModuleType("tbbpool"))  # numba's pool loads
    assert backends._tbb_usable() is (usable and has("numba"))


@pytest.mark.skipif(not (has("numba") and has_dist("tbb")), reason="numba or tbb not installed")
def test_tbb_not_used_when_numbas_tbb_pool_does_not_load(monkeypatch):
    """A TBB runtime beside a numba built without its TBB pool (some platforms' wheels): not the tbb layer."""
    from gatherscatter import backends

    monkeypatch.setitem(sys.modules, "numba.np.ufunc.tbbpool", None)  # makes its import raise ImportError
    assert not backends._tbb_usable()


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
def test_threading_layer_falls_back_to_workqueue_without_tbb():
    got = _default_layer(NO_TBB + LAYER + RAN)
    assert got == {"layer": "workqueue", "ran": "workqueue"}


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
@pytest.mark.parametrize("layer", ["omp", "safe"])
def test_threading_layer_respects_the_users_choice(layer):
    assert _python(LAYER, NUMBA_THREADING_LAYER=layer) == {"layer": layer}


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
def test_threading_layer_respects_numba_config():
    code = "import numba; numba.config.THREADING_LAYER = 'safe'\n" + LAYER
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env={**env, "PYTHONPATH": SRC}
    )
    assert json.loads(res.stdout.strip().splitlines()[-1])["layer"] == "safe"


BACKGROUND = """
import json, numpy as np
import gatherscatter as gs
from gatherscatter import backends
rng = np.random.default_rng(7)
d = rng.standard_normal((1 << 14, 32)).astype(np.float32)   # 2 MiB
i = rng.integers(-(1 << 14), 1 << 14, 1 << 14)              # raw int64, negatives wrapped
expected = d[i]
backends._load()  # numba imported: the first call below queues its kernel's compile (an empty cache)
first = gs.take(d, i, axis=0)
busy = not backends.wait_compiled(0)
same_first = first.tobytes() == expected.tobytes()
backends.wait_compiled(600)
later = [gs.take(d, i, axis=0) for _ in range(4)]
backends.wait_compiled(600)
last = gs.take(d, i, axis=0)
k = backends._kernels
print(json.dumps({
    "busy": busy, "same_first": same_first,
    "same_later": all(x.tobytes() == expected.tobytes() for x in later + [last]),
    "compiled": k is not None and len(k.SERIAL[k.gather_rows].overloads) > 0,  # 2 MiB: one thread, serial form
}))
"""


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
@pytest.mark.parametrize("child", ["1", "0"])
def test_background_compile_serves_exact_results_meanwhile(tmp_path, child):
    # an empty numba cache: the first call cannot have its kernel; it must still be exact
    res = _python(
        BACKGROUND, NUMBA_CACHE_DIR=str(tmp_path), GATHERSCATTER_BACKEND="auto", GATHERSCATTER_COMPILE_CHILD=child
    )
    assert res == {"busy": True, "same_first": True, "same_later": True, "compiled": True}


# ---- the output pool -------------------------------------------------------------------------


@pytest.fixture
def small_pool(monkeypatch):
    monkeypatch.setattr(pool, "MIN_BYTES", 1 << 20)
    with pool_cap(8 << 20):
        yield


def _addr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_pool_returns_plain_arrays_of_the_asked_shape(small_pool):
    a = pool.empty((512, 1024), np.float32)  # 2 MiB
    assert type(a) is np.ndarray and a.shape == (512, 1024) and a.dtype == np.float32
    assert a.flags.c_contiguous and a.flags.writeable
    small = pool.empty((3,), np.int8)
    assert small.flags.owndata  # under MIN_BYTES: plain np.empty


def test_pool_never_aliases_a_live_array_or_view(small_pool):
    a = pool.empty((1 << 18,), np.float32)
    b = pool.empty((1 << 18,), np.float32)
    assert not np.shares_memory(a, b)
    view = a[10:20]
    exported = memoryview(b)
    addr_a, addr_b = _addr(a), _addr(b)
    del a, b
    c = pool.empty((1 << 18,), np.float32)
    assert not np.shares_memory(c, view) and _addr(c) not in (addr_a, addr_b)
    assert not np.shares_memory(c, np.asarray(exported))
    del view, exported, c
    gc.collect()


def test_pool_reuses_a_released_buffer(small_pool):
    pool.trim(0.0)
    a = pool.empty((1 << 18,), np.float32)
    addr = _addr(a)
    del a
    b = pool.empty((1 << 18,), np.float32)
    assert _addr(b) == addr  # the pre-faulted buffer came back


def test_pool_serves_mid_size_outputs_without_growing_them():
    """Outputs from 1 MiB come from the pool (a released one is handed out again, already faulted); below 8 MiB a
    buffer is rounded up to 256 KiB, not to a 2 MiB huge page."""
    with pool_cap(64 << 20):
        pool.trim(0.0)
        a = pool.empty((1 << 18,), np.float32)  # exactly 1 MiB
        assert not a.flags.owndata and a.base.nbytes == (1 << 20) + pool.ALIGN  # room to start on a line
        assert _addr(a) % pool.ALIGN == 0
        first = _addr(a)
        del a
        assert _addr(pool.empty((1 << 18,), np.float32)) == first
        b = pool.empty((300_000,), np.float32)  # 1.14 MiB -> 1.25 MiB
        assert b.base.nbytes == (5 << 18) + pool.ALIGN
        c = pool.empty((3 << 20,), np.float32)  # 12 MiB: 2 MiB steps
        assert c.base.nbytes == (12 << 20) + pool.ALIGN
        assert _addr(b) % pool.ALIGN == 0 and _addr(c) % pool.ALIGN == 0  # every pooled output starts on a line
        assert pool.empty(((1 << 18) - 1,), np.float32).flags.owndata  # under 1 MiB: plain np.empty


def test_pool_memory_is_bounded_and_released(small_pool):
    gc.collect()
    pool.trim(0.0)
    # in a full run, arrays earlier tests still hold (caches, module globals) may be pooled buffers in use
    held = pool.pool_stats()["bytes"]
    live = [pool.empty((1 << 18,), np.float32) for _ in range(8)]  # 8 x 1 MiB asked, 2 MiB buffers
    assert pool.pool_stats()["bytes"] <= max(8 << 20, held)  # the rest are plain arrays
    assert len({_addr(x) for x in live}) == 8
    del live
    assert pool.pool_stats()["idle_bytes"] > 0 or held >= 8 << 20
    gc.collect()  # a full collection releases every idle buffer (through the pool's gc hook)
    assert pool._on_gc in gc.callbacks
    # in a full run the gc-time trim (a non-blocking lock) has been seen to leave 8 MiB idle; what bounds memory
    # regardless is the trim the idle trimmer runs: it must release every idle buffer
    pool.trim(0.0)
    assert pool.pool_stats()["idle_bytes"] == 0
    assert pool.pool_stats()["bytes"] <= held


def test_pool_idle_buffers_are_released_by_one_long_lived_thread(small_pool, monkeypatch):
    monkeypatch.setattr(pool, "IDLE_S", 0.05)
    a = pool.empty((1 << 18,), np.float32)  # a tracked buffer starts the trimmer
    trimmer = pool._trimmer
    assert trimmer is not None and trimmer.is_alive()
    del a
    for _ in range(3):  # more buffers made and dropped: the same thread trims them, none is started
        b = pool.empty((1 << 18,), np.float32)
        del b
        time.sleep(0.12)
    deadline = time.monotonic() + 10  # the trimmer may be in a sleep of the real IDLE_S (5 s) from earlier
    while pool.pool_stats()["idle_bytes"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert pool.pool_stats()["idle_bytes"] == 0  # released without a trim() or a collection of ours
    assert pool._trimmer is trimmer
    assert [t.name for t in threading.enumerate()].count("gatherscatter-pool-trim") == 1


def test_pool_trimmer_is_restarted_in_a_forked_child(small_pool):
    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    pool.empty((1 << 18,), np.float32)
    assert pool._trimmer is not None
    r, w = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns of fork() in a process with threads (ours are idle)
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: the parent's thread is gone; the pool starts its own on first use
        ok = pool._trimmer is None and not pool._busy.is_set()
        c = pool.empty((1 << 18,), np.float32)
        ok = ok and pool._trimmer is not None and pool._trimmer.is_alive() and c.shape == (1 << 18,)
        os.write(w, b"1" if ok else b"0")
        os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.waitpid(pid, 0)
    os.close(r)
    assert got == b"1"


def test_pool_is_safe_with_threads(small_pool):
    errors: list[str] = []
    start = threading.Barrier(4)

    def work(k: int) -> None:
        start.wait()
        for _ in range(50):
            x = pool.empty((1 << 18,), np.int32)
            x.fill(k)
            y = pool.empty((1 << 18,), np.int32)
            y.fill(-k)
            if not (x == k).all() or not (y == -k).all():
                errors.append(f"thread {k}: an output was overwritten")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.fixture
def tuning(monkeypatch):
    """Run-time thread choice on, from scratch, at small sizes; 2 threads asked, on the numba backend."""
    if not has("numba"):
        pytest.skip("numba not installed")
    import numba

    from gatherscatter import backends
    from tests.conftest import using_backend

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one CPU: nothing to choose")
    monkeypatch.setattr(backends, "PARALLEL_BYTES", 1 << 16)
    monkeypatch.setattr(backends, "_tune_on", True)
    monkeypatch.setattr(backends, "_tuning", {})
    threads = backends.get_num_threads()
    backends.set_num_threads(2)
    try:
        with using_backend("numba"):
            yield backends
    finally:
        backends.set_num_threads(threads)


def test_thread_count_chosen_by_measurement_keeps_results_exact(tuning):
    import gatherscatter as gs

    rng = np.random.default_rng(11)
    d = rng.standard_normal((1 << 12, 16)).astype(np.float32)
    i = rng.integers(0, 1 << 12, 1 << 14)
    expected = d[i]
    got = [gs.take(d, i, axis=0) for _ in range(2 * tuning.TUNE_CALLS + 2)]
    assert all(g.tobytes() == expected.tobytes() for g in got)  # on 1 thread and on 2 alike
    chosen = {k: v for k, v in tuning.tuned_threads().items() if k[0] == "gather_rows"}
    assert chosen and set(chosen.values()) <= {1, 2} and all(k[2] == 2 for k in chosen)


def test_a_final_choice_of_one_thread_takes_the_one_thread_path(tuning, monkeypatch):
    # TUNE_GAIN 0: n threads never count as faster, so two measurements vote 1 and the choice is final; from
    # then on launch runs the serial form directly (no tuner, no numba thread setting), as a 1-thread call does
    import gatherscatter as gs

    monkeypatch.setattr(tuning, "TUNE_GAIN", 0.0)
    rng = np.random.default_rng(13)
    d = rng.standard_normal((1 << 12, 16)).astype(np.float32)
    i = rng.integers(0, 1 << 12, 1 << 14)
    per = tuning.TUNE_CALLS
    for _ in range(2 * per + tuning.TUNE_RECHECK + 2 * per):
        assert gs.take(d, i, axis=0).tobytes() == d[i].tobytes()
    assert [v for k, v in tuning.tuning_votes().items() if k[0] == "gather_rows"] == [[1, 1]]
    runs: list[str] = []
    real = tuning.launch.__globals__["_run"]
    monkeypatch.setattr(tuning, "_run", lambda kernel, *a, **kw: (runs.append(kernel.__name__), real(kernel, *a, **kw))[1])
    for _ in range(5):
        assert gs.take(d, i, axis=0).tobytes() == d[i].tobytes()
    assert "gather_rows" not in runs


def test_thread_choice_also_sets_a_scatters_work_split(tuning, monkeypatch):
    # the row scatter splits rows by its own thread-count argument: on the 1-thread side of the
    # measurement it gets 1 (one scan of the updates), and the sums stay in sequential order either way
    import gatherscatter as gs

    rng = np.random.default_rng(12)
    data = rng.standard_normal((1 << 10, 32)).astype(np.float32)
    idx = rng.integers(0, 1 << 10, (1 << 12, 1))
    upd = rng.standard_normal((1 << 12, 32)).astype(np.float32)
    expected = data.copy()
    for i, row in enumerate(idx[:, 0]):  # the sequential loop
        expected[row] = expected[row] + upd[i]
    import numba

    splits: list[tuple[int, int]] = []  # (the kernel's split argument, numba's thread count) per call
    real = tuning.launch.__globals__["_run"]
    scatter_rows = tuning.kernels().scatter_rows

    def spy(kernel, args, nthreads_at=None, one=None):
        if kernel is not scatter_rows:
            return real(kernel, args, nthreads_at, one)

        def watched(*a):
            splits.append((a[nthreads_at], numba.get_num_threads()))
            return kernel(*a)

        def watched_one(*a):  # the serial form (no parallel region): one thread by construction
            splits.append((a[nthreads_at], 1))
            return one(*a)

        watched.__name__ = kernel.__name__
        return real(watched, args, nthreads_at, None if one is None else watched_one)

    monkeypatch.setattr(tuning, "_run", spy)
    got = [gs.scatter_nd(data, idx, upd, reduction="add") for _ in range(2 * tuning.TUNE_CALLS + 2)]
    assert all(g.tobytes() == expected.tobytes() for g in got)
    assert {s for s, _ in splits} == {1, 2}  # both sides of the measurement ran
    assert all(split == threads for split, threads in splits)
    assert any(k[0] == "scatter_rows" for k in tuning.tuned_threads())


def _scripted_tuner(monkeypatch, durations):
    """The tuner on a fake clock: each call of side "one" / "many" takes its next scripted duration."""
    from gatherscatter import backends

    monkeypatch.setattr(backends, "_tune_on", True)
    monkeypatch.setattr(backends, "_tuning", {})
    monkeypatch.setattr(backends._call, "n", 2, raising=False)
    monkeypatch.setattr(backends._call, "bucket", 7, raising=False)
    clock = [0.0]
    ran: list[str] = []

    def kernel_for(side):
        def k():
            ran.append(side)
            clock[0] += durations[side].pop(0)
        k.__name__ = "scripted"
        return k

    monkeypatch.setattr(backends.time, "perf_counter", lambda: clock[0])
    fake_numba = type(sys)("numba")
    fake_numba.set_num_threads = lambda n: None
    monkeypatch.setitem(sys.modules, "numba", fake_numba)
    many, one = kernel_for("many"), kernel_for("one")
    return backends, (lambda: backends._run(many, (), None, one)), ran


def test_thread_choice_is_by_median_of_blocks_after_their_first_call(monkeypatch):
    # Scripted call times: each block's first call pays for the switch of side (not counted); one lucky fast
    # parallel call among slow ones must not win (a minimum would pick 2 threads here; the median picks 1).
    b = _tuner_constants()
    assert (b.TUNE_BLOCK, b.TUNE_WARMUP, b.TUNE_BLOCKS) == (3, 1, 3)
    durations = {"one": [10.0, 1.0, 1.0] * 3, "many": [100.0, 0.5, 3.0] + [100.0, 3.0, 3.0] * 2}
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    for _ in range(2 * backends.TUNE_CALLS):
        call()
    assert ran == (["one"] * 3 + ["many"] * 3) * 3  # the sides take turns by blocks, one thread first
    assert backends.tuned_threads() == {("scripted", 7, 2): 1}


class _Waking(list):
    """Scripted parallel calls: 0.6 back to back, 2.5 right after a serial call (the worker woke up)."""

    def __init__(self, ran):
        super().__init__([0.0] * 1000)
        self.ran = ran

    def pop(self, i=-1):
        super().pop(i)
        return 2.5 if len(self.ran) < 2 or self.ran[-2] != "many" else 0.6


def test_thread_choice_does_not_count_the_calls_that_switch_side(monkeypatch):
    # A parallel call right after a serial one pays for waking the worker: measured call by call in turn, every
    # parallel call would pay it (2.5 against 1.0: one thread); in blocks without their first calls, none does.
    durations = {"one": [1.0] * 1000, "many": []}
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    durations["many"] = _Waking(ran)
    for _ in range(2 * backends.TUNE_CALLS):
        call()
    assert backends.tuning_votes() == {("scripted", 7, 2): [2]}


def _tuner_constants():
    from gatherscatter import backends

    return backends


def test_thread_choice_is_measured_again_until_two_measurements_agree(monkeypatch):
    # The first measurement is disturbed (the parallel side slow: a foreign load, a waking vCPU) and picks
    # 1 thread; the re-check TUNE_RECHECK calls later finds 2 threads at half the time; they disagree, so
    # a third measurement decides: 2 threads, final. Then no more measuring: every call runs on 2.
    from gatherscatter import backends as b

    per = b.TUNE_CALLS
    durations = {
        "one": [1.0] * (per + b.TUNE_RECHECK + per + per),
        "many": [3.0] * per + [0.5] * (per + b.TUNE_RECHECK + per + 40),
    }
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    key = ("scripted", 7, 2)
    for _ in range(2 * per):
        call()
    assert backends.tuning_votes() == {key: [1]} and backends.tuned_threads() == {key: 1}
    assert backends.tuning_pending() == [key]
    ran.clear()
    for _ in range(b.TUNE_RECHECK + 2 * per):
        call()
    blocks = (["one"] * b.TUNE_BLOCK + ["many"] * b.TUNE_BLOCK) * b.TUNE_BLOCKS
    assert ran == ["one"] * b.TUNE_RECHECK + blocks  # the choice, then the re-check
    assert backends.tuning_votes() == {key: [1, 2]} and backends.tuned_threads() == {key: 2}  # the later one
    ran.clear()
    for _ in range(b.TUNE_RECHECK + 2 * per):
        call()
    assert ran == ["many"] * b.TUNE_RECHECK + blocks
    assert backends.tuning_votes() == {key: [1, 2, 2]} and backends.tuning_pending() == []
    ran.clear()
    for _ in range(40):
        call()
    assert ran == ["many"] * 40 and backends.tuned_threads() == {key: 2}
    backends.reset_tuning()
    assert backends.tuned_threads() == {} and backends.tuning_votes() == {}


def test_thread_choice_is_final_when_the_re_check_agrees(monkeypatch):
    from gatherscatter import backends as b

    per = b.TUNE_CALLS
    durations = {"one": [1.0] * (2 * per + b.TUNE_RECHECK + 30), "many": [2.0] * (2 * per)}
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    for _ in range(4 * per + b.TUNE_RECHECK + 30):
        call()
    assert backends.tuning_votes() == {("scripted", 7, 2): [1, 1]} and backends.tuning_pending() == []
    assert ran[-30:] == ["one"] * 30  # final: no third measurement


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
def test_ready_remembers_a_compiled_signature_by_what_decides_numbas_types():
    # _ready's shortcut (no numba typeof once a signature was found compiled) must tell apart every argument
    # that numba types differently: dtype, rank, layout, read-only, and an int beyond int64
    import numba

    from gatherscatter import backends

    kernel = numba.njit(lambda x, n: x.shape[0] + n)
    a = np.zeros((4, 3), np.float32)
    ro = a.copy()
    ro.flags.writeable = False
    raw = np.zeros(4 * 12 + 1, np.uint8)[1:].view(np.float32).reshape(4, 3)  # misaligned
    variants = [a, a.astype(np.float64), a[0], a.T, a[:, ::2], ro, raw]
    types = {}
    for v in variants:  # one key never stands for two numba types (a key may be finer than numba's type)
        assert types.setdefault(backends._arg_key(v), numba.typeof(v)) == numba.typeof(v)
    assert len(set(types.values())) == 6  # the misaligned view types as `a` (numba's typeof ignores alignment)
    assert backends._arg_key(2**63) is None and backends._arg_key((1, 2)) is None
    assert backends._arg_key(3) is int and backends._arg_key(True) is bool
    kernel(a, 1)
    assert backends._ready(kernel, (a, 1))
    assert (kernel, backends._arg_key(a), int) in backends._seen
    assert (kernel, backends._arg_key(ro), int) not in backends._seen  # never compiled: not remembered


def test_background_jobs_run_with_a_short_switch_interval_and_restore_it():
    """While the background thread imports numba or loads a kernel, the interpreter switches threads every
    BACKGROUND_SWITCH_S (the caller's NumPy-path calls get the GIL back sooner); after the job the interval is
    what it was, unless the job (or anything else) set another one meanwhile."""
    from gatherscatter import backends

    was = sys.getswitchinterval()
    seen: list[float] = []
    done = threading.Event()
    try:
        sys.setswitchinterval(0.004)
        with backends._lock:
            backends._submit(lambda: seen.append(sys.getswitchinterval()))
            backends._submit(done.set)
        assert done.wait(30)
        deadline = time.monotonic() + 5
        while sys.getswitchinterval() != 0.004 and time.monotonic() < deadline:
            time.sleep(0.01)  # the worker restores it right after the job that set the event
        assert seen and abs(seen[0] - backends.BACKGROUND_SWITCH_S) < 1e-6
        assert sys.getswitchinterval() == 0.004

        done.clear()
        with backends._lock:
            backends._submit(lambda: (sys.setswitchinterval(0.003), done.set()))
        assert done.wait(30)
        time.sleep(0.2)
        assert sys.getswitchinterval() == 0.003  # set by the job itself: left as it is
    finally:
        sys.setswitchinterval(was)


def test_final_choice_is_revisited_at_growing_intervals(monkeypatch):
    # A final choice made while the machine was disturbed must not stay for the process: TUNE_REVISIT_S after
    # it, it is measured again. A revisit that disagrees reopens the choice (a third measurement decides); one
    # that agrees doubles the wait before the next.
    from gatherscatter import backends as b

    per, recheck, revisit = b.TUNE_CALLS, b.TUNE_RECHECK, b.TUNE_REVISIT_S
    durations = {"one": [1e-3] * 10_000, "many": [2e-3] * 10_000}  # one thread faster at first (calls of 1-2 ms)
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    now = [1000.0]
    monkeypatch.setattr(backends.time, "monotonic", lambda: now[0])
    key = ("scripted", 7, 2)
    blocks = (["one"] * b.TUNE_BLOCK + ["many"] * b.TUNE_BLOCK) * b.TUNE_BLOCKS

    def calls(k):
        ran.clear()
        for _ in range(k):
            call()
        return list(ran)

    calls(4 * per + recheck)
    assert backends.tuning_votes() == {key: [1, 1]} and backends.tuned_threads() == {key: 1}
    assert backends.tuning_pending() == []
    now[0] += revisit - 0.5
    assert calls(50) == ["one"] * 50  # not due yet
    durations["many"] = [0.25e-3] * 10_000  # the machine changed: two threads now take a quarter of one's time
    now[0] += 0.5
    assert calls(2 * per) == blocks  # the revisit
    assert backends.tuning_votes() == {key: [1, 1, 2]} and backends.tuned_threads() == {key: 2}
    assert backends.tuning_pending() == [key]  # reopened: 1 against 2, the latest in use until a third vote
    assert calls(recheck + 2 * per) == ["many"] * recheck + blocks
    assert backends.tuning_votes() == {key: [1, 1, 2, 2]} and backends.tuning_pending() == []
    assert backends._tuning[key].settled == 2
    # revisits that agree: after TUNE_REVISIT_S, then twice that, then four times
    for wait in (revisit, 2 * revisit, 4 * revisit):
        now[0] += wait - 0.5
        assert calls(30) == ["many"] * 30
        now[0] += 0.5
        assert calls(2 * per) == blocks
        assert backends.tuned_threads() == {key: 2} and backends.tuning_pending() == []
    assert backends.tuning_votes() == {key: [1, 1, 2, 2, 2, 2, 2]}
    # the wait stops growing at TUNE_REVISIT_MAX_S
    st = backends._tuning[key]
    for _ in range(20):
        st.vote(2)
    assert st.wait == b.TUNE_REVISIT_MAX_S and st.due == now[0] + b.TUNE_REVISIT_MAX_S


def test_a_revisit_of_long_calls_waits_for_a_hundred_times_their_measurement(monkeypatch):
    # A revisit runs half its calls on the side not chosen. For calls of 60-130 ms (the benchmark's gather_rows at
    # full size) the 10 s revisit ran three one-thread calls inside its timed rounds; the wait is now at least the
    # measurement's wall time / TUNE_REVISIT_SHARE, so those calls cost about 1% of the time between revisits.
    from gatherscatter import backends as b

    assert b.TUNE_REVISIT_SHARE == 0.01
    per, recheck = b.TUNE_CALLS, b.TUNE_RECHECK
    durations = {"one": [0.12] * 10_000, "many": [0.06] * 10_000}
    backends, call, ran = _scripted_tuner(monkeypatch, durations)
    now = [1000.0]
    monkeypatch.setattr(backends.time, "monotonic", lambda: now[0])
    key = ("scripted", 7, 2)
    for _ in range(4 * per + recheck):
        call()
    assert backends.tuning_votes() == {key: [2, 2]} and backends.tuning_pending() == []
    spent = per * (0.12 + 0.06)  # the second measurement's calls, both sides
    st = backends._tuning[key]
    assert st.due == pytest.approx(now[0] + spent / b.TUNE_REVISIT_SHARE)  # 162 s, not TUNE_REVISIT_S
    ran.clear()
    now[0] += b.TUNE_REVISIT_S
    for _ in range(30):
        call()
    assert ran == ["many"] * 30  # not due at 10 s
    now[0] = st.due
    ran.clear()
    for _ in range(2 * per):
        call()
    assert ran == (["one"] * b.TUNE_BLOCK + ["many"] * b.TUNE_BLOCK) * b.TUNE_BLOCKS  # due then
    assert backends.tuning_votes() == {key: [2, 2, 2]}


def test_launch_skips_the_tuner_for_a_final_one_thread_choice_until_its_revisit(monkeypatch):
    # launch runs a final one-thread choice's serial form without the tuner; once the revisit is due the call
    # goes through the tuner (_run), which measures again
    from gatherscatter import backends

    def kern():
        return "parallel"

    def one():
        return "serial"

    kern.__name__ = "scripted"
    monkeypatch.setattr(backends, "_tune_on", True)
    monkeypatch.setattr(backends, "_tuning", {})
    monkeypatch.setattr(backends, "_backend", "numba")
    monkeypatch.setattr(backends, "_serial", False)
    monkeypatch.setattr(backends, "serial_form", lambda k, nbytes: one)
    monkeypatch.setattr(backends._call, "n", 2, raising=False)
    monkeypatch.setattr(backends._call, "bucket", 7, raising=False)
    through_tuner = []
    monkeypatch.setattr(backends, "_run", lambda k, args, at, o: through_tuner.append(k) or "tuned")
    now = [50.0]
    monkeypatch.setattr(backends.time, "monotonic", lambda: now[0])
    st = backends._tuning.setdefault(backends._tune_key(kern, 2), backends._Tuning())
    st.vote(1)
    st.vote(1)
    assert st.settled == 1
    assert backends.launch(kern) == "serial" and through_tuner == []
    now[0] += backends.TUNE_REVISIT_S
    assert backends.launch(kern) == "tuned" and through_tuner == [kern]
