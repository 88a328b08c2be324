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

from .lines import PALETTE, fmt_value, tag
from .model import Explanation, Pos
from .text import grid_slices

__all__ = ["CELL", "Picture", "Rect", "Text", "cell_colours", "picture"]

CELL = 46
GAP = 40
MARGIN = 24
WHITE = "#ffffff"
FILLED = "#e6e6e6"
RED = "#d62728"
DARK = "#222222"
GREY = "#888888"


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


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 14
    anchor: str = "middle"  # start | middle
    bold: bool = False
    fill: str = DARK


@dataclass
class Picture:
    width: float
    height: float
    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def cell_colours(exp: Explanation) -> dict[tuple[str, Pos], int]:
    """``(tensor, position) -> colour number`` for every coloured cell of the picture."""
    colour = exp.colour_index()
    out: dict[tuple[str, Pos], int] = {}
    if not exp.mapped:
        return out
    if exp.kind == "gather":
        for p, n in colour.items():
            out[("data", p)] = n
        for o, s in exp.sources.items():
            if s is not None:
                out[("output", o)] = colour[s]
    else:
        for p, n in colour.items():
            out[("updates", p)] = n
        for o, ups in exp.contributors.items():
            w = exp.winner(o)
            out[("output", o)] = colour[w if w is not None else ups[-1]]
    for i, srcs in exp.index_keys().items():
        if len(srcs) == 1:
            out[("indices", i)] = colour[srcs[0]]
    return out


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


def picture(exp: Explanation) -> Picture:
    """Lay out ``exp`` (assumes :func:`~gatherscatter.explain.text.too_large` said no)."""
    colours = cell_colours(exp)
    bad = {b.position: b for b in exp.bad}
    collisions = exp.collisions()
    filled = {o for o, s in exp.sources.items() if s is None}
    dropped = {u for u, o in exp.landing.items() if o is None}
    pic = Picture(0, 0)
    attrs = ", ".join(f"{k}={v!r}" for k, v in exp.attrs.items())
    pic.texts.append(Text(MARGIN, MARGIN + 16, exp.label + (f"   {attrs}" if attrs else ""), 18, "start", True))
    top = MARGIN + 40
    x = MARGIN
    bottom = top
    for name, arr in _tensors(exp):
        shape = tuple(arr.shape)
        pic.texts.append(Text(x, top + 14, f"{name} {_shape_str(shape)}", 15, "start", True))
        y = top + 26
        cols = shape[-1] if shape else 1
        panel_w = max(cols * CELL, 9 * len(name) + 60)
        if arr.size == 0:
            pic.texts.append(Text(x, y + 20, "(empty)", 13, "start"))
            y += 30
        for label, rows in grid_slices(shape) if arr.size else []:
            if label:
                pic.texts.append(Text(x, y + 14, label, 12, "start", fill=GREY))
                y += 20
            for r in rows:
                for j, p in enumerate(r):
                    cx, cy = x + j * CELL, y
                    n = colours.get((name, p))
                    fill = PALETTE[n % len(PALETTE)] if n is not None else WHITE
                    stroke, sw, dashed = GREY, 1.0, False
                    b = bad.get(p) if name == "indices" else None
                    if b is not None:
                        stroke, sw, dashed = RED, 3.0, b.negative_only
                    if name == "output" and p in filled:
                        fill, stroke, sw = FILLED, RED, 3.0
                    if name == "updates" and p in dropped:
                        stroke, sw, dashed = RED, 3.0, True
                    if name == "output" and p in collisions:
                        stroke, sw = DARK, 3.5
                    pic.rects.append(Rect(cx, cy, CELL, CELL, fill, stroke, sw, dashed, name, p))
                    pic.texts.append(Text(cx + CELL / 2, cy + CELL / 2 + 6, fmt_value(arr[p]), 16))
                    if n is not None:
                        pic.texts.append(Text(cx + 4, cy + 12, tag(n), 9, "start", fill="#555555"))
                    if name == "output" and p in collisions:
                        pic.texts.append(Text(cx + CELL - 16, cy + 12, f"x{len(collisions[p])}", 9, "start", True))
                y += CELL
            y += 10
        bottom = max(bottom, y)
        x += panel_w + GAP
    y = bottom + 16
    notes = list(exp.shape_formula)
    if exp.policy:
        notes.append(f"policy: {exp.policy}")
    for b in exp.bad:
        notes.append(f"indices[{', '.join(map(str, b.position))}] = {b.value}: -> {b.outcome}")
    for o, ups in sorted(collisions.items()):
        how = f"duplicates={exp.duplicates}" if exp.reduction == "none" else f"reduction={exp.reduction}"
        notes.append(f"output[{', '.join(map(str, o))}]: {len(ups)} updates collide ({how})")
    if exp.error:
        notes.append(f"error: {exp.error}")
    for note in notes[:12]:
        pic.texts.append(Text(MARGIN, y + 12, note, 13, "start", fill=RED if note.startswith("error") else DARK))
        y += 20
    longest = max((len(t.text) * 7.5 + t.x for t in pic.texts), default=0)
    pic.width = max(x - GAP + MARGIN, longest + MARGIN)
    pic.height = y + MARGIN
    return pic
