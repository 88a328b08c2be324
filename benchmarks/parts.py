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
  (as the call runs them below a streaming copy's size), and ``kernel (scatter)``, the scatter alone (``copy`` and
  it: the call from a streaming copy's size); ScatterElements along the last axis:
  ``kernel + copy``, the kernel with data's copy fused in, as the call runs it;
* ``np take`` / ``np at`` / ``np assign``: the NumPy path's data movement alone.

    python benchmarks/parts.py NAME[,NAME] --spin [--size 16] [--threads 2] [--reps 5] [--gaps 0,0.0005,...]

``--spin`` measures instead what a thread pool that spins between calls gains and costs: for each
contestant at each thread count above one (ours, onnxruntime with its pool spinning and not,
torch, and torch with ``OMP_WAIT_POLICY=PASSIVE`` in a subprocess: libgomp reads it at start),
from a quiet process, windows of calls each followed by an idle gap of the caller (a sleep of
``--gaps`` seconds): a call's time, and the CPU time of the process's other threads (its pools:
``time.process_time`` minus the caller's ``time.thread_time``) per second of the caller's idle.
A spinning pool shows as more CPU per idle second (up to a core per spinning worker) and, where
spinning pays, a faster call; the difference to the same peer with spinning off is its price.
Over gaps shorter than a call the rate divides small differences in the workers' CPU per call by
little idle time: read the gaps of 5 ms and more (the 200 ms gap's CPU per call is the whole spin
after one call).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import PASSIVE_ENV, Ort, interleaved, torch_call
from workloads import WORKLOADS, Workload

from gatherscatter import backends
from gatherscatter.backends import pool
from gatherscatter.core import IndexSpec, Policy
from gatherscatter.core.gather import ROW_TAKE_MIN
from gatherscatter.core.indices import numpy_checks
from gatherscatter.core.offsets import element_offsets, last_axis_rows, piece_size
from gatherscatter.core.rows import (
    ROUNDS_MIN_ROW,
    RowScratch,
    along_last_rows,
    chunk_rows,
    put_rows,
    reduce_rows,
)
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


class _Launched:
    """The kernels module as the core launches its kernels: the arrays a kernel only reads go read-only
    (``numba_kernels.frozen``: the signature the core compiled); with ``serial``, each parallel kernel replaced
    by its serial form (one-thread calls)."""

    def __init__(self, k: Any, serial: bool = False) -> None:
        self.k, self.serial = k, serial

    def __getattr__(self, name: str) -> Any:
        v = getattr(self.k, name)
        try:
            # GatherElements keeps its parallel form above SERIAL_BYTES (all the benchmark's sizes but topk's)
            if self.serial and v not in self.k.SERIAL_BYTES:
                v = self.k.SERIAL.get(v, v)
            if v not in self.k.READS:
                return v
        except TypeError:  # unhashable (OPS)
            return v
        return self.k.launched(v)


def parts(w: Workload, a: dict[str, np.ndarray], k: Any, nthreads: int) -> list[Part]:
    """The workload's parts on the numba path (k: the kernels module)."""
    if nthreads == 1:
        res = _parts(w, a, _Launched(k, serial=True), 1)
        par = [p for p in _parts(w, a, _Launched(k), 1) if p[0] == "kernel"]
        return res + [("kernel par1", f) for _, f in par]
    return _parts(w, a, _Launched(k), nthreads)


def _aligned_zeros(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Zeros of ``shape`` starting on a cache line, as the output pool's (pool.ALIGN)."""
    n = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(n + pool.ALIGN, np.uint8)
    at = -raw.ctypes.data % pool.ALIGN
    return raw[at : at + n].view(dtype).reshape(shape)


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
        buf = _aligned_zeros(shape, d.dtype)  # as a pooled output
        bits = accel._bits
        row = int(np.prod(shape[1:] if name == "gather_rows" else shape[2:] if name == "gather_axis1" else ()))
        st = accel._streams(buf, row)  # (GatherND's rows: below)
        if name.startswith("gather_elements"):
            ii = i.reshape(i.shape[0], -1)
            res.append(("check", lambda: k.count_bad(i.reshape(-1), d.shape[-1], wrap)))
            res.append(("kernel", lambda: k.gather_elements2(bits(d), ii, bits(buf), wrap)))
        elif name == "gather_axis1":
            res.append(("kernel", lambda: k.gather_mid(bits(d), i, bits(buf), wrap, st)))
        elif name == "gather_rows":
            res.append(("kernel", lambda: k.gather_rows(bits(d), i, bits(buf), wrap, st)))
        else:  # GatherND
            b = w.attrs.get("batch_dims", 0)
            B, kd = int(np.prod(d.shape[:b])), i.shape[-1]
            T, R = int(np.prod(d.shape[b : b + kd])), int(np.prod(d.shape[b + kd :]))
            M = i.size // (B * kd)
            sizes = np.array(d.shape[b : b + kd], np.int64)
            rows = np.empty((B, M), np.int64)
            res.append(("check (nd rows)", lambda: k.nd_rows(i.reshape(B, M, kd), sizes, T, wrap, rows)))
            res.append(("kernel", lambda: k.gather_rows(bits(d.reshape(B * T, R)), rows.reshape(-1),
                                                        bits(buf.reshape(-1, R)), False,
                                                        accel._streams(buf, R))))
        return res
    u = a["updates"]
    op = k.OPS[w.attrs.get("reduction", "none")]
    work = d.copy()
    if not w.inplace:
        res.append(("total no pool", without_pool(lambda: w.ours(a))))
    res.append(("faults", faults(d.shape, d.dtype)))
    stream = accel.copy_streams(d)
    res.append(("copy", lambda: k.copy_blocks(accel._bits(work.reshape(-1)), accel._bits(d.reshape(-1)), stream)))
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
    check: Part = ("np check", lambda: i.view(np.uint64).max())
    name = w.name.removesuffix("_out")
    if "updates" not in a:
        res.append(check)
        shape = np.asarray(w.ours(a)).shape
        buf = np.zeros(shape, d.dtype)
        res.append(("np faults", faults(shape, d.dtype)))
        rows3 = last_axis_rows(d, i, 1, buf, ROW_TAKE_MIN) if name.startswith("gather_elements") else None
        if rows3 is not None:
            # the core's take per row (core.gather.ROW_TAKE_MIN, the same rule): no offsets
            def take_rows() -> None:
                for d_row, i_row, r_row in zip(*rows3, strict=True):
                    np.take(d_row, i_row, mode="wrap", out=r_row)

            res.append(("np take rows", take_rows))
        elif name.startswith("gather_elements"):
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
    axis = w.attrs.get("axis", 0) % d.ndim
    # the core's row by row path itself (core.rows.along_last_rows), where it applies (it writes work): no offsets
    by_rows = w.op == "ScatterElements" and along_last_rows(work, i, axis, u, ufunc)
    if not (by_rows and numpy_checks(Policy(), i)):  # the core's rule: NumPy's own rows check ONNX's indices
        res.insert(1, check)
    if by_rows:
        res.append(("np rows", lambda: along_last_rows(work, i, axis, u, ufunc)))
        return res
    if w.op == "ScatterElements":
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


def quiesce(limit: float = 2.0, window: float = 0.02, busy: float = 0.1) -> None:
    """Sleep until the process burns under ``busy`` of a core over a ``window`` (every pool's spinning over),
    at most ``limit`` seconds."""
    t_end = time.perf_counter() + limit
    while time.perf_counter() < t_end:
        c0, t0 = time.process_time(), time.perf_counter()
        time.sleep(window)
        if time.process_time() - c0 < busy * (time.perf_counter() - t0):
            return


Sample = tuple[float, float, int, float]
"""One window of calls each followed by an idle gap of the caller: (the other threads' CPU seconds: the process's
minus the caller's; the caller's idle seconds in all; the number of calls; their median seconds)."""


def spin_samples(cs: list[tuple[str, Callable[[], Any], Callable[[], Any]]], gaps: list[float], reps: int,
                 window: float = 0.25) -> dict[str, dict[float, list[Sample]]]:
    """Per contestant ``(name, call, setup)`` and gap: ``reps`` windows of calls each followed by the caller
    sleeping ``gap`` (at least 3 calls and ``window`` seconds). Each window starts from a quiet process;
    contestants rotate. CPU is counted over whole windows: the kernel accounts another thread's CPU time
    up to a scheduler tick late, which would swamp a sub-millisecond gap measured alone."""
    out: dict[str, dict[float, list[Sample]]] = {n: {g: [] for g in gaps} for n, _, _ in cs}
    for _, call, setup in cs:  # warm-up (compiles, the thread tuner's trials)
        setup()
        for _ in range(13):
            call()
    for r in range(reps):
        for g in gaps:
            for name, call, setup in cs[r % len(cs):] + cs[: r % len(cs)]:
                setup()
                quiesce()
                calls: list[float] = []
                idle = 0.0
                c0, m0, t_end = time.process_time(), time.thread_time(), time.perf_counter() + window
                while len(calls) < 3 or time.perf_counter() < t_end:
                    t0 = time.perf_counter()
                    call()
                    t1 = time.perf_counter()
                    calls.append(t1 - t0)
                    if g:
                        time.sleep(g)
                        idle += time.perf_counter() - t1
                others = (time.process_time() - c0) - (time.thread_time() - m0)
                out[name][g].append((others, idle, len(calls), statistics.median(calls)))
    return out


def spin_table(samples: dict[str, dict[float, list[Sample]]]) -> dict[str, dict[float, Any]]:
    """Medians over windows per contestant and gap: ``call_s`` (a call's time), ``others_ms_per_call`` (the CPU
    of the process's other threads per call and gap: the pool's useful work plus its spinning) and
    ``spin_ms_per_s`` (None back to back): what the gap adds to that, per second of the caller's idle
    (``others_ms_per_call`` less its back-to-back value (gap 0: the useful work), over the gap; 1000 is one
    core kept busy; without a gap-0 cell, all the other threads' CPU over the idle time)."""
    res: dict[str, dict[float, Any]] = {}
    for name, by_gap in samples.items():
        res[name] = {}
        for g, v in by_gap.items():
            res[name][g] = {"call_s": statistics.median(c for *_, c in v),
                            "others_ms_per_call": statistics.median(o / n for o, _, n, _ in v) * 1e3,
                            "idle_s_per_call": statistics.median(i / n for _, i, n, _ in v)}
        work = res[name][0.0]["others_ms_per_call"] if 0.0 in res[name] else 0.0
        for g, cell in res[name].items():
            cell["spin_ms_per_s"] = (cell["others_ms_per_call"] - work) / cell["idle_s_per_call"] if g else None
    return res


SPIN_PAIRS = (("ort{t}", "ort{t} no-spin"), ("torch{t}", "torch{t} passive"))
"""(spinning peer, the same peer with its pool's spinning off) at ``t`` threads."""


def spin_summary(table: dict[str, dict[float, Any]], t: int) -> list[str]:
    """One line per spinning peer against its spinning-off form: the time a call saves after each gap, and the
    price: the extra CPU of its other threads per second of the caller's idle (1000: a core kept busy) and per
    call at the longest gap (the whole spin after one call)."""
    lines = []
    for spin, off in ((a.format(t=t), b.format(t=t)) for a, b in SPIN_PAIRS):
        if spin not in table or off not in table:
            continue
        gaps = sorted(table[spin])
        saves = ", ".join(f"{(table[off][g]['call_s'] - table[spin][g]['call_s']) * 1e6:.0f} µs"
                          + (" back to back" if not g else f" after {g * 1e3:g} ms") for g in gaps)
        price = ", ".join(f"{table[spin][g]['spin_ms_per_s'] - table[off][g]['spin_ms_per_s']:.0f} ms/s "
                          f"at {g * 1e3:g} ms gaps" for g in gaps if g)
        last = gaps[-1]
        per_call = table[spin][last]["spin_ms_per_s"] - table[off][last]["spin_ms_per_s"]
        per_call *= table[spin][last]["idle_s_per_call"]
        lines.append(f"  {spin} against {off}: spinning saves per call {saves}; it costs extra CPU per second of "
                     f"the caller's idle {price}; {per_call:.1f} ms of CPU per call followed by {last * 1e3:g} ms "
                     "idle")
    return lines


def spin_contestants(w: Workload, a: dict[str, np.ndarray], t: int, only_torch: bool) -> list[Any]:
    """At ``t`` threads: ours, onnxruntime spinning and not, torch (``only_torch``: torch alone)."""
    import torch

    def ours_setup() -> None:
        backends.set_backend("numba")
        backends.set_num_threads(t)

    none = lambda: None  # noqa: E731
    cs: list[Any] = []
    if not only_torch:
        cs.append((f"ours{t}", lambda: w.ours(a), ours_setup))
        if not w.inplace:
            cs += [(f"ort{t}", Ort(w, a, t).run, none), (f"ort{t} no-spin", Ort(w, a, t, spin=False).run, none)]
    if w.torch is not None:
        cs.append((f"torch{t}", torch_call(w, a), lambda: torch.set_num_threads(t)))
    return cs


def spin_main(args: argparse.Namespace) -> int:
    """``--spin``: the spinning pools' gain and price (see the module docstring)."""
    gaps = [float(x) for x in args.gaps.split(",") if x]
    more = [int(x) for x in args.threads.split(",") if x and int(x) > 1]
    by_name = {w.name: w for w in WORKLOADS}
    result: dict[str, Any] = {}
    for name in args.names.split(","):
        w = by_name[name]
        a = w.inputs((32 if args.quick else 1) * args.size)
        for t in more:
            samples = spin_samples(spin_contestants(w, a, t, args.spin_passive), gaps, args.reps)
            backends.set_backend("auto")
            result[f"{name} {t}"] = {n: {str(g): v for g, v in d.items()} for n, d in samples.items()}
    if args.spin_passive:  # the subprocess: raw samples to the parent
        print(json.dumps(result))
        return 0
    cmd = [sys.executable, __file__, args.names, "--spin", "--spin-passive", "--size", str(args.size),
           "--threads", args.threads, "--reps", str(args.reps), "--gaps", args.gaps]
    cmd += ["--quick"] if args.quick else []
    sub = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env={**os.environ, **PASSIVE_ENV})
    passive = json.loads(sub.stdout.strip().splitlines()[-1]) if sub.returncode == 0 else {}
    if sub.returncode:
        print(f"torch passive subprocess failed: {sub.stderr[-500:]}")
    for key, samples in result.items():
        name, t = key.rsplit(" ", 1)
        got = {n: {float(g): v for g, v in d.items()} for n, d in samples.items()}
        for n, d in passive.get(key, {}).items():
            got[f"{n} passive"] = {float(g): v for g, v in d.items()}
        table = spin_table(got)
        size = "" if args.size == 1 else f" /{args.size}"
        print(f"{name}{size} ({t} threads, {args.reps} windows per cell, medians): a call's time, and the CPU the "
              "process's other threads (its pools) spend per second of the caller's idle gap beyond their back-to-back "
              "work per call (1000 ms/s: a core kept busy):")
        print("  " + f"{'contestant':18s}" + "".join(f"{'back to back' if not g else f'gap {g * 1e3:g} ms':>22s}"
                                                    for g in gaps))
        for n, d in table.items():
            cells = "".join(f"{fmt_us(d[g]['call_s']):>22s}" if not g else
                            f"{fmt_us(d[g]['call_s']) + ', ' + format(d[g]['spin_ms_per_s'], '.0f') + ' ms/s':>22s}"
                            for g in gaps)
            print(f"  {n:18s}{cells}")
        for line in spin_summary(table, int(t)):
            print(line)
    return 0


def fmt_us(s: float) -> str:
    return f"{s * 1e3:.2f} ms" if s >= 1e-3 else f"{s * 1e6:.0f} µs"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--size", type=int, default=1, help="size divisor, as run.py --sizes (2: half, 16: 1/16)")
    p.add_argument("--spin", action="store_true", help="the spinning pools' gain per call and CPU price while idle")
    p.add_argument("--gaps", default="0,0.0005,0.005,0.05,0.2", help="--spin: the caller's idle gaps, seconds")
    p.add_argument("--spin-passive", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.spin:
        return spin_main(args)
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
