"""Adapters written once, against a small vocabulary of array primitives; each target implements the vocabulary.

Every adapter is a function here, ``adapter(v, *values, **attrs)``, whose only operations on values are calls
of the vocabulary ``v`` (attributes are plain Python). A rank, a dtype, a size or a None input is known before
the code runs in NumPy and ONNX but only when it runs in generated Python code: an adapter that branches on one
says so with ``v.cond(c, then, other)`` (a conditional expression in source text; the branch taken elsewhere)
and loops with ``v.seq(n, fn)``/``v.each(xs, fn)`` (comprehensions in source text). The targets implement the
vocabulary once:

* :class:`NumpyVocab` computes with NumPy (the adapters' definitions, what :meth:`Program.run` evaluates);
* :class:`PyVocab` writes Python source in one framework's API (numpy, jax, torch, tensorflow, paddle, mxnet
  through :class:`~.codegen_python.Api`): values are expression strings, and an axis size read with
  ``x.shape[a]`` is a plain Python int (:class:`Int`);
* :class:`OvVocab` writes ``openvino.opset15`` calls;
* :class:`OnnxVocab` adds ONNX nodes to a :class:`~.onnx_export.Builder` and carries each value's NumPy
  value alongside (for dtypes and ranks); opset quirks (no integer ``Max`` before 12, a zero ``Mod`` divisor
  refused by onnxruntime) live there.

Adding an adapter: a function here (registered with :func:`adapter` under its
``dialects._record.ADAPTER_PARAMS`` declaration) and a row of inputs in ``tests/translate/test_emitters.py``;
every target then has it (a new primitive: one entry or method in each vocabulary).

>>> import numpy as np
>>> DEFS["normalize_negative"](NUMPY, np.array([-1, 0, 2]), np.zeros((3, 2)), axis=0)
array([2, 0, 2])
>>> from .codegen_python import TorchApi
>>> DEFS["normalize_negative"](PyVocab(TorchApi()), "i", "data", axis=0)
'torch.where(i < 0, i + data.shape[0], i)'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partialmethod
from typing import Any, ClassVar

import numpy as np

from ..dialects._common import POINTWISE
from ..dialects._record import ADAPTER_PARAMS
from ..dialects._segment import empty_value
from ..errors import ArgumentError, ShapeError, UnsupportedError

__all__ = ["DEFS", "NUMPY", "Int", "NumpyVocab", "OnnxVocab", "OvVocab", "PyVocab", "adapter", "default_fill_value",
           "identity_value"]

Array = np.ndarray[Any, Any]

#: adapter name -> its single definition ``fn(vocab, *values, **attrs)``
DEFS: dict[str, Callable[..., Any]] = {}


def adapter(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as the definition of the adapter ``name`` (declared in ``ADAPTER_PARAMS``)."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name not in ADAPTER_PARAMS:
            raise AssertionError(f"adapter {name} is not declared in dialects._record.ADAPTER_PARAMS")
        DEFS[name] = fn
        return fn

    return deco


def identity_value(reduction: str, dtype: np.dtype[Any]) -> Any:
    """The neutral element of ``reduction`` in ``dtype`` (what docs/semantics.md#e10 pre-fills)."""
    from ..core.policy import Reduction

    r = Reduction(reduction)
    dt = np.dtype(dtype)
    if r in (Reduction.ADD, Reduction.SUB, Reduction.MEAN):
        return dt.type(0)
    if r is Reduction.MUL:
        return dt.type(1)
    if dt.kind == "b":
        return dt.type(r is Reduction.MIN)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return dt.type(info.min if r is Reduction.MAX else info.max)
    if dt.kind == "f" or dt.kind == "V":
        return dt.type(-np.inf if r is Reduction.MAX else np.inf)
    raise UnsupportedError(f"no {r.value} identity for {dt}")


def default_fill_value(dtype: np.dtype[Any]) -> Any:
    """JAX's fill value of a fill-mode gather: NaN (inexact), iinfo.min (signed), iinfo.max (unsigned), True (bool)."""
    dt = np.dtype(dtype)
    if dt.kind in "fcV":
        return dt.type(np.nan) if dt.kind != "V" else np.asarray(np.nan).astype(dt)
    if dt.kind == "i":
        return dt.type(np.iinfo(dt).min)
    if dt.kind == "u":
        return dt.type(np.iinfo(dt).max)
    if dt.kind == "b":
        return dt.type(True)
    raise UnsupportedError(f"no default fill value for {dt}")


# ------------------------------------------------------------------------------------------------ adapters


def _primitive(name: str, prim: str, attrs: tuple[str, ...], doc: str) -> None:
    """Register the adapter ``name`` that is one primitive (``prim``: its name and any leading words, passed first;
    then the values and the attributes in ``attrs`` order)."""
    method, *lead = prim.split()

    def fn(v: Any, *values: Any, **kw: Any) -> Any:
        return getattr(v, method)(*lead, *values, *[kw[a] for a in attrs])

    fn.__doc__ = doc
    adapter(name)(fn)


for _name, (_prim, _attrs, _doc) in {  # the adapters that are one primitive of the vocabulary
    "moveaxis": ("moveaxis", ("source", "destination"), "``np.moveaxis(x, source, destination)`` (a Transpose)."),
    "expand_dims": ("expand_dims", ("axis",), "``np.expand_dims(x, axis)`` (an Unsqueeze)."),
    "squeeze": ("squeeze", ("axis",), "``np.squeeze(x, axis)`` (drop one size-1 axis; the inverse of expand_dims)."),
    "flatten": ("flatten", (), "``x.reshape(-1)``."),
    "cast": ("cast", ("dtype",), "``x.astype(dtype)`` (float -> int truncates toward zero)."),
    "negative": ("neg", (), "``-x`` (turns a subtracting scatter into an adding one: exact, wraps like the "
                            "subtraction; not bool)."),
    "zeros_like": ("zeros_like", (), "``zeros_like(x)``."),
    "ones_like": ("ones_like", (), "``ones_like(x)``."),
    "shape_of": ("shape_of", (), "``tuple(x.shape)`` (a shape argument: MXNet/Paddle ``scatter_nd(..., shape)``)."),
    "zeros": ("zeros", (), "``zeros(shape, like.dtype)`` (TF ``scatter_nd``'s implicit zero tensor)."),
    "broadcast_indices": ("broadcast_off_axis", ("axis",), "Broadcast ``i`` against ``data`` on every axis but "
                          "``axis`` (``take_along_axis`` rules)."),
}.items():
    _primitive(_name, _prim, _attrs, _doc)


@adapter("normalize_negative")
def normalize_negative(v: Any, i: Any, data: Any, *, axis: int | None = None, batch_dims: int | None = None) -> Any:
    """``i + s * (i < 0)``, ``s`` the addressed axis size (per tuple component in the nd form): an index below
    ``-s`` stays negative, so a target that rejects negatives still raises where the source does."""
    return v.where(v.lt(i, 0), v.add(i, v.size(data, i, axis, batch_dims)), i)


@adapter("clip_index")
def clip_index(v: Any, i: Any, data: Any, *, axis: int | None = None, batch_dims: int | None = None) -> Any:
    """``clip(i, 0, s - 1)`` (NumPy/MXNet ``mode='clip'``, XLA clamp)."""
    return v.clip(i, 0, v.maximum(v.sub(v.size(data, i, axis, batch_dims), 1), 0))


@adapter("wrap_index")
def wrap_index(v: Any, i: Any, data: Any, *, axis: int | None = None, batch_dims: int | None = None) -> Any:
    """``i mod s`` (NumPy ``mode='wrap'``; a size-0 axis gives 0, out of range for the target)."""
    return v.mod(i, v.size(data, i, axis, batch_dims))


@adapter("valid_mask")
def valid_mask(v: Any, i: Any, data: Any, *, axis: int | None = None, batch_dims: int | None = None) -> Any:
    """``0 <= i < s`` (after negative handling), reduced over the tuple axis in the nd form."""
    ok = v.and_(v.ge(i, 0), v.lt(i, v.size(data, i, axis, batch_dims)))
    return ok if axis is not None else v.all_last(ok)


@adapter("scale")
def scale(v: Any, x: Any, *, alpha: Any) -> Any:
    """``alpha * x`` (torch ``index_add(alpha=)``), in ``x``'s dtype."""
    return v.mul(x, v.lit(alpha, x))


@adapter("identity_like")
def identity_like(v: Any, x: Any, *, reduction: str) -> Any:
    """``full_like(x, e)``, ``e`` the reduction's neutral element (0, 1, -inf/lowest, +inf/highest)."""
    return v.full_like(x, v.identity(x, reduction))


@adapter("full_updates")
def full_updates(v: Any, i: Any, data: Any, *, value: Any) -> Any:
    """``full(i.shape, value, data.dtype)``: updates for a scalar ``value`` (torch ``scatter(value=)``)."""
    return v.broadcast_to(v.lit(value, data), v.shape_of(i))


@adapter("reshape_like")
def reshape_like(v: Any, x: Any, like: Any) -> Any:
    """``x.reshape(like.shape)`` (undo a ``flatten``: NumPy ``put``/``put_along_axis(axis=None)`` write the
    flattened array)."""
    return v.reshape(x, v.shape_of(like))


@adapter("select")
def select(v: Any, mask: Any, x: Any, y: Any) -> Any:
    """``where(mask != 0, x, y)`` (``mask`` numeric or bool, ``x`` and ``y`` of one dtype)."""
    return v.where(v.truthy(mask), x, y)


@adapter("mask_result")
def mask_result(v: Any, y: Any, mask: Any, *, lead: int | None = None, value: Any = None,
                reduction: str | None = None, trail: int | None = None) -> Any:
    """``where(mask, y, value)``, ``mask`` aligned to ``y``'s dims starting at ``lead`` (or ending ``trail`` dims
    before ``y``'s last: a gather along a negative axis); ``value=None`` with ``reduction``: its identity."""
    fill = v.identity(y, reduction) if value is None and reduction else value
    at = v.rank(y) - v.rank(mask) - trail if trail is not None else (lead or 0)
    return v.where(v.align(mask, y, at), y, v.lit(fill, y))


@adapter("mask_fill_default")
def mask_fill_default(v: Any, y: Any, mask: Any, *, lead: int = 0, trail: int | None = None) -> Any:
    """``mask_result`` with JAX's default fill of ``y``'s dtype (:func:`default_fill_value`)."""
    return mask_result(v, y, mask, lead=lead, trail=trail, value=v.default_fill(y))


def _nd_update_shape(v: Any, i: Any, data: Any, batch_dims: int | None) -> Any:
    """``i.shape[:-1] + data.shape[b + k:]`` (``k = i.shape[-1]``): the updates of an nd scatter."""
    return v.concat([v.shape_of(i, 0, -1), v.shape_of(data, v.tuple_len(i) + (batch_dims or 0))])


@adapter("full_slices")
def full_slices(v: Any, i: Any, data: Any, *, value: Any, batch_dims: int = 0) -> Any:
    """``full(i.shape[:-1] + data.shape[b + k:], value, data.dtype)``: nd scatter updates that are one scalar
    (``torch.index_fill``)."""
    return broadcast_updates(v, v.lit(value, data), i, data, batch_dims=batch_dims)


@adapter("broadcast_updates")
def broadcast_updates(v: Any, u: Any, i: Any, data: Any, *, batch_dims: int = 0) -> Any:
    """Broadcast ``u`` (keeping its dtype) to the nd scatter update shape ``i.shape[:-1] + data.shape[b + k:]``:
    values that broadcast to ``x[idx]`` (``torch.index_put``, JAX ``x.at[idx].set``, NumPy ``ufunc.at``)."""
    return v.broadcast_to(u, _nd_update_shape(v, i, data, batch_dims))


@adapter("unflatten_index")
def unflatten_index(v: Any, y: Any, i: Any, *, axis: int) -> Any:
    """``y.reshape(y.shape[:a] + i.shape + y.shape[a+1:])``: axis ``a`` of ``y`` was read with
    ``i.reshape(-1)`` (``torch.index_select``/``paddle.gather`` take 1-D indices); give it ``i``'s shape."""
    a = axis % v.rank(y)
    return v.reshape(y, v.concat([v.shape_of(y, 0, a), v.shape_of(i), v.shape_of(y, a + 1)]))


@adapter("slice_to_index")
def slice_to_index(v: Any, x: Any, i: Any, *, axis: int) -> Any:
    """``x[:n0, ..., :, ..., :n_{r-1}]`` with ``n_d = i.shape[d]`` on every dim but ``axis``: the data block a
    non-broadcasting element-wise gather reads (``torch.gather`` allows a smaller index; NumPy-style
    ``take_along_axis`` would try to broadcast it)."""
    a = axis % v.rank(x)
    return v.leading_block(x, v.concat([v.shape_of(i, 0, a), v.shape_of(x, a, a + 1), v.shape_of(i, a + 1)]))


@adapter("merge_leading")
def merge_leading(v: Any, x: Any, *, count: int) -> Any:
    """Merge the first ``count`` dims into one: ``x.reshape((prod(x.shape[:count]),) + x.shape[count:])``
    (OpenVINO GatherND-5 flattens the batch dims)."""
    if count <= 1:
        return x
    return v.reshape(x, v.concat([v.prod(v.shape_of(x, 0, count)), v.shape_of(x, count)]))


def _op(a: Any, op: str, b: Any) -> Any:
    """``a op b`` (``==``, ``<``, ``or``; ``max``: ``max(a, b)``, ``range``: ``list(range(a, b))``) of ints/bools,
    or its text when either is run-time text (:class:`Int`)."""
    if isinstance(a, str) or isinstance(b, str):
        return Int({"max": f"max({a}, {b})", "range": f"list(range({a}, {b}))"}.get(op, f"({a} {op} {b})"))
    return {"==": a == b, "<": a < b, "or": a or b, "max": max(a, b), "range": list(range(a, b))}[op]


@adapter("moveaxis_block")
def moveaxis_block(v: Any, x: Any, i: Any, data: Any, *, axis: int) -> Any:
    """Move the ``i.ndim`` dims of ``x`` that start at ``axis`` (normalised by ``data.ndim``) to the front: a
    Gather-shaped tensor (OpenVINO ``ScatterUpdate``'s updates) becomes the updates of an nd scatter into
    ``moveaxis(data, axis, 0)``."""
    a, q = axis % _op(v.rank(data), "max", 1), v.rank(i)
    return v.moveaxis(x, _op(a, "range", a + q), _op(0, "range", q))


@adapter("divide_counts")
def divide_counts(v: Any, total: Any, count: Any, data: Any, *, rounding: str = "floor") -> Any:
    """Mean from sum and count: ``total / count`` where ``count > 0``, ``data`` elsewhere (in the data dtype;
    integers divide with floor or, ``rounding='trunc'``, toward zero)."""
    none = v.eq(count, 0)
    return v.where(none, data, v.div(total, v.where(none, v.lit(1, count), count), rounding))


@adapter("broadcast_data")
def broadcast_data(v: Any, x: Any, i: Any, *, axis: int | None) -> Any:
    """Broadcast ``x`` to ``i``'s shape (``axis=None``), or on every axis but ``axis``."""
    return v.broadcast_to(x, v.shape_of(i)) if axis is None else v.broadcast_off_axis(x, i, axis)


# ------------------------------------------- adapters that branch on a rank, a dtype or None (``v.cond``, ``v.seq``)
# A condition is a plain bool where the target knows it (NumPy, ONNX) and source text where it is known only
# when the code runs (``Int``): ``v.cond`` then writes a conditional expression, ``v.seq`` a comprehension.


@adapter("slice_like")
def slice_like(v: Any, x: Any, like: Any) -> Any:
    """``x[:n0, :n1, ...]`` with ``like``'s shape (torch reads only the index-shaped block of ``src``); a 0-d
    ``x`` or ``like`` is reshaped to ``like``'s shape when the sizes agree."""
    return v.cond(_op(_op(v.rank(x), "==", 0), "or", _op(v.rank(like), "==", 0)),
                  lambda: v.cond(v.same_size(x, like), lambda: v.reshape(x, v.shape_of(like)), lambda: x),
                  lambda: v.leading_block(x, v.shape_of(like)))


@adapter("coordinates")
def coordinates(v: Any, i: Any, *, axis: int) -> Any:
    """Full index tuples for an element-wise index (docs/semantics.md#e4): ``C[..., a] = i``, ``C[..., d] = iota_d``
    elsewhere (int64; a 0-d ``i`` gives an empty tuple)."""
    r = v.rank(i)
    return v.cond(_op(r, "==", 0), lambda: v.i64([]), lambda: v.stack_last(v.seq(r, lambda d: v.cond(
        _op(d, "==", axis % r), lambda: v.as_dtype(i, "int64"), lambda: v.iota(v.shape_of(i), d, r)))))


@adapter("stack_last")
def stack_last(v: Any, seq: Any) -> Any:
    """Index tuples from a sequence of index arrays: ``stack(broadcast_arrays(*seq), -1)`` in their common dtype
    (docs/semantics.md#e12, docs/semantics.md#e15)."""
    dt = v.result_dtype(seq)
    parts = v.each(seq, lambda a: v.as_dtype(a, dt))
    shape = v.broadcast_shapes(parts)
    return v.stack_last(v.each(parts, lambda a: v.broadcast_to(a, shape)))


@adapter("unstack_last")
def unstack_last(v: Any, i: Any) -> Any:
    """A tuple of index arrays from index tuples on the last axis (for ``x[tuple]`` style targets)."""
    return v.tuple_(v.seq(v.tuple_len(i), lambda j: v.take_last(i, j)))


@adapter("take_coordinates")
def take_coordinates(v: Any, i: Any, data: Any, *, axis: int, batch_dims: int = 0) -> Any:
    """Element coordinates of a gather along ``axis`` with ``batch_dims`` (docs/semantics.md#e1/docs/semantics.md#e7,
    int64): ``C[p, m, t] = (p, i[p[:b], m], t)`` over the gather's output shape
    ``data.shape[:a] + i.shape[b:] + data.shape[a+1:]``; ``C.shape[-1] = data.ndim``."""
    r, q = v.rank(data), v.rank(i)
    a = axis % r
    b = batch_dims % q if batch_dims < 0 else batch_dims
    out = v.concat([v.shape_of(data, 0, a), v.shape_of(i, b), v.shape_of(data, a + 1)])
    rank = a + (q - b) + (r - a - 1)
    ii = v.reshape(v.as_dtype(i, "int64"), v.concat([v.shape_of(i, 0, b), v.ones(a - b), v.shape_of(i, b),
                                                  v.ones(r - a - 1)]))
    return v.stack_last(v.seq(r, lambda d: v.cond(
        _op(d, "<", a), lambda: v.iota(out, d, rank), lambda: v.cond(
            _op(d, "==", a), lambda: v.broadcast_to(ii, out), lambda: v.iota(out, d + q - b - 1, rank)))))


@adapter("nd_coordinates")
def nd_coordinates(v: Any, i: Any, data: Any, *, batch_dims: int = 0) -> Any:
    """Element coordinates of an nd index (tuples on the last axis, ``batch_dims`` shared leading dims):
    ``C[β, m, t] = (β, i[β, m], t)`` over ``i.shape[:-1] + data.shape[b+k:]``; ``C.shape[-1] = data.ndim``
    (int64). Turns any gather_nd/scatter_nd into one over single elements without batch dims."""
    b, k, r = batch_dims, v.tuple_len(i), v.rank(data)
    lead = v.rank(i) - 1
    out = v.concat([v.shape_of(i, 0, -1), v.shape_of(data, b + k)])
    rank = lead + (r - b - k)
    ii = v.as_dtype(i, "int64")
    tail = v.concat([v.shape_of(i, 0, -1), v.ones(r - b - k)])
    return v.cond(_op(r, "==", 0), lambda: v.zeros(v.concat([out, v.shape_of(i, -1)]), ii), lambda: v.stack_last(
        v.seq(r, lambda d: v.cond(_op(d, "<", b), lambda: v.iota(out, d, rank), lambda: v.cond(
            _op(d, "<", b + k), lambda: v.broadcast_to(v.reshape(v.take_last(ii, d - b), tail), out),
            lambda: v.iota(out, lead + d - b - k, rank))))))


@adapter("ravel_tuples")
def ravel_tuples(v: Any, i: Any, data: Any) -> Any:
    """Row-major flat offsets (int64) of index tuples (last axis, ``k`` components) into ``data.shape[:k]``; a
    tuple with a component outside ``[0, s)`` becomes ``prod(data.shape[:k])`` (one past the end), so a
    bounds-checking flat op (``np.take``/``np.put`` mode 'raise', ``torch.take``) raises on it."""
    ii = v.as_dtype(i, "int64")
    k = v.tuple_len(ii)
    inside = v.and_(v.ge(ii, 0), v.lt(ii, v.size(data, ii, None, 0)))
    off = v.sum_last(v.mul(v.where(inside, ii, v.lit(0, ii)), v.strides(data, k)))
    return v.where(v.all_last(inside), off, v.numel(data, 0, k))


@adapter("combine")
def combine(v: Any, x: Any, y: Any, *, reduction: str) -> Any:
    """Element-wise ``x (op) y`` for ``reduction`` add/sub/mul/max/min, in ``x``'s dtype (integers wrap,
    bool add/max is or, mul/min is and, sub is xor; max/min propagate NaN)."""
    logical = {"add": "or_", "max": "or_", "mul": "and_", "min": "and_", "sub": "xor"}[reduction]
    arith = {"add": "add", "sub": "sub", "mul": "mul", "max": "maximum", "min": "minimum"}[reduction]
    return v.cond(v.is_bool(x), lambda: getattr(v, logical)(x, v.truthy(y)),
                  lambda: v.cast_like(getattr(v, arith)(x, y), x))


def _cyclable(x: Array, i: Array) -> None:
    if x.size == 0 and i.size:
        raise ArgumentError("cycle_to: cannot cycle an empty v")


@adapter("cycle_to")
def cycle_to(v: Any, x: Any, i: Any) -> Any:
    """``x`` flattened and repeated cyclically (or cut) to ``i.size`` elements: ``np.resize(x.ravel(), i.size)``
    (NumPy ``put`` cycles a short ``v``). ``x`` must not be empty unless ``i`` is."""
    flat = v.flatten(x)
    v.check(_cyclable, x, i)
    n, m = v.count(i), v.count(flat)
    return v.head(v.tile(flat, v.div(v.sub(v.add(n, m), 1), v.maximum(m, 1), "floor")), n)


def _positions_shapes(w: Array | None, u: Array) -> None:
    if u.ndim == 0:
        raise ShapeError("positions: u must have a batch axis (rank >= 1); got a 0-d array")
    if w is not None and w.shape != u.shape[:1]:
        raise ShapeError(f"positions: w must have shape [{u.shape[0]}] (u.shape[0]); got {list(w.shape)}")


@adapter("positions")
def positions(v: Any, w: Any, u: Any, data: Any, *, axis: int, circular: bool = False) -> Any:
    """Write positions over ``u``'s shape: ``P[b, ..., j, ...] = w[b] + j``, ``j`` the index along ``axis``;
    ``(w[b] + j) mod data.shape[axis]`` (floor modulo, computed as ``(w[b] mod s + j) mod s``: no overflow)
    when ``circular``; ``w`` None reads as zeros (ONNX TensorScatter's KV-cache positions, int64)."""
    v.check(_positions_shapes, w, u)
    r = v.rank(u)
    a = axis % r
    j = v.iota(v.shape_of(u), a, r)

    def shifted() -> Any:
        start = v.reshape(v.as_dtype(w, "int64"), v.concat([v.shape_of(u, 0, 1), v.ones(r - 1)]))
        if not circular:
            return v.add(start, j)
        s = v.maximum(v.size(data, start, a, None), 1)
        return v.mod(v.add(v.mod(start, s), j), s)

    return v.cond(v.is_none(w), lambda: j, shifted)


# -------------------------------------------------------------------------------------- segment reductions
# TF, Paddle and TFLite ``segment_*``: an output canvas of one row per segment, means as sums beside counts.


@adapter("segment_count")
def segment_count(v: Any, i: Any) -> Any:
    """``i[-1] + 1`` (0 for an empty ``i``), in ``i``'s dtype: the number of segments of sorted ids (TF, Paddle and
    TFLite ``segment_*`` make ``segment_ids[-1] + 1`` output rows; the sortedness check stays the dialect's)."""
    return v.add(v.last(i, -1), 1)


@adapter("full_rows")
def full_rows(v: Any, n: Any, i: Any, data: Any, *, value: Any = None, reduction: str | None = None,
              finite: bool = False) -> Any:
    """``full((n,) + data.shape[i.ndim:], e, data.dtype)``: a segment reduction's output canvas, ``e`` = ``value``
    or ``reduction``'s identity, its finite limit if ``finite`` (``n`` a count: an int, a 0-d or 1-element array)."""
    e = value if value is not None else v.limit(data, reduction) if finite else v.identity(data, reduction)
    return v.broadcast_to(v.lit(e, data), v.concat([v.count_shape(n), v.shape_of(data, v.rank(i))]))


@adapter("with_ones")
def with_ones(v: Any, x: Any) -> Any:
    """``stack([x, ones_like(x)], -1)``: each element with a count of one beside it, so that one sum scatter also
    counts (TF's ``unsorted_segment_mean`` / ``sqrt_n`` take N as the sum of ones in the data dtype)."""
    return v.where(v.truthy(v.lit([1, 0], x)), v.expand_dims(x, -1), v.lit(1, x))


@adapter("mean_of_pairs")
def mean_of_pairs(v: Any, y: Any, *, sqrt: bool = False) -> Any:
    """``y[..., 0] / max(y[..., 1], 1)`` (``/ sqrt(...)`` when ``sqrt``) as Python's ``/`` on TF tensors: integers
    divide as float32 (<= 16 bits) or float64, floats in their dtype (the sums and counts of :func:`with_ones`)."""
    total, n = v.to_float(v.take_last(y, 0)), v.to_float(v.maximum(v.take_last(y, 1), 1))
    return v.div(total, v.sqrt(n) if sqrt else n, "floor")


# torch.segment_reduce and embedding_bag: the segment of each row, read from lengths (or offsets) along the reduced
# axis, and the bag of each entry.

_primitive("slice_last", "slice_last", ("start",), "``x[..., start:]`` (offsets without their first entry: one "
           "per segment end).")


@adapter("segment_ids")
def segment_ids(v: Any, s: Any, data: Any, *, axis: int, offsets: bool = False) -> Any:
    """The segment of each row of ``data`` along ``axis`` (int64, ``s.shape[:-1] + (data.shape[axis],)``).

    ``s`` holds segment lengths (the id of row ``p`` is ``#{k : e_k <= p}``, ``e = cumsum(s)``) or, with
    ``offsets``, segment boundaries (``#{k : s_k <= p} - 1``). Rows outside every segment get ``-1`` or
    ``len(segments)``: out of range, for a scatter that drops them.
    """
    e = v.cast(s, "int64")
    if offsets:
        return v.sub(v.bucketize(e, data, axis), 1)
    return v.bucketize(v.cumsum_last(e), data, axis)


@adapter("row_ids")
def row_ids(v: Any, x: Any) -> Any:
    """``ids[b, ...] = b`` over ``x``'s shape (int64; rank >= 1): the bag of each entry of a 2-D
    ``embedding_bag`` input (one bag per row), a running count of ones along the first axis."""
    ones = v.moveaxis(v.cast(v.ones_like(x), "int64"), 0, -1)
    return v.moveaxis(v.sub(v.cumsum_last(ones), 1), -1, 0)


@adapter("drop_index")
def drop_index(v: Any, ids: Any, i: Any, data: Any, *, value: int) -> Any:
    """``where(i == value mod data.shape[0], -1, ids)``: entries naming row ``value`` (``padding_idx``,
    negative counting from the end) get the out-of-range id -1, which a dropping scatter skips."""
    pad = v.mod(v.lit(value, i), v.size(data, i, 0, None))
    return v.where(v.eq(i, pad), v.lit(-1, ids), ids)


# ------------------------------------------------------------------------------- element-wise steps of composed ops
# JAX ``x.at[].divide/power/apply``, ``lax.scatter_apply``, MLX ``at[].divide``, NumPy's unary ``ufunc.at``: one
# scatter of the core, then (or before it) one of these, each ``v.pointwise(fn, ...)`` (NumPy: ``POINTWISE``).

#: the unary functions with one ONNX operator (``square``: ``Mul(y, y)``), for ``apply_counted``'s ``Loop``
_ONNX_UNARY = {"negative": "Neg", "absolute": "Abs", "square": "Square", "exp": "Exp", "sin": "Sin",
               "floor": "Floor", "sign": "Sign", "sqrt": "Sqrt", "logical_not": "Not", "cos": "Cos", "ceil": "Ceil"}

#: the unary functions torch spells as NumPy does (``torch.<name>``)
_TORCH_UNARY = frozenset({"negative", "absolute", "square", "exp", "sin", "floor", "sign", "sqrt"})

_NO_APPLY = ("apply_counted: applying a function once per update landing on a position needs a loop over the "
             "number of repeats, which this target's code does not spell (translate to 'gatherscatter', 'numpy', "
             "'jax' or 'torch': they run it)")


_primitive("divide_inexact", "pointwise divide_inexact", (), "``x / y``, true division; integer and bool operands "
           "first become float32 (8-32 bits) or float64 (64 bits), as JAX's ``true_divide`` (a zero divisor gives "
           "inf or NaN).")
_primitive("power", "pointwise power", (), "``x ** y`` in ``x``'s dtype (float32 computed in float64 and rounded "
           "once; an integer base with a negative integer exponent is refused).")


@adapter("reciprocal_like")
def reciprocal_like(v: Any, x: Any, like: Any) -> Any:
    """``reciprocal(x)`` (in ``x``'s dtype; integers and bool in float32), cast to ``like``'s dtype (MLX's
    ``at[].divide`` multiplies by these)."""
    return v.pointwise("cast_like", v.pointwise("reciprocal", x), like)


@adapter("apply_counted")
def apply_counted(v: Any, x: Any, count: Any, *, func: str) -> Any:
    """``x`` with the unary ufunc ``func`` applied ``count[k]`` times at each position ``k`` (``func`` by its
    NumPy name; the result cast back to ``x``'s dtype after each application)."""
    return v.pointwise("apply_n", x, count, func=func)


# ------------------------------------------------------------------------------------------- vocabularies


def _a(x: Any) -> Any:
    return np.asarray(x)


def _quiet(fn: Callable[..., Any], **errors: str) -> Callable[..., Any]:
    """``fn`` under ``np.errstate(**errors)`` (integer arithmetic wraps, as the frameworks' does)."""

    def run(*args: Any) -> Any:
        with np.errstate(**errors):  # type: ignore[arg-type]
            return fn(*args)

    return run


class Eager:
    """Control flow and sequences where every rank, dtype and size is known (NumPy, ONNX): plain Python."""

    def cond(self, c: Any, then: Callable[[], Any], other: Callable[[], Any]) -> Any:
        return then() if c else other()  # only the branch taken is built

    def seq(self, n: int, fn: Callable[[int], Any]) -> list[Any]:
        return [fn(d) for d in range(n)]

    def each(self, xs: Any, fn: Callable[[Any], Any]) -> list[Any]:
        return [fn(x) for x in xs]

    tuple_ = staticmethod(tuple)


class NumpyVocab(Eager):
    """The vocabulary in NumPy: the adapters' definitions (``ONE_LINE``: the primitives that are one expression)."""

    ONE_LINE: ClassVar[dict[str, Callable[..., Any]]] = {
        "lt": lambda x, y: _a(x) < y, "eq": lambda x, y: _a(x) == y, "ge": lambda x, y: _a(x) >= y,
        "and_": lambda x, y: _a(x) & _a(y), "or_": np.logical_or, "xor": np.logical_xor,
        "all_last": lambda x: np.all(x, axis=-1), "maximum": np.maximum, "minimum": np.minimum,
        "clip": lambda x, lo, hi: _a(np.clip(x, lo, hi)), "where": np.where, "truthy": lambda x: _a(x) != 0,
        "cast": lambda x, dtype: _a(x).astype(dtype), "as_dtype": lambda x, dtype: _a(x).astype(dtype),
        "cast_like": lambda x, like: _a(x).astype(_a(like).dtype),
        "moveaxis": lambda x, s, d: np.moveaxis(_a(x), s, d), "expand_dims": lambda x, a: np.expand_dims(_a(x), a),
        "flatten": lambda x: _a(x).reshape(-1), "reshape": lambda x, shape: _a(x).reshape(shape),
        "shape_of": lambda x, lo=0, hi=None: tuple(int(n) for n in np.shape(x)[lo:hi]),
        "zeros_like": lambda x: np.zeros_like(_a(x)), "ones_like": lambda x: np.ones_like(_a(x)),
        "full_like": lambda x, value: np.full_like(_a(x), value),
        "identity": lambda x, reduction: identity_value(reduction, _a(x).dtype),
        "limit": lambda x, reduction: empty_value("lowest" if reduction == "max" else "highest", _a(x).dtype),
        "default_fill": lambda x: default_fill_value(_a(x).dtype), "rank": lambda x: int(np.ndim(x)),
        "tuple_len": lambda i: int(np.shape(i)[-1]) if np.ndim(i) else 0,
        "zeros": lambda shape, like: np.zeros(tuple(int(n) for n in _a(shape).reshape(-1)), dtype=_a(like).dtype),
        "concat": lambda shapes: tuple(int(n) for s in shapes for n in s),
        "prod": lambda shape: (int(np.prod(shape, dtype=np.int64)),),  # a 1-element shape
        "leading_block": lambda x, ends: _a(x)[tuple(slice(0, int(n)) for n in ends)],  # x[:e0, :e1, ...]
        "is_none": lambda x: x is None, "is_bool": lambda x: bool(_a(x).dtype.kind == "b"),
        "same_size": lambda x, y: bool(np.size(x) == np.size(y)),
        "stack_last": lambda xs: np.stack([_a(x) for x in xs], axis=-1),
        "i64": lambda values: np.asarray(values, dtype=np.int64), "ones": lambda n: (1,) * n,  # the shape (1,) * n
        "result_dtype": lambda xs: np.result_type(*[_a(x).dtype for x in xs]),
        "take_last": lambda x, j: _a(x)[..., j], "sum_last": lambda x: np.sum(x, axis=-1, dtype=_a(x).dtype),
        "numel": lambda data, lo, hi: np.asarray(np.prod(np.shape(data)[lo:hi], dtype=np.int64)),  # 0-d int64
        "count": lambda x: int(np.size(x)), "head": lambda x, n: _a(x)[: int(n)],
        "tile": lambda x, reps: np.tile(_a(x), int(reps)),
        "last": lambda x, default: _a(x)[-1] if _a(x).size else np.asarray(default).astype(_a(x).dtype),  # x[-1]
        "count_shape": lambda n: (int(_a(n).reshape(-1)[0]),),  # the shape (n,) of a count n
        "sqrt": lambda x: _a(np.sqrt(x)), "cumsum_last": lambda x: np.cumsum(x, axis=-1, dtype=_a(x).dtype),
        "slice_last": lambda x, start: _a(x)[..., start:],
        "add": _quiet(lambda x, y: _a(x) + y, over="ignore"), "sub": _quiet(lambda x, y: _a(x) - y, over="ignore"),
        "mul": _quiet(lambda x, y: _a(_a(x) * y).astype(_a(x).dtype), over="ignore"),
        "mod": _quiet(lambda x, y: _a(np.mod(x, y)), divide="ignore", invalid="ignore"),
        "lit": _quiet(lambda value, like: _a(value).astype(_a(like).dtype), all="ignore"),
    }

    def __getattr__(self, name: str) -> Callable[..., Any]:
        fn = NumpyVocab.ONE_LINE.get(name)
        if fn is None:
            raise AttributeError(name)
        return fn

    def size(self, data: Any, i: Any, axis: int | None, batch_dims: int | None) -> Any:
        """The addressed axis size in ``i``'s dtype (0-d), or ``data.shape[b:b+k]`` (1-d) in the nd form."""
        data, i = np.asarray(data), np.asarray(i)
        if axis is not None:
            return np.asarray(data.shape[axis], dtype=i.dtype)
        b, k = batch_dims or 0, i.shape[-1] if i.ndim else 0
        return np.asarray(data.shape[b : b + k], dtype=i.dtype)

    def div(self, t: Any, c: Any, rounding: str) -> Any:
        """``t / c`` in ``t``'s dtype; integers with floor or (``rounding='trunc'``) toward zero."""
        t, c = np.asarray(t), np.asarray(c)
        if t.dtype.kind not in "iu":
            return (t / c).astype(t.dtype)
        return t // c if rounding == "floor" else np.trunc(np.true_divide(t, c)).astype(t.dtype)

    def neg(self, x: Any) -> Any:
        x = np.asarray(x)
        if x.dtype.kind == "b":
            raise UnsupportedError("negative: bool has no additive inverse (a bool 'sub' scatter is XOR)")
        with np.errstate(over="ignore"):
            return np.asarray(np.negative(x))

    def squeeze(self, x: Any, axis: int) -> Any:
        x = np.asarray(x)
        if not -x.ndim <= axis < x.ndim or x.shape[axis] != 1:
            raise ShapeError(f"squeeze: axis {axis} of a {list(x.shape)} array is not a size-1 axis")
        return np.squeeze(x, axis)

    def broadcast_to(self, x: Any, shape: Any) -> Any:
        try:
            return np.broadcast_to(x, tuple(shape))
        except ValueError:
            raise ShapeError(f"{list(np.shape(x))} does not broadcast to {list(shape)}") from None

    def broadcast_off_axis(self, x: Any, other: Any, axis: int) -> Any:
        """Broadcast ``x`` against ``other`` on every dim but ``axis`` (equal ranks), keeping ``x``'s size there."""
        x, other = np.asarray(x), np.asarray(other)
        try:
            shape = list(np.broadcast_shapes(tuple(np.delete(x.shape, axis)), tuple(np.delete(other.shape, axis))))
        except ValueError:
            raise ShapeError(f"{list(x.shape)} and {list(other.shape)} do not broadcast off axis {axis}") from None
        axis = axis % max(x.ndim, 1)
        shape.insert(axis, x.shape[axis])
        return np.broadcast_to(x, tuple(shape))

    def align(self, mask: Any, y: Any, lead: int) -> Any:
        """``mask`` with size-1 dims around it so its dims sit at dim ``lead`` of ``y``."""
        mask, y = np.asarray(mask), np.asarray(y)
        m = mask.reshape((1,) * lead + mask.shape + (1,) * max(y.ndim - lead - mask.ndim, 0))
        try:
            if lead < 0 or np.broadcast_shapes(m.shape, y.shape) != y.shape:
                raise ValueError
        except ValueError:
            raise ShapeError(f"a mask of shape {list(mask.shape)} (at dim {lead}) does not line up with "
                             f"a result of shape {list(y.shape)}") from None
        return m

    def check(self, fn: Callable[..., None], *values: Any) -> None:
        """Run ``fn`` (which raises a typed error) on the values where they are known before run time."""
        fn(*[None if x is None else np.asarray(x) for x in values])

    def iota(self, shape: Any, d: int, rank: int) -> Any:
        """``np.indices(shape)[d]`` (int64), ``shape`` of length ``rank``."""
        shape = tuple(int(n) for n in shape)
        line = np.arange(shape[d], dtype=np.int64).reshape((1,) * d + (-1,) + (1,) * (rank - d - 1))
        return np.broadcast_to(line, shape)

    def broadcast_shapes(self, xs: Any) -> tuple[int, ...]:
        try:
            return tuple(np.broadcast_shapes(*[np.shape(x) for x in xs]))
        except ValueError:
            raise ShapeError(f"shapes {[list(np.shape(x)) for x in xs]} do not broadcast together") from None

    def strides(self, data: Any, k: int) -> Any:
        """Row-major strides of ``data.shape[:k]`` (int64, 1-d)."""
        s = np.shape(data)[:k]
        return np.asarray([int(np.prod(s[d + 1 :], dtype=np.int64)) for d in range(k)], dtype=np.int64)

    def to_float(self, x: Any) -> Any:
        """Integers as Python's ``/`` on TF tensors takes them: float32 (<= 16 bits) or float64; others as they are."""
        x = np.asarray(x)
        return x if x.dtype.kind not in "iu" else x.astype(np.float32 if x.dtype.itemsize <= 2 else np.float64)

    def bucketize(self, e: Any, data: Any, axis: int) -> Any:
        """``out[..., p] = #{k : e[..., k] <= p}`` for ``p`` in ``range(data.shape[axis])`` (int64)."""
        p = np.arange(np.shape(data)[axis], dtype=np.int64)
        return np.sum(np.expand_dims(np.asarray(e), -1) <= p, axis=-2, dtype=np.int64)

    def pointwise(self, fn: str, *xs: Any, **kw: Any) -> Any:
        """The element-wise steps of composed ops (:data:`~..dialects._common.POINTWISE`)."""
        return POINTWISE[fn](*[np.asarray(x) for x in xs], **kw)


NUMPY = NumpyVocab()


class Int(str):
    """Source text whose value is a plain Python int at run time (a size or rank read from ``.shape``):
    ``+``/``-`` with ints or other ``Int`` write the arithmetic as text."""

    def __add__(self, other: Any) -> Int:
        return self if isinstance(other, int) and other == 0 else Int(f"{self} + {other}")

    def __radd__(self, other: Any) -> Int:
        return self if isinstance(other, int) and other == 0 else Int(f"{other} + {self}")

    def __sub__(self, other: Any) -> Int:
        return Int(f"{self} - ({other})" if " " in str(other) else f"{self} - {other}")

    def __rsub__(self, other: Any) -> Int:
        return Int(f"{other} - ({self})")

    def __rmod__(self, other: Any) -> Int:
        return Int(f"{other} % {self}")


def _atom(x: Any) -> Any:
    """``x``, parenthesised when it is text with an operator outside brackets (``a + b`` -> ``(a + b)``)."""
    if not isinstance(x, str):
        return x
    depth = 0
    for ch in x:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == " " and depth == 0:
            return type(x)(f"({x})")
    return x


class Dt(str):
    """Source text whose value is a dtype of the target framework at run time (``cast`` takes it as is)."""


def _lit(v: Any) -> str:
    from .codegen_python import lit

    return lit(v)


class TextVocab:
    """The vocabulary as source text: ``FORMS`` spells most primitives (``{0}``, ``{1}`` ... the arguments, a
    number becoming ``NUM`` with ``{like}`` the first argument); ``INTS`` are the primitives whose value is a
    Python int at run time (:class:`Int`)."""

    FORMS: ClassVar[dict[str, str]] = {}
    INTS: ClassVar[frozenset[str]] = frozenset({"rank", "tuple_len"})
    NUM: ClassVar[str] = "{v}"
    TIGHT: ClassVar[frozenset[str]] = frozenset()  # operators whose compound operands need parentheses
    NUMERIC: ClassVar[frozenset[str]] = frozenset({"eq", "lt", "ge", "add", "sub", "mul", "mod", "maximum",
                                                                   "minimum", "clip"})

    def _t(self, x: Any, like: Any) -> str:
        return x if isinstance(x, str) else self.NUM.format(v=_lit(x), like=like)

    def __getattr__(self, name: str) -> Callable[..., str]:
        form = type(self).FORMS.get(name)
        if form is None:
            raise AttributeError(name)

        def prim(*args: Any) -> str:
            if name in self.NUMERIC:  # number operands become constants of the first operand's dtype
                args = tuple(a if i == 0 else self._t(a, args[0]) for i, a in enumerate(args))
            if name in self.TIGHT:
                args = tuple(_atom(a) for a in args)
            text = form.format(*args)
            return Int(text) if name in self.INTS else text

        return prim

    def lit(self, value: Any, like: str) -> str:
        return self.NUM.format(v=value if isinstance(value, str) else _lit(value), like=like)

    # control flow and sequences: conditional expressions and comprehensions, run where the code runs
    _depth = 0

    def cond(self, c: Any, then: Callable[[], Any], other: Callable[[], Any]) -> Any:
        if isinstance(c, (bool, np.bool_)):  # known now
            return then() if c else other()
        return f"({then()} if {c} else {other()})"

    def _loop(self, fn: Callable[[Any], Any], over: str) -> str:
        var = "jkmn"[self._depth]
        self._depth += 1
        try:
            return f"[{fn(Int(var))} for {var} in {over}]"
        finally:
            self._depth -= 1

    def seq(self, n: Any, fn: Callable[[Any], Any]) -> str:
        return self._loop(fn, f"range({n})")

    def each(self, xs: str, fn: Callable[[Any], Any]) -> str:
        return self._loop(fn, xs)

    def tuple_(self, xs: str) -> str:
        return f"tuple({xs})"

    def check(self, fn: Callable[..., None], *values: Any) -> None:
        """Nothing: the values are known only when the code runs (the target's ops reject bad shapes)."""

    def is_none(self, x: str) -> Int:
        return Int(f"{x} is None")


class PyVocab(TextVocab):
    """The vocabulary as Python source in one framework's API (``api``: a :class:`~.codegen_python.Api`):
    ``FORMS`` spell the primitives that are plain Python, ``CALLS`` those written with the framework's API."""

    FORMS: ClassVar[dict[str, str]] = {
        "eq": "{0} == {1}", "lt": "{0} < {1}", "ge": "{0} >= {1}", "and_": "(({0}) & ({1}))", "add": "{0} + {1}",
        "mul": "{0} * {1}", "mod": "{0} % {1}", "neg": "-{0}", "rank": "len({0}.shape)", "tuple_len": "{0}.shape[-1]",
        "align": "_align({0}, {1}, {2})", "prod": "(math.prod({0}),)",
        "leading_block": "{0}[tuple(slice(0, n) for n in {1})]",
        "same_size": "math.prod({0}.shape) == math.prod({1}.shape)", "iota": "_iota({0}, {1})",
        "ones": "(1,) * ({0})", "take_last": "{0}[..., {1}]", "count": "math.prod({0}.shape)", "head": "{0}[:{1}]",
        "count_shape": "(int({0}),)", "slice_last": "{0}[..., {1}:]",
        "broadcast_shapes": "tuple(np.broadcast_shapes(*[tuple(a.shape) for a in {0}]))"}
    INTS: ClassVar[frozenset[str]] = frozenset({"rank", "tuple_len", "same_size", "count", "is_bool"})
    TIGHT: ClassVar[frozenset[str]] = frozenset({"mul", "mod"})
    CALLS: ClassVar[dict[str, Callable[..., str]]] = {
        **{n: lambda api, *a, n=n: getattr(api, n)(*a) for n in (
            "all_last", "where", "moveaxis", "expand_dims", "squeeze", "reshape", "broadcast_to", "zeros_like",
            "ones_like", "full_like", "sum_last", "tile", "is_bool")},
        "flatten": lambda api, x: api.flat(x), "truthy": lambda api, x: api.as_bool(x),
        "stack_last": lambda api, xs: api.stack(xs, -1), "minimum": lambda api, x, y: api.minimum(x, y),
        "sqrt": lambda api, x: f"{api.m}.sqrt({x})", "cumsum_last": lambda api, x: f"{api.m}.cumsum({x}, -1)",
        "or_": lambda api, x, y: api.logical("or", x, y), "xor": lambda api, x, y: api.logical("xor", x, y),
        "cast_like": lambda api, x, like: api.astype(x, f"{like}.dtype"),
        "i64": lambda api, values: api.const(repr(values), api.dt("int64")),
        "numel": lambda api, x, lo, hi: api.const(f"math.prod(tuple({x}.shape)[{lo}:{hi}])", api.dt("int64")),
        "strides": lambda api, x, k: api.const(f"[math.prod(tuple({x}.shape)[d + 1:{k}]) for d in range({k})]",
                                               api.dt("int64")),
        "identity": lambda api, x, reduction: f"_identity({api.dtype_name(x)}, {reduction!r})",
        "limit": lambda api, x, reduction: f"(np.finfo if np.dtype({api.dtype_name(x)}).kind == 'f' else np.iinfo)("
                 f"{api.dtype_name(x)}).{'min' if reduction == 'max' else 'max'}",  # a max/min's finite start
        "default_fill": lambda api, x: f"_default_fill({api.dtype_name(x)})",
        "zeros": lambda api, shape, like: api.zeros(f"tuple(int(n) for n in {shape})", f"{like}.dtype"),
        "broadcast_off_axis": lambda api, x, other, axis: api.broadcast_to(x, f"_off_axis_shape({x}, {other}, {axis})"),
    }

    def __init__(self, api: Any) -> None:
        self.api = api

    def __getattr__(self, name: str) -> Callable[..., str]:
        call = PyVocab.CALLS.get(name)
        if call is not None:
            return lambda *args: (Int if name in self.INTS else str)(call(self.api, *args))
        return super().__getattr__(name)

    def size(self, data: str, i: str, axis: int | None, batch_dims: int | None) -> str:
        if axis is not None:
            return Int(f"{data}.shape[{axis}]")
        return f"_sizes({data}, {i}, {batch_dims or 0})"

    def lit(self, value: Any, like: str) -> str:
        return str(self.api.const(value if isinstance(value, str) else _lit(value), f"{like}.dtype"))

    def _arith(self, op: str, x: str, y: Any) -> str:
        text = f"{x} {op} {self._t(y, x)}"
        return Int(text) if isinstance(x, Int) else text

    add = partialmethod(_arith, "+")
    sub = partialmethod(_arith, "-")

    def maximum(self, x: str, y: Any) -> str:
        if isinstance(x, Int):
            return Int(f"max({x}, {self._t(y, x)})")
        return str(self.api.maximum(x, self.lit(y, f"({x})") if not isinstance(y, str) else y))

    def clip(self, x: str, lo: Any, hi: str) -> str:
        if isinstance(hi, Int):
            return str(self.api.clip(x, self._t(lo, x), hi))
        return str(self.api.maximum(self.api.minimum(x, hi), self.api.zeros_like(x)))

    def div(self, t: str, c: str, rounding: str) -> str:
        if isinstance(t, Int):
            return Int(f"({t}) // ({c})")
        whole = f"{t} // {c}" if rounding == "floor" else self.api.trunc_div(t, c)
        return f"({whole} if {self.api.is_int(t)} else {self.api.true_div(t, c)})"

    def shape_of(self, x: str, lo: Any = 0, hi: Any = None) -> str:
        if lo == 0 and hi is None:
            return f"tuple({x}.shape)"
        return f"tuple({x}.shape[{'' if lo == 0 else lo}:{'' if hi is None else hi}])"

    def concat(self, shapes: list[str]) -> str:
        return " + ".join(shapes)

    def cast(self, x: str, dtype: str) -> str:
        return str(self.api.astype(x, dtype if isinstance(dtype, Dt) else self.api.dt(dtype)))

    as_dtype = cast  # the target converts in place of a no-op cast

    def result_dtype(self, xs: str) -> str:
        names = f"np.dtype({self.api.dtype_name('a')})"
        return Dt(self.api.dt_of(f"np.result_type(*[{names} for a in {xs}]).name"))

    def last(self, x: str, default: int) -> str:
        return f"({x}[-1] if {x}.shape[0] else {self.lit(default, x)})"

    def to_float(self, x: str) -> str:
        a, small = self.api, f"np.dtype({self.api.dtype_name(x)}).itemsize <= 2"
        return (f"(({a.astype(x, a.dt('float32'))} if {small} else {a.astype(x, a.dt('float64'))}) "
                f"if {a.is_int(x)} else {x})")

    def bucketize(self, e: str, data: str, axis: int) -> str:
        hit = f"({self.api.expand_dims(e, -1)} <= {self.api.arange(f'{data}.shape[{axis}]')})"
        return str(self.api.sum(self.api.astype(hit, self.api.dt("int64")), -2))

    def pointwise(self, fn: str, *xs: str, **kw: Any) -> str:
        """The element-wise steps of composed ops, in the framework's API (``apply_n``: none, see below)."""
        api = self.api

        def inexact(x: str, wide: bool) -> str:  # integers and bool to float32 (64-bit ints: float64 if wide)
            f = api.dt("float32") if not wide else f"({api.dt('float32')} if {x}.dtype.itemsize <= 4 else " \
                f"{api.dt('float64')})"
            return f"({api.astype(x, f)} if {api.is_int(x)} or {api.is_bool(x)} else {x})"

        if fn == "divide_inexact":
            return str(api.true_div(inexact(xs[0], True), inexact(xs[1], True)))
        if fn == "power":
            return f"({xs[0]} ** {xs[1]})"
        if fn == "reciprocal":
            r = inexact(xs[0], False)
            return str(api.true_div(api.const(1, f"{r}.dtype"), r))
        if fn == "cast_like":
            return str(self.api.astype(xs[0], f"{xs[1]}.dtype"))
        m, func = self.api.m, kw.get("func")
        if m in ("np", "jnp") or (m == "torch" and func in _TORCH_UNARY):  # the ufunc's name in the module
            step = self.api.where(f"{xs[1]} > _k", self.api.astype(f"{m}.{func}(_y)", "_y.dtype"), "_y")
            return (f"(_y := {xs[0]}, [_y := {step} for _k in range(int(np.max(np.asarray({xs[1]}), "
                    f"initial=0)))], _y)[-1]")
        raise UnsupportedError(_NO_APPLY)


class OvVocab(TextVocab):
    """The vocabulary as ``openvino.opset15`` calls (helpers ``_c``, ``_i64``, ``_sizes`` ... of the script)."""

    NUM: ClassVar[str] = "_c({v}, {like})"
    FORMS: ClassVar[dict[str, str]] = {
        "eq": "ops.equal({0}, {1})", "div": "_div({0}, {1}, {2!r})", "lt": "ops.less({0}, {1})",
        "ge": "ops.greater_equal({0}, {1})", "and_": "ops.logical_and({0}, {1})",
        "all_last": "ops.reduce_logical_and({0}, _i64(-1), False)", "add": "ops.add({0}, {1})",
        "sub": "ops.subtract({0}, {1})", "mul": "ops.multiply({0}, {1})", "mod": "ops.floor_mod({0}, {1})",
        "neg": "ops.negative({0})", "maximum": "_minmax(ops.maximum, {0}, {1})", "where": "ops.select({0}, {1}, {2})",
        "clip": "ops.maximum(ops.minimum({0}, {2}), {1})", "truthy": "ops.convert({0}, np.bool_)",
        "cast": "ops.convert({0}, np.{1})", "moveaxis": "_moveaxis({0}, {1}, {2})",
        "expand_dims": "ops.unsqueeze({0}, _i64([{1}]))", "squeeze": "ops.squeeze({0}, _i64([{1}]))",
        "flatten": "ops.reshape({0}, _i64([-1]), False)", "reshape": "ops.reshape({0}, {1}, False)",
        "broadcast_to": "ops.broadcast({0}, {1})", "broadcast_off_axis": "_broadcast_off_axis({0}, {1}, {2})",
        "zeros_like": "ops.broadcast(_c(0, {0}), ops.shape_of({0}, 'i64'))",
        "ones_like": "ops.broadcast(_c(1, {0}), ops.shape_of({0}, 'i64'))",
        "full_like": "ops.broadcast(_c({1}, {0}), ops.shape_of({0}, 'i64'))",
        "identity": "_identity(_dtype({0}), {1!r})", "default_fill": "_default_fill(_dtype({0}))",
        "rank": "_rank({0})", "tuple_len": "{0}.get_output_partial_shape(0)[-1].get_length()",
        "align": "_align({0}, {1}, {2})", "zeros": "ops.broadcast(_c(0, {1}), {0})",
        "prod": "ops.reduce_prod({0}, _i64([0]), True)",
        # StridedSlice, not Slice-8: the 2026.4 CPU plugin drops a Slice-8 feeding GatherElements
        "leading_block": "ops.strided_slice({0}, _i64([0] * _rank({0})), {1}, _i64([1] * _rank({0})), "
                         "[0] * _rank({0}), [0] * _rank({0}))",
        "minimum": "_minmax(ops.minimum, {0}, {1})", "iota": "_iota({0}, {1}, {2})",
        "stack_last": "ops.concat([ops.unsqueeze(a, _i64([-1])) for a in {0}], -1)",
        "broadcast_shapes": "ops.shape_of(_sum({0}), 'i64')", "take_last": "ops.gather({0}, _i64({1}), _i64(-1))",
        "sum_last": "ops.reduce_sum({0}, _i64(-1), False)", "strides": "_strides({0}, {1})",
        "numel": "ops.reduce_prod(_shape({0}, {1}, {2}), _i64(0), False)",
        "count": "(ops.reduce_prod(ops.shape_of({0}, 'i64'), _i64([0]), True) if _rank({0}) else _i64([1]))",
        "tile": "ops.tile({0}, {1})", "or_": "ops.logical_or({0}, {1})", "xor": "ops.logical_xor({0}, {1})",
        "cast_like": "ops.convert({0}, _dtype({1}))", "is_bool": "_dtype({0}).kind == 'b'",
        # dims are dynamic: a 0-d x that does not fit y fails the Reshape when the model runs
        "same_size": "True", "ones": "_i64([1] * ({0}))", "i64": "_i64(np.asarray({0!r}, dtype=np.int64))",
        "head": "ops.slice({0}, _i64([0]), {1}, _i64([1]))",
        "last": "ops.gather(ops.concat([ops.reshape(_c({1}, {0}), _i64([1]), False), {0}], 0), _i64(-1), _i64(0))",
        "count_shape": "ops.reshape(ops.convert({0}, np.int64), _i64([1]), False)", "sqrt": "ops.sqrt({0})",
        "to_float": "({0} if _dtype({0}).kind not in 'iu' else ops.convert({0}, np.float32 if "
                    "_dtype({0}).itemsize <= 2 else np.float64))",
        "cumsum_last": "ops.cumsum({0}, _i64(-1))",
        "slice_last": "ops.slice({0}, _i64([{1}]), _i64([2**62]), _i64([1]), _i64([-1]))"}
    INTS: ClassVar[frozenset[str]] = frozenset({"rank", "tuple_len", "is_bool", "same_size"})

    def size(self, data: str, i: str, axis: int | None, batch_dims: int | None) -> str:
        return f"_sizes({data}, {i}, axis={axis})" if axis is not None else \
            f"_sizes({data}, {i}, batch_dims={batch_dims or 0})"

    def shape_of(self, x: str, lo: Any = 0, hi: Any = None) -> str:
        return f"ops.shape_of({x}, 'i64')" if lo == 0 and hi is None else f"_shape({x}, {lo}, {hi})"

    def concat(self, shapes: list[str]) -> str:
        return f"_concat([{', '.join(shapes)}])"

    def cast(self, x: str, dtype: str) -> str:
        return f"ops.convert({x}, {dtype if isinstance(dtype, Dt) else 'np.' + dtype})"

    as_dtype = cast

    def result_dtype(self, xs: str) -> str:
        return Dt(f"np.result_type(*[_dtype(a) for a in {xs}])")

    def bucketize(self, e: str, data: str, axis: int) -> str:
        p = f"ops.range(_i64(0), ops.gather(ops.shape_of({data}, 'i64'), _i64({axis}), _i64(0)), _i64(1), 'i64')"
        hit = f"ops.less_equal(ops.unsqueeze({e}, _i64([-1])), {p})"
        # counted in float32 (exact below 2**24 segments): the 2026.4 CPU plugin miscomputes an int64 ReduceSum
        # followed by a Subtract (the offsets form's - 1)
        return f"ops.convert(ops.reduce_sum(ops.convert({hit}, np.float32), _i64(-2), False), np.int64)"

    #: the element-wise steps of composed ops (``apply_n``: none)
    POINTWISE: ClassVar[dict[str, str]] = {
        "divide_inexact": "ops.divide({0}, {1})", "power": "ops.power({0}, {1})",
        "reciprocal": "ops.divide(_c(1, {0}), {0})", "cast_like": "ops.convert_like({0}, {1})"}

    def pointwise(self, fn: str, *xs: str, **kw: Any) -> str:
        if fn not in self.POINTWISE:
            raise UnsupportedError(_NO_APPLY)
        return self.POINTWISE[fn].format(*xs)


class Val:
    """An ONNX graph value: its name and the example's NumPy value."""

    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value = name, value


class OnnxVocab(Eager):
    """The vocabulary as ONNX nodes added to ``b`` (a :class:`~.onnx_export.Builder`); values are :class:`Val`."""

    #: primitives that are one ONNX node (number operands become constants of the first operand's dtype)
    NODES: ClassVar[dict[str, str]] = {"eq": "Equal", "lt": "Less", "add": "Add", "sub": "Sub", "mul": "Mul",
                                       "and_": "And", "or_": "Or", "xor": "Xor", "neg": "Neg", "where": "Where",
                                       "broadcast_to": "Expand", "sqrt": "Sqrt"}

    def __init__(self, b: Any) -> None:
        self.b = b

    #: primitives whose result is known from the example's values (a rank, a dtype, a size, a fill value)
    STATIC: ClassVar[frozenset[str]] = frozenset({"identity", "default_fill", "rank", "is_bool", "same_size",
                                                  "result_dtype", "is_none", "check"})

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name in OnnxVocab.STATIC:
            def value(x: Any) -> Any:
                return [value(y) for y in x] if isinstance(x, list) else x.value if isinstance(x, Val) else x

            return lambda *args: getattr(NUMPY, name)(*[value(a) for a in args])
        op = OnnxVocab.NODES.get(name)
        if op is None:
            raise AttributeError(name)

        def prim(x: Val, *rest: Any) -> Val:
            args = [x, *[self._v(y, x) for y in rest]]
            if op in ("Add", "Sub", "Mul") and len({np.asarray(a.value).dtype for a in args}) > 1:
                common = np.result_type(*[np.asarray(a.value).dtype for a in args])  # numpy's promotion
                args = [self.as_dtype(a, common) for a in args]
            return self._node(op, args, getattr(NUMPY, name)(*[a.value for a in args]))

        return prim

    def input(self, name: str) -> Any:
        """The graph value ``name`` (a list of values for a tuple of arrays)."""
        if name in self.b.tuples:
            return [Val(n, self.b.vals[n]) for n in self.b.tuples[name]]
        return Val(name, self.b.vals.get(name))

    def _v(self, x: Any, like: Val) -> Val:
        if isinstance(x, Val):
            return x
        value = NUMPY.lit(x, like.value)
        return Val(self.b.const(value, value.dtype), value)

    lit = _v

    def _node(self, op: str, inputs: list[Val], value: Any, **attrs: Any) -> Val:
        return Val(self.b.node(op, [x.name for x in inputs], **attrs), value)

    def bind(self, x: Any, out: str) -> str:
        """Name ``x`` ``out`` (renaming the node that made it, else an Identity); a tuple's items ``out_0`` ..."""
        if isinstance(x, (tuple, list)):
            self.b.tuples[out] = [self.bind(item, f"{out}_{j}") for j, item in enumerate(x)]
            for j, item in enumerate(x):
                self.b.vals[f"{out}_{j}"] = item.value
            return out
        nodes = self.b.nodes
        if nodes and list(nodes[-1].output) == [x.name] and x.name not in self.b.vals:
            nodes[-1].output[0] = out
            if x.name.endswith(f"_{self.b._n}"):  # the fresh name goes unused: hand its number out again
                self.b._n -= 1
            return out
        return str(self.b.node("Identity", [x.name], out))

    def size(self, data: Val, i: Val, axis: int | None, batch_dims: int | None) -> Val:
        """``Cast(Gather(Shape(data), axis))`` (0-d), or ``Cast(Slice(Shape(data), b, b + k))`` in the nd form."""
        b = self.b
        shape = b.node("Shape", [data.name])
        if axis is not None:
            s = b.node("Gather", [shape, b.const(axis, np.int64)], axis=0)
        else:
            lo = batch_dims or 0
            s = b.node("Slice", [shape, b.const([lo], np.int64), b.const([lo + self.tuple_len(i)], np.int64)])
        value = NUMPY.size(data.value, i.value, axis, batch_dims)
        return Val(b.node("Cast", [s], to=b.elem_type(np.asarray(i.value).dtype)), value)

    def ge(self, x: Val, y: Any) -> Val:
        """``Not(x < y)`` (``GreaterOrEqual`` needs opset 12)."""
        y = self._v(y, x)
        return Val(self.b.node("Not", [self.b.node("Less", [x.name, y.name])]), NUMPY.ge(x.value, y.value))

    def all_last(self, x: Val) -> Val:
        """``all(x, -1)`` as an And of the ``k`` components (onnxruntime reduces an empty tensor to shape [0])."""
        b = self.b
        b.static_tuple_len = True
        value = NUMPY.all_last(x.value)
        k = int(np.shape(x.value)[-1])
        if k == 0:
            lead = b.node("Slice", [b.node("Shape", [x.name]), b.const([0], np.int64), b.const([-1], np.int64)])
            t = b.numpy_helper.from_array(np.ones(1, np.bool_), b.fresh("v"))
            return Val(b.node("ConstantOfShape", [lead], value=t), value)
        acc = None
        for j in range(k):
            part = b.node("Gather", [x.name, b.const(j, np.int64)], axis=-1)
            acc = part if acc is None else b.node("And", [acc, part])
        return Val(str(acc), value)

    def mod(self, x: Val, y: Any) -> Val:
        """Floor ``Mod``; a zero divisor reads as 1 (onnxruntime refuses one even for an empty ``x``)."""
        y = self._v(y, x)
        b = self.b
        zero, one = self._v(0, y), self._v(1, y)
        safe = b.node("Where", [b.node("Equal", [y.name, zero.name]), one.name, y.name])
        return Val(b.node("Mod", [x.name, safe], fmod=0), NUMPY.mod(x.value, y.value))

    def _minmax(self, op: str, x: Val, y: Any) -> Val:
        """``Max``/``Min`` for floats (they propagate NaN), :meth:`_pick` otherwise (integer ``Max`` needs opset 12)."""
        y = self._v(y, x)
        value = (NUMPY.maximum if op == "Max" else NUMPY.minimum)(x.value, y.value)
        if np.asarray(x.value).dtype.kind == "f":
            return self._node(op, [x, y], value)
        return Val(self._pick(op, x.name, y.name), value)

    maximum = partialmethod(_minmax, "Max")
    minimum = partialmethod(_minmax, "Min")

    def _pick(self, op: str, x: str, y: str) -> str:
        """``Where(x < y, y, x)`` for ``Max``, ``Where(y < x, y, x)`` for ``Min``."""
        return str(self.b.node("Where", [self.b.node("Less", [x, y] if op == "Max" else [y, x]), y, x]))

    def clip(self, x: Val, lo: Any, hi: Val) -> Val:
        lo = self._v(lo, x)
        low = self._pick("Min", x.name, hi.name)
        return Val(self._pick("Max", low, lo.name), NUMPY.clip(x.value, lo.value, hi.value))

    def truthy(self, x: Val) -> Val:
        if np.asarray(x.value).dtype == np.bool_:
            return x
        eq = self.b.node("Equal", [x.name, self._v(0, x).name])
        return Val(self.b.node("Not", [eq]), NUMPY.truthy(x.value))

    def cast(self, x: Val, dtype: Any) -> Val:
        return self._node("Cast", [x], NUMPY.cast(x.value, dtype), to=self.b.elem_type(dtype))

    def as_dtype(self, x: Val, dtype: Any) -> Val:
        """``x`` in ``dtype``: ``x`` itself when it has it, else a ``Cast``."""
        return x if np.asarray(x.value).dtype == np.dtype(dtype) else self.cast(x, dtype)

    def moveaxis(self, x: Val, source: Any, destination: Any) -> Val:
        value = NUMPY.moveaxis(x.value, source, destination)
        if np.ndim(x.value) == 0:
            return self._node("Identity", [x], value)
        r = np.ndim(x.value)
        perm = [n for n in range(r) if n not in [int(s) % r for s in np.atleast_1d(source)]]
        for d, s in sorted(zip([int(d) % r for d in np.atleast_1d(destination)],
                               [int(s) % r for s in np.atleast_1d(source)], strict=True)):
            perm.insert(d, s)  # output axis d is input axis s, the others keep their order
        return self._node("Transpose", [x], value, perm=perm)

    def _axes(self, op: str, x: str, axes: list[int], **attrs: Any) -> str:
        """``Unsqueeze``/``Squeeze``/``ReduceSum`` (axes an attribute before opset 13, an input since)."""
        if self.b.opset < 13:
            return str(self.b.node(op, [x], axes=axes, **attrs))
        return str(self.b.node(op, [x, self.b.const(axes, np.int64)], **attrs))

    def expand_dims(self, x: Val, axis: int) -> Val:
        return Val(self._axes("Unsqueeze", x.name, [axis]), NUMPY.expand_dims(x.value, axis))

    def squeeze(self, x: Val, axis: int) -> Val:
        return Val(self._axes("Squeeze", x.name, [axis]), NUMPY.squeeze(x.value, axis))

    def flatten(self, x: Val) -> Val:
        return Val(self.b.node("Reshape", [x.name, self.b.const([-1], np.int64)]), NUMPY.flatten(x.value))

    def reshape(self, x: Val, shape: Val) -> Val:
        """``Reshape`` to a run-time shape that may hold zeros (``allowzero=1`` since opset 14; before, a 0 in
        the shape copies the input's dim, so an empty result with a 0 dim needs opset >= 14)."""
        attrs = {"allowzero": 1} if self.b.opset >= 14 else {}
        return self._node("Reshape", [x, shape], NUMPY.reshape(x.value, shape.value), **attrs)

    def shape_of(self, x: Val, lo: int = 0, hi: int | None = None) -> Val:
        value = np.asarray(NUMPY.shape_of(x.value, lo, hi), dtype=np.int64)
        shape = self._node("Shape", [x], value)
        if lo == 0 and hi is None:
            return shape
        stop = np.iinfo(np.int64).max if hi is None else hi
        return Val(self.b.node("Slice", [shape.name, self.b.const([lo], np.int64), self.b.const([stop], np.int64)]),
                   value)

    def full_like(self, x: Val, value: Any) -> Val:
        shape = self.b.node("Shape", [x.name])
        t = self.b.numpy_helper.from_array(np.asarray([value], dtype=np.asarray(x.value).dtype), self.b.fresh("v"))
        return Val(self.b.node("ConstantOfShape", [shape], value=t), NUMPY.full_like(x.value, value))

    zeros_like = partialmethod(full_like, value=0)
    ones_like = partialmethod(full_like, value=1)

    def tuple_len(self, i: Val) -> int:
        self.b.static_tuple_len = True
        return int(NUMPY.tuple_len(i.value))

    def align(self, mask: Val, y: Val, lead: int) -> Val:
        value = NUMPY.align(mask.value, y.value, lead)
        axes = list(range(lead)) + list(range(lead + np.ndim(mask.value), np.ndim(y.value)))
        return Val(self._axes("Unsqueeze", mask.name, axes), value) if axes else mask

    def zeros(self, shape: Val, like: Val) -> Val:
        t = self.b.numpy_helper.from_array(np.zeros(1, np.asarray(like.value).dtype), self.b.fresh("v"))
        return Val(self.b.node("ConstantOfShape", [self.as_dtype(shape, np.int64).name], value=t),
                   NUMPY.zeros(shape.value, like.value))

    def broadcast_off_axis(self, x: Val, other: Val, axis: int) -> Val:
        """``Expand(x, other.shape[:a] + x.shape[a:a+1] + other.shape[a+1:])`` (``Expand`` broadcasts both ways)."""
        a = axis % np.ndim(other.value)
        shape = self.concat([self.shape_of(other, 0, a), self.shape_of(x, a, a + 1), self.shape_of(other, a + 1)])
        return self._node("Expand", [x, shape], NUMPY.broadcast_off_axis(x.value, other.value, axis))

    def div(self, t: Val, c: Val, rounding: str) -> Val:
        """``Div``; integers with floor: ``(t - Mod(t, c)) / c`` (``Div`` truncates)."""
        value = NUMPY.div(t.value, c.value, rounding)
        if np.asarray(t.value).dtype.kind in "iu" and rounding == "floor":
            rem = self.b.node("Mod", [t.name, c.name], fmod=0)  # Python-style remainder: the division is exact
            return Val(self.b.node("Div", [self.b.node("Sub", [t.name, rem]), c.name]), value)
        return self._node("Div", [t, c], value)

    def prod(self, shape: Val) -> Val:
        """``ReduceProd(keepdims=1)`` (axes an attribute before opset 18)."""
        b, value = self.b, np.asarray(NUMPY.prod(shape.value), dtype=np.int64)
        attrs = {"axes": [0]} if b.opset < 18 else {}
        return Val(b.node("ReduceProd", [shape.name], keepdims=1, **attrs), value)

    def leading_block(self, x: Val, ends: Val) -> Val:
        zeros = self.b.const([0] * np.ndim(x.value), np.int64)
        return Val(self.b.node("Slice", [x.name, zeros, ends.name]), NUMPY.leading_block(x.value, ends.value))

    def concat(self, shapes: list[Val]) -> Val:
        value = np.asarray(NUMPY.concat([x.value for x in shapes]), dtype=np.int64)
        return shapes[0] if len(shapes) == 1 else self._node("Concat", shapes, value, axis=0)

    def cast_like(self, x: Val, like: Val) -> Val:
        return self.as_dtype(x, np.asarray(like.value).dtype)

    def stack_last(self, xs: list[Val]) -> Val:
        parts = [self._axes("Unsqueeze", x.name, [-1]) for x in xs]
        return Val(self.b.node("Concat", parts, axis=-1), NUMPY.stack_last([x.value for x in xs]))

    def iota(self, shape: Val, d: int, rank: int) -> Val:
        """``Expand(Unsqueeze(Range(0, shape[d])), shape)``: the int64 grid of dim ``d``."""
        b = self.b
        n = b.node("Gather", [shape.name, b.const(d, np.int64)], axis=0)
        line = b.node("Range", [b.const(0, np.int64), n, b.const(1, np.int64)])
        others = [x for x in range(rank) if x != d]
        return Val(b.node("Expand", [self._axes("Unsqueeze", line, others) if others else line, shape.name]),
                   NUMPY.iota(shape.value, d, rank))

    def i64(self, values: list[int]) -> Val:
        value = NUMPY.i64(values)
        return Val(self.b.const(value, np.int64), value)

    def ones(self, n: int) -> Val:
        return self.i64([1] * n)

    def broadcast_shapes(self, xs: list[Val]) -> Val:
        """``Shape`` of the sum of ``x * 0`` (``Add`` broadcasts)."""
        zero = self._v(0, xs[0])
        total = self.b.node("Mul", [xs[0].name, zero.name])
        for x in xs[1:]:
            total = self.b.node("Add", [total, self.b.node("Mul", [x.name, zero.name])])
        value = np.asarray(NUMPY.broadcast_shapes([x.value for x in xs]), dtype=np.int64)
        return Val(self.b.node("Shape", [total]), value)

    def take_last(self, x: Val, j: int) -> Val:
        return Val(self.b.node("Gather", [x.name, self.b.const(j, np.int64)], axis=-1), NUMPY.take_last(x.value, j))

    def sum_last(self, x: Val) -> Val:
        return Val(self._axes("ReduceSum", x.name, [-1], keepdims=0), NUMPY.sum_last(x.value))

    def _dims(self, data: Val, lo: int, hi: int) -> list[str]:
        shape = self.b.node("Shape", [data.name])
        return [self.b.node("Gather", [shape, self.b.const(d, np.int64)], axis=0) for d in range(lo, hi)]

    def _product(self, dims: list[str]) -> str:
        out = str(self.b.const(1, np.int64))
        for d in dims:
            out = str(self.b.node("Mul", [out, d]))
        return out

    def strides(self, data: Val, k: int) -> Val:
        value = NUMPY.strides(data.value, k)
        if k == 0:
            return self.i64([])
        dims = self._dims(data, 0, k)
        parts = [self._axes("Unsqueeze", self._product(dims[d + 1 :]), [0]) for d in range(k)]
        return Val(self.b.node("Concat", parts, axis=0), value)

    def numel(self, data: Val, lo: int, hi: int) -> Val:
        return Val(self._product(self._dims(data, lo, hi)), NUMPY.numel(data.value, lo, hi))

    def count(self, x: Val) -> Val:
        return Val(self.b.node("Size", [x.name]), np.asarray(NUMPY.count(x.value), dtype=np.int64))

    def _as_1d(self, n: Val) -> str:
        return str(self.b.node("Reshape", [n.name, self.b.const([1], np.int64)]))

    def head(self, x: Val, n: Val) -> Val:
        return Val(self.b.node("Slice", [x.name, self.b.const([0], np.int64), self._as_1d(n)]),
                   NUMPY.head(x.value, n.value))

    def tile(self, x: Val, reps: Val) -> Val:
        return Val(self.b.node("Tile", [x.name, self._as_1d(reps)]), NUMPY.tile(x.value, reps.value))

    def last(self, x: Val, default: int) -> Val:
        """``Gather(Concat([default], x), -1)``: the last element, ``default`` for an empty ``x``."""
        b, value = self.b, NUMPY.last(x.value, default)
        head = b.const([default], np.asarray(x.value).dtype)
        return Val(b.node("Gather", [b.node("Concat", [head, x.name], axis=0), b.const(-1, np.int64)], axis=0), value)

    def count_shape(self, n: Val) -> Val:
        return Val(self._as_1d(self.as_dtype(n, np.int64)), np.asarray(NUMPY.count_shape(n.value), dtype=np.int64))

    def to_float(self, x: Val) -> Val:
        return self.as_dtype(x, NUMPY.to_float(x.value).dtype)

    def cumsum_last(self, x: Val) -> Val:
        """``CumSum`` along the last axis (opset 11)."""
        axis = Val(self.b.const(-1, np.int64), np.asarray(-1))  # a 0-d axis
        return self._node("CumSum", [x, axis], NUMPY.cumsum_last(x.value))

    def bucketize(self, e: Val, data: Val, axis: int) -> Val:
        """``ReduceSum(Cast(Not(Greater(Unsqueeze(e, -1), Range(0, s, 1)))), -2)`` (``s = data.shape[axis]``)."""
        b = self.b
        size = b.node("Gather", [b.node("Shape", [data.name]), b.const(axis, np.int64)], axis=0)
        line = b.node("Range", [b.const(0, np.int64), size, b.const(1, np.int64)])
        hit = b.node("Not", [b.node("Greater", [self._axes("Unsqueeze", e.name, [-1]), line])])
        count = b.node("Cast", [hit], to=b.elem_type(np.int64))
        return Val(self._axes("ReduceSum", count, [-2], keepdims=0), NUMPY.bucketize(e.value, data.value, axis))

    def slice_last(self, x: Val, start: int) -> Val:
        b = self.b
        ends = b.const([np.iinfo(np.int64).max], np.int64)
        node = b.node("Slice", [x.name, b.const([start], np.int64), ends, b.const([-1], np.int64)])
        return Val(node, NUMPY.slice_last(x.value, start))

    def pointwise(self, fn: str, *xs: Val, **kw: Any) -> Val:
        """The element-wise steps of composed ops as ONNX nodes (operands cast as the NumPy definition does;
        ``apply_n``: a ``Loop`` over the largest count)."""
        value = NUMPY.pointwise(fn, *[x.value for x in xs], **kw)
        out = str(np.asarray(value).dtype)
        if fn == "cast_like":
            return self.cast(xs[0], out)
        if fn == "apply_n":
            return self._apply_n(xs[0], xs[1], str(kw["func"]), value)
        wide = {"divide_inexact": out, "reciprocal": out, "power": "float64" if out == "float32" else out}[fn]
        if fn == "power" and np.dtype(out).kind in "iu" and self.b.opset < 12:  # no integer Pow before opset 12:
            wide = "float64"  # exact while |result| < 2**53 (integer overflow does not wrap there)
        args = [x if str(np.asarray(x.value).dtype) == wide else self.cast(x, wide) for x in xs]
        node = {"divide_inexact": "Div", "power": "Pow", "reciprocal": "Reciprocal"}[fn]
        y = self._node(node, args, NUMPY.cast(value, wide))
        return y if wide == out else self.cast(y, out)

    def _apply_n(self, x: Val, count: Val, func: str, value: Any) -> Val:
        """``y = x; for k in range(max(count)): y = where(count > k, func(y), y)`` as a ``Loop``."""
        b, h = self.b, self.b.helper
        op = _ONNX_UNARY.get(func)
        if op is None:
            raise UnsupportedError(f"apply_counted: func={func!r} has no ONNX operator here (covered: "
                                   f"{sorted(_ONNX_UNARY)})")
        dt = b.elem_type(np.asarray(x.value).dtype)
        trips = b.node("ReduceMax", [b.node("Cast", [count.name], to=b.elem_type(np.int64))], keepdims=0,
                       **({"axes": list(range(np.ndim(count.value)))} if b.opset < 18 else {}))
        if np.size(count.value) == 0:
            trips = b.const(0, np.int64)
        k, y_in, y_out, cond = b.fresh("k"), b.fresh("y"), b.fresh("y"), b.fresh("cond")
        kk, mask, fy = b.fresh("k"), b.fresh("m"), b.fresh("f")
        body = [h.make_node("Cast", [k], [kk], to=b.elem_type(np.asarray(count.value).dtype)),
                h.make_node("Greater", [count.name, kk], [mask]),
                *([h.make_node("Mul", [y_in, y_in], [fy])] if op == "Square" else [h.make_node(op, [y_in], [fy])]),
                h.make_node("Where", [mask, fy, y_in], [y_out]),
                h.make_node("Identity", [cond], [cond + "_out"])]
        graph = h.make_graph(body, b.fresh("body"),
                             [h.make_tensor_value_info(k, b.elem_type(np.int64), []),
                              h.make_tensor_value_info(cond, b.elem_type(np.bool_), []),
                              h.make_tensor_value_info(y_in, dt, None)],
                             [h.make_tensor_value_info(cond + "_out", b.elem_type(np.bool_), []),
                              h.make_tensor_value_info(y_out, dt, None)])
        true = b.const(True, np.bool_)
        return Val(b.node("Loop", [trips, true, x.name], body=graph), value)
