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
from ..errors import DTypeError, UnsupportedError
from . import accel, plans
from .context import NEUTRAL, OpContext
from .indices import resolve
from .offsets import element_offsets, last_axis_rows, piece_size, row_pieces
from .out import check_out, plan_accepts
from .policy import Bounds, Negative, Policy
from .shape import IndexSpec, as_array, as_index_array, check_allocatable, check_spec, gather_shape, prod

__all__ = ["fill_scalar", "gather", "owned"]

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


_CHUNK = 1 << 17
"""Index elements per piece of the elementwise NumPy gather (its offsets stay in cache)."""


ROW_TAKE_MIN = 2048
"""Indices per row from which the elementwise NumPy gather along the last axis runs a ``take`` per row, with
no flat offsets (:func:`_take_elements`).

The offsets (``index + row * row length``, a broadcast ``add``) took 35-45% of the path's time; a ``take`` per
row has none, but pays a call per row. Against the offsets, 15 calls each in turn (float32 rows of 4096):
0.79x for 256 rows of 4096 indices, 0.89x for 2048, 0.86x for 4096; 1.17x for 4096 rows of 1024 indices
and 1.55x for 256 (session 16, benchmarks/README.md)."""


def _take_elements(d: np.ndarray[Any, Any], lin: np.ndarray[Any, Any], axis: int, res: np.ndarray[Any, Any]) -> None:
    """``res[j] = d[j with lin[j] on axis]`` (C-contiguous ``d`` and ``res``), in pieces along dim 0.

    Flat offsets for the whole index would be an int64 array as large as the
    output, written to memory and read back; per piece they stay in cache. Along
    the last axis, with at least :data:`ROW_TAKE_MIN` indices per row, a ``take``
    per row instead (no offsets).
    """
    flat_d = d.reshape(-1)
    if lin.ndim == 0:
        np.take(flat_d, element_offsets(d.shape, lin, axis), mode="wrap", out=res)
        return
    rows = last_axis_rows(d, lin, axis, res, ROW_TAKE_MIN) if res.flags.c_contiguous else None
    if rows is not None:  # res's rows are views (C-contiguous: an out= is validated so, core.out)
        for d_row, i_row, r_row in zip(*rows, strict=True):
            np.take(d_row, i_row, mode="wrap", out=r_row)
        return
    n0 = lin.shape[0]
    step = max(1, _CHUNK // max(1, prod(lin.shape[1:])))
    buf = np.empty(min(lin.size, step * max(1, prod(lin.shape[1:]))), np.int64)  # one buffer for every piece
    for s0 in range(0, n0, step):
        flat = element_offsets(d.shape, lin[s0 : s0 + step], axis, first=s0, out=buf)
        np.take(flat_d, flat, mode="wrap", out=res[s0 : s0 + step])


def _plan(nbytes: int, out_shape: tuple[int, ...], recipe: list[Any]) -> plans.Plan:
    """This gather on the kernels for any data and indices of the same dtypes, shapes and strides (a call
    plan, :mod:`gatherscatter.core.plans`), or None (then the whole path) unless every index is in
    ``[0, size)``: negative ones are not wrapped here, whatever the policy, so that an op whose lowering
    looked at the indices' signs never gets an answer it would not give. ``recipe``: the one launch the
    call made (every raw gather on the kernels is one, :func:`~gatherscatter.core.accel.run_recipe`). A call that
    wrote into an ``out=`` gives its plan that array last: the plan checks what the signature does not fix
    (writeable, sharing no memory with the data or the indices) and every index before its first write there."""

    def plan(d: np.ndarray[Any, Any], idx: np.ndarray[Any, Any],
             out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any] | None:
        if backends.kernels(nbytes) is None:  # the accelerated path was switched off since (set_backend)
            return None
        if out is not None and not plan_accepts(out, d, (idx,), False):
            return None
        return accel.run_recipe(recipe, d, idx, out_shape, out)

    return plan


def gather(
    data: Any,
    indices: Any,
    spec: IndexSpec,
    policy: Policy = _DEFAULT,
    ctx: OpContext = NEUTRAL,
    out: np.ndarray[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """Gather ``data`` at ``indices`` as described by ``spec``, under ``policy``.

    Equivalent loop (non-elementwise; ``norm`` applies the policy)::

        for β, p, i, r in ndindex(B, P, M, R):
            Y[β, p, i, r] = D[β, p, norm(I[β, i]), r]      # fill_value if invalid

    Returns a new C-ordered array (never a view of ``data``; 0-d stays 0-d), or
    ``out`` filled with the result (see :mod:`gatherscatter.core.out` for its rules).
    """
    d = as_array(ctx, data, ctx.data)
    idx = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, idx.shape, spec)
    if policy.bounds is Bounds.DROP:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'drop' applies to scatters; use 'fill' for gathers")
    if policy.bounds is Bounds.FILL:
        fill_scalar(d.dtype, policy.fill_value, ctx)  # a bad fill_value is an error even when no index is out
    out_shape = gather_shape(d.shape, idx.shape, spec)
    if out is not None:
        check_out(ctx, out, out_shape, d.dtype, {ctx.data: d, ctx.indices: idx})
    else:
        # fail fast (ShapeError, or MemoryError that the op turns into one) before any work on the indices:
        # a broadcast (zero-stride) index view of enormous size would take hours to read
        check_allocatable(ctx, out_shape, d.dtype)
        if prod(out_shape) * d.itemsize > 1 << 30:  # only a large output can fail to allocate
            np.empty(out_shape, d.dtype)
    a, k = spec.axis, spec.depth
    sizes = tuple(d.shape[a : a + k])
    n_out = prod(out_shape)
    nbytes = n_out * d.itemsize + idx.nbytes
    kern = backends.kernels(nbytes)
    if kern is not None and n_out and prod(sizes) and d.flags.c_contiguous and accel.raw_ok(idx):
        # the caller's indices straight to the kernels, checked there; a bad one sends us below
        wrap = policy.negative is Negative.WRAP
        recipe: list[Any] | None = [] if plans.recording() else None
        fast = accel.gather(kern, d, idx, spec, out_shape, out, raw=True, wrap=wrap, recipe=recipe)
        if fast is not None:
            if recipe:
                plans.offer((d, idx), fast, _plan(nbytes, out_shape, recipe), out=out)
            return fast
    lin, valid = resolve(ctx, idx, sizes, spec, policy, d.shape)
    if n_out == 0:
        return np.empty(out_shape, d.dtype) if out is None else out
    if prod(sizes) == 0 or (d.size == 0):
        # every index is invalid (a raising policy has raised already)
        value = fill_scalar(d.dtype, policy.fill_value, ctx)
        if out is None:
            return np.full(out_shape, value, d.dtype)
        out[...] = value
        return out
    if not d.flags.c_contiguous:
        if d.size > 2 * n_out:
            res = _apply_fill(_fancy(d, lin, spec), valid, d.shape, spec, policy)
            if out is None:
                return res
            np.copyto(out, res)
            return out
        d = np.ascontiguousarray(d)
    if kern is not None:
        fast = accel.gather(kern, d, lin, spec, out_shape, out)
        if fast is not None:
            return _apply_fill(fast, valid, d.shape, spec, policy)
    if spec.elementwise:
        res = out if out is not None else np.empty(out_shape, d.dtype)
        _take_elements(d, lin, a, res)
    elif spec.batch == 0 and a > 0:
        # (P, S, R) with S the indexed block: no grid of row ids at all
        P, S, R = prod(d.shape[:a]), prod(sizes), prod(d.shape[a + k :])
        res = np.take(
            d.reshape(P, S, R), lin.reshape(-1), axis=1, mode="wrap",
            out=None if out is None else out.reshape(P, lin.size, R),
        )
    else:
        R = prod(d.shape[a + k :])
        d2 = d.reshape(-1, R)
        res = np.empty((n_out // R, R), d.dtype) if out is None else out.reshape(-1, R)
        for first, rows in row_pieces(d.shape, lin, spec, piece_size(n_out // R)):
            np.take(d2, rows, axis=0, mode="wrap", out=res[first : first + rows.size])
    res = np.asarray(res).reshape(out_shape) if out is None else out
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
