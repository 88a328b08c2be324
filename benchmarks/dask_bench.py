"""Dask benchmark: scatter-add into, and gather rows from, an on-disk (zarr) array larger than memory.

    python benchmarks/dask_bench.py --size small            # a smoke run: 64 MiB of data, 2**22 updates
    python benchmarks/dask_bench.py --size full --dir /work/dask-bench   # 30 GiB of data, 2**30 updates

The array is float32 ``(rows, 64)`` in an uncompressed zarr store under ``--dir``
(written once, from a seeded random generator). For each worker count (``--workers``,
default 1 and 2) a ``dask.distributed`` LocalCluster of worker processes (one thread
each, ``--memory GiB`` in all, split between them; spilling to ``--dir``) runs:

- ``scatter``: ``gs.scatter_nd(x, idx, upd, reduction="add")`` with ``2**log2_updates``
  random ``(row, col)`` index tuples and float32 updates, generated lazily from a
  seed (they are never all in memory), stored back into the zarr array in place;
- ``gather``: ``gs.take(x, rows, axis=0)`` of random rows, and plain Dask fancy
  indexing ``x[rows]`` (the best plain-Dask formulation), checked equal.

Each prints wall time and the peak resident memory of every worker process
(sampled every 0.2 s with psutil). Checks: at the small size the scatter's
result equals the NumPy path on the whole array (bit for bit); at the full size
on one data block (``--check-block``), whose updates are re-generated, filtered and
scattered with the NumPy path. Plain Dask has no scatter with a reduction
(``da.bincount`` would build a full-length array per index chunk), so the
scatter has no plain-Dask contestant. ``--skip-scatter`` runs only the gather (the
scatter and its check are skipped; the store is then never written after creation),
``--skip-gather`` only the scatter. The gather also reports the peak size of the
spill directory.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import dask  # noqa: I001  (ruff reads tests/dask as a first-party "dask")
import dask.array as da
import psutil
import zarr
from distributed import Client, LocalCluster

import gatherscatter as gs

ROW = 64  # float32 elements per row (256 B)
SIZES = {
    # data GiB, rows per chunk, log2(updates), updates per index chunk, gathered rows
    "small": dict(data_gib=1 / 16, chunk_rows=1 << 14, log2_updates=22, upd_chunk=1 << 20, gather_rows=1 << 14),
    "medium": dict(data_gib=4, chunk_rows=1 << 18, log2_updates=27, upd_chunk=1 << 22, gather_rows=1 << 18),
    "full": dict(data_gib=30, chunk_rows=1 << 18, log2_updates=30, upd_chunk=1 << 22, gather_rows=1 << 20),
}


class PeakRSS:
    """Peak resident memory of each worker process, sampled in a thread of the client process."""

    def __init__(self, pids: dict[str, int], spill: Path | None = None) -> None:
        self.procs = {w: psutil.Process(p) for w, p in pids.items()}
        self.peak = dict.fromkeys(pids, 0)
        self.spill, self.peak_spill = spill, 0  # bytes under the spill directory (sampled with the memory)
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for w, p in self.procs.items():
                with contextlib.suppress(psutil.Error):
                    self.peak[w] = max(self.peak[w], p.memory_info().rss)
            if self.spill is not None:
                self.peak_spill = max(self.peak_spill, dir_bytes(self.spill))
            self._stop.wait(0.2)

    def __enter__(self) -> PeakRSS:
        self._t.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._t.join()

    def gib(self) -> list[float]:
        return [round(v / 2**30, 2) for v in self.peak.values()]


def dir_bytes(root: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(root):
        for f in files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(dirpath, f))
    return total


def make_data(path: Path, rows: int, chunk_rows: int, seed: int) -> None:
    if (path / "zarr.json").exists():
        z = zarr.open_array(str(path), mode="r")
        if z.shape == (rows, ROW):
            return
    shutil.rmtree(path, ignore_errors=True)
    z = zarr.create_array(
        str(path), shape=(rows, ROW), chunks=(chunk_rows, ROW), dtype="float32", compressors=None, fill_value=0.0
    )
    x = da.random.default_rng(seed).random((rows, ROW), chunks=(chunk_rows, ROW), dtype=np.float32)
    with dask.config.set(scheduler="threads", num_workers=2):
        da.store(x, z, lock=False)


def updates(rows: int, log2_n: int, chunk: int, seed: int) -> tuple[Any, Any]:
    """Lazy random index tuples ``(n, 2)`` and float32 updates ``(n,)``: generated per block from the seed."""
    rng = da.random.default_rng(seed)
    n = 1 << log2_n
    r = rng.integers(0, rows, n, chunks=chunk, dtype=np.int64)
    c = rng.integers(0, ROW, n, chunks=chunk, dtype=np.int64)
    idx = da.stack([r, c], axis=1).rechunk((chunk, 2))
    upd = rng.standard_normal(n, chunks=chunk, dtype=np.float32)
    return idx, upd


def run_scatter(client: Client, path: Path, p: dict[str, Any], seed: int, pids: dict[str, int]) -> dict[str, Any]:
    z = zarr.open_array(str(path), mode="r+")
    x = da.from_zarr(z)
    idx, upd = updates(z.shape[0], p["log2_updates"], p["upd_chunk"], seed)
    with PeakRSS(pids) as mem:
        t0 = time.perf_counter()
        y = gs.scatter_nd(x, idx, upd, reduction="add")
        t1 = time.perf_counter()
        da.store(y, z, lock=False)  # in place: each output block is written after its data block was read
        t2 = time.perf_counter()
    return dict(build_s=round(t1 - t0, 2), total_s=round(t2 - t0, 2), tasks=len(y.__dask_graph__()),
                peak_rss_gib=mem.gib())


def run_gather(
    client: Client, path: Path, p: dict[str, Any], seed: int, pids: dict[str, int], spill: Path
) -> dict[str, Any]:
    x = da.from_zarr(str(path))
    rows = np.random.default_rng(seed).integers(0, x.shape[0], p["gather_rows"])
    out: dict[str, Any] = {}
    results = {}
    for name, fn in (("gatherscatter", lambda: gs.take(x, rows, axis=0)), ("dask x[idx]", lambda: x[rows])):
        with PeakRSS(pids, spill) as mem:
            t0 = time.perf_counter()
            res = fn().compute()
            out[name] = dict(total_s=round(time.perf_counter() - t0, 2), peak_rss_gib=mem.gib(),
                             peak_spill_gib=round(mem.peak_spill / 2**30, 2))
        print(f"  gather, {name}: {out[name]}", flush=True)  # each contestant as it ends (a full run is long)
        results[name] = res
    a, b = results.values()
    out["equal"] = bool(a.shape == b.shape and a.tobytes() == b.tobytes())
    return out


def check_small(path: Path, before: np.ndarray, p: dict[str, Any], seed: int) -> bool:
    idx, upd = updates(before.shape[0], p["log2_updates"], p["upd_chunk"], seed)
    with dask.config.set(scheduler="threads"):
        i, u = dask.compute(idx, upd)
    want = gs.scatter_nd(before, i, u, reduction="add")
    got = zarr.open_array(str(path), mode="r")[...]
    return bool(want.tobytes() == got.tobytes())


def check_block(path: Path, before: np.ndarray, block: int, p: dict[str, Any], seed: int, rows: int) -> bool:
    """The NumPy path on one data block: its updates re-generated and filtered, in their order."""
    lo, hi = block * p["chunk_rows"], min(rows, (block + 1) * p["chunk_rows"])
    idx, upd = updates(rows, p["log2_updates"], p["upd_chunk"], seed)

    def pick(i: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keep = (i[:, 0] >= lo) & (i[:, 0] < hi)
        return i[keep] - np.array([lo, 0]), u[keep]

    parts = [dask.delayed(pick)(i, u) for i, u in zip(idx.to_delayed().ravel(), upd.to_delayed().ravel(), strict=True)]
    with dask.config.set(scheduler="threads", num_workers=2):
        got_parts = dask.compute(*parts)
    i = np.concatenate([g[0] for g in got_parts])
    u = np.concatenate([g[1] for g in got_parts])
    want = gs.scatter_nd(before, i, u, reduction="add")
    got = zarr.open_array(str(path), mode="r")[lo:hi]
    return bool(want.tobytes() == got.tobytes())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--dir", default="/work/dask-bench")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--memory", type=float, default=3.5, help="GiB for all workers together")
    ap.add_argument("--check-block", type=int, default=7)
    ap.add_argument("--gather-rows", type=int, default=0, help="rows to gather (default: the size's own)")
    ap.add_argument("--skip-gather", action="store_true")
    ap.add_argument("--skip-scatter", action="store_true",
                    help="run only the gather (no scatter, no block check); results go to dask_<size>_gather.json")
    ap.add_argument("--keep", action="store_true", help="keep the zarr store afterwards")
    args = ap.parse_args()
    if args.skip_scatter and args.skip_gather:
        ap.error("--skip-scatter and --skip-gather leave nothing to run")
    p = dict(SIZES[args.size])
    if args.gather_rows:
        p["gather_rows"] = args.gather_rows
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    path = root / f"data-{args.size}.zarr"
    rows = int(p["data_gib"] * 2**30) // (ROW * 4)
    print(f"data: {rows} x {ROW} float32 = {rows * ROW * 4 / 2**30:.2f} GiB at {path}; "
          f"updates: 2**{p['log2_updates']}; free disk: {shutil.disk_usage(root).free / 2**30:.0f} GiB", flush=True)
    t0 = time.perf_counter()
    make_data(path, rows, p["chunk_rows"], seed=1)
    print(f"data written in {time.perf_counter() - t0:.1f} s", flush=True)
    report: dict[str, Any] = dict(size=args.size, rows=rows, row=ROW, updates=2 ** p["log2_updates"],
                                  gather_rows=p["gather_rows"], memory_gib=args.memory,
                                  cpu_count=os.cpu_count(), runs=[])
    for nw in (int(w) for w in args.workers.split(",")):
        z = zarr.open_array(str(path), mode="r")
        lo, hi = args.check_block * p["chunk_rows"], (args.check_block + 1) * p["chunk_rows"]
        before = None if args.skip_scatter else z[...] if args.size == "small" else z[lo:hi]
        limit = f"{args.memory / nw:.2f}GiB"
        with dask.config.set({"temporary-directory": str(root / "spill")}), LocalCluster(
            n_workers=nw, threads_per_worker=1, processes=True, memory_limit=limit, dashboard_address=":0"
        ) as cluster, Client(cluster) as client:
            pids = client.run(os.getpid)
            seed = 100 + nw
            rec: dict[str, Any] = dict(workers=nw, memory_limit_per_worker=limit)
            if args.skip_scatter:
                print(f"{nw} worker(s): scatter skipped (--skip-scatter), and so is its NumPy-path check", flush=True)
            else:
                rec["scatter"] = run_scatter(client, path, p, seed, pids)
                print(f"{nw} worker(s): scatter {rec['scatter']}", flush=True)
            if not args.skip_gather:
                rec["gather"] = run_gather(client, path, p, seed, pids, root / "spill")
                print(f"{nw} worker(s): gather {rec['gather']}", flush=True)
        if before is not None:
            if args.size == "small":
                rec["scatter"]["checked_equal_numpy_path"] = check_small(path, before, p, seed)
            else:
                rec["scatter"]["checked_block_equal_numpy_path"] = check_block(
                    path, before, args.check_block, p, seed, rows
                )
            print(f"{nw} worker(s): check {rec['scatter']}", flush=True)
        report["runs"].append(rec)
    out = Path(__file__).resolve().parent / "results" / f"dask_{args.size}{'_gather' if args.skip_scatter else ''}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    if not args.keep:
        shutil.rmtree(path, ignore_errors=True)
        shutil.rmtree(root / "spill", ignore_errors=True)


if __name__ == "__main__":
    main()
