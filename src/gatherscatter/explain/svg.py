"""SVG writer of an explanation picture (no dependency: the SVG is built as text).

Every cell is a ``<rect>`` carrying ``data-tensor`` (data, indices, updates, output),
``data-pos`` (``"1,0"``), ``data-value`` (the value as drawn) and, when coloured,
``data-group`` / ``data-tag`` (its colour group: ``0`` / ``A``), so that tests and tools
can read the mapping back.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .lines import tag
from .model import Explanation
from .picture import Picture, picture

__all__ = ["svg_from_picture", "svg_text"]


def svg_from_picture(pic: Picture) -> str:
    """The shapes of ``pic`` as an SVG document."""
    w, h = int(pic.width + 0.5), int(pic.height + 0.5)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>',
    ]
    for r in pic.rects:
        attrs = [
            f'x="{r.x:g}"',
            f'y="{r.y:g}"',
            f'width="{r.w:g}"',
            f'height="{r.h:g}"',
            f'fill="{r.fill}"',
            f'stroke="{r.stroke}"',
            f'stroke-width="{r.stroke_width:g}"',
        ]
        if r.dashed:
            attrs.append('stroke-dasharray="5,3"')
        if r.tensor:
            attrs.append(f"data-tensor={quoteattr(r.tensor)}")
        if r.pos is not None:
            attrs.append(f"data-pos={quoteattr(','.join(str(p) for p in r.pos))}")
        if r.value is not None:
            attrs.append(f"data-value={quoteattr(r.value)}")
        if r.group is not None:
            attrs.append(f'data-group="{r.group}" data-tag="{tag(r.group)}"')
        out.append(f"<rect {' '.join(attrs)}/>")
    for t in pic.texts:
        anchor = "middle" if t.anchor == "middle" else "start"
        weight = ' font-weight="bold"' if t.bold else ""
        if t.strike:
            weight += ' text-decoration="line-through"'
        out.append(
            f'<text x="{t.x:g}" y="{t.y:g}" font-size="{t.size:g}" text-anchor="{anchor}" '
            f'fill="{t.fill}"{weight}>{escape(t.text)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_text(exp: Explanation) -> str:
    """The picture of ``exp`` as an SVG document."""
    return svg_from_picture(picture(exp))
