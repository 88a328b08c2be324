"""Command line: ``gatherscatter`` (also ``python -m gatherscatter``).

Commands::

    gatherscatter tour                          the seed documents' worked examples, explained and checked
    gatherscatter table [--family F] [--framework FW ...] [--format text|md|json]
    gatherscatter explain FRAMEWORK.OP --ARG VALUE ... [--svg FILE] [--png FILE]
                          (the op's own argument names, e.g. --params/--indices for tensorflow.gather,
                          --indices/--updates/--shape for tensorflow.scatter_nd; --data/--indices/--updates
                          work for every op; `gatherscatter explain OP --help` lists them)
    gatherscatter compare FAMILY | OP OP ... --data JSON --indices JSON [--updates JSON] [--axis N ...]
    gatherscatter list [--framework F] [--family X]
    gatherscatter compat [--out docs/compatibility.md]
    gatherscatter translate FRAMEWORK.OP --to TARGET [--ATTR VALUE ...] [--version V]
                            [--verify N] [--format text|json] [--no-code]
    gatherscatter translate --matrix [--out docs/translation.md]
    gatherscatter gallery [--out docs/gallery] [--check] [--no-png]
    gatherscatter serve [--host 127.0.0.1] [--port 8000] [--open]   the web explorer (cli/serve.py)

With no command, ``gatherscatter`` prints its usage. Bad input is one line on
standard error and exit status 2; an op that refuses its input is explained on
standard output, its error on standard error, exit status 1. This module only parses arguments
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

from ..translate.targets import TARGETS
from .progress import isatty

__all__ = ["CliError", "main", "run_tour"]

FAMILIES = ("gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd", "scatter_axis")


def write_report(stream: TextIO, report: Any, fmt: str) -> None:
    """A report (``audit``, ``conformance``) as ``json`` (its ``as_dict()``), ``md`` (its ``markdown()``) or text."""
    if fmt == "json":
        stream.write(json.dumps(report.as_dict(), indent=1, default=str) + "\n")
    elif fmt == "md":
        stream.write(report.markdown())
    else:
        stream.write(report.text())


class CliError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sub = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        raise CliError(f"{sub}: {message}" if sub else message)


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
        self.warning = ""
        if color == "always" or (color == "auto" and isatty(stream) and not os.environ.get("NO_COLOR")):
            from ..explain.terminal import rich_available

            self.rich = rich_available()
            if color == "always" and not self.rich:
                self.warning = "--color always needs rich (pip install 'gatherscatter[cli]'): writing plain text"
        self.force = color == "always"

    def emit(self, lines: list[Any]) -> None:
        if self.rich:
            from ..explain.terminal import rich_write

            rich_write(lines, self.stream, self.width, force_terminal=True if self.force else None)
        else:
            from ..explain.lines import plain

            self.stream.write(plain(lines))


def _width(arg: int | None) -> int:
    if arg is not None:
        if arg < 20:
            raise CliError(f"--width must be at least 20 columns; got {arg}")
        return arg
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
    arr = _checked(name, value, text)
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


def _extra_attrs(extra: Sequence[str], *, raw: bool = False) -> dict[str, Any]:
    """``--name value`` / ``--name=value`` pairs left over by argparse (``raw``: values as given)."""
    attrs: dict[str, Any] = {}
    items = list(extra)
    while items:
        tok = items.pop(0)
        if not tok.startswith("--") or len(tok) < 3:
            raise CliError(f"unexpected argument {tok!r} (attributes are given as --name value)")
        name, eq, val = tok[2:].partition("=")
        if not eq:
            if not items or (items[0].startswith("--") and not _is_number(items[0])):
                raise CliError(f"--{name} needs a value")
            val = items.pop(0)
        key = name.replace("-", "_")
        if key in attrs:
            raise CliError(f"--{name} is given twice")
        attrs[key] = val if raw else _attr_value(val)
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


def _tensor(name: str, text: str, *, allow_tuple: bool = False) -> Any:
    """A tensor argument: JSON (or, where the op takes NumPy's index forms, a Python tuple of lists)."""
    if allow_tuple and text.lstrip().startswith("("):
        import ast

        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise CliError(f"--{name} is not a tuple of index lists: {text!r}") from None
        if isinstance(value, tuple):
            return tuple(_checked(name, v, text) for v in value)
    arr = _json_array(name, text)
    assert arr is not None
    return arr


def _checked(name: str, value: Any, text: str) -> np.ndarray[Any, Any]:
    try:
        arr = np.asarray(value)
    except ValueError:
        raise CliError(f"--{name} is not a rectangular array (rows of different lengths): {text!r}") from None
    if arr.dtype.kind not in "biuf":
        raise CliError(f"--{name} must be a (nested) list of numbers or booleans: {text!r}")
    return arr


def _sub_help(parser: argparse.ArgumentParser, name: str) -> str:
    """The help text of subcommand ``name``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return str(action.choices[name].format_help())
    return parser.format_help()  # pragma: no cover - every parser here has subcommands


def _op_help(op: Any) -> str:
    """``gatherscatter explain OP --help``: the op's arguments (tensors) and attributes with defaults."""
    import inspect

    from ..explain.facts import attribute_params, facts

    f = facts(op)
    roles = {f.data: "data tensor", f.indices: "indices", f.updates: "updates", f.shape: "output shape (a list)"}
    lines = [f"usage: gatherscatter explain {op.info.qualname} --ARG VALUE ... [--svg FILE] [--png FILE]", ""]
    if op.info.summary:
        lines += [_plain_summary(op.info.summary), ""]
    lines.append("arguments (JSON arrays):")
    for n in f.inputs:
        if n in roles and n is not None:
            extra = ""
            if n == f.indices and f.index_form == "sequence":
                extra = "; a list of index arrays, one per indexed axis"
            elif n == f.indices and f.index_form == "expression":
                extra = "; NumPy's index forms: one array (rows along the first axis) or a tuple '([..], [..])'"
            elif n == f.indices and f.index_axis == 0:
                extra = "; index tuples run down the FIRST axis"
            lines.append(f"  --{n:<12} {roles[n]}{extra}")
    lines.append("attributes:")
    attrs = attribute_params(op)
    if not [n for n in attrs if n != "out"]:
        lines.append("  (none)")
    for n, p in attrs.items():
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) or n == "out":
            continue
        default = "required" if p.default is inspect.Parameter.empty else f"default {p.default!r}"
        vers = ""
        if n == op.info.version_kw and op.info.versions:
            vers = f"; one of {', '.join(op.info.versions)}"
        lines.append(f"  --{n:<12} {default}{vers}")
    lines += ["", "--data, --indices, --updates are accepted for every op (mapped to the op's own arguments)."]
    return "\n".join(lines) + "\n"


