"""Readable loop versions of the two primitives: the oracle the vectorised core is checked against.

These are the "equivalent loops" of the docstrings, written one element at a
time so that a person can check them against a framework's specification. They
are slow on purpose; tests and the fuzzer use them to cross-check the vectorised
primitives, and ``explain`` uses :func:`gather_trace` / :func:`scatter_trace` to
show which source cell went where.

Independence. This module shares no code with what it checks: it reads the
:class:`~gatherscatter.core.policy.Policy` and
:class:`~gatherscatter.core.shape.IndexSpec` types and raises the library's
error types, and everything else is written again here, plainly, from the
documented semantics: its own shape rules, its own index normalisation (one index
at a time: negative wrap, then ``raise | wrap | clip | fill | drop``), its own
table of reductions (what each does per dtype, where it starts without
``include_self``, how a mean counts and rounds). A bug in ``core/indices.py`` or
``core/scatter.py`` therefore makes the two disagree instead of agreeing.

Each element is combined with NumPy's arithmetic on 0-d arrays (the ufunc's
array loop), not with NumPy scalars: scalar arithmetic rounds complex products
differently, and the definition is the array arithmetic every framework's CPU
kernel performs element by element.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DTypeError, IndexOutOfRangeError, ShapeError, UnsupportedError
from .context import NEUTRAL, OpContext
from .policy import Accumulate, Bounds, Duplicates, Identity, MeanCount, MeanRounding, Negative, Policy, Reduction
from .shape import IndexSpec

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


# ---------------------------------------------------------------- shapes


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _out_shape(dshape: tuple[int, ...], ishape: tuple[int, ...], spec: IndexSpec) -> tuple[int, ...]:
    """Y.shape: the index shape (elementwise), else B + P + M + R (see the IndexSpec docstring)."""
    if spec.elementwise:
        return tuple(ishape)
    b, a, k = spec.batch, spec.axis, spec.depth
    m = ishape[b : len(ishape) - 1] if spec.vector else ishape[b:]
    return tuple(dshape[:b]) + tuple(dshape[b:a]) + tuple(m) + tuple(dshape[a + k :])


def _check_shapes(ctx: OpContext, dshape: tuple[int, ...], ishape: tuple[int, ...], spec: IndexSpec) -> None:
    b, a, k = spec.batch, spec.axis, spec.depth
    bad = a + k > len(dshape)
    if spec.elementwise:
        bad = bad or len(ishape) != len(dshape) or len(dshape) == 0
        bad = bad or any(ishape[d] > dshape[d] for d in range(len(dshape)) if d != a)
    else:
        bad = bad or len(ishape) < b + (1 if spec.vector else 0)
        bad = bad or (spec.vector and ishape[-1] != k) or tuple(ishape[:b]) != tuple(dshape[:b])
    if bad:
        raise ShapeError(f"{ctx.label}: {ctx.indices} shape {list(ishape)} does not fit {ctx.data} shape "
                         f"{list(dshape)} for {spec}")


def _arrays(
    ctx: OpContext, data: Any, indices: Any, spec: IndexSpec
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    d = np.asarray(data)
    i = np.asarray(indices)
    if i.size == 0 and not isinstance(indices, np.ndarray):
        i = i.astype(np.int64)  # an empty Python list holds no index (NumPy reads it as float64)
    if i.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: {ctx.indices} must hold integers; got {i.dtype}")
    _check_shapes(ctx, d.shape, i.shape, spec)
    return d, i


# ---------------------------------------------------------------- indices


def _normalise(ctx: OpContext, value: int, size: int, policy: Policy, pos: tuple[int, ...]) -> int | None:
    """One index under the policy: its position in ``[0, size)``, or None (filled / dropped)."""
    i = value
    if i < 0 and policy.negative is Negative.RAISE:
        raise IndexOutOfRangeError(f"{ctx.label}: {ctx.indices}{list(pos)} = {value} is negative",
                                   value=value, position=pos, valid=(0, size - 1))
    if -size <= i < 0 and policy.negative is Negative.WRAP:
        i += size  # Python style, once
    if 0 <= i < size:
        return i
    if policy.bounds in (Bounds.FILL, Bounds.DROP):
        return None
    if policy.bounds is Bounds.WRAP and size > 0:
        return i % size
    if policy.bounds is Bounds.CLIP and size > 0:
        return 0 if i < 0 else size - 1
    raise IndexOutOfRangeError(f"{ctx.label}: {ctx.indices}{list(pos)} = {value} is out of range for size {size}",
                               value=value, position=pos, valid=None)


def _targets(
    ctx: OpContext, dshape: tuple[int, ...], i: np.ndarray[Any, Any], spec: IndexSpec, policy: Policy
) -> dict[tuple[int, ...], tuple[int, ...] | None]:
    """Every index (tuple), normalised, by its position in ``indices`` (without the tuple axis).

    Every index is read, in row-major order, before anything moves: a bad index
    raises even where no output element reads it.
    """
    a, k = spec.axis, spec.depth
    lead = i.shape[:-1] if spec.vector else i.shape
    table: dict[tuple[int, ...], tuple[int, ...] | None] = {}
    for pos in np.ndindex(*lead):
        if spec.vector:
            comps = [_normalise(ctx, int(i[pos + (j,)]), dshape[a + j], policy, pos + (j,)) for j in range(k)]
        else:
            comps = [_normalise(ctx, int(i[pos]), dshape[a], policy, pos)]
        table[pos] = None if any(c is None for c in comps) else tuple(c for c in comps if c is not None)
    return table


def _moves(
    dshape: tuple[int, ...], ishape: tuple[int, ...], table: dict[tuple[int, ...], tuple[int, ...] | None],
    spec: IndexSpec,
) -> Iterator[Move]:
    """Every (data position, output position) pair, in row-major output order."""
    b, a = spec.batch, spec.axis
    out_shape = _out_shape(dshape, ishape, spec)
    if _count(out_shape) == 0:
        return  # (np.ndindex fails on an empty shape with enormous dims)
    nm = len(ishape) - b - (1 if spec.vector else 0)
    for y in np.ndindex(*out_shape):
        if spec.elementwise:
            ipos = y
            t = table[ipos]
            src = None if t is None else y[:a] + t + y[a + 1 :]
        else:
            beta, p, m, r = y[:b], y[b:a], y[a : a + nm], y[a + nm :]
            ipos = beta + m
            t = table[ipos]
            src = None if t is None else beta + p + t + r
        yield Move(source=src, target=y, index_pos=ipos + ((0,) if spec.vector else ()))


def _plan(
    ctx: OpContext, data: Any, indices: Any, spec: IndexSpec, policy: Policy
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], list[Move]]:
    d, i = _arrays(ctx, data, indices, spec)
    table = _targets(ctx, d.shape, i, spec, policy)
    return d, i, list(_moves(d.shape, i.shape, table, spec))


# ---------------------------------------------------------------- gather


def _fill(ctx: OpContext, dtype: np.dtype[Any], value: Any) -> Any:
    """The fill value as one scalar of ``dtype`` (zero when None)."""
    if value is None:
        return np.zeros(1, dtype)[0]
    try:
        with np.errstate(all="ignore"):
            arr = np.array(value).astype(dtype)
    except (ValueError, TypeError, OverflowError) as exc:
        raise DTypeError(f"{ctx.label}: fill_value {value!r} is not a {dtype} ({exc})") from None
    if arr.shape != ():
        raise DTypeError(f"{ctx.label}: fill_value must be one value; got shape {list(arr.shape)}")
    return arr.reshape(1)[0]  # a scalar: an object array would store a 0-d array itself


def gather_trace(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> list[Move]:
    """Which data cell each output cell reads (None: filled)."""
    return _plan(ctx, data, indices, spec, policy)[2]


def gather_loop(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> np.ndarray[Any, Any]:
    """The gather, one output element at a time."""
    if policy.bounds is Bounds.DROP:
        raise UnsupportedError(f"{ctx.label}: a gather has nothing to drop (bounds='drop' is for scatters)")
    d, i, moves = _plan(ctx, data, indices, spec, policy)
    fill = _fill(ctx, d.dtype, policy.fill_value) if policy.bounds is Bounds.FILL else None
    out = np.empty(_out_shape(d.shape, i.shape, spec), d.dtype)
    for mv in moves:
        assert mv.target is not None
        out[mv.target] = fill if mv.source is None else d[mv.source]
    return out


# ---------------------------------------------------------------- scatter: the reductions


def _is_16bit_float(dtype: np.dtype[Any]) -> bool:
    named_void = dtype.kind == "V" and dtype.names is None and not dtype.name.startswith("void")
    return dtype.itemsize == 2 and (dtype.kind == "f" or named_void)


def _check_reduction(ctx: OpContext, red: Reduction, dtype: np.dtype[Any]) -> None:
    """Which reductions exist on which dtypes (bools as OpenVINO: add OR, sub XOR, mul/min AND, max OR)."""
    if dtype.kind in "OSU":
        raise DTypeError(f"{ctx.label}: no '{red.value}' reduction on {dtype} {ctx.data}")
    if dtype.kind == "b" and red is Reduction.MEAN:
        raise DTypeError(f"{ctx.label}: no mean of booleans")
    if dtype.kind == "c" and red in (Reduction.MAX, Reduction.MIN):
        raise DTypeError(f"{ctx.label}: complex numbers have no order for '{red.value}'")


def _combine(red: Reduction, x: np.ndarray[Any, Any], u: np.ndarray[Any, Any]) -> Any:
    """``x`` combined with one update ``u`` (0-d arrays of one dtype): the reduction's step."""
    if x.dtype.kind == "b":
        xb, ub = bool(x), bool(u)
        if red is Reduction.SUB:
            return xb != ub
        if red in (Reduction.MUL, Reduction.MIN):
            return xb and ub
        return xb or ub  # add, max
    if red in (Reduction.ADD, Reduction.MEAN):
        return x + u
    if red is Reduction.SUB:
        return x - u
    if red is Reduction.MUL:
        return x * u
    # max/min: a NaN on either side wins (the first one when both are NaN)
    return np.maximum(x, u) if red is Reduction.MAX else np.minimum(x, u)


