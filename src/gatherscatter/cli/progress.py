"""Progress display for long command-line runs: rich's bar on a terminal, a plain counter otherwise.

Output goes to standard error, so that the report on standard output stays clean.
Nothing is shown when ``enabled`` is false (``--quiet``).
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress", "isatty"]


class Progress:
    """``with Progress('conformance run', stream) as p: p.update(k, total, name)``."""

    def __init__(self, label: str, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self._rich: Any = None
        self._task: Any = None
        self._last = -1
        self._tty = isatty(self.stream)

    def __enter__(self) -> Progress:
        if self.enabled and self._tty:
            try:
                from rich.console import Console
                from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
                from rich.progress import Progress as RichProgress
            except ImportError:
                return self
            self._rich = RichProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                TextColumn("{task.fields[item]}"), console=Console(file=self.stream), transient=True,
            )
            self._rich.__enter__()
            self._task = self._rich.add_task(self.label, total=None, item="")
        return self

    def update(self, done: int, total: int, item: str = "") -> None:
        """``done`` of ``total`` finished; ``item`` is being worked on."""
        if not self.enabled:
            return
        if self._rich is not None:
            self._rich.update(self._task, completed=done, total=total, item=item)
            return
        if self._tty:
            self.stream.write(f"\r{self.label}: {done}/{total} {item[:50]:<50}")
            self.stream.flush()
            return
        step = max(1, total // 10)
        if done == 0 or done // step != self._last // step:
            self.stream.write(f"{self.label}: {done}/{total}\n")
        self._last = done

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if self._rich is not None:
            self._rich.__exit__(et, ev, tb)
        elif self.enabled and self._tty:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()


def isatty(stream: TextIO) -> bool:
    """``stream.isatty()``, False for streams without one or already closed (the CLI's colour test too)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
