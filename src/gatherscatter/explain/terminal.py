"""Rich terminal output of styled lines (``rich`` is imported here only, lazily).

``rich`` is an optional dependency (the ``cli`` extra). The CLI uses this module
only when rich can be imported and colour is wanted (a terminal, ``NO_COLOR``
unset, or ``--color always``); otherwise it prints :func:`~.lines.plain` text.
"""

from __future__ import annotations

from typing import Any, TextIO

from .lines import Line

__all__ = ["rich_available", "rich_write", "style_of"]

_STYLES = {
    "title": "bold",
    "head": "bold cyan",
    "dim": "dim",
    "ok": "bold green",
    "err": "bold red",
    "warn": "yellow",
    "bad": "bold white on red",
    "diff": "bold magenta",
}


def rich_available() -> bool:
    """Whether ``rich`` can be imported (it is not imported by this check's caller otherwise)."""
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def style_of(name: str | None) -> str:
    """The rich style of a style name (``c3`` -> black on the palette's 4th colour)."""
    if name is None:
        return ""
    if name.startswith("c") and name[1:].isdigit():
        from .picture import palette

        n = int(name[1:])
        return f"black on {palette(n + 1)[n]}"
    return _STYLES.get(name, "")


def rich_write(lines: list[Line], stream: TextIO, width: int, *, force_terminal: bool | None = None) -> None:
    """Write ``lines`` to ``stream`` with colours through a rich Console."""
    from rich.console import Console
    from rich.text import Text

    console: Any = Console(
        file=stream,
        width=width,
        force_terminal=force_terminal,
        color_system="truecolor",
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )
    for ln in lines:
        t = Text(no_wrap=True, overflow="ignore")
        for seg in ln:
            t.append(seg.text, style=style_of(seg.style))
        t.rstrip()
        console.print(t)
