"""Where the time goes: a workload's call split into its parts, timed side by side with the peers.

    python benchmarks/parts.py NAME[,NAME] [--threads 1,2] [--reps 7] [--quick] [--size N]

For each workload and thread count, every part below and every peer is called once
per round, in turn, for ``--reps`` rounds (a foreign load slows a whole round
alike); medians are printed with the ns per output element (gathers) or per
update (scatters). Parts (numba path unless marked np):

* ``total``: the whole call as the benchmark makes it (output from the pool of recycled buffers);
* ``total no pool``: the same with the output pool off (a fresh output every call);
* ``faults``: a fresh output's first touch alone (one write per 4 KiB page);
* ``copy``: copying ``data`` into a reused buffer (scatters);
* ``check``: the index range check alone (``count_bad``; np: the one-pass max): a call runs it as a pass of
  its own only before writing into a caller's array (``out=``, in place); into its own output the
  kernels check each index as they go (``kernel`` includes that);
* ``offsets`` (np): the flat offsets the NumPy path computes;
* ``kernel``: the gather/scatter kernel alone on checked indices, reused output (at one thread its
  serial form, as the call runs it; ``kernel par1`` is the parallel form at one thread, for the launch cost);
  out-of-place ScatterND without reduction: ``kernel (put_rows)``, the data copy and the scatter in one pass
  as the call runs them, and ``kernel (scatter)``, the scatter alone; ScatterElements along the last axis:
  ``kernel + copy``, the kernel with data's copy fused in, as the call runs it;
* ``np take`` / ``np at`` / ``np assign``: the NumPy path's data movement alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Ort, interleaved, torch_call
from workloads import WORKLOADS, Workload

from gatherscatter import backends
from gatherscatter.backends import pool
from gatherscatter.core import IndexSpec
from gatherscatter.core.offsets import element_offsets, piece_size
from gatherscatter.core.rows import ROUNDS_MIN_ROW, RowScratch, chunk_rows, put_rows, reduce_rows
from gatherscatter.core.rows import pieces as core_pieces

Part = tuple[str, Callable[[], Any]]


def faults(shape: tuple[int, ...], dtype: Any) -> Callable[[], Any]:
    def run() -> Any:
        out = np.empty(shape, dtype)
        flat = out.reshape(-1).view(np.uint8)
        flat[:: 4096] = 0
        return out

    return run


def without_pool(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` with the output pool off (fresh outputs, as before session 6); the pool keeps its buffers."""

    def run() -> Any:
        cap, pool._cap = pool._cap, 0
        try:
            return fn()
        finally:
            pool._cap = cap

    return run


class _Serial:
    """The kernels module with each parallel kernel replaced by its serial form (one-thread calls)."""

    def __init__(self, k: Any) -> None:
        self.k = k

    def __getattr__(self, name: str) -> Any:
        v = getattr(self.k, name)
        try:
            # GatherElements keeps its parallel form above SERIAL_BYTES (all the benchmark's sizes but topk's)
            return v if v in self.k.SERIAL_BYTES else self.k.SERIAL.get(v, v)
        except TypeError:  # unhashable (OPS)
            return v


def parts(w: Workload, a: dict[str, np.ndarray], k: Any, nthreads: int) -> list[Part]:
    """The workload's parts on the numba path (k: the kernels module)."""
    if nthreads == 1:
        res = _parts(w, a, _Serial(k), 1)
        par = [p for p in _parts(w, a, k, 1) if p[0] == "kernel"]
        return res + [("kernel par1", f) for _, f in par]
    return _parts(w, a, k, nthreads)


