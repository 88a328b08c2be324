"""Shared lowering of TF's ScatterNd / TensorScatter* ops (shape rules, bad indices, strings, NaN)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import plans
from ...core.context import OpContext
from ...core.policy import Policy
from ...core.shape import IndexSpec, as_updates, dtype_name, prod
from ...errors import ShapeError, UnsupportedError
from .._common import FLOATS, data_array
from .._registry import Lowering
from ._common import (
    check_data,
    check_tuple_bounds,
    index_array,
    parse_bad_indices_policy,
    parse_device,
    shape_text,
    tf_context,
    valid_empty_output,
)

__all__ = [
    "check_bad_tuples",
    "check_scatter_shapes",
    "lower_tensor_scatter",
    "string_sum_result",
    "zeros_like_updates",
]


def check_scatter_shapes(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    updates: np.ndarray[Any, Any],
    dims: tuple[int, ...],
    device: str,
    *,
    what: str,
) -> None:
    """TF's shape rules for a scatter into an output of shape ``dims``."""
    q = indices.ndim
    # TF's CPU kernels return the empty output for empty indices, updates and output before the rank rule
    # (measured, TF 2.21: scatter_nd(zeros([0], int32), zeros([0]), [0]) -> [])
    all_empty = prod(dims) == 0 and indices.size == 0 and updates.size == 0
    if device != "xla" and q < 2 and not all_empty:
        raise ShapeError(
            f"{ctx.label}: indices must have at least 2 axes (num_updates, index_depth) on CPU and GPU; "
            f"got indices shape {list(indices.shape)} (reshape a single index tuple to [1, k]; "
            f"XLA reads a 1-D indices as one tuple)"
        )
    if device == "xla":
        if prod(dims) == 0 and (indices.size or updates.size):
            raise ShapeError(
                f"{ctx.label}: Indices and updates specified for empty output. indices shape: "
                f"{shape_text(indices.shape)} ({what} shape {list(dims)})"
            )
    elif not valid_empty_output(prod(dims), indices.size, updates.size):
        raise ShapeError(
            f"{ctx.label}: Indices and updates specified for empty output. indices shape: "
            f"{shape_text(indices.shape)} ({what} shape {list(dims)}, updates shape {list(updates.shape)})"
        )
    k = indices.shape[-1]
    if k > len(dims):
        raise ShapeError(
            f"{ctx.label}: the index depth indices.shape[-1] = {k} must be <= rank of the {what} "
            f"({len(dims)}); got indices shape {list(indices.shape)}, {what} shape {list(dims)}"
        )
    expected = tuple(indices.shape[:-1]) + tuple(dims[k:])
    if tuple(updates.shape) != expected:
        raise ShapeError(
            f"{ctx.label}: updates must have shape indices.shape[:-1] + {what}.shape[{k}:] = {list(expected)}; "
            f"got updates shape {list(updates.shape)} (indices shape {list(indices.shape)}, {what} shape "
            f"{list(dims)})"
        )


def check_bad_tuples(
    ctx: OpContext, indices: np.ndarray[Any, Any], dims: tuple[int, ...], mode: str, reduction: str
) -> Policy:
    """Raise TF's CPU error for a bad tuple (``mode == 'raise'``), else the drop policy."""
    if mode == "raise":
        k = indices.shape[-1]
        hint = reduction != "none"  # tf.tensor_scatter_nd_update takes no bad_indices_policy
        check_tuple_bounds(ctx, indices, tuple(dims[:k]), tuple(dims), scatter=True, policy_hint=hint)
        return Policy(bounds="raise", negative="raise", reduction=reduction)
    return Policy(bounds="drop", negative="bounds", reduction=reduction)


