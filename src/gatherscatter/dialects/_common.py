"""Helpers every dialect shares: dtype families and argument checks."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

import numpy as np

from ..core.context import OpContext
from ..core.shape import as_array, as_updates, dtype_name, normalize_axis, to_int
from ..errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError, UnsupportedError

__all__ = [
    "COMPLEX",
    "DUPLICATES",
    "FLOATS",
    "INTS",
    "NUMERIC",
    "POINTWISE",
    "STRINGS",
    "UINTS",
    "along_axis",
    "apply_counted_loop",
    "as_updates",
    "blockwise",
    "check_batch",
    "check_data_dtype",
    "check_min_rank",
    "check_name",
    "check_updates_like_indices",
    "data_array",
    "first_true",
    "func_name",
    "named_func",
]

INTS = frozenset({"int8", "int16", "int32", "int64"})
UINTS = frozenset({"uint8", "uint16", "uint32", "uint64"})
FLOATS = frozenset({"float16", "float32", "float64"})
COMPLEX = frozenset({"complex64", "complex128"})
STRINGS = frozenset({"str", "bytes", "object"})
NUMERIC = INTS | UINTS | FLOATS
#: the ``duplicates=`` policy values of a scatter without a reduction (the op records' ``values=``)
DUPLICATES = ("last", "first", "raise")


def data_array(ctx: OpContext, value: Any, name: str | None = None) -> np.ndarray[Any, Any]:
    """The data argument as an array (the caller's own array when it is one)."""
    return as_array(ctx, value, name or ctx.data)


def first_true(bad: np.ndarray[Any, Any], values: np.ndarray[Any, Any]) -> tuple[tuple[int, ...], int]:
    """The row-major position of the first True of ``bad`` in ``values`` (of ``bad``'s size) and the integer there.

    For dialects that check an index range of their own before the core does (the core words the error).

    >>> first_true(np.array([[False, False], [True, True]]), np.array([[0, 1], [-7, 9]]))
    ((1, 0), -7)
    """
    flat = int(np.argmax(bad.reshape(-1)))
    pos = tuple(int(p) for p in np.unravel_index(flat, values.shape)) if values.ndim else ()
    return pos, int(values.reshape(-1)[flat])


def check_batch(ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], b: int, note: str = "") -> None:
    """The first ``b`` (batch) dims of data and indices must be equal."""
    if tuple(d.shape[:b]) != tuple(i.shape[:b]):
        raise ShapeError(
            f"{ctx.label}: the first batch_dims={b} dims of {ctx.data} and {ctx.indices} must be equal; got "
            f"{ctx.data} shape {list(d.shape)} and {ctx.indices} shape {list(i.shape)}{note}"
        )


def check_name(ctx: OpContext, arg: str, value: Any, names: Container[str], refusal: str) -> str:
    """A string argument naming one of ``names`` (a reduction ...): a non-string is an
    :class:`~gatherscatter.ArgumentError`, an unknown name an :class:`~gatherscatter.UnsupportedError`
    worded by ``refusal`` (the framework's own message, ``{!r}`` standing for the value)."""
    if not isinstance(value, str):
        raise ArgumentError(f"{ctx.label}: {arg} must be a string (got {value!r})")
    if value not in names:
        raise UnsupportedError(f"{ctx.label}: " + refusal.format(value))
    return value


def check_updates_like_indices(ctx: OpContext, i: np.ndarray[Any, Any], u: np.ndarray[Any, Any]) -> None:
    """An element-wise scatter's updates must have the shape of its indices (one update per index)."""
    if u.shape != i.shape:
        raise ShapeError(
            f"{ctx.label}: {ctx.updates} must have the shape of {ctx.indices}; got {ctx.indices} shape "
            f"{list(i.shape)} and {ctx.updates} shape {list(u.shape)}"
        )


