"""The gatherscatter fuzzer: hostile calls for every op, checked by an oracle.

``python -m gatherscatter.fuzz --seconds 600`` generates valid and invalid
calls for every registered op (``gs.ops()``: every framework dialect and the
neutral API) and checks each outcome: a call must end in a correct result (the
NumPy and numba backends agree bit for bit, and agree with the op's lowering
run by the readable element loops; the result is a new writeable array sharing
no memory with an input) or in a :class:`~gatherscatter.errors.GatherScatterError`.
Any other exception, a crash, a hang, or a modified input array is a failure,
reported with a self-contained reproducer. See ``docs/fuzzing.md``.

The pieces: :mod:`~gatherscatter.fuzz.gen` (cases), :mod:`~gatherscatter.fuzz.oracle`
(:func:`check_call`), :mod:`~gatherscatter.fuzz.repro` (reproducers) and
:mod:`~gatherscatter.fuzz.runner` (workers, budget, tables).
"""

from __future__ import annotations

from .gen import Case, generate
from .oracle import FuzzFailure, Outcome, check_call, resolve_op, run_case
from .repro import reproducer
from .runner import Failure, OpStats, Report, fuzz, select_ops

__all__ = [
    "Case",
    "Failure",
    "FuzzFailure",
    "OpStats",
    "Outcome",
    "Report",
    "check_call",
    "fuzz",
    "generate",
    "reproducer",
    "resolve_op",
    "run_case",
    "select_ops",
]
