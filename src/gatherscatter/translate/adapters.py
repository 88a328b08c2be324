"""Adapters written once, against a small vocabulary of array primitives; each target implements the vocabulary.

An adapter here is a function ``adapter(v, *values, **attrs)`` whose only operations on values are calls of
the vocabulary ``v`` (ranks and attributes are plain Python). The targets implement the vocabulary once:

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
every target then has it. Adapters not (yet) in this module are still written per target.

>>> import numpy as np
>>> DEFS["normalize_negative"](NUMPY, np.array([-1, 0, 2]), np.zeros((3, 2)), axis=0)
array([2, 0, 2])
>>> from .codegen_python import TorchApi
>>> DEFS["normalize_negative"](PyVocab(TorchApi()), "i", "data", axis=0)
'torch.where(i < 0, i + data.shape[0], i)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..dialects._common import POINTWISE
from ..dialects._record import ADAPTER_PARAMS
from ..errors import ShapeError, UnsupportedError

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
    """Register the adapter ``name`` that is one primitive ``prim`` (attributes passed in ``attrs`` order)."""

    def fn(v: Any, *values: Any, **kw: Any) -> Any:
        return getattr(v, prim)(*values, *[kw[a] for a in attrs])

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
}.items():
    _primitive(_name, _prim, _attrs, _doc)


@adapter("normalize_negative")
def normalize_negative(v: Any, i: Any, data: Any, *, axis: int | None = None, batch_dims: int | None = None) -> Any:
    """``i + s * (i < 0)`` with ``s`` the addressed axis size (per tuple component in the nd form).

    Exact for ``-s <= i < 0``; an index below ``-s`` stays negative, so a
    target that rejects negatives still raises where the source does.
    """
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


def _lead(v: Any, y: Any, mask: Any, lead: int | None, trail: int | None) -> Any:
    """The dim of ``y`` where ``mask``'s dims start: ``lead``, or ``trail`` dims before ``y``'s last."""
    return v.rank(y) - v.rank(mask) - trail if trail is not None else (lead or 0)


@adapter("mask_result")
def mask_result(v: Any, y: Any, mask: Any, *, lead: int | None = None, value: Any = None,
                reduction: str | None = None, trail: int | None = None) -> Any:
    """``where(mask, y, value)``, ``mask`` aligned to ``y``'s dims starting at ``lead``
    (or ending ``trail`` dims before ``y``'s last: a gather along a negative axis).

    ``value=None`` with ``reduction`` uses the reduction's identity in ``y``'s dtype.
    """
    fill = v.identity(y, reduction) if value is None and reduction else value
    return v.where(v.align(mask, y, _lead(v, y, mask, lead, trail)), y, v.lit(fill, y))


@adapter("mask_fill_default")
def mask_fill_default(v: Any, y: Any, mask: Any, *, lead: int = 0, trail: int | None = None) -> Any:
    """``where(mask, y, f)`` with ``f`` JAX's default fill of ``y``'s dtype: NaN (float/complex),
    ``iinfo.min`` (signed), ``iinfo.max`` (unsigned), True (bool); ``mask`` aligned as in ``mask_result``."""
    return v.where(v.align(mask, y, _lead(v, y, mask, lead, trail)), y, v.lit(v.default_fill(y), y))


def _nd_update_shape(v: Any, i: Any, data: Any, batch_dims: int | None) -> Any:
    """``i.shape[:-1] + data.shape[b + k:]`` (``k = i.shape[-1]``): the updates of an nd scatter."""
    return v.concat([v.shape_of(i, 0, -1), v.shape_of(data, v.tuple_len(i) + (batch_dims or 0))])


@adapter("full_slices")
def full_slices(v: Any, i: Any, data: Any, *, value: Any, batch_dims: int = 0) -> Any:
    """``full(i.shape[:-1] + data.shape[b + k:], value, data.dtype)``: nd scatter updates that are one scalar
    (``torch.index_fill``)."""
    return v.broadcast_to(v.lit(value, data), _nd_update_shape(v, i, data, batch_dims))


@adapter("broadcast_updates")
def broadcast_updates(v: Any, u: Any, i: Any, data: Any, *, batch_dims: int = 0) -> Any:
    """Broadcast ``u`` to the nd scatter update shape ``i.shape[:-1] + data.shape[b + k:]`` (``k = i.shape[-1]``).

    For sources whose values broadcast to ``x[idx]`` (``torch.index_put``, JAX
    ``x.at[idx].set``, NumPy ``ufunc.at``); ``u`` keeps its dtype.
    """
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


def _max(a: Any, b: Any) -> Any:
    """``max(a, b)`` of ints, or its text when either is run-time text (:class:`Int`)."""
    return Int(f"max({a}, {b})") if isinstance(a, str) or isinstance(b, str) else max(a, b)


def _range(lo: Any, hi: Any) -> Any:
    """``list(range(lo, hi))``, or its text when either bound is run-time text (:class:`Int`)."""
    return Int(f"list(range({lo}, {hi}))") if isinstance(lo, str) or isinstance(hi, str) else list(range(lo, hi))


@adapter("moveaxis_block")
def moveaxis_block(v: Any, x: Any, i: Any, data: Any, *, axis: int) -> Any:
    """Move the ``i.ndim`` dims of ``x`` that start at ``axis`` (normalised by ``data.ndim``) to the front.

    A Gather-shaped tensor (``data.shape[:axis] + i.shape + data.shape[axis+1:]``, e.g. OpenVINO
    ``ScatterUpdate``'s updates) becomes ``i.shape + data.shape[:axis] + data.shape[axis+1:]``: the
    updates of an nd scatter into ``moveaxis(data, axis, 0)``.
    """
    a, q = axis % _max(v.rank(data), 1), v.rank(i)
    return v.moveaxis(x, _range(a, a + q), _range(0, q))


@adapter("divide_counts")
def divide_counts(v: Any, total: Any, count: Any, data: Any, *, rounding: str = "floor") -> Any:
    """Mean from sum and count: ``total / count`` where ``count > 0``, ``data`` elsewhere.

    Integer types divide with floor (``rounding='floor'``) or toward zero
    (``'trunc'``); the division happens in the data dtype.
    """
    none = v.eq(count, 0)
    return v.where(none, data, v.div(total, v.where(none, v.lit(1, count), count), rounding))


@adapter("broadcast_indices")
def broadcast_indices(v: Any, i: Any, data: Any, *, axis: int) -> Any:
    """Broadcast ``i`` against ``data`` on every axis but ``axis`` (``take_along_axis`` rules)."""
    return v.broadcast_off_axis(i, data, axis)


@adapter("broadcast_data")
def broadcast_data(v: Any, x: Any, i: Any, *, axis: int | None) -> Any:
    """Broadcast ``x`` to ``i``'s shape (``axis=None``), or on every axis but ``axis``."""
    return v.broadcast_to(x, v.shape_of(i)) if axis is None else v.broadcast_off_axis(x, i, axis)


# ------------------------------------------------------------------------------------------- vocabularies


class NumpyVocab:
    """The vocabulary in NumPy: the adapters' definitions."""

    def size(self, data: Any, i: Any, axis: int | None, batch_dims: int | None) -> Any:
        """The addressed axis size in ``i``'s dtype (0-d), or ``data.shape[b:b+k]`` (1-d) in the nd form."""
        data, i = np.asarray(data), np.asarray(i)
        if axis is not None:
            return np.asarray(data.shape[axis], dtype=i.dtype)
        b, k = batch_dims or 0, i.shape[-1] if i.ndim else 0
        return np.asarray(data.shape[b : b + k], dtype=i.dtype)

    def lit(self, value: Any, like: Any) -> Any:
        with np.errstate(all="ignore"):
            return np.asarray(value).astype(np.asarray(like).dtype)

    def lt(self, x: Any, y: Any) -> Any:
        return np.asarray(x) < y

    def eq(self, x: Any, y: Any) -> Any:
        return np.asarray(x) == y

    def div(self, t: Any, c: Any, rounding: str) -> Any:
        """``t / c`` in ``t``'s dtype; integers with floor or (``rounding='trunc'``) toward zero."""
        t, c = np.asarray(t), np.asarray(c)
        if t.dtype.kind not in "iu":
            return (t / c).astype(t.dtype)
        return t // c if rounding == "floor" else np.trunc(np.true_divide(t, c)).astype(t.dtype)

    def ge(self, x: Any, y: Any) -> Any:
        return np.asarray(x) >= y

    def and_(self, x: Any, y: Any) -> Any:
        return np.asarray(x) & np.asarray(y)

    def all_last(self, x: Any) -> Any:
        return np.all(x, axis=-1)

    def add(self, x: Any, y: Any) -> Any:
        return np.asarray(x) + y

    def sub(self, x: Any, y: Any) -> Any:
        return np.asarray(x) - y

    def mul(self, x: Any, y: Any) -> Any:
        x = np.asarray(x)
        with np.errstate(over="ignore"):
            return np.asarray(x * y).astype(x.dtype)

    def mod(self, x: Any, y: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(np.mod(x, y))

    def neg(self, x: Any) -> Any:
        x = np.asarray(x)
        if x.dtype.kind == "b":
            raise UnsupportedError("negative: bool has no additive inverse (a bool 'sub' scatter is XOR)")
        with np.errstate(over="ignore"):
            return np.asarray(np.negative(x))

    def maximum(self, x: Any, y: Any) -> Any:
        return np.maximum(x, y)

    def clip(self, x: Any, lo: Any, hi: Any) -> Any:
        return np.asarray(np.clip(x, lo, hi))

    def where(self, c: Any, x: Any, y: Any) -> Any:
        return np.where(c, x, y)

    def truthy(self, x: Any) -> Any:
        return np.asarray(x) != 0

    def cast(self, x: Any, dtype: str) -> Any:
        return np.asarray(x).astype(dtype)

    def moveaxis(self, x: Any, source: Any, destination: Any) -> Any:
        return np.moveaxis(np.asarray(x), source, destination)

    def expand_dims(self, x: Any, axis: int) -> Any:
        return np.expand_dims(np.asarray(x), axis)

    def squeeze(self, x: Any, axis: int) -> Any:
        x = np.asarray(x)
        if not -x.ndim <= axis < x.ndim or x.shape[axis] != 1:
            raise ShapeError(f"squeeze: axis {axis} of a {list(x.shape)} array is not a size-1 axis")
        return np.squeeze(x, axis)

    def flatten(self, x: Any) -> Any:
        return np.asarray(x).reshape(-1)

    def reshape(self, x: Any, shape: Any) -> Any:
        return np.asarray(x).reshape(shape)

    def shape_of(self, x: Any, lo: int = 0, hi: int | None = None) -> tuple[int, ...]:
        return tuple(int(n) for n in np.shape(x)[lo:hi])

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

    def zeros_like(self, x: Any) -> Any:
        return np.zeros_like(np.asarray(x))

    def ones_like(self, x: Any) -> Any:
        return np.ones_like(np.asarray(x))

    def full_like(self, x: Any, value: Any) -> Any:
        return np.full_like(np.asarray(x), value)

    def identity(self, x: Any, reduction: str) -> Any:
        return identity_value(reduction, np.asarray(x).dtype)

    def default_fill(self, x: Any) -> Any:
        return default_fill_value(np.asarray(x).dtype)

    def rank(self, x: Any) -> int:
        return int(np.ndim(x))

    def tuple_len(self, i: Any) -> int:
        return int(np.shape(i)[-1]) if np.ndim(i) else 0

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

    def zeros(self, shape: Any, like: Any) -> Any:
        return np.zeros(tuple(int(n) for n in np.asarray(shape).reshape(-1)), dtype=np.asarray(like).dtype)

    def concat(self, shapes: list[Any]) -> tuple[int, ...]:
        return tuple(int(n) for s in shapes for n in s)

    def prod(self, shape: Any) -> tuple[int]:
        """A 1-element shape: the product of ``shape``."""
        return (int(np.prod(shape, dtype=np.int64)),)

    def leading_block(self, x: Any, ends: Any) -> Any:
        """``x[:e0, :e1, ...]``."""
        return np.asarray(x)[tuple(slice(0, int(n)) for n in ends)]

    def last(self, x: Any, default: int) -> Any:
        """``x[-1]`` of a 1-D ``x`` (0-d), ``default`` in ``x``'s dtype when ``x`` is empty."""
        x = np.asarray(x)
        return x[-1] if x.size else np.asarray(default).astype(x.dtype)

    def count_shape(self, n: Any) -> tuple[int]:
        """The 1-element shape ``(n,)`` of a count ``n`` (a Python int, a 0-d or 1-element integer array)."""
        return (int(np.asarray(n).reshape(-1)[0]),)

    def component(self, y: Any, j: int) -> Any:
        """``y[..., j]``."""
        return np.asarray(y)[..., j]

    def sqrt(self, x: Any) -> Any:
        return np.asarray(np.sqrt(x))

    def to_float(self, x: Any) -> Any:
        """Integers as Python's ``/`` on TF tensors takes them: float32 (<= 16 bits) or float64; others as they are."""
        x = np.asarray(x)
        return x if x.dtype.kind not in "iu" else x.astype(np.float32 if x.dtype.itemsize <= 2 else np.float64)

    def cumsum_last(self, x: Any) -> Any:
        """Running sums along the last axis (in ``x``'s dtype)."""
        x = np.asarray(x)
        return np.cumsum(x, axis=-1, dtype=x.dtype)

    def bucketize(self, e: Any, data: Any, axis: int) -> Any:
        """``out[..., p] = #{k : e[..., k] <= p}`` for ``p`` in ``range(data.shape[axis])`` (int64)."""
        p = np.arange(np.shape(data)[axis], dtype=np.int64)
        return np.sum(np.expand_dims(np.asarray(e), -1) <= p, axis=-2, dtype=np.int64)

    def slice_last(self, x: Any, start: int) -> Any:
        """``x[..., start:]``."""
        return np.asarray(x)[..., start:]

    def pointwise(self, fn: str, *xs: Any, **kw: Any) -> Any:
        """The element-wise steps of composed ops (:data:`POINTWISE`; s7-composed)."""
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
        return Int(f"{self} - {other}")

    def __rmod__(self, other: Any) -> Int:
        return Int(f"{other} % {self}")


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
    NUMERIC: ClassVar[frozenset[str]] = frozenset({"eq", "lt", "ge", "add", "sub", "mul", "mod", "maximum", "clip"})

    def _t(self, x: Any, like: Any) -> str:
        return x if isinstance(x, str) else self.NUM.format(v=_lit(x), like=like)

    def __getattr__(self, name: str) -> Callable[..., str]:
        form = type(self).FORMS.get(name)
        if form is None:
            raise AttributeError(name)

        def prim(*args: Any) -> str:
            if name in self.NUMERIC:  # number operands become constants of the first operand's dtype
                args = tuple(a if i == 0 else self._t(a, args[0]) for i, a in enumerate(args))
            text = form.format(*args)
            return Int(text) if name in self.INTS else text

        return prim

    def lit(self, value: Any, like: str) -> str:
        return self.NUM.format(v=value if isinstance(value, str) else _lit(value), like=like)


class PyVocab(TextVocab):
    """The vocabulary as Python source in one framework's API (``api``: a :class:`~.codegen_python.Api`)."""

    FORMS: ClassVar[dict[str, str]] = {
        "eq": "{0} == {1}", "lt": "{0} < {1}", "ge": "{0} >= {1}", "and_": "(({0}) & ({1}))", "add": "{0} + {1}",
        "mul": "{0} * {1}", "mod": "{0} % {1}", "neg": "-{0}", "rank": "len({0}.shape)", "tuple_len": "{0}.shape[-1]",
        "align": "_align({0}, {1}, {2})"}
    #: primitives spelled by the framework's :class:`~.codegen_python.Api` (its method names)
    API: ClassVar[dict[str, str]] = {
        **{n: n for n in ("all_last", "where", "moveaxis", "expand_dims", "squeeze", "reshape", "broadcast_to",
                          "zeros_like", "ones_like", "full_like")}, "flatten": "flat", "truthy": "as_bool"}

    def __init__(self, api: Any) -> None:
        self.api = api

    def __getattr__(self, name: str) -> Callable[..., str]:
        if name in PyVocab.API:
            return lambda *args: str(getattr(self.api, PyVocab.API[name])(*args))
        return super().__getattr__(name)

    def size(self, data: str, i: str, axis: int | None, batch_dims: int | None) -> str:
        if axis is not None:
            return Int(f"{data}.shape[{axis}]")
        return f"_sizes({data}, {i}, {batch_dims or 0})"

    def lit(self, value: Any, like: str) -> str:
        return str(self.api.const(value if isinstance(value, str) else _lit(value), f"{like}.dtype"))

    def sub(self, x: str, y: Any) -> str:
        text = f"{x} - {self._t(y, x)}"
        return Int(text) if isinstance(x, Int) else text

    def maximum(self, x: str, y: Any) -> str:
        if isinstance(x, Int):
            return Int(f"max({x}, {self._t(y, x)})")
        return str(self.api.maximum(x, self.lit(y, f"({x})") if not isinstance(y, str) else y))

    def clip(self, x: str, lo: Any, hi: str) -> str:
        if isinstance(hi, Int):
            return str(self.api.clip(x, self._t(lo, x), hi))
        return str(self.api.maximum(self.api.minimum(x, hi), self.api.zeros_like(x)))

    def cast(self, x: str, dtype: str) -> str:
        return str(self.api.astype(x, self.api.dt(dtype)))

    def broadcast_off_axis(self, x: str, other: str, axis: int) -> str:
        return str(self.api.broadcast_to(x, f"_off_axis_shape({x}, {other}, {axis})"))

    def div(self, t: str, c: str, rounding: str) -> str:
        whole = f"{t} // {c}" if rounding == "floor" else self.api.trunc_div(t, c)
        return f"({whole} if {self.api.is_int(t)} else {self.api.true_div(t, c)})"

    def shape_of(self, x: str, lo: Any = 0, hi: Any = None) -> str:
        if lo == 0 and hi is None:
            return f"tuple({x}.shape)"
        return f"tuple({x}.shape[{'' if lo == 0 else lo}:{'' if hi is None else hi}])"

    def identity(self, x: str, reduction: str) -> str:
        return f"_identity({self.api.dtype_name(x)}, {reduction!r})"

    def default_fill(self, x: str) -> str:
        return f"_default_fill({self.api.dtype_name(x)})"

    def zeros(self, shape: str, like: str) -> str:
        return str(self.api.zeros(f"tuple(int(n) for n in {shape})", f"{like}.dtype"))

    def concat(self, shapes: list[str]) -> str:
        return " + ".join(shapes)

    def prod(self, shape: str) -> str:
        return f"(math.prod({shape}),)"

    def leading_block(self, x: str, ends: str) -> str:
        return f"{x}[tuple(slice(0, n) for n in {ends})]"

    FORMS = {**FORMS, "count_shape": "(int({0}),)", "component": "{0}[..., {1}]"}

    def last(self, x: str, default: int) -> str:
        return f"({x}[-1] if {x}.shape[0] else {self.lit(default, x)})"

    def sqrt(self, x: str) -> str:
        return f"{self.api.m}.sqrt({x})"

    def to_float(self, x: str) -> str:
        a, small = self.api, f"np.dtype({self.api.dtype_name(x)}).itemsize <= 2"
        return (f"(({a.astype(x, a.dt('float32'))} if {small} else {a.astype(x, a.dt('float64'))}) "
                f"if {a.is_int(x)} else {x})")

    def cumsum_last(self, x: str) -> str:
        return f"{self.api.m}.cumsum({x}, -1)"

    def bucketize(self, e: str, data: str, axis: int) -> str:
        hit = f"({self.api.expand_dims(e, -1)} <= ({self.api.grid(f'({data}.shape[{axis}],)')})[0])"
        return str(self.api.sum(self.api.astype(hit, self.api.dt("int64")), -2))

    def slice_last(self, x: str, start: int) -> str:
        return f"{x}[..., {start}:]"

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
        "neg": "ops.negative({0})", "maximum": "ops.maximum({0}, {1})", "where": "ops.select({0}, {1}, {2})",
        "clip": "ops.maximum(ops.minimum({0}, {2}), {1})", "truthy": "ops.convert({0}, np.bool_)",
        "cast": "ops.convert({0}, np.{1})", "moveaxis": "_moveaxis({0}, {1}, {2})",
        "expand_dims": "ops.unsqueeze({0}, _i64([{1}]))", "squeeze": "ops.squeeze({0}, _i64([{1}]))",
        "flatten": "ops.reshape({0}, _i64([-1]), False)", "reshape": "ops.reshape({0}, {1}, False)",
        "broadcast_to": "ops.broadcast({0}, {1})", "broadcast_off_axis": "_broadcast_off_axis({0}, {1}, {2})",
        "zeros_like": "_fill_like({0}, 0)",
        "ones_like": "_fill_like({0}, 1)", "full_like": "_fill_like({0}, {1})",
        "identity": "_identity(_dtype({0}), {1!r})", "default_fill": "_default_fill(_dtype({0}))",
        "rank": "_rank({0})", "tuple_len": "{0}.get_output_partial_shape(0)[-1].get_length()",
        "align": "_align({0}, {1}, {2})", "zeros": "ops.broadcast(_c(0, {1}), {0})",
        "prod": "ops.reduce_prod({0}, _i64([0]), True)",
        # StridedSlice, not Slice-8: the 2026.4 CPU plugin drops a Slice-8 feeding GatherElements
        "leading_block": "ops.strided_slice({0}, _i64([0] * _rank({0})), {1}, _i64([1] * _rank({0})), "
                         "[0] * _rank({0}), [0] * _rank({0}))"}

    def size(self, data: str, i: str, axis: int | None, batch_dims: int | None) -> str:
        return f"_sizes({data}, {i}, axis={axis})" if axis is not None else \
            f"_sizes({data}, {i}, batch_dims={batch_dims or 0})"

    def shape_of(self, x: str, lo: Any = 0, hi: Any = None) -> str:
        return f"ops.shape_of({x}, 'i64')" if lo == 0 and hi is None else f"_shape({x}, {lo}, {hi})"

    def concat(self, shapes: list[str]) -> str:
        return f"_concat([{', '.join(shapes)}])"

    FORMS = {**FORMS, "last": "ops.gather(ops.concat([ops.reshape(_c({1}, {0}), _i64([1]), False), {0}], 0), "
                              "_i64(-1), _i64(0))",
             "count_shape": "ops.reshape(ops.convert({0}, np.int64), _i64([1]), False)",
             "component": "ops.gather({0}, _i64({1}), _i64(-1))", "sqrt": "ops.sqrt({0})",
             "to_float": "({0} if _dtype({0}).kind not in 'iu' else ops.convert({0}, np.float32 if "
                         "_dtype({0}).itemsize <= 2 else np.float64))"}

    def cumsum_last(self, x: str) -> str:
        return f"ops.cumsum({x}, _i64(-1))"

    def bucketize(self, e: str, data: str, axis: int) -> str:
        p = f"ops.range(_i64(0), ops.gather(ops.shape_of({data}, 'i64'), _i64({axis}), _i64(0)), _i64(1), 'i64')"
        hit = f"ops.less_equal(ops.unsqueeze({e}, _i64([-1])), {p})"
        # counted in float32 (exact below 2**24 segments): the 2026.4 CPU plugin miscomputes an int64 ReduceSum
        # followed by a Subtract (the offsets form's - 1)
        return f"ops.convert(ops.reduce_sum(ops.convert({hit}, np.float32), _i64(-2), False), np.int64)"

    def slice_last(self, x: str, start: int) -> str:
        return f"ops.slice({x}, _i64([{start}]), _i64([2**62]), _i64([1]), _i64([-1]))"

    def pointwise(self, fn: str, *xs: str, **kw: Any) -> str:
        """The element-wise steps of composed ops as opset calls (``apply_n``: none)."""
        forms = {"divide_inexact": "ops.divide({0}, {1})", "power": "ops.power({0}, {1})",
                 "reciprocal": "ops.divide(_c(1, {0}), {0})", "cast_like": "ops.convert_like({0}, {1})"}
        if fn not in forms:
            raise UnsupportedError(_NO_APPLY)
        return forms[fn].format(*xs)


class Val:
    """An ONNX graph value: its name and the example's NumPy value."""

    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value = name, value


class OnnxVocab:
    """The vocabulary as ONNX nodes added to ``b`` (a :class:`~.onnx_export.Builder`); values are :class:`Val`."""

    #: primitives that are one ONNX node (number operands become constants of the first operand's dtype)
    NODES: ClassVar[dict[str, str]] = {"eq": "Equal", "lt": "Less", "add": "Add", "sub": "Sub", "mul": "Mul",
                                       "and_": "And", "neg": "Neg", "where": "Where", "broadcast_to": "Expand"}

    def __init__(self, b: Any) -> None:
        self.b = b

    def __getattr__(self, name: str) -> Callable[..., Val]:
        op = OnnxVocab.NODES.get(name)
        if op is None:
            raise AttributeError(name)

        def prim(x: Val, *rest: Any) -> Val:
            args = [x, *[self._v(y, x) for y in rest]]
            return self._node(op, args, getattr(NUMPY, name)(*[a.value for a in args]))

        return prim

    def input(self, name: str) -> Val:
        return Val(name, self.b.vals[name])

    def _v(self, x: Any, like: Val) -> Val:
        if isinstance(x, Val):
            return x
        value = NUMPY.lit(x, like.value)
        return Val(self.b.const(value, value.dtype), value)

    def _node(self, op: str, inputs: list[Val], value: Any, **attrs: Any) -> Val:
        return Val(self.b.node(op, [x.name for x in inputs], **attrs), value)

    def bind(self, x: Val, out: str) -> str:
        """Name ``x`` ``out`` (renaming the node that made it, else an Identity)."""
        nodes = self.b.nodes
        if nodes and list(nodes[-1].output) == [x.name] and x.name not in self.b.vals:
            nodes[-1].output[0] = out
            if x.name.endswith(f"_{self.b._n}"):  # the fresh name goes unused: hand its number out again
                self.b._n -= 1
            return out
        return str(self.b.node("Identity", [x.name], out))

    def size(self, data: Val, i: Val, axis: int | None, batch_dims: int | None) -> Val:
        b = self.b
        value = NUMPY.size(data.value, i.value, axis, batch_dims)
        if axis is not None:
            return Val(b.axis_size(data.name, axis, i.name), value)
        return Val(b.nd_sizes(data.name, batch_dims or 0, b.tuple_len(i.name), i.name), value)

    def lit(self, value: Any, like: Val) -> Val:
        return self._v(value, like)

    def ge(self, x: Val, y: Any) -> Val:
        y = self._v(y, x)
        return Val(self.b.greater_equal(x.name, y.name), NUMPY.ge(x.value, y.value))

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

    def maximum(self, x: Val, y: Any) -> Val:
        """``Where(x < y, y, x)`` (integer ``Max`` needs opset 12)."""
        y = self._v(y, x)
        return Val(self.b.maximum(x.name, y.name), NUMPY.maximum(x.value, y.value))

    def clip(self, x: Val, lo: Any, hi: Val) -> Val:
        lo = self._v(lo, x)
        low = self.b.minimum(x.name, hi.name)
        return Val(self.b.maximum(low, lo.name), NUMPY.clip(x.value, lo.value, hi.value))

    def truthy(self, x: Val) -> Val:
        if np.asarray(x.value).dtype == np.bool_:
            return x
        eq = self.b.node("Equal", [x.name, self._v(0, x).name])
        return Val(self.b.node("Not", [eq]), NUMPY.truthy(x.value))

    def cast(self, x: Val, dtype: str) -> Val:
        return self._node("Cast", [x], NUMPY.cast(x.value, dtype), to=self.b.elem_type(dtype))

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

    def expand_dims(self, x: Val, axis: int) -> Val:
        return Val(self.b.unsqueeze(x.name, [axis]), NUMPY.expand_dims(x.value, axis))

    def squeeze(self, x: Val, axis: int) -> Val:
        return Val(self.b.squeeze(x.name, [axis]), NUMPY.squeeze(x.value, axis))

    def flatten(self, x: Val) -> Val:
        return Val(self.b.node("Reshape", [x.name, self.b.const([-1], np.int64)]), NUMPY.flatten(x.value))

    def reshape(self, x: Val, shape: Val) -> Val:
        return Val(self.b.reshape(x.name, shape.name), NUMPY.reshape(x.value, shape.value))

    def shape_of(self, x: Val, lo: int = 0, hi: int | None = None) -> Val:
        value = np.asarray(NUMPY.shape_of(x.value, lo, hi), dtype=np.int64)
        if lo == 0 and hi is None:
            return self._node("Shape", [x], value)
        return Val(self.b.shape_part(x.name, lo, hi), value)

    def _fill(self, x: Val, value: Any) -> Val:
        dt = np.asarray(x.value).dtype
        return Val(self.b.fill_like(x.name, value, dt), NUMPY.full_like(x.value, value))

    def zeros_like(self, x: Val) -> Val:
        return self._fill(x, 0)

    def ones_like(self, x: Val) -> Val:
        return self._fill(x, 1)

    def full_like(self, x: Val, value: Any) -> Val:
        return self._fill(x, value)

    def identity(self, x: Val, reduction: str) -> Any:
        return identity_value(reduction, np.asarray(x.value).dtype)

    def default_fill(self, x: Val) -> Any:
        return default_fill_value(np.asarray(x.value).dtype)

    def rank(self, x: Val) -> int:
        return int(np.ndim(x.value))

    def tuple_len(self, i: Val) -> int:
        return int(self.b.tuple_len(i.name))

    def align(self, mask: Val, y: Val, lead: int) -> Val:
        value = NUMPY.align(mask.value, y.value, lead)
        axes = list(range(lead)) + list(range(lead + np.ndim(mask.value), np.ndim(y.value)))
        return Val(self.b.unsqueeze(mask.name, axes), value) if axes else mask

    def zeros(self, shape: Val, like: Val) -> Val:
        t = self.b.numpy_helper.from_array(np.zeros(1, np.asarray(like.value).dtype), self.b.fresh("v"))
        return Val(self.b.node("ConstantOfShape", [self.b.as_int64(shape.name)], value=t),
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
        return Val(self.b.concat([x.name for x in shapes]), np.asarray(NUMPY.concat([x.value for x in shapes]),
                                                                        dtype=np.int64))

    def last(self, x: Val, default: int) -> Val:
        """``Gather(Concat([default], x), -1)``: the last element, ``default`` for an empty ``x``."""
        b, value = self.b, NUMPY.last(x.value, default)
        head = b.const([default], np.asarray(x.value).dtype)
        return Val(b.node("Gather", [b.node("Concat", [head, x.name], axis=0), b.const(-1, np.int64)], axis=0), value)

    def count_shape(self, n: Val) -> Val:
        value = np.asarray(NUMPY.count_shape(n.value), dtype=np.int64)
        return Val(self.b.reshape(self.b.as_int64(n.name), self.b.const([1], np.int64)), value)

    def component(self, y: Val, j: int) -> Val:
        return Val(self.b.node("Gather", [y.name, self.b.const(j, np.int64)], axis=-1), NUMPY.component(y.value, j))

    def sqrt(self, x: Val) -> Val:
        return self._node("Sqrt", [x], NUMPY.sqrt(x.value))

    def to_float(self, x: Val) -> Val:
        value = NUMPY.to_float(x.value)
        return x if value.dtype == np.asarray(x.value).dtype else self.cast(x, value.dtype.name)

    def cumsum_last(self, x: Val) -> Val:
        """``CumSum`` along the last axis (opset 11)."""
        axis = Val(self.b.const(-1, np.int64), np.asarray(-1))
        return self._node("CumSum", [x, axis], NUMPY.cumsum_last(x.value))

    def bucketize(self, e: Val, data: Val, axis: int) -> Val:
        """``ReduceSum(Cast(Not(Greater(Unsqueeze(e, -1), Range(0, s, 1)))), -2)`` (``s = data.shape[axis]``)."""
        b = self.b
        zero, one = b.const(0, np.int64), b.const(1, np.int64)
        size = b.node("Gather", [b.node("Shape", [data.name]), b.const(axis, np.int64)], axis=0)
        hit = b.node("Not", [b.node("Greater", [b.unsqueeze(e.name, [-1]), b.node("Range", [zero, size, one])])])
        count = b.node("Cast", [hit], to=b.elem_type(np.int64))
        axes = {"axes": [-2]} if b.opset < 13 else {}
        inputs = [count] if b.opset < 13 else [count, b.const([-2], np.int64)]
        return Val(b.node("ReduceSum", inputs, keepdims=0, **axes), NUMPY.bucketize(e.value, data.value, axis))

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


# --- s7-sorted ---


@adapter("segment_count")
def segment_count(v: Any, i: Any) -> Any:
    """``i[-1] + 1`` (0 for an empty ``i``), in ``i``'s dtype: the number of segments of sorted ids (TF, Paddle and
    TFLite ``segment_*`` make ``segment_ids[-1] + 1`` output rows; the sortedness check stays the dialect's)."""
    return v.add(v.last(i, -1), 1)


@adapter("full_rows")
def full_rows(v: Any, n: Any, i: Any, data: Any, *, value: Any = None, reduction: str | None = None) -> Any:
    """``full((n,) + data.shape[i.ndim:], e, data.dtype)``: a segment reduction's output canvas, ``e`` = ``value``
    or ``reduction``'s identity (``n`` a count: an int, a 0-d or 1-element integer array)."""
    e = value if value is not None else v.identity(data, reduction)
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
    total, n = v.to_float(v.component(y, 0)), v.to_float(v.maximum(v.component(y, 1), 1))
    return v.div(total, v.sqrt(n) if sqrt else n, "floor")
# --- s7-bags ---
# torch.segment_reduce: the segment of each row, read from lengths (or offsets) along the reduced axis.

_primitive("slice_last", "slice_last", ("start",), "``x[..., start:]`` (offsets without their first entry: one "
           "per segment end).")


@adapter("segment_ids")
def segment_ids(v: Any, s: Any, data: Any, *, axis: int, offsets: bool = False) -> Any:
    """The segment of each row of ``data`` along ``axis`` (int64, ``s.shape[:-1] + (data.shape[axis],)``).

    ``s`` holds segment lengths (segment ``k`` is rows ``[e_{k-1}, e_k)``, ``e = cumsum(s)``: the id of row ``p``
    is ``#{k : e_k <= p}``) or, with ``offsets``, segment boundaries (segment ``k`` is rows
    ``[s_k, s_{k+1})``: the id is ``#{k : s_k <= p} - 1``). Rows outside every segment get ``-1`` or
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


# --- s7-composed ---
# The element-wise step of composed ops (JAX ``x.at[].divide/power/apply``, ``lax.scatter_apply``, MLX
# ``at[].divide``, NumPy's unary ``ufunc.at``): one scatter of the core, then (or before it) one of these. Each is
# a vocabulary primitive ``v.pointwise(fn, ...)``; the NumPy definitions (what the ops run) are
# ``dialects._common.POINTWISE``.

#: the unary functions with one ONNX operator (``square``: ``Mul(y, y)``), for ``apply_counted``'s ``Loop``
_ONNX_UNARY = {"negative": "Neg", "absolute": "Abs", "square": "Square", "exp": "Exp", "sin": "Sin",
               "floor": "Floor", "sign": "Sign", "sqrt": "Sqrt", "logical_not": "Not", "cos": "Cos", "ceil": "Ceil"}

#: the unary functions torch spells as NumPy does (``torch.<name>``)
_TORCH_UNARY = frozenset({"negative", "absolute", "square", "exp", "sin", "floor", "sign", "sqrt"})

_NO_APPLY = ("apply_counted: applying a function once per update landing on a position needs a loop over the "
             "number of repeats, which this target's code does not spell (translate to 'gatherscatter', 'numpy', "
             "'jax' or 'torch': they run it)")


@adapter("divide_inexact")
def divide_inexact(v: Any, x: Any, y: Any) -> Any:
    """``x / y``, true division; integer and bool operands first become float32 (8-32 bits) or float64 (64 bits),
    as JAX's ``true_divide`` (a zero divisor gives inf or NaN)."""
    return v.pointwise("divide_inexact", x, y)


@adapter("power")
def power(v: Any, x: Any, y: Any) -> Any:
    """``x ** y`` in ``x``'s dtype (float32 computed in float64 and rounded once; an integer base with a negative
    integer exponent is refused)."""
    return v.pointwise("power", x, y)


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
