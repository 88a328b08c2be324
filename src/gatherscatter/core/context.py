"""Who is calling the core: the op, its version and the caller's vocabulary.

The core primitives format every error message with an :class:`OpContext`, so
that a message raised deep inside a primitive still names the framework op and
version and uses the framework's own argument names (``dim`` for torch,
``axis`` elsewhere; ``params`` for TensorFlow, ``input`` for torch ...).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["NEUTRAL", "OpContext"]


@dataclass(frozen=True)
class OpContext:
    """Naming for messages: op, version and argument names as the caller knows them."""

    op: str = "gatherscatter"
    version: str = ""
    data: str = "data"
    indices: str = "indices"
    updates: str = "updates"
    axis: str = "axis"

    @property
    def label(self) -> str:
        """``'onnx.Gather (opset 13)'``: the op and version, for the start of a message."""
        return f"{self.op} ({self.version})" if self.version else self.op

    def with_(self, **changes: Any) -> OpContext:
        """A copy with some names changed."""
        return replace(self, **changes)


NEUTRAL = OpContext(op="gatherscatter")