def _largest(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """The largest finite value of a float dtype: the bit pattern just below +inf."""
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]
    inf = np.array([np.inf]).astype(dtype).view(bits)
    return (inf - 1).astype(bits).view(dtype).reshape(())


def _start(red: Reduction, dtype: np.dtype[Any], identity: Identity) -> np.ndarray[Any, Any]:
    """Where a reduction starts without include_self (0-d array of ``dtype``)."""
    if red in (Reduction.ADD, Reduction.SUB, Reduction.MEAN):
        return np.zeros((), dtype)
    if red is Reduction.MUL:
        return np.ones((), dtype)
    if dtype.kind == "b":
        return np.array(red is Reduction.MIN)
    if dtype.kind in "iu":
        bits = 8 * dtype.itemsize
        lo, hi = (0, 2**bits - 1) if dtype.kind == "u" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        return np.array(lo if red is Reduction.MAX else hi, dtype)
    top = _largest(dtype) if identity is Identity.FINITE else np.array(np.inf).astype(dtype)
    return -top if red is Reduction.MAX else top


def _wrap_int(n: int, dtype: np.dtype[Any]) -> int:
    """``n`` held in an integer dtype (two's complement wrap)."""
    bits = 8 * dtype.itemsize
    n %= 2**bits
    return n - 2**bits if dtype.kind == "i" and n >= 2 ** (bits - 1) else n


