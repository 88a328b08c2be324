"""Benchmark gatherscatter against onnxruntime, torch, the best plain NumPy and onnx.reference.

    python benchmarks/run.py [--quick] [--sizes 1,2,16] [--threads 1,2] [--only NAME[,NAME]] [--out DIR]
                             [--no-ref] [--no-compile] [--nospin-sizes 1,16]

Each workload (benchmarks/workloads.py; perf-anchors §9) is first checked: every
peer's result must agree with gatherscatter (exactly for gathers, 'none' and
max; allclose for sums, whose order differs). Then, in one process, it times
gatherscatter on its NumPy path (1 thread) and on its accelerated path (numba,
at each thread count), onnxruntime and torch at each thread count, the best
NumPy formulation and onnx.reference (capped: run on a truncated index set and
extrapolated, shown with '~'). It prints medians, ratios to the best peer and
GB/s next to a bandwidth probe measured in the same run, the peak extra memory
of gatherscatter's call, and writes Markdown and JSON to --out.

Spinning pools (informational, never a "best peer"): at each thread count above one,
onnxruntime with its intra-op spinning off (``ort{t}_nospin``) runs in the same rounds,
and torch with ``OMP_WAIT_POLICY=PASSIVE`` (``torch{t}_passive``: libgomp reads it once,
at start, so it runs in a subprocess, beside ours, at the run's smallest size only).
``--no-nospin`` leaves both out.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import WORKLOADS, Workload

import gatherscatter as gs
from gatherscatter import backends
from gatherscatter.backends import pool

CAP_S = 5.0


def timeit(fn: Any, min_time: float = 0.4, min_reps: int = 5, max_reps: int = 50) -> float:
    """Median wall time of ``fn()`` after one warm-up call (GC off)."""
    fn()
    times: list[float] = []
    gc.disable()
    try:
        t_start = time.perf_counter()
        while len(times) < min_reps or (time.perf_counter() - t_start < min_time and len(times) < max_reps):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    time.sleep(0.05)  # let OpenMP / ORT worker threads stop spinning
    return statistics.median(times)


WARM_CALLS = 13
"""Untimed calls per contestant before the rounds; the batch size comes from the fastest of them.
Contestants on our thread tuner keep warming up until its choices are final
(:func:`gatherscatter.backends.tuning_pending` empty: two or three measurements of 2 x 6 calls,
``TUNE_RECHECK`` calls apart), at most ``WARM_TUNED`` calls, so that the rounds time the tuner's choice,
not its trials; contestants the tuner does not run stop after ``WARM_S`` of them. The batch size came
from one call before session 8: at 2 threads that call was the tuner's first parallel launch (9 ms for a
0.5 ms gather), so the batch was 2 calls, each paying the wake-up after the 20 ms pause between
contestants, and gather_axis1 and gathernd_rows at 1/16 showed 2 threads 1.75x slower than one, which
was the harness, not the call."""
WARM_TUNED = 200
WARM_S = 0.3


def tuned(name: str) -> bool:
    """Whether a contestant runs on our thread tuner (ours on the kernels at more than one thread)."""
    return name.startswith("ours_numba") and name != "ours_numba1"


Contestant = tuple[str, Any, Any]  # (name, call, setup): setup selects backend / threads, untimed


def interleaved(
    cs: list[Contestant], min_rounds: int = 7, max_rounds: int = 25, min_time: float = 0.4, batch_s: float = 0.02,
    cost: dict[str, float] | None = None, tune: dict[str, Any] | None = None,
) -> dict[str, list[float]]:
    """Per-call times of every contestant, round by round, side by side.

    Each round calls every contestant in turn (a batch of calls for sub-``batch_s``
    ones, timed as one and divided), so a foreign load or a change of CPU state
    slows a round's contestants alike. The order rotates by one each round (each contestant
    takes every position in turn; neighbours keep their cyclic order), and each batch starts
    20 ms after the previous one: the contestant right after torch's was slowed by its OpenMP
    workers still spinning (1.25-4.9x measured for identical code under load).
    Rounds continue until ``min_rounds`` and ``min_time`` per contestant, at most ``max_rounds``.
    GC is off while timing. ``cost``, if given, receives each contestant's wall time in here (warm-up,
    pauses and rounds: what having it in the run costs); ``tune``, if given, receives each tuned contestant's
    thread-count measurements (kernel@size class -> the choice of each measurement, oldest first).
    """
    cost = {} if cost is None else cost
    batch: dict[str, int] = {}
    for name, call, setup in cs:  # warm-up, and the batch size of sub-batch_s calls
        t_c = time.perf_counter()
        setup()
        call()
        spent_w, fastest = 0.0, float("inf")
        if tuned(name):
            backends.reset_tuning()  # each record's choices measured afresh, within this warm-up
        i = 0
        while i < WARM_CALLS or (tuned(name) and backends.tuning_pending() and i < WARM_TUNED):
            t0 = time.perf_counter()
            call()
            dt = time.perf_counter() - t0
            spent_w += dt
            fastest = min(fastest, dt)
            i += 1
            if i >= 2 and spent_w > WARM_S and not tuned(name):
                break
        if tuned(name) and tune is not None:
            tune[name] = {f"{k[0]}@{k[1]}": v for k, v in backends.tuning_votes().items()}
        batch[name] = max(1, min(50, int(batch_s / max(fastest, 1e-7))))
        cost[name] = cost.get(name, 0.0) + time.perf_counter() - t_c
    times: dict[str, list[float]] = {n: [] for n, _, _ in cs}
    spent = dict.fromkeys(times, 0.0)
    gc.disable()
    try:
        for r in range(max_rounds):
            if r >= min_rounds and min(spent.values()) >= min_time:
                break
            for name, call, setup in cs[r % len(cs):] + cs[: r % len(cs)]:  # each round starts one later
                t_c = time.perf_counter()
                setup()
                time.sleep(0.02)  # let the previous contestant's worker threads stop spinning
                k = batch[name]
                t0 = time.perf_counter()
                for _ in range(k):
                    call()
                dt = time.perf_counter() - t0
                times[name].append(dt / k)
                spent[name] += dt
                cost[name] += time.perf_counter() - t_c
    finally:
        gc.enable()
    if tune is not None:  # the revisits of final choices (backends.TUNE_REVISIT_S) the rounds saw
        now = {f"{k[0]}@{k[1]}": v for k, v in backends.tuning_votes().items()}
        for name in [n for n in tune if tuned(n)]:
            before = tune[name]
            tune[f"{name}_rounds"] = {k: v[len(before.get(k, [])) :] for k, v in now.items()
                                      if len(v) > len(before.get(k, []))}
    return times


ORT_SPIN_KEY = "session.intra_op.allow_spinning"
"""onnxruntime's session config entry for its intra-op pool's spinning ("1", the default: worker threads
spin between calls, waiting for work; "0": they block). onnxruntime.ai, Performance > Thread management."""

PEER = re.compile(r"(ort|torch)\d+")
"""The names of the peers a ratio's "best" is taken over. The spinning-off variants (``ort2_nospin``,
``torch2_passive``) are informational: never a best peer."""


def is_peer(name: str) -> bool:
    return PEER.fullmatch(name) is not None


def round_ratios(times: dict[str, list[float]], threads: list[int]) -> dict[str, float]:
    """Median over rounds of ours / best(ORT, torch) at equal thread count (numpy1: at 1 thread).

    With ``ort{t}_nospin`` timed: ``numba{t}_ort_nospin`` (ours / it) and ``ort{t}_spin_gain``
    (onnxruntime spinning / not spinning), also medians of per-round ratios.
    """
    out: dict[str, float] = {}
    rounds = min(len(v) for v in times.values())
    for t in threads:
        peers = [n for n in (f"ort{t}", f"torch{t}") if n in times]
        if not peers:
            continue
        best = [min(times[p][r] for p in peers) for r in range(rounds)]
        for mine, key in ((f"ours_numba{t}", f"numba{t}"), ("ours_numpy1", "numpy1")):
            if mine in times and (key != "numpy1" or t == 1):
                out[key] = statistics.median(times[mine][r] / best[r] for r in range(rounds))
    for t in threads:
        if t != 1 and f"ours_numba{t}" in times and "ours_numba1" in times:
            out[f"scale{t}"] = statistics.median(
                times[f"ours_numba{t}"][r] / times["ours_numba1"][r] for r in range(rounds)
            )
    for t in threads:
        ns = times.get(f"ort{t}_nospin")
        if ns is None:
            continue
        for num, key in ((f"ours_numba{t}", f"numba{t}_ort_nospin"), (f"ort{t}", f"ort{t}_spin_gain")):
            if num in times:
                out[key] = statistics.median(times[num][r] / ns[r] for r in range(rounds))
    return out


def contestants(w: Workload, a: dict[str, np.ndarray], threads: list[int], have: dict[str, bool],
                numpy: bool = True, nospin: bool = False) -> list[Contestant]:
    """Every implementation of ``w`` on the inputs ``a``, as interleavable contestants.

    ``nospin``: also onnxruntime with its pool's spinning off, at each thread count above one (``ort{t}_nospin``).
    """
    def on(backend: str, t: int = 1) -> Any:
        def setup() -> None:
            backends.set_backend(backend)
            if backend == "numba":
                backends.set_num_threads(t)
        return setup

    none = lambda: None  # noqa: E731
    cs: list[Contestant] = [("ours_numpy1", lambda: w.ours(a), on("numpy"))]
    if have.get("numba"):
        cs += [(f"ours_numba{t}", lambda: w.ours(a), on("numba", t)) for t in threads]
    if have.get("onnxruntime") and not w.inplace:
        cs += [(f"ort{t}", Ort(w, a, t).run, none) for t in threads]
        if nospin:
            cs += [(f"ort{t}_nospin", Ort(w, a, t, spin=False).run, none) for t in threads if t > 1]
    if have.get("torch") and w.torch is not None:
        import torch

        call = torch_call(w, a)
        for t in threads:
            cs.append((f"torch{t}", call, lambda t=t: torch.set_num_threads(t)))
    if numpy:
        cs.append(("numpy", lambda: w.numpy(a), none))
    return cs


def agree(w: Workload, ours: np.ndarray, other: np.ndarray) -> bool:
    other = np.asarray(other)
    if other.shape != ours.shape:
        return False
    if w.exact:
        return bool(np.array_equal(ours, other))
    return bool(np.allclose(ours, other, rtol=1e-4, atol=1e-4))


# ---------------------------------------------------------------- peers


class Ort:
    """``w`` as a one-node onnxruntime session (IOBinding, output in ORT's arena); ``spin=False`` turns off
    its intra-op pool's spinning between calls (:data:`ORT_SPIN_KEY`)."""

    def __init__(self, w: Workload, a: dict[str, np.ndarray], threads: int, spin: bool = True) -> None:
        import onnxruntime as ort
        from onnx import helper

        names = list(w.onnx_inputs)
        node = helper.make_node(w.op, names, ["y"], **w.attrs)
        inputs = [
            helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a[n].dtype), list(a[n].shape))
            for n in names
        ]
        out = helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(a["data"].dtype), None)
        model = helper.make_model(
            helper.make_graph([node], "g", inputs, [out]), opset_imports=[helper.make_opsetid("", 18)], ir_version=8
        )
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        if not spin:
            so.add_session_config_entry(ORT_SPIN_KEY, "0")
        self.sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        self.io = self.sess.io_binding()
        for n in names:
            self.io.bind_ortvalue_input(n, ort.OrtValue.ortvalue_from_numpy(a[n]))
        self.io.bind_output("y", "cpu")

    def run(self) -> None:
        self.sess.run_with_iobinding(self.io)

    def result(self) -> np.ndarray:
        self.run()
        return self.io.copy_outputs_to_cpu()[0]


