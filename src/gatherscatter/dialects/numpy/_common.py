"""NumPy 2.4 conventions shared by the ``gs.numpy`` ops: naming, index and value conversion.

NumPy converts its arguments differently from op to op, and the dialect keeps
each rule (measured on NumPy 2.4.6):

* ``np.take`` and ``np.put`` read an index *ndarray* by casting it to ``intp``
  (``take``: ``same_kind``, so uint64 wraps and bool reads as 0/1;
  ``put``: ``safe``, so uint64 and floats are refused), but convert any other
  object with ``np.array(x, dtype=intp)``, which truncates Python floats
  (``np.take(a, [1.5])`` reads index 1).
* ``take_along_axis`` / ``put_along_axis`` need an integer array (bool is not
  an integer here); uint64 wraps to int64 as in fancy indexing.
* Values written by ``put`` / ``put_along_axis`` are cast to the array's dtype
  as ``a[idx] = v`` does: arrays unsafely (300 -> 44 in int8), Python objects
  through ``np.asarray(v, dtype)`` (Python 300 into int8 is an OverflowError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.indices import raise_out_of_range
from ...core.policy import Negative, Policy
from ...core.shape import as_array, dtype_name, normalize_axis
from ...errors import (
    ArgumentError,
    ArgumentValueError,
    AxisError,
    AxisIndexError,
    DTypeError,
    DTypeOverflowError,
    DTypeValueError,
    IndexDTypeError,
    IndexShapeError,
    ShapeError,
)

__all__ = [
    "MODES",
    "VERSION",
    "along_axis",
    "along_indices",
    "broadcast_along",
    "cast_values",
    "check_bounds",
    "mode_policy",
    "np_axis",
    "np_context",
    "put_indices",
    "take_indices",
]

VERSION = "2.4"

MODES = {
    "raise": Policy(bounds="raise", negative="wrap"),
    "wrap": Policy(bounds="wrap", negative="bounds"),
    "clip": Policy(bounds="clip", negative="bounds"),
}


@memo
def np_context(name: str, **names: str) -> OpContext:
    """``numpy.take (numpy 2.4)`` with NumPy's argument names."""
    return OpContext(op=f"numpy.{name}", version=f"numpy {VERSION}", **names)


def np_axis(ctx: OpContext, axis: Any, rank: int) -> int:
    """``normalize_axis`` raising NumPy's class: ``numpy.exceptions.AxisError`` is a ValueError and an IndexError."""
    try:
        return normalize_axis(ctx, axis, rank)
    except AxisError as exc:
        raise AxisIndexError(str(exc)) from None


def mode_policy(ctx: OpContext, mode: Any) -> Policy:
    """NumPy's ``mode`` (``None`` reads as 'raise', as NumPy's clipmode converter does)."""
    if mode is None:
        mode = "raise"
    if not isinstance(mode, str):
        raise ArgumentError(f"{ctx.label}: mode must be 'raise', 'wrap' or 'clip' (got {mode!r})")  # NumPy: TypeError
    try:
        return MODES[mode]
    except KeyError:
        raise ArgumentValueError(
            f"{ctx.label}: mode must be one of 'clip', 'raise', or 'wrap' (got {mode!r}; NumPy: 'clipmode must be "
            f"one of ...')"
        ) from None


def _has_python_complex(value: Any) -> bool:
    if type(value) is complex:
        return True
    return isinstance(value, (list, tuple)) and any(_has_python_complex(v) for v in value)


def _real_part(value: Any, dtype: np.dtype[Any]) -> Any:
    """``value`` ready for a cast to ``dtype``: complex values become their real part when ``dtype`` is real.

    NumPy's complex -> real casts keep the real part and emit a ComplexWarning;
    taking ``.real`` first gives the same values without the warning, so no
    (process-global, thread-unsafe) ``warnings.catch_warnings`` is needed.
    Python ``complex`` objects are left alone: NumPy refuses them (TypeError).
    """
    if np.dtype(dtype).kind not in "iuf":
        return value
    if isinstance(value, np.ndarray):
        return value.real if value.dtype.kind == "c" else value
    arr = np.asarray(value)
    if arr.dtype.kind != "c" or _has_python_complex(value):
        return value
    return arr.real


def quiet_cast(x: np.ndarray[Any, Any], dtype: Any) -> np.ndarray[Any, Any]:
    """``x.astype(dtype, casting='unsafe')`` as NumPy casts (complex keeps its real part), with no warnings."""
    with np.errstate(all="ignore"):
        res: np.ndarray[Any, Any] = _real_part(x, dtype).astype(dtype, casting="unsafe")
        return res


def _from_object(ctx: OpContext, value: Any, name: str) -> np.ndarray[Any, Any]:
    """``np.array(value, dtype=intp)`` with typed errors (Python floats truncate)."""
    try:
        with np.errstate(all="ignore"):
            return np.asarray(_real_part(value, np.dtype(np.int64)), dtype=np.int64)
    except OverflowError:
        raise DTypeOverflowError(f"{ctx.label}: {name} holds an integer too large for int64 ({value!r})") from None
    except (TypeError, ValueError) as exc:
        cls = DTypeValueError if isinstance(exc, ValueError) else DTypeError  # the class NumPy raises
        raise cls(f"{ctx.label}: {name} cannot be read as integers ({exc})") from None


