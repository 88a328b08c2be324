"""The shared parts of the jax ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: JAX 0.10 (``jax_enable_x64=True``): ``jnp.take``, ``jnp.take_along_axis``, ``x.at[idx]``, ``lax``.

Modes (``lax.GatherScatterMode``): gathers ``None``/``'fill'``/``'drop'`` fill
out-of-range positions (``jnp.take``, ``jnp.take_along_axis``, ``at_get(mode='fill')``,
``lax.gather(mode='fill')``), ``'clip'`` and ``'promise_in_bounds'`` clamp;
scatters drop out-of-range updates except with ``'clip'``. Without a
``fill_value`` the fill depends on the data dtype (NaN, ``iinfo.min``,
``iinfo.max``, True): the description then clamps, remembers which indices
were valid (``valid_mask``) and masks the result with the dtype's default
(``mask_fill_default``).

``x.at[idx]`` index forms (``form=``): ``'array'`` (one integer array: rows
along axis 0, ``x[I]``) and ``'tuple'`` (a tuple of integer arrays, one per
leading axis, broadcast together: ``x[I0, I1, ...]``, docs/semantics.md#e15). Slices,
``Ellipsis``, ``None`` and boolean masks are rejected (UnsupportedError).

``lax.gather``/``lax.scatter*`` (docs/semantics.md#e21, docs/semantics.md#s7-4): the dimension
numbers must be one of the canonical configurations: an nd gather/scatter with
``index_vector_dim`` last and leading batching dims (``gather_nd``,
``ScatterND``), a take / row scatter along one axis (``Gather``,
``ScatterUpdate``), or the element-wise form with every other dim batching
(``GatherElements``, ``ScatterElements``); every window must be a whole
operand dim (``slice_sizes`` / the updates' window dims equal to the operand's
dims), which the description takes as given. Anything else raises
UnsupportedError with the reason. ``lax`` never wraps negative indices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import UnsupportedError
from .._record import BOOL_MASK, Canonical, Description, Residual, Step, canonical, index_form, tuple_index_args
from ._common import GatherScatterMode

_INT = ("int64", "int32")


_PROMOTE = Residual("dtype", "computes in the promoted dtype of x and values (JAX's lattice) and casts back to "
                    "x's dtype", "casts values to x's dtype first")


def _mode(op: str, mode: Any) -> GatherScatterMode:
    try:
        return GatherScatterMode.from_any(mode)
    except UnsupportedError as e:
        raise UnsupportedError(f"translate {op}: {e}") from None


def _fill_value(op: str, fill_value: Any) -> Any:
    if fill_value is not None and np.ndim(fill_value) != 0:
        raise UnsupportedError(f"translate {op}: fill_value must be a scalar (got {fill_value!r})")
    return fill_value


def _gather(c: Canonical, *, fill: bool, fill_value: Any, wrap: bool, lead: int = 0,
            trail: int | None = None) -> tuple[list[Step], Canonical, list[Step]]:
    """A gather canonical call with JAX's bounds: clamp (``fill=False``), fill with ``fill_value``, or fill with
    the dtype's default (``fill_value=None``: clamp, then mask)."""
    neg = "wrap" if wrap else "bounds"
    if not fill:
        return [], c.with_(negative=neg, bounds="clip"), []
    if fill_value is not None:
        return [], c.with_(negative=neg, bounds="fill", fill_value=fill_value), []
    kw: dict[str, Any] = ({"axis": c.axis} if c.family in ("gather", "gather_elements")
                          else {"batch_dims": c.batch_dims})
    pre: list[Step] = []
    i = c.indices
    if wrap:
        pre.append(Step.adapt("normalize_negative", "i_wrapped", i, c.data, why="negative indices wrap once", **kw))
        i = "i_wrapped"
    pre.append(Step.adapt("valid_mask", "valid", i, c.data, why="remember which indices are in range", **kw))
    out = c.out
    c2 = c.with_(indices=i, negative="bounds", bounds="clip", out="y_clamped")
    mask_kw: dict[str, Any] = {"lead": lead} if trail is None else {"lead": 0, "trail": trail}
    post = [Step.adapt("mask_fill_default", out, "y_clamped", "valid",
                       why="out-of-range positions read JAX's fill value for the dtype (NaN, iinfo.min, "
                           "iinfo.max, True)", **mask_kw)]
    return pre, c2, post


def _axis_mask(axis: int) -> dict[str, Any]:
    """Where a take's index dims sit in the result: ``lead=axis``, or ``trail`` for a negative axis."""
    return {"lead": axis} if axis >= 0 else {"trail": -axis - 1}


def _at_scatter(op: str, reduction: str, form: str, mode: Any, wrap: bool = True) -> Description:
    form = index_form(op, form, "x.at")
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    if form == "array":
        pre = [Step.adapt("expand_dims", "tuples", "idx", axis=-1, why="x[I] indexes rows along axis 0")]
        layout: dict[str, Any] = {"index_dtypes": _INT, "k": 1, "to_source": tuple_index_args(
            "x", "idx", "values", as_array=True, broadcast=0.3)}
    else:
        pre = [Step.adapt("stack_last", "tuples", "idx", why="x[I0, I1, ...]: one index tuple per position "
                                                             "(docs/semantics.md#e15)")]
        layout = {"index_dtypes": _INT, "to_source": tuple_index_args("x", "idx", "values", broadcast=0.3)}
    pre.append(Step.adapt("broadcast_updates", "upd", "values", "tuples", "x", why="values broadcast to x[idx]"))
    bounds = "clip" if m is GatherScatterMode.CLIP else "drop"
    c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", reduction=reduction,
                  negative="wrap" if wrap else "bounds",
                  bounds=bounds, duplicates_specified=reduction != "none")
    res = [_PROMOTE, BOOL_MASK, Residual("empty", "returns x unchanged when the target x[idx] is empty or the "
                                          "indexed axis has size 0 (every update dropped, also with mode='clip')",
                                          "checks the values' shape and raises for a clipped index into a size-0 "
                                          "axis")]
    if reduction in ("max", "min"):
        layout["nonfinite"] = 0.1
    attrs: dict[str, Any] = {"mode": mode}
    if not wrap:
        attrs["wrap_negative_indices"] = False
    return Description(op, attrs, ("x", "idx", "values"), c, pre=pre, residuals=res, layout=layout)