def torch_call(w: Workload, a: dict[str, np.ndarray]) -> Any:
    import torch

    ta = {k: torch.from_numpy(v) for k, v in a.items()}
    return lambda: w.torch(torch, ta) if w.torch else None


def ref_time(w: Workload, a: dict[str, np.ndarray]) -> tuple[float | None, bool, str]:
    """onnx.reference time, extrapolated from a truncated index set: (seconds, extrapolated, note)."""
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    names = list(w.onnx_inputs)
    node = helper.make_node(w.op, names, ["y"], **w.attrs)
    inputs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a[n].dtype), None) for n in names]
    out = helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(a["data"].dtype), None)
    model = helper.make_model(
        helper.make_graph([node], "g", inputs, [out]), opset_imports=[helper.make_opsetid("", 18)], ir_version=8
    )
    ev = ReferenceEvaluator(model)
    full = a["indices"].shape[0]
    m = max(1, full // 4096)
    while True:
        part = {k: (v[:m] if k in ("indices", "updates") else v) for k, v in a.items()}
        feeds = {n: part[n] for n in names}
        try:
            t0 = time.perf_counter()
            ev.run(None, feeds)
            t = time.perf_counter() - t0
        except Exception as exc:
            return None, False, f"fails: {type(exc).__name__}: {str(exc)[:60]}"
        est = t * full / m
        if m >= full:
            return t, False, ""
        if t > 0.5 or est > CAP_S * 4 or m * 8 > full:
            if est <= CAP_S and m < full:
                m = full
                continue
            return est, True, ""
        m *= 8


# ---------------------------------------------------------------- probes


def bandwidth(quick: bool) -> dict[str, float]:
    n = (32 << 20) // 4 if quick else (1 << 30) // 4
    src = np.random.default_rng(0).random(n, dtype=np.float32)
    dst = np.empty_like(src)
    t = timeit(lambda: np.copyto(dst, src), min_time=0.2, min_reps=3)
    copy = 2 * src.nbytes / t / 1e9
    rows = src.reshape(-1, 64)
    idx = np.random.default_rng(1).integers(0, rows.shape[0], rows.shape[0] // 2)
    t2 = timeit(lambda: np.take(rows, idx, axis=0), min_time=0.2, min_reps=3)
    gather = (idx.nbytes + 2 * idx.size * 256) / t2 / 1e9
    return {"copy_GBps": copy, "random_row_gather_GBps": gather}


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo, with family/model for generic names), else the arch."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or platform.machine()
    fields: dict[str, str] = {}
    for line in info.splitlines():
        k, _, v = line.partition(":")
        fields.setdefault(k.strip(), v.strip())
    name = fields.get("model name", platform.machine())
    if "cpu family" in fields:
        name += f" (family {fields['cpu family']} model {fields.get('model', '?')})"
    return name


def peak_memory(fn: Any) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del out
    return peak


FIRST_CALL = {
    "Gather": "gather_rows",
    "GatherElements": "gather_elements_last",
    "GatherND": "gathernd_rows",
    "ScatterElements none": "scatter_elements_none_last",
    "ScatterElements add": "scatter_elements_add_last",
    "ScatterElements max": "scatter_elements_max_axis0",
    "ScatterND none": "scatternd_none_rows",
    "ScatterND add": "scatternd_add_rows",
}
"""Op family -> the workload whose call (at 1/16 size) the first-call probe times."""


def first_call_probe(name: str, q: int) -> dict[str, float]:
    """In this (fresh) process: the first calls of one workload on the default ``auto`` backend.

    Calls repeat until the background compiles are done and a few more calls queue none:
    ``first_s`` the first call (numba's import starts then), ``max_s`` the slowest call meanwhile,
    ``ready_s`` when the kernels were ready, ``steady_s`` a call after that.
    """
    w = next(x for x in WORKLOADS if x.name == name)
    a = w.inputs(q)
    t_start = time.perf_counter()
    lat: list[float] = []
    quiet = 0
    while quiet < 3 and time.perf_counter() - t_start < 600:
        t0 = time.perf_counter()
        w.ours(a)
        lat.append(time.perf_counter() - t0)
        quiet = quiet + 1 if backends.wait_compiled(0) else 0
        if not quiet:
            time.sleep(0.2)  # leave the compiling child some CPU (2 cores)
    ready = time.perf_counter() - t_start
    steady = timeit(lambda: w.ours(a), min_time=0.2)
    backends.set_backend("numpy")
    numpy_s = timeit(lambda: w.ours(a), min_time=0.2)
    backends.set_backend("auto")
    return {"first_s": lat[0], "max_s": max(lat), "calls": len(lat), "ready_s": ready, "steady_s": steady,
            "numpy_s": numpy_s, "slowest": sorted(lat)[-5:]}


def first_calls(q: int) -> dict[str, dict[str, Any]]:
    """Per op family, fresh processes: cold (empty NUMBA_CACHE_DIR) then warm (the cache it left)."""
    res: dict[str, dict[str, Any]] = {}
    for fam, name in FIRST_CALL.items():
        with tempfile.TemporaryDirectory() as tmp:
            for label in ("cold", "warm"):
                try:
                    out = subprocess.run(
                        [sys.executable, __file__, "--first-call-probe", name, "--q", str(q)],
                        capture_output=True, text=True, timeout=900,
                        env={**os.environ, "NUMBA_CACHE_DIR": tmp}, check=True,
                    )
                    res.setdefault(fam, {"workload": name})[label] = json.loads(out.stdout.strip().splitlines()[-1])
                except Exception as exc:
                    res.setdefault(fam, {"workload": name})[label] = {"error": str(exc)[:80]}
    return res


# ---------------------------------------------------------------- main


def _secs(s: float | None) -> str:
    return "failed" if s is None else f"{s:.1f} s"


def fmt_t(s: float | None, approx: bool = False) -> str:
    if s is None:
        return "-"
    pre = "~" if approx else ""
    if s >= 1:
        return f"{pre}{s:.3g} s"
    if s >= 1e-3:
        return f"{pre}{s * 1e3:.3g} ms"
    return f"{pre}{s * 1e6:.3g} µs"


def run_workload(
    w: Workload, q: int, threads: list[int], have: dict[str, bool], with_ref: bool, size: int = 1,
    nospin: bool = True,
) -> dict[str, Any]:
    """One workload at 1/``size`` of its size (on top of the --quick divisor ``q``); ``nospin``: with
    ``ort{t}_nospin`` (informational) in the rounds."""
    a = w.inputs(q * size)
    label = w.name if size == 1 else f"{w.name} /{size}"
    rec: dict[str, Any] = {"name": label, "workload": w.name, "size": size, "times": {}, "checks": {}}
    cost: dict[str, float] = {}  # seconds each contestant took in this record (checks and rounds)
    backends.set_backend("numpy")

    def fresh() -> dict[str, np.ndarray]:
        # in-place and out= workloads write into their inputs: each check gets its own copy
        return {k: v.copy() for k, v in a.items()} if w.inplace or w.out_buffer else a

    ours = w.ours(fresh())
    if w.inplace:
        # in place must equal the out-of-place op (same values, data untouched there)
        rec["checks"]["out_of_place"] = agree(w, ours, gs.onnx.ScatterND(a["data"], a["indices"], a["updates"]))
    rec["MB_moved"] = w.moved(a, ours) / 1e6
    rec["checks"]["numpy"] = agree(w, ours, w.numpy(fresh()))
    limit = ours.nbytes + a["indices"].nbytes + 8 * ours.size
    rec["peak_extra_MB"] = peak_memory(lambda: w.ours(a)) / 1e6
    rec["memory_limit_MB"] = limit / 1e6
    if have["numba"]:
        backends.set_backend("numba")
        for t in threads:
            backends.set_num_threads(t)
            rec["checks"][f"numba{t}"] = agree(w, ours, w.ours(fresh())) and bool(np.array_equal(ours, w.ours(fresh())))
    if have["onnxruntime"] and not w.inplace:
        for t in threads:
            rec["checks"][f"ort{t}"] = agree(w, ours, Ort(w, a, t).result())
            if nospin and t > 1:
                t0 = time.perf_counter()
                rec["checks"][f"ort{t}_nospin"] = agree(w, ours, Ort(w, a, t, spin=False).result())
                cost[f"ort{t}_nospin"] = time.perf_counter() - t0
    if have["torch"] and w.torch is not None:
        import torch

        for t in threads:
            torch.set_num_threads(t)
            rec["checks"][f"torch{t}"] = agree(w, ours, torch_call(w, fresh())().numpy())
    pool.trim(0.0)
    tune: dict[str, Any] = {}
    times = interleaved(contestants(w, a, threads, have, nospin=nospin), cost=cost, tune=tune)
    rec["cost_s"] = cost
    rec["tuner"] = tune
    rec["pool_MB"] = pool.pool_stats()["bytes"] / 1e6  # the output pool's memory after the timing
    pool.trim(0.0)
    backends.set_backend("auto")
    rec["times"].update({k: statistics.median(v) for k, v in times.items()})
    rec["rounds"] = min(len(v) for v in times.values())
    # a peer that failed its check is not a reference: drop it from the ratios
    ok_times = {k: v for k, v in times.items() if rec["checks"].get(k.replace("ours_", ""), True)}
    rec["ratios"] = round_ratios(ok_times, threads)
    if with_ref and have["onnx"] and not w.inplace:
        t_ref, approx, note = ref_time(w, a)
        rec["times"]["ref"] = t_ref
        rec["ref_extrapolated"] = approx
        rec["ref_note"] = note
    return rec


PASSIVE_ENV = {"OMP_WAIT_POLICY": "PASSIVE"}
"""torch's intra-op pool is OpenMP (libgomp in the CPU wheels), whose threads spin after a parallel region
before they sleep; with this wait policy they sleep at once. libgomp reads it when it loads, so torch runs
with it only in a process started with it (:func:`passive_torch`)."""


def passive_probe(names: list[str], q: int, size: int, threads: list[int]) -> dict[str, dict[str, Any]]:
    """In this process (started with :data:`PASSIVE_ENV`): torch at each thread count above one, checked and
    interleaved with ours at that count. Per record name: times, checks, ratios (``numba{t}_torch_passive``)."""
    import torch

    res: dict[str, dict[str, Any]] = {}
    more = [t for t in threads if t > 1]
    for w in WORKLOADS:
        if w.name not in names or w.torch is None or not more:
            continue
        a = w.inputs(q * size)

        def fresh(w: Workload = w, a: dict[str, np.ndarray] = a) -> dict[str, np.ndarray]:
            return {k: v.copy() for k, v in a.items()} if w.inplace or w.out_buffer else a

        backends.set_backend("numpy")
        ours = w.ours(fresh())
        checks = {}
        for t in more:
            torch.set_num_threads(t)
            checks[f"torch{t}_passive"] = agree(w, ours, torch_call(w, fresh())().numpy())
        call = torch_call(w, a)
        cs = [c for c in contestants(w, a, more, {"numba": True}, numpy=False) if c[0] != "ours_numpy1"]
        cs += [(f"torch{t}_passive", call, lambda t=t: torch.set_num_threads(t)) for t in more]
        times = interleaved(cs)
        backends.set_backend("auto")
        rounds = min(len(v) for v in times.values())
        res[w.name if size == 1 else f"{w.name} /{size}"] = {
            "times": {f"torch{t}_passive": statistics.median(times[f"torch{t}_passive"]) for t in more},
            "checks": checks,
            "ratios": {f"numba{t}_torch_passive": statistics.median(
                times[f"ours_numba{t}"][r] / times[f"torch{t}_passive"][r] for r in range(rounds)) for t in more},
            "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", ""),
        }
    return res


