"""The shared parts of the caffe2 ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: Caffe2 (final source in pytorch/pytorch): ``Gather`` and ``BatchGather``.

``Gather``: negative indices wrap only with ``wrap_indices`` (default: true
exactly when ``axis`` is literally 0); ``BatchGather`` = ``Gather(axis=1)``
that never wraps. ``match_outer=True`` pairs the leading index dims with the
data's (``batch_dims = axis``). When the indexed axis has size 0 Caffe2 returns
DATA's (empty) shape whatever INDICES is (the ``empty`` residual).
"""

from __future__ import annotations

from .._record import Residual

_INT = ("int32", "int64")


_EMPTY = Residual("empty", "returns an array shaped like DATA (no index checked) when the indexed axis has size 0, "
                  "and checks no index when the output is empty", "raises for any index into a size-0 axis, or "
                  "returns the gather's own (empty) shape")
