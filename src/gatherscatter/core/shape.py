"""Shapes, axes and dtypes: the checks every primitive and dialect shares.

:class:`IndexSpec` is the data description of a gather or scatter. With ``D`` the
data, ``I`` the indices, ``b = batch``, ``a = axis``, ``k = depth``::

    non-elementwise:  Y[β, p, i, r] = D[β, p, I[β, i] (k components), r]
        D.shape = B + P + S + R       B = D.shape[:b], P = D.shape[b:a],
                                       S = D.shape[a:a+k], R = D.shape[a+k:]
        I.shape = B + M (+ (k,) when ``vector``)
        Y.shape = B + P + M + R
    elementwise:      Y[j] = D[j_0 .. j_{a-1}, I[j], j_{a+1} ..]   (Y.shape = I.shape)

Every framework op is one of these: ONNX ``Gather(axis=a)`` is
``IndexSpec(axis=a)``, TF ``gather(axis=a, batch_dims=b)`` is
``IndexSpec(axis=a, batch=b)``, ``GatherND(batch_dims=b)`` with ``k`` index
components is ``IndexSpec(axis=b, depth=k, batch=b, vector=True)`` and
``GatherElements(axis=a)`` is ``IndexSpec(axis=a, batch=a, elementwise=True)``.
A scatter with the same spec writes where the gather reads: its updates have the
gather's output shape.
"""

from __future__ import annotations

import functools
import operator
import warnings
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..errors import ArgumentError, AxisError, DTypeError, ShapeError
from .context import OpContext

__all__ = [
    "IndexSpec",
    "as_array",
    "as_index_array",
    "as_updates",
    "check_allocatable",
    "check_spec",
    "check_updates_shape",
    "dtype_name",
    "gather_shape",
    "normalize_axis",
    "prod",
    "to_int",
]


@dataclass(frozen=True)
class IndexSpec:
    """Which data axes an index addresses and how indices pair with data.

    ``axis``: first data axis addressed by an index (normalised, ``>= batch``);
    ``depth``: how many consecutive data axes one index tuple addresses;
    ``batch``: leading dims shared positionally by data and indices;
    ``vector``: the index tuple lies on the last axis of ``indices``
    (otherwise each index is a scalar and ``depth == 1``);
    ``elementwise``: every data dim except ``axis`` is paired with the same dim
    of ``indices`` (GatherElements); then ``batch == axis`` and the indices may be
    smaller than the data on the paired dims.
    """

    axis: int = 0
    depth: int = 1
    batch: int = 0
    vector: bool = False
    elementwise: bool = False

    def __post_init__(self) -> None:
        if not self.vector and self.depth != 1:
            raise ValueError("scalar indices address exactly one axis (depth=1)")
        if self.elementwise and (self.vector or self.batch != self.axis):
            raise ValueError("elementwise specs have scalar indices and batch == axis")
        if not 0 <= self.batch <= self.axis or self.depth < 0:
            raise ValueError(f"invalid IndexSpec {self}")


def prod(shape: tuple[int, ...] | list[int]) -> int:
    """Product of a shape as a Python int (no overflow)."""
    out = 1
    for n in shape:
        out *= int(n)
    return out


def to_int(ctx: OpContext, name: str, value: Any) -> int:
    """``value`` as a Python int, or :class:`ArgumentError` (bools and floats rejected)."""
    if isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: {name} must be an int (got {value!r})")
    try:
        return operator.index(value)
    except TypeError:
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
            return int(value)
        raise ArgumentError(
            f"{ctx.label}: {name} must be an int (got {value!r} of type {type(value).__name__})"
        ) from None


def normalize_axis(ctx: OpContext, axis: Any, rank: int, *, name: str | None = None) -> int:
    """Normalise ``axis`` into ``[0, rank-1]``; negative counts from the back.

    >>> normalize_axis(OpContext(op="x"), -1, 3)
    2
    """
    label = name or ctx.axis
    a = to_int(ctx, label, axis)
    if not -rank <= a < rank:
        raise AxisError(
            f"{ctx.label}: {label} {a} is out of range for {ctx.data} of rank {rank}; "
            f"{label} must be in [{-rank}, {rank - 1}]"
            if rank > 0
            else f"{ctx.label}: {label} {a} is out of range: {ctx.data} is 0-d (rank 0) and has no axes"
        )
    return a + rank if a < 0 else a


_NAMES = {
    "b": "bool",
    "O": "object",
    "U": "str",
    "S": "bytes",
}


