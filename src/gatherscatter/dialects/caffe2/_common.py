"""Caffe2 naming and the gather implementation shared by ``Gather`` and ``BatchGather``.

Caffe2 is no longer shipped (PyTorch 2.x removed it), so nothing here was run
against it: the semantics are read from the last sources in pytorch/pytorch,
``caffe2/operators/gather_op.h`` (``gather_helper::gather_impl``,
``calc_output_shape_vector``, ``check_indexarray_range``) and
``caffe2/operators/batch_gather_ops.h``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array, prod, to_int
from ...errors import AxisError, ShapeError
from .._common import data_array
from .._registry import Lowering

__all__ = ["caffe2_context", "lower_gather"]

_INDEX_DTYPES = frozenset({"int32", "int64"})


@memo
def caffe2_context(name: str) -> OpContext:
    """Message naming: ``caffe2.Gather (caffe2, final source)`` with Caffe2's input names."""
    return OpContext(op=f"caffe2.{name}", version="caffe2, final source", data="DATA", indices="INDICES")


def lower_gather(
    ctx: OpContext, data: Any, indices: Any, axis_arg: Any, wrap: bool, match_outer: bool
) -> Lowering:
    """``gather_helper::gather_impl(op, DATA, INDICES, 0, axis, wrap_indices, match_outer)`` as a lowering."""
    d = data_array(ctx, data)
    i = as_index_array(ctx, indices, "INDICES", _INDEX_DTYPES)
    ax = to_int(ctx, "axis", axis_arg)
    r = d.ndim
    a = ax + r if ax < 0 else ax
    if not 0 <= a < r:
        raise AxisError(
            f"{ctx.label}: axis {ax} is out of range for DATA of rank {r}: DATA should be at least "
            f"[axis+1]-D and axis must be in [{-r}, {r - 1}]"
            if r
            else f"{ctx.label}: DATA must have rank >= 1 (got a 0-d DATA)"
        )
    if match_outer:
        if a < 1:
            raise AxisError(f"{ctx.label}: match_outer needs axis >= 1 (Axis should be at least 1); got axis {ax}")
        if i.ndim < a or i.shape[:a] != d.shape[:a]:
            raise ShapeError(
                f"{ctx.label}: INDICES must have the same outer dims as DATA (before dim axis {a}) with "
                f"match_outer; got INDICES shape {list(i.shape)} and DATA shape {list(d.shape)}"
            )
    spec = IndexSpec(axis=a, batch=a) if match_outer else IndexSpec(axis=a)
    policy = Policy(bounds="raise", negative="wrap" if wrap else "raise")
    # calc_output_shape_vector: an empty indexed axis gives the shape of DATA (empty-batch case)
    if d.shape[a] == 0:
        return Lowering("gather", d, i, spec, policy, ctx, result=np.empty(d.shape, d.dtype))
    out_shape = d.shape[:a] + (i.shape[a:] if match_outer else i.shape) + d.shape[a + 1 :]
    # gather_impl returns before checking any index when the output is empty
    if prod(out_shape) == 0:
        return Lowering("gather", d, i, spec, policy, ctx, result=np.empty(out_shape, d.dtype))
    if not wrap:
        # CAFFE_ENFORCE(0 <= idx && idx < axis_dim) in Caffe2's words; the core words the message
        ctx = ctx.with_(negative_phrase=(
            "out of DATA bounds (axis_dim={size}): negative indices wrap only with wrap_indices=True (the default "
            "only when axis == 0)"
        ))
    return Lowering("gather", d, i, spec, policy, ctx)