def passive_torch(records: list[dict[str, Any]], q: int, size: int, threads: list[int]) -> None:
    """Run :func:`passive_probe` in a subprocess started with :data:`PASSIVE_ENV` on the records at 1/``size``
    and merge its times, checks and ratios into them (a failure is noted in the records, not raised)."""
    recs = {r["name"]: r for r in records if r.get("size", 1) == size}
    names = sorted({r["workload"] for r in recs.values()})
    if not names or not any(t > 1 for t in threads):
        return
    cmd = [sys.executable, __file__, "--passive-probe", "--only", ",".join(names), "--q", str(q),
           "--sizes", str(size), "--threads", ",".join(map(str, threads))]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env={**os.environ, **PASSIVE_ENV},
                             check=True)
        got = json.loads(out.stdout.strip().splitlines()[-1])
    except Exception as exc:
        for r in recs.values():
            r["passive_error"] = str(exc)[:200]
        return
    for name, d in got.items():
        if name in recs:
            for k in ("times", "checks", "ratios"):
                recs[name].setdefault(k, {}).update(d[k])
            recs[name]["omp_wait_policy"] = d["omp_wait_policy"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="leading dims and index counts divided by 32 (< 1 min)")
    p.add_argument("--threads", default="1,2", help="thread counts for the multi-threaded peers")
    p.add_argument("--only", default="", help="comma-separated workload names")
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    p.add_argument("--no-ref", action="store_true", help="skip onnx.reference")
    p.add_argument("--no-compile", action="store_true", help="skip the first-call probe (fresh processes)")
    p.add_argument("--sizes", default=None,
                   help="size divisors to run (default 1,2,16: full, half, 1/16; with --quick: 1)")
    p.add_argument("--nospin-sizes", default="1,16",
                   help="size divisors at which the informational spinning-off peers run (onnxruntime no-spin in the "
                   "rounds; torch OMP passive in a subprocess, at the largest of them); 'none': nowhere")
    p.add_argument("--first-call-probe", default="", help=argparse.SUPPRESS)
    p.add_argument("--passive-probe", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--q", type=int, default=16, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.first_call_probe:
        print(json.dumps(first_call_probe(args.first_call_probe, args.q)))
        return 0
    sizes = [int(x) for x in (args.sizes or ("1" if args.quick else "1,2,16")).split(",") if x]
    threads = [int(x) for x in args.threads.split(",") if x]
    if args.passive_probe:
        print(json.dumps(passive_probe(args.only.split(","), args.q, sizes[0], threads)))
        return 0
    q = 32 if args.quick else 1
    only = {x for x in args.only.split(",") if x}
    chosen = [w for w in WORKLOADS if not only or w.name in only]
    if only - {w.name for w in WORKLOADS}:
        p.error(f"unknown workload(s): {', '.join(sorted(only - {w.name for w in WORKLOADS}))}")

    have = {m: importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx", "torch", "numba", "rich")}
    env = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.system()}",
        "python": platform.python_version(),
        "versions": {"gatherscatter": gs.__version__, "numpy": np.__version__},
        "quick": args.quick,
        "threads": threads,
    }
    for mod in ("onnxruntime", "onnx", "torch", "numba"):
        if have[mod]:
            env["versions"][mod] = __import__(mod).__version__
    with contextlib.suppress(importlib.metadata.PackageNotFoundError):
        env["versions"]["tbb"] = importlib.metadata.version("tbb")  # numba's tbb threading layer, when it loads
    env["bandwidth"] = bandwidth(args.quick)
    env["sizes"] = sizes
    env["first_call"] = first_calls(16) if have["numba"] and not args.no_compile else {}
    nospin_sizes = [] if args.nospin_sizes == "none" else [int(x) for x in args.nospin_sizes.split(",") if x]
    nospin_sizes = [z for z in sizes if z in nospin_sizes]
    t_run = time.perf_counter()
    records = []
    progress = None
    if have["rich"] and not args.quick and sys.stdout.isatty():
        from rich.progress import Progress

        progress = Progress()
        progress.start()
        task = progress.add_task("workloads", total=len(chosen) * len(sizes))
    try:
        for size in sizes:
            for w in chosen:
                if progress is None:
                    print(f"... {w.name} /{size}", file=sys.stderr, flush=True)
                # onnx.reference only at full size (it is capped and extrapolated anyway)
                records.append(run_workload(w, q, threads, have, with_ref=not args.no_ref and size == 1, size=size,
                                            nospin=size in nospin_sizes))
                if progress is not None:
                    progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    if have["torch"] and have["numba"] and nospin_sizes:
        t0 = time.perf_counter()
        print(f"... torch with {PASSIVE_ENV} (subprocess, /{max(nospin_sizes)})", file=sys.stderr, flush=True)
        passive_torch(records, q, max(nospin_sizes), threads)
        env["passive_s"] = time.perf_counter() - t0
    env["workloads_s"] = time.perf_counter() - t_run  # the records' time, the passive subprocess included
    if have["numba"]:
        import numba

        with contextlib.suppress(ValueError):  # no parallel region ran
            env["numba_layer"] = numba.threading_layer()
    md = render(env, records, threads)
    print(md)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = ("quick" if args.quick else "full") if not only else "partial"  # a subset never overwrites a full run
    (out / f"{stem}.md").write_text(md)
    (out / f"{stem}.json").write_text(json.dumps({"env": env, "records": records}, indent=1, default=float))
    bad = [r["name"] + ":" + k for r in records for k, ok in r["checks"].items() if not ok]
    if bad:
        print("disagreements (excluded from 'best'): " + ", ".join(bad), file=sys.stderr)
    return 0


