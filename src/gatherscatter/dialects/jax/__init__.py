"""JAX gather and scatter ops (jax 0.10, as JAX behaves with ``jax_enable_x64=True``).

``take`` and ``take_along_axis`` (``jax.numpy``),
``at(x)[idx].get/set/add/subtract/multiply/divide/power/min/max/apply`` (``x.at[idx]``, with
function forms ``at_get`` ... ``at_apply``) and the general
``lax.gather`` / ``lax.scatter*`` with dimension numbers.

>>> import gatherscatter as gs
>>> gs.jax.take([10.0, 20.0, 30.0], [2, 5]).tolist()
[30.0, nan]
>>> gs.jax.at([10, 20, 30])[5].get().tolist()
30
"""

from . import lax
from .at import at
from .at_composed import at_apply, at_divide, at_power
from .at_functions import at_add, at_get, at_max, at_min, at_multiply, at_set, at_subtract
from .segment import segment_max, segment_min, segment_prod, segment_sum
from .take import take
from .take_along_axis import take_along_axis

__all__ = [
    "at", "at_add", "at_apply", "at_divide", "at_get", "at_max", "at_min", "at_multiply", "at_power", "at_set",
    "at_subtract", "lax", "segment_max", "segment_min", "segment_prod", "segment_sum", "take", "take_along_axis",
]
