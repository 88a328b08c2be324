"""PyTorch rules shared by the torch ops: dtypes, ``dim``, scalars, 0-d tensors, counts.

Everything here was checked against torch 2.13.0 (CPU build) by running the ops:

* data dtypes: every op runs on bool, uint8, int8, int16, int32, int64, float16,
  bfloat16, float32, float64, complex64 and complex128; uint16, uint32 and uint64
  raise ``NotImplementedError`` ("... not implemented for 'UInt64'"), and torch has no
  string/object tensors. ``index_reduce`` also refuses bool and complex; the
  ``amax``/``amin`` reductions refuse complex and ``mean`` refuses bool.
* index dtypes: int32 or int64 (``gather``, ``scatter*``, ``index_select``,
  ``index_add``, ``index_reduce``, ``index_put``, ``take_along_dim(dim=None)``);
  int64 only (``take``, ``take_along_dim`` with a ``dim``, ``index_copy``,
  ``index_fill``).
* ``gather``/``scatter*`` treat a 0-d tensor as a 1-d tensor of size 1 when they
  compare ranks and wrap ``dim``; so do the ``index_*`` ops for ``dim``.
* Python scalars (``value=``, ``alpha=``) are converted to the tensor's dtype with
  c10's overflow check ("value cannot be converted to type ... without overflow").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.policy import MeanCount, Policy
from ...core.scatter import count_in_dtype as core_count_in_dtype
from ...core.shape import IndexSpec, as_array, as_index_array, dtype_name, to_int
from ...errors import ArgumentError, AxisError, DTypeError, ShapeError
from .._common import check_data_dtype, first_true
from .._record import GradConventions
from .._registry import Lowering

__all__ = [
    "DATA_DTYPES",
    "INDEX_INT32_INT64",
    "INDEX_INT64",
    "REAL_DTYPES",
    "SMALL_COUNT_DTYPES",
    "TENSOR_DTYPES",
    "VERSION",
    "as_bool",
    "check_dtype",
    "count_in_dtype",
    "flat_gather",
    "index_and_dim",
    "norm_dim",
    "src_array",
    "to_scalar",
    "torch_context",
]

VERSION = "2.13"
"""The torch release whose CPU behaviour these ops reproduce."""

DATA_DTYPES = frozenset(
    {
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
)
"""Data dtypes torch 2.13 CPU kernels implement for every op here (no uint16/32/64)."""

TENSOR_DTYPES = DATA_DTYPES | frozenset({"uint16", "uint32", "uint64"})
"""Dtypes a torch tensor can hold at all (some ops return early on empty inputs of any of them)."""

REAL_DTYPES = frozenset({"uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"})
"""``index_reduce``: no bool, no complex (checked on 2.13 CPU; integers do work)."""

SMALL_COUNT_DTYPES = frozenset({"uint8", "int8", "int16", "float16", "bfloat16"})
"""Dtypes whose ``mean`` count (kept in the data dtype by torch) can wrap or round."""

INDEX_INT32_INT64 = frozenset({"int32", "int64"})
INDEX_INT64 = frozenset({"int64"})

_FLOAT_MAX = {
    "float16": 65504.0,
    "bfloat16": 3.3895313892515355e38,
    "float32": 3.4028234663852886e38,
    "float64": 1.7976931348623157e308,
}


@memo
def torch_context(name: str, *, indices: str = "index", updates: str = "src", data: str = "input") -> OpContext:
    """Message naming: ``torch.gather (2.13)``, with torch's argument names."""
    return OpContext(op=f"torch.{name}", version=VERSION, data=data, indices=indices, updates=updates, axis="dim")


def check_dtype(
    ctx: OpContext,
    arr: np.ndarray[Any, Any],
    allowed: frozenset[str] = DATA_DTYPES,
    *,
    name: str = "input",
    what: str = "",
) -> None:
    """Reject a dtype torch does not implement for this op (torch: NotImplementedError)."""
    check_data_dtype(ctx, arr, allowed, name=name,
                     refusal=f"is not supported{what} (torch {VERSION} CPU has no kernel for it)")


