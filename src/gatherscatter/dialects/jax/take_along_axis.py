"""JAX ``jax.numpy.take_along_axis``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy, fill
from ...core.shape import IndexSpec, as_array, normalize_axis
from ...errors import DTypeError, ShapeError, UnsupportedError
from .._record import Description, Residual, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import (
    GRAD,
    MODE_VALUES,
    GatherScatterMode,
    check_data,
    common_divergences,
    fill_value_of,
    int32_index_divergence,
    jax_context,
    parse_mode,
)
from ._describe import _INT, _fill_value, _gather, _mode

common_divergences("jax.take_along_axis")
int32_index_divergence("jax.take_along_axis", "every mode except 'promise_in_bounds'")
divergence_table("jax.take_along_axis", __file__)


def _describe(axis: int | None = -1, mode: Any = None, fill_value: Any = None,
                    wrap_negative_indices: bool | None = None) -> Description:
    op = "jax.take_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' computes one_hot(indices) @ arr, not a gather "
                               "(out-of-range rows give 0, NaN/inf elsewhere in a row leak in)")
    fill_value = _fill_value(op, fill_value)
    if wrap_negative_indices is None:
        wrap = not (isinstance(mode, str) and mode == "promise_in_bounds")
    else:
        wrap = bool(wrap_negative_indices)
    attrs: dict[str, Any] = {"axis": axis, "mode": mode, "fill_value": fill_value}
    if wrap_negative_indices is not None:
        attrs["wrap_negative_indices"] = wrap_negative_indices
    pre: list[Step] = []
    data = "arr"
    layout: dict[str, Any] = {"index_dtypes": _INT}
    if axis is None:
        pre.append(Step.adapt("flatten", "flat", "arr", why="axis=None works on the flattened array (1-d indices)"))
        data = "flat"
        layout["rank"] = (1, 1)
    base = canonical("gather_elements", data=data, axis=0 if axis is None else axis, broadcast=True)
    p2, c, post = _gather(base, fill=m is GatherScatterMode.FILL_OR_DROP, fill_value=fill_value, wrap=wrap)
    res = [Residual("empty", "returns zeros when the axis has size 0 (every mode)", "raises or returns its own "
                    "empty result")]
    return Description(op, attrs, ("arr", "indices"), c, pre=pre + p2, post=post, residuals=res, layout=layout)


@dialect_op(
    "jax",
    "take_along_axis",
    family="gather_elements",
    kind="gather",
    versions=("0.10",),
    differentiable=("arr",),
    describe=_describe, fuzz={"axis_none": True}, grad=GRAD, variants=({"axis": 1},),
    values={"mode": MODE_VALUES, "fill_value": "number"},
)
def take_along_axis(arr: Any, indices: Any, axis: int | None = -1, mode: Any = None, fill_value: Any = None, *,
                    wrap_negative_indices: bool | None = None) -> Lowering:
    """JAX ``jnp.take_along_axis``: one element per index along ``axis``; ``arr`` and
    ``indices`` broadcast against each other on the other axes.

    Provenance: ``jax.numpy.take_along_axis`` (jax 0.10; fill default since
    0.3.14), with ``jax_enable_x64=True``. ``axis`` defaults to ``-1`` (the last
    axis, as JAX); ``axis=None`` flattens ``arr`` (1-D ``indices`` only). Output
    shape: ``broadcast(indices.shape, arr.shape with axis -> 1)``.

    Modes: ``None``/``'fill'``/``'drop'``: out-of-range elements give
    ``fill_value`` (NaN, ``iinfo.min``, ``iinfo.max`` or True by dtype);
    ``'clip'``: clamp to ``[0, s-1]``; ``'promise_in_bounds'``: clamp as XLA
    does; a ``GatherScatterMode`` is accepted too; ``'wrap'`` does not exist here.
    Negative indices wrap once unless ``wrap_negative_indices=False``; its
    default ``None`` is JAX's legacy rule: wrap unless ``mode`` is the *string*
    ``'promise_in_bounds'``. So ``clip`` maps -1 to the last element (unlike
    ``jnp.take``'s clip) while ``'promise_in_bounds'`` maps it to 0. An axis of
    size 0 gives zeros in every mode.

    Equivalent loop (broadcast ``arr`` and ``indices`` first)::

        for j in ndindex(out_shape):
            k = indices[j]; k = k + s if (wrap and k < 0) else k
            Y[j] = arr[j[:axis] + (k,) + j[axis+1:]] if 0 <= k < s else fill_value   # fill mode

    Differs from NumPy ``np.take_along_axis`` (raises) and from
    ``torch.gather`` / ONNX ``GatherElements`` (no broadcasting, error on bad index).

    >>> import gatherscatter as gs
    >>> gs.jax.take_along_axis([[1.0, 2.0], [3.0, 4.0]], [[0, 0], [1, 5]], axis=1).tolist()
    [[1.0, 1.0], [4.0, nan]]
    >>> gs.jax.take_along_axis([[1, 2], [3, 4]], [[1], [0]]).tolist()
    [[2], [3]]
    >>> gs.jax.take_along_axis([10, 20, 30], [-1, 7], axis=0, mode="clip").tolist()
    [30, 30]
    >>> gs.jax.take_along_axis([10, 20, 30], [-1, 7], axis=0, mode="promise_in_bounds").tolist()
    [10, 30]
    """
    ctx = jax_context("jax.numpy.take_along_axis", data="arr")
    d = check_data(ctx, arr, "arr")
    i = as_array(ctx, indices, "indices")
    if not isinstance(indices, np.ndarray) and i.size == 0 and i.dtype.kind == "f":
        i = i.astype(np.int64)
    if i.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: take_along_axis indices must be of integer type, got {i.dtype}")
    if axis is None:
        if i.ndim != 1:
            raise ShapeError(f"{ctx.label}: take_along_axis indices must be 1D if axis=None, got shape {list(i.shape)}")
        d, ax = d.reshape(-1), 0
    else:
        if d.ndim != i.ndim:
            raise ShapeError(
                f"{ctx.label}: indices and arr must have the same number of dimensions; "
                f"{i.ndim} vs. {d.ndim} (indices shape {list(i.shape)}, arr shape {list(d.shape)})"
            )
        ax = normalize_axis(ctx, axis, d.ndim)
    m = parse_mode(ctx, mode, default=GatherScatterMode.FILL_OR_DROP)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(
            f"{ctx.label}: mode='one_hot' is not supported (JAX computes it as one_hot(indices) @ arr, "
            "which is not a gather: out-of-range rows give 0 and NaN/inf elsewhere in a row leak in)"
        )
    if wrap_negative_indices is None:
        wrap = not (isinstance(mode, str) and mode == "promise_in_bounds")
    else:
        wrap = bool(wrap_negative_indices)
    arr_shape = d.shape[:ax] + (1,) + d.shape[ax + 1 :]
    try:
        out_shape = tuple(np.broadcast_shapes(i.shape, arr_shape))
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: incompatible shapes for broadcasting: indices shape {list(i.shape)} and arr "
            f"shape {list(d.shape)} (axis {ax} excluded)"
        ) from None
    s = d.shape[ax]
    if m is GatherScatterMode.FILL_OR_DROP:
        policy = Policy(bounds=fill(fill_value_of(ctx, d.dtype, fill_value)), negative="wrap" if wrap else "bounds")
    else:
        policy = Policy(bounds="clip", negative="wrap" if wrap else "bounds")
    dshape = out_shape[:ax] + (s,) + out_shape[ax + 1 :]
    db = np.broadcast_to(d, dshape)
    ib = np.broadcast_to(i, out_shape)
    # an empty axis gives zeros in every mode (JAX returns lax.full(out_shape, 0) before gathering)
    result = np.zeros(out_shape, d.dtype) if s == 0 else None
    return Lowering("gather", db, ib, IndexSpec(axis=ax, batch=ax, elementwise=True), policy, ctx, result=result)
