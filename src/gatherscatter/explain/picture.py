"""The picture of an explanation as shapes (rectangles and text), in the style of the seed figures.

The seed documents draw data, indices and output as grids of coloured cells: the
colour of a cell says which data value an index picked and where it ended up.
:func:`picture` lays an :class:`~gatherscatter.explain.model.Explanation` out the
same way: one grid per tensor, left to right (data, indices, updates, output), 2-D
slices of higher-rank tensors stacked, each source cell in its own palette colour and
every cell it reaches in the same colour; out-of-range indices get a red border,
collisions a thick dark border and a count. The SVG and PNG writers draw these shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .lines import fmt_value, tag
from .model import Explanation, Pos
from .text import grid_slices

__all__ = ["CELL", "Picture", "Rect", "Text", "cell_colours", "palette", "picture", "text_width"]

CELL = 46
"""Smallest cell width (and the cell height) in px; cells grow with their text."""
GAP = 36
MARGIN = 16
WHITE = "#ffffff"
FILLED = "#e6e6e6"
RED = "#d62728"
DARK = "#222222"
GREY = "#888888"
VALUE_SIZE = 15
TAG_SIZE = 11
TAG_LINE = 12
# advance widths of DejaVu Sans (the SVG's first font, and the PNG's when installed), in 1/1000 em,
# for the printable ASCII characters " " .. "~"
_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636,
    636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656,
    557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613,
    635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818,
    592, 592, 525, 636, 337, 636, 838,
)  # fmt: skip


def _em(c: str) -> float:
    n = ord(c) - 32
    return _WIDTHS[n] / 1000 if 0 <= n < len(_WIDTHS) else 0.8


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in px of ``text`` at font ``size`` in DejaVu Sans (bold: about 10% wider).

    >>> text_width("10", 10)
    12.72
    """
    return round(sum(_em(c) for c in text) * size * (1.1 if bold else 1.0), 6)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str = GREY
    stroke_width: float = 1.0
    dashed: bool = False
    tensor: str = ""
    pos: Pos | None = None
    value: str | None = None
    group: int | None = None


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 14
    anchor: str = "middle"  # start | middle
    bold: bool = False
    fill: str = DARK
    strike: bool = False


@dataclass
class Picture:
    width: float
    height: float
    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def cell_colours(exp: Explanation) -> dict[tuple[str, Pos], int]:
    """``(tensor, position) -> colour group`` for every coloured cell of the picture."""
    return exp.colour_groups()


def _tensors(exp: Explanation) -> list[tuple[str, np.ndarray[Any, Any]]]:
    out: list[tuple[str, np.ndarray[Any, Any]]] = []
    if exp.data is not None:
        out.append(("data", exp.data))
    out.append(("indices", exp.indices))
    if exp.kind == "scatter" and exp.updates is not None:
        out.append(("updates", exp.updates))
    if exp.output is not None:
        out.append(("output", exp.output))
    return out


