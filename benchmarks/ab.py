"""Interleaved A/B timing for a noisy, shared machine: ratios of ours to the peers, side by side.

    python benchmarks/ab.py NAME[,NAME] [--threads 1,2] [--reps 9] [--quick]

For each workload, every contestant (gatherscatter NumPy path at 1 thread, numba
path at each thread count, onnxruntime and torch at each thread count) is called
once per round, in turn, for ``--reps`` rounds; a foreign load then slows all of
a round's calls alike. It prints each contestant's median and the median over
rounds of the per-round ratio ours / best(ort, torch) at equal thread count (the
numbers the targets are about). Results are checked as in run.py first.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Ort, agree, torch_call
from workloads import WORKLOADS, Workload

from gatherscatter import backends

Contestant = tuple[str, Callable[[], Any], Callable[[], None]]


def contestants(w: Workload, a: dict[str, np.ndarray], threads: list[int]) -> list[Contestant]:
    """(name, call, setup) triples; setup selects backend/threads outside the timed call."""
    import numba
    import torch

    res: list[Contestant] = []

    def numpy_setup() -> None:
        backends.set_backend("numpy")

    res.append(("ours_numpy1", lambda: w.ours(a), numpy_setup))
    for t in threads:
        def numba_setup(t: int = t) -> None:
            backends.set_backend("numba")
            backends.set_num_threads(t)
        res.append((f"ours_numba{t}", lambda: w.ours(a), numba_setup))
    if not w.inplace:
        for t in threads:
            ort = Ort(w, a, t)
            res.append((f"ort{t}", ort.run, lambda: None))
    if w.torch is not None:
        call = torch_call(w, a)
        for t in threads:
            def torch_setup(t: int = t) -> None:
                torch.set_num_threads(t)
            res.append((f"torch{t}", call, torch_setup))
    del numba
    return res


def check(w: Workload, a: dict[str, np.ndarray], threads: list[int]) -> None:
    backends.set_backend("numpy")
    ref = w.ours({k: v.copy() for k, v in a.items()} if w.inplace or w.out_buffer else a)
    for t in threads:
        backends.set_backend("numba")
        backends.set_num_threads(t)
        got = w.ours({k: v.copy() for k, v in a.items()} if w.inplace or w.out_buffer else a)
        if not np.array_equal(got, ref):
            raise SystemExit(f"{w.name}: numba path at {t} threads differs from the NumPy path")
    if not agree(w, ref, w.numpy({k: v.copy() for k, v in a.items()} if w.inplace or w.out_buffer else a)):
        raise SystemExit(f"{w.name}: the plain NumPy formulation disagrees")


def ab(w: Workload, q: int, threads: list[int], reps: int) -> dict[str, Any]:
    a = w.inputs(q)
    check(w, a, threads)
    cs = contestants(w, a, threads)
    times: dict[str, list[float]] = {n: [] for n, _, _ in cs}
    for _, call, setup in cs:  # warm-up
        setup()
        call()
    gc.disable()
    try:
        for _ in range(reps):
            for name, call, setup in cs:
                setup()
                time.sleep(0.02)  # let the previous contestant's worker threads stop spinning
                t0 = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - t0)
    finally:
        gc.enable()
        backends.set_backend("auto")
    out: dict[str, Any] = {"name": w.name, "median": {n: statistics.median(v) for n, v in times.items()}}
    ratios: dict[str, float] = {}
    for t in threads:
        peers = [n for n in (f"ort{t}", f"torch{t}") if n in times]
        if not peers:
            continue
        per_round = [min(times[p][r] for p in peers) for r in range(reps)]
        ratios[f"numba{t}"] = statistics.median(x / y for x, y in zip(times[f"ours_numba{t}"], per_round, strict=True))
        if t == 1:
            ratios["numpy1"] = statistics.median(
                x / y for x, y in zip(times["ours_numpy1"], per_round, strict=True)
            )
    out["ratio"] = ratios
    return out


def fmt(s: float) -> str:
    return f"{s * 1e3:.3g} ms" if s >= 1e-3 else f"{s * 1e6:.3g} µs"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    threads = [int(x) for x in args.threads.split(",") if x]
    names = args.names.split(",")
    by_name = {w.name: w for w in WORKLOADS}
    for n in names:
        if n not in by_name:
            p.error(f"unknown workload {n}")
        r = ab(by_name[n], 32 if args.quick else 1, threads, args.reps)
        med = ", ".join(f"{k} {fmt(v)}" for k, v in r["median"].items())
        rat = ", ".join(f"{k} {v:.2f}" for k, v in r["ratio"].items())
        print(f"{n}: {med}\n  ratio ours/best peer (median of per-round ratios): {rat}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
