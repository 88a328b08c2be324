"""Readable loop versions of the two primitives.

These are the "equivalent loops" of the docstrings, written one element at a
time so that a person can check them against a framework's specification. They
are slow on purpose; tests use them to cross-check the vectorised primitives and
``explain`` uses :func:`gather_trace` / :func:`scatter_trace` to show which
source cell went where.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .context import NEUTRAL, OpContext
from .gather import fill_scalar
from .indices import resolve
from .policy import Bounds, Duplicates, MeanRounding, Policy, Reduction
from .scatter import identity_of, reduction_ufunc
from .shape import IndexSpec, as_array, as_index_array, check_spec, gather_shape, prod

__all__ = ["Move", "gather_loop", "gather_trace", "scatter_loop", "scatter_trace"]


@dataclass(frozen=True)
class Move:
    """One element moved: ``data[source]`` → ``out[target]`` (gather) or
    ``updates[source]`` → ``out[target]`` (scatter), driven by ``indices[index_pos]``.

    ``target`` (scatter) or ``source`` (gather) is None when the index was out of
    range and the policy filled or dropped it.
    """

    source: tuple[int, ...] | None
    target: tuple[int, ...] | None
    index_pos: tuple[int, ...]


def _resolved(
    ctx: OpContext, data: Any, indices: Any, spec: IndexSpec, policy: Policy
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    d = as_array(ctx, data, ctx.data)
    i = as_index_array(ctx, indices, ctx.indices)
    check_spec(ctx, d.shape, i.shape, spec)
    sizes = tuple(d.shape[spec.axis : spec.axis + spec.depth])
    lin, valid = resolve(ctx, i, sizes, spec, policy)
    return d, i, lin, valid


def _moves(
    dshape: tuple[int, ...],
    ishape: tuple[int, ...],
    lin: np.ndarray[Any, Any],
    valid: np.ndarray[Any, Any] | None,
    spec: IndexSpec,
) -> Iterator[Move]:
    """Every (data position, output position) pair, in row-major output order."""
    b, a, k = spec.batch, spec.axis, spec.depth
    sizes = dshape[a : a + k]
    out_shape = gather_shape(dshape, ishape, spec)
    if prod(out_shape) == 0:
        return  # (np.ndindex fails on an empty shape with enormous dims)
    for y in np.ndindex(*out_shape):
        if spec.elementwise:
            ipos = y
            ok = valid is None or bool(valid[ipos])
            src = y[:a] + (int(lin[ipos]),) + y[a + 1 :]
        else:
            beta = y[:b]
            p = y[b:a]
            nm = lin.ndim - b
            m = y[a : a + nm]
            r = y[a + nm :]
            ipos = beta + m
            ok = valid is None or bool(valid[ipos])
            comps = tuple(int(c) for c in np.unravel_index(int(lin[ipos]), sizes)) if k and ok else (0,) * k
            src = beta + p + comps + r
        if spec.vector:
            ipos = ipos + (0,)
        yield Move(source=src if ok else None, target=y, index_pos=ipos)


def gather_trace(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> list[Move]:
    """Which data cell each output cell reads (None: filled)."""
    d, i, lin, valid = _resolved(ctx, data, indices, spec, policy)
    return list(_moves(d.shape, i.shape, lin, valid, spec))


def gather_loop(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> np.ndarray[Any, Any]:
    """The gather, one output element at a time."""
    d, i, lin, valid = _resolved(ctx, data, indices, spec, policy)
    out = np.empty(gather_shape(d.shape, i.shape, spec), d.dtype)
    # a scalar, not a 0-d array: an object array would store the 0-d array itself
    fill = fill_scalar(d.dtype, policy.fill_value, ctx)[()] if policy.bounds is Bounds.FILL else None
    for mv in _moves(d.shape, i.shape, lin, valid, spec):
        assert mv.target is not None
        out[mv.target] = fill if mv.source is None else d[mv.source]
    return out


def scatter_trace(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> list[Move]:
    """Where each update cell lands (None: dropped), in application order."""
    d, i, lin, valid = _resolved(ctx, data, indices, spec, policy)
    moves = _moves(d.shape, i.shape, lin, valid, spec)
    return [Move(source=mv.target, target=mv.source, index_pos=mv.index_pos) for mv in moves]


def scatter_loop(
    data: Any,
    indices: Any,
    updates: Any,
    spec: IndexSpec,
    policy: Policy = Policy(),
    ctx: OpContext = NEUTRAL,
) -> np.ndarray[Any, Any]:
    """The scatter, one update element at a time, in row-major update order."""
    red = policy.reduction
    if red is not Reduction.NONE:
        # the primitive refuses a reduction the dtype lacks before it looks at any index
        reduction_ufunc(ctx, red, np.asarray(data).dtype)
    d, i, lin, valid = _resolved(ctx, data, indices, spec, policy)
    u = np.asarray(updates).astype(d.dtype)
    out: np.ndarray[Any, Any] = d.copy()
    moves = [m for m in _moves(d.shape, i.shape, lin, valid, spec) if m.source is not None]
    if red is Reduction.NONE:
        if policy.duplicates is Duplicates.FIRST:
            moves = moves[::-1]
        for mv in moves:
            assert mv.source is not None
            assert mv.target is not None
            out[mv.source] = u[mv.target]
        return out
    f = reduction_ufunc(ctx, red, d.dtype)
    counts: dict[tuple[int, ...], int] = {}
    if not policy.include_self:
        for mv in moves:
            assert mv.source is not None
            out[mv.source] = identity_of(red, d.dtype)
    for mv in moves:
        assert mv.source is not None
        assert mv.target is not None
        with np.errstate(all="ignore"):
            # 0-d arrays, not NumPy scalars: the ufunc's own loop combines each element (NumPy's
            # scalar arithmetic rounds complex products differently)
            out[mv.source] = f(np.asarray(out[mv.source]), np.asarray(u[mv.target]))
        counts[mv.source] = counts.get(mv.source, 0) + 1
    if red is Reduction.MEAN:
        for pos, n in counts.items():
            n += 1 if policy.include_self else 0
            v = out[pos]
            if d.dtype.kind in "iu":
                q = int(v) // n
                if policy.mean_rounding is MeanRounding.TRUNC and int(v) < 0 and int(v) % n:
                    q += 1
                out[pos] = q
            else:
                out[pos] = v / np.asarray(n).astype(d.dtype)
    return out
