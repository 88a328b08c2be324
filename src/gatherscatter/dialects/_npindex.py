"""NumPy-style index expressions, normalised into per-axis coordinates and a result layout.

:func:`normalize_index` reads an index expression the way NumPy reads ``x[index]``
(integers, slices, ``Ellipsis``, ``None``, integer arrays, boolean masks and
tuples of those, with NumPy's advanced-indexing placement rules) and returns an
:class:`IndexPlan`: the result shape, and for every axis of ``x`` the coordinates
that axis is read at, laid out against the result dims. A gather is then
``Y[j] = x[c_0[j], c_1[j], ...]`` and a scatter writes where the gather reads.

Out-of-range handling is NOT done here: integer and integer-array entries are
returned exactly as the caller wrote them (negative, too large), so that each
dialect applies its own policy (NumPy raises, JAX wraps once then clamps or
fills or drops). Slices are resolved with :meth:`slice.indices` and are always
in range. Python ints beyond the int64 range are saturated to it (still out of
range for every axis).

The rules, as NumPy applies them (and JAX with the noted exception):

* a non-tuple index is a 1-tuple (a list is an integer or boolean array);
* ``...`` expands to as many full slices as needed (at most one ``...``);
  missing trailing axes are full slices;
* ``None`` inserts a result dim of size 1 and consumes no axis;
* a boolean array of rank ``k`` consumes ``k`` axes and is read as its
  ``nonzero()`` (``k`` integer arrays); each of its dims must equal the axis
  size or be 0; a scalar boolean consumes no axis and acts as an integer array
  of shape ``(1,)`` (True) or ``(0,)`` (False);
* integer arrays, boolean arrays, scalar booleans and (when any of those is
  present) integer scalars are the *advanced* entries: they broadcast together
  to ``advanced_shape``; their result dims replace the first advanced entry when
  the advanced entries are adjacent in the index tuple, and go first otherwise
  (``None`` and ``...`` between them break adjacency). JAX (``adjacency='jax'``)
  ignores scalar booleans when deciding adjacency;
* without advanced entries, integer scalars remove their axis.

>>> plan = normalize_index((slice(None), [2, 0]), (2, 3))
>>> plan.result_shape
(2, 2)
>>> [c.tolist() for c in plan.coordinates()]
[[[0], [1]], [[2, 0]]]
>>> normalize_index((0, slice(None), [1, 1]), (2, 3, 4)).result_shape
(2, 3)
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.context import NEUTRAL, OpContext
from ..errors import ArgumentError, DTypeError, IndexOutOfRangeError, ShapeError, UnsupportedError

__all__ = ["AxisIndex", "IndexPlan", "index_tuples", "normalize_index"]

_I64 = np.iinfo(np.int64)


@dataclass(frozen=True)
class AxisIndex:
    """How one axis of the indexed array is read.

    ``kind``: ``'slice'`` (``start``, ``step``, ``size``; always in range),
    ``'int'`` (a basic integer: the axis disappears) or ``'array'`` (an advanced
    entry: integer array, integer scalar among advanced entries, or one component
    of a boolean mask). ``values`` holds the coordinates as written (any integer
    dtype; for slices an int64 ``arange``), laid out on the result dims ``dims``
    (in order; ``()`` for a basic integer). ``full`` says the slice reads the whole
    axis in order.
    """

    kind: Literal["slice", "int", "array"]
    values: np.ndarray[Any, Any]
    dims: tuple[int, ...]
    start: int = 0
    step: int = 1
    size: int = 0

    @property
    def full(self) -> bool:
        """A slice that reads the whole axis in order (``:``)."""
        return self.kind == "slice" and self.start == 0 and self.step == 1 and self.values.shape == (self.size,)


@dataclass(frozen=True)
class IndexPlan:
    """A normalised index expression: ``x[index]`` as coordinates per axis of ``x``.

    ``shape``: the shape of ``x``; ``result_shape``: the shape of ``x[index]``;
    ``axes``: one :class:`AxisIndex` per axis of ``x``; ``advanced``: whether
    advanced (fancy) indexing applies; ``advanced_shape`` / ``advanced_dims``:
    the broadcast shape of the advanced entries and the (consecutive) result
    dims holding it; ``newaxis_dims``: result dims created by ``None``.
    """

    shape: tuple[int, ...]
    result_shape: tuple[int, ...]
    axes: tuple[AxisIndex, ...]
    advanced: bool
    advanced_shape: tuple[int, ...]
    advanced_dims: tuple[int, ...]
    newaxis_dims: tuple[int, ...]

    def coordinates(self) -> tuple[np.ndarray[Any, Any], ...]:
        """Per axis of ``x``: its coordinates, of rank ``len(result_shape)``, broadcastable to it."""
        return tuple(self._laid_out(ax, len(self.result_shape), 0) for ax in self.axes)

    def _laid_out(self, ax: AxisIndex, rank: int, first: int) -> np.ndarray[Any, Any]:
        shape = [1] * rank
        for d, n in zip(ax.dims, ax.values.shape, strict=True):
            shape[d - first] = n
        return ax.values.reshape(shape)

    def full_ends(self) -> tuple[int, int]:
        """``(lead, trail)``: how many leading / trailing axes of ``x`` are full slices
        that stay, in order, the leading / trailing dims of the result.

        A gather then reads ``Y[p, m, r] = x[p, I[m], r]`` with index tuples ``I``
        only over the middle dims (see :func:`index_tuples`).
        """
        r, n = len(self.axes), len(self.result_shape)
        lead = 0
        while lead < r and self.axes[lead].full and self.axes[lead].dims == (lead,):
            lead += 1
        trail = 0
        while trail < r - lead:
            ax = self.axes[r - 1 - trail]
            if not (ax.full and ax.dims == (n - 1 - trail,)):
                break
            trail += 1
        return lead, trail


def index_tuples(plan: IndexPlan, lead: int = 0, trail: int = 0) -> np.ndarray[Any, Any]:
    """Stacked int64 coordinates of the middle axes ``lead .. r-trail-1``.

    Shape ``result_shape[lead : n-trail] + (r - lead - trail,)``; the index tuple of
    middle result position ``m`` is ``out[m]``. Unsigned values above the int64
    range become the int64 maximum (out of range for every axis).
    """
    n, r = len(plan.result_shape), len(plan.axes)
    mid = plan.result_shape[lead : n - trail]
    comps = []
    for ax in plan.axes[lead : r - trail]:
        v = ax.values
        if v.dtype.kind == "u" and v.dtype.itemsize == 8:
            v = np.minimum(v, np.uint64(_I64.max))
        v = v.astype(np.int64, copy=False)
        shape = [1] * len(mid)
        for d, size in zip(ax.dims, v.shape, strict=True):
            shape[d - lead] = size
        comps.append(np.broadcast_to(v.reshape(shape), mid))
    if not comps:
        return np.zeros((*mid, 0), np.int64)
    return np.stack(comps, axis=-1)


# ---------------------------------------------------------------------------------------
# parsing


@dataclass
class _Entry:
    kind: str  # none | ellipsis | slice | int | array | bool | boolscalar
    value: Any
    pos: int
    consumed: int = 0


def _int_scalar(value: Any) -> np.ndarray[Any, Any]:
    if isinstance(value, np.integer):
        return np.asarray(value)
    v = operator.index(value)
    return np.asarray(min(max(v, int(_I64.min)), int(_I64.max)), np.int64)


def _slice_part(ctx: OpContext, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise ArgumentError(
            f"{ctx.label}: slice indices must be integers or None (got {value!r} of type {type(value).__name__})"
        ) from None


def _classify(ctx: OpContext, item: Any, pos: int) -> _Entry:
    if item is None:
        return _Entry("none", None, pos)
    if item is Ellipsis:
        return _Entry("ellipsis", None, pos)
    if isinstance(item, slice):
        parts = (_slice_part(ctx, item.start), _slice_part(ctx, item.stop), _slice_part(ctx, item.step))
        if parts[2] == 0:
            raise UnsupportedError(f"{ctx.label}: slice step cannot be zero (index entry {pos}: {item!r})")
        return _Entry("slice", slice(*parts), pos, 1)
    if isinstance(item, (bool, np.bool_)):
        return _Entry("boolscalar", bool(item), pos)
    if isinstance(item, (int, np.integer)):
        return _Entry("int", _int_scalar(item), pos, 1)
    if isinstance(item, (float, complex, np.inexact)):
        raise DTypeError(
            f"{ctx.label}: index entry {pos} is a {type(item).__name__} ({item!r}); indices must be "
            "integers, slices, ..., None, or integer or boolean arrays"
        )
    if isinstance(item, (np.ndarray, Sequence)) and not isinstance(item, (str, bytes)):
        try:
            with np.errstate(all="ignore"):
                arr = np.asarray(item)
        except (ValueError, TypeError) as exc:
            raise ShapeError(f"{ctx.label}: index entry {pos} is not an array NumPy can read ({exc})") from None
        if not isinstance(item, np.ndarray) and arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)  # an empty list holds no index at all
        if arr.dtype.kind == "b":
            if arr.ndim == 0:
                return _Entry("boolscalar", bool(arr), pos)
            return _Entry("bool", arr, pos, arr.ndim)
        if arr.dtype.kind in "iu":
            if arr.ndim == 0:
                return _Entry("int", arr, pos, 1)
            return _Entry("array", arr, pos, 1)
        raise DTypeError(
            f"{ctx.label}: index entry {pos} has dtype {arr.dtype}; arrays used as indices must be of "
            "integer (or boolean) type"
        )
    raise ArgumentError(
        f"{ctx.label}: index entry {pos} ({item!r} of type {type(item).__name__}) is not a valid index; "
        "only integers, slices (:), ellipsis (...), None and integer or boolean arrays are"
    )


def normalize_index(
    index: Any,
    shape: tuple[int, ...],
    *,
    ctx: OpContext = NEUTRAL,
    adjacency: Literal["numpy", "jax"] = "numpy",
) -> IndexPlan:
    """Read ``x[index]`` for an ``x`` of ``shape``; see the module docstring.

    Errors (messages name ``ctx``): too many indices, two ellipses or a boolean
    mask that does not match -> :class:`IndexOutOfRangeError` (NumPy's
    IndexError); advanced indices that do not broadcast -> :class:`ShapeError`;
    float or other non-integer entries -> :class:`DTypeError` / :class:`ArgumentError`.
    ``adjacency='jax'`` applies jax.numpy's rule (scalar booleans do not count
    when deciding whether the advanced entries are adjacent).
    """
    shape = tuple(int(s) for s in shape)
    items = index if isinstance(index, tuple) else (index,)
    entries = [_classify(ctx, item, pos) for pos, item in enumerate(items)]
    ellipses = [e for e in entries if e.kind == "ellipsis"]
    if len(ellipses) > 1:
        raise IndexOutOfRangeError(f"{ctx.label}: an index can only have a single ellipsis ('...')")
    used = sum(e.consumed for e in entries)
    r = len(shape)
    if used > r:
        raise IndexOutOfRangeError(
            f"{ctx.label}: too many indices for array: array is {r}-dimensional, but {used} were indexed"
        )
    if ellipses:
        ellipses[0].consumed = r - used
    else:
        entries.append(_Entry("ellipsis", None, len(entries), r - used))

    # the axes each entry consumes, and the advanced entries
    axis = 0
    axes_of: list[tuple[int, ...]] = []
    for e in entries:
        axes_of.append(tuple(range(axis, axis + e.consumed)))
        axis += e.consumed
    has_arrays = any(e.kind in ("array", "bool", "boolscalar") for e in entries)
    adv_kinds = ("array", "bool", "boolscalar", "int") if has_arrays else ()
    advanced = [i for i, e in enumerate(entries) if e.kind in adv_kinds]

    # advanced values (bool masks -> nonzero) and their broadcast shape
    adv_values: dict[int, list[np.ndarray[Any, Any]]] = {}
    for i in advanced:
        e = entries[i]
        if e.kind == "bool":
            want = tuple(shape[d] for d in axes_of[i])
            for j, (got, n) in enumerate(zip(e.value.shape, want, strict=True)):
                if got not in (0, n):
                    raise IndexOutOfRangeError(
                        f"{ctx.label}: boolean index did not match indexed array along axis "
                        f"{axes_of[i][j]}; size of axis is {n} but size of corresponding boolean axis "
                        f"is {got} (index entry {e.pos})"
                    )
            adv_values[i] = list(np.nonzero(e.value))
        elif e.kind == "boolscalar":
            adv_values[i] = [np.zeros((1 if e.value else 0,), np.int64)]
        else:
            adv_values[i] = [e.value]
    flat = [v for i in advanced for v in adv_values[i]]
    try:
        adv_shape = tuple(np.broadcast_shapes(*(v.shape for v in flat))) if flat else ()
    except ValueError:
        shapes = " ".join(str(tuple(v.shape)) for v in flat)
        raise ShapeError(
            f"{ctx.label}: shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}"
        ) from None

    # where the advanced dims go
    counted = [i for i in advanced if not (adjacency == "jax" and entries[i].kind == "boolscalar")]
    adjacent = all(b - a == 1 for a, b in itertools.pairwise(counted))
    insert_at = (advanced[0] if adjacent else -1) if advanced else None

    result: list[int] = []
    newaxis: list[int] = []
    adv_dims: tuple[int, ...] = ()
    layout: dict[int, AxisIndex] = {}

    def put_advanced() -> None:
        nonlocal adv_dims
        adv_dims = tuple(range(len(result), len(result) + len(adv_shape)))
        result.extend(adv_shape)

    if insert_at == -1:
        put_advanced()
    for i, e in enumerate(entries):
        if i == insert_at:
            put_advanced()
        if e.kind == "none":
            newaxis.append(len(result))
            result.append(1)
        elif e.kind == "ellipsis" or e.kind == "slice":
            for d in axes_of[i]:
                sl = e.value if e.kind == "slice" else slice(None)
                start, stop, step = sl.indices(shape[d])
                vals = np.arange(start, stop, step, dtype=np.int64)
                layout[d] = AxisIndex("slice", vals, (len(result),), start=start, step=step, size=shape[d])
                result.append(len(vals))
        elif e.kind == "int" and not advanced:
            layout[axes_of[i][0]] = AxisIndex("int", e.value.reshape(()), ())
        elif i in adv_values:
            # a scalar boolean has one value array and consumes no axis
            for d, v in zip(axes_of[i], adv_values[i], strict=False):
                layout[d] = AxisIndex("array", np.broadcast_to(v, adv_shape), adv_dims if adv_dims else ())
    # advanced entries laid out before their dims were known (adjacent case) get them now
    axes = []
    for d in range(r):
        ax = layout[d]
        if ax.kind == "array":
            ax = AxisIndex("array", ax.values, adv_dims)
        axes.append(ax)
    return IndexPlan(
        shape=shape,
        result_shape=tuple(result),
        axes=tuple(axes),
        advanced=bool(advanced),
        advanced_shape=adv_shape if advanced else (),
        advanced_dims=adv_dims,
        newaxis_dims=tuple(newaxis),
    )