def _parts(w: Workload, a: dict[str, np.ndarray], k: Any, nthreads: int) -> list[Part]:
    from gatherscatter.core import accel

    d, i = a["data"], a["indices"]
    res: list[Part] = [("total", lambda: w.ours(a))]
    name = w.name.removesuffix("_out")
    wrap = True
    if "updates" not in a:
        shape = np.asarray(w.ours(a)).shape
        if "out" not in a:
            res.append(("total no pool", without_pool(lambda: w.ours(a))))
        res.append(("faults", faults(shape, d.dtype)))
        buf = np.zeros(shape, d.dtype)
        bits = accel._bits
        if name.startswith("gather_elements"):
            ii = i.reshape(i.shape[0], -1)
            res.append(("check", lambda: k.count_bad(i.reshape(-1), d.shape[-1], wrap)))
            res.append(("kernel", lambda: k.gather_elements2(bits(d), ii, bits(buf), wrap)))
        elif name == "gather_axis1":
            res.append(("kernel", lambda: k.gather_mid(bits(d), i, bits(buf), wrap)))
        elif name == "gather_rows":
            res.append(("kernel", lambda: k.gather_rows(bits(d), i, bits(buf), wrap)))
        else:  # GatherND
            b = w.attrs.get("batch_dims", 0)
            B, kd = int(np.prod(d.shape[:b])), i.shape[-1]
            T, R = int(np.prod(d.shape[b : b + kd])), int(np.prod(d.shape[b + kd :]))
            M = i.size // (B * kd)
            sizes = np.array(d.shape[b : b + kd], np.int64)
            rows = np.empty((B, M), np.int64)
            res.append(("check (nd rows)", lambda: k.nd_rows(i.reshape(B, M, kd), sizes, T, wrap, rows)))
            res.append(("kernel", lambda: k.gather_rows(bits(d.reshape(B * T, R)), rows.reshape(-1),
                                                        bits(buf.reshape(-1, R)), False)))
        return res
    u = a["updates"]
    op = k.OPS[w.attrs.get("reduction", "none")]
    work = d.copy()
    if not w.inplace:
        res.append(("total no pool", without_pool(lambda: w.ours(a))))
    res.append(("faults", faults(d.shape, d.dtype)))
    res.append(("copy", lambda: k.copy_blocks(accel._bits(work.reshape(-1)), accel._bits(d.reshape(-1)))))
    if not (w.op == "ScatterND" and i.shape[-1] > 1):
        res.append(("check", lambda: k.count_bad(i.reshape(-1), d.shape[w.attrs.get("axis", 0)], wrap)))
    o, uu = (accel._bits(work), accel._bits(u)) if op == k.NONE else (work, u)
    if w.op == "ScatterElements" and w.attrs.get("axis") == -1:
        res.append(("kernel", lambda: k.scatter_elements2(o, o, i, uu, op, False, wrap)))
        if not w.inplace:  # as the call runs it: data's copy fused in, row by row
            src = accel._bits(d) if op == k.NONE else d
            res.append(("kernel + copy", lambda: k.scatter_elements2(o, src, i, uu, op, True, wrap)))
    elif w.op == "ScatterElements":
        res.append(("kernel", lambda: k.scatter_elements3(o.reshape(1, *o.shape), i.reshape(1, *i.shape),
                                                         uu.reshape(1, *uu.shape), op, nthreads, wrap)))
    elif i.shape[-1] == 1 and op == k.NONE and not w.inplace:  # out of place: the copy and the scatter in one pass
        last = np.empty(d.shape[0], np.int32)
        flat = accel._bits(d.reshape(-1))
        res.append(("kernel (put_rows)", lambda: k.put_rows(o.reshape(-1), flat, i.reshape(-1), uu.reshape(-1),
                                                            o.shape[1], wrap, last)))
        res.append(("kernel (scatter)", lambda: k.scatter_rows(o, i.reshape(-1), uu.reshape(len(i), -1), op, nthreads,
                                                               wrap)))
    elif i.shape[-1] == 1:
        res.append(("kernel", lambda: k.scatter_rows(o, i.reshape(-1), uu.reshape(len(i), -1), op, nthreads, wrap)))
    else:
        rows = np.empty((1, len(i)), np.int64)
        sizes = np.array(d.shape[: i.shape[-1]], np.int64)
        T = int(np.prod(sizes))
        res.append(("check (nd rows)", lambda: k.nd_rows(i.reshape(1, -1, i.shape[-1]), sizes, T, wrap, rows)))
        res.append(("kernel", lambda: k.scatter_rows(o.reshape(T, -1), rows.reshape(-1), uu.reshape(len(i), -1),
                                                     op, nthreads, False)))
    return res


