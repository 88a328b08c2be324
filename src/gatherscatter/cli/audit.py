"""``gatherscatter audit MODEL.onnx [--inputs SAMPLE.npz] [--runtimes ...] [--format text|json|md]``.

Parses arguments and renders; the audit itself is :mod:`gatherscatter.onnxtools.audit`.
Exit status: 0 when no finding changes a result, 1 when one does, 2 for bad input
(an unreadable model or inputs file, an unknown runtime).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

__all__ = ["register", "run"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``audit`` subcommand to the ``gatherscatter`` parser."""
    p = sub.add_parser(
        "audit",
        help="list an ONNX model's gather/scatter nodes and what could make their results differ between runtimes",
        parents=[common],
    )
    p.add_argument("model", help="an .onnx file")
    p.add_argument("--inputs", metavar="SAMPLE.npz", help="sample inputs (np.savez, one array per model input)")
    p.add_argument("--runtimes", default="onnxruntime,openvino,reference",
                   help="comma-separated: onnxruntime, openvino, reference (default: all three)")
    p.add_argument("--format", choices=("text", "json", "md"), default="text")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, stream: TextIO) -> int:
    """Run ``gatherscatter audit``; return the exit status."""
    from . import CliError, write_report
    from .progress import Progress

    try:
        from ..onnxtools.audit import AuditError, audit
    except ImportError:  # pragma: no cover - onnx missing
        raise CliError("audit needs the onnx package: pip install 'gatherscatter[onnx]'") from None
    runtimes = [r.strip() for r in args.runtimes.split(",") if r.strip()]
    try:
        with Progress("audit", sys.stderr, enabled=not args.quiet and args.inputs is not None) as prog:
            report = audit(args.model, args.inputs, runtimes=runtimes, progress=prog.update)
    except AuditError as exc:
        raise CliError(" ".join(str(exc).split())) from None
    except ImportError as exc:
        raise CliError(f"audit needs {exc.name}: pip install 'gatherscatter[onnx]'") from None
    write_report(stream, report, args.format)
    return report.exit_status
