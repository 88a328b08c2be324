"""The translation IR: a straight-line program of op calls and small adapters.

A :class:`Program` is a list of :class:`Step` objects over named values. The
program's inputs are the *source* op's tensor arguments (``input``, ``index``,
``src`` for ``torch.scatter_reduce``); every step binds one new name; the
last step's name is the output.

Two kinds of steps:

``op``
    a call of a registered op (``onnx.ScatterND``, ``torch.gather``, the
    neutral ``gatherscatter.scatter_nd``) with tensor arguments taken from
    named values and the rest fixed as attributes;
``adapter``
    one of a closed set of small tensor functions (move an axis, cast,
    normalise negatives, clip, zeros, ...). Every adapter has a NumPy
    implementation here (used by :meth:`Program.run`) and a code emitter per
    target framework (``translate/codegen.py``), so the same program runs here,
    prints as source code, and exports as an ONNX graph.

Running a program evaluates op steps through gatherscatter's own dialects,
which are verified against the real frameworks: ``Program.run`` is therefore a
faithful model of the translated code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.policy import Reduction
from ..errors import ArgumentError, UnsupportedError

__all__ = ["ADAPTERS", "Adapter", "Program", "Step", "identity_value"]

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Step:
    """One step: ``out = op(**args, **attrs)`` or ``out = adapter(*args, **attrs)``.

    ``args`` maps the callee's tensor parameter names to value names (an
    adapter's parameters are positional: ``x``, ``i``, ``data`` ...);
    ``attrs`` are fixed, non-tensor arguments; ``why`` says in one line why
    the step is there (shown in plans).
    """

    kind: str  # "op" | "adapter"
    name: str  # op qualname ("onnx.GatherND") or adapter name ("moveaxis")
    out: str
    args: tuple[tuple[str, str], ...]
    attrs: tuple[tuple[str, Any], ...] = ()
    why: str = ""

    @staticmethod
    def op(name: str, out: str, args: Mapping[str, str], why: str = "", **attrs: Any) -> Step:
        """An op call step."""
        return Step("op", name, out, tuple(args.items()), tuple(attrs.items()), why)

    @staticmethod
    def adapt(name: str, out: str, *args: str, why: str = "", **attrs: Any) -> Step:
        """An adapter step (``name`` must be in :data:`ADAPTERS`)."""
        if name not in ADAPTERS:
            raise UnsupportedError(f"unknown adapter {name!r}")
        params = ADAPTERS[name].params
        if len(args) != len(params):
            raise ArgumentError(f"adapter {name} takes {len(params)} values {params}; got {len(args)}")
        return Step("adapter", name, out, tuple(zip(params, args, strict=True)), tuple(attrs.items()), why)

    @property
    def arg_map(self) -> dict[str, str]:
        return dict(self.args)

    @property
    def attr_map(self) -> dict[str, Any]:
        return dict(self.attrs)

    def describe(self) -> str:
        """``out = name(arg=value, ..., attr=literal)`` for plans."""
        parts = [f"{k}={v}" if self.kind == "op" else v for k, v in self.args]
        parts += [f"{k}={v!r}" for k, v in self.attrs]
        return f"{self.out} = {self.name}({', '.join(parts)})"


@dataclass(frozen=True)
class Adapter:
    """A small tensor function with a NumPy implementation (the definition)."""

    name: str
    params: tuple[str, ...]
    run: Callable[..., Any]
    doc: str


ADAPTERS: dict[str, Adapter] = {}


def _adapter(name: str, *params: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        ADAPTERS[name] = Adapter(name, params, fn, (fn.__doc__ or "").strip())
        return fn

    return deco


def _sizes(data: Array, axis: int | None, batch_dims: int | None, k: int | None) -> Any:
    """The axis size(s) an index addresses: ``s`` (axis form) or ``data.shape[b:b+k]`` (nd form)."""
    if axis is not None:
        return data.shape[axis]
    b = batch_dims or 0
    return np.asarray(data.shape[b : b + (k or 0)], dtype=np.int64)


@_adapter("moveaxis", "x")
def _moveaxis(x: Array, *, source: int, destination: int) -> Array:
    """``np.moveaxis(x, source, destination)`` (a Transpose)."""
    return np.moveaxis(np.asarray(x), source, destination)


@_adapter("expand_dims", "x")
def _expand_dims(x: Array, *, axis: int) -> Array:
    """``np.expand_dims(x, axis)`` (an Unsqueeze)."""
    return np.expand_dims(np.asarray(x), axis)


@_adapter("flatten", "x")
def _flatten(x: Array) -> Array:
    """``x.reshape(-1)``."""
    return np.asarray(x).reshape(-1)


@_adapter("cast", "x")
def _cast(x: Array, *, dtype: str) -> Array:
    """``x.astype(dtype)`` (float -> int truncates toward zero)."""
    return np.asarray(x).astype(dtype)


@_adapter("normalize_negative", "i", "data")
def _normalize_negative(i: Array, data: Array, *, axis: int | None = None, batch_dims: int | None = None) -> Array:
    """``i + s * (i < 0)`` with ``s`` the addressed axis size (per tuple component in the nd form).

    Exact for ``-s <= i < 0``; an index below ``-s`` stays negative, so a
    target that rejects negatives still raises where the source does.
    """
    i = np.asarray(i)
    s = _sizes(np.asarray(data), axis, batch_dims, i.shape[-1] if i.ndim else 0)
    return np.where(i < 0, i + np.asarray(s, dtype=i.dtype), i)


@_adapter("clip_index", "i", "data")
def _clip_index(i: Array, data: Array, *, axis: int | None = None, batch_dims: int | None = None) -> Array:
    """``clip(i, 0, s - 1)`` (NumPy/MXNet ``mode='clip'``, XLA clamp)."""
    i = np.asarray(i)
    s = _sizes(np.asarray(data), axis, batch_dims, i.shape[-1] if i.ndim else 0)
    return np.asarray(np.clip(i, 0, np.maximum(np.asarray(s, dtype=i.dtype) - 1, 0)))


@_adapter("wrap_index", "i", "data")
def _wrap_index(i: Array, data: Array, *, axis: int | None = None, batch_dims: int | None = None) -> Array:
    """``i mod s`` (NumPy ``mode='wrap'``)."""
    i = np.asarray(i)
    s = _sizes(np.asarray(data), axis, batch_dims, i.shape[-1] if i.ndim else 0)
    return np.asarray(np.mod(i, np.asarray(s, dtype=i.dtype)))


@_adapter("valid_mask", "i", "data")
def _valid_mask(i: Array, data: Array, *, axis: int | None = None, batch_dims: int | None = None) -> Array:
    """``0 <= i < s`` (after negative handling), reduced over the tuple axis in the nd form."""
    i = np.asarray(i)
    s = _sizes(np.asarray(data), axis, batch_dims, i.shape[-1] if i.ndim else 0)
    ok = (i >= 0) & (i < np.asarray(s, dtype=i.dtype))
    return ok if axis is not None else np.all(ok, axis=-1)


@_adapter("mask_result", "y", "mask")
def _mask_result(y: Array, mask: Array, *, lead: int, value: Any = None, reduction: str | None = None) -> Array:
    """``where(mask, y, value)``, ``mask`` aligned to ``y``'s dims starting at ``lead``.

    ``value=None`` with ``reduction`` uses the reduction's identity in ``y``'s dtype.
    """
    y, mask = np.asarray(y), np.asarray(mask)
    m = mask.reshape((1,) * lead + mask.shape + (1,) * (y.ndim - lead - mask.ndim))
    v = identity_value(reduction, y.dtype) if value is None and reduction else value
    return np.where(m, y, np.asarray(v).astype(y.dtype))


@_adapter("zeros", "shape", "like")
def _zeros(shape: Any, like: Array) -> Array:
    """``zeros(shape, like.dtype)`` (TF ``scatter_nd``'s implicit zero tensor)."""
    return np.zeros(tuple(int(n) for n in np.asarray(shape).reshape(-1)), dtype=np.asarray(like).dtype)


@_adapter("slice_like", "x", "like")
def _slice_like(x: Array, like: Array) -> Array:
    """``x[:n0, :n1, ...]`` with ``like``'s shape (torch reads only the index-shaped block of ``src``)."""
    x, like = np.asarray(x), np.asarray(like)
    if x.ndim == 0 or like.ndim == 0:
        return x.reshape(like.shape) if x.size == like.size else x
    return x[tuple(slice(0, n) for n in like.shape)]


@_adapter("full_updates", "i", "data")
def _full_updates(i: Array, data: Array, *, value: Any) -> Array:
    """``full(i.shape, value, data.dtype)``: updates for a scalar ``value`` (torch ``scatter(value=)``)."""
    return np.full(np.asarray(i).shape, value, dtype=np.asarray(data).dtype)


@_adapter("zeros_like", "x")
def _zeros_like(x: Array) -> Array:
    """``zeros_like(x)``."""
    return np.zeros_like(np.asarray(x))


@_adapter("ones_like", "x")
def _ones_like(x: Array) -> Array:
    """``ones_like(x)``."""
    return np.ones_like(np.asarray(x))


@_adapter("identity_like", "x")
def _identity_like(x: Array, *, reduction: str) -> Array:
    """``full_like(x, e)``, ``e`` the reduction's neutral element (0, 1, -inf/lowest, +inf/highest)."""
    x = np.asarray(x)
    return np.full_like(x, identity_value(reduction, x.dtype))


@_adapter("negative", "x")
def _negative(x: Array) -> Array:
    """``-x`` (turns a subtracting scatter into an adding one: exact, wraps like the subtraction)."""
    x = np.asarray(x)
    if x.dtype.kind == "b":
        raise UnsupportedError("negative: bool has no additive inverse (a bool 'sub' scatter is XOR)")
    with np.errstate(over="ignore"):
        return np.asarray(np.negative(x))


@_adapter("scale", "x")
def _scale(x: Array, *, alpha: Any) -> Array:
    """``alpha * x`` (torch ``index_add(alpha=)``), in ``x``'s dtype."""
    x = np.asarray(x)
    return np.asarray(x * np.asarray(alpha).astype(x.dtype)).astype(x.dtype)


@_adapter("divide_counts", "total", "count", "data")
def _divide_counts(total: Array, count: Array, data: Array, *, rounding: str = "floor") -> Array:
    """Mean from sum and count: ``total / count`` where ``count > 0``, ``data`` elsewhere.

    Integer types divide with floor (``rounding='floor'``) or toward zero
    (``'trunc'``); the division happens in the data dtype.
    """
    total, count, data = np.asarray(total), np.asarray(count), np.asarray(data)
    safe = np.where(count == 0, np.ones_like(count), count)
    if total.dtype.kind in "iu":
        q = total // safe if rounding == "floor" else np.trunc(np.true_divide(total, safe)).astype(total.dtype)
    else:
        q = (total / safe).astype(total.dtype)
    return np.where(count == 0, data, q)


@_adapter("coordinates", "i")
def _coordinates(i: Array, *, axis: int) -> Array:
    """Full index tuples for an element-wise index (E4): ``C[..., a] = i``, ``C[..., d] = iota_d`` elsewhere."""
    i = np.asarray(i)
    grids: list[Array] = list(np.indices(i.shape, dtype=np.int64)) if i.ndim else []
    if i.ndim:
        grids[axis] = i.astype(np.int64)
    return np.stack(grids, axis=-1) if grids else np.zeros((0,), np.int64)


@_adapter("stack_last", "seq")
def _stack_last(seq: Any) -> Array:
    """Index tuples from a sequence of index arrays: ``stack(broadcast_arrays(*seq), -1)`` (E12, E15)."""
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in seq])
    return np.stack(arrays, axis=-1)