def check_data_dtype(
    ctx: OpContext, arr: np.ndarray[Any, Any], allowed: frozenset[str], *, name: str | None = None, hint: str = "",
    refusal: str = "is not accepted",
) -> None:
    """Reject a data dtype the op does not list (by short name: ``bfloat16``, ``str`` ...).

    The message: ``<op>: <name> dtype <got> <refusal>; expected one of: <allowed><hint>``.
    """
    got = dtype_name(arr.dtype)
    if got not in allowed:
        raise DTypeError(
            f"{ctx.label}: {name or ctx.data} dtype {got} {refusal}; expected one of: "
            f"{', '.join(sorted(allowed))}{hint}"
        )


def check_min_rank(ctx: OpContext, arr: np.ndarray[Any, Any], rank: int, name: str) -> None:
    """``arr`` must have at least ``rank`` dims."""
    if arr.ndim < rank:
        raise ShapeError(f"{ctx.label}: {name} must have rank >= {rank}; got rank {arr.ndim} (shape {list(arr.shape)})")


def along_axis(ctx: OpContext, data: np.ndarray[Any, Any], indices: np.ndarray[Any, Any], axis: Any
               ) -> tuple[np.ndarray[Any, Any], int]:
    """``take_along_axis``/``put_along_axis`` axes: ``axis=None`` reads the flattened ``data`` with 1-D
    ``indices`` (axis 0); otherwise ``axis`` normalised by ``data``'s rank. Returns ``(data, axis)``."""
    if axis is None:
        if indices.ndim != 1:
            raise ShapeError(f"{ctx.label}: with axis=None, indices must be 1-D (got shape {list(indices.shape)})")
        return data.reshape(-1), 0
    return data, normalize_axis(ctx, to_int(ctx, "axis", axis), data.ndim)


# the func/ufunc attribute of composed ops (jax at_apply, lax.scatter_apply, numpy ufunc_at)


def func_name(op: str, func: Any, names: tuple[str, ...]) -> str:
    """The name in ``names`` of ``func`` (a name, or the NumPy ufunc of that name), for a description; an
    UnsupportedError for any other callable (it has no canonical spelling)."""
    if isinstance(func, str) and func in names:
        return func
    got = getattr(func, "__name__", None)
    if isinstance(func, np.ufunc) and got in names and getattr(np, str(got)) is func:
        return str(got)
    raise UnsupportedError(
        f"translate {op}: func={func!r} has no canonical form: only the named functions {list(names)} (NumPy "
        "ufuncs, by name or as the ufunc) are described; any other callable runs, but cannot be translated, "
        "explained or fuzzed"
    )


def named_func(ctx: Any, func: Any, names: tuple[str, ...]) -> Any:
    """``func`` as a callable: a name from ``names`` is the NumPy ufunc of that name."""
    if isinstance(func, str):
        if func not in names:
            raise ArgumentValueError(f"{ctx.label}: func={func!r} is not a callable nor one of the named functions "
                                     f"{list(names)}")
        return getattr(np, func)
    return func


# the element-wise steps of composed ops (the adapters divide_inexact, power, reciprocal_like,
# apply_counted of translate/adapters.py are these, through the vocabulary primitive ``pointwise``)


