"""OpenVINO gather and scatter ops, every version, selected by ``version=``.

Ops keep OpenVINO's names and input names; ``version`` is the op's own version
(``Gather-8``), defaulting to the newest, which every opset up to opset17 lists.
Known divergences from the CPU plugin (crashes, garbage reads, float64 computed
in float32) are recorded with ``gs.divergences('openvino.Gather')``.

>>> import gatherscatter as gs
>>> gs.openvino.Gather([[1, 2], [3, 4], [5, 6]], [2, -1], 0).tolist()
[[5, 6], [5, 6]]
"""

from .gather import Gather
from .gather_elements import GatherElements
from .gather_nd import GatherND
from .scatter_elements_update import ScatterElementsUpdate
from .scatter_nd_update import ScatterNDUpdate
from .scatter_update import ScatterUpdate

__all__ = ["Gather", "GatherElements", "GatherND", "ScatterElementsUpdate", "ScatterNDUpdate", "ScatterUpdate"]
