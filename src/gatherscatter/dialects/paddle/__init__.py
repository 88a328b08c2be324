"""PaddlePaddle gather and scatter ops, as PaddlePaddle 3.3.1 runs them on CPU.

Ops keep Paddle's names, parameters and defaults (``x``, ``index``, ``axis``;
``arr``, ``indices``, ``values``). Mutating APIs return a new array.

>>> import gatherscatter as gs
>>> gs.paddle.gather([[1, 2], [3, 4], [5, 6]], [2, -3]).tolist()
[[5, 6], [1, 2]]
>>> gs.paddle.scatter([[1, 1], [2, 2], [3, 3]], [1, 1], [[10, 10], [20, 20]], overwrite=False).tolist()
[[1, 1], [30, 30], [3, 3]]
"""

from ._common import PADDLE_VERSION
from .gather import gather
from .gather_nd import gather_nd
from .index_select import index_select
from .put_along_axis import put_along_axis
from .scatter import scatter
from .scatter_nd import scatter_nd
from .scatter_nd_add import scatter_nd_add
from .segment import segment_max, segment_mean, segment_min, segment_sum
from .take import take
from .take_along_axis import take_along_axis

__all__ = [
    "PADDLE_VERSION", "gather", "gather_nd", "index_select", "put_along_axis", "scatter", "scatter_nd",
    "scatter_nd_add", "segment_max", "segment_mean", "segment_min", "segment_sum", "take", "take_along_axis",
]
