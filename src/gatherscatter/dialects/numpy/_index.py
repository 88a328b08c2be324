"""Lower a NumPy index expression (``a[index]``) to flat element offsets.

``flat_offsets(ctx, shape, index)`` returns an int64 array with the shape of
``a[index]`` whose entries are the C-order offsets of the elements ``a[index]``
reads, so that ``a.reshape(-1)[offsets] == a[index]``. It follows NumPy 2.4's
indexing rules (``doc/source/user/basics.indexing.rst``):

* an index is an int, a slice, ``...``, ``None``, a bool or an array-like of
  integers or booleans, or a tuple of these (a list is an array, never a tuple);
* boolean arrays stand for their ``nonzero()`` arrays; integer scalars are
  advanced indices as soon as any array is present;
* the broadcast advanced dims replace the indexed dims in place when all
  advanced indices are next to each other, else they come first;
* integers and array entries must lie in ``[-n, n-1]`` (negative counts from the back);
  index arrays are only checked when their broadcast shape is not empty.

The result is built by broadcasting one small term per index entry: nothing
proportional to ``a.size`` is allocated.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.shape import dtype_name, prod
from ...errors import IndexArgumentError, IndexDTypeError, IndexShapeError

__all__ = ["flat_offsets", "row_offsets"]

_ONLY = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
    "arrays are valid indices"
)


def _classify(ctx: OpContext, entry: Any, k: int) -> tuple[str, Any]:
    if entry is None:
        return "new", None
    if entry is Ellipsis:
        return "ell", None
    if isinstance(entry, slice):
        return "slice", entry
    if isinstance(entry, (bool, np.bool_)):
        return "bool", np.asarray(entry)
    if isinstance(entry, np.ndarray) and entry.ndim == 0 and entry.dtype.kind in "iu":
        return "int", int(entry)
    if isinstance(entry, (int, np.integer)):
        return "int", operator.index(entry)
    if isinstance(entry, (float, complex, str, bytes, np.floating, np.complexfloating)):
        raise IndexArgumentError(f"{ctx.label}: {_ONLY}; index entry {k} is {entry!r}")
    try:
        arr = np.asarray(entry)
    except (TypeError, ValueError) as exc:
        raise IndexArgumentError(f"{ctx.label}: index entry {k} is not an array NumPy can read ({exc})") from None
    if arr.dtype.kind == "b":
        return "bool", arr
    if arr.dtype.kind in "iu":
        return "arr", arr.astype(np.int64) if arr.dtype != np.int64 else arr
    if arr.size == 0 and not isinstance(entry, np.ndarray):
        return "arr", arr.astype(np.int64)
    if arr.dtype.kind == "O" or isinstance(entry, np.ndarray):
        raise IndexDTypeError(
            f"{ctx.label}: arrays used as indices must be of integer (or boolean) type; "
            f"index entry {k} has dtype {dtype_name(arr.dtype)}"
        )
    raise IndexDTypeError(f"{ctx.label}: {_ONLY}; index entry {k} has dtype {dtype_name(arr.dtype)}")


def _check(ctx: OpContext, arr: np.ndarray[Any, Any], size: int, axis: int, k: int) -> np.ndarray[Any, Any]:
    """Normalised (non-negative) copy of one index entry for ``axis`` of ``size``."""
    if arr.size == 0:
        return arr
    lo, hi = int(arr.min()), int(arr.max())
    if lo >= -size and hi < size:
        return arr + size * (arr < 0) if lo < 0 else arr
    bad = (arr < -size) | (arr >= size)
    pos = tuple(int(p) for p in np.unravel_index(int(np.argmax(bad)), arr.shape)) if arr.ndim else ()
    value = int(arr[pos]) if pos else int(arr)
    where = f"{ctx.indices} entry {k}" + (f" at position {list(pos)}" if pos else "")
    raise _numpy_words(ctx).index_error(value=value, position=pos, size=size, axis=axis, lo=-size, where=where)


def _numpy_words(ctx: OpContext) -> OpContext:
    """NumPy's own IndexError words: ``index 5 is out of bounds for axis 0 with size 3``."""
    return ctx.with_(range_style="numpy", bounds_word="out of bounds", axis="axis")


