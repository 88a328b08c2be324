"""Caffe2 ``BatchGather`` (DATA, INDICES): Gather along axis 1 without wrapping, from the source."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ArgumentError, ShapeError
from .._common import data_array
from .._record import Description, canonical, check_bool
from .._registry import Lowering, dialect_op
from ._common import caffe2_context, lower_gather
from ._describe import _EMPTY, _INT


def _describe(match_outer: bool = False) -> Description:
    op = "caffe2.BatchGather"
    match_outer = check_bool(op, "match_outer", match_outer)
    c = canonical("gather", axis=1, batch_dims=1 if match_outer else 0, negative="raise")
    return Description(op, {"match_outer": match_outer}, ("data", "indices"), c, residuals=[_EMPTY],
                  layout={"index_dtypes": _INT, "rank": (2, 3)})


@dialect_op(
    "caffe2", "BatchGather", family="gather", kind="gather", versions=("final",), differentiable=("data",),
    describe=_describe, fuzz={"min_rank": 2, "fixed_axis": 1, "index_shape": "matrix", "negative": False},
)
def BatchGather(data: Any, indices: Any, *, match_outer: bool = False) -> Lowering:
    """Caffe2 BatchGather: Gather along axis 1 of DATA (axis 0 is the batch), negative indices rejected.

    Provenance: Caffe2 ``BatchGather`` as last shipped in pytorch/pytorch
    (``caffe2/operators/batch_gather_ops.h``: "BatchGather is a special-case of
    Gather with Axis = 1", ``gather_helper::gather_impl(..., axis=1,
    wrap_indices=false)``; schema in ``batch_gather_ops.cc``). Caffe2 is no
    longer shipped: nothing here could be compared with a running Caffe2.

    DATA has rank ``r >= 2``; INDICES are int32/int64 of any rank (the same
    indices for every batch row); ``Y.shape = DATA.shape[:1] + INDICES.shape +
    DATA.shape[2:]``. Every index must be in ``[0, DATA.shape[1]-1]``: a
    negative index raises (no wrapping). If ``DATA.shape[1] == 0`` the output
    has the shape of DATA, and an empty output checks no index.
    ``match_outer=True`` (final source, ``batch_gather_ops.cu``) pairs
    ``INDICES.shape[0]`` with the batch: ``Y.shape = DATA.shape[:1] +
    INDICES.shape[1:] + DATA.shape[2:]``.

    Equivalent loop::

        for b in range(DATA.shape[0]):
            for i in ndindex(INDICES.shape):
                Y[(b,) + i] = DATA[b, INDICES[i]]

    Differs from Caffe2 ``Gather(axis=1)`` only in never wrapping (Gather with
    axis 1 also does not wrap unless ``wrap_indices=True``), and from
    ``tf.compat.v1.batch_gather`` (per-row indices: that is ``match_outer=True``).

    >>> import gatherscatter as gs
    >>> data = [[1.0, 1.2, 2.4, 4.5], [2.3, 3.4, 3.6, 2.3], [4.5, 5.7, 1.2, 4.5]]
    >>> gs.caffe2.BatchGather(data, [0, 2]).tolist()
    [[1.0, 2.4], [2.3, 3.6], [4.5, 1.2]]
    """
    ctx = caffe2_context("BatchGather")
    if not isinstance(match_outer, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: match_outer must be a bool (got {match_outer!r})")
    d = data_array(ctx, data)
    if d.ndim < 2:
        raise ShapeError(f"{ctx.label}: DATA should be at least 2-D; got DATA shape {list(d.shape)}")
    return lower_gather(ctx, d, indices, 1, False, bool(match_outer))
