"""Styled lines: what every text renderer produces, before it becomes plain text or rich output.

A :data:`Line` is a list of :class:`Seg` (text plus a style name). Style names:
``c<N>`` (the colour of source cell N), ``bad`` (an out-of-range index), ``title``,
``head``, ``dim``, ``ok``, ``err``, ``warn``, ``diff``. The plain renderer drops the
styles; the rich renderer (``explain.terminal``) maps them to colours. Keeping both
on one layout is what lets the golden tests of the plain output cover the pictures.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "PALETTE",
    "Line",
    "Seg",
    "fmt_value",
    "fmt_values",
    "line",
    "plain",
    "plain_rst",
    "tag",
    "width_of",
    "wrap",
]

# Qualitative pastel palette (ColorBrewer Set3 without its grey, plus a light blue):
# black text stays readable on each, and neighbours differ in hue.
PALETTE = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
    "#a6cee3",
)


@dataclass(frozen=True)
class Seg:
    """A run of text with one style (None: unstyled)."""

    text: str
    style: str | None = None


Line = list[Seg]


def line(*parts: str | Seg) -> Line:
    """A line from strings (unstyled) and segments."""
    return [p if isinstance(p, Seg) else Seg(p) for p in parts]


def width_of(ln: Line) -> int:
    return sum(len(s.text) for s in ln)


def plain(lines: list[Line]) -> str:
    """The lines as plain text, trailing spaces removed, one newline each."""
    return "".join("".join(s.text for s in ln).rstrip() + "\n" for ln in lines)


def wrap(text: str, width: int, indent: str = "", style: str | None = None, first: str | None = None) -> list[Line]:
    """``text`` wrapped to ``width`` as lines (``first``: the first line's indent)."""
    start = indent if first is None else first
    out = textwrap.wrap(text, width=max(20, width), initial_indent=start, subsequent_indent=indent) or [start]
    return [[Seg(t, style)] for t in out]


def tag(n: int) -> str:
    """Letters for colour number ``n``: A..Z, then AA, AB, ..."""
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def fmt_value(v: Any) -> str:
    """One cell value: integral floats without '.0', others with 4 significant digits."""
    if isinstance(v, (bool, np.bool_)):
        return "T" if v else "F"
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f.is_integer() and abs(f) < 1e15:
            return str(int(f))
        return f"{f:.4g}"  # also 'nan', 'inf' and '-inf'
    if isinstance(v, (complex, np.complexfloating)):
        return f"{complex(v):.3g}"
    if isinstance(v, np.generic):
        return str(v.item())
    return str(v)


def fmt_values(arr: Any, limit: int = 400) -> str:
    """A whole array as a nested list (``[[1, 2], [3, 4]]``), or its shape when large."""
    a = np.asarray(arr)
    if a.size > limit:
        return f"<array of shape {tuple(a.shape)}, dtype {a.dtype}>"

    def rec(x: Any) -> str:
        if not isinstance(x, np.ndarray):
            return fmt_value(x)
        if x.ndim == 0:
            return fmt_value(x[()])
        return "[" + ", ".join(rec(x[i]) for i in range(x.shape[0])) + "]"

    return rec(a)


def plain_rst(text: str) -> str:
    """``text`` without reStructuredText markup: ````x```` and ``:func:`x``` become ``x``.

    >>> plain_rst("take slices of ``data`` (= :func:`numpy.take`)")
    'take slices of data (= numpy.take)'
    """
    import re

    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return re.sub(r"`+([^`]+)`+", r"\1", text)
