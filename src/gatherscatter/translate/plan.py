"""Target-independent planning: index-policy adapters and scatter-reduction decompositions.

A target planner (``targets/<framework>.py``) says what its ops do natively
(negative indices, out-of-range indices, which reductions, ``include_self``)
and how to call them; the helpers here add the adapters that make the target
compute the canonical call exactly, and list the residual divergences where no
adapter can (a source that raises where the target clips, say).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .ir import Step
from .model import Canonical, Residual

__all__ = ["Names", "ScatterCall", "adapt_indices", "decompose_reduction", "duplicates_residual"]

_BOUNDS_TEXT = {
    "raise": "raises",
    "clip": "clamps the index to [0, s-1]",
    "wrap": "wraps the index (i mod s)",
    "fill": "returns the fill value",
    "drop": "drops the update",
    "zero": "returns zeros",
    "unchecked": "reads or writes out of bounds (undefined)",
    "nan": "returns JAX's default fill (NaN; the integer minimum)",
}
_EMPTY_AXIS = Residual("empty", "fills/drops every index of a size-0 axis", "raises (no valid index to clamp to)")
_DROP_REDUCTIONS = ("add", "sub", "mul", "max", "min")
_NEG_TEXT = {"wrap": "wraps it once (i + s)", "raise": "raises", "bounds": "treats it as out of range"}


class Names:
    """Fresh value names: ``i1``, ``i2`` ... per prefix."""

    def __init__(self) -> None:
        self._counters: dict[str, itertools.count[int]] = {}

    def __call__(self, prefix: str) -> str:
        return f"{prefix}{next(self._counters.setdefault(prefix, itertools.count(1)))}"


def index_kw(c: Canonical) -> dict[str, Any]:
    if c.family in ("gather_nd", "scatter_nd"):
        return {"batch_dims": c.batch_dims}
    return {"axis": c.axis}


@dataclass
class IndexAdaptation:
    """Adapters applied to the indices (and, for fill/drop, to the result or the updates)."""

    pre: list[Step] = field(default_factory=list)
    indices: str = ""
    updates: str | None = None
    post_mask: str | None = None  # name of a validity mask to apply to a gather's result
    residuals: list[Residual] = field(default_factory=list)
    native_bounds: str | None = None  # the bounds mode to request from the target op, if it has modes


def adapt_indices(
    c: Canonical,
    names: Names,
    *,
    negative: str,
    bounds: str,
    modes: tuple[str, ...] = (),
) -> IndexAdaptation:
    """Adapters so a target whose op treats negatives as ``negative`` and
    out-of-range indices as ``bounds`` computes ``c``'s index semantics.

    ``modes`` lists bounds modes the target op can be *asked* for (JAX
    ``mode=``, NumPy ``mode=``): when the source's mode is among them (and the
    negative handling agrees) no adapter is needed.
    """
    kw = index_kw(c)
    out = IndexAdaptation(indices=c.indices, updates=c.updates)
    i = c.indices
    src_neg, src_b = c.negative, c.bounds
    if src_b in modes and (src_neg == negative or (src_b in ("clip", "wrap") and src_neg == "bounds")):
        out.native_bounds = src_b
        return out
    needs_range = src_b in ("clip", "fill", "drop")  # these adapters expect negatives already wrapped
    if src_neg == "wrap" and (negative != "wrap" or needs_range):
        n = names("i")
        why = "the target does not wrap negative indices" if negative != "wrap" else "wrap negatives first"
        out.pre.append(Step.adapt("normalize_negative", n, i, c.data, why=why + ": add the axis size once", **kw))
        i = n
    elif src_neg == "raise" and (negative != "raise" or src_b in ("clip", "wrap", "fill")
                                 or (src_b == "drop" and c.reduction in _DROP_REDUCTIONS and c.include_self)):
        # the clip/wrap/fill/drop adapters below also apply to negative indices, so the target never sees one
        what = _BOUNDS_TEXT[src_b] if src_b != "raise" else _NEG_TEXT[negative]
        out.residuals.append(Residual("negative", "raises", what))
    elif src_neg == "bounds" and negative == "wrap" and src_b == "raise":
        out.residuals.append(Residual("negative", "raises (negative indices are out of range)", _NEG_TEXT["wrap"]))
    if src_b == "raise":
        if bounds != "raise":
            out.residuals.append(Residual("out_of_range", "raises", _BOUNDS_TEXT[bounds]))
    elif src_b == "clip":
        n = names("i")
        out.pre.append(Step.adapt("clip_index", n, i, c.data, why="the source clamps out-of-range indices", **kw))
        i = n
    elif src_b == "wrap":
        n = names("i")
        out.pre.append(Step.adapt("wrap_index", n, i, c.data, why="the source wraps out-of-range indices", **kw))
        i = n
    elif src_b == "fill":
        if c.family == "gather" and c.batch_dims != 0 and c.axis != c.batch_dims:
            out.residuals.append(Residual("out_of_range", f"fills {c.fill_value!r}", "raises",
                                          "fill with batch_dims < axis has no mask adapter"))
        else:
            m, n = names("valid"), names("i")
            out.pre.append(Step.adapt("valid_mask", m, i, c.data, why="remember which indices are in range", **kw))
            out.pre.append(Step.adapt("clip_index", n, i, c.data, why="read a valid element, masked below", **kw))
            out.post_mask, i = m, n
            out.residuals.append(_EMPTY_AXIS)
    elif src_b == "drop":
        if c.reduction in _DROP_REDUCTIONS and c.include_self:
            m, n, u = names("valid"), names("i"), names("u")
            assert c.updates is not None
            out.pre += [
                Step.adapt("valid_mask", m, i, c.data, why="updates at out-of-range indices are dropped", **kw),
                Step.adapt("clip_index", n, i, c.data, why="send them to a valid position ...", **kw),
                Step.adapt("mask_result", u, c.updates, m, lead=0, value=None, reduction=c.reduction,
                           why="... carrying the reduction's identity"),
            ]
            i, out.updates = n, u
            out.residuals.append(_EMPTY_AXIS)
        else:
            out.residuals.append(Residual("out_of_range", "drops the update", _BOUNDS_TEXT[bounds],
                                          f"no exact adapter for drop with reduction {c.reduction!r}"
                                          + ("" if c.include_self else " and include_self=False")))
    out.indices = i
    if src_neg == "bounds":  # a negative index is out of range in the source: the same residuals hold for it
        out.residuals += [Residual("negative", r.source, r.target, r.note or "negative indices are out of range "
                                   "in the source") for r in out.residuals if r.when == "out_of_range"]
    return out


def gather_post(c: Canonical, names: Names, result: str, ad: IndexAdaptation) -> list[Step]:
    """Mask a gather's result where ``fill`` indices were out of range."""
    if ad.post_mask is None:
        return []
    # gather: the indices' dims sit at ``axis`` in the output (at 0 when batch dims lead both)
    lead = (c.axis or 0) if c.family == "gather" and c.batch_dims == 0 else 0
    where: dict[str, int] = {"lead": lead}
    if lead < 0:  # a negative axis: -axis-1 data dims follow the indices' dims
        where = {"trail": -lead - 1}
    value = 0 if c.fill_value is None else c.fill_value  # the neutral API fills 0 by default
    return [Step.adapt("mask_result", c.out, result, ad.post_mask, **where, value=value,
                       why=f"out-of-range indices read the fill value {c.fill_value!r}")]


