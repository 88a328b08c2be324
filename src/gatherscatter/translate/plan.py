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

__all__ = ["Names", "ScatterCall", "adapt_indices", "decompose_reduction", "index_kw"]

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


def adapt_indices(c: Canonical, names: Names, *, negative: str, bounds: str) -> IndexAdaptation:
    """Adapters so a target whose op treats negatives as ``negative`` and
    out-of-range indices as ``bounds`` computes ``c``'s index semantics."""
    kw = index_kw(c)
    out = IndexAdaptation(indices=c.indices, updates=c.updates)

    def adapt(name: str, prefix: str, *args: str, why: str, **attrs: Any) -> str:
        n = names(prefix)
        out.pre.append(Step.adapt(name, n, *args, why=why, **attrs))
        return n

    i = c.indices
    src_neg, src_b = c.negative, c.bounds
    needs_range = src_b in ("clip", "fill", "drop")  # these adapters expect negatives already wrapped
    if src_neg == "wrap" and (negative != "wrap" or needs_range):
        why = "the target does not wrap negative indices" if negative != "wrap" else "wrap negatives first"
        i = adapt("normalize_negative", "i", i, c.data, why=why + ": add the axis size once", **kw)
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
    elif src_b in ("clip", "wrap"):
        i = adapt(f"{src_b}_index", "i", i, c.data, why=f"the source {'clamps' if src_b == 'clip' else 'wraps'} "
                  "out-of-range indices", **kw)
    elif src_b == "fill":
        if c.family == "gather" and c.batch_dims != 0 and c.axis != c.batch_dims:
            out.residuals.append(Residual("out_of_range", f"fills {c.fill_value!r}", "raises",
                                          "fill with batch_dims < axis has no mask adapter"))
        else:
            out.post_mask = adapt("valid_mask", "valid", i, c.data, why="remember which indices are in range", **kw)
            i = adapt("clip_index", "i", i, c.data, why="read a valid element, masked below", **kw)
            out.residuals.append(_EMPTY_AXIS)
    elif src_b == "drop":
        if c.reduction in _DROP_REDUCTIONS and c.include_self:
            assert c.updates is not None
            m = adapt("valid_mask", "valid", i, c.data, why="updates at out-of-range indices are dropped", **kw)
            i = adapt("clip_index", "i", i, c.data, why="send them to a valid position ...", **kw)
            out.updates = adapt("mask_result", "u", c.updates, m, lead=0, value=None, reduction=c.reduction,
                                why="... carrying the reduction's identity")
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
) -> list[Step]:
    """Steps computing ``c``'s reduction with a target scatter that has ``native`` reductions.

    sub -> add of the negated updates; mean -> sum / count (docs/semantics.md#e11); include_self=False ->
    pre-fill the targeted positions with the identity (docs/semantics.md#e10), unless the target has the switch.
    """
    r = c.reduction
    steps: list[Step] = []
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
        return steps
    if not c.include_self and r != "none" and not native_include_self:
        e, base = names("identity"), names("base")
        steps.append(Step.adapt("identity_like", e, u, reduction=r, why=f"include_self=False: pre-fill the "
                                f"targeted positions with {r}'s identity (docs/semantics.md#e10)"))
        steps += call(data, indices, e, "none", base)
        steps += call(base, indices, u, r, c.out)
        return steps
    return steps + call(data, indices, u, r, c.out)