def np_parts(w: Workload, a: dict[str, np.ndarray]) -> list[Part]:
    """The workload's parts on the NumPy path (one thread)."""
    d, i = a["data"], a["indices"]
    res: list[Part] = [("np total", lambda: w.ours(a))]
    res.append(("np check", lambda: i.view(np.uint64).max()))
    name = w.name.removesuffix("_out")
    if "updates" not in a:
        shape = np.asarray(w.ours(a)).shape
        buf = np.zeros(shape, d.dtype)
        res.append(("np faults", faults(shape, d.dtype)))
        if name.startswith("gather_elements"):
            flat = element_offsets(d.shape, i, 1)
            res.append(("np offsets", lambda: element_offsets(d.shape, i, 1)))
            res.append(("np take", lambda: np.take(d.reshape(-1), flat, mode="wrap", out=buf)))
        elif name == "gather_axis1":
            res.append(("np take", lambda: np.take(d, i, axis=1, mode="wrap", out=buf)))
        elif name == "gather_rows":
            res.append(("np take", lambda: np.take(d, i, axis=0, mode="wrap", out=buf)))
        else:
            b = w.attrs.get("batch_dims", 0)
            kd = i.shape[-1]
            R = int(np.prod(d.shape[b + kd :]))
            if b:
                rows = (np.arange(d.shape[0])[:, None] * d.shape[1] + i[..., 0]).reshape(-1)
                res.append(("np offsets", lambda: (np.arange(d.shape[0])[:, None] * d.shape[1] + i[..., 0])))
            else:
                rows = i[:, 0] * d.shape[1] + i[:, 1]
                res.append(("np offsets", lambda: i[:, 0] * d.shape[1] + i[:, 1]))
            res.append(("np take", lambda: np.take(d.reshape(-1, R), rows, axis=0, mode="wrap",
                                                   out=buf.reshape(-1, R))))
        return res
    u = a["updates"]
    work = d.copy()
    res.append(("np faults", faults(d.shape, d.dtype)))
    res.append(("np copy", lambda: np.copyto(work, d)))
    red = w.attrs.get("reduction", "none")
    ufunc = {"add": np.add, "max": np.maximum}.get(red)
    if w.op == "ScatterElements":
        axis = w.attrs["axis"] % d.ndim
        spec = IndexSpec(axis=axis, batch=axis, elementwise=True)
        # the core's pieces of about 2^20 elements, offsets computed per piece
        def pieces() -> None:
            for _ in core_pieces(d.shape, i, None, u, spec):  # each piece dropped before the next, as the core does
                pass

        res.append(("np offsets", pieces))
        el = element_offsets(d.shape, i, axis).reshape(-1)
    elif i.shape[-1] == 1:
        R = d.shape[1]
        rows = i[:, 0]
        if ufunc is not None and R >= ROUNDS_MIN_ROW:
            # the core's rounds of distinct rows (no element offsets), in chunks of ROUNDS_CHUNK bytes
            w2 = work.reshape(-1, R)
            step = chunk_rows(w2)
            scratch = RowScratch(w2, step)

            def rounds() -> None:
                for s0 in range(0, rows.size, step):
                    reduce_rows(ufunc, w2, rows[s0 : s0 + step], u[s0 : s0 + step], scratch)

            res.append(("np rounds", rounds))
            return res
        step = max(1, piece_size(rows.size * R) // R)
        cols = np.arange(R, dtype=np.int64)

        def row_elements() -> None:
            for s0 in range(0, rows.size, step):
                (rows[s0 : s0 + step, None] * R + cols).reshape(-1)

        res.append(("np offsets", row_elements if ufunc is not None else lambda: None))
        el = (i[:, 0:1] * R + cols).reshape(-1) if ufunc is not None else rows
    else:
        el = i[:, 0] * d.shape[1] + i[:, 1]
        res.append(("np offsets", lambda: i[:, 0] * d.shape[1] + i[:, 1]))
    uf = u.reshape(-1)
    wf = work.reshape(-1)
    if ufunc is None and w.op == "ScatterND":
        res.append(("np assign", lambda: put_rows(work, el, u)))  # whole rows, as the core
    elif ufunc is None:
        res.append(("np assign", lambda: wf.__setitem__(el, uf)))
    else:
        res.append(("np at", lambda: ufunc.at(wf, el, uf)))
    return res


def peers(w: Workload, a: dict[str, np.ndarray], t: int) -> list[Part]:
    import torch

    res: list[Part] = []
    if not w.inplace:
        ort = Ort(w, a, t)
        res.append((f"ort{t}", ort.run))
    if w.torch is not None:
        call = torch_call(w, a)

        def tcall() -> Any:
            torch.set_num_threads(t)
            return call()

        res.append((f"torch{t}", tcall))
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--size", type=int, default=1, help="size divisor, as run.py --sizes (2: half, 16: 1/16)")
    args = p.parse_args(argv)
    import numba

    from gatherscatter.backends import numba_kernels as k

    by_name = {w.name: w for w in WORKLOADS}
    for name in args.names.split(","):
        w = by_name[name]
        a = w.inputs((32 if args.quick else 1) * args.size)
        units = a["updates"].size if "updates" in a else np.asarray(w.ours(a)).size
        unit = "update element" if "updates" in a else "output element"
        for t in [int(x) for x in args.threads.split(",") if x]:
            named = parts(w, a, k, t) + peers(w, a, t)
            if t == 1:
                named = np_parts(w, a) + named

            def setup(n: str, t: int = t) -> None:
                backends.set_backend("numpy" if n.startswith("np ") else "numba")
                backends.set_num_threads(t)
                numba.set_num_threads(t)

            cs = [(n, f, lambda n=n: setup(n)) for n, f in named]
            times = interleaved(cs, min_rounds=args.reps, max_rounds=args.reps, min_time=0.0, batch_s=0.0)
            med = {n: statistics.median(v) for n, v in times.items()}
            backends.set_backend("auto")
            print(f"{name} ({t} thread{'s' if t > 1 else ''}; ns per {unit}):")
            for n, v in med.items():
                print(f"  {n:18s} {v * 1e3:9.2f} ms  {v / units * 1e9:7.2f} ns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
