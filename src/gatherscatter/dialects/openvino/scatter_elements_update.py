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

divergence_table("openvino.ScatterElementsUpdate", __file__)
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
