"""Caffe2 ``Gather`` (DATA, INDICES; axis=0, wrap_indices, match_outer), from the source."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import ArgumentError, UnsupportedError
from .._record import Description, canonical, check_bool, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import caffe2_context, lower_gather
from ._describe import _EMPTY, _INT

divergence_table("caffe2.Gather", r'''
[[divergence]]
case = "match_outer=True with an out-of-range index outside the first outer batch"
when = "out_of_range"
reference = "caffe2 gather_op.h (final source)"
theirs = """
check_indexarray_range checks only the first N = prod(INDICES.shape[axis:]) indices; the others are read unchecked \
(out-of-bounds memory read)"""
ours = "IndexOutOfRangeError for any out-of-range index"
evidence = """
caffe2/operators/gather_op.h gather_impl (match_outer branch sets N = idx_inner_dims_product before \
check_indexarray_range), as kept in klebs6/caffe2-rs caffe2op-gather"""
kind = "undefined"
not_reproducible = """
an out-of-bounds read (no stable value); and no Caffe2 runs here: torch 2.13 ships none, and PyPI's only caffe2 \
(0.5.0a0.dev100, 2018) is a source tarball whose build fails at metadata preparation"""
''')


def _describe(axis: int = 0, wrap_indices: bool | None = None, match_outer: bool = False) -> Description:
    op = "caffe2.Gather"
    axis = check_int(op, "axis", axis)
    wrap = axis == 0 if wrap_indices is None else check_bool(op, "wrap_indices", wrap_indices)
    match_outer = check_bool(op, "match_outer", match_outer)
    if match_outer and axis == 0:
        raise UnsupportedError(f"translate {op}: match_outer needs axis >= 1 (Caffe2: 'Axis should be at least 1')")
    if match_outer and axis < 0:
        raise UnsupportedError(f"translate {op}: match_outer with a negative axis ({axis}) needs the data rank; "
                               "give the non-negative axis")
    c = canonical("gather", axis=axis, batch_dims=axis if match_outer else 0,
                  negative="wrap" if wrap else "raise")
    return Description(op, {"axis": axis, "wrap_indices": wrap_indices, "match_outer": match_outer},
                  ("data", "indices"), c, residuals=[_EMPTY], layout={"index_dtypes": _INT})


@dialect_op(
    "caffe2", "Gather", family="gather", kind="gather", versions=("final",), differentiable=("data",),
    describe=_describe, variants=({}, {"wrap_indices": True}),
)
def Gather(
    data: Any, indices: Any, axis: int = 0, wrap_indices: bool | None = None, *, match_outer: bool = False
) -> Lowering:
    """Caffe2 Gather: whole slices of DATA along ``axis`` (= ONNX Gather, with Caffe2's index rules).

    Provenance: Caffe2 ``Gather`` as last shipped in pytorch/pytorch
    (``caffe2/operators/gather_op.h``: ``GatherOp`` and
    ``gather_helper::gather_impl``; ``gather_op.cc`` for the schema). Caffe2 is
    no longer shipped: nothing here could be compared with a running Caffe2.

    * ``Y.shape = DATA.shape[:axis] + INDICES.shape + DATA.shape[axis+1:]``;
      ``axis`` in ``[-r, r-1]``; INDICES int32 or int64, any rank.
    * ``wrap_indices`` (``None`` = argument not given) defaults to true only
      when the ``axis`` argument is literally 0 (``axis=-r`` does not wrap);
      with it a negative index gets ``+s`` once; every index must then be in
      ``[0, s-1]`` (``CAFFE_ENFORCE``), else IndexOutOfRangeError.
    * If ``DATA.shape[axis] == 0`` the output has the shape of DATA whatever
      INDICES is (the empty-batch case of ``calc_output_shape_vector``), and
      when the output is empty no index is checked.
    * ``match_outer=True`` (final source): INDICES shares the first ``axis``
      dims of DATA (a batch gather); ``Y.shape = DATA.shape[:axis] +
      INDICES.shape[axis:] + DATA.shape[axis+1:]``.

    DATA may have any dtype (the kernel copies bytes).

    Equivalent loop (``gather_impl``)::

        for b in range(prod(DATA.shape[:axis])):
            for n in range(INDICES.size):
                k = INDICES.flat[n]; k = k + s if (wrap_indices and k < 0) else k
                Y[b, n, :] = DATA[b, k, :]          # DATA, Y viewed as (outer, s or N, inner)

    Differs from ONNX ``Gather`` (negative indices always wrap) and from
    ``BatchGather`` (axis 1, never wraps).

    >>> import gatherscatter as gs
    >>> gs.caffe2.Gather([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], [[0, 1], [1, 2]]).tolist()
    [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]]
    >>> gs.caffe2.Gather([[1, 2, 3], [4, 5, 6]], [2, -1], axis=1, wrap_indices=True).tolist()
    [[3, 3], [6, 6]]
    >>> gs.caffe2.Gather(np.zeros((0, 3)), [[7, 8]]).shape
    (0, 3)
    """
    ctx = caffe2_context("Gather")
    if wrap_indices is None:
        # GatherOp constructor: wrap_indices_ = (axis_ == 0) on the argument as given
        wrap = isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and int(axis) == 0
    elif isinstance(wrap_indices, (bool, np.bool_)):
        wrap = bool(wrap_indices)
    else:
        raise ArgumentError(f"{ctx.label}: wrap_indices must be a bool or None (got {wrap_indices!r})")
    if not isinstance(match_outer, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: match_outer must be a bool (got {match_outer!r})")
    return lower_gather(ctx, data, indices, axis, wrap, bool(match_outer))
