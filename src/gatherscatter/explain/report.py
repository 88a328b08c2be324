"""Text layouts of the ``table``, ``compare`` and ``list`` commands (styled lines)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp, ops
from .adapter import AXIS_NAMES, ProbeError, Roles, bind, parameters
from .lines import Line, Seg, fmt_value, fmt_values, line, plain_rst, wrap
from .model import short_error
from .table import Table
from .text import _Cell, _panel, _side_by_side

__all__ = ["Comparison", "compare", "compare_lines", "list_lines", "table_lines"]

_STATUS_STYLE = {"ok": None, "error": "err", "n/a": "dim", "other": "warn"}


def table_lines(t: Table, width: int = 100) -> list[Line]:
    """The table as blocks: one block per probe, one line (wrapped) per op column."""
    out: list[Line] = [line(Seg(t.title, "title"))]
    out.extend(
        wrap(
            f"computed now from {len(t.columns)} column(s): every registered op of the family, at every version "
            "(versions that agree on every row share a column)",
            width,
            "  ",
            "dim",
            first="",
        )
    )
    labw = min(34, max((len(c.label) for c in t.columns), default=10))
    for r in t.rows:
        out.append([])
        out.extend(wrap(r.case, width, "  ", "head", first=""))
        for col, cell in zip(t.columns, r.cells, strict=True):
            label = col.label.ljust(labw)
            first = f"  {label}  "
            if len(col.label) > labw:
                out.append(line(f"  {col.label}"))
                first = "  " + " " * labw + "  "
            out.extend(wrap(cell.text, width, " " * (labw + 4), _STATUS_STYLE.get(cell.status), first=first))
    notes = [(c.label, n) for c in t.columns for n in c.notes]
    if notes or t.skipped:
        out.append([])
    for label, n in notes:
        out.extend(wrap(f"{label}: {n}", width, "    ", "dim", first="  note: "))
    for op, why in t.skipped:
        out.extend(wrap(f"{op}: cannot take a neutral probe ({why})", width, "    ", "dim", first="  skipped: "))
    return out


@dataclass
class OpResult:
    op: str
    label: str
    result: np.ndarray[Any, Any] | None = None
    error: str | None = None
    na: str | None = None
    notes: tuple[str, ...] = ()


@dataclass
class Comparison:
    """One input through every op of a family: results grouped by value."""

    family: str
    roles: Roles
    results: list[OpResult] = field(default_factory=list)
    groups: list[tuple[np.ndarray[Any, Any], list[OpResult]]] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return len(self.groups) <= 1 and not any(r.error for r in self.results)


def _same(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    if a.shape != b.shape:
        return False
    try:
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc" and b.dtype.kind in "fc"))
    except TypeError:
        return bool(np.array_equal(a, b))


def compare(
    family: str, roles: Roles, *, frameworks: Sequence[str] | None = None, op_list: Sequence[DialectOp] | None = None
) -> Comparison:
    """Run ``roles`` through every op of ``family`` (newest version of each), or through ``op_list``.

    With ``op_list`` (ops of any families, side by side) an attribute an op does not have
    is left out for that op, and said so in its notes; within a family such an op cannot
    take the probe.
    """
    cmp = Comparison(family, roles)
    for op in op_list if op_list is not None else ops(family=family):
        info = op.info
        if frameworks and info.framework not in frameworks:
            continue
        r = OpResult(info.qualname, info.qualname)
        own = roles
        dropped: list[str] = []
        if op_list is not None:
            params = parameters(op)
            axis_ok = bool(set(AXIS_NAMES) & set(params))
            keep = {k: v for k, v in roles.attrs.items() if k in params or (k in AXIS_NAMES and axis_ok)}
            dropped = [k for k in roles.attrs if k not in keep]
            own = Roles(roles.data, roles.indices, roles.updates, keep)
        try:
            b = bind(op, own)
        except ProbeError as exc:
            r.na = str(exc)
            cmp.results.append(r)
            continue
        r.notes = b.notes + tuple(f"has no {k}: left out" for k in dropped)
        try:
            low = b.lower()
            r.label = low.ctx.label
            r.result = low.run()
        except Exception as exc:  # every failure is shown: class and message
            r.error = short_error(exc, 200, op=info.qualname)
        cmp.results.append(r)
    for r in cmp.results:
        if r.result is None:
            continue
        for value, members in cmp.groups:
            if _same(value, r.result):
                members.append(r)
                break
        else:
            cmp.groups.append((r.result, [r]))
    cmp.groups.sort(key=lambda g: -len(g[1]))
    return cmp


def _diff_positions(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> list[tuple[int, ...]]:
    if a.shape != b.shape:
        return []
    out = []
    for p in np.ndindex(*a.shape):
        if not _same(np.asarray(a[p]), np.asarray(b[p])):
            out.append(tuple(int(x) for x in p))
    return out


def compare_lines(cmp: Comparison, width: int = 100) -> list[Line]:
    """Results side by side (one grid per distinct result), differences from the first marked."""
    out: list[Line] = []
    r = cmp.roles
    desc = f"data {fmt_values(r.data, 60)}, indices {fmt_values(r.indices, 60)}"
    if r.updates is not None:
        desc += f", updates {fmt_values(r.updates, 60)}"
    if r.attrs:
        desc += ", " + ", ".join(f"{k}={v!r}" for k, v in r.attrs.items())
    out.append(line(Seg(f"compare {cmp.family}", "title")))
    out.extend(wrap(desc, width, "  ", first="  "))
    out.append([])
    names = [chr(65 + n) if n < 26 else f"#{n + 1}" for n in range(len(cmp.groups))]
    if cmp.groups:
        ref = cmp.groups[0][0]
        panels = []
        drawable = all(v.size <= 64 and (v.ndim == 0 or v.shape[-1] <= 12) for v, _ in cmp.groups)
        for name, (value, members) in zip(names, cmp.groups, strict=True):
            diff = set(_diff_positions(ref, value)) if value is not ref else set()
            if value is not ref and value.shape != ref.shape:
                diff = set(np.ndindex(*value.shape))

            def cell(p: tuple[int, ...], value: np.ndarray[Any, Any] = value, diff: set[Any] = diff) -> _Cell:
                v = fmt_value(value[p])
                return _Cell(v + "*", "diff") if p in diff else _Cell(v)

            title = f"{name}: {len(members)} op{'s' if len(members) != 1 else ''}"
            if drawable:
                panels.append(_panel(title, value, cell))
        if panels:
            out.extend(_side_by_side(panels, width))
            if len(cmp.groups) > 1:
                out.append([])
                out.extend(wrap("* differs from A (the result most ops give)", width, "  ", "dim", first="  "))
            out.append([])
        for name, (value, members) in zip(names, cmp.groups, strict=True):
            style = None if value is ref else "diff"
            head = f"{name} = {fmt_values(value, 60)}"
            if value is not ref:
                pos = _diff_positions(ref, value)
                if value.shape != ref.shape:
                    head += f"  (shape {tuple(value.shape)}, A has {tuple(ref.shape)})"
                elif pos:
                    shown = ", ".join("[" + ", ".join(map(str, p)) + "]" for p in pos[:8])
                    head += f"  (differs from A at {shown}{' ...' if len(pos) > 8 else ''})"
            out.extend(wrap(head, width, "      ", style, first="  "))
            for m in members:
                out.extend(wrap(m.label + "".join(f"  [{n}]" for n in m.notes), width, "      ", first="    "))
    sections = (("errors", "err", lambda x: x.error and f"{x.label}: {x.error}"),
                ("cannot take this input", "dim", lambda x: x.na and f"{x.op}: {x.na}"))
    for title, style, text in sections:
        rows = [t for t in map(text, cmp.results) if t]
        if rows:
            out.append([])
            out.append(line(Seg(f"  {title} ({len(rows)} op{'s' if len(rows) != 1 else ''}):", style)))
            for t in rows:
                out.extend(wrap(t, width, "      ", style, first="    "))
    out.append([])
    ran = sum(1 for x in cmp.results if not x.na)
    if cmp.agree:
        verdict = Seg(f"all {ran} ops that ran agree.", "ok")
    else:
        verdict = Seg(
            f"{len(cmp.groups)} different result(s) and {sum(1 for x in cmp.results if x.error)} error(s) "
            f"from {ran} ops that ran.", "warn"
        )
    out.append(line(verdict))
    if too_large_roles(cmp.roles):
        out.append(line(Seg("(large inputs: grids not drawn)", "dim")))
    return out


def too_large_roles(roles: Roles) -> bool:
    return any(x is not None and np.size(x) > 4096 for x in (roles.data, roles.indices, roles.updates))


def list_lines(
    framework: str | None = None, family: str | None = None, width: int = 100, *, summary: bool = True
) -> list[Line]:
    """Every registered op with its family, kind and versions."""
    found = ops(framework=framework, family=family)
    out: list[Line] = []
    if not found:
        return [line("no ops match")]
    fw = max(len("framework"), *(len(op.info.framework) for op in found))
    nw = max(len("op"), *(len(op.info.name) for op in found))
    famw = max(len("family"), *(len(op.info.family) for op in found))
    out.append(line(Seg(f"{'framework'.ljust(fw)}  {'op'.ljust(nw)}  {'family'.ljust(famw)}  versions", "head")))
    for op in found:
        i = op.info
        vers = ", ".join(i.versions) if i.versions else "-"
        if i.version_kw:
            vers = f"{i.version_kw} {vers}"
        out.append(line(f"{i.framework.ljust(fw)}  {i.name.ljust(nw)}  {i.family.ljust(famw)}  {vers}"))
        if summary and i.summary:
            out.extend(wrap(plain_rst(i.summary), width, " " * (fw + 4), "dim"))
    out.append([])
    out.append(line(Seg(f"{len(found)} op(s)", "dim")))
    return out