def render(env: dict[str, Any], records: list[dict[str, Any]], threads: list[int]) -> str:
    bw = env["bandwidth"]
    lines = [
        f"Run {env['date']} on {env['machine']}, Python {env['python']}; "
        + ", ".join(f"{k} {v}" for k, v in env["versions"].items())
        + (" (quick sizes: /32)" if env["quick"] else "")
        + (f"; numba threading layer {env['numba_layer']}" if env.get("numba_layer") else "")
        + ".",
        "",
        f"Bandwidth probe (same run): copy {bw['copy_GBps']:.1f} GB/s (read+write), "
        f"random 256 B row gather {bw['random_row_gather_GBps']:.1f} GB/s.",
    ]
    if env.get("compile"):  # runs before session 6
        c = env["compile"]
        lines.append(f"numba kernels, first use in a fresh process: cold compile {_secs(c.get('cold_s'))}, "
                     f"cached {_secs(c.get('warm_s'))}.")
    cols = ["ours_numpy1"] + [f"ours_numba{t}" for t in threads] + [f"ort{t}" for t in threads]
    cols += [f"torch{t}" for t in threads] + ["numpy", "ref"]
    head = "| workload | MB moved | " + " | ".join(cols) + " | best peer | GB/s (ours best) | mem peak / limit MB |"
    lines += ["", head, "|---" * (len(cols) + 5) + "|"]
    for r in records:
        t = r["times"]
        ok = r["checks"]
        peers = {k: v for k, v in t.items() if is_peer(k) and v and ok.get(k, True)}
        best_name = min(peers, key=peers.__getitem__) if peers else None
        ours_best = min(v for k, v in t.items() if k.startswith("ours") and v)
        cells = []
        for c in cols:
            v = t.get(c)
            s = fmt_t(v, c == "ref" and r.get("ref_extrapolated", False))
            if c == "ref" and r.get("ref_note"):
                s = r["ref_note"][:20]
            if c in ok and not ok[c]:
                s += " WRONG"
            cells.append(s)
        gbps = r["MB_moved"] / 1e3 / ours_best
        best = f"{best_name} {fmt_t(peers[best_name])}" if best_name else "-"
        lines.append(f"| {r['name']} | {r['MB_moved']:.0f} | " + " | ".join(cells)
                     + f" | {best} | {gbps:.1f} | {r['peak_extra_MB']:.0f} / {r['memory_limit_MB']:.0f} |")
    lines += ["", "Ratios (ours / the faster of onnxruntime and torch at the same thread count, the median over "
              "rounds of each round's ratio: every contestant runs once per round, in turn; < 1 is faster):", "",
              "| workload | numpy1 / best(ort1, torch1) | " + " | ".join(
                  f"numba{t} / best(ort{t}, torch{t})" for t in threads) + " | ref / ours best | % of copy BW |",
              "|---" * (3 + len(threads) + 1) + "|"]
    for r in records:
        t, ok = r["times"], r["checks"]

        def best(th: int, t: dict[str, Any] = t, ok: dict[str, bool] = ok) -> float | None:
            vals = [t[k] for k in (f"ort{th}", f"torch{th}") if t.get(k) and ok.get(k, True)]
            return min(vals) if vals else None

        rat = r.get("ratios")
        if rat is None:  # an older run: ratios of the medians
            b1 = best(1)
            rat = {"numpy1": t["ours_numpy1"] / b1} if b1 else {}
            for th in threads:
                bt, mine = best(th), t.get(f"ours_numba{th}")
                if bt and mine:
                    rat[f"numba{th}"] = mine / bt
        row = [f"{rat['numpy1']:.2f}" if "numpy1" in rat else "-"]
        row += [f"{rat[f'numba{th}']:.2f}" if f"numba{th}" in rat else "-" for th in threads]
        ours_best = min(v for k, v in t.items() if k.startswith("ours") and v)
        ref = t.get("ref")
        row.append(f"{ref / ours_best:.0f}" if ref else "-")
        row.append(f"{_copy_share(r, bw['copy_GBps']):.0%}")
        lines.append(f"| {r['name']} | " + " | ".join(row) + " |")
    lines += render_sweep(records, threads, bw["copy_GBps"])
    lines += render_scaling(records, threads) + render_spin(records, threads, env)
    lines += render_first_calls(env.get("first_call") or {})
    lines += render_targets(records, threads, bw["copy_GBps"], env.get("first_call") or {})
    return "\n".join(lines) + "\n"


