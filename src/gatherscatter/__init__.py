"""gatherscatter: every framework's gather and scatter operators, exactly, on NumPy.

>>> import gatherscatter as gs
>>> gs.onnx.Gather([[1, 2], [3, 4], [5, 6]], [2, 0]).tolist()
[[5, 6], [1, 2]]
>>> gs.onnx.GatherElements([[1, 2], [3, 4]], [[0, 0], [1, 0]], axis=1).tolist()
[[1, 1], [4, 3]]

Importing gatherscatter imports NumPy only.
"""

from . import dialects
from .api import gather_nd, scatter_along_axis, scatter_nd, take, take_along_axis
from .backends import get_backend, get_num_threads, set_backend, set_num_threads
from .core.policy import Bounds, Duplicates, Fill, MeanRounding, Negative, Policy, Reduction, fill
from .dialects import caffe2, jax, keras, mlx, mxnet, numpy, onnx, openvino, paddle, tensorflow, tflite, torch
from .dialects._registry import divergences, get_op, ops
from .errors import (
    ArgumentError,
    AxisError,
    DTypeError,
    DuplicateIndexError,
    GatherScatterError,
    IndexOutOfRangeError,
    ShapeError,
    UnsupportedError,
)
from .grad import vjp
from .translate import Translation, translate

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "AxisError",
    "Bounds",
    "DTypeError",
    "DuplicateIndexError",
    "Duplicates",
    "Fill",
    "GatherScatterError",
    "IndexOutOfRangeError",
    "MeanRounding",
    "Negative",
    "Policy",
    "Reduction",
    "ShapeError",
    "Translation",
    "UnsupportedError",
    "__version__",
    "caffe2",
    "dialects",
    "divergences",
    "fill",
    "gather_nd",
    "get_backend",
    "get_num_threads",
    "get_op",
    "jax",
    "keras",
    "mlx",
    "mxnet",
    "numpy",
    "onnx",
    "openvino",
    "ops",
    "paddle",
    "scatter_along_axis",
    "scatter_nd",
    "set_backend",
    "set_num_threads",
    "take",
    "take_along_axis",
    "tensorflow",
    "tflite",
    "torch",
    "translate",
    "vjp",
]
