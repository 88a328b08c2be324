"""Command line: ``gatherscatter`` (also ``python -m gatherscatter``).

Commands::

    gatherscatter tour                          the seed documents' worked examples, explained and checked
    gatherscatter table [--family F] [--framework FW ...] [--format text|md|json]
    gatherscatter explain FRAMEWORK.OP --data JSON --indices JSON [--updates JSON]
                          [--ATTR VALUE ...] [--opset N | --version N] [--svg FILE] [--png FILE]
    gatherscatter compare FAMILY --data JSON --indices JSON [--updates JSON] [--axis N ...]
    gatherscatter list [--framework F] [--family X]
    gatherscatter compat [--out docs/compatibility.md]
    gatherscatter translate FRAMEWORK.OP --to TARGET [--ATTR VALUE ...] [--version V]
                            [--verify N] [--format text|json] [--no-code]
    gatherscatter translate --matrix [--out docs/translation.md]

With no command, ``gatherscatter`` runs the tour. This module only parses arguments
and renders: the explanation model, tables and pictures live in
:mod:`gatherscatter.explain`. ``rich`` (the ``cli`` extra) is imported only when
colour output is used; without it, or when output is not a terminal, or with
``NO_COLOR`` set, output is plain text.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

import numpy as np

__all__ = ["CliError", "main", "run_tour"]

FAMILIES = ("gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd", "scatter_axis")


class CliError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message}")


def run_tour(out: TextIO, width: int = 100) -> int:
    """Print the tour as plain text; return the number of seed examples not reproduced."""
    from ..explain.lines import plain
    from ..explain.tour import tour_lines

    lines, bad = tour_lines(width)
    out.write(plain(lines))
    return bad


# ------------------------------------------------------------------ output


class _Out:
    def __init__(self, stream: TextIO, width: int, color: str) -> None:
        self.stream = stream
        self.width = width
        self.rich = False
        if color == "always" or (color == "auto" and _isatty(stream) and not os.environ.get("NO_COLOR")):
            from ..explain.terminal import rich_available

            self.rich = rich_available()
        self.force = color == "always"

    def emit(self, lines: list[Any]) -> None:
        if self.rich:
            from ..explain.terminal import rich_write

            rich_write(lines, self.stream, self.width, force_terminal=True if self.force else None)
        else:
            from ..explain.lines import plain

            self.stream.write(plain(lines))


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _width(arg: int | None) -> int:
    if arg is not None:
        return max(40, arg)
    env = os.environ.get("COLUMNS", "")
    if env.isdigit():
        return max(40, int(env))
    return max(40, shutil.get_terminal_size((100, 24)).columns)


# ------------------------------------------------------------------ argument helpers


def _json_array(name: str, text: str | None, *, required: bool = True) -> np.ndarray[Any, Any] | None:
    if text is None:
        if required:
            raise CliError(f"--{name} is required")
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"--{name} is not valid JSON ({exc.msg} at column {exc.colno}): {text!r}") from None
    try:
        arr = np.asarray(value)
    except ValueError:
        raise CliError(f"--{name} is not a rectangular array (rows of different lengths): {text!r}") from None
    if arr.dtype == object:
        raise CliError(f"--{name} must be a (nested) list of numbers or booleans: {text!r}")
    if name in ("indices",) and arr.size == 0:
        arr = arr.astype(np.int64)
    return arr


def _attr_value(text: str) -> Any:
    if text in ("None", "none", "null"):
        return None
    if text in ("True", "False"):
        return text == "True"
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _extra_attrs(extra: Sequence[str]) -> dict[str, Any]:
    """``--name value`` / ``--name=value`` pairs left over by argparse."""
    attrs: dict[str, Any] = {}
    items = list(extra)
    while items:
        tok = items.pop(0)
        if not tok.startswith("--") or len(tok) < 3:
            raise CliError(f"unexpected argument {tok!r} (attributes are given as --name value)")
        name, eq, val = tok[2:].partition("=")
        if not eq:
            if not items or (items[0].startswith("--") and not _is_number(items[0])):
                raise CliError(f"attribute --{name} needs a value")
            val = items.pop(0)
        attrs[name.replace("-", "_")] = _attr_value(val)
    return attrs


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _frameworks(values: Sequence[str] | None) -> list[str] | None:
    if not values:
        return None
    out = [f.strip() for v in values for f in v.split(",") if f.strip()]
    from ..dialects._registry import ops

    known = sorted({op.info.framework for op in ops()})
    for f in out:
        if f not in known:
            raise CliError(f"unknown framework {f!r}; known: {', '.join(known)}")
    return out


# ------------------------------------------------------------------ commands


def _cmd_tour(args: argparse.Namespace, out: _Out) -> int:
    from ..explain.tour import tour_lines

    lines, bad = tour_lines(out.width)
    out.emit(lines)
    return 1 if bad else 0


def _cmd_table(args: argparse.Namespace, out: _Out) -> int:
    from ..explain.report import table_lines
    from ..explain.table import make_table, table_json, table_markdown

    fams = [args.family] if args.family else list(FAMILIES)
    fws = _frameworks(args.framework)
    tables = [make_table(f, frameworks=fws) for f in fams]
    if args.format == "json":
        out.stream.write(json.dumps([table_json(t) for t in tables], indent=1, default=str) + "\n")
        return 0
    if args.format == "md":
        out.stream.write("\n".join(table_markdown(t) for t in tables))
        return 0
    lines: list[Any] = []
    for n, t in enumerate(tables):
        if n:
            lines.append([])
        lines.extend(table_lines(t, out.width))
    out.emit(lines)
    return 0


def _get_op(name: str) -> Any:
    from ..dialects._registry import get_op
    from ..errors import UnsupportedError

    try:
        return get_op(name)
    except UnsupportedError:
        raise CliError(f"unknown op {name!r}; `gatherscatter list` shows every op (as FRAMEWORK.OP)") from None


def _cmd_explain(args: argparse.Namespace, extra: Sequence[str], out: _Out) -> int:
    from ..explain.adapter import ProbeError, Roles, bind, parameters
    from ..explain.model import explain
    from ..explain.text import explanation_lines, too_large

    op = _get_op(args.op)
    attrs = _extra_attrs(extra)
    params = parameters(op)
    for name in attrs:
        if name not in params and not (name in ("axis", "dim") and ({"axis", "dim"} & set(params))):
            raise CliError(f"{op.info.qualname} has no attribute --{name}; its parameters are: {', '.join(params)}")
    version = args.version if args.version is not None else args.opset
    if version is not None and op.info.version_kw is None:
        raise CliError(f"{op.info.qualname} has one version only: --opset/--version do not apply")
    if version is not None:
        known = op.info.versions
        if op.info.version_kw == "version" and str(version) not in known:
            raise CliError(f"{op.info.qualname} has versions {', '.join(known)}; got --version {version}")
    kind = op.info.kind
    data = _json_array("data", args.data, required=False)
    indices = _json_array("indices", args.indices)
    updates = _json_array("updates", args.updates, required=kind == "scatter" and "value" not in params)
    if data is None and "shape" not in attrs:
        raise CliError("--data is required")
    if isinstance(indices, np.ndarray) and op.info.qualname in ("torch.index_put",) and indices.ndim == 0:
        raise CliError("--indices for torch.index_put is a list of index arrays, e.g. [[0, 1], [1, 0]]")
    try:
        binding = bind(op, Roles(data, indices, updates, attrs), version=version, index_form="native")
    except ProbeError as exc:
        raise CliError(f"{op.info.qualname}: {exc}") from None
    exp = explain(binding, data_shown=data)
    if args.svg or args.png:
        reason = too_large(exp)
        if reason is not None:
            raise CliError(f"picture not drawn: {reason}")
    if args.svg:
        from ..explain.svg import svg_text

        _write(args.svg, svg_text(exp))
    if args.png:
        from ..explain.png import png_bytes

        try:
            payload = png_bytes(exp)
        except ImportError:
            raise CliError("--png needs Pillow: pip install 'gatherscatter[cli]'") from None
        _write(args.png, payload)
    out.emit(explanation_lines(exp, out.width))
    for path in (args.svg, args.png):
        if path:
            out.stream.write(f"wrote {path}\n")
    return 0 if exp.error is None else 1


def _write(path: str, payload: str | bytes) -> None:
    try:
        if isinstance(payload, bytes):
            with open(path, "wb") as fb:
                fb.write(payload)
        else:
            with open(path, "w", encoding="utf-8") as ft:
                ft.write(payload)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}") from None


def _cmd_compare(args: argparse.Namespace, extra: Sequence[str], out: _Out) -> int:
    from ..explain.adapter import Roles
    from ..explain.report import compare, compare_lines

    attrs = _extra_attrs(extra)
    if args.axis is not None:
        attrs = {"axis": args.axis, **attrs}
    data = _json_array("data", args.data)
    indices = _json_array("indices", args.indices)
    updates = _json_array("updates", args.updates, required=args.family.startswith("scatter"))
    cmp = compare(args.family, Roles(data, indices, updates, attrs), frameworks=_frameworks(args.framework))
    if not cmp.results:
        raise CliError(f"no op of family {args.family!r} matches")
    out.emit(compare_lines(cmp, out.width))
    return 0


def _cmd_list(args: argparse.Namespace, out: _Out) -> int:
    from ..explain.report import list_lines

    fw = None
    if args.framework:
        fws = _frameworks([args.framework])
        fw = fws[0] if fws else None
    out.emit(list_lines(fw, args.family, out.width, summary=not args.brief))
    return 0


def _cmd_translate(args: argparse.Namespace, extra: Sequence[str], out: _Out) -> int:
    if args.matrix:
        if args.op or args.to or extra:
            raise CliError("--matrix takes no op, --to or attributes")
        from ..translate.coverage import translation_markdown

        _emit_text(translation_markdown(), args.out, out.stream)
        return 0
    if args.out:
        raise CliError("--out is for --matrix")
    if not args.op:
        raise CliError("translate needs an op (FRAMEWORK.OP) or --matrix")
    if not args.to:
        raise CliError("translate needs --to TARGET (e.g. --to onnx)")
    if args.verify is not None and args.verify < 1:
        raise CliError(f"--verify needs a positive number of cases; got {args.verify}")
    from ..errors import GatherScatterError
    from ..translate import translate

    op = _get_op(args.op)
    attrs = _extra_attrs(extra)
    notes = _default_axis(op.info.qualname, attrs)
    version = _attr_value(args.version) if args.version is not None else None
    try:
        t = translate(op, to=args.to, version=version, **attrs)
    except GatherScatterError as exc:
        raise CliError(_one_line(exc)) from None
    code: str | None = None
    code_error: str | None = None
    if not args.no_code:
        try:
            code = t.code
        except ImportError as exc:
            code_error = f"code not generated: {args.to} code needs the {exc.name or 'onnx'} package"
        except GatherScatterError as exc:
            code_error = f"code not generated: {_one_line(exc)}"
    report = t.verify(n=args.verify) if args.verify is not None else None
    if args.format == "json":
        data = {"notes": notes, **_translation_json(t, code, code_error, report)}
        out.stream.write(json.dumps(data, indent=1, default=str) + "\n")
    else:
        out.stream.write("".join(f"note: {n}\n" for n in notes) + _translation_text(t, code, code_error, report))
    return 1 if report is not None and not report.ok else 0


def _default_axis(qualname: str, attrs: dict[str, Any]) -> list[str]:
    """A required ``dim``/``axis`` the command line left out is 0 (said in a note)."""
    import inspect

    from ..translate.sources import SOURCES, _load

    _load()
    fn = SOURCES.get(qualname)
    if fn is None:
        return []
    notes = []
    params = inspect.signature(fn).parameters
    for name in ("dim", "axis"):
        p = params.get(name)
        if p is not None and p.default is inspect.Parameter.empty and name not in attrs:
            attrs[name] = 0
            notes.append(f"--{name} not given: translating {qualname} with {name}=0")
    return notes


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _emit_text(text: str, path: str | None, stream: TextIO) -> None:
    if path:
        _write(path, text)
    else:
        stream.write(text)


def _translation_text(t: Any, code: str | None, code_error: str | None, report: Any) -> str:
    parts = [t.plan_text(), ""]
    parts.append("exact: yes" if t.exact else "exact: no (the closest translation; see the divergences)")
    if report is not None:
        parts += ["", f"verify: {report}"]
    if code is not None:
        parts += ["", f"code ({t.target}):", code.rstrip("\n")]
    elif code_error is not None:
        parts += ["", code_error]
    return "\n".join(parts) + "\n"


def _translation_json(t: Any, code: str | None, code_error: str | None, report: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "source": t.source.op,
        "attrs": t.source.attrs,
        "target": t.target,
        "version": t.version,
        "meaning": t.source.canonical.describe(),
        "steps": [
            {"out": s.out, "kind": s.kind, "name": s.name, "args": s.arg_map, "attrs": s.attr_map, "why": s.why}
            for s in t.steps
        ],
        "ops": t.ops,
        "exact": t.exact,
        "divergences": t.divergences,
        "residuals": [{"when": r.when, "source": r.source, "target": r.target, "note": r.note} for r in t.residuals],
    }
    if code is not None:
        data["code"] = code
    if code_error is not None:
        data["code_error"] = code_error
    if report is not None:
        data["verify"] = {
            "total": report.total,
            "agree": report.agree,
            "both_raise": report.both_raise,
            "source_rejects": report.source_rejects,
            "explained": dict(report.explained),
            "failures": [str(m) for m in report.failures],
            "ok": report.ok,
        }
    return data


def _parser() -> _Parser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--width", type=int, default=argparse.SUPPRESS, help="output width in columns (default: the terminal's)"
    )
    common.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default=argparse.SUPPRESS,
        help="colour output (auto: on a terminal, if rich is installed and NO_COLOR is unset)",
    )
    p = _Parser(
        prog="gatherscatter",
        description="Every framework's gather and scatter ops, explained and compared.",
        parents=[common],
    )
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("tour", help="walk through the seed documents' worked examples, checked", parents=[common])
    t = sub.add_parser("table", help="the seed comparison tables, computed for every op and version", parents=[common])
    t.add_argument("--family", choices=FAMILIES)
    t.add_argument("--framework", action="append", help="only these frameworks (repeat, or comma-separated)")
    t.add_argument("--format", choices=("text", "md", "json"), default="text")
    e = sub.add_parser(
        "explain",
        help="draw which cell goes where for one call (other --ATTR VALUE are op attributes)",
        parents=[common],
    )
    e.add_argument("op", help="FRAMEWORK.OP, e.g. onnx.GatherND (see `gatherscatter list`)")
    e.add_argument("--data", help="JSON array")
    e.add_argument("--indices", help="JSON array (torch.index_put: a list of index arrays)")
    e.add_argument("--updates", help="JSON array (scatters)")
    g = e.add_mutually_exclusive_group()
    g.add_argument("--opset", type=int, help="ONNX opset")
    g.add_argument("--version", type=int, help="op version (OpenVINO)")
    e.add_argument("--svg", metavar="FILE", help="also write the picture as SVG")
    e.add_argument("--png", metavar="FILE", help="also write the picture as PNG (needs Pillow)")
    c = sub.add_parser("compare", help="one input through every op of a family, side by side", parents=[common])
    c.add_argument("family", choices=FAMILIES)
    c.add_argument("--data", required=True)
    c.add_argument("--indices", required=True)
    c.add_argument("--updates")
    c.add_argument("--axis", type=int)
    c.add_argument("--framework", action="append", help="only these frameworks (repeat, or comma-separated)")
    ls = sub.add_parser("list", help="every op with its versions", parents=[common])
    ls.add_argument("--framework")
    ls.add_argument("--family", choices=(*FAMILIES, "general"))
    ls.add_argument("--brief", action="store_true", help="without the one-line summaries")
    cp = sub.add_parser("compat", help="the generated compatibility page (tables + divergences)", parents=[common])
    cp.add_argument("--out", help="file to write (default: standard output)")
    tr = sub.add_parser(
        "translate",
        help="translate one op call into another framework: plan, divergences, code (other --ATTR VALUE are "
        "the op's attributes)",
        parents=[common],
    )
    tr.add_argument("op", nargs="?", help="FRAMEWORK.OP, e.g. torch.scatter_reduce (see `gatherscatter list`)")
    tr.add_argument("--to", help="target framework: onnx, torch, tensorflow, jax, numpy, paddle, openvino, mxnet, "
                    "caffe2 or gatherscatter")
    tr.add_argument("--version", help="target version (an ONNX opset; default: the newest); the source op's own "
                    "version attribute is --op-version")
    tr.add_argument("--verify", type=int, metavar="N", help="also run source and translation on N generated cases")
    tr.add_argument("--format", choices=("text", "json"), default="text")
    tr.add_argument("--no-code", action="store_true", help="leave out the generated code")
    tr.add_argument("--matrix", action="store_true", help="print the coverage matrix page (docs/translation.md)")
    tr.add_argument("--out", help="with --matrix: file to write (default: standard output)")
    from . import audit, conformance  # subcommands that live in their own modules (set args.handler)

    for mod in (audit, conformance):
        mod.register(sub, common)
    return p


def _cmd_compat(args: argparse.Namespace, stream: TextIO) -> int:
    from ..explain.compat import compatibility_markdown

    text = compatibility_markdown()
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise CliError(f"cannot write {args.out}: {exc.strerror}") from None
    else:
        stream.write(text)
    return 0


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Entry point of the ``gatherscatter`` command; returns the exit status."""
    out_stream = stdout if stdout is not None else sys.stdout
    err_stream = stderr if stderr is not None else sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and args.command not in ("explain", "compare", "translate"):
            raise CliError(f"unrecognized arguments: {' '.join(extra)}")
        out = _Out(out_stream, _width(getattr(args, "width", None)), getattr(args, "color", "auto"))
        if getattr(args, "handler", None) is not None:
            return int(args.handler(args, out_stream))
        if args.command in (None, "tour"):
            return _cmd_tour(args, out)
        if args.command == "table":
            return _cmd_table(args, out)
        if args.command == "explain":
            return _cmd_explain(args, extra, out)
        if args.command == "compare":
            return _cmd_compare(args, extra, out)
        if args.command == "compat":
            return _cmd_compat(args, out_stream)
        if args.command == "translate":
            return _cmd_translate(args, extra, out)
        return _cmd_list(args, out)
    except CliError as exc:
        err_stream.write(f"gatherscatter: error: {exc}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - `gatherscatter table | head`
        return 0