def norm_dim(ctx: OpContext, dim: Any, ndim: int) -> int:
    """``dim`` wrapped into ``[0, max(ndim, 1) - 1]``; a 0-d input counts as 1-d, as in torch."""
    if isinstance(dim, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: dim must be an int, not bool (got {dim!r})")
    d = to_int(ctx, "dim", dim)
    r = max(ndim, 1)
    if not -r <= d < r:
        note = " (torch treats a 0-d input as 1-d here)" if ndim == 0 else ""
        raise AxisError(
            f"{ctx.label}: dim {d} is out of range for input of rank {ndim}; dim must be in [{-r}, {r - 1}]{note}"
        )
    return d + r if d < 0 else d


def as_bool(ctx: OpContext, name: str, value: Any) -> bool:
    """A Python bool (torch refuses ints and NumPy bools for bool arguments)."""
    if not isinstance(value, bool):
        raise ArgumentError(f"{ctx.label}: {name} must be a bool (got {value!r} of type {type(value).__name__})")
    return value


def index_and_dim(
    ctx: OpContext, d: np.ndarray[Any, Any], index: Any, dim: Any, allowed: frozenset[str]
) -> tuple[np.ndarray[Any, Any], int]:
    """The ``index_*`` ops' ``index`` (0-d or 1-d, of an ``allowed`` dtype), then their ``dim`` on input ``d``."""
    i = as_index_array(ctx, index, "index", allowed)
    if i.ndim > 1:
        raise ShapeError(f"{ctx.label}: index must be a vector (0-d or 1-d); got index shape {list(i.shape)}")
    return i, norm_dim(ctx, dim, d.ndim)


def src_array(ctx: OpContext, src: Any, dtype: np.dtype[Any], name: str) -> np.ndarray[Any, Any]:
    """An updates-like array: arrays must have the input dtype; lists and scalars take it."""
    if isinstance(src, np.ndarray):
        if src.dtype != dtype:
            raise DTypeError(
                f"{ctx.label}: {name} dtype {dtype_name(src.dtype)} must equal input dtype {dtype_name(dtype)} "
                f"(torch requires self.dtype == {name}.dtype)"
            )
        return src
    arr = as_array(ctx, src, name)
    if arr.dtype.kind not in "biufc" and arr.dtype != dtype:
        raise DTypeError(f"{ctx.label}: {name} of dtype {dtype_name(arr.dtype)} cannot be read as {dtype_name(dtype)}")
    try:
        with np.errstate(all="ignore"):
            return arr.astype(dtype)
    except (ValueError, TypeError) as exc:  # pragma: no cover - numeric casts do not fail
        raise DTypeError(f"{ctx.label}: {name} cannot be read as {dtype_name(dtype)} ({exc})") from None


def to_scalar(ctx: OpContext, value: Any, dtype: np.dtype[Any], name: str = "value") -> np.ndarray[Any, Any]:
    """A Python number (or 0-d array) as a 0-d array of ``dtype``, with torch's overflow check.

    c10 rules: bool targets take any number (non-zero is True); a complex number
    with a non-zero imaginary part does not convert to a real dtype; floats convert
    to integers by truncation and must lie within the integer range (NaN and inf
    never do); integers must fit the target, except that unsigned targets accept
    negatives down to ``-max`` (two's complement wrap: ``-1`` is 255 in uint8);
    finite numbers beyond a float dtype's maximum overflow; inf and NaN do not.
    """
    v = as_array(ctx, value, name) if isinstance(value, (list, tuple)) else value
    if isinstance(v, np.ndarray):
        if v.ndim != 0:
            raise ShapeError(
                f"{ctx.label}: {name} must be a number or a 0-d array; got an array of shape {list(v.shape)}"
            )
        v = v.item()
    elif isinstance(v, np.generic):
        v = v.item()
    if not isinstance(v, (bool, int, float, complex)):
        raise ArgumentError(f"{ctx.label}: {name} must be a number (got {value!r} of type {type(value).__name__})")
    target = dtype_name(dtype)
    kind = dtype.kind
    if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v < 2**64:
        raise ArgumentError(f"{ctx.label}: {name} {v} does not fit in a 64-bit torch Scalar")

    def overflow() -> DTypeError:
        return DTypeError(
            f"{ctx.label}: {name} {value!r} cannot be converted to {target} without overflow (torch's rule for "
            f"Python scalars)"
        )

    if kind == "b":
        return np.array(bool(v))
    if isinstance(v, complex):
        if kind != "c" and v.imag != 0:
            raise DTypeError(
                f"{ctx.label}: {name} {value!r} is complex; torch does not convert a complex scalar with a "
                f"non-zero imaginary part to {target}"
            )
        if kind != "c":
            v = v.real
    if kind in "iu":
        assert not isinstance(v, complex)  # converted to its real part above
        info = np.iinfo(dtype)
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v) or v < info.min or v > info.max:
                raise overflow()
            n = int(v)  # truncation toward zero
        else:
            n = int(v)
            if kind == "u":
                if n > info.max or (n < 0 and -n > info.max):
                    raise overflow()
                n %= 2 ** (8 * dtype.itemsize)
            elif not info.min <= n <= info.max:
                raise overflow()
        return np.array(n, dtype)
    limit = _FLOAT_MAX.get(target.replace("complex64", "float32").replace("complex128", "float64"))
    parts = (v.real, v.imag) if isinstance(v, complex) else (float(v),)
    if limit is not None:
        for p in parts:
            if math.isfinite(p) and abs(p) > limit:
                raise overflow()
    with np.errstate(all="ignore"):
        return np.asarray(v).astype(dtype)


