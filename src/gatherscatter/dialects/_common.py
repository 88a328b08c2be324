"""Helpers every dialect shares: dtype families and argument checks."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

import numpy as np

from ..core.context import OpContext
from ..core.shape import as_array, as_updates, dtype_name, normalize_axis, to_int
from ..errors import ArgumentError, DTypeError, ShapeError, UnsupportedError

__all__ = [
    "COMPLEX",
    "DUPLICATES",
    "FLOATS",
    "INTS",
    "NUMERIC",
    "STRINGS",
    "UINTS",
    "along_axis",
    "as_updates",
    "check_batch",
    "check_data_dtype",
    "check_min_rank",
    "check_name",
    "check_updates_like_indices",
    "data_array",
    "first_true",
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