SCALE_LIMIT = 1.05  # ours at t threads / ours at 1 thread
PEER_LIMIT = 1.0  # the accelerated path / the best of onnxruntime and torch at the same thread count
NUMPY_LIMIT = 1.5  # the NumPy path at 1 thread / the best peer at 1 thread
STREAM_SHARE = 0.5  # a streaming gather's compulsory traffic / the copy probe's bandwidth
FIRST_CALL_LIMIT = 0.5  # seconds a call may wait beyond a steady NumPy-path call


def _copy_share(r: dict[str, Any], copy_gbps: float) -> float:
    """A record's compulsory traffic at its fastest accelerated time, as a share of the copy probe's bandwidth."""
    ours = min(v for k, v in r["times"].items() if k.startswith("ours") and v)
    return r["MB_moved"] / 1e3 / ours / copy_gbps


def _streaming(r: dict[str, Any]) -> bool:
    return any(w.streaming for w in WORKLOADS if w.name == r.get("workload", r["name"]))


def _over(rat: dict[str, Any], key: str, limit: float) -> str:
    """A ratio cell, **bold** above ``limit``."""
    if key not in rat:
        return "-"
    return f"**{rat[key]:.2f}**" if rat[key] > limit else f"{rat[key]:.2f}"


def render_sweep(records: list[dict[str, Any]], threads: list[int], copy_gbps: float) -> list[str]:
    """The size sweep: per workload, each target's ratio at every size of the run, side by side."""
    sizes = sorted({r.get("size", 1) for r in records})
    if len(sizes) < 2:
        return []
    by = {(r.get("workload", r["name"]), r.get("size", 1)): r for r in records}
    names = list(dict.fromkeys(r.get("workload", r["name"]) for r in records))
    groups = [("NumPy 1T", "numpy1", NUMPY_LIMIT)] + [(f"accelerated {t}T", f"numba{t}", PEER_LIMIT) for t in threads]
    head = [f"{g}: {_size(z)}" if i == 0 else _size(z) for g, _, _ in groups for i, z in enumerate(sizes)]
    head += [f"% of copy: {_size(z)}" if i == 0 else _size(z) for i, z in enumerate(sizes)]
    lines = ["", "Size sweep (ours / the best of onnxruntime and torch at the same thread count, the median of the "
             f"rounds' ratios; **bold** above the target: {NUMPY_LIMIT} for the NumPy path, {PEER_LIMIT} for the "
             f"accelerated path, under {STREAM_SHARE:.0%} of the copy probe for a streaming gather):", "",
             "| workload | " + " | ".join(head) + " |", "|---" * (1 + len(head)) + "|"]
    for n in names:
        cells = [_over(by.get((n, z), {}).get("ratios", {}), key, limit) for _, key, limit in groups for z in sizes]
        for z in sizes:
            r = by.get((n, z))
            if r is None or not _streaming(r):
                cells.append("-")
                continue
            share = _copy_share(r, copy_gbps)
            cells.append(f"**{share:.0%}**" if share < STREAM_SHARE else f"{share:.0%}")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def render_targets(records: list[dict[str, Any]], threads: list[int], copy_gbps: float,
                   fc: dict[str, dict[str, Any]]) -> list[str]:
    """The issue's targets, each with the rows that miss it (workload and size, the ratio)."""
    checks: list[tuple[str, list[str]]] = []
    more = [t for t in threads if t != 1]

    def misses(key: str, limit: float) -> list[str]:
        got = ((r["name"], r.get("ratios", {}).get(key)) for r in records)
        return [f"{name} {v:.2f}" for name, v in got if v is not None and v > limit]

    for t in more:
        checks.append((f"ours at {t} threads / ours at 1 thread <= {SCALE_LIMIT}", misses(f"scale{t}", SCALE_LIMIT)))
    if fc:
        worst = _longest_wait(fc)
        checks.append((f"no call waits over {FIRST_CALL_LIMIT} s for compilation (longest: {fmt_t(worst[0])})",
                       [f"{worst[1]} {worst[2]} {fmt_t(worst[0])}"] if worst[0] > FIRST_CALL_LIMIT else []))
    for t in threads:
        checks.append((f"accelerated at {t} thread{'s' if t > 1 else ''} <= {PEER_LIMIT}x the best peer",
                       misses(f"numba{t}", PEER_LIMIT)))
    checks.append((f"NumPy path at 1 thread <= {NUMPY_LIMIT}x the best peer", misses("numpy1", NUMPY_LIMIT)))
    low = [f"{r['name']} {_copy_share(r, copy_gbps):.0%}" for r in records
           if _streaming(r) and _copy_share(r, copy_gbps) < STREAM_SHARE]
    checks.append((f"streaming gathers >= {STREAM_SHARE:.0%} of the copy bandwidth", low))
    lines = ["", "Targets (rows over each, with their ratio):", "", "| target | rows over | which |", "|---|---|---|"]
    for what, over in checks:
        lines.append(f"| {what} | {len(over)} | {', '.join(over) or 'met'} |")
    return lines


