"""The fixed cost of one call: tiny inputs per op family, on each path, side by side.

    python benchmarks/overhead.py [--rounds 15] [--calls 200]

Each family's call on a tiny input (8x16 float32 data, a handful of indices) is
timed on the NumPy path, on the accelerated path as it runs (one thread: each
kernel's serial form) and on the accelerated path with the serial forms off
(the parallel kernels at one thread, as before session 7), plus ``np.take`` as
the floor of any Python call. Rounds interleave the variants (a foreign load
slows a round alike); medians in µs and the median per-round ratio of the
serial-form path to the parallel one (the minimum is the best estimate of the cost
itself on a loaded machine).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import gatherscatter as gs
from gatherscatter import backends


def families() -> dict[str, Callable[[], Any]]:
    r = np.random.default_rng(0)
    d = r.random((8, 16), np.float32)
    i = r.integers(0, 8, 4)
    ie = r.integers(0, 16, (8, 4))
    u = r.random((8, 4), np.float32)
    nd = np.stack([r.integers(0, 8, 5), r.integers(0, 16, 5)], -1)
    un = r.random(5, np.float32)
    ir = r.permutation(8)[:4, None]
    ur = r.random((4, 16), np.float32)
    out = np.empty((4, 16), np.float32)
    return {
        "Gather": lambda: gs.onnx.Gather(d, i, axis=0),
        "Gather out=": lambda: gs.take(d, i, axis=0, out=out),
        "GatherElements": lambda: gs.onnx.GatherElements(d, ie, axis=-1),
        "GatherND": lambda: gs.onnx.GatherND(d, nd),
        "ScatterElements none": lambda: gs.onnx.ScatterElements(d, ie, u, axis=-1),
        "ScatterElements add": lambda: gs.onnx.ScatterElements(d, ie, u, axis=-1, reduction="add"),
        "ScatterND none": lambda: gs.onnx.ScatterND(d, ir, ur),
        "ScatterND add": lambda: gs.onnx.ScatterND(d, nd, un, reduction="add"),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--calls", type=int, default=200)
    args = p.parse_args(argv)
    backends.set_backend("numba")
    backends.set_num_threads(1)
    k = backends.kernels()
    import numba

    serial = dict(k.SERIAL)

    def variant(name: str) -> None:
        backends.set_backend("numpy" if name == "numpy" else "numba")
        k.SERIAL.clear()
        if name == "serial":
            k.SERIAL.update(serial)
        numba.set_num_threads(1)

    names = ("numpy", "serial", "parallel")
    calls = families()
    d = np.zeros((8, 16), np.float32)
    i = np.zeros(4, np.int64)
    times: dict[tuple[str, str], list[float]] = {}
    for v in names:  # compile and warm every variant
        variant(v)
        for f in calls.values():
            for _ in range(20):
                f()
    gc.disable()
    try:
        for rnd in range(args.rounds):
            for fam, f in calls.items():
                for v in names if rnd % 2 else names[::-1]:
                    variant(v)
                    time.sleep(0.01)  # a parallel launch's worker threads go back to sleep first
                    t0 = time.perf_counter()
                    for _ in range(args.calls):
                        f()
                    times.setdefault((fam, v), []).append((time.perf_counter() - t0) / args.calls)
            t0 = time.perf_counter()
            for _ in range(args.calls):
                np.take(d, i, axis=0)
            times.setdefault(("np.take", "numpy"), []).append((time.perf_counter() - t0) / args.calls)
    finally:
        gc.enable()
        k.SERIAL.update(serial)
        backends.set_backend("auto")
    print("median (min) per call:\n")
    print("| family | NumPy path | accelerated, serial forms | accelerated, parallel forms at 1 thread "
          "| serial / parallel |")
    print("|---|---|---|---|---|")
    for fam in calls:
        med = {v: f"{statistics.median(times[fam, v]) * 1e6:.1f} ({min(times[fam, v]) * 1e6:.1f}) µs" for v in names}
        ratio = statistics.median(s / q for s, q in zip(times[fam, "serial"], times[fam, "parallel"], strict=True))
        print(f"| {fam} | {med['numpy']} | {med['serial']} | {med['parallel']} | {ratio:.2f} |")
    print(f"\nnp.take on the same input: {statistics.median(times['np.take', 'numpy']) * 1e6:.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
