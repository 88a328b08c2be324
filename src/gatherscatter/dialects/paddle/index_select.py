"""Paddle ``paddle.index_select(x, index, axis=0)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, normalize_axis
from ...errors import ShapeError
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op
from ._common import empty_like_shape, paddle_context, x_and_index
from ._describe import _INT

# CPU kernel registry of paddle 3.3.1 for index_select (measured)
_DTYPES = frozenset({"bool", "int32", "int64", "bfloat16", "float32", "float64", "complex64", "complex128"})


def _describe(axis: int = 0) -> Description:
    axis = check_int("paddle.index_select", "axis", axis)
    c = canonical("gather", data="x", indices="index1", axis=axis)
    pre = [Step.adapt("flatten", "index1", "index", why="a [n, 1] index reads as 1-d")]
    return Description("paddle.index_select", {"axis": axis}, ("x", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (1, 1)})


@dialect_op(
    "paddle", "index_select", family="gather", kind="gather", versions=("3.3.1",), differentiable=("x",),
    describe=_describe, fuzz={"index_shape": "vector"}, variants=({"axis": 1},),
)
def index_select(x: Any, index: Any, axis: int = 0) -> Lowering:
    """Paddle index_select: rows of ``x`` along ``axis`` picked by a 1-D ``index``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.index_select(x, index, axis=0)`` on
    CPU. ``index`` is int32/int64 and 1-D (a 2-D ``[n, 1]`` index is read as
    1-D; a 0-D index is rejected); the output keeps the rank of ``x`` with
    ``Y.shape[axis] = len(index)``. Negative indices wrap once; outside
    ``[-s, s-1]`` raises. ``x`` dtypes: bool, int32, int64, bfloat16, float32,
    float64, complex64, complex128 (the CPU kernels; no int8/int16/uint8/float16).

    Equivalent loop::

        for p in ndindex(x.shape[:axis]), n in range(len(index)), r in ndindex(x.shape[axis+1:]):
            k = index[n]; k = k + s if k < 0 else k
            Y[p + (n,) + r] = x[p + (k,) + r]

    Differs from ``torch.index_select`` (rejects negative indices; keeps a
    size-1 dim for a 0-d index, which Paddle rejects) and from
    ``paddle.gather`` (accepts 0-D indices and more dtypes).

    >>> import gatherscatter as gs
    >>> gs.paddle.index_select([[1, 2, 3], [4, 5, 6]], [2, -3], axis=1).tolist()
    [[3, 1], [6, 4]]
    """
    ctx = paddle_context("index_select")
    d, i = x_and_index(ctx, x, index, _DTYPES)
    a = normalize_axis(ctx, axis, d.ndim)
    if i.ndim == 2 and i.shape[1] == 1:
        i = i.reshape(-1)
    elif i.ndim != 1:
        raise ShapeError(
            f"{ctx.label}: index must be a 1-D tensor (or 2-D with last dim 1); got index shape {list(i.shape)}"
        )
    empty = empty_like_shape(d.shape[:a] + i.shape + d.shape[a + 1 :], d.dtype)
    return Lowering("gather", d, i, IndexSpec(axis=a), WRAPPING, ctx, result=empty)
