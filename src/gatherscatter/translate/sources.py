"""Op descriptions, read from the ops' own records.

Every registered op states its canonical form in its own dialect file
(``op.record.describe``; :mod:`gatherscatter.dialects._record`): this module
only looks them up by name. ``verify`` checks the op against its canonical
program on generated inputs before it checks any target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dialects._record import Description, LazyTable
from ..dialects._registry import get_op, ops
from ..errors import ArgumentError

__all__ = ["SOURCES", "describe"]


#: the description function of every op, by qualified name
SOURCES: dict[str, Callable[..., Description]] = LazyTable(
    lambda: {op.info.qualname: op.record.describe for op in ops()}
)


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