def _index_array(ctx: OpContext, value: Any, name: str, rule: str) -> np.ndarray[Any, Any]:
    """An index *ndarray* cast to int64 under ``rule`` (bool reads as 0/1); any other object truncated."""
    if not isinstance(value, np.ndarray):
        return _from_object(ctx, value, name)
    kind = value.dtype.kind
    if kind == "b" or (kind in "iu" and np.can_cast(value.dtype, np.int64, rule)):  # type: ignore[arg-type]
        return value.astype(np.int64) if value.dtype != np.int64 else value
    raise DTypeError(
        f"{ctx.label}: {name} must be an integer array castable to int64 under the {rule!r} rule; "
        f"got {dtype_name(value.dtype)}"
    )


def take_indices(ctx: OpContext, value: Any, name: str = "indices") -> np.ndarray[Any, Any]:
    """Indices as ``np.take`` reads them: arrays cast ``same_kind`` to int64 (uint64 wraps), other objects truncated."""
    return _index_array(ctx, value, name, "same_kind")


def put_indices(ctx: OpContext, value: Any, name: str = "ind") -> np.ndarray[Any, Any]:
    """Indices as ``np.put`` reads them: arrays cast ``safe`` to int64 (no uint64, no float)."""
    return _index_array(ctx, value, name, "safe")


def along_indices(ctx: OpContext, value: Any, name: str = "indices") -> np.ndarray[Any, Any]:
    """Indices of ``take_along_axis`` / ``put_along_axis``: an integer array (uint64 wraps)."""
    arr = as_array(ctx, value, name)
    if arr.size == 0 and arr.dtype.kind == "f" and not isinstance(value, np.ndarray):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise IndexDTypeError(f"{ctx.label}: `{name}` must be an integer array; got {dtype_name(arr.dtype)}")
    return arr.astype(np.int64) if arr.dtype != np.int64 else arr


def cast_values(ctx: OpContext, value: Any, dtype: np.dtype[Any], name: str) -> np.ndarray[Any, Any]:
    """Values as ``a[idx] = value`` converts them to ``dtype``."""
    try:
        if isinstance(value, np.ndarray):
            if value.dtype == dtype:
                return value
            return quiet_cast(value, dtype)
        with np.errstate(all="ignore"):
            return np.asarray(_real_part(value, dtype), dtype=dtype)
    except OverflowError as exc:
        raise DTypeOverflowError(f"{ctx.label}: {name} does not fit {dtype_name(dtype)} ({exc})") from None
    except (TypeError, ValueError) as exc:
        cls = DTypeValueError if isinstance(exc, ValueError) else DTypeError  # the class NumPy raises
        raise cls(f"{ctx.label}: {name} cannot be converted to {dtype_name(dtype)} ({exc})") from None


def check_bounds(ctx: OpContext, idx: np.ndarray[Any, Any], size: int, axis: int, name: str) -> None:
    """Raise for the first index outside ``[-size, size-1]`` (row-major), naming its position.

    Checked on the caller's indices before they are broadcast (so that the
    position is theirs), in NumPy's words ("out of bounds"); the core words it.
    """
    if idx.size == 0:
        return
    if int(idx.min()) >= -size and int(idx.max()) < size:
        return
    raise_out_of_range(ctx.with_(bounds_word="out of bounds"), idx, (idx < -size) | (idx >= size), (size,), axis,
                       negative=Negative.WRAP, name=name)


def along_axis(
    ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], axis: Any
) -> tuple[np.ndarray[Any, Any], int]:
    """``(arr, axis)`` of ``take_along_axis`` / ``put_along_axis``: ``axis=None`` flattens ``arr`` (1-D indices);
    otherwise ``indices`` has the rank of ``arr``."""
    if axis is None:
        if i.ndim != 1:
            raise ShapeError(
                f"{ctx.label}: when axis=None, `indices` must have a single dimension; got shape {list(i.shape)}"
            )
        return d.reshape(-1), 0
    a = np_axis(ctx, axis, d.ndim)
    if i.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: `indices` and `arr` must have the same number of dimensions; got indices "
            f"shape {list(i.shape)} and arr shape {list(d.shape)}"
        )
    return d, a


def broadcast_along(
    ctx: OpContext, ishape: tuple[int, ...], dshape: tuple[int, ...], axis: int
) -> tuple[int, ...]:
    """Shape of ``arr[_make_along_axis_idx(...)]``: indices broadcast against ``arr`` off the axis."""
    other = dshape[:axis] + (1,) + dshape[axis + 1 :]
    try:
        return tuple(np.broadcast_shapes(ishape, other))
    except ValueError:
        raise IndexShapeError(
            f"{ctx.label}: shape mismatch: {ctx.indices} of shape {list(ishape)} cannot be broadcast against "
            f"{ctx.data} of shape {list(dshape)} on the dims other than axis {axis}"
        ) from None
