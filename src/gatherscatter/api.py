"""The neutral API: the two primitives' friendly faces, every policy a keyword.

These functions belong to no framework. Each policy that frameworks disagree on
is a keyword argument with a safe default (``bounds='raise'``,
``negative='wrap'``, ``duplicates='last'``):

``bounds``       ``raise | wrap | clip | fill | drop`` (``fill`` for gathers, ``drop`` for scatters)
``negative``     ``wrap | raise | bounds``
``duplicates``   ``last | first | raise`` (scatters without reduction)
``reduction``    ``none | add | sub | mul | max | min | mean`` with ``include_self``
``mean_rounding`` ``floor | trunc`` (integer means)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .core.context import OpContext
from .core.out import check_out_inputs
from .core.policy import Policy
from .core.shape import IndexSpec, as_array, as_index_array, as_updates, broadcast_along, normalize_axis, to_int
from .dialects._record import Description, Step, canonical
from .dialects._registry import Lowering, registrar
from .errors import ArgumentError, AxisError, ShapeError, UnsupportedError

__all__ = ["gather_nd", "scatter_along_axis", "scatter_nd", "take", "take_along_axis"]

_op = registrar("gatherscatter")  # registers the neutral ops (no versions)


def _ctx(name: str) -> OpContext:
    return OpContext(op=f"gatherscatter.{name}")


def _policy(ctx: OpContext, **fields: Any) -> Policy:
    """``Policy(**fields)``; a bad policy value is reported with the op's name."""
    try:
        return Policy(**fields)
    except (UnsupportedError, ArgumentError) as exc:
        raise type(exc)(f"{ctx.label}: {exc}") from None


def _scatter_policy(ctx: OpContext, reduction: Any, include_self: Any, duplicates: Any, bounds: Any, negative: Any,
                    mean_rounding: Any) -> Policy:
    """The policy of the neutral scatters (their policy keywords, in their order)."""
    return _policy(ctx, reduction=reduction, include_self=include_self, duplicates=duplicates, bounds=bounds,
                   negative=negative, mean_rounding=mean_rounding)


def _check_out(ctx: OpContext, out: Any, **inputs: Any) -> None:
    """``out=`` rules against the arrays exactly as the caller passed them (before any view or copy).

    A scatter's ``out`` may be its ``data`` itself (in-place update); the core
    checks shape and dtype once the result's are known.
    """
    if out is not None:
        check_out_inputs(ctx, out, inputs, inplace="data" if "updates" in inputs else None)


def _batch(ctx: OpContext, batch_dims: Any, limit: int, what: str) -> int:
    b = to_int(ctx, "batch_dims", batch_dims)
    if not 0 <= b <= limit:
        raise AxisError(f"{ctx.label}: batch_dims must be in [0, {limit}] ({what}); got {b}")
    return b


def _describe_take(axis: int | None = 0, batch_dims: int = 0, bounds: str = "raise", negative: str = "wrap",
         fill_value: Any = None) -> Description:
    attrs = dict(axis=axis, batch_dims=batch_dims, bounds=bounds, negative=negative, fill_value=fill_value)
    pre = []
    c = canonical("gather", axis=0 if axis is None else axis, batch_dims=batch_dims, bounds=bounds,
                  negative=negative, fill_value=fill_value)
    if axis is None:

        pre = [Step.adapt("flatten", "data_flat", "data", why="axis=None takes from the flattened data")]
        c = c.with_(data="data_flat")
    return Description("gatherscatter.take", attrs, ("data", "indices"), c, pre=pre)


_PROBE_take: tuple[dict[str, Any], ...] = ({}, {"bounds": "clip"}, {"bounds": "fill", "fill_value": 0})


#: the accepted values of the neutral API's policy keywords (the op records' ``values=``)
_GATHER_VALUES: dict[str, Any] = {"bounds": ("raise", "wrap", "clip", "fill"), "negative": ("wrap", "raise", "bounds"),
                                  "fill_value": "number"}
