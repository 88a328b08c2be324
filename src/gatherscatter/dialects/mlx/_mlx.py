"""Shared facts of the MLX ops: version, dtypes, context, and the bounds rule (MLX does not check)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ...core.context import OpContext, memo
from ...errors import DTypeError
from .._record import Canonical, Description, Residual, Step

__all__ = ["MLX_VERSION", "cast_values", "check_bounds", "mlx_array", "mlx_context", "mlx_description", "to_mlx_dtype"]

MLX_VERSION = "0.32"
"""The MLX release measured (0.32.4, CPU wheel ``mlx[cpu]``)."""


@memo
def mlx_context(name: str, **names: str) -> OpContext:
    """Message naming: ``mlx.core.take (MLX 0.32)``."""
    return OpContext(op=f"mlx.core.{name}", version=f"MLX {MLX_VERSION}", **names)


def mlx_array(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``mx.array`` of a NumPy array: float64 becomes float32 (MLX's CPU arrays have no float64 by default)."""
    if arr.dtype != np.float64:
        return arr
    if not isinstance(arr, np.ndarray):  # a lazy (Dask) array: cast block by block, under the same rule
        return cast("np.ndarray[Any, Any]", arr.map_blocks(_to_float32, dtype=np.float32))
    return _to_float32(arr)


def _to_float32(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    with np.errstate(over="ignore"):  # MLX's cast: values beyond float32 become +-inf
        return arr.astype(np.float32)


def to_mlx_dtype(dtype: np.dtype[Any]) -> Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]] | None:
    """A gather's ``post``: float64 results become float32 (casting after the gather never copies a huge view)."""
    if dtype != np.float64:
        return None
    return lambda y: y.astype(np.float32)


def cast_values(ctx: OpContext, v: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """``values`` in ``a``'s dtype (no copy when it already is); strings that are no numbers are a DTypeError."""
    if v.dtype == dtype:
        return v
    try:
        with np.errstate(all="ignore"):
            return v.astype(dtype)
    except (TypeError, ValueError) as exc:
        raise DTypeError(
            f"{ctx.label}: values of dtype {v.dtype} cannot be cast to a's dtype {dtype} ({exc})"
        ) from None


def check_bounds(ctx: OpContext, idx: np.ndarray[Any, Any], size: int, axis: int = 0) -> None:
    """Indices outside ``[-size, size)`` of ``axis``: MLX reads or writes out of bounds (undefined); we raise."""
    if idx.size == 0 or (int(idx.min()) >= -size and int(idx.max()) < size):
        return
    bad = (idx < -size) | (idx >= size)
    flat = int(np.argmax(bad.reshape(-1)))
    pos = tuple(int(p) for p in np.unravel_index(flat, idx.shape)) if idx.ndim else ()
    value = int(idx.reshape(-1)[flat])
    raise ctx.with_(position_sep=",", bounds_note=_UNCHECKED).index_error(
        value=value, position=pos, size=size, axis=axis, lo=-size
    )


_UNCHECKED = "MLX does not check and reads or writes outside the array (undefined), so gatherscatter raises"


_FLOAT64 = Residual("dtype", "computes float64 data in float32 (MLX's CPU arrays have no float64) and returns float32",
                    "keeps float64")


def mlx_description(op: str, attrs: dict[str, Any], inputs: tuple[str, ...], c: Canonical, *,
                    pre: list[Step] | None = None, post: list[Step] | None = None, **layout: Any) -> Description:
    """An MLX op's description: float64 data is MLX's float32 (a residual; the generator draws the dtypes MLX
    keeps); indices outside ``[-s, s)`` raise here (MLX does not check: undefined)."""
    lay = {"data_dtypes": ("float32", "int32", "int64"), **layout}
    return Description(op, attrs, inputs, c, pre=pre or [], post=post or [], residuals=[_FLOAT64], layout=lay)
