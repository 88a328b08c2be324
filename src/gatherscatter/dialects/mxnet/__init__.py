"""Apache MXNet 1.9.1 gather and scatter ops (``mx.nd``), with MXNet's names and defaults.

MXNet cannot express empty or 0-d arrays and has no int16/uint16/uint32/uint64,
bfloat16 or complex dtypes: these are refused. Float indices are truncated as
MXNet's kernels do.

>>> import gatherscatter as gs
>>> gs.mxnet.take([10.0, 20.0, 30.0], [-1.0, 2.4]).tolist()
[10.0, 30.0]
"""

from .gather_nd import gather_nd
from .pick import pick
from .scatter_nd import scatter_nd
from .take import take

__all__ = ["gather_nd", "pick", "scatter_nd", "take"]
