"""Caffe2 gather ops, read from the last Caffe2 sources in pytorch/pytorch.

Caffe2 is no longer shipped, so these ops are written from the source
(``caffe2/operators/gather_op.h``, ``batch_gather_ops.h``) and cannot be
compared with a running framework.

>>> import gatherscatter as gs
>>> gs.caffe2.Gather([[1, 2], [3, 4], [5, 6]], [-1, 0]).tolist()
[[5, 6], [1, 2]]
"""

from .batch_gather import BatchGather
from .gather import Gather

__all__ = ["BatchGather", "Gather"]
