"""Sources: JAX 0.10 (``jax_enable_x64=True``): ``jnp.take``, ``jnp.take_along_axis``, ``x.at[idx]``, ``lax``.

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

from ...core.context import OpContext
from ...dialects.jax._common import GatherScatterMode
from ...dialects.jax.lax._dnums import parse_gather_dnums, parse_scatter_dnums
from ...errors import UnsupportedError
from ..ir import Step
from ..model import Canonical, Residual, Source
from . import canonical, source
from ._layout import check_choice, check_int, tuple_index_args

_INT = ("int64", "int32")
_FORMS = ("array", "tuple")
_PROMOTE = Residual("dtype", "computes in the promoted dtype of x and values (JAX's lattice) and casts back to "
                    "x's dtype", "casts values to x's dtype first")
_BOOL_MASK = Residual("dtype", "reads a bool index array as a mask (its nonzero positions)",
                      "reads integer index arrays only")


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


@source("jax.take")
def take(axis: int | None = None, mode: str | None = None, fill_value: Any = None) -> Source:
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
    return Source(op, attrs, ("a", "indices"), c, pre=pre, post=post, residuals=res,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


@source("jax.take_along_axis")
def take_along_axis(axis: int | None, mode: Any = None, fill_value: Any = None,
                    wrap_negative_indices: bool | None = None) -> Source:
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
    return Source(op, attrs, ("arr", "indices"), c, pre=pre + p2, post=post, residuals=res, layout=layout)


def _form(op: str, form: Any) -> str:
    if form not in _FORMS:
        raise UnsupportedError(
            f"translate {op}: index form {form!r} is not translated; covered: 'array' (one integer array, "
            "x.at[I]) and 'tuple' (a tuple of integer arrays, x.at[I0, I1, ...]); slices, Ellipsis, None and "
            "boolean masks select by position, which no canonical gather/scatter call expresses"
        )
    return str(form)


@source("jax.at_get")
def at_get(form: str = "array", mode: Any = None, fill_value: Any = None) -> Source:
    op = "jax.at_get"
    form = _form(op, form)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    fill_value = _fill_value(op, fill_value)
    fill = m is GatherScatterMode.FILL_OR_DROP
    pre: list[Step] = []
    if form == "array":
        base = canonical("gather", data="x", indices="idx", axis=0)
        layout: dict[str, Any] = {"index_dtypes": _INT, "index_ndim": (0, 2)}
    else:
        pre.append(Step.adapt("stack_last", "tuples", "idx", why="x[I0, I1, ...]: one index tuple per position"))
        base = canonical("gather_nd", data="x", indices="tuples")
        layout = {"index_dtypes": _INT, "to_source": tuple_index_args("x", "idx")}
    p2, c, post = _gather(base, fill=fill and mode is not None, fill_value=fill_value, wrap=True)
    res = [Residual("empty", "returns zeros for an empty result, and raises for an integer index into a size-0 "
                    "axis", "computes its own empty result or raises"), _BOOL_MASK]
    attrs: dict[str, Any] = {"mode": mode, "fill_value": fill_value}
    return Source(op, attrs, ("x", "idx"), c, pre=pre + p2, post=post, residuals=res, layout=layout)


def _at_scatter(op: str, reduction: str, form: str, mode: Any) -> Source:
    form = _form(op, form)
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
    c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", reduction=reduction, negative="wrap",
                  bounds=bounds, duplicates_specified=reduction != "none")
    res = [_PROMOTE, _BOOL_MASK, Residual("empty", "returns x unchanged when the target x[idx] is empty or the "
                                          "indexed axis has size 0 (every update dropped, also with mode='clip')",
                                          "checks the values' shape and raises for a clipped index into a size-0 "
                                          "axis")]
    if reduction in ("max", "min"):
        layout["nonfinite"] = 0.1
    return Source(op, {"mode": mode}, ("x", "idx", "values"), c, pre=pre, residuals=res, layout=layout)


@source("jax.at_set")
def at_set(form: str = "array", mode: Any = None) -> Source:
    return _at_scatter("jax.at_set", "none", form, mode)


@source("jax.at_add")
def at_add(form: str = "array", mode: Any = None) -> Source:
    return _at_scatter("jax.at_add", "add", form, mode)


@source("jax.at_multiply")
def at_multiply(form: str = "array", mode: Any = None) -> Source:
    return _at_scatter("jax.at_multiply", "mul", form, mode)


@source("jax.at_min")
def at_min(form: str = "array", mode: Any = None) -> Source:
    return _at_scatter("jax.at_min", "min", form, mode)


@source("jax.at_max")
def at_max(form: str = "array", mode: Any = None) -> Source:
    return _at_scatter("jax.at_max", "max", form, mode)


# ------------------------------------------------------------------------------------------------ lax


def _ctx(op: str) -> OpContext:
    return OpContext(op=f"translate {op}")


def _unsupported(op: str, dn: Any, why: str) -> UnsupportedError:
    return UnsupportedError(
        f"translate {op}: dimension numbers {tuple(dn)} are not a canonical gather/scatter ({why}); covered: "
        "nd (index tuples on the last axis, leading batching dims, whole trailing windows), take/rows along one "
        "axis (one collapsed dim, whole windows elsewhere) and element-wise (every other dim batching)"
    )


def _expand_last(data: str, index: str, extra: tuple[str, ...] = ()) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        args = {data: canon["data"], index: np.expand_dims(canon["indices"], -1)}
        for name in extra:
            args[name] = canon["updates"]
        return args

    return mapper


@source("jax.lax.gather")
def lax_gather(dimension_numbers: Any, slice_sizes: Any, mode: Any = None, fill_value: Any = None) -> Source:
    op = "jax.lax.gather"
    dn = parse_gather_dnums(_ctx(op), dimension_numbers)
    sizes = tuple(check_int(op, "slice_sizes", s) for s in slice_sizes)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    fill_value = _fill_value(op, fill_value)
    fill = mode is not None and m is GatherScatterMode.FILL_OR_DROP  # lax.gather's default clamps
    attrs: dict[str, Any] = {"dimension_numbers": dimension_numbers, "slice_sizes": slice_sizes, "mode": mode,
                             "fill_value": fill_value}
    r = len(sizes)
    layout: dict[str, Any]
    off, col, smap, ob, ib = (tuple(f) for f in dn)
    k = len(smap)
    b = len(ob)
    res = [Residual("empty", "returns zeros when the result is empty", "may raise for an index into a size-0 axis")]
    # element-wise first: it also matches a batched nd form when the axis is the last dim
    if k == 1 and col == smap and not off and all(s == 1 for s in sizes):
        a = smap[0]
        others = tuple(d for d in range(r) if d != a)
        if ob == others and ib == others:
            layout = {"index_dtypes": _INT, "full_index": True, "rank": (r, r),
                      "to_source": _expand_last("operand", "start_indices")}
            pre = [Step.adapt("squeeze", "idx", "start_indices", axis=-1, why="one-component index vectors")]
            base = canonical("gather_elements", data="operand", indices="idx", axis=a)
            p2, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False)
            return Source(op, attrs, ("operand", "start_indices"), c, pre=pre + p2, post=post, residuals=res,
                          layout=layout)
    if k and smap == tuple(range(b, b + k)) and col == smap and ob == tuple(range(b)) and ib == ob \
            and all(sizes[d] == 1 for d in range(b + k)):
        n_off = r - b - k
        if off and off != tuple(range(off[0], off[0] + n_off)):
            raise _unsupported(op, dn, "the window dims must be the trailing result dims")
        if len(off) != n_off:
            raise _unsupported(op, dn, "every operand dim after the index tuple must be a whole window")
        layout = {"index_dtypes": _INT, "k": k, "data_shape": tuple([None] * (b + k) + list(sizes[b + k:]))}
        if off:
            q = off[0] + 1  # start_indices rank
            if q - 1 - b < 0:
                raise _unsupported(op, dn, "the window dims overlap the batch dims")
            layout["index_ndim"] = (q - 1 - b, q - 1 - b)
        base = canonical("gather_nd", data="operand", indices="start_indices", batch_dims=b)
        pre, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False)
        return Source(op, attrs, ("operand", "start_indices"), c, pre=pre, post=post, residuals=res, layout=layout)
    if k == 1 and col == smap and not ob and not ib:
        a = smap[0]
        win = [d for d in range(r) if d != a]
        if sizes[a] != 1:
            raise _unsupported(op, dn, "the indexed dim must have slice size 1")
        if len(off) != r - 1:
            raise _unsupported(op, dn, "every other operand dim must be a whole window")
        if tuple(off[:a]) != tuple(range(a)):
            raise _unsupported(op, dn, "the window dims before the axis must lead the result")
        tail = tuple(off[a:])
        q_i = tail[0] - a if tail else None
        if tail and (q_i is None or q_i < 0 or tail != tuple(range(a + q_i, a + q_i + len(tail)))):
            raise _unsupported(op, dn, "the index dims must sit at the axis in the result")
        layout = {"index_dtypes": _INT, "data_shape": tuple(None if d == a else sizes[d] for d in range(r)),
                  "to_source": _expand_last("operand", "start_indices")}
        if q_i is not None:
            layout["index_ndim"] = (q_i, q_i)
        pre = [Step.adapt("squeeze", "idx", "start_indices", axis=-1, why="one-component index vectors")]
        base = canonical("gather", data="operand", indices="idx", axis=a)
        p2, c, post = _gather(base, fill=fill, fill_value=fill_value, wrap=False, lead=a)
        del win
        return Source(op, attrs, ("operand", "start_indices"), c, pre=pre + p2, post=post, residuals=res,
                      layout=layout)
    raise _unsupported(op, dn, "no canonical family matches")


def _lax_scatter(op: str, reduction: str, dimension_numbers: Any, mode: Any) -> Source:
    dn = parse_scatter_dnums(_ctx(op), dimension_numbers)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    attrs: dict[str, Any] = {"dimension_numbers": dimension_numbers, "mode": mode}
    win, ins, smap, ob, sb = (tuple(f) for f in dn)
    k, b = len(smap), len(ob)
    r = len(win) + len(ins) + b
    kw: dict[str, Any] = dict(reduction=reduction, negative="bounds",
                              bounds="clip" if m is GatherScatterMode.CLIP else "drop",
                              duplicates_specified=reduction != "none")
    res = [Residual("empty", "returns operand unchanged when the updates or the operand are empty",
                    "checks the indices")]
    layout: dict[str, Any] = {"index_dtypes": _INT, "nonfinite": 0.1 if reduction in ("max", "min") else 0.0}
    inputs = ("operand", "scatter_indices", "updates")
    # element-wise first: it also matches a batched nd form when the axis is the last dim
    if k == 1 and ins == smap and not win:
        a = smap[0]
        others = tuple(d for d in range(r) if d != a)
        if ob == others and sb == others:
            pre = [Step.adapt("squeeze", "idx", "scatter_indices", axis=-1, why="one-component index vectors")]
            c = canonical("scatter_elements", data="operand", indices="idx", updates="updates", axis=a, **kw)
            layout.update(full_index=True, rank=(r, r),
                          to_source=_expand_last("operand", "scatter_indices", ("updates",)))
            return Source(op, attrs, inputs, c, pre=pre, residuals=res, layout=layout)
    if k and smap == tuple(range(b, b + k)) and ins == smap and ob == tuple(range(b)) and sb == ob:
        n_win = r - b - k
        if win and win != tuple(range(win[0], win[0] + n_win)):
            raise _unsupported(op, dn, "the window dims must be the trailing update dims")
        layout.update(k=k, rank=(r, r))
        if win:
            q = win[0] + 1
            if q - 1 - b < 0:
                raise _unsupported(op, dn, "the window dims overlap the batch dims")
            layout["index_ndim"] = (q - 1 - b, q - 1 - b)
        c = canonical("scatter_nd", data="operand", indices="scatter_indices", updates="updates", batch_dims=b, **kw)
        return Source(op, attrs, inputs, c, residuals=res, layout=layout)
    if k == 1 and ins == smap and not ob and not sb:
        a = smap[0]
        if tuple(win[:a]) != tuple(range(a)):
            raise _unsupported(op, dn, "the window dims before the axis must lead the updates")
        tail = tuple(win[a:])
        q_i = tail[0] - a if tail else None
        if tail and (q_i is None or q_i < 0 or tail != tuple(range(a + q_i, a + q_i + len(tail)))):
            raise _unsupported(op, dn, "the index dims must sit at the axis in the updates")
        pre = [Step.adapt("squeeze", "idx", "scatter_indices", axis=-1, why="one-component index vectors"),
               Step.adapt("moveaxis", "operand0", "operand", source=a, destination=0,
                          why="rows along the axis: move it first (docs/semantics.md#e17)"),
               Step.adapt("moveaxis_block", "upd", "updates", "idx", "operand", axis=a,
                          why="the updates' index dims sit at the axis: move them first")]
        c = canonical("scatter_nd", data="operand0", indices="scatter_indices", updates="upd", out="y", **kw)
        post = [Step.adapt("moveaxis", "out", "y", source=0, destination=a, why="move the axis back")]
        layout.update(k=1, rank=(r, r), to_source=_rows_args(a))
        if q_i is not None:
            layout["index_ndim"] = (q_i, q_i)
        return Source(op, attrs, inputs, c, pre=pre, post=post, residuals=res, layout=layout)
    raise _unsupported(op, dn, "no canonical family matches")


def _rows_args(a: int) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        d, i, u = canon["data"], canon["indices"], canon["updates"]
        q = i.ndim - 1
        perm = list(range(q, q + a)) + list(range(q)) + list(range(q + a, u.ndim))
        return {"operand": np.ascontiguousarray(np.moveaxis(d, 0, a)), "scatter_indices": i,
                "updates": np.ascontiguousarray(np.transpose(u, perm))}

    return mapper


@source("jax.lax.scatter")
def lax_scatter(dimension_numbers: Any, mode: Any = None) -> Source:
    return _lax_scatter("jax.lax.scatter", "none", dimension_numbers, mode)


@source("jax.lax.scatter_add")
def lax_scatter_add(dimension_numbers: Any, mode: Any = None) -> Source:
    return _lax_scatter("jax.lax.scatter_add", "add", dimension_numbers, mode)


@source("jax.lax.scatter_mul")
def lax_scatter_mul(dimension_numbers: Any, mode: Any = None) -> Source:
    return _lax_scatter("jax.lax.scatter_mul", "mul", dimension_numbers, mode)


@source("jax.lax.scatter_max")
def lax_scatter_max(dimension_numbers: Any, mode: Any = None) -> Source:
    return _lax_scatter("jax.lax.scatter_max", "max", dimension_numbers, mode)


@source("jax.lax.scatter_min")
def lax_scatter_min(dimension_numbers: Any, mode: Any = None) -> Source:
    return _lax_scatter("jax.lax.scatter_min", "min", dimension_numbers, mode)
