"""Interleaved A/B timing for a noisy, shared machine: ratios of ours to the peers, side by side.

    python benchmarks/ab.py NAME[,NAME] [--threads 1,2] [--reps 9] [--quick] [--size N] [--nospin] [--noplans]

For each workload, every contestant (gatherscatter NumPy path at 1 thread, numba
path at each thread count, onnxruntime and torch at each thread count) is called
once per round, in turn, for ``--reps`` rounds; a foreign load then slows all of
a round's calls alike. It prints each contestant's median and the median over
rounds of the per-round ratio ours / best(ort, torch) at equal thread count (the
numbers the targets are about). Results are checked as in run.py first. ``--nospin`` adds onnxruntime
with its pool's spinning off at each thread count above one (informational, as in run.py); ``--noplans``
adds ours on the kernels without call plans (``numba{t}_noplan``: ours / the best peer at t threads).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import agree, contestants, interleaved, round_ratios
from workloads import WORKLOADS, Workload

from gatherscatter import backends
from gatherscatter.core import plans


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


def ab(w: Workload, q: int, threads: list[int], reps: int, nospin: bool = False,
       noplans: bool = False) -> dict[str, Any]:
    a = w.inputs(q)
    check(w, a, threads)
    have = {"numba": True, "onnxruntime": True, "torch": True}
    try:
        cs = contestants(w, a, threads, have, numpy=False, nospin=nospin)
        if noplans:  # ours without call plans, beside ours with them (core/plans.py)
            def with_plans(setup: Any, on: bool) -> Any:
                return lambda: (setup(), plans.set_enabled(on))
            ours = [c for c in cs if c[0].startswith("ours_numba")]
            cs = [(n, c, with_plans(s, True)) if n.startswith("ours_numba") else (n, c, s) for n, c, s in cs]
            cs += [(f"{n}_noplan", c, with_plans(s, False)) for n, c, s in ours]
        times = interleaved(cs, min_rounds=reps, max_rounds=reps, min_time=0.0)
    finally:
        backends.set_backend("auto")
        plans.set_enabled(True)
    ratio = round_ratios(times, threads)
    if noplans:
        for t in threads:
            noplan = {k.replace("_noplan", ""): v for k, v in times.items() if not k.startswith("ours_numba")
                      or k.endswith("_noplan")}
            ratio[f"numba{t}_noplan"] = round_ratios(noplan, [t]).get(f"numba{t}", float("nan"))
    return {"name": w.name, "median": {n: statistics.median(v) for n, v in times.items()}, "ratio": ratio}


def fmt(s: float) -> str:
    return f"{s * 1e3:.3g} ms" if s >= 1e-3 else f"{s * 1e6:.3g} µs"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--size", type=int, default=1, help="size divisor, as run.py --sizes (2: half, 16: 1/16)")
    p.add_argument("--nospin", action="store_true", help="also onnxruntime with spinning off (informational)")
    p.add_argument("--noplans", action="store_true", help="also ours without call plans (GATHERSCATTER_PLANS=0)")
    args = p.parse_args(argv)
    threads = [int(x) for x in args.threads.split(",") if x]
    names = args.names.split(",")
    by_name = {w.name: w for w in WORKLOADS}
    for n in names:
        if n not in by_name:
            p.error(f"unknown workload {n}")
        r = ab(by_name[n], (32 if args.quick else 1) * args.size, threads, args.reps, args.nospin, args.noplans)
        med = ", ".join(f"{k} {fmt(v)}" for k, v in r["median"].items())
        rat = ", ".join(f"{k} {v:.2f}" for k, v in r["ratio"].items())
        print(f"{n}: {med}\n  ratio ours/best peer (median of per-round ratios): {rat}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