def _inexact(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """JAX's ``true_divide`` operand (``dtypes.to_inexact_dtype``): 8- to 32-bit integers and bool become
    float32, 64-bit integers float64."""
    if a.dtype.kind not in "biu":
        return a
    return a.astype(np.float32 if a.dtype.itemsize <= 4 else np.float64)


def _divide_inexact(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.asarray(np.true_divide(_inexact(x), _inexact(y)))


def _power(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if y.dtype.kind in "iu" and x.dtype.kind in "iu" and (y < 0).any():
        raise UnsupportedError("power: an integer base with a negative integer exponent has no integer result")
    with np.errstate(all="ignore"):
        if x.dtype == np.float32:  # XLA's float32 pow is (almost always) the float64 power rounded once
            xb, yb = np.broadcast_arrays(x, y)
            return blockwise(lambda a, b: np.power(a.astype(np.float64), b.astype(np.float64)), np.float32, xb, yb)
        return np.asarray(np.power(x, y), x.dtype)


def _reciprocal(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``1 / x`` in ``x``'s dtype (integers and bool: float32, as MLX's ``reciprocal``)."""
    out = np.float32 if x.dtype.kind in "biu" else x.dtype
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return blockwise(lambda a: np.reciprocal(a.astype(out)), out, x)


#: elements per block of :func:`blockwise` (its temporaries stay a few MB whatever the array's size)
BLOCK = 1 << 14


def blockwise(fn: Callable[..., Any], dtype: Any, *xs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``fn(*xs)`` cast to ``dtype``, computed block by block over the flattened (equal-shape) arrays, so that
    the temporaries of a wider computation (float64 for float32 data) never hold the whole array."""
    out = np.empty(xs[0].shape, dtype)
    flat = out.reshape(-1)
    parts = [x.reshape(-1) for x in xs]
    with np.errstate(all="ignore"):
        for lo in range(0, flat.size, BLOCK):
            flat[lo : lo + BLOCK] = fn(*[p[lo : lo + BLOCK] for p in parts])
    return out


def _cast_like(x: np.ndarray[Any, Any], like: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``x.astype(like.dtype)`` (unsafe, without numerical warnings: inf to an integer is the C cast; no
    process-wide warning filter is touched, so it is thread-safe)."""
    with np.errstate(all="ignore"):
        return np.asarray(x).astype(like.dtype)


def _apply_n(x: np.ndarray[Any, Any], count: np.ndarray[Any, Any], *, func: str) -> np.ndarray[Any, Any]:
    """``x`` with the NumPy unary ufunc ``func`` applied ``count[k]`` times at each position ``k`` (cast back to
    ``x``'s dtype after each application, as ``ufunc.at``)."""
    f = getattr(np, func, None)
    if not isinstance(f, np.ufunc) or f.nin != 1 or f.nout != 1:
        raise UnsupportedError(f"apply_counted: func={func!r} is not a unary NumPy ufunc")
    y = np.array(x, copy=True)
    try:
        loop = f.resolve_dtypes((y.dtype, None), casting="unsafe")
    except TypeError as exc:
        raise DTypeError(f"apply_counted: no {func} loop for dtype {dtype_name(y.dtype)} ({exc})") from None

    def step(vals: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        with np.errstate(all="ignore"):
            return _cast_like(f(vals.astype(loop[0]), signature=loop, casting="unsafe"), vals)

    return apply_counted_loop(y, count, step)


def apply_counted_loop(
    y: np.ndarray[Any, Any], counts: np.ndarray[Any, Any], step: Callable[[np.ndarray[Any, Any]], Any]
) -> np.ndarray[Any, Any]:
    """``y`` (modified in place and returned) with ``step`` applied ``counts[k]`` times at each position ``k``:
    the element-wise step after a counting scatter (``x.at[].apply``, ``lax.scatter_apply``, unary ``ufunc.at``).
    Round ``r`` applies ``step`` to the 1-D array of the elements counted at least ``r`` times, block by block
    (the selections stay small).

    >>> apply_counted_loop(np.array([1, 2, 3]), np.array([0, 2, 1]), lambda v: v * 10)
    array([  1, 200,  30])
    """
    flat, cnt = y.reshape(-1), np.broadcast_to(counts, y.shape).reshape(-1)
    for lo in range(0, flat.size, BLOCK):
        yb, cb = flat[lo : lo + BLOCK], cnt[lo : lo + BLOCK]
        for k in range(1, int(np.max(cb, initial=0)) + 1):
            sel = cb >= k
            yb[sel] = step(yb[sel])
    return y


#: the element-wise steps, by name: what ``v.pointwise(name, ...)`` computes
POINTWISE: dict[str, Callable[..., np.ndarray[Any, Any]]] = {
    "divide_inexact": _divide_inexact, "power": _power, "reciprocal": _reciprocal, "cast_like": _cast_like,
    "apply_n": _apply_n,
}
