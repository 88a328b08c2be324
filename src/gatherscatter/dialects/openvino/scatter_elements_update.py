"""OpenVINO ``ScatterElementsUpdate`` (versions 3, 12)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Bounds, Duplicates, Identity, MeanRounding, Negative, Policy, parse_enum
from ...core.shape import IndexSpec
from ...errors import ArgumentError, UnsupportedError
from .._common import DUPLICATES, check_updates_like_indices
from .._record import Description, canonical, check_bool, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import (
    axis_scatter_inputs,
    check_indices_rank,
    ov_context,
    ov_version,
    parse_reduction,
    plugin_divergences,
    reductions,
)
from ._describe import _FINITE_START, _INT, _reduction, openvino_op

_REDUCTIONS_12 = reductions("none", "sum", "prod", "min", "max", "mean")

divergence_table("openvino.ScatterElementsUpdate", r'''
[[divergence]]
case = "reduction='mean' on integer data with a negative non-integral mean (e.g. -11/3)"
when = "dtype"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "truncates toward zero: -11/3 -> -3 (and -5/2 -> -2)"
ours = """
rounds down, as the spec ('rounded down (towards negative infinity)') and the reference implementation \
(FE_DOWNWARD, 'to match torch') do: -11/3 -> -4, as constant folding gives"""
evidence = """
scatter-elements-update-12.rst; src/core/reference/.../scatter_elements_update.hpp; \
docs/behavior-matrix.md#surprise-8 and docs/behavior-matrix.md#t6-7; docs/semantics.md#s5-2; re-checked on \
2026.4.1 (Parameter -3, Constant -4)"""
kind = "spec"
versions = "12"
[divergence.example]
call = "openvino:ScatterElementsUpdate"
opset = 12
args = { data = [-2], indices = [0, 0], updates = [-4, -5], axis = 0 }
kwargs = { reduction = "mean", use_init_val = true }
dtypes = { data = "int32", indices = "int64", updates = "int32" }
theirs = { equals = [-3] }
ours = { equals = [-4] }

[[divergence]]
case = "negative index in [-s, -1]"
when = "negative"
reference = "OpenVINO 2026.4 CPU plugin and constant folding"
theirs = "wrap it (-1 writes the last element)"
ours = """
IndexOutOfRangeError, as the ScatterElementsUpdate-3 spec says ('If an index ... is negative then exception is \
raised'); use version=12 for negative indices"""
evidence = "scatter-elements-update-3.rst; docs/semantics.md#s5-4 and docs/semantics.md#s11-2"
kind = "spec"
versions = "3"
[divergence.example]
call = "openvino:ScatterElementsUpdate"
opset = 3
args = { data = [0, 0, 0], indices = [-1], updates = [5], axis = 0 }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [0, 0, 5] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "index below -s (e.g. -4 on an axis of size 3)"
when = "out_of_range"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "kills the process (SIGSEGV / SIGABRT, heap corruption); an index >= s raises cleanly"
ours = "IndexOutOfRangeError"
evidence = """
docs/behavior-matrix.md#surprise-1 and docs/behavior-matrix.md#t6-10 (3 of 3 runs crashed); DESIGN.md OpenVINO \
rules"""
kind = "undefined"
not_reproducible = "the process dies (SIGSEGV, SIGABRT)"

[[divergence]]
case = "duplicate indices with reduction='none'"
when = "duplicates"
reference = "OpenVINO spec"
theirs = "'the order of updating the values is undefined'; the CPU plugin is last-wins (20 of 20 runs)"
ours = "duplicates='last' (row-major order of indices) by default; 'first' or 'raise' on request"
evidence = "scatter-elements-update-12.rst; docs/behavior-matrix.md#t6-4 and docs/behavior-matrix.md#t6-9"
kind = "undefined"
[divergence.example]
call = "openvino:ScatterElementsUpdate"
opset = 12
args = { data = [0, 0], indices = [0, 0], updates = [1, 2], axis = 0 }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [2, 0] }
ours = "same"

[[divergence]]
case = "NaN in data or updates with reduction='max' or 'min'"
when = "nonfinite"
reference = "OpenVINO 2026.4 CPU plugin and reference implementation"
theirs = """
order-dependent (a > b ? a : b): the CPU kernel keeps a NaN already in data but drops NaN updates, constant \
folding drops both"""
ours = "NaN propagates (IEEE maximum/minimum, as NumPy)"
evidence = """
checked on 2026.4.1: data [nan, 1], updates [2] at 0 and [nan, 3] at 1 -> CPU [nan, 3], constant folding [2, 3]"""
kind = "undefined"
versions = "12"
[divergence.example]
call = "openvino:ScatterElementsUpdate"
opset = 12
args = { data = ["nan", 1], indices = [0, 1], updates = [2, "nan"], axis = 0 }
kwargs = { reduction = "max" }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = ["nan", 1] }
ours = { equals = ["nan", "nan"] }

''')
plugin_divergences("openvino.ScatterElementsUpdate", unchecked_one_thread=True)


def _describe(axis: int, reduction: str = "none", use_init_val: bool = True,
                            version: int = 12) -> Description:
    op = "openvino.ScatterElementsUpdate"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (3, 12))
    r = _reduction(op, reduction, _REDUCTIONS_12 if v == 12 else {"none": "none"})
    use_init_val = check_bool(op, "use_init_val", use_init_val)
    if v == 3 and not use_init_val:
        raise UnsupportedError(f"translate {op}: ScatterElementsUpdate-3 has no use_init_val")
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=r, include_self=use_init_val,
                  negative="wrap" if v == 12 else "raise", duplicates_specified=False, mean_rounding="floor")
    res = [_FINITE_START] if not use_init_val and r in ("max", "min") else []
    layout: dict[str, Any] = {"index_dtypes": _INT, "smaller_index": True}
    if r in ("max", "min"):
        layout["nonfinite"] = 0.2
    return Description(op, {"axis": axis, "reduction": reduction, "use_init_val": use_init_val, "version": v},
                  ("data", "indices", "updates"), c, residuals=res, layout=layout)


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"axis": 0, "reduction": r, "use_init_val": s}
    for r in ("none", "sum", "mean", "max") for s in (True, False)
    if r != "none" or s]
)


@openvino_op("ScatterElementsUpdate", family="scatter_elements", versions=(3, 12),
             adds={12: "reduction (sum, prod, min, max, mean), use_init_val; negative indices"},
             differentiable=("data", "updates"), describe=_describe,
             values={"reduction": _REDUCTIONS_12, "duplicates": DUPLICATES},
             variants=_PROBE)
def ScatterElementsUpdate(
    data: Any,
    indices: Any,
    updates: Any,
    axis: Any,
    reduction: str = "none",
    use_init_val: bool = True,
    version: int = 12,
    *,
    duplicates: str = "last",
) -> Lowering:
    """OpenVINO ScatterElementsUpdate: write (or reduce) one update per index into a copy of ``data``.

    Versions: ScatterElementsUpdate-3 (opset3 to opset11; no attributes, indices in
    ``[0, s-1]``), -12 (opset12 to opset17: ``reduction`` none, sum, prod, min,
    max, mean; ``use_init_val``; indices in ``[-s, s-1]``). ``axis`` is an input:
    an int, a 0-d or a 1-element 1-D integer array.

    ``indices`` and ``updates`` have the same shape and the rank of ``data``; on
    dims other than ``axis`` they may be shorter than ``data`` (not longer).
    Indices may have any integer type; outside the range raises. ``use_init_val=False``
    first writes the reduction's neutral value at every targeted position
    (0 for sum and mean, 1 for prod, ``lowest()`` for max, ``max()`` for min:
    finite for floats, as OpenVINO), and ``mean`` then divides by the number of
    updates only. Integer means round down (spec; the CPU plugin truncates).
    Booleans: sum = OR, prod = AND, max = OR, min = AND; no mean.
    Duplicates without a reduction: undefined order in OpenVINO; the last update
    in row-major order wins here (``duplicates='first'`` / ``'raise'`` on request).

    Equivalent loop::

        Y = copy(data)
        for j in ndindex(indices.shape):
            t = j[:axis] + (norm(indices[j]),) + j[axis+1:]
            Y[t] = updates[j] if reduction == 'none' else f(Y[t], updates[j])
        # mean: Y[t] = (data[t] + sum of its updates) / (count + 1), floor for integers

    Differs from ONNX ScatterElements (no mean, no use_init_val, names add/mul) and
    from ``torch.scatter_reduce`` (names amax/amin; torch rejects negative indices).

    >>> import gatherscatter as gs
    >>> gs.openvino.ScatterElementsUpdate([2, 3, 4, 6], [1, 0, 0, -2, -1, 2], [10, 20, 30, 40, 70, 60], 0,
    ...                                   reduction="sum").tolist()
    [52, 13, 104, 76]
    >>> gs.openvino.ScatterElementsUpdate([-5, -5, -5, -5], [0, 0, 2], [-2, -4, -7], 0, reduction="mean").tolist()
    [-4, -5, -6, -5]
    """
    v = ov_version("ScatterElementsUpdate", version)
    ctx = ov_context("ScatterElementsUpdate", v)
    red = parse_reduction(ctx, reduction, _REDUCTIONS_12, v, since=12)
    if not isinstance(use_init_val, (bool, np.bool_)):
        raise ArgumentError(
            f"{ctx.label}: use_init_val must be a bool (got {use_init_val!r} of type {type(use_init_val).__name__})"
        )
    if v == 3 and not use_init_val:
        raise UnsupportedError(
            f"{ctx.label}: ScatterElementsUpdate-3 has no use_init_val attribute (added in "
            f"ScatterElementsUpdate-12); got use_init_val=False"
        )
    d, i, u, a = axis_scatter_inputs(ctx, data, indices, updates, axis)
    check_indices_rank(ctx, i, d)
    check_updates_like_indices(ctx, i, u)
    policy = Policy(
        bounds=Bounds.RAISE,
        negative=Negative.WRAP if v == 12 else Negative.RAISE,
        reduction=red,
        include_self=bool(use_init_val),
        identity=Identity.FINITE,  # use_init_val=False: max/min start from lowest()/max(), finite for floats
        mean_rounding=MeanRounding.FLOOR,
        duplicates=parse_enum(Duplicates, duplicates),
    )
    return Lowering("scatter", d, i, IndexSpec(axis=a, batch=a, elementwise=True), policy, ctx, updates=u)
