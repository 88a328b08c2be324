"""Sources: Caffe2 (final source in pytorch/pytorch): ``Gather`` and ``BatchGather``.

``Gather``: negative indices wrap only with ``wrap_indices`` (default: true
exactly when ``axis`` is literally 0); ``BatchGather`` = ``Gather(axis=1)``
that never wraps. ``match_outer=True`` pairs the leading index dims with the
data's (``batch_dims = axis``). When the indexed axis has size 0 Caffe2 returns
DATA's (empty) shape whatever INDICES is (the ``empty`` residual).
"""

from __future__ import annotations

from ...errors import UnsupportedError
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_bool, check_int

_INT = ("int32", "int64")
_EMPTY = Residual("empty", "returns an array shaped like DATA (no index checked) when the indexed axis has size 0, "
                  "and checks no index when the output is empty", "raises for any index into a size-0 axis, or "
                  "returns the gather's own (empty) shape")


@source("caffe2.Gather")
def gather(axis: int = 0, wrap_indices: bool | None = None, match_outer: bool = False) -> Source:
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
    return Source(op, {"axis": axis, "wrap_indices": wrap_indices, "match_outer": match_outer},
                  ("data", "indices"), c, residuals=[_EMPTY], layout={"index_dtypes": _INT})


@source("caffe2.BatchGather")
def batch_gather(match_outer: bool = False) -> Source:
    op = "caffe2.BatchGather"
    match_outer = check_bool(op, "match_outer", match_outer)
    c = canonical("gather", axis=1, batch_dims=1 if match_outer else 0, negative="raise")
    return Source(op, {"match_outer": match_outer}, ("data", "indices"), c, residuals=[_EMPTY],
                  layout={"index_dtypes": _INT, "rank": (2, 3)})
