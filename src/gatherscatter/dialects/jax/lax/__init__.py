"""``jax.lax`` general gather and scatter with dimension numbers.

>>> import gatherscatter as gs
>>> dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
>>> gs.jax.lax.gather([[1, 2], [3, 4], [5, 6]], [[2], [0]], dn, (1, 2)).tolist()
[[5, 6], [1, 2]]
"""

from ._dnums import GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers
from .gather import gather
from .scatter import scatter, scatter_add, scatter_apply, scatter_max, scatter_min, scatter_mul, scatter_sub

__all__ = [
    "GatherDimensionNumbers", "GatherScatterMode", "ScatterDimensionNumbers", "gather", "scatter", "scatter_add",
    "scatter_apply", "scatter_max", "scatter_min", "scatter_mul", "scatter_sub",
]