def _divisor(policy: Policy, n: int, dtype: np.dtype[Any]) -> Any:
    """What a mean divides by after ``n`` contributions (include_self counted in ``n``)."""
    if policy.mean_count is MeanCount.EXACT:
        return n if dtype.kind in "iu" else np.asarray(n).astype(dtype)
    if policy.mean_count is MeanCount.STEPWISE:
        c = np.zeros((), dtype)
        one = np.ones((), dtype)
        with np.errstate(all="ignore"):
            for _ in range(n):
                c = np.asarray(c + one).astype(dtype)
    elif dtype.kind in "iu":
        c = np.array(_wrap_int(n, dtype), dtype)
    else:
        c = np.asarray(float(n)).astype(dtype)
    if dtype.kind in "iu":
        return int(c) if int(c) != 0 else 1
    return c if bool(c != 0) else np.ones((), dtype)


def _mean(policy: Policy, total: np.ndarray[Any, Any], n: int) -> Any:
    """``total / n`` as a mean of the dtype of ``total`` (0-d)."""
    c = _divisor(policy, n, total.dtype)
    if total.dtype.kind in "iu":
        v, c = int(total), int(c)
        q = v // c  # Python: rounds toward -inf
        if policy.mean_rounding is MeanRounding.TRUNC and q * c != v and (v < 0) != (c < 0):
            q += 1  # toward zero
        return np.asarray(q).astype(total.dtype)  # (-128 // -1 wraps, as the int8 hardware does)
    with np.errstate(all="ignore"):
        return total / c