_SCATTER_VALUES: dict[str, Any] = {
    "reduction": ("none", "add", "sub", "mul", "max", "min", "mean"), "duplicates": ("last", "first", "raise"),
    "bounds": ("raise", "wrap", "clip", "drop"), "negative": ("wrap", "raise", "bounds"),
    "mean_rounding": ("floor", "trunc"),
}


@_op("take", family="gather", differentiable=("data",), describe=_describe_take, variants=_PROBE_take,
     values=_GATHER_VALUES)
def take(
    data: Any,
    indices: Any,
    axis: int | None = 0,
    *,
    batch_dims: int = 0,
    bounds: Any = "raise",
    negative: str = "wrap",
    fill_value: Any = None,
    out: Any = None,
) -> Lowering:
    """Take whole slices along ``axis`` (``None``: of the flattened data).

    ``Y.shape = data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis+1:]``;
    the first ``batch_dims`` dims of ``data`` and ``indices`` are paired
    (``batch_dims <= axis``).

    Equivalent loop::

        for β, p, i, r in ndindex(B, P, M, R):     # B = batch, P = data.shape[b:axis]
            Y[β, p, i, r] = data[β, p, norm(indices[β, i]), r]

    >>> import gatherscatter as gs
    >>> gs.take([[1, 2, 3], [4, 5, 6]], [2, 0], axis=1).tolist()
    [[3, 1], [6, 4]]
    >>> gs.take([10, 20, 30], [0, 5], bounds="fill", fill_value=-1).tolist()
    [10, -1]
    >>> import numpy as np
    >>> buf = np.empty(2, np.int64)
    >>> gs.take(np.array([10, 20, 30]), [2, 0], out=buf) is buf, buf.tolist()
    (True, [30, 10])
    """
    ctx = _ctx("take")
    _check_out(ctx, out, data=data, indices=indices)
    d = as_array(ctx, data, "data")
    i = as_index_array(ctx, indices, "indices")
    if axis is None:
        d, a = d.reshape(-1), 0
    else:
        a = normalize_axis(ctx, axis, d.ndim)
    b = _batch(ctx, batch_dims, min(a, i.ndim), "at most axis and rank(indices)")
    policy = _policy(ctx, bounds=bounds, negative=negative, fill_value=fill_value)
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=b), policy, ctx, out=out)


def _along_axis_arrays(
    ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], a: int, broadcast: bool
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    if i.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices must have the rank of data ({d.ndim}); got indices shape {list(i.shape)}"
        )
    if not broadcast:
        return d, i
    return broadcast_along(ctx, d, i, a)


def _describe_take_along_axis(axis: int, broadcast: bool = False, bounds: str = "raise", negative: str = "wrap",
                    fill_value: Any = None) -> Description:
    attrs = dict(axis=axis, broadcast=broadcast, bounds=bounds, negative=negative, fill_value=fill_value)
    c = canonical("gather_elements", axis=axis, broadcast=broadcast, bounds=bounds, negative=negative,
                  fill_value=fill_value)
    return Description("gatherscatter.take_along_axis", attrs, ("data", "indices"), c)


@_op("take_along_axis", family="gather_elements", differentiable=("data",), describe=_describe_take_along_axis,
     variants=({"axis": 1},), values=_GATHER_VALUES)
def take_along_axis(
    data: Any,
    indices: Any,
    axis: int,
    *,
    broadcast: bool = False,
    bounds: Any = "raise",
    negative: str = "wrap",
    fill_value: Any = None,
    out: Any = None,
) -> Lowering:
    """One element per index along ``axis``; output shape = indices shape.

    Without ``broadcast`` the indices may be shorter than the data on the other
    dims (ONNX GatherElements / ``torch.gather``); with ``broadcast=True`` the
    two are broadcast against each other there (``np.take_along_axis``).

    ``out=``: a caller-provided array (C-contiguous, writeable, of exactly the
    result's shape and dtype, sharing no memory with any input) that receives the
    result and is returned; else :class:`~gatherscatter.ArgumentError` naming the
    rule, before anything is written.

    Equivalent loop::

        for j in ndindex(indices.shape):
            Y[j] = data[j[:axis] + (norm(indices[j]),) + j[axis+1:]]

    >>> import gatherscatter as gs
    >>> gs.take_along_axis([[10, 30, 20], [60, 40, 50]], [[1], [0]], axis=1).tolist()
    [[30], [60]]
    """
    ctx = _ctx("take_along_axis")
    _check_out(ctx, out, data=data, indices=indices)
    d = as_array(ctx, data, "data")
    i = as_index_array(ctx, indices, "indices")
    a = normalize_axis(ctx, axis, d.ndim)
    d, i = _along_axis_arrays(ctx, d, i, a, broadcast)
    policy = _policy(ctx, bounds=bounds, negative=negative, fill_value=fill_value)
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=a, elementwise=True), policy, ctx, out=out)


