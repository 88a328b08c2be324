"""The scatter primitive: write or reduce updates into a copy of the data.

:func:`scatter` is the transpose of :func:`~gatherscatter.core.gather.gather`
with the same :class:`~gatherscatter.core.shape.IndexSpec`: the updates have
the shape the gather would return, and each update lands where the gather would
have read it. The caller's data is copied once. This module is the semantics
(validation, the policies, what each reduction means, duplicates, the mean); the
updates are applied by the row engine, :mod:`gatherscatter.core.rows` (fast and
bit-identical to the sequential loop), or the numba kernels (:mod:`.accel`).

Order: updates are applied in row-major order of the update index space, so
``duplicates='last'`` means the last update in that order wins and floating
sums are accumulated in that order, exactly as a sequential CPU kernel does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import backends
from ..errors import DTypeError, DuplicateIndexError, UnsupportedError
from . import accel, plans
from .context import NEUTRAL, OpContext
from .indices import format_position, numpy_checks, resolve
from .offsets import piece_size
from .out import check_out, plan_accepts
from .policy import Accumulate, Bounds, Duplicates, Identity, MeanCount, MeanRounding, Negative, Policy, Reduction
from .rows import Piece, R_of, along_last_rows, assign_pieces, at_exact, pieces, reduce_pieces, small
from .shape import (
    IndexSpec,
    as_array,
    as_index_array,
    as_updates,
    check_allocatable,
    check_spec,
    check_updates_shape,
    dtype_name,
    prod,
)

__all__ = ["count_in_dtype", "float_limits", "identity_of", "reduction_ufunc", "scatter"]

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


def float_limits(dtype: np.dtype[Any]) -> tuple[Any, int] | None:
    """``(largest finite value, mantissa bits)`` of a floating (or complex: per part) dtype; None otherwise.

    bfloat16 and the other ml_dtypes floats are read with ``ml_dtypes.finfo``
    (ml_dtypes is installed whenever such an array exists).
    """
    if dtype.kind in "fc":
        fi: Any = np.finfo(dtype)
    elif dtype.kind == "V" and dtype.names is None and not dtype.name.startswith("void"):
        import ml_dtypes  # a dtype NumPy does not know (bfloat16 ...): ml_dtypes made it

        try:
            fi = ml_dtypes.finfo(dtype)  # type: ignore[no-untyped-call]
        except (ValueError, TypeError):  # an ml_dtypes integer (int4 ...)
            return None
    else:
        return None
    return fi.max, int(fi.nmant)


def identity_of(reduction: Reduction, dtype: np.dtype[Any], identity: Identity = Identity.INF) -> Any:
    """Neutral element written before reducing when ``include_self`` is False.

    With ``identity='finite'`` max/min on floats start from ``lowest()``/``max()``.
    """
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
    limits = float_limits(dtype) if identity is Identity.FINITE else None
    top = np.array(np.inf if limits is None else limits[0]).astype(dtype)
    return -top if reduction is Reduction.MAX else top


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
    """``values / count`` in the dtype of ``values``; integers rounded per ``rounding``.

    ``count`` holds exact counts (an integer array) or counts already in the data
    dtype. Integers divide exactly: in 64 bits, so that an exact count beyond the
    data dtype's range is not wrapped.
    """
    if values.dtype.kind in "iu":
        wide = np.uint64 if values.dtype.kind == "u" else np.int64
        v, c = values.astype(wide), count.astype(wide)
        q: np.ndarray[Any, Any] = np.floor_divide(v, c)
        if rounding is MeanRounding.TRUNC and values.dtype.kind == "i":
            q = np.where((v - q * c != 0) & ((v < 0) != (c < 0)), q + 1, q)  # toward zero
        return q.astype(values.dtype)
    with np.errstate(all="ignore"):
        res: np.ndarray[Any, Any] = (values / count.astype(values.dtype)).astype(values.dtype)
        return res


def count_in_dtype(exact: np.ndarray[Any, Any], dtype: np.dtype[Any], mode: MeanCount) -> np.ndarray[Any, Any]:
    """The ``mean`` divisor under ``mode`` from the ``exact`` counts (``+1`` with include_self, all >= 1).

    ``exact``: unchanged. ``rounded``: converted once to ``dtype`` (integers wrap,
    floats round to nearest). ``stepwise``: grown by one per contribution in
    ``dtype``: integers wrap, floats stop where ``n + 1`` rounds back to ``n``
    (``2**(mantissa bits + 1)``: 2048 for float16, 256 for bfloat16). Counts of 0
    in the dtype (wrapped) become 1.
    """
    if mode is MeanCount.EXACT:
        return exact
    with np.errstate(all="ignore"):
        if dtype.kind in "iub":
            c = exact.astype(np.int64).astype(dtype)
        else:
            limits = float_limits(dtype)
            n = exact.astype(np.float64)
            if mode is MeanCount.STEPWISE and limits is not None:
                n = np.minimum(n, float(2 ** (limits[1] + 1)))
            c = n.astype(dtype)
    c[c == 0] = 1
    return c


def _widened(policy: Policy, dtype: np.dtype[Any]) -> np.dtype[Any] | None:
    """float32 when ``policy`` accumulates this 16-bit float's reduction in float32, else None."""
    if policy.accumulate is not Accumulate.FLOAT32 or policy.reduction not in _ACCUMULATING:
        return None
    if dtype.kind not in "fV" or dtype.itemsize != 2 or float_limits(dtype) is None:
        return None
    return np.dtype(np.float32)


