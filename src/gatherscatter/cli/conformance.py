"""``gatherscatter conformance export DIR [--ops ...] [--opsets ...] [--dtypes ...]`` and
``gatherscatter conformance run DIR --runtime onnxruntime|openvino|reference|gatherscatter``.

Parses arguments and renders; the kit is :mod:`gatherscatter.onnxtools.conformance`.
``run`` exits with 1 when a runtime diverges from the manifest, 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

__all__ = ["register", "run"]


def _list(text: str | None) -> list[str] | None:
    return None if text is None else [t.strip() for t in text.split(",") if t.strip()]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``conformance`` subcommand (``export``, ``run``) to the ``gatherscatter`` parser."""
    p = sub.add_parser("conformance", help="write or run the gather/scatter conformance kit for ONNX runtimes",
                       parents=[common])
    csub = p.add_subparsers(dest="action", parser_class=type(p))
    e = csub.add_parser("export", help="write the kit (ONNX backend-test layout + manifest.json)", parents=[common])
    e.add_argument("dir", help="directory to create (must be empty or absent)")
    e.add_argument("--ops", help="comma-separated ONNX op types (default: every gather/scatter op)")
    e.add_argument("--opsets", help="comma-separated opsets or op versions (default: every version of each op)")
    e.add_argument("--dtypes", help="comma-separated data dtypes of the dtype sweep (default: a common set)")
    e.add_argument("--no-large", action="store_true", help="leave out the large-shape cases")
    e.add_argument("--quiet", action="store_true", help="no progress display")
    r = csub.add_parser("run", help="run a kit on a runtime and report every divergence", parents=[common])
    r.add_argument("dir", help="a directory written by `gatherscatter conformance export`")
    r.add_argument("--runtime", required=True, help="onnxruntime, openvino, reference or gatherscatter")
    r.add_argument("--threads", type=int, help="intra-op threads (default: the runtime's default)")
    r.add_argument("--only", metavar="REGEX", help="only the cases whose name matches")
    r.add_argument("--timeout", type=float, default=120.0, help="seconds per case (default: 120)")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, stream: TextIO) -> int:
    """Run ``gatherscatter conformance ...``; return the exit status."""
    from . import CliError, write_report
    from .progress import Progress

    if args.action not in ("export", "run"):
        raise CliError("conformance needs an action: export DIR or run DIR --runtime NAME")
    try:
        from ..onnxtools.conformance import KitError, export
        from ..onnxtools.conformance import run as run_kit
    except ImportError:  # pragma: no cover - onnx missing
        raise CliError("conformance needs the onnx package: pip install 'gatherscatter[onnx]'") from None
    try:
        if args.action == "export":
            opsets = None
            if args.opsets:
                try:
                    opsets = [int(v) for v in _list(args.opsets) or []]
                except ValueError:
                    raise CliError(f"--opsets takes integers, e.g. 13,18; got {args.opsets!r}") from None
            with Progress("conformance export", sys.stderr, enabled=not args.quiet) as prog:
                manifest = export(args.dir, ops=_list(args.ops), opsets=opsets, dtypes=_list(args.dtypes),
                                  large=not args.no_large, progress=prog.update)
            kinds: dict[str, int] = {}
            for c in manifest["cases"]:
                kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
            detail = ", ".join(f"{v} {k}" for k, v in sorted(kinds.items()))
            stream.write(f"wrote {len(manifest['cases'])} cases to {args.dir} ({detail})\n")
            return 0
        if args.threads is not None and args.threads < 1:
            raise CliError(f"--threads must be at least 1; got {args.threads}")
        with Progress(f"conformance run ({args.runtime})", sys.stderr, enabled=not args.quiet) as prog:
            report = run_kit(args.dir, args.runtime, threads=args.threads, only=args.only, progress=prog.update,
                             timeout=args.timeout)
    except KitError as exc:
        raise CliError(" ".join(str(exc).split())) from None
    except ImportError as exc:
        raise CliError(f"the {args.action} needs the {exc.name} package (pip install {exc.name})") from None
    write_report(stream, report, args.format)
    return 1 if report.divergences else 0