def _size(z: int) -> str:
    return "full" if z == 1 else f"1/{z}"


def _grid(records: list[dict[str, Any]], names: list[str], sizes: list[int], more: list[int], title: str,
          suffix: str, cell: Callable[[dict[str, Any], str, int, int], str]) -> list[str]:
    """A table of one row per workload and one column per (size, thread count above one): ``cell(record,
    workload, size, threads)`` each (the record {} where that run has none)."""
    by = {(r.get("workload", r["name"]), r.get("size", 1)): r for r in records}
    head = " | ".join(f"{_size(z)} {t}T{suffix}" for z in sizes for t in more)
    lines = ["", title, "", "| workload | " + head + " |", "|---" * (1 + len(sizes) * len(more)) + "|"]
    for n in names:
        lines.append(f"| {n} | " + " | ".join(cell(by.get((n, z), {}), n, z, t) for z in sizes for t in more) + " |")
    return lines


def render_scaling(records: list[dict[str, Any]], threads: list[int]) -> list[str]:
    """Thread scaling of the accelerated path: numba{t} / numba1 per workload and size (round medians)."""
    more = [t for t in threads if t != 1]
    if not more:
        return []
    sizes = sorted({r.get("size", 1) for r in records})
    names = list(dict.fromkeys(r.get("workload", r["name"]) for r in records))
    flagged = []

    def cell(r: dict[str, Any], n: str, z: int, t: int) -> str:
        v = r.get("ratios", {}).get(f"scale{t}")
        t1, tt = r.get("times", {}).get("ours_numba1"), r.get("times", {}).get(f"ours_numba{t}")
        if v is None and t1 and tt:  # a run before session 6: the ratio of the medians
            v = tt / t1
        if v is None:
            return "-"
        if v > SCALE_LIMIT:
            flagged.append(f"{n} {_size(z)} {t}T")
            return f"**{v:.2f}**"
        return f"{v:.2f}"

    lines = _grid(records, names, sizes, more, "Thread scaling of the accelerated path (ours at t threads / ours at "
                  f"1 thread, median of the rounds' ratios; **bold** above {SCALE_LIMIT}):", "/1T", cell)
    lines += ["", f"Slower with more threads (> {SCALE_LIMIT}): " + (", ".join(flagged) if flagged else "none") + "."]
    if any(r.get("tuner") for r in records):
        lines += _grid(records, names, sizes, more, "The thread tuner's measurements in the warm-up (per kernel: the "
                       "thread count each measurement chose, oldest first; two agreeing make it final), and after "
                       "`+` its revisits of the final choice during the timed rounds:", "", votes)
    return lines


