"""The gather primitive: read data at indexed positions.

One function, :func:`gather`, covers every framework's gather family through
an :class:`~gatherscatter.core.shape.IndexSpec` and a
:class:`~gatherscatter.core.policy.Policy`. It is vectorised: indices are
resolved once into int64 offsets, then one ``np.take`` reads every element or
contiguous row. Loops over elements or index tuples never run in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..backends import accel
from ..errors import DTypeError, UnsupportedError
from .context import NEUTRAL, OpContext
from .indices import resolve
from .policy import Bounds, Policy
from .shape import IndexSpec, as_array, as_index_array, check_allocatable, check_spec, gather_shape, prod

__all__ = ["element_offsets", "fill_scalar", "gather", "owned", "row_offsets"]

_DEFAULT = Policy()


def fill_scalar(dtype: np.dtype[Any], value: Any, ctx: OpContext = NEUTRAL) -> np.ndarray[Any, Any]:
    """``value`` as a 0-d array of ``dtype`` (``None``: the zero of the dtype).

    A value that is not one scalar of ``dtype`` raises :class:`DTypeError`.
    """
    if value is None:
        return np.zeros((), dtype)
    try:
        with np.errstate(all="ignore"):
            arr = np.asarray(value).astype(dtype)
    except (ValueError, TypeError, OverflowError) as exc:
        raise DTypeError(f"{ctx.label}: fill_value {value!r} cannot be read as {dtype} ({exc})") from None
    if arr.ndim != 0:
        raise DTypeError(f"{ctx.label}: fill_value must be a scalar; got shape {list(arr.shape)}")
    return arr


def owned(res: Any, *inputs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``res`` as a C-ordered array that shares no memory with ``inputs`` (0-d stays 0-d)."""
    arr = np.asarray(res)
    if arr.flags.c_contiguous and arr.flags.writeable and not any(np.may_share_memory(arr, x) for x in inputs):
        return arr
    return np.array(arr, order="C", copy=True)


def row_offsets(
    dshape: tuple[int, ...], lin: np.ndarray[Any, Any], spec: IndexSpec
) -> tuple[np.ndarray[Any, Any], int]:
    """Flat row ids into ``data.reshape(-1, R)`` for a non-elementwise spec.

    Rows are ordered as the output ``B + P + M``; ``R`` is the row length.
    """
    b, a, k = spec.batch, spec.axis, spec.depth
    B, P, S, R = prod(dshape[:b]), prod(dshape[b:a]), prod(dshape[a : a + k]), prod(dshape[a + k :])
    M = prod(lin.shape[b:])
    if B * P == 1:
        return lin.reshape(-1), R
    rows = np.arange(B * P, dtype=np.int64).reshape(B, P, 1) * S + lin.reshape(B, 1, M)
    return rows.reshape(-1), R


def element_offsets(dshape: tuple[int, ...], lin: np.ndarray[Any, Any], axis: int) -> np.ndarray[Any, Any]:
    """Flat element offsets into C-ordered data for an elementwise spec (shape of ``lin``).

    The result may be a view of ``lin`` (when no offset is added): read it only.
    """
    r = len(dshape)
    ishape = lin.shape
    lead_ok = ishape[:axis] == dshape[:axis] or (ishape[1:axis] == dshape[1:axis] and ishape[0] <= dshape[0])
    if lead_ok and ishape[axis + 1 :] == dshape[axis + 1 :]:
        # the leading block may be cut short on dim 0 only: its rows keep data's strides
        A, s, C = prod(ishape[:axis]), dshape[axis], prod(dshape[axis + 1 :])
        m = ishape[axis]
        flat = lin.reshape(A, m, C)
        if A > 1:
            flat = flat + (np.arange(A, dtype=np.int64) * s).reshape(A, 1, 1)
        if C > 1:
            flat = flat * C + np.arange(C, dtype=np.int64)
        out: np.ndarray[Any, Any] = flat.reshape(ishape)
        return out
    strides = [prod(dshape[d + 1 :]) for d in range(r)]
    flat = lin * strides[axis]
    for d in range(r):
        if d != axis and ishape[d] > 1:
            shape = [1] * r
            shape[d] = ishape[d]
            flat = flat + (np.arange(ishape[d], dtype=np.int64) * strides[d]).reshape(shape)
    return flat


