"""Target ``gatherscatter``: the canonical call itself (the neutral API)."""

from __future__ import annotations

from typing import Any

from ._common import Canonical, Names, TargetPlan


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The neutral API expresses every canonical call exactly."""
    return TargetPlan("gatherscatter", [c.step()])