def votes(r: dict[str, Any], n: str, z: int, t: int) -> str:
    """The thread tuner's measurements behind ours at t threads: per kernel, each measurement's choice."""
    got = r.get("tuner", {}).get(f"ours_numba{t}", {})
    later = r.get("tuner", {}).get(f"ours_numba{t}_rounds", {})
    cells = []
    for k in list(got) + [k for k in later if k not in got]:
        cell = " ".join([k.split("@")[0], ",".join(map(str, got.get(k, [])))]).rstrip()
        if later.get(k):
            cell += f" + {','.join(map(str, later[k]))}"
        cells.append(cell)
    return "; ".join(cells) or "-"


def render_spin(records: list[dict[str, Any]], threads: list[int], env: dict[str, Any] | None = None) -> list[str]:
    """The spinning-pool table (informational): the peers with their pools' spinning off, per record that has them.

    Ratios are medians of per-round ratios: ``ort{t}_nospin`` ran in the run's rounds, ``torch{t}_passive`` in
    a subprocess's own rounds beside ours (its time is that process's, not comparable with the main table's).
    """
    more = [t for t in threads if t != 1]
    keys = [f"ort{t}_nospin" for t in more] + [f"torch{t}_passive" for t in more]
    rows = [r for r in records if any(k in r["times"] for k in keys)]
    if not rows:
        return []
    cols: list[tuple[str, str, str]] = []  # (header, times key, ratios key): a ratio cell when the ratios key is set
    for t in more:
        cols += [(f"ort{t}", f"ort{t}", ""), (f"ort{t} no-spin", f"ort{t}_nospin", ""),
                 (f"ours{t} / ort{t} no-spin", f"ort{t}_nospin", f"numba{t}_ort_nospin"),
                 (f"ort{t} / ort{t} no-spin", f"ort{t}_nospin", f"ort{t}_spin_gain"),
                 (f"torch{t} passive", f"torch{t}_passive", ""),
                 (f"ours{t} / torch{t} passive", f"torch{t}_passive", f"numba{t}_torch_passive")]
    lines = ["", "Spinning thread pools (informational, not in 'best peer'): onnxruntime with "
             f"`{ORT_SPIN_KEY}` = 0 (its workers block between calls instead of spinning), in the same rounds; "
             f"torch with {' '.join(f'{k}={v}' for k, v in PASSIVE_ENV.items())} (libgomp's workers sleep at once), "
             "in a subprocess beside ours at the run's smallest size (ratios from that process's rounds). "
             "Ratios are medians of per-round ratios; < 1: the numerator is faster:", "",
             "| workload | " + " | ".join(c[0] for c in cols) + " |", "|---" * (1 + len(cols)) + "|"]
    for r in rows:
        t, ok, rat = r["times"], r["checks"], r.get("ratios", {})
        cells = []
        for _, tk, rk in cols:
            if tk not in t or (rk and rk not in rat and ok.get(tk, True)):
                cells.append("-")
            elif not ok.get(tk, True):
                cells.append("WRONG")
            else:
                cells.append(f"{rat[rk]:.2f}" if rk else fmt_t(t[tk]))
        lines.append(f"| {r['name']} | " + " | ".join(cells) + " |")
    env = env or {}
    spent = sum(v for r in records for k, v in r.get("cost_s", {}).items() if k in keys) + env.get("passive_s", 0.0)
    if env.get("workloads_s"):
        lines += ["", f"These informational peers took {spent:.0f} s of the workloads' {env['workloads_s']:.0f} s "
                  f"(no-spin rounds {spent - env.get('passive_s', 0.0):.0f} s, passive subprocess "
                  f"{env.get('passive_s', 0.0):.0f} s)."]
    errs = sorted({r["passive_error"] for r in records if r.get("passive_error")})
    if errs:
        lines += ["", "torch passive subprocess failed: " + "; ".join(errs)]
    return lines


