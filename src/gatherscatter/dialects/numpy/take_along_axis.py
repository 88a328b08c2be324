"""NumPy ``take_along_axis`` (NumPy 2.4; default ``axis=-1`` since 2.3)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, prod
from .._common import data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import along_axis, along_indices, broadcast_along, check_bounds, np_context
from ._describe import _INT

divergence_table("numpy.take_along_axis", r'''
[[divergence]]
case = "arr or indices given as a Python list"
when = "dtype"
reference = "NumPy 2.4"
theirs = "AttributeError ('list' object has no attribute 'dtype' / 'ndim'): both must be ndarrays"
ours = "read with np.asarray, like every gatherscatter input (a list of floats is still refused)"
evidence = "measured on NumPy 2.4.6 (np.take_along_axis([[1, 2]], np.array([[1]]), axis=1))"
kind = "choice"
[divergence.example]
call = "numpy.take_along_axis"
args = { arr = [[1, 2]], indices = [[1]], axis = 1 }
theirs = { raises = "AttributeError" }
ours = { equals = [[2]] }
''')


def _describe(axis: int | None = -1) -> Description:
    op = "numpy.take_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        c = canonical("gather_elements", data="flat", indices="indices", axis=0)
        pre = [Step.adapt("flatten", "flat", "arr", why="axis=None works on the flattened array (1-d indices)")]
        return Description(op, {"axis": None}, ("arr", "indices"), c, pre=pre,
                      layout={"index_dtypes": _INT, "rank": (1, 1)})
    c = canonical("gather_elements", data="arr", axis=axis, broadcast=True)
    return Description(op, {"axis": axis}, ("arr", "indices"), c, layout={"index_dtypes": _INT})


@dialect_op(
    "numpy", "take_along_axis", family="gather_elements", kind="gather", versions=("2.4",),
    differentiable=("arr",),
    describe=_describe, fuzz={"axis_none": True}, variants=({"axis": 1},),
)
def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Lowering:
    """NumPy take_along_axis: one element of ``arr`` per index, indices broadcast against ``arr``.

    Provenance: ``numpy.take_along_axis(arr, indices, axis=-1)``, NumPy 2.4
    (``numpy/lib/_shape_base_impl.py``); the default ``axis=-1`` dates from
    NumPy 2.3 (gh-28615; before it ``axis`` was required).

    ``indices`` is an integer array (not bool) with the rank of ``arr``; on
    every dim but ``axis`` it broadcasts against ``arr`` (size 1 against n).
    The output has the broadcast shape with ``indices.shape[axis]`` on the
    axis. ``axis=None`` works on the flattened array and needs 1-d indices.
    Negative indices wrap once; outside ``[-s, s-1]`` raises.

    Equivalent loop (after broadcasting)::

        for j in ndindex(Y.shape):
            Y[j] = arr[j[:axis] + (norm(indices[j]),) + j[axis+1:]]

    Differs from ``onnx.GatherElements`` / ``torch.gather`` (no broadcasting;
    torch rejects negatives) and from ``jax.numpy.take_along_axis`` (fills
    out-of-range with NaN by default).

    >>> import gatherscatter as gs
    >>> gs.numpy.take_along_axis([[10, 30, 20], [60, 40, 50]], [[0], [1]], axis=1).tolist()
    [[10], [40]]
    >>> gs.numpy.take_along_axis([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 0]]).tolist()
    [[3, 1], [6, 4], [9, 7]]
    """
    ctx = np_context("take_along_axis", data="arr")
    d = data_array(ctx, arr)
    i = along_indices(ctx, indices)
    d, a = along_axis(ctx, d, i, axis)
    shape = broadcast_along(ctx, i.shape, d.shape, a)
    if prod(shape):
        check_bounds(ctx, i, d.shape[a], a, "indices")
    if i.shape != shape:
        i = np.broadcast_to(i, shape)
    dshape = shape[:a] + (d.shape[a],) + shape[a + 1 :]
    if d.shape != dshape:
        d = np.broadcast_to(d, dshape)
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=a, elementwise=True), WRAPPING, ctx)
