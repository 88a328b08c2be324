"""Sources: TensorFlow 2.21 (``device='cpu'`` raises on bad indices, ``'gpu'`` zero-fills / drops,
``'xla'`` clamps gathers and drops scatter updates)."""

from __future__ import annotations

from ..ir import Step
from ..model import Source
from . import canonical, source


@source("tensorflow.scatter_nd")
def scatter_nd(device: str = "cpu") -> Source:
    bounds = "raise" if device == "cpu" else "drop"
    c = canonical("scatter_nd", data="zeros", indices="indices", updates="updates", reduction="add",
                  negative="raise" if device == "cpu" else "bounds", bounds=bounds)
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="tf.scatter_nd adds into a zero tensor (E5)")]
    return Source("tensorflow.scatter_nd", {"device": device}, ("indices", "updates", "shape"), c, pre=pre,
                  roles={"data": "shape"})