@functools.lru_cache(maxsize=256)
def dtype_name(dtype: np.dtype[Any]) -> str:
    """Short dtype name: ``int64``, ``float16``, ``bfloat16``, ``bool``, ``str``, ``object``."""
    if dtype.kind in _NAMES:
        return _NAMES[dtype.kind]
    return str(dtype.name)


def _lazy(value: Any) -> bool:
    """A Dask array (decided without importing Dask): passed through, it runs on :mod:`gatherscatter.core.dask`."""
    return type(value).__module__.startswith("dask.") and hasattr(value, "chunks")


def as_array(ctx: OpContext, value: Any, name: str) -> np.ndarray[Any, Any]:
    """``np.asarray(value)`` with a typed error instead of NumPy's own.

    Ragged nested lists and objects NumPy cannot read raise :class:`ShapeError`.
    The result may be a view of the caller's array: never write into it.
    """
    if isinstance(value, np.ndarray):
        return value
    if _lazy(value):  # duck-typed: shape, dtype and the NumPy functions the lowerings use
        return cast("np.ndarray[Any, Any]", value)
    try:
        with np.errstate(all="ignore"):
            arr = np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise ShapeError(f"{ctx.label}: {name} is not an array NumPy can read ({exc})") from None
    return arr


def as_index_array(
    ctx: OpContext,
    value: Any,
    name: str,
    allowed: frozenset[str] | None = None,
) -> np.ndarray[Any, Any]:
    """An integer index array; ``allowed`` names the index dtypes the op accepts.

    Python lists of ints become int64. Non-integer dtypes (bool, float, ...) are
    rejected with :class:`DTypeError` naming the dtypes the op accepts.
    """
    arr = as_array(ctx, value, name)
    if not isinstance(value, np.ndarray) and not _lazy(value) and arr.dtype.kind in "iu" and arr.dtype != np.int64:
        arr = arr.astype(np.int64)
    if arr.size == 0 and arr.dtype.kind == "f" and not isinstance(value, np.ndarray):
        # an empty Python list reads as float64; it holds no index at all
        arr = arr.astype(np.int64)
    name_of = dtype_name(arr.dtype)
    if arr.dtype.kind not in "iu":
        accepted = ", ".join(sorted(allowed)) if allowed else "integer dtypes"
        raise DTypeError(f"{ctx.label}: {name} must have an integer dtype ({accepted}); got {name_of}")
    if allowed is not None and name_of not in allowed:
        raise DTypeError(
            f"{ctx.label}: {name} dtype {name_of} is not accepted; expected one of: {', '.join(sorted(allowed))}"
        )
    return arr


def gather_shape(dshape: tuple[int, ...], ishape: tuple[int, ...], spec: IndexSpec) -> tuple[int, ...]:
    """Output shape of a gather (= update shape of the matching scatter)."""
    if spec.elementwise:
        return tuple(ishape)
    b, a, k = spec.batch, spec.axis, spec.depth
    ilist = ishape[b:-1] if spec.vector else ishape[b:]
    return tuple(ishape[:b]) + tuple(dshape[b:a]) + tuple(ilist) + tuple(dshape[a + k :])


def check_updates_shape(ctx: OpContext, got: tuple[int, ...], dshape: tuple[int, ...], ishape: tuple[int, ...],
                        spec: IndexSpec) -> None:
    """A scatter's updates must have the shape of the matching gather's output (:func:`gather_shape`)."""
    want = gather_shape(dshape, ishape, spec)
    if tuple(got) != want:
        raise ShapeError(
            f"{ctx.label}: {ctx.updates} must have shape {list(want)} for {ctx.data} shape "
            f"{list(dshape)} and {ctx.indices} shape {list(ishape)}; got {list(got)}"
        )