def _shape_str(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _tags(exp: Explanation, name: str, p: Pos, groups: dict[tuple[str, Pos], int]) -> list[tuple[str, bool]]:
    """The tags drawn in a cell: ``(tag, struck out)``; an output cell lists every contributor."""
    if name == "output" and exp.kind == "scatter":
        ups = exp.contributors.get(p, [])
        if len(ups) > 1:
            w = exp.winner(p)
            return [(tag(groups[("updates", u)]), w is not None and u != w) for u in ups if ("updates", u) in groups]
    n = groups.get((name, p))
    return [] if n is None else [(tag(n), False)]


def _tag_width(ts: list[tuple[str, bool]]) -> float:
    return sum(text_width(t + "+", TAG_SIZE, True) for t, _ in ts)


def _tag_lines(ts: list[tuple[str, bool]], room: float) -> list[list[tuple[str, bool]]]:
    """Tags wrapped to lines of at most ``room`` px (each line at least one tag)."""
    out: list[list[tuple[str, bool]]] = [[]]
    used = 0.0
    for t in ts:
        w = text_width(t[0] + "+", TAG_SIZE, True)
        if out[-1] and used + w > room:
            out.append([])
            used = 0.0
        out[-1].append(t)
        used += w
    return out


def _wrap_px(text: str, width: float, size: float) -> list[str]:
    """``text`` wrapped at spaces to lines of at most ``width`` px."""
    out: list[str] = []
    for word in text.split():
        if out and text_width(out[-1] + " " + word, size) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def _legend(exp: Explanation, used: set[str]) -> list[tuple[Rect, str]]:
    """The legend items the picture uses: a sample cell and its meaning."""
    items: list[tuple[Rect, str]] = []
    r = 18.0
    if exp.mapped:
        what = (
            "the data it read, the output it reached"
            if exp.kind == "gather"
            else "the updates it sent, where they landed"
        )
        items.append((Rect(0, 0, r, r, palette(1)[0]), f"A, B ...: one index (tuple) and {what}"))
    else:
        items.append((Rect(0, 0, r, r, WHITE), "cells not followed (see the notes)"))
    if "bad" in used:
        items.append((Rect(0, 0, r, r, WHITE, RED, 3.0), "index out of range (or refused)"))
    if "neg" in used:
        items.append((Rect(0, 0, r, r, WHITE, RED, 3.0, True), "negative index, wrapped"))
    if "filled" in used:
        items.append((Rect(0, 0, r, r, FILLED, RED, 3.0), "output filled (no data read)"))
    if "dropped" in used:
        items.append((Rect(0, 0, r, r, WHITE, RED, 3.0, True), "update dropped"))
    if "collision" in used:
        how = "tags in order" + (
            ", struck out: overwritten" if exp.reduction == "none" else f", combined by {exp.reduction}"
        )
        items.append((Rect(0, 0, r, r, WHITE, DARK, 3.5), f"xN: N updates collided ({how})"))
    return items


def picture(exp: Explanation) -> Picture:
    """Lay out ``exp`` (assumes :func:`~gatherscatter.explain.text.too_large` said no)."""
    groups = exp.colour_groups()
    colours = palette(max(groups.values(), default=-1) + 1)
    bad = {b.position: b for b in exp.bad}
    collisions = exp.collisions()
    filled = {o for o, s in exp.sources.items() if s is None}
    dropped = {u for u, o in exp.landing.items() if o is None}
    used: set[str] = set()
    pic = Picture(0, 0)
    attrs = ", ".join(f"{k}={v!r}" for k, v in exp.attrs.items() if f"{k}={v!r}" not in exp.label)
    title = exp.label + (f"   {attrs}" if attrs else "")
    pic.texts.append(Text(MARGIN, MARGIN + 16, title, 18, "start", True))
    top: float = MARGIN + 34
    x: float = MARGIN
    bottom: float = top
    for name, arr in _tensors(exp):
        shape = tuple(arr.shape)
        head = f"{exp.name(name)} {_shape_str(shape)}"
        sub = ""
        if name == "indices" and exp.index_axis == 0 and arr.ndim >= 2:
            sub = "one index tuple per column (down the first axis)"
        elif name == "indices" and exp.index_vector and arr.ndim >= 2 and not exp.indices_reshaped:
            sub = "one index tuple per row (along the last axis)"
        elif name == "indices" and exp.index_vector and arr.ndim == 1 and not exp.indices_reshaped:
            sub = "one index tuple"
        pic.texts.append(Text(x, top + 14, head, 14, "start", True))
        y = top + 24
        values = {p: fmt_value(arr[p]) for p in np.ndindex(*shape)} if arr.size else {}
        tags = {p: _tags(exp, name, p, groups) for p in values}
        counts = {p: f"x{len(collisions[p])}" for p in (collisions if name == "output" else ())}
        # the width every cell needs for its value and its first tag; more tags wrap onto more lines
        cw = max([CELL] + [text_width(v, VALUE_SIZE) + 12 for v in values.values()])
        for p, ts in tags.items():
            first = text_width(ts[0][0], TAG_SIZE, True) + 8 if ts else 0
            cw = max(cw, first + (text_width(counts[p], TAG_SIZE, True) + 6 if p in counts else 0))
        want = [_tag_width(ts) + 8 + (text_width(counts[p], TAG_SIZE, True) + 6 if p in counts else 0)
                for p, ts in tags.items()]
        cw = max(cw, min(max(want, default=0), 2.4 * cw))
        lines = {p: _tag_lines(ts, cw - 8 - (text_width(counts[p], TAG_SIZE, True) + 6 if p in counts else 0))
                 for p, ts in tags.items()}
        ch = CELL + TAG_LINE * (max((len(v) for v in lines.values()), default=1) - 1)
        cols = shape[-1] if shape else 1
        grid_w = cols * cw
        sub_lines = _wrap_px(sub, max(grid_w, 200), 11) if sub else []
        panel_w = max(grid_w, text_width(head, 14, True) + 4, *(text_width(t, 11) + 4 for t in sub_lines))
        if arr.size == 0:
            pic.texts.append(Text(x, y + 20, "(empty)", 13, "start"))
            y += 30
        for label, rows in grid_slices(shape) if arr.size else []:
            if label:
                pic.texts.append(Text(x, y + 13, label, 12, "start", fill=GREY))
                y += 18
            for r in rows:
                for j, p in enumerate(r):
                    cx, cy = x + j * cw, y
                    n = groups.get((name, p))
                    fill = colours[n] if n is not None else WHITE
                    stroke, sw, dashed = GREY, 1.0, False
                    b = bad.get(p) if name == "indices" else None
                    if b is not None:
                        stroke, sw, dashed = RED, 3.0, b.negative_only
                        used.add("neg" if b.negative_only else "bad")
                    if name == "output" and p in filled:
                        fill, stroke, sw = FILLED, RED, 3.0
                        used.add("filled")
                    if name == "updates" and p in dropped:
                        stroke, sw, dashed = RED, 3.0, True
                        used.add("dropped")
                    if name == "output" and p in collisions:
                        stroke, sw = DARK, 3.5
                        used.add("collision")
                    pic.rects.append(Rect(cx, cy, cw, ch, fill, stroke, sw, dashed, name, p, values[p], n))
                    pic.texts.append(Text(cx + cw / 2, cy + ch - CELL / 2 + 10, values[p], VALUE_SIZE))
                    for k, tag_line in enumerate(lines[p]):
                        tx = cx + 4
                        for t, struck in tag_line:
                            ty = cy + 13 + k * TAG_LINE
                            pic.texts.append(Text(tx, ty, t, TAG_SIZE, "start", True, "#333333", struck))
                            tx += text_width(t + "+", TAG_SIZE, True)
                    if p in counts:
                        c = counts[p]
                        pic.texts.append(
                            Text(cx + cw - 4 - text_width(c, TAG_SIZE, True), cy + 13, c, TAG_SIZE, "start", True)
                        )
                y += ch
            y += 8
        for t in sub_lines:
            pic.texts.append(Text(x, y + 8, t, 11, "start", fill="#555555"))
            y += 15
        bottom = max(bottom, y)
        x += panel_w + GAP
    # legend strip
    y = bottom + 8
    lx: float = MARGIN
    right = x - GAP
    for sample, text in _legend(exp, used):
        w = sample.w + 6 + text_width(text, 12) + 18
        if lx > MARGIN and lx + w > max(right, 760):
            lx = MARGIN
            y += 24
        pic.rects.append(
            Rect(lx, y, sample.w, sample.h, sample.fill, sample.stroke, sample.stroke_width, sample.dashed)
        )
        if sample.fill != WHITE:
            pic.texts.append(Text(lx + 3, y + 13, "A", TAG_SIZE, "start", True, "#333333"))
        pic.texts.append(Text(lx + sample.w + 6, y + 14, text, 12, "start", fill="#444444"))
        lx += w
    y += 40
    notes = [f"{n}. {call}" + (f"   ({why})" if why else "") for n, (call, why) in enumerate(exp.steps, 1)]
    notes = [f"before: {t}" for t in notes]
    notes += [f"after: {call}" + (f"   ({why})" if why else "") for call, why in exp.post_steps]
    notes += list(exp.shape_formula)
    if exp.policy:
        notes.append(f"policy: {exp.policy}")
    iname = exp.name("indices")
    for b in exp.bad:
        notes.append(f"{iname}[{', '.join(map(str, b.position))}] = {b.value}: valid {b.valid} -> {b.outcome}")
    for o in sorted(collisions):
        notes.append(f"output[{', '.join(map(str, o))}]: {exp.collision_text(o)}")
    notes += [f"note: {n}" for n in exp.notes]
    if exp.error:
        notes.append(f"error: {exp.error}")
    limit = 18
    if len(notes) > limit:
        notes = notes[: limit - 1] + [f"... and {len(notes) - limit + 1} more lines (see the text output)"]
    room = max(right, 760) - MARGIN
    for note in notes:
        colour = RED if note.startswith("error") else DARK
        for k, part in enumerate(_wrap_px(note, room, 13)):
            pic.texts.append(Text(MARGIN + (24 if k else 0), y, part, 13, "start", fill=colour))
            y += 19
    longest = max((text_width(t.text, t.size, t.bold) + t.x for t in pic.texts if t.anchor == "start"), default=0)
    pic.width = max(right + MARGIN, longest + MARGIN)
    pic.height = y - 19 + 8 + MARGIN
    return pic


_BASE = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3",
)  # fmt: skip


def palette(n: int) -> list[str]:
    """``n`` fill colours: the 12 pastel seed-style colours, then golden-angle hues.

    Past 12, hue steps by the golden angle (each new colour as far as possible from the
    previous ones) and lightness cycles over three levels, so that neighbours stay apart
    past 100 groups; every colour is light enough for black text (the tags carry identity
    when two colours look alike).

    >>> palette(2)
    ['#8dd3c7', '#ffffb3']
    >>> len(set(palette(150)))
    150
    """
    import colorsys

    out = list(_BASE[: max(0, n)])
    k = 0
    seen = set(out)
    while len(out) < n:
        h = (k * 0.381966) % 1.0
        light = (0.80, 0.70, 0.88)[k % 3]
        sat = (0.70, 0.55, 0.85)[(k // 3) % 3]
        r, g, b = colorsys.hls_to_rgb(h, light, sat)
        c = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
        k += 1
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out
