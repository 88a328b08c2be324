"""Op descriptions, read from the ops' own records.

Every registered op states its canonical form in its own dialect file
(``op.record.describe``; :mod:`gatherscatter.dialects._record`): this module
only looks them up by name. ``verify`` checks the op against its canonical
program on generated inputs before it checks any target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dialects._record import Description
from ..dialects._registry import get_op, ops
from ..errors import ArgumentError

__all__ = ["SOURCES", "describe"]


class _Sources(dict[str, Callable[..., Description]]):
    """``{qualname: describe}`` for every registered op, filled on first use."""

    def _fill(self) -> None:
        if not dict.__len__(self):
            self.update({op.info.qualname: op.record.describe for op in ops()})

    def __getitem__(self, key: str) -> Callable[..., Description]:
        self._fill()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def __iter__(self) -> Any:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)


#: the description function of every op, by qualified name
SOURCES = _Sources()


def describe(op: Any, attrs: dict[str, Any]) -> Description:
    """The :class:`Description` of ``op`` (a name or a dialect function) called with ``attrs``."""
    o = get_op(op)
    try:
        return o.record.describe(**attrs)
    except TypeError as e:
        raise ArgumentError(f"translate {o.info.qualname}: {e}") from None


def _load() -> None:
    """Kept for callers of the former per-framework source modules: the registry loads every op."""
    ops()
