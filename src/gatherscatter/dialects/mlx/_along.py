"""Broadcasting of ``take_along_axis`` / ``put_along_axis`` (MLX broadcasts indices and array on the other axes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...errors import ShapeError


def broadcast_along(
    ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], axis: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``d`` and ``i`` broadcast against each other on every axis except ``axis`` (read-only views)."""
    if i.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices must have the rank of a ({d.ndim}); got indices shape {list(i.shape)}"
        )
    try:
        other = np.broadcast_shapes(
            tuple(1 if k == axis else n for k, n in enumerate(d.shape)),
            tuple(1 if k == axis else n for k, n in enumerate(i.shape)),
        )
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: a shape {list(d.shape)} and indices shape {list(i.shape)} do not broadcast on the axes "
            f"other than {axis}"
        ) from None
    dshape = tuple(d.shape[axis] if k == axis else n for k, n in enumerate(other))
    ishape = tuple(i.shape[axis] if k == axis else n for k, n in enumerate(other))
    return np.broadcast_to(d, dshape), np.broadcast_to(i, ishape)
