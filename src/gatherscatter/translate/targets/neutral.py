"""Target ``gatherscatter``: the canonical call itself (the neutral API)."""

from __future__ import annotations

from typing import Any

from ..model import Canonical, TargetPlan
from ..plan import Names


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The neutral API expresses every canonical call exactly."""
    return TargetPlan("gatherscatter", [c.step()])
