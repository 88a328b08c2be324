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
    normalise negatives, clip, zeros, ...). Most adapters are written once in
    :mod:`.adapters` against a vocabulary of array primitives that every target
    implements (NumPy here, for :meth:`Program.run`; Python source per framework;
    OpenVINO calls; ONNX nodes); the rest still have a NumPy implementation here and
    an emitter per target. So the same program runs here, prints as source code,
    and exports as an ONNX graph.

Running a program evaluates op steps through gatherscatter's own dialects,
which are verified against the real frameworks: ``Program.run`` is therefore a
faithful model of the translated code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ..dialects._record import ADAPTER_PARAMS, Step
from ..errors import ArgumentError, ShapeError
from .adapters import DEFS, NUMPY, default_fill_value, identity_value

__all__ = ["ADAPTERS", "Adapter", "Program", "Step", "default_fill_value", "identity_value"]

Array = np.ndarray[Any, Any]


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
        if ADAPTER_PARAMS.get(name) != params:  # the record model lists every adapter with its parameters
            raise AssertionError(f"adapter {name}{params} is not declared so in dialects._record.ADAPTER_PARAMS")
        ADAPTERS[name] = Adapter(name, params, fn, (fn.__doc__ or "").strip())
        return fn

    return deco


for _name, _fn in DEFS.items():  # the adapters written once (translate/adapters.py), run with NumPy
    ADAPTERS[_name] = Adapter(_name, ADAPTER_PARAMS[_name], partial(_fn, NUMPY), (_fn.__doc__ or "").strip())


def _sizes(data: Array, axis: int | None, batch_dims: int | None, k: int | None) -> Any:
    """The axis size(s) an index addresses: ``s`` (axis form) or ``data.shape[b:b+k]`` (nd form)."""
    if axis is not None:
        return data.shape[axis]
    b = batch_dims or 0
    return np.asarray(data.shape[b : b + (k or 0)], dtype=np.int64)


@_adapter("slice_like", "x", "like")
def _slice_like(x: Array, like: Array) -> Array:
    """``x[:n0, :n1, ...]`` with ``like``'s shape (torch reads only the index-shaped block of ``src``)."""
    x, like = np.asarray(x), np.asarray(like)
    if x.ndim == 0 or like.ndim == 0:
        return x.reshape(like.shape) if x.size == like.size else x
    return x[tuple(slice(0, n) for n in like.shape)]


@_adapter("coordinates", "i")
def _coordinates(i: Array, *, axis: int) -> Array:
    """Full index tuples for an element-wise index (docs/semantics.md#e4): ``C[..., a] = i``, ``C[..., d] = iota_d``
    elsewhere."""
    i = np.asarray(i)
    grids: list[Array] = list(np.indices(i.shape, dtype=np.int64)) if i.ndim else []
    if i.ndim:
        grids[axis] = i.astype(np.int64)
    return np.stack(grids, axis=-1) if grids else np.zeros((0,), np.int64)


@_adapter("stack_last", "seq")
def _stack_last(seq: Any) -> Array:
    """Index tuples from a sequence of index arrays: ``stack(broadcast_arrays(*seq), -1)`` (docs/semantics.md#e12,
    docs/semantics.md#e15)."""
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in seq])
    return np.stack(arrays, axis=-1)


@_adapter("unstack_last", "i")
def _unstack_last(i: Array) -> tuple[Array, ...]:
    """A tuple of index arrays from index tuples on the last axis (for ``x[tuple]`` style targets)."""
    i = np.asarray(i)
    return tuple(i[..., j] for j in range(i.shape[-1]))


# --------------------------------------------------------------- adapters added for the target planners (B)


@_adapter("take_coordinates", "i", "data")
def _take_coordinates(i: Array, data: Array, *, axis: int, batch_dims: int = 0) -> Array:
    """Element coordinates of a gather along ``axis`` with ``batch_dims`` (docs/semantics.md#e1/docs/semantics.md#e7,
    int64):
    ``C[p, m, t] = (p, i[p[:b], m], t)`` over the gather's output shape
    ``data.shape[:a] + i.shape[b:] + data.shape[a+1:]``; ``C.shape[-1] = data.ndim``."""
    i, data = np.asarray(i), np.asarray(data)
    r, q = data.ndim, i.ndim
    a = axis % r
    b = batch_dims % q if batch_dims < 0 else batch_dims
    out = data.shape[:a] + i.shape[b:] + data.shape[a + 1 :]
    grid = np.indices(out, dtype=np.int64) if out else np.zeros((0,), np.int64)
    ii = i.astype(np.int64).reshape(i.shape[:b] + (1,) * (a - b) + i.shape[b:] + (1,) * (r - a - 1))
    comps = [grid[d] for d in range(a)] + [np.broadcast_to(ii, out)]
    comps += [grid[a + q - b + t] for t in range(r - a - 1)]
    return np.stack(comps, axis=-1)