ScatterCall = Callable[[str, str, str, str, str], list[Step]]
"""``call(data, indices, updates, reduction, out) -> steps``: one target scatter."""


def decompose_reduction(
    c: Canonical,
    names: Names,
    call: ScatterCall,
    *,
    data: str,
    indices: str,
    updates: str,
    native: frozenset[str],
    native_include_self: bool = False,
) -> tuple[list[Step], list[Residual]]:
    """Steps computing ``c``'s reduction with a target scatter that has ``native`` reductions.

    sub -> add of the negated updates; mean -> sum / count (docs/semantics.md#e11); include_self=False ->
    pre-fill the targeted positions with the identity (docs/semantics.md#e10), unless the target has the switch.
    """
    r = c.reduction
    steps: list[Step] = []
    res: list[Residual] = []
    u = updates
    if r == "sub" and "sub" not in native:
        n = names("u")
        steps.append(Step.adapt("negative", n, u, why="no subtracting scatter: add the negated updates"))
        u, r = n, "add"
    if r not in native and r != "mean":
        raise ValueError(f"target lacks reduction {r!r}")
    if r == "mean" and "mean" not in native:
        base = data
        if not c.include_self:
            z, base = names("zero"), names("base")
            steps += [Step.adapt("identity_like", z, u, reduction="add", why="include_self=False: zero the "
                                 "targeted positions first (docs/semantics.md#e10)")]
            steps += call(data, indices, z, "none", base)
        total, ones_d, ones_u, cnt = names("total"), names("ones"), names("ones"), names("count")
        steps += call(base, indices, u, "add", total)
        steps.append(Step.adapt("ones_like" if c.include_self else "zeros_like", ones_d, data,
                                why="count contributions "
                                    "(docs/semantics.md#e11)" + (" plus one for self" if c.include_self else "")))
        steps.append(Step.adapt("ones_like", ones_u, u, why="one per update"))
        steps += call(ones_d, indices, ones_u, "add", cnt)
        steps.append(Step.adapt("divide_counts", c.out, total, cnt, data, rounding=c.mean_rounding,
                                why="mean = total / count; untouched positions keep data"))
        return steps, res
    if not c.include_self and r != "none" and not native_include_self:
        e, base = names("identity"), names("base")
        steps.append(Step.adapt("identity_like", e, u, reduction=r, why=f"include_self=False: pre-fill the "
                                f"targeted positions with {r}'s identity (docs/semantics.md#e10)"))
        steps += call(data, indices, e, "none", base)
        steps += call(base, indices, u, r, c.out)
        return steps, res
    steps += call(data, indices, u, r, c.out)
    return steps, res


def duplicates_residual(c: Canonical, target_specified: bool, target: str) -> list[Residual]:
    """The duplicate-overwrite residual: the source specifies an order, the target does not (or vice versa)."""
    if not c.is_scatter or c.reduction != "none":
        return []
    if c.duplicates_specified and not target_specified:
        return [Residual("duplicates", f"keeps the {c.duplicates} update", f"leaves the winner unspecified ({target}; "
                         "every CPU kernel measured is last-wins, threaded/GPU kernels are not)")]
    if c.duplicates == "raise":
        return [Residual("duplicates", "raises", f"keeps one of them ({target})")]
    return []
