"""ONNX (ai.onnx) gather and scatter ops, every version, selected by ``opset=``.

>>> import gatherscatter as gs
>>> gs.onnx.Gather([[1, 2], [3, 4], [5, 6]], [2, 0], opset=11).tolist()
[[5, 6], [1, 2]]
"""

from ._common import NEWEST_OPSET
from .gather import Gather
from .gather_elements import GatherElements
from .gather_nd import GatherND
from .scatter_elements import Scatter, ScatterElements
from .scatter_nd import ScatterND
from .tensor_scatter import TensorScatter

__all__ = [
    "NEWEST_OPSET", "Gather", "GatherElements", "GatherND", "Scatter", "ScatterElements", "ScatterND", "TensorScatter",
]

