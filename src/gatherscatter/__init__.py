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
from .core.policy import (
    Accumulate,
    Bounds,
    Duplicates,
    Fill,
    Identity,
    MeanCount,
    MeanRounding,
    Negative,
    Policy,
    Reduction,
    fill,
)
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
from .explain import explain
from .grad import vjp
from .translate import Translation, translate

__version__ = "0.1.0"

def _onnx_reference_ops() -> list[type]:
    """``ReferenceEvaluator(model, new_ops=gs.onnx.reference_ops())``: whole models, exact gather/scatter.

    Needs the ``onnx`` extra; see :mod:`gatherscatter.onnxtools.reference_ops`. Attached to
    ``gs.onnx`` here, at the top of the package, because the dialect layer sits below the ONNX tools.
    """
    from .onnxtools.reference_ops import reference_ops

    return reference_ops()


_onnx_reference_ops.__name__ = _onnx_reference_ops.__qualname__ = "reference_ops"
onnx.reference_ops = _onnx_reference_ops  # type: ignore[attr-defined]


__all__ = [
    "Accumulate",
    "ArgumentError",
    "AxisError",
    "Bounds",
    "DTypeError",
    "DuplicateIndexError",
    "Duplicates",
    "Fill",
    "GatherScatterError",
    "Identity",
    "IndexOutOfRangeError",
    "MeanCount",
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
    "explain",
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
