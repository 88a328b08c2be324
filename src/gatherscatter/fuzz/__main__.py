"""``python -m gatherscatter.fuzz``: fuzz every op (or some) for a time budget; exit 1 on any failure."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gatherscatter.fuzz",
        description="Fuzz gatherscatter's ops with valid and hostile calls; every call must end in a correct "
        "result or a GatherScatterError. Exit status 1 when any call failed.",
    )
    p.add_argument("--seconds", type=float, default=None, help="total wall-clock budget, spread over the ops")
    p.add_argument("--cases", type=int, default=None, help="cases per op (default 200 when --seconds is not given)")
    p.add_argument("--op", action="append", default=None, metavar="QUALNAME",
                   help="an op (onnx.Gather), a framework (torch) or module:attr; repeatable (default: every op)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", default="fuzz-failures", metavar="DIR", help="where reproducers are written")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds one call may take before it is a hang")
    p.add_argument("--no-numba", action="store_true", help="skip the numba backend cross-check")
    p.add_argument("--no-loops", action="store_true", help="skip the element-loop cross-check")
    p.add_argument("--memory-limit", type=int, default=3 << 30, help="address-space limit of a worker, bytes")
    p.add_argument("--report", metavar="FILE", help="also write the counts table as Markdown to FILE")
    p.add_argument("--plain", action="store_true", help="plain-text table even on a terminal")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = _parser().parse_args(argv)
    from .runner import fuzz, markdown_table, print_report, select_ops, worker_main

    if args.worker:
        return worker_main(args.memory_limit)
    ops = select_ops(args.op)
    started = datetime.datetime.now(datetime.UTC)
    report = fuzz(
        ops,
        seconds=args.seconds,
        cases=args.cases,
        seed=args.seed,
        workers=args.workers,
        timeout=args.timeout,
        out_dir=args.out,
        loops=not args.no_loops,
        numba=not args.no_numba,
        memory_limit=args.memory_limit or None,
        log=sys.stderr,
    )
    print_report(report, sys.stdout, use_rich=False if args.plain else None)
    if args.report:
        head = (
            f"Run {started:%Y-%m-%d %H:%M} UTC: seed {args.seed}, {report.seconds:.0f} s, "
            f"{args.workers} worker(s), {len(ops)} ops, {report.calls} calls, "
            f"{report.failure_count} failures.\n\n"
        )
        from .runner import markdown_table as _md

        Path(args.report).write_text(head + _md(report) + "\n")
        del markdown_table
    return 1 if report.failure_count else 0


if __name__ == "__main__":
    sys.exit(main())
