"""Run a command, then print its peak memory and exit with its status.

Usage: ``python .ci/peak_rss.py [--limit-gib X] -- COMMAND ...``. Two peaks:

- **one process**: ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` after the command ends, the
  largest RSS any single process of the command's tree reached (Linux reports KiB; macOS
  bytes);
- **all processes**: the command's whole process tree (pytest-xdist's workers, the
  subprocesses tests start), sampled every ``--every`` seconds with psutil: the sum of their
  PSS (proportional set size: a page several processes map, such as a shared library's code,
  counts once in the sum, as it does in the machine's memory), where psutil and Linux's
  ``smaps_rollup`` are available. Sampled, so a spike shorter than the interval can be missed.

The test suite's target is a peak below 4 GiB for the whole tree (issue 15: a 16 GiB test
once made the kernel's OOM killer end the whole run without a word from pytest). With
``--limit-gib``, either peak above the limit is reported as OVER and turns a successful run
into exit status 3; the command's own failure status wins.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import threading
from typing import Any


def _tree_pss(proc: Any) -> int | None:
    """Sum of the PSS of ``proc`` and its descendants (bytes), or None where it cannot be read."""
    import psutil

    total, seen = 0, False
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return None
    for p in procs:
        try:
            total += p.memory_full_info().pss
            seen = True
        except (psutil.Error, AttributeError):  # gone meanwhile, or no PSS on this platform
            continue
    return total if seen else None


class TreeSampler:
    """Samples a process tree's summed PSS in a thread until :meth:`stop`; ``peak`` in bytes (None: unavailable)."""

    def __init__(self, pid: int, every: float) -> None:
        self.peak: int | None = None
        self._done = threading.Event()
        try:
            import psutil

            self._proc: Any = psutil.Process(pid)
        except Exception:  # no psutil (it comes with the dask extra), or the command already ended
            self._proc = None
            return
        self._every = every
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            now = _tree_pss(self._proc)
            if now is not None:
                self.peak = max(self.peak or 0, now)
            if self._done.wait(self._every):
                return

    def stop(self) -> None:
        if self._proc is not None:
            self._done.set()
            self._thread.join()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="peak_rss.py")
    p.add_argument("--limit-gib", type=float, default=None, help="report OVER (status 3) above this peak")
    p.add_argument("--every", type=float, default=0.25, help="seconds between samples of the whole tree")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    a = p.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        p.error("no command given")
    child = subprocess.Popen(cmd)
    sampler = TreeSampler(child.pid, a.every)
    rc = child.wait()
    sampler.stop()
    raw = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    peak = raw if sys.platform == "darwin" else raw * 1024
    tree = sampler.peak
    limit = None if a.limit_gib is None else a.limit_gib * 2**30
    verdict = ""
    if limit is not None:
        verdict = f"; limit {a.limit_gib:g} GiB: {'OVER' if max(peak, tree or 0) > limit else 'ok'}"
    if tree is None:
        print("peak PSS of all processes: not measured (needs psutil and Linux's smaps_rollup)", flush=True)
    else:
        print(
            f"peak PSS of all processes: {tree / 2**30:.2f} GiB ({tree // 2**20} MiB), sampled every {a.every:g} s",
            flush=True,
        )
    print(
        f"peak RSS: {peak / 2**30:.2f} GiB ({peak // 2**20} MiB) of one process of: {' '.join(cmd)}{verdict}",
        flush=True,
    )
    if rc != 0:
        return rc
    return 3 if limit is not None and max(peak, tree or 0) > limit else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