def check_spec(ctx: OpContext, dshape: tuple[int, ...], ishape: tuple[int, ...], spec: IndexSpec) -> None:
    """Check that data and indices shapes fit ``spec``; :class:`ShapeError` otherwise."""
    r, q = len(dshape), len(ishape)
    b, a, k = spec.batch, spec.axis, spec.depth
    if a + k > r or (spec.elementwise and r == 0):
        raise ShapeError(
            f"{ctx.label}: {ctx.data} of rank {r} (shape {list(dshape)}) has no axes {a}..{a + k - 1} to index"
        )
    if spec.elementwise:
        if q != r:
            raise ShapeError(
                f"{ctx.label}: {ctx.indices} must have the same rank as {ctx.data} "
                f"({r}); got {ctx.indices} shape {list(ishape)} and {ctx.data} shape {list(dshape)}"
            )
        for d in range(r):
            if d != a and ishape[d] > dshape[d]:
                raise ShapeError(
                    f"{ctx.label}: {ctx.indices}.shape[{d}] must be <= {ctx.data}.shape[{d}] "
                    f"on every {ctx.axis} except {a}; got {ctx.indices} shape {list(ishape)} and "
                    f"{ctx.data} shape {list(dshape)}"
                )
        return
    need = b + (1 if spec.vector else 0)
    if q < need:
        raise ShapeError(
            f"{ctx.label}: {ctx.indices} of rank {q} is too small: it needs at least {need} dims "
            f"(got shape {list(ishape)})"
        )
    if spec.vector and ishape[-1] != k:
        raise ShapeError(
            f"{ctx.label}: the last dim of {ctx.indices} holds the index tuple and must be {k}; "
            f"got {ctx.indices} shape {list(ishape)}"
        )
    if tuple(ishape[:b]) != tuple(dshape[:b]):
        raise ShapeError(
            f"{ctx.label}: the first {b} (batch) dims of {ctx.data} and {ctx.indices} must be equal; "
            f"got {ctx.data} shape {list(dshape)} and {ctx.indices} shape {list(ishape)}"
        )