def _fancy(data: np.ndarray[Any, Any], lin: np.ndarray[Any, Any], spec: IndexSpec) -> np.ndarray[Any, Any]:
    """Gather from a non-contiguous array without copying it (advanced indexing)."""
    r = data.ndim
    b, a, k = spec.batch, spec.axis, spec.depth
    if spec.elementwise:
        ix: list[Any] = []
        for d in range(r):
            if d == a:
                ix.append(lin)
            else:
                shape = [1] * r
                shape[d] = lin.shape[d]
                ix.append(np.arange(lin.shape[d]).reshape(shape))
        return owned(data[tuple(ix)], data)
    sizes = data.shape[a : a + k]
    comps = np.unravel_index(lin, sizes) if k else ()
    nl = lin.ndim
    batch = [np.arange(data.shape[d]).reshape((-1,) + (1,) * (nl - 1 - d)) for d in range(b)]
    if k == 0:
        comps = ()
        # an empty tuple selects the whole block: broadcast against the index shape
        res = data[tuple(batch)] if b else data
        out_shape = gather_shape(data.shape, lin.shape + (0,), spec)
        if b:
            res = res.reshape(lin.shape[:b] + (1,) * (nl - b) + data.shape[b:])
        else:
            res = res.reshape((1,) * nl + data.shape)
        return owned(np.broadcast_to(res, out_shape), data)
    key = tuple(batch) + (slice(None),) * (a - b) + tuple(comps)
    # a full-depth 0-d index makes NumPy return a scalar, in native byte order and (bytes/str) trimmed
    # length: keep the data's dtype
    res = np.asarray(data[key], dtype=data.dtype)
    if b > 0 and a > b:
        # advanced indices separated by slices: NumPy puts the index dims first
        res = np.moveaxis(res, tuple(range(b, nl)), tuple(range(a, a + nl - b)))
    return owned(res, data)


def gather(
    data: Any,
    indices: Any,
    spec: IndexSpec,
    policy: Policy = _DEFAULT,
    ctx: OpContext = NEUTRAL,
) -> np.ndarray[Any, Any]:
    """Gather ``data`` at ``indices`` as described by ``spec``, under ``policy``.

    Equivalent loop (non-elementwise; ``norm`` applies the policy)::

        for β, p, i, r in ndindex(B, P, M, R):
            Y[β, p, i, r] = D[β, p, norm(I[β, i]), r]      # fill_value if invalid

    Returns a new C-ordered array (never a view of ``data``; 0-d stays 0-d).
    """
    d = as_array(ctx, data, ctx.data)
    idx = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, idx.shape, spec)
    if policy.bounds is Bounds.DROP:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'drop' applies to scatters; use 'fill' for gathers")
    if policy.bounds is Bounds.FILL:
        fill_scalar(d.dtype, policy.fill_value, ctx)  # a bad fill_value is an error even when no index is out
    out_shape = gather_shape(d.shape, idx.shape, spec)
    # fail fast (ShapeError, or MemoryError that the op turns into one) before any work on the indices:
    # a broadcast (zero-stride) index view of enormous size would take hours to read
    check_allocatable(ctx, out_shape, d.dtype)
    np.empty(out_shape, d.dtype)
    a, k = spec.axis, spec.depth
    sizes = tuple(d.shape[a : a + k])
    lin, valid = resolve(ctx, idx, sizes, spec, policy)
    n_out = prod(out_shape)
    if n_out == 0:
        return np.empty(out_shape, d.dtype)
    if prod(sizes) == 0 or (d.size == 0):
        # every index is invalid (a raising policy has raised already)
        return np.full(out_shape, fill_scalar(d.dtype, policy.fill_value, ctx), d.dtype)
    if not d.flags.c_contiguous:
        if d.size > 2 * n_out:
            res = _fancy(d, lin, spec)
            return _apply_fill(res, valid, d.shape, spec, policy)
        d = np.ascontiguousarray(d)
    k = backends.kernels(n_out * d.itemsize + lin.nbytes)
    if k is not None:
        fast = accel.gather(k, d, lin, spec, out_shape)
        if fast is not None:
            return _apply_fill(fast, valid, d.shape, spec, policy)
    if spec.elementwise:
        flat = element_offsets(d.shape, lin, a)
        res = np.take(d.reshape(-1), flat, mode="wrap")
    elif spec.batch == 0 and spec.axis > 0 and k == 1 and not spec.vector:
        P, S, R = prod(d.shape[:a]), d.shape[a], prod(d.shape[a + 1 :])
        res = np.take(d.reshape(P, S, R), lin.reshape(-1), axis=1, mode="wrap")
    else:
        rows, R = row_offsets(d.shape, lin, spec)
        res = np.take(d.reshape(-1, R), rows, axis=0, mode="wrap")
    res = np.asarray(res).reshape(out_shape)
    return _apply_fill(res, valid, d.shape, spec, policy)


def _apply_fill(
    res: np.ndarray[Any, Any],
    valid: np.ndarray[Any, Any] | None,
    dshape: tuple[int, ...],
    spec: IndexSpec,
    policy: Policy,
) -> np.ndarray[Any, Any]:
    if valid is None:
        return res
    value = fill_scalar(res.dtype, policy.fill_value)
    if spec.elementwise:
        res[~valid] = value
        return res
    b, a, k = spec.batch, spec.axis, spec.depth
    B, P = prod(dshape[:b]), prod(dshape[b:a])
    M, R = prod(valid.shape[b:]), prod(dshape[a + k :])
    invalid = np.broadcast_to(~valid.reshape(B, 1, M), (B, P, M))
    res.reshape(B, P, M, R)[invalid] = value
    return res