def count_in_dtype(exact: np.ndarray[Any, Any], dtype: np.dtype[Any], *, sequential: bool) -> np.ndarray[Any, Any]:
    """The ``mean`` divisor as torch keeps it: a count tensor of the data dtype.

    torch builds ``count = ones_like(out)`` (or zeros without ``include_self``),
    adds one per contribution with ``scatter_add_``/``index_add_`` in the data
    dtype, then replaces 0 by 1. Integers wrap (int8 holds 200 as -56); float16 and
    bfloat16 either round the exact count once (kernels that accumulate in float32)
    or, with ``sequential=True`` (``index_add_`` on a 1-d tensor), stop growing at
    2048 / 256 where ``n + 1`` rounds back to ``n``. The ops say this with
    ``Policy(mean_count='rounded' | 'stepwise')``; this is the core's count.
    """
    return core_count_in_dtype(exact, dtype, MeanCount.STEPWISE if sequential else MeanCount.ROUNDED)


def flat_gather(ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], *, negative: bool) -> Lowering:
    """Gather from ``d`` flattened (``torch.take``, ``take_along_dim(dim=None)``) without copying ``d``.

    A contiguous ``d`` is read through its flat view; any other ``d`` (a
    transposed or broadcast view, which ``reshape(-1)`` would copy) is read with
    the flat indices unravelled into coordinates, after checking them here.
    """
    policy = Policy(bounds="raise", negative="wrap" if negative else "raise")
    if d.flags.c_contiguous or d.ndim <= 1:
        return Lowering("gather", d.reshape(-1), i, IndexSpec(axis=0), policy, ctx)
    n = d.size
    lin = i.astype(np.int64, copy=False)
    lo = -n if negative else 0
    bad = (lin < lo) | (lin >= n)
    if bad.any():
        # checked here, before the flat indices are unravelled; the core words the message
        pos, value = first_true(bad, lin)
        note = "" if negative or value >= 0 else f"{ctx.op} does not accept negative indices"
        raise ctx.with_(bounds_note=note).index_error(
            value=value, position=pos, size=n, axis=0, lo=lo, target=f"{ctx.data} with size {n}", subject=ctx.data,
        )
    lin = np.where(lin < 0, lin + n, lin)
    coords = np.stack(np.unravel_index(lin, d.shape), axis=-1).astype(np.int64)
    return Lowering("gather", d, coords, IndexSpec(axis=0, depth=d.ndim, vector=True), policy, ctx)


#: the gradient conventions of torch autograd, which every torch op states in its record
GRAD = GradConventions(autograd="torch", duplicates="all", ties="torch")