def _longest_wait(fc: dict[str, dict[str, Any]]) -> tuple[float, str, str]:
    """The first-call probes' longest call beyond a steady NumPy-path call: (seconds, op family, cold or warm)."""
    return max(((c["max_s"] - c.get("numpy_s", c["steady_s"]), fam, label) for fam, d in fc.items()
                for label, c in d.items() if isinstance(c, dict) and "max_s" in c), default=(0.0, "", ""))


def render_first_calls(fc: dict[str, dict[str, Any]]) -> list[str]:
    """The first-call table: per op family, fresh processes, cold (empty numba cache) and warm."""
    if not fc:
        return []
    lines = ["", "First calls on the default backend, fresh process per cell (workload at 1/16 size; cold: empty "
             "NUMBA_CACHE_DIR; warm: the cache the cold process left). first = the first call (numba is imported "
             "and the kernels compile in the background meanwhile: calls run on the NumPy path), max = the slowest "
             "call until the kernels were ready, ready = seconds until then, steady = a call after:", "",
             "| op family | workload | cold first | cold max | cold ready | warm first | warm max | warm ready "
             "| steady | NumPy path |", "|---" * 10 + "|"]
    for fam, d in fc.items():
        cells = []
        for label in ("cold", "warm"):
            c = d.get(label, {})
            if "error" in c or not c:
                cells += ["failed", "-", "-"]
                continue
            cells += [fmt_t(c["first_s"]), fmt_t(c["max_s"]), _secs(c["ready_s"])]
        steady, npy = d.get("warm", {}).get("steady_s"), d.get("warm", {}).get("numpy_s")
        tail = f" | {fmt_t(steady)} | {fmt_t(npy)} |"
        lines.append(f"| {fam} | {d.get('workload', '')} | " + " | ".join(cells) + tail)
    lines += ["", f"Longest call beyond a steady NumPy-path call, any family: {fmt_t(_longest_wait(fc)[0])} "
              "(target: no wait over 0.5 s for compilation; a call waits at most backends.WAIT_S = 0.05 s for it, "
              "the rest is the NumPy path's own time, first-touch page faults and the CPU the background compile "
              "takes)."]
    return lines


if __name__ == "__main__":
    sys.exit(main())
