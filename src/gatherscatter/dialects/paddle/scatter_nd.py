"""Paddle ``paddle.scatter_nd(index, updates, shape)`` (3.3.1, CPU)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ...core.shape import as_array, check_allocatable
from ...errors import ArgumentError, ShapeError
from .._record import Description, Step, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import check_paddle_dtype, index_array, paddle_context
from ._describe import _EMPTY, _INT
from .scatter_nd_add import ND_DTYPES, lower_nd_add

divergence_table("paddle.scatter_nd", __file__)


def _shape(ctx: Any, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, np.ndarray):
        if shape.ndim != 1 or shape.dtype.kind not in "iu":
            raise ArgumentError(f"{ctx.label}: shape must be a 1-D integer array or a list of ints (got {shape!r})")
        items: list[Any] = shape.tolist()
    elif isinstance(shape, (list, tuple)):
        items = list(shape)
    else:
        raise ArgumentError(f"{ctx.label}: shape must be a list or tuple of ints (got {shape!r})")
    out = []
    for n, v in enumerate(items):
        if isinstance(v, (bool, np.bool_)):
            raise ArgumentError(f"{ctx.label}: shape[{n}] must be an int (got {v!r})")
        try:
            iv = operator.index(v)
        except TypeError:
            raise ArgumentError(f"{ctx.label}: shape[{n}] must be an int (got {v!r})") from None
        if iv < 0:
            raise ShapeError(
                f"{ctx.label}: each value of shape must be no less than 0; got shape[{n}] = {iv} (shape {items})"
            )
        out.append(iv)
    return tuple(out)


def _describe() -> Description:
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="paddle.scatter_nd adds into zeros(shape)")]
    c = canonical("scatter_nd", data="zeros", indices="index", updates="updates", reduction="add")
    return Description("paddle.scatter_nd", {}, ("index", "updates", "shape"), c, pre=pre, residuals=[_EMPTY],
                  roles={"data": "shape", "indices": "index"}, layout={"index_dtypes": _INT})


@dialect_op(
    "paddle", "scatter_nd", family="scatter_nd", kind="scatter", versions=("3.3.1",), differentiable=("updates",),
    describe=_describe, fuzz={"nonempty_tuples": True},
)
def scatter_nd(index: Any, updates: Any, shape: Any) -> Lowering:
    """Paddle scatter_nd: sum slices of ``updates`` at index tuples into ``zeros(shape)``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.scatter_nd(index, updates, shape)``
    on CPU, which is ``scatter_nd_add(zeros(shape, updates.dtype), index,
    updates)``: duplicates are **summed**, never overwritten. With
    ``k = index.shape[-1] <= len(shape)``: ``updates.shape == index.shape[:-1]
    + shape[k:]``. Negative indices wrap once; outside ``[-s, s-1]`` raises. The
    output dtype is the dtype of ``updates``: int32, int64, uint8, float32 or
    float64. ``shape`` is a list/tuple (or 1-D integer array) of ints ``>= 0``.

    Equivalent loop::

        Y = zeros(shape, updates.dtype)
        for i in ndindex(index.shape[:-1]):
            Y[tuple(index[i])] += updates[i]

    Differs from ONNX ``ScatterND`` (overwrite) and MXNet ``scatter_nd``
    (overwrite, last wins, tuples on the first axis); the same as
    ``tf.scatter_nd`` except that Paddle wraps negative indices.

    >>> import gatherscatter as gs
    >>> gs.paddle.scatter_nd([[1], [1], [-1]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [3, 2]).tolist()
    [[0.0, 0.0], [4.0, 6.0], [5.0, 6.0]]
    """
    ctx = paddle_context("scatter_nd")
    out_shape = _shape(ctx, shape)
    i = index_array(ctx, index)
    u = as_array(ctx, updates, "updates")
    check_paddle_dtype(ctx, u, ND_DTYPES, name="updates")
    if i.ndim >= 1 and i.shape[-1] <= len(out_shape):
        want = i.shape[:-1] + out_shape[i.shape[-1] :]
        if u.shape != want:  # checked before zeros(shape) is allocated
            raise ShapeError(
                f"{ctx.label}: updates must have shape index.shape[:-1] + shape[index.shape[-1]:] = "
                f"{list(want)}; got {list(u.shape)}"
            )
    check_allocatable(ctx, out_shape, u.dtype, "shape")  # NumPy's limit: refuse before allocating
    # zeros as a read-only broadcast view: the scatter copies it once into its output
    return lower_nd_add(ctx, np.broadcast_to(np.zeros((), u.dtype), out_shape), i, u)