def _nd_arrays(
    ctx: OpContext, data: Any, indices: Any, batch_dims: Any, index_axis: Any
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], IndexSpec]:
    d = as_array(ctx, data, "data")
    i = as_index_array(ctx, indices, "indices")
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: indices must have rank >= 1 (one index tuple per row)")
    ia = to_int(ctx, "index_axis", index_axis)
    if ia not in (0, -1, i.ndim - 1):
        raise AxisError(f"{ctx.label}: index_axis must be 0 (first) or -1 (last); got {ia}")
    if ia == 0 and i.ndim > 1:
        i = np.moveaxis(i, 0, -1)
    b = _batch(ctx, batch_dims, min(d.ndim, i.ndim - 1), "below the index rank and at most the data rank")
    k = i.shape[-1]
    if b + k > d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices hold index tuples of length {k} (their last dim) and, after {b} batch dims, "
            f"need data of rank >= {b + k}; got data shape {list(d.shape)} and indices shape {list(i.shape)}"
        )
    return d, i, IndexSpec(axis=b, depth=k, batch=b, vector=True)


def _describe_gather_nd(batch_dims: int = 0, index_axis: int = -1, bounds: str = "raise", negative: str = "wrap",
              fill_value: Any = None) -> Description:

    attrs = dict(batch_dims=batch_dims, index_axis=index_axis, bounds=bounds, negative=negative,
                 fill_value=fill_value)
    c = canonical("gather_nd", batch_dims=batch_dims, bounds=bounds, negative=negative, fill_value=fill_value)
    pre = []
    if index_axis == 0:
        pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1, why="index tuples on the last axis")]
        c = c.with_(indices="idx")
    return Description("gatherscatter.gather_nd", attrs, ("data", "indices"), c, pre=pre,
                  layout={"index_axis": index_axis})


@_op("gather_nd", family="gather_nd", differentiable=("data",), describe=_describe_gather_nd,
     variants=({}, {"batch_dims": 1}, {"index_axis": 0}), values=_GATHER_VALUES)
def gather_nd(
    data: Any,
    indices: Any,
    *,
    batch_dims: int = 0,
    index_axis: int = -1,
    bounds: Any = "raise",
    negative: str = "wrap",
    fill_value: Any = None,
    out: Any = None,
) -> Lowering:
    """Gather slices addressed by index tuples (on the last axis, or the first: ``index_axis=0``).

    ``Y.shape = indices.shape[:-1] + data.shape[batch_dims + k:]`` with
    ``k = indices.shape[-1]``; ``k = 0`` selects whole slices.

    ``out=``: a caller-provided array (C-contiguous, writeable, of exactly the
    result's shape and dtype, sharing no memory with any input) that receives the
    result and is returned; else :class:`~gatherscatter.ArgumentError` naming the
    rule, before anything is written.

    Equivalent loop::

        for i in ndindex(indices.shape[:-1]):
            Y[i] = data[i[:b] + tuple(norm(x) for x in indices[i])]

    >>> import gatherscatter as gs
    >>> gs.gather_nd([[1, 2], [3, 4]], [[1, 1], [0, 1]]).tolist()
    [4, 2]
    >>> gs.gather_nd([[1, 2], [3, 4]], [[1, 1], [0, 1]], index_axis=0).tolist()
    [3, 4]
    """
    ctx = _ctx("gather_nd")
    _check_out(ctx, out, data=data, indices=indices)
    d, i, spec = _nd_arrays(ctx, data, indices, batch_dims, index_axis)
    policy = _policy(ctx, bounds=bounds, negative=negative, fill_value=fill_value)
    return Lowering("gather", d, i, spec, policy, ctx, out=out)


