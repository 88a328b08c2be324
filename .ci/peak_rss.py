"""Run a command, then print its peak resident memory (RSS) and exit with its status.

Usage: ``python .ci/peak_rss.py [--limit-gib X] -- COMMAND ...``. The peak is
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` after the command ends: the largest
RSS any process of the command's tree reached (Linux reports KiB; macOS bytes).
The test suite's target is a peak below 4 GiB (issue 15: a 16 GiB test once
made the kernel's OOM killer end the whole run without a word from pytest).
With ``--limit-gib``, a peak above the limit is reported as OVER and turns a
successful run into exit status 3; the command's own failure status wins.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="peak_rss.py")
    p.add_argument("--limit-gib", type=float, default=None, help="report OVER (status 3) above this peak")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    a = p.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        p.error("no command given")
    rc = subprocess.call(cmd)
    raw = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    peak = raw if sys.platform == "darwin" else raw * 1024
    line = f"peak RSS: {peak / 2**30:.2f} GiB ({peak // 2**20} MiB) of: {' '.join(cmd)}"
    over = a.limit_gib is not None and peak > a.limit_gib * 2**30
    if a.limit_gib is not None:
        line += f"; limit {a.limit_gib:g} GiB: {'OVER' if over else 'ok'}"
    print(line, flush=True)
    if rc != 0:
        return rc
    return 3 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
