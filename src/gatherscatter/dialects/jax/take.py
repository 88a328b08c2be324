"""JAX ``jax.numpy.take``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy, fill
from ...core.shape import IndexSpec, as_array, normalize_axis
from ...errors import DTypeError, UnsupportedError
from .._record import Description, Residual, Step, canonical, check_choice, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import (
    GRAD,
    check_data,
    common_divergences,
    fill_value_of,
    int32_index_divergence,
    jax_context,
    narrow_index_divergence,
)
from ._describe import _INT, _axis_mask, _fill_value, _gather

common_divergences("jax.take")
int32_index_divergence("jax.take", "mode='fill' (the default)")
narrow_index_divergence("jax.take")
divergence_table("jax.take", __file__)


def _mode(ctx: OpContext, mode: Any) -> str:
    if mode is None or (isinstance(mode, str) and mode == "fill"):
        return "fill"
    if isinstance(mode, str) and mode in ("clip", "wrap"):
        return mode
    if isinstance(mode, str) and mode == "raise":
        raise UnsupportedError(
            f"{ctx.label}: the 'raise' mode to jnp.take is not supported "
            "(JAX has no way to report out-of-bounds indices)"
        )
    raise UnsupportedError(
        f"{ctx.label}: invalid mode {mode!r} for np.take; expected one of: None, 'fill', 'clip', 'wrap'"
    )


def _indices(ctx: OpContext, indices: Any, mode: str) -> np.ndarray[Any, Any]:
    i = as_array(ctx, indices, "indices")
    if not isinstance(indices, np.ndarray) and i.size == 0 and i.dtype.kind == "f":
        i = i.astype(np.int64)
    if i.dtype.kind == "b":
        if mode != "fill":
            raise DTypeError(
                f"{ctx.label}: indices must have an integer type for mode={mode!r}; got bool "
                "(JAX reads boolean indices as 0/1 only in fill mode)"
            )
        return i.astype(np.int64)
    if i.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: indices must have an integer type; got {i.dtype}")
    return i


def _describe(axis: int | None = None, mode: str | None = None, fill_value: Any = None) -> Description:
    op = "jax.take"
    axis = check_int(op, "axis", axis, optional=True)
    check_choice(op, "mode", mode, (None, "fill", "clip", "wrap"))
    fill_value = _fill_value(op, fill_value)
    attrs = {"axis": axis, "mode": mode, "fill_value": fill_value}
    pre: list[Step] = []
    data = "a"
    if axis is None:
        pre.append(Step.adapt("flatten", "flat", "a", why="axis=None takes from the flattened array"))
        data = "flat"
    a = 0 if axis is None else axis
    base = canonical("gather", data=data, axis=a)
    res = [Residual("empty", "on an axis of size 0 raises for non-empty indices and returns a itself (its shape, "
                    "not the formula's) for empty ones", "fills, or returns the formula's empty shape")]
    if mode in ("clip", "wrap"):
        c = base.with_(negative="bounds", bounds=mode)
        post: list[Step] = []
    else:
        p2, c, post = _gather(base, fill=True, fill_value=fill_value, wrap=True, **_axis_mask(a))
        pre += p2
    return Description(op, attrs, ("a", "indices"), c, pre=pre, post=post, residuals=res,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


_PROBE: tuple[dict[str, Any], ...] = (
    {"axis": 0},
    {"axis": 0, "mode": "clip"},
    {"axis": 0, "mode": "fill", "fill_value": -1},
)


@dialect_op(
    "jax", "take", family="gather", kind="gather", versions=("0.10",), differentiable=("a",),
    describe=_describe, fuzz={"axis_none": True}, grad=GRAD, variants=_PROBE,
    values={"mode": ("wrap", "clip", "fill"), "fill_value": "number"},
)
def take(a: Any, indices: Any, axis: int | None = None, mode: str | None = None, fill_value: Any = None, *,
         unique_indices: bool = False, indices_are_sorted: bool = False) -> Lowering:
    """JAX ``jnp.take``: whole slices of ``a`` along ``axis`` (``None``: of the flattened ``a``).

    Provenance: ``jax.numpy.take`` (jax 0.10; fill default since 0.3.14), with
    ``jax_enable_x64=True``. ``unique_indices`` and ``indices_are_sorted`` are
    performance promises and do not change the result here.

    ``Y.shape = a.shape[:axis] + indices.shape + a.shape[axis+1:]``. Modes:

    * ``None`` / ``'fill'``: negative indices wrap once, then anything outside
      ``[0, s-1]`` gives ``fill_value`` (default NaN for inexact dtypes,
      ``iinfo.min`` for signed, ``iinfo.max`` for unsigned, ``True`` for bool);
    * ``'clip'``: clamp to ``[0, s-1]`` *without* wrapping negatives (-1 reads 0);
    * ``'wrap'``: ``i mod s``; ``'raise'`` is not supported (as in JAX).

    On an axis of size 0, empty indices return ``a`` itself (JAX's shortcut: the
    output has ``a``'s shape, not the formula's) and non-empty indices raise.

    Equivalent loop (fill mode)::

        for p, i, r in ndindex(a.shape[:axis], indices.shape, a.shape[axis+1:]):
            k = indices[i]; k = k + s if k < 0 else k
            Y[p + i + r] = a[p + (k,) + r] if 0 <= k < s else fill_value

    Differs from NumPy ``np.take`` (default raises; ``clip`` also does not wrap)
    and from ``x[idx]`` / ``x.at[idx].get()`` (clamp by default).

    >>> import gatherscatter as gs
    >>> gs.jax.take([10.0, 20.0, 30.0], [0, -1, 3]).tolist()
    [10.0, 30.0, nan]
    >>> gs.jax.take([10, 20, 30], [-1, 5], mode="clip").tolist()
    [10, 30]
    >>> gs.jax.take([[1, 2], [3, 4]], [1, 9], axis=1, fill_value=0).tolist()
    [[2, 0], [4, 0]]
    """
    ctx = jax_context("jax.numpy.take", data="a")
    d = check_data(ctx, a, "a")
    m = _mode(ctx, mode)
    i = _indices(ctx, indices, m)
    if axis is None:
        d, ax = d.reshape(-1), 0
    else:
        ax = normalize_axis(ctx, axis, d.ndim)
    if m == "fill":
        policy = Policy(bounds=fill(fill_value_of(ctx, d.dtype, fill_value)), negative="wrap")
    else:
        policy = Policy(bounds=m, negative="bounds")
    post = None
    if d.shape[ax] == 0:
        if i.size:
            # jax raises whatever the mode (fill included); the core's formatter words it
            first = (0,) * i.ndim
            raise ctx.index_rule_error(
                shown=str(int(i.reshape(-1)[0])), position=first, value=int(i.reshape(-1)[0]), name="indices",
                rule=f"has no element to read: cannot do a non-empty take from an empty axis (axis {ax} of a has "
                f"size 0 and indices has shape {list(i.shape)})",
            )
        shape = d.shape

        def post(r: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            out: np.ndarray[Any, Any] = r.reshape(shape)
            return out

    return Lowering("gather", d, i, IndexSpec(axis=ax), policy, ctx, post=post)