def as_updates(ctx: OpContext, updates: Any, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """Updates with the data dtype: arrays must match it exactly; lists and scalars take it when no value changes.

    A list or scalar has no dtype of its own, so it is written in the data's
    dtype, under the same rule as arrays (the updates' values are the data's
    kind): bool < integer < float < complex may only widen (an int list into
    float data; never 5.5 into int data, which would truncate it), an integer
    must fit the data's range, a finite float must stay finite, a string must
    fit the data's string width; object data takes anything. Otherwise
    :class:`DTypeError`, naming the first offending value and its position.

    >>> ctx = OpContext(op="x")
    >>> as_updates(ctx, [1, 2], np.dtype(np.float32)).dtype
    dtype('float32')
    >>> as_updates(ctx, [1, 5.5], np.dtype(np.int64))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gatherscatter.errors.DTypeError: x: updates [1.0, 5.5] read as float64, which int64 data cannot hold ...
    """
    if isinstance(updates, np.ndarray) or _lazy(updates):
        if updates.dtype != dtype:
            raise DTypeError(
                f"{ctx.label}: {ctx.updates} dtype {dtype_name(updates.dtype)} must equal "
                f"{ctx.data} dtype {dtype_name(dtype)}"
            )
        return cast("np.ndarray[Any, Any]", updates)
    if dtype.kind == "O":  # object data holds the Python values themselves (not NumPy's reading of them)
        try:
            return np.asarray(updates, dtype=object)
        except (ValueError, TypeError) as exc:
            raise ShapeError(f"{ctx.label}: {ctx.updates} is not an array NumPy can read ({exc})") from None
    arr = as_array(ctx, updates, ctx.updates)
    if arr.dtype == dtype:
        return arr
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # complex into real: refused below
            out = arr.astype(dtype)
    except (ValueError, TypeError) as exc:
        raise DTypeError(f"{ctx.label}: {ctx.updates} cannot be read as {dtype_name(dtype)} ({exc})") from None
    if arr.size:
        _check_list_values(ctx, arr, out, dtype)
    return out


_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _kind_rank(dtype: np.dtype[Any]) -> int | None:
    if dtype.kind in _KIND_RANK:
        return _KIND_RANK[dtype.kind]
    name = dtype_name(dtype)
    return 2 if name.startswith(("bfloat", "float")) else None  # ml_dtypes floats (kind 'V')


def _check_list_values(ctx: OpContext, arr: np.ndarray[Any, Any], out: np.ndarray[Any, Any], dtype: Any) -> None:
    """Raise when reading the list ``arr`` as ``dtype`` (giving ``out``) changes a value (see :func:`as_updates`)."""
    src, dst = _kind_rank(arr.dtype), _kind_rank(dtype)
    bad: np.ndarray[Any, Any] | None = None
    why = ""
    if src is not None and dst is not None:
        if src > dst:
            bad = np.ones(arr.shape, bool)
            kinds = ("bool", "integer", "float", "complex")
            why = f"{kinds[src]} values into {kinds[dst]} data would change them"
        elif dst == 1 and src == 1:
            info = np.iinfo(dtype)
            bad = (arr < info.min) | (arr > info.max)
            why = f"outside the {dtype_name(dtype)} range [{info.min}, {info.max}]"
        elif dst >= 2 and src >= 1:
            with np.errstate(all="ignore"):
                bad = np.isfinite(arr) & ~np.isfinite(out)
            why = f"too large for {dtype_name(dtype)} (it would become inf or nan)"
    elif arr.dtype.kind in "US" and dtype.kind in "US":
        bad = out.astype(arr.dtype) != arr
        why = f"longer than the data's {dtype_name(dtype)} width {dtype.itemsize // (4 if dtype.kind == 'U' else 1)}"
    elif arr.dtype != dtype:
        bad = np.ones(arr.shape, bool)
        why = f"{dtype_name(arr.dtype)} values cannot be written into {dtype_name(dtype)} data"
    if bad is None or not bad.any():
        return
    pos = [int(p) for p in np.unravel_index(int(np.flatnonzero(bad)[0]), arr.shape)]
    shown = arr.tolist() if arr.size <= 8 else f"of shape {list(arr.shape)}"
    value = arr[tuple(pos)]
    value = value.item() if isinstance(value, np.generic) else value
    raise DTypeError(
        f"{ctx.label}: {ctx.updates} {shown} read as {dtype_name(arr.dtype)}, which {dtype_name(dtype)} data "
        f"cannot hold ({value!r} at position {pos}): {why}; pass {dtype_name(dtype)} values"
    )


def broadcast_along(
    ctx: OpContext,
    d: np.ndarray[Any, Any],
    i: np.ndarray[Any, Any],
    axis: int,
    *,
    names: tuple[str, str] = ("data", "indices"),
    dim: str = "axis",
    note: str = "broadcast=True",
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``d`` and ``i`` (same rank) broadcast against each other on every dim but ``axis``; each keeps its own ``axis``.

    NumPy's rule on each other dim: equal lengths, or one of them 1 (then the other, even 0). A dim that does not
    broadcast is a :class:`~gatherscatter.errors.ShapeError` naming both shapes (``names``), the dim (called
    ``dim``), its two lengths and ``note``. Shared by ``take_along_axis``, ``torch.take_along_dim`` and
    ``paddle.take_along_axis(broadcast=True)``. Views, no copy.

    >>> from gatherscatter.core.context import NEUTRAL
    >>> d, i = broadcast_along(NEUTRAL, np.zeros((1, 5)), np.zeros((3, 2), np.int64), 1)
    >>> d.shape, i.shape
    ((3, 5), (3, 2))
    >>> broadcast_along(NEUTRAL, np.zeros((2, 5)), np.zeros((3, 2), np.int64), 1)
    Traceback (most recent call last):
    ...
    gatherscatter.errors.ShapeError: gatherscatter: data shape [2, 5] and indices shape [3, 2] do not broadcast on \
axis 0 (2 vs 3; broadcast=True)
    """
    shape = []
    for k, (n, m) in enumerate(zip(d.shape, i.shape, strict=True)):
        if k == axis:
            shape.append(-1)
            continue
        if n != m and 1 not in (n, m):
            raise ShapeError(
                f"{ctx.label}: {names[0]} shape {list(d.shape)} and {names[1]} shape {list(i.shape)} do not broadcast "
                f"on {dim} {k} ({n} vs {m}; {note})"
            )
        shape.append(m if n == 1 else n)
    dshape = tuple(d.shape[axis] if s < 0 else s for s in shape)
    ishape = tuple(i.shape[axis] if s < 0 else s for s in shape)
    return np.broadcast_to(d, dshape), np.broadcast_to(i, ishape)


def check_allocatable(ctx: OpContext, shape: tuple[int, ...], dtype: Any, name: str = "output shape") -> None:
    """:class:`ShapeError` when NumPy cannot even describe an array of ``shape`` and ``dtype``.

    NumPy refuses (with a bare ``ValueError``) arrays of more than ``2**63 - 1``
    bytes, counting every dim as at least 1; ask before allocating.

    >>> check_allocatable(OpContext(op="x"), (0, 2**62), "float64")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gatherscatter.errors.ShapeError: x: output shape [0, 4611686018427387904] of float64 would need more ...
    """
    dt = np.dtype(dtype)
    n = dt.itemsize
    for d in shape:
        n *= max(int(d), 1)
    if n > 2**63 - 1:
        raise ShapeError(
            f"{ctx.label}: {name} {[int(d) for d in shape]} of {dtype_name(dt)} would need more than "
            f"2**63 - 1 bytes"
        )