_ACCUMULATING = (Reduction.ADD, Reduction.SUB, Reduction.MUL, Reduction.MEAN)


def _plan(spec: IndexSpec, reduction: str, nbytes: int, inplace: bool) -> plans.Plan:
    """This scatter on the kernels for any data, indices and updates of the same dtypes, shapes and strides
    (a call plan, :mod:`gatherscatter.core.plans`), into a fresh output or, given one, into ``out`` (the data
    itself when ``inplace``); None (then the whole path) unless every index is in ``[0, size)`` (negative ones
    are not wrapped, whatever the policy) and ``out`` passes the core's checks that its signature does not fix:
    writeable, and the data itself when ``inplace``, else sharing no memory with an input. On a bad index nothing
    has been written to the caller's ``out`` (the kernels check every index before their first write there); while
    a kernel compiles, ``out`` may hold the data's copy, which the whole path then writes again."""

    def plan(
        d: np.ndarray[Any, Any], idx: np.ndarray[Any, Any], u: np.ndarray[Any, Any],
        out: np.ndarray[Any, Any] | None = None,
    ) -> np.ndarray[Any, Any] | None:
        kern = backends.kernels(nbytes)
        if kern is None:  # the accelerated path was switched off since (set_backend)
            return None
        if out is None:
            target = backends.pool.empty(d.shape, d.dtype)
        elif plan_accepts(out, d, (idx, u), inplace):
            target = out
        else:
            return None
        done = accel.scatter(
            kern, target, idx, u, spec, reduction, raw=True, data=None if inplace else d, fresh=out is None
        )
        return target if done else None

    return plan


