"""Command line: ``gatherscatter tour`` (also ``python -m gatherscatter``).

The tour runs every worked example of the seed documents through the library
and checks the result against the value the seed prints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

__all__ = ["main", "run_tour"]


def _fmt(value: Any) -> str:
    return str(np.asarray(value).tolist())


def run_tour(out: TextIO) -> int:
    """Print every seed example with the library's result; return the number of mismatches."""
    from ..dialects._registry import get_op
    from ..explain.seeds import SEED_EXAMPLES

    bad = 0
    for n, ex in enumerate(SEED_EXAMPLES, 1):
        op = get_op(ex.op)
        got = op(*ex.args, **ex.kwargs)
        if ex.expected is not None:
            ok = got.tolist() == ex.expected
            shown = _fmt(ex.expected)
        else:
            ok = got.shape == ex.expected_shape and all(got[pos] == v for pos, v in ex.expected_at)
            shown = f"shape {list(ex.expected_shape or ())}, " + ", ".join(
                f"out{list(pos)} = {v}" for pos, v in ex.expected_at
            )
        bad += not ok
        call = ", ".join([_fmt(a) for a in ex.args] + [f"{k}={v!r}" for k, v in ex.kwargs.items()])
        out.write(f"{n}. {ex.title}\n   seed: {ex.source}\n   {ex.op}({call})\n")
        out.write(f"   -> {_fmt(got)}\n   seed prints: {shown}   [{'ok' if ok else 'MISMATCH'}]\n")
        if ex.note:
            out.write(f"   {ex.note}\n")
        out.write("\n")
    out.write(f"{len(SEED_EXAMPLES) - bad} of {len(SEED_EXAMPLES)} seed examples reproduced.\n")
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gatherscatter`` command."""
    parser = argparse.ArgumentParser(prog="gatherscatter", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("tour", help="walk through the seed documents' worked examples, checked")
    args = parser.parse_args(argv)
    if args.command in (None, "tour"):
        return 1 if run_tour(sys.stdout) else 0
    parser.error(f"unknown command {args.command}")
    return 2
