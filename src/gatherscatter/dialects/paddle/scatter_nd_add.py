"""Paddle ``paddle.scatter_nd_add(x, index, updates)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, as_updates
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import check_paddle_dtype, index_array, paddle_context, tuple_length
from ._describe import _EMPTY, _INT

__all__ = ["ND_DTYPES", "lower_nd_add", "scatter_nd_add"]

# CPU kernel registry of paddle 3.3.1 for scatter_nd_add (measured; scatter_nd calls it)
ND_DTYPES = frozenset({"int32", "int64", "uint8", "float32", "float64"})

divergence_table("paddle.scatter_nd_add", __file__)


def lower_nd_add(
    ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], u: np.ndarray[Any, Any]
) -> Lowering:
    """Shared by ``scatter_nd_add`` and ``scatter_nd``: checks ranks and shapes, lowers to a scatter-add."""
    k = tuple_length(ctx, i, d.ndim, f"rank of the output ({d.ndim})", f"index shape {list(i.shape)}")
    want = i.shape[:-1] + d.shape[k:]
    if u.shape != want:
        raise ShapeError(
            f"{ctx.label}: updates must have shape index.shape[:-1] + x.shape[index.shape[-1]:] = {list(want)}; "
            f"got {list(u.shape)}"
        )
    result = d.copy() if d.size == 0 else None
    policy = WRAPPING.with_(reduction="add")  # scatter_nd_add sums onto x
    return Lowering(
        "scatter", d, i, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=u, result=result
    )


def _describe() -> Description:
    c = canonical("scatter_nd", data="x", indices="index", updates="updates", reduction="add")
    return Description("paddle.scatter_nd_add", {}, ("x", "index", "updates"), c, residuals=[_EMPTY],
                  layout={"index_dtypes": _INT})


@dialect_op(
    "paddle", "scatter_nd_add", family="scatter_nd", kind="scatter", versions=("3.3.1",),
    differentiable=("x", "updates"),
    describe=_describe,
)
def scatter_nd_add(x: Any, index: Any, updates: Any) -> Lowering:
    """Paddle scatter_nd_add: add slices of ``updates`` at index tuples into a copy of ``x``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.scatter_nd_add(x, index, updates)``
    on CPU. With ``k = index.shape[-1] <= rank(x)``: ``updates.shape ==
    index.shape[:-1] + x.shape[k:]`` exactly (a 1-D index is one tuple;
    ``k = 0`` adds the whole update to ``x``). Duplicates accumulate, ``x``
    included. Negative indices wrap once; outside ``[-s, s-1]`` raises; an
    empty ``x`` is returned unchanged. ``x`` dtypes: int32, int64, uint8,
    float32, float64; ``updates`` must have the dtype of ``x``.

    Where ``index`` has no element, Paddle 3.3.1 computes ``x + updates`` by
    broadcasting (an error or a wrongly shaped result); we follow the
    docstring instead (see the divergence record).

    Equivalent loop::

        Y = copy(x)
        for i in ndindex(index.shape[:-1]):                 # row-major
            t = tuple(v + x.shape[j] if v < 0 else v for j, v in enumerate(index[i]))
            Y[t] += updates[i]

    Differs from ONNX ``ScatterND`` (overwrites unless ``reduction='add'``)
    and from ``paddle.scatter(overwrite=False)`` (zeroes the rows first).

    >>> import gatherscatter as gs
    >>> gs.paddle.scatter_nd_add([0, 1, 2, 3, 4, 5], [[1], [2], [3], [1]], [9, 10, 11, 12]).tolist()
    [0, 22, 12, 14, 4, 5]
    >>> gs.paddle.scatter_nd_add([[65, 17], [-14, -25]], [[], []], [[[-1, -2], [1, 2]], [[3, 4], [-3, -4]]]).tolist()
    [[67, 19], [-16, -27]]
    """
    ctx = paddle_context("scatter_nd_add")
    d = data_array(ctx, x)
    check_paddle_dtype(ctx, d, ND_DTYPES)
    i = index_array(ctx, index)
    u = as_updates(ctx, updates, d.dtype)
    return lower_nd_add(ctx, d, i, u)