def _describe_scatter_along_axis(axis: int, reduction: str = "none", include_self: bool = True,
                                 duplicates: str = "last", bounds: str = "raise", negative: str = "wrap",
                                 mean_rounding: str = "floor", broadcast: bool = False) -> Description:
    attrs = dict(axis=axis, reduction=reduction, include_self=include_self, duplicates=duplicates, bounds=bounds,
                 negative=negative, mean_rounding=mean_rounding, broadcast=broadcast)
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=reduction, include_self=include_self,
                  duplicates=duplicates, bounds=bounds, negative=negative, mean_rounding=mean_rounding,
                  broadcast=broadcast)
    return Description("gatherscatter.scatter_along_axis", attrs, ("data", "indices", "updates"), c)


_PROBE_scatter_along_axis: tuple[dict[str, Any], ...] = tuple(
    [{"axis": 0, "reduction": r} for r in ("none", "add", "mean")]
    + [{"axis": 0, "reduction": "max", "include_self": False}, {"axis": 0, "reduction": "add", "bounds": "drop"}]
)


@_op("scatter_along_axis", family="scatter_elements", differentiable=("data", "updates"),
     describe=_describe_scatter_along_axis, variants=_PROBE_scatter_along_axis, values=_SCATTER_VALUES)
def scatter_along_axis(
    data: Any,
    indices: Any,
    updates: Any,
    axis: int,
    *,
    reduction: str = "none",
    include_self: bool = True,
    duplicates: str = "last",
    bounds: str = "raise",
    negative: str = "wrap",
    mean_rounding: str = "floor",
    broadcast: bool = False,
    out: Any = None,
) -> Lowering:
    """One update per index along ``axis``, into a copy of ``data`` (inverse of :func:`take_along_axis`).

    ``updates`` has the shape of ``indices`` (after broadcasting with
    ``broadcast=True``, where ``indices`` and ``updates`` are broadcast
    together and against ``data`` on the other dims).

    ``out=``: a caller-provided array (C-contiguous, writeable, of exactly the
    result's shape and dtype) that receives the result and is returned. It must
    share no memory with any input, except that ``out=data`` (the data array
    itself) updates ``data`` in place, skipping the copy: the one way
    gatherscatter modifies an array the caller passed, because the caller asked.
    A broken rule raises :class:`~gatherscatter.ArgumentError` before anything is
    written.

    Equivalent loop::

        Y = copy(data)
        for j in ndindex(indices.shape):                       # row-major
            t = j[:axis] + (norm(indices[j]),) + j[axis+1:]
            Y[t] = updates[j] if reduction == 'none' else f(Y[t], updates[j])

    >>> import gatherscatter as gs
    >>> gs.scatter_along_axis([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, reduction="add").tolist()
    [5, 14, 8, 4]
    >>> gs.scatter_along_axis([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0,
    ...                       reduction="max", include_self=False).tolist()
    [3, 6, 5, 4]
    """
    ctx = _ctx("scatter_along_axis")
    _check_out(ctx, out, data=data, indices=indices, updates=updates)
    d = as_array(ctx, data, "data")
    i = as_index_array(ctx, indices, "indices")
    u = as_updates(ctx, updates, d.dtype)
    a = normalize_axis(ctx, axis, d.ndim)
    if broadcast:
        try:
            i, u = np.broadcast_arrays(i, u)
        except ValueError:
            raise ShapeError(
                f"{ctx.label}: indices shape {list(i.shape)} and updates shape {list(u.shape)} do not broadcast"
            ) from None
        _, i = _along_axis_arrays(ctx, d, i, a, True)
        u = np.broadcast_to(u, i.shape)
        if d.shape[:a] + d.shape[a + 1 :] != i.shape[:a] + i.shape[a + 1 :]:
            raise ShapeError(
                f"{ctx.label}: with broadcast=True indices must broadcast to data shape "
                f"{list(d.shape)} except on axis {a}; got {list(i.shape)}"
            )
    elif i.shape != u.shape:
        raise ShapeError(
            f"{ctx.label}: updates must have the shape of indices; got {list(u.shape)} and {list(i.shape)}"
        )
    policy = _scatter_policy(ctx, reduction, include_self, duplicates, bounds, negative, mean_rounding)
    spec = IndexSpec(axis=a, batch=a, elementwise=True)
    return Lowering("scatter", d, i, spec, policy, ctx, updates=u, out=out)


