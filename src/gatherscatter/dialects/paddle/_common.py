"""Paddle naming, dtype tables and checks shared by the ``gs.paddle`` ops.

Every op reproduces PaddlePaddle 3.3.1 on CPU (:data:`PADDLE_VERSION`). Data
dtypes follow the CPU kernel registry of 3.3.1 as measured (a dtype without a
CPU kernel raises :class:`~gatherscatter.errors.DTypeError`, as Paddle raises
``NotFound: The kernel with key (CPU, ...) is not registered``); a dtype Paddle
only supports on GPU is therefore rejected here, since the default behaviour of
every dialect is the framework's CPU behaviour.

Paddle has no ``uint16``/``uint32``/``uint64`` tensors: ``paddle.to_tensor``
reads a NumPy ``uint16`` array as ``bfloat16`` bits and rejects ``uint32`` and
``uint64``; we reject all three with a message that says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.shape import as_index_array, dtype_name, prod
from ...errors import ArgumentError, DTypeError, ShapeError
from .._common import data_array, first_true

__all__ = [
    "INDEX_DTYPES",
    "PADDLE_VERSION",
    "along_axis_index",
    "check_bool",
    "check_paddle_dtype",
    "empty_like_shape",
    "index_array",
    "paddle_context",
    "raise_first_bad",
    "tuple_length",
    "x_and_index",
]

PADDLE_VERSION = "3.3.1"
"""The PaddlePaddle release whose CPU behaviour ``gs.paddle`` reproduces."""

INDEX_DTYPES = frozenset({"int32", "int64"})

_PADDLE_DTYPES = frozenset(
    {
        "bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
        "float32", "float64", "complex64", "complex128",
    }
)
_NO_SUCH_DTYPE = {
    "uint16": "paddle has no uint16 tensors (paddle.to_tensor reads a NumPy uint16 array as bfloat16 bits)",
    "uint32": "paddle has no uint32 tensors (paddle.to_tensor rejects them)",
    "uint64": "paddle has no uint64 tensors (paddle.to_tensor rejects them)",
}


@memo
def paddle_context(
    name: str, *, data: str = "x", indices: str = "index", updates: str = "updates", axis: str = "axis"
) -> OpContext:
    """Message naming: ``paddle.gather (paddle 3.3.1)`` with Paddle's argument names."""
    return OpContext(
        op=f"paddle.{name}", version=f"paddle {PADDLE_VERSION}", data=data, indices=indices,
        updates=updates, axis=axis,
    )


def check_paddle_dtype(
    ctx: OpContext, arr: np.ndarray[Any, Any], allowed: frozenset[str], *, name: str | None = None
) -> None:
    """Reject a dtype that the op has no Paddle 3.3.1 CPU kernel for (or Paddle cannot hold)."""
    got = dtype_name(arr.dtype)
    if got in allowed:
        return
    label = name or ctx.data
    accepted = ", ".join(sorted(allowed))
    if got in _NO_SUCH_DTYPE:
        why = _NO_SUCH_DTYPE[got]
    elif got in _PADDLE_DTYPES:
        why = f"{ctx.op} has no {got} kernel on CPU in paddle {PADDLE_VERSION}"
    else:
        why = f"{got} is not a paddle dtype"
    raise DTypeError(f"{ctx.label}: {label} dtype {got} is not accepted ({why}); expected one of: {accepted}")


def index_array(ctx: OpContext, value: Any, name: str | None = None) -> np.ndarray[Any, Any]:
    """An int32/int64 index array (Python lists of ints read as int64)."""
    return as_index_array(ctx, value, name or ctx.indices, INDEX_DTYPES)


def tuple_length(ctx: OpContext, i: np.ndarray[Any, Any], rank: int, bound: str, shapes: str) -> int:
    """The length of the index tuples on the last axis of ``index`` (at most ``rank``, worded ``bound``)."""
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: index must have rank >= 1 (index tuples on its last axis); got a 0-d index")
    k = int(i.shape[-1])
    if k > rank:
        raise ShapeError(f"{ctx.label}: index.shape[-1] (the tuple length) must be <= {bound}; got {k} ({shapes})")
    return k


def along_axis_index(ctx: OpContext, d: np.ndarray[Any, Any], indices: Any) -> np.ndarray[Any, Any]:
    """The ``indices`` of ``take_along_axis`` / ``put_along_axis``: an index array of the rank of ``arr``."""
    i = index_array(ctx, indices)
    if i.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices and arr must have the same number of dimensions; got indices shape "
            f"{list(i.shape)} and arr shape {list(d.shape)}"
        )
    return i


Array = np.ndarray[Any, Any]


def x_and_index(ctx: OpContext, x: Any, index: Any, dtypes: frozenset[str]) -> tuple[Array, Array]:
    """``x`` (of rank >= 1, a dtype in ``dtypes``) and ``index`` of ``gather`` / ``index_select``, as arrays."""
    d = data_array(ctx, x)
    check_paddle_dtype(ctx, d, dtypes)
    i = index_array(ctx, index)
    if d.ndim == 0:
        raise ShapeError(f"{ctx.label}: x must have rank >= 1; got a 0-d x")
    return d, i


def check_bool(ctx: OpContext, name: str, value: Any) -> bool:
    """A bool flag (``overwrite``, ``include_self``, ``broadcast``); anything else is an ArgumentError."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ArgumentError(f"{ctx.label}: {name} must be a bool (got {value!r} of type {type(value).__name__})")


def empty_like_shape(shape: tuple[int, ...], dtype: np.dtype[Any]) -> np.ndarray[Any, Any] | None:
    """An empty result of ``shape`` when it has no element, else None.

    Paddle's CPU kernels return before reading any index when the output (or
    the tensor written into) has no element, so no index is checked then.
    """
    if prod(shape) == 0:
        return np.empty(shape, dtype)
    return None


def raise_first_bad(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    bad: np.ndarray[Any, Any],
    *,
    valid: tuple[int, int],
    what: str,
) -> None:
    """Raise IndexOutOfRangeError for the first True of ``bad`` (shape of ``indices``), worded by the core.

    Paddle's own range checks (``take``'s double wrap, ``put_along_axis``'s upper bound
    only) run here; ``what`` names what the index addresses.
    """
    pos, value = first_true(bad, indices)
    lo, hi = valid
    raise ctx.index_error(value=value, position=pos, size=hi + 1, axis=0, lo=lo, target=what)
