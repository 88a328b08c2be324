"""Brute-force Caffe2 oracles, transcribed from the final Caffe2 sources in pytorch/pytorch.

They share no code with gatherscatter. ``gather_impl`` below follows
``caffe2/operators/gather_op.h`` line by line: the output shape from
``calc_output_shape_vector`` (including the empty-axis case), the early return
on an empty output, ``check_indexarray_range`` (which raises a plain
``IndexError`` here where Caffe2's ``CAFFE_ENFORCE`` throws), then the copy loop
over ``outer_dims_product`` and the flattened INDICES.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def gather_impl(data: Array, indices: Array, axis: int, wrap_indices: bool, match_outer: bool = False) -> Array:
    if axis < 0:
        axis = data.ndim + axis
    if not (data.ndim >= axis + 1 and axis >= 0):
        raise ValueError("DATA should be at least [axis+1]-D / Axis should be non-negative")
    if data.shape[axis] == 0:
        shape = data.shape
    elif match_outer:
        shape = data.shape[:axis] + indices.shape[axis:] + data.shape[axis + 1 :]
    else:
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1 :]
    out = np.empty(shape, data.dtype)
    if math.prod(shape) == 0:
        return out
    outer = math.prod(data.shape[:axis])
    block = math.prod(data.shape[axis + 1 :])
    s = data.shape[axis]
    idxs = indices.reshape(-1)
    n = idxs.size
    if match_outer:
        if axis < 1 or data.shape[:axis] != indices.shape[:axis]:
            raise ValueError("INDICES must have the same outer dims as DATA")
        n = math.prod(indices.shape[axis:])
    # check_indexarray_range (we check every index, not only the first n; see the divergence record)
    for v in idxs:
        k = int(v)
        if wrap_indices and k < 0:
            k += s
        if not 0 <= k < s:
            raise IndexError(f"INDICES element is out of DATA bounds, id={k} axis_dim={s}")
    src = data.reshape(outer, s, block)
    dst = out.reshape(outer, n, block)
    for b in range(outer):
        for i in range(n):
            k = int(idxs[b * n + i]) if match_outer else int(idxs[i])
            if wrap_indices and k < 0:
                k += s
            dst[b, i, :] = src[b, k, :]
    return out


def gather(data: Array, indices: Array, axis: int = 0, wrap_indices: bool | None = None,
           match_outer: bool = False) -> Array:
    """GatherOp: wrap_indices defaults to (axis argument == 0)."""
    wrap = (axis == 0) if wrap_indices is None else wrap_indices
    return gather_impl(data, indices, axis, wrap, match_outer)


def batch_gather(data: Array, indices: Array, match_outer: bool = False) -> Array:
    """BatchGatherOp: gather_impl(axis=1, wrap_indices=false)."""
    if data.ndim < 2:
        raise ValueError("DATA should be at least 2-D")
    return gather_impl(data, indices, 1, False, match_outer)
