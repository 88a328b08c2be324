"""NumPy ``take`` (NumPy 2.4)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import IndexSpec, prod
from .._common import data_array
from .._record import Description, Residual, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import mode_policy, np_axis, np_context, take_indices
from ._describe import _INT, _mode

divergence_table("numpy.take", __file__)


def _describe(axis: int | None = None, mode: str = "raise") -> Description:
    op = "numpy.take"
    axis = check_int(op, "axis", axis, optional=True)
    neg, bounds = _mode(op, mode)
    res = [Residual("empty", "does not check the indices when no element is read (a zero-size dim before axis)",
                    "checks them")]
    attrs = {"axis": axis, "mode": mode}
    if axis is None:
        c = canonical("gather", data="flat", axis=0, negative=neg, bounds=bounds)
        pre = [Step.adapt("flatten", "flat", "a", why="axis=None takes from the flattened array")]
        return Description(op, attrs, ("a", "indices"), c, pre=pre, residuals=res,
                      layout={"index_dtypes": _INT, "index_ndim": (0, 2)})
    c = canonical("gather", data="a", axis=axis, negative=neg, bounds=bounds)
    return Description(op, attrs, ("a", "indices"), c, residuals=res,
                       layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


@dialect_op(
    "numpy", "take", family="gather", kind="gather", versions=("2.4",), differentiable=("a",),
    describe=_describe, fuzz={"axis_none": True},
    variants=({}, {"axis": 0}, {"axis": 0, "mode": "clip"}, {"axis": 0, "mode": "wrap"}),
    values={"mode": ("raise", "wrap", "clip")},
)
def take(a: Any, indices: Any, axis: int | None = None, mode: str = "raise") -> Lowering:
    """NumPy take: whole slices of ``a`` along ``axis`` (``axis=None``: of the flattened array).

    Provenance: ``numpy.take(a, indices, axis=None, out=None, mode='raise')``,
    NumPy 2.4 (``numpy/_core/fromnumeric.py``); ``out`` is not offered (the
    result is always a new array).

    ``Y.shape = a.shape[:axis] + indices.shape + a.shape[axis+1:]``; a scalar
    index drops the axis (a 0-d result is a 0-d array). Modes: ``'raise'``
    (negative indices wrap once, anything outside ``[-s, s-1]`` raises),
    ``'wrap'`` (``i mod s``), ``'clip'`` (clamp to ``[0, s-1]``: ``-1`` reads
    element 0). ``mode=None`` reads as ``'raise'``. An index *array* must be
    integer or bool (cast to int64 ``same_kind``: uint64 wraps, True reads 1);
    other objects are converted as ``np.array(x, dtype=intp)``, so Python floats
    truncate (``[1.5]`` reads index 1). A 0-d ``a`` reads as 1-d along axis 0.
    As in NumPy, indices are not checked when no row is read (a zero-size dim
    before ``axis``), and a size-0 axis raises unless the result is empty.
    Any dtype NumPy has (strings, objects, datetimes, records) is taken.

    Equivalent loop::

        a = a.ravel() if axis is None else a; axis = 0 if axis is None else axis
        for p in ndindex(a.shape[:axis]), i in ndindex(indices.shape), r in ndindex(a.shape[axis+1:]):
            Y[p + i + r] = a[p + (norm(indices[i]),) + r]        # norm per mode

    Differs from ``mxnet.take`` (default ``mode='clip'``, ``axis=0``), ``torch.take``
    (always flat, no modes) and ``jax.numpy.take`` (fills out-of-range with NaN
    by default).

    >>> import gatherscatter as gs
    >>> gs.numpy.take([4, 3, 5, 7, 6, 8], [0, 1, 4]).tolist()
    [4, 3, 6]
    >>> gs.numpy.take([[4, 3, 5], [7, 6, 8]], [[0, 1], [1, 2]]).tolist()
    [[4, 3], [3, 5]]
    >>> gs.numpy.take([10, 20, 30], [-1, 3], mode="clip").tolist()
    [10, 30]
    """
    ctx = np_context("take", data="a")
    policy = mode_policy(ctx, mode)
    d = data_array(ctx, a)
    i = take_indices(ctx, indices)
    if axis is None:
        d, ax = d.reshape(-1), 0
    else:
        if d.ndim == 0:
            d = d.reshape(1)
        ax = np_axis(ctx, axis, d.ndim)
    out_shape = d.shape[:ax] + i.shape + d.shape[ax + 1 :]
    never_read = prod(d.shape[:ax]) == 0 or (d.shape[ax] == 0 and not prod(out_shape) and mode in ("wrap", "clip"))
    if i.size and never_read:
        # NumPy's loop never reads an index here (no outer rows; or nothing to copy and a mode that
        # cannot fail): the result is empty and nothing is checked
        return Lowering(
            "gather", d, i.reshape(-1)[:0], IndexSpec(axis=ax), policy, ctx, result=np.empty(out_shape, d.dtype)
        )
    return Lowering("gather", d, i, IndexSpec(axis=ax), policy, ctx)
