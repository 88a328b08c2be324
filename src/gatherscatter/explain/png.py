"""PNG writer of an explanation picture, drawn with Pillow (the ``cli`` extra), imported lazily.

:func:`png_bytes` raises ImportError when Pillow is not installed.
"""

from __future__ import annotations

import io
from typing import Any

from .model import Explanation
from .picture import Picture, picture

__all__ = ["png_bytes", "png_from_picture"]

_SCALE = 2  # draw at twice the layout size, for sharp text


def _font(size: float, bold: bool = False) -> Any:
    from PIL import ImageFont

    try:  # the SVG's font, whose widths the layout uses, when the system has it
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", round(size * _SCALE))
    except OSError:
        pass
    try:
        return ImageFont.load_default(size=size * _SCALE)
    except TypeError:  # pragma: no cover - Pillow < 10.1 has no sized default font
        return ImageFont.load_default()


def png_from_picture(pic: Picture) -> bytes:
    """The shapes of ``pic`` rendered to PNG bytes."""
    from PIL import Image, ImageDraw

    s = _SCALE
    img = Image.new("RGB", (int(pic.width * s + 0.5), int(pic.height * s + 0.5)), "#ffffff")
    draw = ImageDraw.Draw(img)
    for r in pic.rects:
        box = (r.x * s, r.y * s, (r.x + r.w) * s, (r.y + r.h) * s)
        draw.rectangle(box, fill=r.fill)
        width = max(1, round(r.stroke_width * s))
        if r.dashed:
            _dashed(draw, box, r.stroke, width)
        else:
            draw.rectangle(box, outline=r.stroke, width=width)
    fonts: dict[tuple[float, bool], Any] = {}
    for t in pic.texts:
        font = fonts.get((t.size, t.bold))
        if font is None:
            font = fonts[(t.size, t.bold)] = _font(t.size, t.bold)
        anchor = "ms" if t.anchor == "middle" else "ls"
        draw.text(
            (t.x * s, t.y * s),
            t.text,
            fill=t.fill,
            font=font,
            anchor=anchor,
        )
        if t.strike:
            w = draw.textlength(t.text, font=font)
            x0 = t.x * s if t.anchor != "middle" else t.x * s - w / 2
            ymid = (t.y - t.size * 0.32) * s
            draw.line((x0 - 1, ymid, x0 + w + 1, ymid), fill="#d62728", width=max(2, s))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _dashed(draw: Any, box: tuple[float, float, float, float], colour: str, width: int) -> None:
    x0, y0, x1, y1 = box
    dash = 10.0
    for a, b, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True), (y0, y1, x0, False), (y0, y1, x1, False)):
        p = a
        while p < b:
            q = min(p + dash, b)
            if horizontal:
                draw.line((p, fixed, q, fixed), fill=colour, width=width)
            else:
                draw.line((fixed, p, fixed, q), fill=colour, width=width)
            p += 2 * dash


def png_bytes(exp: Explanation) -> bytes:
    """The picture of ``exp`` as PNG bytes (needs Pillow)."""
    return png_from_picture(picture(exp))
