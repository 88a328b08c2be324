"""Sources: MXNet 1.9.1 (index tuples on the FIRST axis of ``indices``; float indices)."""

from __future__ import annotations

from ..ir import Step
from ..model import Residual, Source
from . import canonical, source

_FLOAT = Residual("float_index", "checks the float index against [-s, s-1] and then rounds (i + s) in the "
                  "index dtype (-0.5 reads s-1, 2.4 is out of range for s = 3)",
                  "truncates toward zero when casting to int64 (§10.20)")


@source("mxnet.gather_nd")
def gather_nd() -> Source:
    c = canonical("gather_nd", indices="idx", index_dtype="float")
    pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1,
                      why="MXNet keeps index tuples on the first axis; everyone else on the last (E6)")]
    return Source("mxnet.gather_nd", {}, ("data", "indices"), c, pre=pre, residuals=[_FLOAT],
                  layout={"index_axis": 0})
