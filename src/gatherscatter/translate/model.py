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

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .ir import Step

__all__ = ["WHEN", "Canonical", "Residual", "Source", "TargetPlan"]

Array = np.ndarray[Any, Any]

#: the input features a residual divergence is conditioned on (verify classifies cases by them)
WHEN = {
    "negative": "an index is negative",
    "out_of_range": "an index is out of range",
    "duplicates": "indices repeat (several updates target one position)",
    "dtype": "the data or index dtype is outside the common set",
    "float_index": "indices are floating point",
    "empty": "an input is empty",
    "nonfinite": "a floating-point input holds NaN or an infinity",
    "scalar": "an index is 0-d or a single index tuple (a 0-d result is possible)",
    "always": "always",
}

#: the neutral op of each canonical family
NEUTRAL = {
    "gather": "gatherscatter.take",
    "gather_elements": "gatherscatter.take_along_axis",
    "gather_nd": "gatherscatter.gather_nd",
    "scatter_elements": "gatherscatter.scatter_along_axis",
    "scatter_nd": "gatherscatter.scatter_nd",
}


@dataclass(frozen=True)
class Residual:
    """A difference the translation keeps: under which inputs, and what each side does."""

    when: str
    source: str
    target: str
    note: str = ""

    def __post_init__(self) -> None:
        if self.when not in WHEN:
            raise ValueError(f"unknown residual condition {self.when!r}")

    def __str__(self) -> str:
        cond = "always differs" if self.when == "always" else f"differs when {WHEN[self.when]}"
        text = f"{cond}: source {self.source}, target {self.target}"
        return f"{text} ({self.note})" if self.note else text


@dataclass(frozen=True)
class Canonical:
    """One neutral-API call with every policy explicit: the meaning of a source call.

    ``data``/``indices``/``updates``/``out`` are value names in the program.
    Index tuples (nd families) are always on the LAST axis of ``indices``.
    ``duplicates_specified`` is False when the source leaves the order of
    duplicate overwrites unspecified (ONNX ScatterND, TF); our dialects then
    apply ``duplicates`` (last) as a documented choice.
    """

    family: str
    data: str
    indices: str
    out: str
    updates: str | None = None
    axis: int | None = 0
    batch_dims: int = 0
    broadcast: bool = False
    negative: str = "wrap"
    bounds: str = "raise"
    fill_value: Any = None
    reduction: str = "none"
    include_self: bool = True
    duplicates: str = "last"
    duplicates_specified: bool = True
    mean_rounding: str = "floor"
    index_dtype: str = "int"  # "int" (any integer dtype the source accepts) or "float" (MXNet)

    @property
    def is_scatter(self) -> bool:
        return self.family.startswith("scatter")

    @property
    def neutral_op(self) -> str:
        return NEUTRAL[self.family]

    def with_(self, **changes: Any) -> Canonical:
        return replace(self, **changes)

    def step(self) -> Step:
        """The neutral-API call this canonical form stands for."""
        args = {"data": self.data, "indices": self.indices}
        if self.updates is not None:
            args["updates"] = self.updates
        attrs: dict[str, Any] = {"negative": self.negative, "bounds": self.bounds}
        if self.family in ("gather", "gather_elements", "scatter_elements"):
            attrs["axis"] = self.axis
        if self.family in ("gather", "gather_nd", "scatter_nd") and self.batch_dims:
            attrs["batch_dims"] = self.batch_dims
        if self.family in ("gather_elements", "scatter_elements") and self.broadcast:
            attrs["broadcast"] = True
        if not self.is_scatter:
            if self.bounds == "fill":
                attrs["fill_value"] = self.fill_value
        else:
            attrs["reduction"] = self.reduction
            if not self.include_self:
                attrs["include_self"] = False
            if self.reduction == "none":
                attrs["duplicates"] = self.duplicates
            if self.reduction == "mean":
                attrs["mean_rounding"] = self.mean_rounding
        return Step.op(self.neutral_op, self.out, args, why="the canonical (neutral) call", **attrs)

    def describe(self) -> str:
        return self.step().describe()


@dataclass
class Source:
    """A source op call described exactly: ``pre`` adapters, the canonical call, ``post`` adapters.

    ``inputs`` are the source op's value parameters (tensors, and shape
    arguments such as ``tf.scatter_nd``'s ``shape``); ``attrs`` its fixed
    keyword arguments. ``residuals`` are differences inherent to the source
    that no target can reproduce (MXNet's float-index rounding, torch's
    float16 accumulation ...). ``layout`` tunes the generic input generator
    (its keys are listed in :mod:`gatherscatter.translate.verify`); ``sample``
    replaces it.
    """

    op: str
    attrs: dict[str, Any]
    inputs: tuple[str, ...]
    canonical: Canonical
    pre: list[Step] = field(default_factory=list)
    post: list[Step] = field(default_factory=list)
    residuals: list[Residual] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)
    layout: dict[str, Any] = field(default_factory=dict)
    sample: Callable[..., dict[str, Any]] | None = None


@dataclass
class TargetPlan:
    """How a target framework computes a canonical call: steps and what stays different."""

    framework: str
    steps: list[Step]
    residuals: list[Residual] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exact: bool = True
