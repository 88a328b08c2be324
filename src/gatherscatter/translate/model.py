"""What a translation is made of: the canonical call, sources, residual divergences.

Every source op call is first described exactly as a *canonical call*: one
call of the neutral API (``gatherscatter.take`` ... ``gatherscatter.scatter_nd``),
where every behaviour frameworks disagree on is an explicit policy keyword,
surrounded by layout adapters (``mxnet.gather_nd`` moves its index axis,
``torch.take`` flattens, ``tf.scatter_nd`` starts from zeros). A target
planner then replaces the canonical call with target ops and adapters, and
lists what it cannot reproduce as :class:`Residual` divergences.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dialects._record import NEUTRAL, WHEN, Canonical, Description, Residual, Source, Step

__all__ = ["NEUTRAL", "WHEN", "Canonical", "Description", "Residual", "Source", "Step", "TargetPlan"]


@dataclass
class TargetPlan:
    """How a target framework computes a canonical call: steps and what stays different."""

    framework: str
    steps: list[Step]
    residuals: list[Residual] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exact: bool = True