def zeros_like_updates(updates: np.ndarray[Any, Any], dims: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """``tf.zeros(shape, updates.dtype)``; the zero of a string is the empty string.

    Numeric zeros are a read-only broadcast view (the scatter copies it once
    into its output): no second output-sized array.
    """
    if updates.dtype.kind == "O":
        zero: Any = b""
        if updates.size and isinstance(updates.flat[0], str):
            zero = ""
        return np.full(dims, zero, dtype=object)
    return np.broadcast_to(np.zeros((), updates.dtype), dims)


def _targets(indices: np.ndarray[Any, Any], dims: tuple[int, ...]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Row ids of the valid index tuples (into ``reshape(-1, prod(dims[k:]))``) and their update rows."""
    k = indices.shape[-1]
    flat = indices.reshape(-1, k).astype(np.int64, copy=False)
    lim = np.asarray(dims[:k], dtype=np.int64)
    ok = ((flat >= 0) & (flat < lim)).all(axis=1) if k else np.ones(flat.shape[0], bool)
    keep = np.flatnonzero(ok)
    rows = np.ravel_multi_index(tuple(flat[keep].T), dims[:k]) if k else np.zeros(keep.size, np.int64)
    return np.asarray(rows, dtype=np.int64), keep


def string_sum_result(
    out: np.ndarray[Any, Any],
    indices: np.ndarray[Any, Any],
    updates: np.ndarray[Any, Any],
    dims: tuple[int, ...],
    policy: Policy,
) -> np.ndarray[Any, Any] | None:
    """TF sums strings by concatenation; None when no target repeats (a plain write is the same).

    The core has no string reduction: with duplicate targets the concatenation
    is done here, one vectorised round per occurrence number, in row-major
    order of the updates.
    """
    rows, keep = _targets(indices, dims)
    if rows.size < 2:
        return None
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    if not np.any(srt[1:] == srt[:-1]):
        return None
    n = rows.size
    starts = np.r_[True, srt[1:] != srt[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    occ = np.empty(n, np.int64)
    occ[order] = np.arange(n) - first
    R = prod(dims[indices.shape[-1] :])
    work = out.astype(object).reshape(-1, R)
    upd = updates.astype(object).reshape(-1, R)[keep]
    for j in range(int(occ.max()) + 1):
        sel = np.flatnonzero(occ == j)
        work[rows[sel]] = work[rows[sel]] + upd[sel]
    res = work.reshape(dims)
    if out.dtype.kind == "U":
        return res.astype(str)
    if out.dtype.kind == "S":
        return res.astype(bytes)
    return res


def lower_tensor_scatter(
    name: str,
    reduction: str,
    tensor: Any,
    indices: Any,
    updates: Any,
    device: Any,
    bad_indices_policy: Any,
    *,
    data: frozenset[str],
    data_xla: frozenset[str],
    index: frozenset[str],
    index_xla: frozenset[str],
    xla_rejects: dict[str, str] | None = None,
) -> Lowering:
    """Lower ``tf.tensor_scatter_nd_<name>`` onto the scatter primitive."""
    dev = parse_device(name, device)
    ctx = tf_context(name, dev, data="tensor")
    mode = parse_bad_indices_policy(ctx, bad_indices_policy, dev)
    t = data_array(ctx, tensor)
    got = dtype_name(t.dtype)
    if dev == "xla" and xla_rejects and got in xla_rejects:
        raise UnsupportedError(f"{ctx.label}: tensor dtype {got}: {xla_rejects[got]}")
    check_data(ctx, t, data_xla if dev == "xla" else data, dev, name="tensor")
    i = index_array(ctx, indices, index_xla if dev == "xla" else index, dev)
    u = as_updates(ctx, updates, t.dtype)
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: Indices shape must have rank at least one. Found: a 0-d array")
    if u.ndim < 1 and dev != "xla":  # XLA takes a 0-d update for one full-depth tuple (observed)
        raise ShapeError(f"{ctx.label}: Updates shape must have rank at least one. Found: a 0-d array")
    if dev != "xla" and not valid_empty_output(t.size, i.size, u.size):
        raise ShapeError(
            f"{ctx.label}: Indices and updates specified for empty output shape (tensor shape "
            f"{list(t.shape)}, indices shape {list(i.shape)}, updates shape {list(u.shape)})"
        )
    if t.ndim < 1:
        raise ShapeError(f"{ctx.label}: Output must be at least 1-D, got shape: [] (tensor is 0-d)")
    check_scatter_shapes(ctx, i, u, tuple(t.shape), dev, what="tensor")
    spec = IndexSpec(axis=0, depth=i.shape[-1], vector=True)
    policy = check_bad_tuples(ctx, i, tuple(t.shape), mode, reduction)
    if reduction in ("max", "min") and (got in FLOATS or got == "bfloat16") and u.size:
        plans.values_read()  # NaN updates are treated apart
        nan = np.isnan(u)
        if nan.any():
            # TF keeps the current value when the update is NaN (old < NaN is false), so a NaN
            # update acts as the reduction's neutral element
            inf = np.array(-np.inf if reduction == "max" else np.inf).astype(u.dtype)
            u = np.where(nan, inf, u)
    return Lowering("scatter", t, i, spec, policy, ctx, updates=u)