def _describe_scatter_nd(batch_dims: int = 0, index_axis: int = -1, reduction: str = "none", include_self: bool = True,
               duplicates: str = "last", bounds: str = "raise", negative: str = "wrap",
               mean_rounding: str = "floor") -> Description:

    attrs = dict(batch_dims=batch_dims, index_axis=index_axis, reduction=reduction, include_self=include_self,
                 duplicates=duplicates, bounds=bounds, negative=negative, mean_rounding=mean_rounding)
    c = canonical("scatter_nd", updates="updates", batch_dims=batch_dims, reduction=reduction,
                  include_self=include_self, duplicates=duplicates, bounds=bounds, negative=negative,
                  mean_rounding=mean_rounding)
    pre = []
    if index_axis == 0:
        pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1, why="index tuples on the last axis")]
        c = c.with_(indices="idx")
    return Description("gatherscatter.scatter_nd", attrs, ("data", "indices", "updates"), c, pre=pre,
                  layout={"index_axis": index_axis})


_PROBE_scatter_nd: tuple[dict[str, Any], ...] = tuple(
    [{"reduction": r} for r in ("none", "add", "mean")]
)


@_op("scatter_nd", family="scatter_nd", differentiable=("data", "updates"), describe=_describe_scatter_nd,
     variants=_PROBE_scatter_nd, values=_SCATTER_VALUES)
def scatter_nd(
    data: Any,
    indices: Any,
    updates: Any,
    *,
    batch_dims: int = 0,
    index_axis: int = -1,
    reduction: str = "none",
    include_self: bool = True,
    duplicates: str = "last",
    bounds: str = "raise",
    negative: str = "wrap",
    mean_rounding: str = "floor",
    out: Any = None,
) -> Lowering:
    """Write (or reduce) slices addressed by index tuples into a copy of ``data`` (inverse of :func:`gather_nd`).

    ``updates.shape == indices.shape[:-1] + data.shape[batch_dims + k:]``.

    ``out=``: a caller-provided array receiving the result, under the rules of
    :func:`scatter_along_axis` (``out=data`` updates ``data`` in place).

    Equivalent loop::

        Y = copy(data)
        for i in ndindex(indices.shape[:-1]):                   # row-major
            t = i[:b] + tuple(norm(x) for x in indices[i])
            Y[t] = updates[i] if reduction == 'none' else f(Y[t], updates[i])

    >>> import gatherscatter as gs
    >>> gs.scatter_nd([0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30], reduction="add").tolist()
    [0, 30, 0, 30]
    >>> gs.scatter_nd([0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30]).tolist()
    [0, 20, 0, 30]

    In place (a KV-cache write: no copy of the cache):

    >>> import numpy as np
    >>> cache = np.zeros((4, 2), np.float32)
    >>> gs.scatter_nd(cache, [[3], [1]], [[1, 2], [3, 4]], out=cache) is cache
    True
    >>> cache.tolist()
    [[0.0, 0.0], [3.0, 4.0], [0.0, 0.0], [1.0, 2.0]]
    """
    ctx = _ctx("scatter_nd")
    _check_out(ctx, out, data=data, indices=indices, updates=updates)
    d, i, spec = _nd_arrays(ctx, data, indices, batch_dims, index_axis)
    u = as_updates(ctx, updates, d.dtype)
    policy = _scatter_policy(ctx, reduction, include_self, duplicates, bounds, negative, mean_rounding)
    return Lowering("scatter", d, i, spec, policy, ctx, updates=u, out=out)
