"""OpenVINO ``GatherElements`` (version 6)."""

from __future__ import annotations

from typing import Any

from ...core.policy import STRICT
from ...core.shape import IndexSpec, as_index_array, normalize_axis
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import (
    ELEMENT_TYPES,
    INT32_INT64,
    check_data,
    check_indices_rank,
    check_rank,
    ov_context,
    ov_version,
    plugin_divergences,
)
from ._describe import _INT, openvino_op

divergence_table("openvino.GatherElements", r'''
[[divergence]]
case = "negative index in [-s, -1]"
when = "negative"
reference = "OpenVINO 2026.4 CPU plugin and constant folding"
theirs = "wrap it (-1 reads the last element); the spec says all indices are within [0, s-1]"
ours = "IndexOutOfRangeError: the spec's range [0, s-1]"
evidence = """
gather-elements-6.rst ('All index values are expected to be within bounds [0, s-1]'); docs/behavior-matrix.md#t6-2 \
(OV: -1 -> last); docs/semantics.md#s11-1"""
kind = "spec"
[divergence.example]
call = "openvino:GatherElements"
opset = 6
args = { data = [1, 2, 3], indices = [-1], axis = 0 }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [3] }
ours = { raises = "IndexOutOfRangeError" }

''')
plugin_divergences("openvino.GatherElements", unchecked_one_thread=True)


def _describe(axis: int, version: int = 6) -> Description:
    op = "openvino.GatherElements"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (6,))
    c = canonical("gather_elements", axis=axis, negative="raise")
    return Description(op, {"axis": axis, "version": v}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT, "full_index": True})


@openvino_op("GatherElements", family="gather_elements", versions=(6,), differentiable=("data",), describe=_describe,
             variants=({"axis": 1},))
def GatherElements(data: Any, indices: Any, axis: int, version: int = 6) -> Lowering:
    """OpenVINO GatherElements: one element of ``data`` per index (= ONNX GatherElements).

    Version: GatherElements-6 (opset6 to opset17). ``axis`` is an attribute (an int).

    ``data`` and ``indices`` have the same rank ``r >= 1`` and the same shape
    except on ``axis``, where ``indices`` may be shorter or longer; the output has
    the shape of ``indices``. Indices are int32 or int64, in ``[0, s-1]``; anything
    else raises (the CPU plugin also wraps ``[-s, -1]``, see the divergences).

    Equivalent loop::

        for j in ndindex(indices.shape):
            Y[j] = data[j[:axis] + (indices[j],) + j[axis+1:]]

    Differs from ONNX GatherElements and ``torch.gather``: the indices may not be
    smaller than ``data`` on the other dims (OpenVINO rejects it), and negative
    indices are outside the spec.

    >>> import gatherscatter as gs
    >>> gs.openvino.GatherElements([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0).tolist()
    [[1, 4], [1, 2]]
    >>> gs.openvino.GatherElements([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], 1).tolist()
    [[7, 7, 1], [3, 4, 3]]
    """
    v = ov_version("GatherElements", version)
    ctx = ov_context("GatherElements", v)
    d = data_array(ctx, data)
    check_data(ctx, d, ELEMENT_TYPES)
    check_rank(ctx, d, "data")
    i = as_index_array(ctx, indices, "indices", INT32_INT64)
    a = normalize_axis(ctx, axis, d.ndim)
    check_indices_rank(ctx, i, d)
    for k in range(d.ndim):
        if k != a and i.shape[k] != d.shape[k]:
            raise ShapeError(
                f"{ctx.label}: indices must have the shape of data except on axis {a}; got "
                f"indices.shape[{k}] = {i.shape[k]} and data.shape[{k}] = {d.shape[k]} (indices shape "
                f"{list(i.shape)}, data shape {list(d.shape)})"
            )
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=a, elementwise=True), STRICT, ctx)