def _scalar(ctx: OpContext, value: int, size: int, axis: int, k: int) -> int:
    if -size <= value < size:
        return value + size if value < 0 else value
    if -(2**63) <= value < 2**63:
        return int(_check(ctx, np.array(value, np.int64), size, axis, k))
    raise _numpy_words(ctx).index_error(value=value, position=(), size=size, axis=axis, lo=-size,
                                        where=f"{ctx.indices} entry {k}")


def flat_offsets(ctx: OpContext, shape: tuple[int, ...], index: Any) -> np.ndarray[Any, Any]:
    """C-order offsets into an array of ``shape`` of every element ``a[index]`` selects."""
    return _offsets(ctx, shape, index, rows=False)[0]


def row_offsets(ctx: OpContext, shape: tuple[int, ...], index: Any) -> tuple[np.ndarray[Any, Any], tuple[int, ...]]:
    """Like :func:`flat_offsets`, but trailing axes that ``index`` takes whole stay rows.

    Returns ``(rows, tail)``: ``tail`` is the shape of the trailing data axes
    selected whole (as the last dims of ``a[index]``, e.g. the implicit ``...``
    of ``a[idx]``), and ``rows`` the offsets into ``a.reshape(-1, prod(tail))``,
    with the shape of ``a[index]`` without ``tail``: ``rows.shape + tail ==
    a[index].shape``. The offsets array is then ``prod(tail)`` times smaller.
    """
    return _offsets(ctx, shape, index, rows=True)