def scatter(
    data: Any,
    indices: Any,
    updates: Any,
    spec: IndexSpec,
    policy: Policy = _DEFAULT,
    ctx: OpContext = NEUTRAL,
    out: np.ndarray[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """Scatter ``updates`` into a copy of ``data`` at ``indices`` (``spec``, ``policy``).

    Equivalent loop (non-elementwise; ``f`` is the reduction, ``norm`` the policy)::

        Y = copy(D)
        for β, p, i in ndindex(B, P, M):                     # row-major order
            t = (β, p, norm(I[β, i]))
            if t is valid:  Y[t + (:,)] = f(Y[t + (:,)], U[β, p, i, :])

    ``include_self=False`` first writes the reduction's neutral element at every
    targeted position (max/min: -inf/+inf, or the finite extremes with
    ``identity='finite'``); ``mean`` divides each targeted sum by its count (+1 with
    ``include_self``; kept per ``mean_count``), rounding integers per
    ``mean_rounding``. With ``accumulate='float32'`` the sums, differences,
    products and means of float16/bfloat16 data run on float32 values rounded to the
    data dtype once, before a mean divides.

    With ``out`` the result is written there and ``out`` is returned (rules in
    :mod:`gatherscatter.core.out`); ``out`` may be ``data`` itself (the same
    memory and layout), which updates ``data`` in place: the copy is skipped.
    """
    d = as_array(ctx, data, ctx.data)
    idx = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, idx.shape, spec)
    if policy.bounds is Bounds.FILL:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'fill' applies to gathers; use 'drop' for scatters")
    u = as_updates(ctx, updates, d.dtype)
    check_updates_shape(ctx, u.shape, d.shape, idx.shape, spec)
    red = policy.reduction
    ufunc = reduction_ufunc(ctx, red, d.dtype) if red is not Reduction.NONE else None
    inplace = False
    if out is not None:
        inplace = check_out(
            ctx, out, d.shape, d.dtype, {ctx.data: d, ctx.indices: idx, ctx.updates: u}, inplace=ctx.data
        )
    a, k = spec.axis, spec.depth
    sizes = tuple(d.shape[a : a + k])
    check_allocatable(ctx, d.shape, d.dtype)
    # the output before the indices are read: fail fast on an enormous (broadcast) data
    mine: np.ndarray[Any, Any] | None = backends.pool.empty(d.shape, d.dtype) if out is None else None
    nbytes = u.nbytes + idx.nbytes
    kern = backends.kernels(nbytes)
    wide = _widened(policy, d.dtype)
    fast_ok = (
        kern is not None
        and wide is None
        and red is not Reduction.MEAN
        and (policy.include_self or red is Reduction.NONE)
        and (red is not Reduction.NONE or policy.duplicates is Duplicates.LAST)
    )
    if fast_ok and u.size and d.size and prod(sizes) and accel.raw_ok(idx) and d.flags.c_contiguous:
        # the caller's indices straight to the kernels, checked there; a bad one sends us below
        target = out if out is not None else mine
        assert target is not None
        done = accel.scatter(
            kern, target, idx, u, spec, red.value, raw=True, wrap=policy.negative is Negative.WRAP,
            data=None if inplace else d, fresh=out is None,
        )
        if done:
            if plans.recording():
                plans.offer((d, idx, u), target, _plan(spec, red.value, nbytes, inplace), out)
            return target
    numpy_rows = (
        kern is None
        and spec.elementwise
        and (ufunc is None or (wide is None and red is not Reduction.MEAN and at_exact(d.dtype)))
    )
    copied = False
    if numpy_rows and mine is not None and u.size and d.size and numpy_checks(policy, idx):
        # NumPy's assignment and ufunc.at check every index themselves, by this very rule: no pass of ours first
        np.copyto(mine, d)
        copied = True
        try:
            if _rows(mine, idx, u, spec, policy, ufunc, red):
                return mine
        except IndexError:  # a bad index: resolve (below) raises the typed error naming the first one
            copied = False  # (and were it ever not to, the output would be copied again before any other write)
    lin, valid = resolve(ctx, idx, sizes, spec, policy, d.shape)
    empty = u.size == 0 or d.size == 0
    if wide is not None and not empty:
        u = u.astype(wide)  # before the pieces are cut: every update widened once
    cut = list(pieces(d.shape, lin, valid, u, spec)) if not empty and small(u) else None

    def each(reuse: bool = False) -> Iterator[Piece]:
        # small index sets are cut once; large ones are regenerated on every pass, so that
        # the pieces never exist all at once (with ``reuse``, one piece at a time: a loop
        # that is done with a piece before drawing the next)
        return iter(cut) if cut is not None else pieces(d.shape, lin, valid, u, spec, reuse)

    if not empty and ufunc is None and policy.duplicates is Duplicates.RAISE:
        # every error before the first write (out= may be the caller's array)
        _check_duplicates(ctx, list(each()), idx.shape, d.shape, spec, R_of(d.shape, spec))
    if out is None:
        out = mine if mine is not None else np.empty(d.shape, d.dtype)
    if not inplace and not copied:  # (copied: _rows declined before writing anything)
        np.copyto(out, d)
    if empty:
        return out
    k = kern
    if (
        k is not None
        and fast_ok
        and spec.elementwise
        and valid is None
        and accel.scatter(k, out, lin, u, spec, red.value, raw=False)
    ):
        return out
    if numpy_rows and valid is None and not copied and _rows(out, lin, u, spec, policy, ufunc, red):
        return out
    R = R_of(d.shape, spec)
    o2 = out.reshape(-1, R)
    if ufunc is None:
        if policy.duplicates is Duplicates.FIRST:
            assign_pieces(o2, list(each())[::-1], kern, reverse=True)
        else:
            assign_pieces(o2, each(reuse=True), kern)
        return out
    # the accumulator: the output itself, or a float32 copy of it (accumulate='float32')
    w2 = o2 if wide is None else o2.astype(wide)
    if not policy.include_self:
        ident = identity_of(red, w2.dtype, policy.identity)
        for rows, _, _ in each(reuse=True):
            w2[rows] = ident
    # a count per output row: int32 holds any count below 2**31 updates (half an int64 array)
    count_dtype = np.int32 if u.size // max(1, R) < 2**31 else np.int64
    counts = np.zeros(o2.shape[0], count_dtype) if red is Reduction.MEAN else None
    reduce_pieces(ufunc, red.value, w2, each(reuse=True), kern, counts)
    if wide is not None:
        # rounded once, and only where an update landed (the other values keep their exact bits)
        for rows, _, _ in each(reuse=True):
            o2[rows] = w2[rows].astype(d.dtype)
    if counts is not None:
        _finish_mean(o2, counts, policy)
    return out


def _rows(
    out: np.ndarray[Any, Any],
    lin: np.ndarray[Any, Any],
    u: np.ndarray[Any, Any],
    spec: IndexSpec,
    policy: Policy,
    ufunc: np.ufunc | None,
    red: Reduction,
) -> bool:
    """The NumPy path's elementwise scatter row by row (:func:`~gatherscatter.core.rows.along_last_rows`), or
    False (nothing written) when its rows do not apply."""
    ident = None if ufunc is None or policy.include_self else identity_of(red, out.dtype, policy.identity)
    first = policy.duplicates is Duplicates.FIRST
    return along_last_rows(out, lin, spec.axis, u, ufunc, first_wins=first, ident=ident)


def _check_duplicates(
    ctx: OpContext,
    parts: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]],
    ishape: tuple[int, ...],
    dshape: tuple[int, ...],
    spec: IndexSpec,
    R: int,
) -> None:
    """DuplicateIndexError naming the first duplicated pair (duplicates='raise')."""
    rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    if rows.size < 2:
        return
    keeps = [p[2] for p in parts]
    keep = None if all(k is None for k in keeps) else np.concatenate(
        [k if k is not None else np.arange(p[0].size) for p, k in zip(parts, keeps, strict=True)]
    )
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    if np.any(srt[1:] == srt[:-1]):
        _raise_duplicate(ctx, rows, order, keep, ishape, dshape, spec, R)


def _finish_mean(o2: np.ndarray[Any, Any], counts: np.ndarray[Any, Any], policy: Policy) -> None:
    """Divide each targeted row's sum by its count (+1 with include_self), in pieces of rows."""
    extra = 1 if policy.include_self else 0
    n = o2.shape[0]
    step = max(1, piece_size(o2.size) // max(1, o2.shape[1]))
    for r0 in range(0, n, step):
        c = counts[r0 : r0 + step]
        hit = np.flatnonzero(c)
        if hit.size == 0:
            continue
        rows = hit + r0
        n = count_in_dtype(c[hit].astype(np.int64) + extra, o2.dtype, policy.mean_count)
        o2[rows] = _mean_divide(o2[rows], n[:, None], policy.mean_rounding)