def _plain_summary(text: str) -> str:
    from ..explain.lines import plain_rst

    return plain_rst(text)


def _cmd_explain(args: argparse.Namespace, extra: Sequence[str], out: _Out, err: TextIO) -> int:
    from ..explain.adapter import ProbeError, bind_call, missing_params
    from ..explain.facts import facts, parameters
    from ..explain.model import explain
    from ..explain.text import explanation_lines, too_large

    if args.op is None:
        if args.help:
            out.stream.write(_sub_help(_parser(), "explain"))
            return 0
        raise CliError("explain needs an op (FRAMEWORK.OP); `gatherscatter list` shows them")
    op = _get_op(args.op)
    if args.help:
        out.stream.write(_op_help(op))
        return 0
    for path, suffix in ((args.svg, ".svg"), (args.png, ".png")):
        if path and not path.lower().endswith(suffix):
            kind = suffix[1:]
            raise CliError(f"--{kind} writes {kind.upper()}: give a file name ending in {suffix}; got {path}")
    given = _extra_attrs(extra, raw=True)
    params = parameters(op)
    f = facts(op)
    neutral = {"data": f.data, "indices": f.indices, "updates": f.updates}
    tensors = {n for n in (f.data, f.indices, f.updates) if n is not None}
    kwargs: dict[str, Any] = {}
    for name, text in given.items():
        target = name
        if name not in params:
            if name in neutral and neutral[name] is not None:
                target = neutral[name]  # type: ignore[assignment]
            elif name in ("axis", "dim") and ({"axis", "dim"} & set(params)):
                target = next(n for n in ("axis", "dim") if n in params)
            elif name == "shape" and f.shape is None and f.data is not None:
                raise CliError(f"{op.info.qualname} has no --shape: it takes a data tensor --{f.data}")
            elif name == "data" and f.shape is not None:
                raise CliError(f"{op.info.qualname} has no data tensor: give --{f.shape} (the output's shape)")
            else:
                raise CliError(
                    f"{op.info.qualname} has no argument --{name}; its arguments are: "
                    + ", ".join("--" + n for n in params if n != "out")
                )
        if target in kwargs:
            raise CliError(f"--{name} is given twice (as --{target})")
        if target in tensors:
            kwargs[target] = _tensor(name, text, allow_tuple=target == f.indices and f.index_form != "array")
            if target == f.indices and isinstance(kwargs[target], np.ndarray) and kwargs[target].size == 0:
                kwargs[target] = kwargs[target].astype(np.int64)
        else:
            kwargs[target] = _attr_value(text)
    if f.indices in kwargs and f.index_form == "sequence" and isinstance(kwargs[f.indices], np.ndarray):
        arr = kwargs[f.indices]
        if arr.ndim == 0:
            raise CliError(f"--{f.indices} for {op.info.qualname} is a list of index arrays, e.g. [[0, 1], [1, 0]]")
        kwargs[f.indices] = tuple(arr[j] for j in range(arr.shape[0]))
    vkw = op.info.version_kw
    if vkw == "version" and vkw in kwargs and op.info.versions and str(kwargs[vkw]) not in op.info.versions:
        raise CliError(f"{op.info.qualname} has versions {', '.join(op.info.versions)}; got --{vkw} {kwargs[vkw]}")
    missing = missing_params(params, kwargs)
    if missing:
        raise CliError(
            f"{op.info.qualname} needs " + ", ".join("--" + n for n in missing)
            + f" (`gatherscatter explain {op.info.qualname} --help` lists its arguments)"
        )
    try:
        binding = bind_call(op, (), kwargs)
        exp = explain(binding)
    except ProbeError as exc:
        raise CliError(f"{op.info.qualname}: {exc}") from None
    except CliError:
        raise
    except Exception as exc:  # an input the explanation cannot follow: one line, never a traceback
        raise CliError(f"{op.info.qualname}: {_one_line(exc)}") from None
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
    if exp.error is not None:
        err.write(f"gatherscatter: error: {exp.error}\n")
        return 1
    return 0


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
    names = list(args.family)
    data = _json_array("data", args.data)
    indices = _json_array("indices", args.indices)
    if len(names) == 1 and names[0] in FAMILIES:
        family = names[0]
        updates = _json_array("updates", args.updates, required=family.startswith("scatter"))
        cmp = compare(family, Roles(data, indices, updates, attrs), frameworks=_frameworks(args.framework))
        if not cmp.results:
            raise CliError(f"no op of family {family!r} matches")
    else:
        fams = [n for n in names if n in FAMILIES]
        if fams:
            raise CliError(f"compare takes one family ({fams[0]}) or op names (FRAMEWORK.OP), not both")
        op_list = [_get_op(n) for n in names]
        needs_updates = any(op.info.kind == "scatter" for op in op_list)
        updates = _json_array("updates", args.updates, required=needs_updates)
        cmp = compare(", ".join(op.info.qualname for op in op_list), Roles(data, indices, updates, attrs),
                      frameworks=_frameworks(args.framework), op_list=op_list)
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

    from ..dialects._registry import ops

    fn = next((op.record.describe for op in ops() if op.info.qualname == qualname), None)
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
    parts.append(t.verdict)
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
        help="draw which cell goes where for one call, arguments by the op's own names",
        parents=[common],
        add_help=False,
        epilog="The op's own arguments are given as --NAME VALUE (tensors as JSON arrays); "
        "`gatherscatter explain OP --help` lists them. --data/--indices/--updates work for every op.",
    )
    e.add_argument("op", nargs="?", help="FRAMEWORK.OP, e.g. onnx.GatherND (see `gatherscatter list`)")
    e.add_argument("-h", "--help", action="store_true", help="show this help, or the op's arguments with OP")
    e.add_argument("--svg", metavar="FILE", help="also write the picture as SVG")
    e.add_argument("--png", metavar="FILE", help="also write the picture as PNG (needs Pillow)")
    c = sub.add_parser(
        "compare",
        help="one input through every op of a family, or through the ops named, side by side",
        parents=[common],
    )
    c.add_argument("family", nargs="+", metavar="FAMILY|OP", help=f"a family ({', '.join(FAMILIES)}) or ops")
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
    tr.add_argument("--to", help=f"target framework: {', '.join(sorted(TARGETS))}")
    tr.add_argument("--version", help="target version (an ONNX or OpenVINO opset, default: the newest; a Keras "
                    "backend, default: tensorflow); the source op's own version attribute is --op-version")
    tr.add_argument("--verify", type=int, metavar="N", help="also run source and translation on N generated cases")
    tr.add_argument("--format", choices=("text", "json"), default="text")
    tr.add_argument("--no-code", action="store_true", help="leave out the generated code")
    tr.add_argument("--matrix", action="store_true", help="print the coverage matrix page (docs/translation.md)")
    tr.add_argument("--out", help="with --matrix: file to write (default: standard output)")
    ga = sub.add_parser("gallery", help="draw the gallery of explained examples (SVG + PNG)", parents=[common])
    ga.add_argument("--out", default="docs/gallery", help="directory (default: docs/gallery)")
    ga.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is missing or stale")
    ga.add_argument("--no-png", action="store_true", help="SVG only (PNG needs Pillow)")
    from .serve import add_parser as add_serve  # the web explorer (cli/serve.py)

    add_serve(sub, common)
    from . import audit, conformance  # subcommands that live in their own modules (set args.handler)

    for mod in (audit, conformance):
        mod.register(sub, common)
    return p


def _cmd_gallery(args: argparse.Namespace) -> int:
    from ..explain.gallery import main as gallery_main

    argv = ["--out", args.out] + (["--check"] if args.check else []) + (["--no-png"] if args.no_png else [])
    return gallery_main(argv)


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
        if out.warning:
            err_stream.write(f"gatherscatter: warning: {out.warning}\n")
        if getattr(args, "handler", None) is not None:
            return int(args.handler(args, out_stream))
        if args.command is None:
            out_stream.write(parser.format_help())
            return 2
        if args.command == "tour":
            return _cmd_tour(args, out)
        if args.command == "table":
            return _cmd_table(args, out)
        if args.command == "explain":
            return _cmd_explain(args, extra, out, err_stream)
        if args.command == "compare":
            return _cmd_compare(args, extra, out)
        if args.command == "compat":
            return _cmd_compat(args, out_stream)
        if args.command == "translate":
            return _cmd_translate(args, extra, out)
        if args.command == "gallery":
            return _cmd_gallery(args)
        if args.command == "serve":
            from .serve import run as serve

            return serve(args, out_stream)
        return _cmd_list(args, out)
    except CliError as exc:
        err_stream.write(f"gatherscatter: error: {exc}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - `gatherscatter table | head`
        return 0