def _offsets(
    ctx: OpContext, shape: tuple[int, ...], index: Any, *, rows: bool
) -> tuple[np.ndarray[Any, Any], tuple[int, ...]]:
    r = len(shape)
    raw = list(index) if isinstance(index, tuple) else [index]
    items = [_classify(ctx, e, k) for k, e in enumerate(raw)]
    n_ell = sum(1 for kind, _ in items if kind == "ell")
    if n_ell > 1:
        raise IndexArgumentError(f"{ctx.label}: an index can only have a single ellipsis ('...')")
    used = sum(1 if kind in ("slice", "int", "arr") else (v.ndim if kind == "bool" else 0) for kind, v in items)
    if used > r:
        raise IndexShapeError(
            f"{ctx.label}: too many indices for array: array is {r}-dimensional, but {used} were indexed"
        )
    # expand '...' (or the implicit trailing one) into full slices
    full: list[tuple[str, Any, int]] = []  # (kind, value, entry number)
    for k, (kind, v) in enumerate(items):
        if kind == "ell":
            full.extend(("slice", slice(None), k) for _ in range(r - used))
        else:
            full.append((kind, v, k))
    if n_ell == 0:
        full.extend(("slice", slice(None), len(items)) for _ in range(r - used))
    # boolean arrays -> their nonzero() arrays, each consuming one dim; 0-d bools consume none
    entries: list[tuple[str, Any, int, int]] = []  # (kind, value, entry, data axis or -1)
    d = 0
    for kind, v, k in full:
        if kind == "new":
            entries.append(("new", None, k, -1))
        elif kind == "bool" and v.ndim == 0:
            entries.append(("arr", np.zeros(int(bool(v)), np.int64), k, -1))
        elif kind == "bool":
            for j in range(v.ndim):
                if v.shape[j] not in (shape[d + j], 0):  # NumPy lets an empty boolean dim through
                    raise IndexShapeError(
                        f"{ctx.label}: boolean index did not match indexed array along axis {d + j}; "
                        f"size of axis is {shape[d + j]} but size of corresponding boolean axis is {v.shape[j]} "
                        f"(index entry {k})"
                    )
            for j, nz in enumerate(np.nonzero(v)):
                entries.append(("arr", nz.astype(np.int64), k, d + j))
            d += v.ndim
        else:
            entries.append((kind, v, k, d))
            d += 1
    for kind, v, k, ax in entries:  # NumPy checks integers while parsing, before broadcasting arrays
        if kind == "int":
            _scalar(ctx, v, shape[ax], ax, k)
    has_arrays = any(kind == "arr" for kind, *_ in entries)
    adv = [p for p, (kind, *_) in enumerate(entries) if kind == "arr" or (has_arrays and kind == "int")]
    bshape: tuple[int, ...] = ()
    if adv:
        shapes = [np.shape(entries[p][1]) for p in adv]
        try:
            bshape = tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            shown = " ".join(str(tuple(s)) for s in shapes if s != ())
            raise IndexShapeError(
                f"{ctx.label}: shape mismatch: indexing arrays could not be broadcast together with shapes {shown}"
            ) from None
    adjacent = not adv or adv == list(range(adv[0], adv[-1] + 1))
    # result layout: one entry per result dim: ('slice', start, step, len, axis) / ('new',) / the advanced block
    strides = [prod(shape[j + 1 :]) for j in range(r)]
    out_dims: list[int] = []
    terms: list[tuple[int, np.ndarray[Any, Any]]] = []  # (first result dim, term) for slices
    whole: dict[int, int] = {}  # result dim -> data axis, for slices that take a whole axis in order
    const = 0
    adv_term: np.ndarray[Any, Any] | int = 0
    adv_at = 0 if not adjacent else None
    for p, (kind, v, k, ax) in enumerate(entries):
        if p in adv:
            if adv_at is None:
                adv_at = len(out_dims)
                out_dims.extend(bshape)
            if ax < 0:
                continue
            if kind == "int":
                adv_term = adv_term + _scalar(ctx, v, shape[ax], ax, k) * strides[ax]
            elif prod(bshape):  # NumPy checks index arrays only when their broadcast is not empty
                adv_term = adv_term + _check(ctx, v, shape[ax], ax, k) * strides[ax]
        elif kind == "int":
            const += _scalar(ctx, v, shape[ax], ax, k) * strides[ax]
        elif kind == "new":
            out_dims.append(1)
        else:  # slice
            start, stop, step = v.indices(shape[ax])
            n = len(range(start, stop, step))
            if start == 0 and step == 1 and n == shape[ax]:
                whole[len(out_dims)] = ax
            terms.append((len(out_dims), (start + step * np.arange(n, dtype=np.int64)) * strides[ax]))
            out_dims.append(n)
    if not adjacent:
        # advanced dims first: shift the other dims behind them
        nb = len(bshape)
        out_dims = list(bshape) + out_dims
        terms = [(q + nb, t) for q, t in terms]
        whole = {q + nb: ax for q, ax in whole.items()}
        adv_at = 0
    # trailing result dims that are whole trailing data axes, in order, stay rows of length R
    t = 0
    if rows and 0 not in shape:
        nd = len(out_dims)
        while t < nd and whole.get(nd - 1 - t) == r - 1 - t:
            t += 1
    tail = tuple(shape[r - t :])
    R = prod(tail)
    if t:
        out_dims = out_dims[: len(out_dims) - t]
        terms = [(q, term // R) for q, term in terms if q < len(out_dims)]
        const //= R
        if not isinstance(adv_term, int):
            adv_term = np.asarray(adv_term, np.int64) // R
        else:
            adv_term //= R
    out = np.full(tuple(out_dims), const, dtype=np.int64)
    if out.size == 0:
        return out, tail
    nd = len(out_dims)
    for q, term in terms:
        out += term.reshape((1,) * q + (term.size,) + (1,) * (nd - q - 1))
    if adv and not isinstance(adv_term, int):
        assert adv_at is not None
        a_t = np.broadcast_to(np.asarray(adv_term, np.int64), bshape)
        out += a_t.reshape((1,) * adv_at + bshape + (1,) * (nd - adv_at - len(bshape)))
    elif adv and adv_term:
        out += adv_term
    return out, tail