@_adapter("unstack_last", "i")
def _unstack_last(i: Array) -> tuple[Array, ...]:
    """A tuple of index arrays from index tuples on the last axis (for ``x[tuple]`` style targets)."""
    i = np.asarray(i)
    return tuple(i[..., j] for j in range(i.shape[-1]))


@_adapter("broadcast_indices", "i", "data")
def _broadcast_indices(i: Array, data: Array, *, axis: int) -> Array:
    """Broadcast ``i`` against ``data`` on every axis but ``axis`` (``take_along_axis`` rules)."""
    i, data = np.asarray(i), np.asarray(data)
    shape = list(np.broadcast_shapes(tuple(np.delete(i.shape, axis)), tuple(np.delete(data.shape, axis))))
    shape.insert(axis, i.shape[axis])
    return np.broadcast_to(i, tuple(shape))


@_adapter("broadcast_data", "x", "i")
def _broadcast_data(x: Array, i: Array, *, axis: int | None) -> Array:
    """Broadcast ``x`` to ``i``'s shape (``axis=None``), or on every axis but ``axis``."""
    x, i = np.asarray(x), np.asarray(i)
    if axis is None:
        return np.broadcast_to(x, i.shape)
    shape = list(np.broadcast_shapes(tuple(np.delete(x.shape, axis)), tuple(np.delete(i.shape, axis))))
    shape.insert(axis, x.shape[axis])
    return np.broadcast_to(x, tuple(shape))


def identity_value(reduction: str, dtype: np.dtype[Any]) -> Any:
    """The neutral element of ``reduction`` in ``dtype`` (what E10 pre-fills)."""
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


@dataclass
class Program:
    """Steps over named values; ``inputs`` are the source op's tensor parameters."""

    inputs: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)

    @property
    def output(self) -> str:
        return self.steps[-1].out if self.steps else self.inputs[0]

    def run(self, env: Mapping[str, Any]) -> Array:
        """Evaluate with gatherscatter's dialects (op steps) and NumPy (adapters)."""
        from ..dialects._registry import get_op

        values: dict[str, Any] = dict(env)
        for step in self.steps:
            args = {k: values[v] for k, v in step.args}
            if step.kind == "op":
                values[step.out] = get_op(step.name)(**args, **step.attr_map)
            else:
                values[step.out] = ADAPTERS[step.name].run(*args.values(), **step.attr_map)
        return np.asarray(values[self.output])

    def ops(self) -> list[str]:
        """The op qualnames called, in order."""
        return [s.name for s in self.steps if s.kind == "op"]

