"""Measure gatherscatter's reference ops against the stock onnx.reference evaluator (not a test).

One-node models of the perf-anchor workloads (/work/shared/perf/perf-anchors.md docs/semantics.md#s9),
leading dimensions and index counts divided by ``--reduce`` (default 8: the machine is
shared). Each workload: the stock evaluator once, gatherscatter's ops the median of 3 runs, the
outputs compared for equality. Prints a Markdown table. gatherscatter gets one warm-up
run first (it loads or compiles the numba kernels).

    PYTHONPATH=src python tests/onnxtools/measure_speed.py [--reduce 8] [--threads 1] [--only NAME]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
from onnx import helper
from onnx.reference import ReferenceEvaluator

from gatherscatter.onnxtools.reference_ops import reference_ops


def workloads(r: int) -> list[tuple[str, str, dict[str, Any], list[np.ndarray]]]:
    rng = np.random.default_rng(1)
    f32, i64 = np.float32, np.int64

    def rnd(*shape: int) -> np.ndarray:
        return rng.random(shape, dtype=f32)

    n = 4096 // r
    perm = np.argsort(rng.random((n, 4096)), axis=1)
    seg = np.repeat(rng.integers(0, 10000 // r, (500000 // r, 1)), 64, axis=1)
    return [
        ("gather_rows", "Gather", {"axis": 0}, [rnd(1000000 // r, 64), rng.integers(0, 1000000 // r, 2000000 // r)]),
        ("gather_axis1", "Gather", {"axis": 1}, [rnd(64 // r, 4096, 256), rng.integers(0, 4096, 2048)]),
        ("gather_elements_last", "GatherElements", {"axis": -1}, [rnd(n, 4096), rng.integers(0, 4096, (n, 4096))]),
        ("gather_elements_topk", "GatherElements", {"axis": -1}, [rnd(n, 4096), rng.integers(0, 4096, (n, 32))]),
        ("gathernd_elem", "GatherND", {}, [rnd(8192 // 4, 8192 // 4), rng.integers(0, 8192 // 4, (4000000 // r, 2))]),
        ("gathernd_rows", "GatherND", {}, [rnd(256 // r, 1024, 128),
                                            np.stack([rng.integers(0, 256 // r, 262144 // r),
                                                      rng.integers(0, 1024, 262144 // r)], axis=1)]),
        ("gathernd_batch1", "GatherND", {"batch_dims": 1}, [rnd(64 // r, 4096, 256),
                                                              rng.integers(0, 4096, (64 // r, 1024, 1))]),
        ("scatter_elements_none_last", "ScatterElements", {"axis": -1}, [rnd(n, 4096), perm, rnd(n, 4096)]),
        ("scatter_elements_add_axis0", "ScatterElements", {"axis": 0, "reduction": "add"},
         [np.zeros((10000 // r, 64), f32), seg, rnd(500000 // r, 64)]),
        ("scatter_elements_max_axis0", "ScatterElements", {"axis": 0, "reduction": "max"},
         [rnd(10000 // r, 64), seg, rnd(500000 // r, 64)]),
        ("scatter_elements_add_last", "ScatterElements", {"axis": -1, "reduction": "add"},
         [np.zeros((n, 1024), f32), rng.integers(0, 1024, (n, 4096)), rnd(n, 4096)]),
        ("scatternd_none_rows", "ScatterND", {}, [rnd(262144 // r, 256),
                                                   rng.permutation(262144 // r)[: 16384 // r].reshape(-1, 1).astype(i64),
                                                   rnd(16384 // r, 256)]),
        ("scatternd_add_rows", "ScatterND", {"reduction": "add"},
         [np.zeros((1000000 // r, 64), f32), rng.integers(0, 1000000 // r, (2000000 // r, 1)), rnd(2000000 // r, 64)]),
        ("scatternd_add_elem", "ScatterND", {"reduction": "add"},
         [np.zeros((4096, 4096 // r), f32), np.stack([rng.integers(0, 4096, 4000000 // r),
                                                       rng.integers(0, 4096 // r, 4000000 // r)], axis=1),
          rnd(4000000 // r)]),
    ]


def model(op: str, attrs: dict[str, Any], arrays: list[np.ndarray]) -> Any:
    names = [f"in{k}" for k in range(len(arrays))]
    vi = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
          for n, a in zip(names, arrays, strict=True)]
    out = helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(arrays[0].dtype), None)
    graph = helper.make_graph([helper.make_node(op, names, ["y"], **attrs)], "g", vi, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def timed(ev: ReferenceEvaluator, feeds: dict[str, np.ndarray]) -> tuple[float, Any]:
    t = time.perf_counter()
    try:
        out = ev.run(None, feeds)[0]
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reduce", type=int, default=8)
    ap.add_argument("--only")
    ap.add_argument("--threads", type=int, help="gs.set_num_threads (default: gatherscatter's default)")
    args = ap.parse_args()
    if args.threads:
        import gatherscatter as gs

        gs.set_num_threads(args.threads)
    print(f"| workload (sizes / {args.reduce}) | stock onnx.reference | gatherscatter ops | ratio | same output "
          "| = onnxruntime (1 thread) |")
    print("|---|--:|--:|--:|---|---|")
    for name, op, attrs, arrays in workloads(args.reduce):
        if args.only and args.only not in name:
            continue
        m = model(op, attrs, arrays)
        feeds = {f"in{k}": a for k, a in enumerate(arrays)}
        ours_ev = ReferenceEvaluator(m, new_ops=reference_ops())
        _, ours = timed(ours_ev, feeds)  # warm-up: loads (or compiles) the numba kernels
        ours_t = statistics.median(timed(ours_ev, feeds)[0] for _ in range(3))  # outputs dropped, as in a model
        stock_t, stock = timed(ReferenceEvaluator(m), feeds)
        if isinstance(stock, Exception):
            cell, same, ratio = f"fails ({type(stock).__name__}: {str(stock)[:60]})", "-", "-"
        else:
            cell = f"{stock_t:.2f} s"
            same = "yes" if np.array_equal(stock, ours) else (
                "close" if np.allclose(stock, ours, rtol=1e-5) else "NO")
            ratio = f"{stock_t / ours_t:.0f}x"
        print(f"| {name} | {cell} | {ours_t * 1000:.1f} ms | {ratio} | {same} | {same_as_ort(m, feeds, ours)} |",
              flush=True)


if __name__ == "__main__":
    main()
