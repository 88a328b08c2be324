"""TensorFlow gather and scatter ops (TF 2.21), with ``device='cpu' | 'gpu' | 'xla'``.

TensorFlow's answer to a bad index depends on the device: eager CPU raises,
the GPU kernels return 0 (gathers) or drop the update (scatters), XLA
(``jit_compile=True``) clamps gathers and drops scatters. ``device='cpu'`` is
the default.

Inputs are read with NumPy, so Python lists of ints become int64 (TensorFlow
reads them as int32) and lists of floats float64 (TensorFlow: float32).

>>> import gatherscatter as gs
>>> gs.tensorflow.gather([[1, 2], [3, 4], [5, 6]], [2, 0]).tolist()
[[5, 6], [1, 2]]
>>> gs.tensorflow.gather([10, 20, 30], [-1], device="gpu").tolist()
[0]
"""

from .embedding_lookup import embedding_lookup
from .gather import gather
from .gather_nd import gather_nd
from .scatter_nd import scatter_nd
from .segment import (
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sqrt_n,
    unsorted_segment_sum,
)
from .tensor_scatter_nd import (
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)

__all__ = [
    "embedding_lookup", "gather", "gather_nd", "scatter_nd", "segment_max", "segment_mean", "segment_min",
    "segment_prod", "segment_sum", "tensor_scatter_nd_add", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
    "tensor_scatter_nd_sub", "tensor_scatter_nd_update", "unsorted_segment_max", "unsorted_segment_mean",
    "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n", "unsorted_segment_sum",
]
