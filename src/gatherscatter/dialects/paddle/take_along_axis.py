"""Paddle ``paddle.take_along_axis(arr, indices, axis, broadcast=True)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, as_array, broadcast_along, dtype_name, normalize_axis
from ...errors import DTypeError, ShapeError
from .._common import data_array
from .._record import Description, canonical, check_int
from .._record import check_bool as check_attr_bool
from .._registry import Lowering, dialect_op, divergence_table
from ._common import along_axis_index, check_bool, check_paddle_dtype, empty_like_shape, paddle_context
from ._describe import _INT

# CPU kernel registry of paddle 3.3.1 for take_along_axis (measured)
_DTYPES = frozenset({"int16", "int32", "int64", "uint8", "float32", "float64"})

# index dtypes that paddle 3.3.1 accepts without error and then reads as if they were int64
_GARBAGE_INDEX = frozenset({"int8", "int16", "uint8", "uint16", "float32"})

divergence_table("paddle.take_along_axis", r'''
[[divergence]]
case = "indices of dtype int8, int16, uint8, uint16 (bfloat16 bits) or float32"
when = "dtype"
reference = "paddle 3.3.1 CPU"
theirs = """
no error; returns garbage (int8 [[2],[0]] on [[1,2,3],[4,5,6]] gave [[989],[990]], then [[8057174],[3.068e-41]])"""
ours = "DTypeError: indices must be int32 or int64 (what the docstring lists and put_along_axis enforces)"
evidence = "docs/behavior-matrix.md#surprise-9 and docs/behavior-matrix.md#t6-2 index dtypes"
kind = "undefined"
not_reproducible = "paddle reads memory it does not own: the call can crash the process (it did in a test run)"

[[divergence]]
case = "arr.shape[axis] == 0 with a non-empty output"
when = "empty"
reference = "paddle 3.3.1 CPU"
theirs = "no error; reads zeros (uninitialised memory)"
ours = "IndexOutOfRangeError (no index is valid on an axis of size 0)"
evidence = "probe: paddle.take_along_axis(zeros((3, 0)), [[0]], 1) -> [[0], [0], [0]]"
kind = "undefined"
not_reproducible = "uninitialised memory: no stable value to assert"
''')


def _describe(axis: int, broadcast: bool = True) -> Description:
    op = "paddle.take_along_axis"
    axis = check_int(op, "axis", axis)
    broadcast = check_attr_bool(op, "broadcast", broadcast)
    c = canonical("gather_elements", data="arr", axis=axis, broadcast=broadcast)
    return Description(op, {"axis": axis, "broadcast": broadcast}, ("arr", "indices"), c, layout={"index_dtypes": _INT})


@dialect_op(
    "paddle", "take_along_axis", family="gather_elements", kind="gather", versions=("3.3.1",),
    differentiable=("arr",),
    describe=_describe, variants=({"axis": 1},),
)
def take_along_axis(arr: Any, indices: Any, axis: int, broadcast: bool = True) -> Lowering:
    """Paddle take_along_axis: one element of ``arr`` per index along ``axis``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.take_along_axis(arr, indices, axis,
    broadcast=True)`` on CPU. ``indices`` (int32/int64) has the rank of ``arr``;
    ``axis`` is required.

    * ``broadcast=True``: ``arr`` and ``indices`` are broadcast against each
      other (NumPy rules) on every dim except ``axis``; the output has the
      broadcast shape with ``indices.shape[axis]`` on ``axis``.
    * ``broadcast=False``: no broadcasting; ``indices.shape[d] <= arr.shape[d]``
      on every other dim and the output has the shape of ``indices``
      (= ``torch.gather``, which the overload ``paddle.gather(input, dim, index)`` calls).

    Negative indices wrap once; outside ``[-s, s-1]`` raises. ``arr`` dtypes:
    int16, int32, int64, uint8, float32, float64. Index dtypes other than
    int32/int64 raise (Paddle returns garbage for int8/int16/uint8/float32).

    Equivalent loop (after broadcasting)::

        for j in ndindex(indices.shape):
            k = indices[j]; k = k + s if k < 0 else k
            Y[j] = arr[j[:axis] + (k,) + j[axis+1:]]

    Differs from ``np.take_along_axis`` (default ``axis=-1``; more dtypes) and
    from ``torch.gather`` / ``paddle.gather(input, dim, index)`` (no broadcast).

    >>> import gatherscatter as gs
    >>> gs.paddle.take_along_axis([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0]], 0).tolist()
    [[1, 2, 3]]
    >>> gs.paddle.take_along_axis([[1, 2, 3], [4, 5, 6]], [[2], [-3]], 1).tolist()
    [[3], [4]]
    """
    ctx = paddle_context("take_along_axis", data="arr", indices="indices")
    b = check_bool(ctx, "broadcast", broadcast)
    d = data_array(ctx, arr)
    check_paddle_dtype(ctx, d, _DTYPES)
    raw = as_array(ctx, indices, "indices")
    if isinstance(indices, np.ndarray) and dtype_name(raw.dtype) in _GARBAGE_INDEX:
        raise DTypeError(
            f"{ctx.label}: indices dtype {dtype_name(raw.dtype)} is not accepted; expected one of: int32, int64 "
            f"(paddle 3.3.1 accepts it silently and returns garbage)"
        )
    i = along_axis_index(ctx, d, indices)
    a = normalize_axis(ctx, axis, d.ndim)
    if b:
        d, i = broadcast_along(ctx, d, i, a, names=("arr", "indices"), dim="dim")
    else:
        for dim in range(d.ndim):
            if dim != a and i.shape[dim] > d.shape[dim]:
                raise ShapeError(
                    f"{ctx.label}: with broadcast=False indices.shape[{dim}] must be <= arr.shape[{dim}] on "
                    f"every dim except axis {a}; got indices shape {list(i.shape)} and arr shape {list(d.shape)}"
                )
    spec = IndexSpec(axis=a, batch=a, elementwise=True)
    return Lowering("gather", d, i, spec, WRAPPING, ctx, result=empty_like_shape(i.shape, d.dtype))
