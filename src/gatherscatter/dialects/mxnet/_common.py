"""MXNet 1.9.1 conventions shared by the ``gs.mxnet`` ops: dtypes, shapes, float indices.

MXNet (retired to the Apache Attic in 2023; 1.9.1 is the last release) has
only float16/32/64, uint8, int8, int32, int64 and bool arrays, and cannot
express empty or 0-d arrays (in its legacy shape semantics a 0 dim means
"unknown"). Its indices are usually float32 and every kernel converts them to
integers with a C cast (truncation toward zero), each op at its own point:
``take`` casts to int64 before clipping or wrapping, ``pick`` to int32,
``gather_nd`` adds the axis size in the index dtype first, ``scatter_nd`` casts
and never checks. A NaN, an infinity or a float outside the target integer
range makes that cast undefined (x86 gives the most negative integer), so we
raise instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.shape import as_array, dtype_name
from ...errors import DTypeError, ShapeError, UnsupportedError

__all__ = [
    "DATA",
    "INDEX",
    "VERSION",
    "check_index_tuples",
    "first_bad",
    "mx_array",
    "mx_context",
    "raise_bad",
    "truncate",
]

VERSION = "1.9.1"

DATA = frozenset({"float16", "float32", "float64", "uint8", "int8", "int32", "int64", "bool"})
INDEX = frozenset({"float16", "float32", "float64", "uint8", "int8", "int32", "int64"})


@memo
def mx_context(name: str, **names: str) -> OpContext:
    """``mxnet.take (MXNet 1.9.1)`` with MXNet's argument names."""
    return OpContext(op=f"mxnet.{name}", version=f"MXNet {VERSION}", **names)


def mx_array(ctx: OpContext, value: Any, name: str, allowed: frozenset[str]) -> np.ndarray[Any, Any]:
    """An argument MXNet can hold: one of its dtypes, at least 1-d, not empty."""
    arr = as_array(ctx, value, name)
    got = dtype_name(arr.dtype)
    if got not in allowed:
        missing = " (MXNet 1.9 has no such dtype)" if got not in DATA else ""
        raise DTypeError(
            f"{ctx.label}: {name} dtype {got} is not accepted{missing}; expected one of: {', '.join(sorted(allowed))}"
        )
    if arr.ndim == 0:
        raise UnsupportedError(
            f"{ctx.label}: {name} is 0-d; MXNet 1.9 cannot express 0-d arrays (in its legacy shape "
            f"semantics shape () means 'unknown'): pass a 1-d array of length 1"
        )
    if arr.size == 0:
        raise UnsupportedError(
            f"{ctx.label}: {name} of shape {list(arr.shape)} is empty; MXNet 1.9 cannot express empty arrays "
            f"(in its legacy shape semantics a 0 dim means 'unknown')"
        )
    return arr


def check_index_tuples(ctx: OpContext, i: np.ndarray[Any, Any]) -> None:
    """``gather_nd``/``scatter_nd``: ``indices`` holds one index tuple per column (its first axis), so rank >= 2."""
    if i.ndim < 2:
        raise ShapeError(
            f"{ctx.label}: {ctx.op.removeprefix('mxnet.')} requires index tensor to have at least 2 dimensions (got "
            f"shape {list(i.shape)}); indices[:, y] is one index tuple"
        )

def first_bad(bad: np.ndarray[Any, Any]) -> tuple[int, ...]:
    """Position of the first True of ``bad`` in row-major order."""
    return tuple(int(p) for p in np.unravel_index(int(np.argmax(bad.reshape(-1))), bad.shape))


def raise_bad(
    ctx: OpContext, idx: np.ndarray[Any, Any], pos: tuple[int, ...], rule: str, name: str | None = None
) -> None:
    """Raise :class:`IndexOutOfRangeError` for ``idx[pos]`` with ``rule`` explaining why (worded by the core).

    MXNet's own checks (float indices before its truncating cast, ...) run here.
    """
    v = idx[pos]
    value: int | None = int(v) if idx.dtype.kind in "iub" else None
    shown = repr(float(v)) if idx.dtype.kind == "f" else str(int(v))
    raise ctx.index_rule_error(shown=shown, position=pos, rule=rule, value=value, name=name)


def truncate(
    ctx: OpContext, idx: np.ndarray[Any, Any], name: str, bits: int = 64, what: str = "int64"
) -> np.ndarray[Any, Any]:
    """Indices as MXNet's C cast reads them: floats truncated toward zero, into ``bits``-bit integers.

    Integer indices outside the ``bits``-bit range, NaN, infinities and floats
    outside it raise (MXNet's cast is undefined or wraps there).
    """
    lim = 2 ** (bits - 1)
    if idx.dtype.kind == "f":
        bad = ~np.isfinite(idx)
        if bad.any():
            raise_bad(ctx, idx, first_bad(bad), "is not a finite number; MXNet casts it to an integer with "
                      "undefined results (garbage reads or crashes)", name)
        t: np.ndarray[Any, Any] = np.trunc(idx.astype(np.float64))
        bad = (t < -lim) | (t >= lim)
        if bad.any():
            raise_bad(ctx, idx, first_bad(bad), f"does not fit {what}; MXNet's cast to {what} is undefined "
                      f"there (x86 returns the most negative {what})", name)
        return t.astype(np.int64)
    out = idx.astype(np.int64) if idx.dtype != np.int64 else idx
    if bits < 64 and out.size:
        bad = (out < -lim) | (out >= lim)
        if bad.any():
            raise_bad(ctx, idx, first_bad(bad), f"does not fit {what}; MXNet casts the index to {what} and "
                      f"would silently read another element", name)
    return out
