"""Measure gatherscatter's reference ops against the stock onnx.reference evaluator (not a test).

The perf-anchor workloads of ``benchmarks/workloads.py`` (docs/semantics.md#s9) as one-node
opset-18 models, sizes divided by ``--reduce`` (default 8: the machine is shared). Each round
runs the stock evaluator, then the evaluator with gatherscatter's ops (and, with ``--parts``,
the direct ``gs.onnx`` call and the kernel parts of ``benchmarks/parts.py``), one after the
other (interleaved A/B: a foreign load slows a round's runs alike); the ratio is the median
over rounds of stock / ours. gatherscatter gets one warm-up run first (it loads or compiles
the numba kernels). Outputs are compared with the stock evaluator's and onnxruntime's (one
thread). Prints a Markdown table.

    PYTHONPATH=src python tests/onnxtools/measure_speed.py [--reduce 8] [--threads 1] [--rounds 3]
                                                          [--only NAME] [--parts]
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
from onnx import helper
from onnx.reference import ReferenceEvaluator

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from workloads import WORKLOADS, Workload

import gatherscatter as gs
from gatherscatter.onnxtools.reference_ops import reference_ops


def workloads() -> list[Workload]:
    """The perf-anchor workloads that are plain ONNX calls (no in-place or out= variants)."""
    return [w for w in WORKLOADS if not (w.inplace or w.out_buffer)]


def model(w: Workload, arrays: list[np.ndarray]) -> Any:
    names = list(w.onnx_inputs)
    vi = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
          for n, a in zip(names, arrays, strict=True)]
    out = helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(arrays[0].dtype), None)
    graph = helper.make_graph([helper.make_node(w.op, names, ["y"], **w.attrs)], "g", vi, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    try:
        out = fn()
    except Exception as exc:
        return time.perf_counter() - t, exc
    return time.perf_counter() - t, out


def same_as_ort(m: Any, feeds: dict[str, np.ndarray], ours: Any) -> str:
    """Whether onnxruntime (one thread: its 2-thread ScatterND add races) gives our output exactly."""
    try:
        import onnxruntime as ort
    except ImportError:
        return "-"
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return "yes" if np.array_equal(sess.run(None, feeds)[0], ours) else "NO"


def kernel_parts(w: Workload, a: dict[str, np.ndarray], threads: int) -> list[tuple[str, Callable[[], Any]]]:
    """benchmarks/parts.py's split of the numba path (copy, check, kernel ...), on these inputs."""
    from parts import parts

    from gatherscatter.backends import numba_kernels

    return [(n, f) for n, f in parts(w, a, numba_kernels, threads) if n != "total"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reduce", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only")
    ap.add_argument("--parts", action="store_true", help="also time the gs.onnx call and the kernel parts")
    ap.add_argument("--threads", type=int, default=1, help="gs.set_num_threads")
    args = ap.parse_args()
    gs.set_num_threads(args.threads)
    print(f"| workload (sizes / {args.reduce}) | stock onnx.reference | gatherscatter ops, {args.threads} thread(s) "
          "| ratio (median of rounds) | = stock | = onnxruntime (1 thread) |")
    print("|---|--:|--:|--:|---|---|")
    for w in workloads():
        if not args.only or args.only in w.name:
            measure(w, args)


def measure(w: Workload, args: argparse.Namespace) -> None:
    """One row of the table (and, with ``--parts``, the parts below it)."""
    a = w.inputs(args.reduce)
    arrays = [a[n] for n in w.onnx_inputs]
    m = model(w, arrays)
    feeds = dict(zip(w.onnx_inputs, arrays, strict=True))
    ours_ev, stock_ev = ReferenceEvaluator(m, new_ops=reference_ops()), ReferenceEvaluator(m)
    _, ours = timed(lambda: ours_ev.run(None, feeds)[0])  # warm-up: loads (or compiles) the numba kernels
    _, stock = timed(lambda: stock_ev.run(None, feeds)[0])
    fn = getattr(gs.onnx, w.op)
    runs: list[tuple[str, Callable[[], Any]]] = [("ours", lambda: ours_ev.run(None, feeds))]
    if not isinstance(stock, Exception):
        runs.insert(0, ("stock", lambda: stock_ev.run(None, feeds)))
    if args.parts:
        runs += [("gs.onnx direct", lambda: fn(*arrays, **w.attrs, opset=18))]
        runs += kernel_parts(w, a, args.threads)
    times: dict[str, list[float]] = {n: [] for n, _ in runs}
    gc.disable()
    try:
        for _ in range(args.rounds):
            for n, f in runs:
                times[n].append(timed(f)[0])  # outputs dropped, as in a model
    finally:
        gc.enable()
    ours_t = statistics.median(times["ours"])
    if isinstance(stock, Exception):
        cell, same, ratio = f"fails ({type(stock).__name__}: {str(stock)[:60]})", "-", "-"
    else:
        stock_t = statistics.median(times["stock"])
        cell = f"{stock_t:.2f} s"
        same = "yes" if np.array_equal(stock, ours) else ("close" if np.allclose(stock, ours, rtol=1e-5) else "NO")
        r = statistics.median(s / o for s, o in zip(times["stock"], times["ours"], strict=True))
        ratio = f"**{r:.0f}x**" if stock_t > 1 else f"{r:.0f}x"
    print(f"| {w.name} | {cell} | {ours_t * 1000:.1f} ms | {ratio} | {same} | {same_as_ort(m, feeds, ours)} |",
          flush=True)
    if args.parts:
        for n in times:
            if n not in ("stock", "ours"):
                print(f"|   {n} | | {statistics.median(times[n]) * 1000:.1f} ms | | | |", flush=True)

if __name__ == "__main__":
    main()
