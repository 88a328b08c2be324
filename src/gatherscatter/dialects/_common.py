"""Helpers every dialect shares: dtype families and argument checks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.context import OpContext
from ..core.shape import as_array, as_updates, dtype_name, normalize_axis, to_int
from ..errors import DTypeError, ShapeError

__all__ = [
    "COMPLEX",
    "FLOATS",
    "INTS",
    "NUMERIC",
    "STRINGS",
    "UINTS",
    "along_axis",
    "as_updates",
    "check_data_dtype",
    "check_min_rank",
    "data_array",
]

INTS = frozenset({"int8", "int16", "int32", "int64"})
UINTS = frozenset({"uint8", "uint16", "uint32", "uint64"})
FLOATS = frozenset({"float16", "float32", "float64"})
COMPLEX = frozenset({"complex64", "complex128"})
STRINGS = frozenset({"str", "bytes", "object"})
NUMERIC = INTS | UINTS | FLOATS


def data_array(ctx: OpContext, value: Any, name: str | None = None) -> np.ndarray[Any, Any]:
    """The data argument as an array (the caller's own array when it is one)."""
    return as_array(ctx, value, name or ctx.data)


def check_data_dtype(
    ctx: OpContext, arr: np.ndarray[Any, Any], allowed: frozenset[str], *, name: str | None = None, hint: str = ""
) -> None:
    """Reject a data dtype the op does not list (by short name: ``bfloat16``, ``str`` ...)."""
    got = dtype_name(arr.dtype)
    if got not in allowed:
        raise DTypeError(
            f"{ctx.label}: {name or ctx.data} dtype {got} is not accepted; expected one of: "
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
