"""TFLite builtin gather/scatter kernels (the TF 2.21 ``tf.lite.Interpreter``), by their builtin names.

The TFLite converter maps ``tf.gather``, ``tf.gather_nd``, ``tf.scatter_nd``,
``tf.math.segment_sum`` and ``tf.math.unsorted_segment_*`` to these builtins; their
kernels reject negative and out-of-range indices (the invoke fails) and take
fewer dtypes than TensorFlow (float32/int32 for the segment ops, int32 indices
for SCATTER_ND and the segment ids). Inputs are read with NumPy: pass float32 /
int32 arrays where TFLite needs them (a Python list of floats is float64).

>>> import gatherscatter as gs
>>> gs.tflite.GATHER([10, 20, 30], [2, 0]).tolist()
[30, 10]
"""

from ._tfl import TFLITE_VERSION
from .gather import GATHER
from .gather_nd import GATHER_ND
from .scatter_nd import SCATTER_ND
from .segment import (
    SEGMENT_SUM,
    UNSORTED_SEGMENT_MAX,
    UNSORTED_SEGMENT_MIN,
    UNSORTED_SEGMENT_PROD,
    UNSORTED_SEGMENT_SUM,
)

__all__ = [
    "GATHER", "GATHER_ND", "SCATTER_ND", "SEGMENT_SUM", "TFLITE_VERSION", "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_MIN", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_SUM",
]