# ---------------------------------------------------------------- scatter


def scatter_trace(
    data: Any, indices: Any, spec: IndexSpec, policy: Policy = Policy(), ctx: OpContext = NEUTRAL
) -> list[Move]:
    """Where each update cell lands (None: dropped), in application order."""
    moves = _plan(ctx, data, indices, spec, policy)[2]
    return [Move(source=mv.target, target=mv.source, index_pos=mv.index_pos) for mv in moves]


def scatter_loop(
    data: Any,
    indices: Any,
    updates: Any,
    spec: IndexSpec,
    policy: Policy = Policy(),
    ctx: OpContext = NEUTRAL,
) -> np.ndarray[Any, Any]:
    """The scatter, one update element at a time, in row-major update order.

    ``duplicates='raise'`` is not implemented here (the loop applies ``last`` or
    ``first``); the primitive's own tests cover it.
    """
    red = policy.reduction
    if policy.bounds is Bounds.FILL:
        raise UnsupportedError(f"{ctx.label}: a scatter has nothing to fill (bounds='fill' is for gathers)")
    dtype = np.asarray(data).dtype
    if red is not Reduction.NONE:
        _check_reduction(ctx, red, dtype)  # before any index is read, as the primitive
    d, _, moves = _plan(ctx, data, indices, spec, policy)
    u = np.asarray(updates).astype(d.dtype)
    out: np.ndarray[Any, Any] = d.copy()
    # (update position, output position): the gather's output cell is the scatter's update cell
    landed = [(mv.target, mv.source) for mv in moves if mv.source is not None]
    if red is Reduction.NONE:
        if policy.duplicates is Duplicates.FIRST:
            landed = landed[::-1]
        for src, dst in landed:
            out[dst] = u[src]
        return out
    # accumulators, one per targeted position, in the dtype the policy accumulates in
    wide = policy.accumulate is Accumulate.FLOAT32 and red in (Reduction.ADD, Reduction.SUB, Reduction.MUL,
                                                                Reduction.MEAN) and _is_16bit_float(d.dtype)
    work = np.dtype(np.float32) if wide else d.dtype
    acc: dict[tuple[int, ...], np.ndarray[Any, Any]] = {}
    n: dict[tuple[int, ...], int] = {}
    for src, dst in landed:
        if dst not in acc:
            first = np.asarray(out[dst]).astype(work) if policy.include_self else _start(red, work, policy.identity)
            acc[dst] = first
            n[dst] = 1 if policy.include_self else 0
        with np.errstate(all="ignore"):
            acc[dst] = np.asarray(_combine(red, acc[dst], np.asarray(u[src]).astype(work))).astype(work)
        n[dst] += 1
    for dst, total in acc.items():
        value = np.asarray(total).astype(d.dtype)  # rounded once (a float32 accumulator) or unchanged
        out[dst] = _mean(policy, value, n[dst]) if red is Reduction.MEAN else value
    return out
