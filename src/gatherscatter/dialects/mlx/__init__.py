"""MLX gather/scatter ops (``mlx.core``, 0.32, CPU wheel): take, take_along_axis, put_along_axis, ``.at[]``.

MLX does not check indices: out-of-range reads and writes are undefined there (garbage
values, or a crash), and gatherscatter raises instead. ``mx.array``
turns float64 NumPy arrays into float32, and so do these ops. ``array.at[idx].add``
is :func:`at_add` (and ``at_subtract``, ``at_multiply``, ``at_maximum``, ``at_minimum``,
``at_divide``).

>>> import gatherscatter as gs
>>> gs.mlx.at_add([0.0, 0.0], [1, 1], 1.0).tolist()
[0.0, 2.0]
"""

from ._mlx import MLX_VERSION
from .at import at_add, at_divide, at_maximum, at_minimum, at_multiply, at_subtract
from .put_along_axis import put_along_axis
from .take import take
from .take_along_axis import take_along_axis

__all__ = [
    "MLX_VERSION", "at_add", "at_divide", "at_maximum", "at_minimum", "at_multiply", "at_subtract", "put_along_axis",
    "take", "take_along_axis",
]
