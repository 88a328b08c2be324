"""The scatter primitive: write or reduce updates into a copy of the data.

:func:`scatter` is the transpose of :func:`~gatherscatter.core.gather.gather`
with the same :class:`~gatherscatter.core.shape.IndexSpec`: the updates have
the shape the gather would return, and each update lands where the gather would
have read it. The caller's data is copied once; updates are applied with
vectorised NumPy (flat fancy assignment, 1-D ``ufunc.at``).

Order: updates are applied in row-major order of the update index space, so
``duplicates='last'`` means the last update in that order wins and floating
sums are accumulated in that order, exactly as a sequential CPU kernel does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DTypeError, DuplicateIndexError, ShapeError, UnsupportedError
from .context import NEUTRAL, OpContext
from .gather import element_offsets, row_offsets
from .indices import format_position, resolve
from .policy import Bounds, Duplicates, MeanRounding, Policy, Reduction
from .shape import IndexSpec, as_array, as_index_array, as_updates, check_spec, dtype_name, gather_shape, prod

__all__ = ["identity_of", "reduction_ufunc", "scatter"]

_DEFAULT = Policy()

_UFUNCS = {
    Reduction.ADD: np.add,
    Reduction.SUB: np.subtract,
    Reduction.MUL: np.multiply,
    Reduction.MAX: np.maximum,
    Reduction.MIN: np.minimum,
    Reduction.MEAN: np.add,
}
_BOOL_UFUNCS = {
    Reduction.ADD: np.logical_or,
    Reduction.SUB: np.logical_xor,
    Reduction.MUL: np.logical_and,
    Reduction.MAX: np.logical_or,
    Reduction.MIN: np.logical_and,
}


def reduction_ufunc(ctx: OpContext, reduction: Reduction, dtype: np.dtype[Any]) -> np.ufunc:
    """The ufunc that combines ``(current, update)`` for ``reduction`` on ``dtype``.

    Booleans follow OpenVINO: add = OR, sub = XOR, mul = AND, max = OR, min = AND;
    ``mean`` is not defined for booleans. Strings and objects take no reduction.
    """
    kind = dtype.kind
    if kind in "OUS":
        raise DTypeError(
            f"{ctx.label}: reduction '{reduction.value}' is not defined for {dtype_name(dtype)} {ctx.data}"
        )
    if kind == "b":
        if reduction is Reduction.MEAN:
            raise DTypeError(f"{ctx.label}: reduction 'mean' is not defined for bool {ctx.data}")
        return _BOOL_UFUNCS[reduction]
    if kind == "c" and reduction in (Reduction.MAX, Reduction.MIN):
        raise DTypeError(
            f"{ctx.label}: reduction '{reduction.value}' is not defined for complex {ctx.data} (no ordering)"
        )
    return _UFUNCS[reduction]


def identity_of(reduction: Reduction, dtype: np.dtype[Any]) -> Any:
    """Neutral element written before reducing when ``include_self`` is False."""
    kind = dtype.kind
    if reduction in (Reduction.ADD, Reduction.SUB, Reduction.MEAN):
        return np.zeros((), dtype)
    if reduction is Reduction.MUL:
        return np.ones((), dtype)
    if kind == "b":
        return np.array(reduction is Reduction.MIN)
    if kind in "iu":
        info = np.iinfo(dtype)
        return np.array(info.min if reduction is Reduction.MAX else info.max, dtype)
    inf = np.array(np.inf).astype(dtype)
    return -inf if reduction is Reduction.MAX else inf


def _raise_duplicate(
    ctx: OpContext,
    rows: np.ndarray[Any, Any],
    order: np.ndarray[Any, Any],
    keep: np.ndarray[Any, Any] | None,
    ishape: tuple[int, ...],
    dshape: tuple[int, ...],
    spec: IndexSpec,
    R: int,
) -> None:
    srt = rows[order]
    hit = np.flatnonzero(srt[1:] == srt[:-1])
    n1, n2 = int(order[hit[0]]), int(order[hit[0] + 1])
    if keep is not None:
        n1, n2 = int(keep[n1]), int(keep[n2])
    n1, n2 = sorted((n1, n2))

    def ipos(n: int) -> tuple[int, ...]:
        if spec.elementwise:
            return tuple(int(x) for x in np.unravel_index(n, ishape))
        b = spec.batch
        bshape = ishape[:b]
        mshape = ishape[b:-1] if spec.vector else ishape[b:]
        P = prod(dshape[b : spec.axis])
        M = prod(mshape)
        bp, m = divmod(n, M) if M else (0, 0)
        bi = bp // P if P else 0
        return tuple(int(x) for x in np.unravel_index(bi, bshape)) + tuple(int(x) for x in np.unravel_index(m, mshape))

    target = tuple(int(x) for x in np.unravel_index(int(srt[hit[0]]) * R, dshape))
    what = "element" if R == 1 else "slice starting at"
    raise DuplicateIndexError(
        f"{ctx.label}: {format_position(ctx.indices, ipos(n1))} and "
        f"{format_position(ctx.indices, ipos(n2))} both address the {ctx.data} {what} "
        f"{list(target)}; duplicate indices are not allowed without a reduction "
        f"(duplicates='raise')"
    )


def _mean_divide(
    values: np.ndarray[Any, Any], count: np.ndarray[Any, Any], rounding: MeanRounding
) -> np.ndarray[Any, Any]:
    if values.dtype.kind in "iu":
        q: np.ndarray[Any, Any] = np.floor_divide(values, count.astype(values.dtype))
        if rounding is MeanRounding.TRUNC and values.dtype.kind == "i":
            rem = values - q * count.astype(values.dtype)
            q = np.where((rem != 0) & (values < 0), q + 1, q)
        return q
    with np.errstate(all="ignore"):
        res: np.ndarray[Any, Any] = (values / count.astype(values.dtype)).astype(values.dtype)
        return res


def scatter(
    data: Any,
    indices: Any,
    updates: Any,
    spec: IndexSpec,
    policy: Policy = _DEFAULT,
    ctx: OpContext = NEUTRAL,
) -> np.ndarray[Any, Any]:
    """Scatter ``updates`` into a copy of ``data`` at ``indices`` (``spec``, ``policy``).

    Equivalent loop (non-elementwise; ``f`` is the reduction, ``norm`` the policy)::

        Y = copy(D)
        for β, p, i in ndindex(B, P, M):                     # row-major order
            t = (β, p, norm(I[β, i]))
            if t is valid:  Y[t + (:,)] = f(Y[t + (:,)], U[β, p, i, :])

    ``include_self=False`` first writes the reduction's neutral element at every
    targeted position; ``mean`` divides each targeted sum by its count (+1 with
    ``include_self``), rounding integers per ``mean_rounding``.
    """
    d = as_array(ctx, data, ctx.data)
    idx = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, idx.shape, spec)
    if policy.bounds is Bounds.FILL:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'fill' applies to gathers; use 'drop' for scatters")
    u = as_updates(ctx, updates, d.dtype)
    ushape = gather_shape(d.shape, idx.shape, spec)
    if tuple(u.shape) != ushape:
        raise ShapeError(
            f"{ctx.label}: {ctx.updates} must have shape {list(ushape)} for {ctx.data} shape "
            f"{list(d.shape)} and {ctx.indices} shape {list(idx.shape)}; got {list(u.shape)}"
        )
    red = policy.reduction
    ufunc = reduction_ufunc(ctx, red, d.dtype) if red is not Reduction.NONE else None
    a, k = spec.axis, spec.depth
    sizes = tuple(d.shape[a : a + k])
    lin, valid = resolve(ctx, idx, sizes, spec, policy)
    out = np.empty(d.shape, d.dtype)
    np.copyto(out, d)
    if u.size == 0 or out.size == 0:
        return out
    if spec.elementwise:
        rows, R = element_offsets(d.shape, lin, a).reshape(-1), 1
        vmask = None if valid is None else valid.reshape(-1)
    else:
        rows, R = row_offsets(d.shape, lin, spec)
        vmask = None
        if valid is not None:
            b = spec.batch
            B, P, M = prod(d.shape[:b]), prod(d.shape[b:a]), prod(lin.shape[b:])
            vmask = np.broadcast_to(valid.reshape(B, 1, M), (B, P, M)).reshape(-1)
    u2 = u.reshape(-1, R)
    keep = None
    if vmask is not None:
        keep = np.flatnonzero(vmask)
        rows, u2 = rows[keep], u2[keep]
        if rows.size == 0:
            return out
    o2 = out.reshape(-1, R)
    if ufunc is None:
        if policy.duplicates is Duplicates.RAISE and rows.size > 1:
            order = np.argsort(rows, kind="stable")
            srt = rows[order]
            if np.any(srt[1:] == srt[:-1]):
                _raise_duplicate(ctx, rows, order, keep, idx.shape, d.shape, spec, R)
        if policy.duplicates is Duplicates.FIRST:
            rows, u2 = rows[::-1], u2[::-1]
        if R == 1:
            out.reshape(-1)[rows] = u2.reshape(-1)
        else:
            o2[rows] = u2
        return out
    if not policy.include_self:
        o2[rows] = identity_of(red, d.dtype)
    flat_out = out.reshape(-1)
    if R == 1:
        el = rows
        vals = u2.reshape(-1)
    else:
        el = (rows[:, None] * R + np.arange(R, dtype=np.int64)).reshape(-1)
        vals = u2.reshape(-1)
    with np.errstate(all="ignore"):
        ufunc.at(flat_out, el, vals)
    if red is Reduction.MEAN:
        counts = np.bincount(rows, minlength=o2.shape[0])
        hit = np.flatnonzero(counts)
        denom = counts[hit] + (1 if policy.include_self else 0)
        o2[hit] = _mean_divide(o2[hit], denom[:, None], policy.mean_rounding)
    return out
