"""NumPy 2.4 gather and scatter functions, with NumPy's names, parameters and defaults.

Functions that NumPy applies in place (``put``, ``put_along_axis``,
``ufunc.at``) return a new array here and never modify their inputs.

>>> import gatherscatter as gs
>>> gs.numpy.take([[1, 2], [3, 4]], [1, 0], axis=1).tolist()
[[2, 1], [4, 3]]
"""

from .at import add_at, maximum_at, minimum_at, multiply_at, subtract_at, ufunc_at
from .put import put
from .put_along_axis import put_along_axis
from .take import take
from .take_along_axis import take_along_axis

__all__ = [
    "add_at", "maximum_at", "minimum_at", "multiply_at", "put", "put_along_axis", "subtract_at", "take",
    "take_along_axis", "ufunc_at",
]
