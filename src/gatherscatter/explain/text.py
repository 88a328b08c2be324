"""Text layout of an :class:`~gatherscatter.explain.model.Explanation`.

The picture is one panel per tensor (data, indices, updates, output), side by side
when they fit the width, else one below the other. Tensors of rank > 2 are shown as
2-D slices (``[0, :, :]``, ``[1, :, :]``...). Every source cell (a data cell a gather
reads, an update a scatter writes) has a tag (``A``, ``B``...) and a colour; an
output cell carries the tag of the cell it came from, so the correspondence is
readable without colour too. Markers: ``!`` an out-of-range index (or an output
cell filled because of one), ``~`` a negative index that wrapped, ``*`` an output
cell several updates collided on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .lines import Line, Seg, fmt_value, fmt_values, line, tag, width_of, wrap
from .model import Explanation, Pos

__all__ = ["MAX_CELLS", "MAX_COLS", "MAX_SLICES", "explanation_lines", "grid_slices", "too_large"]

MAX_CELLS = 256
"""Largest tensor (in cells) drawn as a picture."""
MAX_COLS = 16
"""Widest 2-D slice drawn."""
MAX_SLICES = 16
"""Most 2-D slices drawn for one tensor."""


def grid_slices(shape: tuple[int, ...]) -> list[tuple[str, list[list[Pos]]]]:
    """The 2-D slices of a tensor: ``(label, rows of positions)``; rank 0 and 1 give one row."""
    if len(shape) == 0:
        return [("", [[()]])]
    if len(shape) == 1:
        return [("", [[(j,) for j in range(shape[0])]])]
    out = []
    for lead in np.ndindex(*shape[:-2]):
        lead_t = tuple(int(x) for x in lead)
        label = "[" + ", ".join([str(x) for x in lead_t] + [":", ":"]) + "]" if lead_t else ""
        rows = [[lead_t + (i, j) for j in range(shape[-1])] for i in range(shape[-2])]
        out.append((label, rows))
    return out


def too_large(exp: Explanation) -> str | None:
    """Why the picture of ``exp`` is too large to draw (None: it is not)."""
    tensors = [("data", exp.data), ("indices", exp.indices), ("updates", exp.updates), ("output", exp.output)]
    for name, arr in tensors:
        if arr is None:
            continue
        shape = tuple(arr.shape)
        if arr.size > MAX_CELLS:
            return f"{name} has {arr.size} cells (the limit is {MAX_CELLS} per tensor)"
        if len(shape) >= 1 and shape[-1] > MAX_COLS:
            return f"{name} is {shape[-1]} cells wide (the limit is {MAX_COLS})"
        if len(shape) > 2 and int(np.prod(shape[:-2])) > MAX_SLICES:
            return f"{name} has {int(np.prod(shape[:-2]))} 2-D slices (the limit is {MAX_SLICES})"
    return None


@dataclass
class _Cell:
    text: str
    style: str | None = None


CellFn = Callable[[Pos], _Cell]


def _panel(title: str, arr: np.ndarray[Any, Any] | None, cell: CellFn) -> list[Line]:
    if arr is None:
        return []
    shape = tuple(arr.shape)
    head = [Seg(title, "head"), Seg(f" {_shape_str(shape)}", "dim")]
    if arr.size == 0:
        return [head, line("  (empty)")]
    slices = grid_slices(shape)
    cells = {p: cell(p) for _, rows in slices for r in rows for p in r}
    w = max(len(c.text) for c in cells.values())
    out: list[Line] = [head]
    for label, rows in slices:
        if label:
            out.append(line(Seg("  " + label, "dim")))
        for r in rows:
            ln: Line = [Seg("  ")]
            for n, p in enumerate(r):
                c = cells[p]
                if n:
                    ln.append(Seg(" "))
                ln.append(Seg(c.text.rjust(w), c.style))
            out.append(ln)
    return out


def _shape_str(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _side_by_side(panels: list[list[Line]], width: int, gap: int = 4) -> list[Line]:
    panels = [p for p in panels if p]
    widths = [max(width_of(ln) for ln in p) for p in panels]
    if sum(widths) + gap * (len(panels) - 1) > width:
        out: list[Line] = []
        for n, p in enumerate(panels):
            if n:
                out.append([])
            out.extend(p)
        return out
    height = max(len(p) for p in panels)
    out = []
    for row in range(height):
        ln: Line = []
        for n, p in enumerate(panels):
            seg = p[row] if row < len(p) else []
            ln.extend(seg)
            if n < len(panels) - 1:
                ln.append(Seg(" " * (widths[n] - width_of(seg) + gap)))
        out.append(ln)
    return out


def _pos(p: Pos) -> str:
    return "[" + ", ".join(str(x) for x in p) + "]"


def picture_lines(exp: Explanation, width: int) -> list[Line]:
    """The panels of ``exp`` (assumes :func:`too_large` said no)."""
    groups = exp.colour_groups()
    bad_at = {b.position: b for b in exp.bad}

    def styled(tensor: str, p: Pos, value: str, mark: str = "") -> _Cell:
        n = groups.get((tensor, p))
        if n is None:
            return _Cell(value + mark, "bad" if mark == "!" else None)
        return _Cell(f"{tag(n)}:{value}{mark}", "bad" if mark == "!" else f"c{n}")

    def index_cell(p: Pos) -> _Cell:
        v = fmt_value(exp.indices[p])
        b = bad_at.get(p)
        mark = "" if b is None else ("~" if b.negative_only else "!")
        return styled("indices", p, v, mark)

    def data_cell(p: Pos) -> _Cell:
        assert exp.data is not None
        return styled("data", p, fmt_value(exp.data[p]))

    def updates_cell(p: Pos) -> _Cell:
        assert exp.updates is not None
        dropped = p in exp.landing and exp.landing[p] is None
        return styled("updates", p, fmt_value(exp.updates[p]), "!" if dropped else "")

    def output_cell(p: Pos) -> _Cell:
        assert exp.output is not None
        v = fmt_value(exp.output[p])
        if not exp.mapped:
            return _Cell(v)
        if exp.kind == "gather":
            if p in exp.sources and exp.sources[p] is None:
                return _Cell(v + "!", "bad")
            return styled("output", p, v)
        ups = exp.contributors.get(p, [])
        if not ups:
            return _Cell(v)
        if exp.reduction == "none":
            return styled("output", p, v, "*" if len(ups) > 1 else "")
        tags = "+".join(exp.tag_of("updates", u) or "?" for u in ups)
        n = groups.get(("output", p))
        return _Cell(f"{tags}:{v}", None if n is None else f"c{n}")

    panels = [_panel(exp.name("data"), exp.data, data_cell)]
    panels.append(_panel(exp.name("indices"), exp.indices, index_cell))
    if exp.kind == "scatter":
        panels.append(_panel(exp.name("updates"), exp.updates, updates_cell))
    if exp.output is not None:
        panels.append(_panel("output", exp.output, output_cell))
    return _side_by_side(panels, width)


def _attrs(exp: Explanation) -> str:
    """The call's attributes, without those the op's label already shows (``device='gpu'``)."""
    return ", ".join(f"{k}={v!r}" for k, v in exp.attrs.items() if f"{k}={v!r}" not in exp.label)


def explanation_lines(exp: Explanation, width: int = 100, *, loop: bool = True) -> list[Line]:
    """Everything about one call, as styled lines at ``width`` columns."""
    out: list[Line] = []
    attrs = _attrs(exp)
    out.append(line(Seg(exp.label, "title"), Seg(f"  {attrs}" if attrs else "")))
    if exp.policy:
        out.extend(wrap(f"policy: {exp.policy}", width, "  ", "dim", first=""))
    out.append([])
    reason = too_large(exp)
    if reason is None:
        out.extend(picture_lines(exp, width))
        if exp.mapped:
            legend = "tags/colours: "
            legend += (
                "an index, the data it read and the output it reached share a tag"
                if exp.kind == "gather"
                else "an index, the updates it sent and the output they reached share a tag"
            )
            legend += "; ! out of range; ~ negative index wrapped" + (
                "; * several updates collided" if exp.kind == "scatter" else ""
            )
            out.append([])
            out.extend(wrap(legend, width, "  ", "dim", first=""))
    else:
        out.append(line(Seg(f"picture not drawn: {reason}; showing shapes only.", "warn")))
        for name, arr in (
            ("data", exp.data),
            ("indices", exp.indices),
            ("updates", exp.updates),
            ("output", exp.output),
        ):
            if arr is not None:
                out.append(line(f"  {name}: shape {_shape_str(tuple(arr.shape))}, dtype {arr.dtype}"))
    out.append([])
    for call, why in exp.steps:
        out.extend(wrap(f"before: {call}" + (f"  ({why})" if why else ""), width, "    ", "dim", first=""))
    for call, why in exp.post_steps:
        out.extend(wrap(f"after: {call}" + (f"  ({why})" if why else ""), width, "    ", "dim", first=""))
    for f in exp.shape_formula:
        out.extend(wrap(f, width, "    ", first=""))
    for b in exp.bad:
        kind = "negative index" if b.negative_only else "out of range"
        style = "dim" if b.negative_only else "bad"
        out.extend(
            wrap(
                f"{exp.name('indices')}{_pos(b.position)} = {b.value}: {kind} for axis {b.axis} (size {b.size}, "
                f"valid {b.valid}) -> {b.outcome}",
                width,
                "    ",
                style,
                first="",
            )
        )
    for o in sorted(exp.collisions()):
        out.extend(wrap(f"collision at output{_pos(o)}: {exp.collision_text(o)}", width, "    ", "warn", first=""))
    if exp.kind == "scatter" and exp.mapped and exp.data is not None:
        untouched = [o for o in exp.initial if o not in exp.contributors]
        consts = [o for o in untouched if exp.initial[o] is None]
        if consts and exp.output is not None:
            vals = sorted({fmt_value(exp.output[o]) for o in consts})
            out.extend(
                wrap(
                    f"{len(consts)} output cell(s) no update reached start from {', '.join(vals)}, not from data",
                    width,
                    "    ",
                    first="",
                )
            )
    if exp.error is not None:
        out.extend(wrap(f"error: {exp.error}", width, "    ", "err", first=""))
    elif exp.output is not None:
        out.extend(wrap(f"-> {fmt_values(exp.output)}", width, "   ", first=""))
    for n in exp.notes:
        out.extend(wrap(f"note: {n}", width, "    ", "dim", first=""))
    if loop and exp.loop:
        out.append([])
        out.append(line(Seg("equivalent loop:", "dim")))
        for ln in exp.loop.splitlines():
            out.append(line("    " + ln))
    return out