@_adapter("nd_coordinates", "i", "data")
def _nd_coordinates(i: Array, data: Array, *, batch_dims: int = 0) -> Array:
    """Element coordinates of an nd index (tuples on the last axis, ``batch_dims`` shared leading dims):
    ``C[β, m, t] = (β, i[β, m], t)`` over ``i.shape[:-1] + data.shape[b+k:]``; ``C.shape[-1] = data.ndim``
    (int64). Turns any gather_nd/scatter_nd into one over single elements without batch dims."""
    i, data = np.asarray(i), np.asarray(data)
    b, k, r = batch_dims, i.shape[-1], data.ndim
    out = i.shape[:-1] + data.shape[b + k :]
    grid = np.indices(out, dtype=np.int64) if out else np.zeros((0,), np.int64)
    lead = i.ndim - 1
    comps = [grid[d] for d in range(b)]
    comps += [np.broadcast_to(i[..., c].astype(np.int64).reshape(i.shape[:-1] + (1,) * (r - b - k)), out)
              for c in range(k)]
    comps += [grid[lead + t] for t in range(r - b - k)]
    return np.stack(comps, axis=-1) if comps else np.zeros(out + (0,), np.int64)


@_adapter("ravel_tuples", "i", "data")
def _ravel_tuples(i: Array, data: Array) -> Array:
    """Row-major flat offsets (int64) of index tuples (last axis, ``k`` components) into ``data.shape[:k]``.

    A tuple with a component outside ``[0, s)`` becomes ``prod(data.shape[:k])`` (one past the end), so a
    bounds-checking flat op (``np.take``/``np.put`` mode 'raise', ``torch.take``) raises on it.
    """
    i, data = np.asarray(i).astype(np.int64), np.asarray(data)
    k = i.shape[-1]
    s = np.asarray(data.shape[:k], dtype=np.int64)
    ok = np.all((i >= 0) & (i < s), axis=-1)
    strides = np.ones(k, dtype=np.int64)
    for d in range(k - 2, -1, -1):
        strides[d] = strides[d + 1] * s[d + 1]
    off = (np.where(ok[..., None], i, 0) * strides).sum(axis=-1, dtype=np.int64)
    return np.asarray(np.where(ok, off, np.int64(np.prod(s, dtype=np.int64))))


@_adapter("combine", "x", "y")
def _combine(x: Array, y: Array, *, reduction: str) -> Array:
    """Element-wise ``x (op) y`` for ``reduction`` add/sub/mul/max/min, in ``x``'s dtype (integers wrap,
    bool add/max is or, mul/min is and; max/min propagate NaN)."""
    x, y = np.asarray(x), np.asarray(y)
    fn: Any = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum,
               "min": np.minimum}[reduction]
    if x.dtype.kind == "b":
        fn = {"add": np.logical_or, "max": np.logical_or, "mul": np.logical_and, "min": np.logical_and,
              "sub": np.logical_xor}[reduction]
    with np.errstate(over="ignore"):
        return np.asarray(fn(x, y)).astype(x.dtype)


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



# ------------------------------------------------------------------ adapters added for the source descriptions


@_adapter("cycle_to", "v", "i")
def _cycle_to(v: Array, i: Array) -> Array:
    """``v`` flattened and repeated cyclically (or cut) to ``i.size`` elements: ``np.resize(v.ravel(), i.size)``
    (NumPy ``put`` cycles a short ``v``). ``v`` must not be empty."""
    v, i = np.asarray(v), np.asarray(i)
    if v.size == 0 and i.size:
        raise ArgumentError("cycle_to: cannot cycle an empty v")
    return np.resize(v.reshape(-1), i.size) if i.size else v.reshape(-1)[:0]


@_adapter("positions", "w", "u", "data")
def _positions(w: Array | None, u: Array, data: Array, *, axis: int, circular: bool = False) -> Array:
    """Write positions over ``u``'s shape: ``P[b, ..., j, ...] = w[b] + j``, ``j`` the index along ``axis``;
    ``(w[b] + j) mod data.shape[axis]`` (floor modulo, computed as ``(w[b] mod s + j) mod s``: no overflow)
    when ``circular``; ``w`` None reads as zeros (ONNX TensorScatter's KV-cache positions, int64)."""
    u, data = np.asarray(u), np.asarray(data)
    if u.ndim == 0:
        raise ShapeError("positions: u must have a batch axis (rank >= 1); got a 0-d array")
    a = axis % u.ndim
    j: Array = np.asarray(np.indices(u.shape, dtype=np.int64)[a])
    if w is None:
        return j
    w = np.asarray(w)
    if w.shape != u.shape[:1]:
        raise ShapeError(f"positions: w must have shape [{u.shape[0]}] (u.shape[0]); got {list(w.shape)}")
    start = w.astype(np.int64).reshape(u.shape[:1] + (1,) * (u.ndim - 1))
    if circular:
        s = max(int(data.shape[a]), 1)
        return np.asarray((start % s + j) % s)
    with np.errstate(over="ignore"):
        return np.asarray(start + j)
