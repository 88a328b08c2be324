"""OpenVINO ``ScatterNDUpdate`` (versions 3, 15)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Bounds, Duplicates, Negative, Policy, parse_enum
from ...core.shape import IndexSpec, as_updates
from ...errors import ShapeError
from .._common import DUPLICATES
from .._record import Description, canonical, check_choice
from .._registry import Lowering, divergence_table
from ._common import INT32_INT64, nd_inputs, ov_context, ov_version, parse_reduction, plugin_divergences, reductions
from ._describe import _INT, _reduction, openvino_op

_REDUCTIONS_15 = reductions("none", "sum", "sub", "prod", "min", "max")

divergence_table("openvino.ScatterNDUpdate", __file__)
plugin_divergences("openvino.ScatterNDUpdate", unchecked_one_thread=True)


def _describe(reduction: str = "none", version: int = 15) -> Description:
    op = "openvino.ScatterNDUpdate"
    v = check_choice(op, "version", version, (3, 15))
    r = _reduction(op, reduction, _REDUCTIONS_15 if v == 15 else {"none": "none"})
    c = canonical("scatter_nd", updates="updates", reduction=r, negative="wrap" if v == 15 else "raise",
                  duplicates_specified=False)
    return Description(op, {"reduction": reduction, "version": v}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _INT})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"reduction": r} for r in ("none", "sum", "sub", "prod", "min", "max")]
)


@openvino_op("ScatterNDUpdate", family="scatter_nd", versions=(3, 15),
             adds={15: "reduction (sum, sub, prod, min, max); negative indices"}, differentiable=("data", "updates"),
             describe=_describe, values={"reduction": _REDUCTIONS_15, "duplicates": DUPLICATES}, variants=_PROBE)
def ScatterNDUpdate(
    data: Any,
    indices: Any,
    updates: Any,
    reduction: str = "none",
    version: int = 15,
    *,
    duplicates: str = "last",
) -> Lowering:
    """OpenVINO ScatterNDUpdate: write (or reduce) slices addressed by index tuples into a copy of ``data``.

    Versions: ScatterNDUpdate-3 (opset4 to opset14; indices in ``[0, s_j-1]``),
    -15 (opset15 to opset17: ``reduction`` none, sum, sub, prod, min, max;
    indices in ``[-s_j, s_j-1]``). Indices are int32 or int64 only.

    With ``k = indices.shape[-1] <= rank(data)``:
    ``updates.shape == indices.shape[:-1] + data.shape[k:]`` (a 1-element tensor
    is accepted where that shape is ``()``). A 1-D ``indices`` is one index tuple.
    Indices outside the range raise. Booleans: sum = OR, sub = XOR, prod = AND,
    max = OR, min = AND. Duplicates without a reduction: undefined in OpenVINO;
    the last in row-major order wins here (``duplicates='first'`` / ``'raise'``).

    Equivalent loop::

        Y = copy(data)
        for i in ndindex(indices.shape[:-1]):
            t = tuple(norm(x, s_j) for j, x in enumerate(indices[i]))
            Y[t] = updates[i] if reduction == 'none' else f(Y[t], updates[i])

    Differs from ONNX ScatterND (int64 indices only, no ``sub``, names add/mul)
    and ``tf.tensor_scatter_nd_*`` (no negative indices).

    >>> import gatherscatter as gs
    >>> gs.openvino.ScatterNDUpdate([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12]).tolist()
    [1, 11, 3, 10, 9, 6, 7, 12]
    >>> gs.openvino.ScatterNDUpdate([1, 2, 3, 4], [[0], [2], [-3], [-3], [0]], [10, 20, 30, 40, 50], "sub").tolist()
    [-59, -68, -17, 4]
    """
    v = ov_version("ScatterNDUpdate", version)
    ctx = ov_context("ScatterNDUpdate", v)
    red = parse_reduction(ctx, reduction, _REDUCTIONS_15, v, since=15)
    d, i = nd_inputs(ctx, data, indices, INT32_INT64)
    u = as_updates(ctx, updates, d.dtype)
    k = i.shape[-1]
    if k > d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] (the index tuple length) must be at most rank(data) = {d.ndim}; "
            f"got {k} (indices shape {list(i.shape)}, data shape {list(d.shape)})"
        )
    expected = tuple(i.shape[:-1]) + tuple(d.shape[k:])
    if expected == () and u.shape != () and u.size == 1:
        u = u.reshape(())
    if u.shape != expected:
        raise ShapeError(
            f"{ctx.label}: updates must have shape indices.shape[:-1] + data.shape[k:] = {list(expected)} "
            f"(k = indices.shape[-1] = {k}); got updates shape {list(u.shape)}"
        )
    policy = Policy(
        bounds=Bounds.RAISE,
        negative=Negative.WRAP if v == 15 else Negative.RAISE,
        reduction=red,
        duplicates=parse_enum(Duplicates, duplicates),
    )
    return Lowering("scatter", d, i, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=u)
