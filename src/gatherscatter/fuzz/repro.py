"""Reproducers: Python source that rebuilds a fuzz case exactly.

:func:`reproducer` turns a call (op reference, positional and keyword
arguments) into a self-contained snippet. Every NumPy array is rebuilt from its
raw memory: the bytes it spans are written out in hex and the array is
re-created with ``np.ndarray(shape, dtype, buffer, offset, strides)``, so the
dtype (byte order included), the strides (negative, zero, Fortran, sliced),
and the writeable flag are exactly those of the fuzzed array. Arrays that
share memory (a view of another argument) are rebuilt on one shared buffer.
Object arrays are rebuilt element by element from their ``repr``.

>>> import numpy as np
>>> src = array_source(np.arange(4, dtype=">i2")[::-2], "a")
>>> ns = {"np": np}
>>> exec(src, ns)
>>> ns["a"].tolist(), ns["a"].dtype.str, ns["a"].strides
([3, 1], '>i2', (-4,))
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["array_source", "extent", "raw_bytes", "reproducer", "value_source"]

Array = np.ndarray[Any, Any]


def extent(a: Array) -> tuple[int, int]:
    """Byte offsets ``(lo, hi)`` relative to ``a``'s data pointer of the memory ``a`` spans."""
    if a.size == 0:
        return 0, 0
    lo = hi = 0
    for n, s in zip(a.shape, a.strides, strict=True):
        step = (n - 1) * s
        if step < 0:
            lo += step
        else:
            hi += step
    return lo, hi + a.itemsize


def raw_bytes(a: Array) -> bytes:
    """The bytes of the memory ``a`` spans (its data, read through its strides' extent)."""
    lo, hi = extent(a)
    if hi <= lo:
        return b""
    return ctypes.string_at(a.ctypes.data + lo, hi - lo)


def _float(x: float) -> str:
    if math.isnan(x):
        return "float('nan')"
    if math.isinf(x):
        return "float('inf')" if x > 0 else "-float('inf')"
    return repr(x)


def value_source(v: Any, names: dict[int, str]) -> str:
    """Source for a non-array argument (arrays already named in ``names`` by ``id``)."""
    if id(v) in names:
        return names[id(v)]
    if v is None or isinstance(v, (bool, int, str, bytes)) or v is Ellipsis:
        return "..." if v is Ellipsis else repr(v)
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, complex):
        return f"complex({_float(v.real)}, {_float(v.imag)})"
    if isinstance(v, np.generic):
        tname = type(v).__name__
        if isinstance(v, np.floating):
            return f"np.{tname}({_float(float(v))})"
        if isinstance(v, np.complexfloating):
            return f"np.{tname}(complex({_float(float(v.real))}, {_float(float(v.imag))}))"
        return f"np.{tname}({v.item()!r})"
    if type(v).__name__ == "Fill" and hasattr(v, "value"):
        return f"gs.fill({value_source(v.value, names)})"
    if isinstance(v, slice):
        return f"slice({value_source(v.start, names)}, {value_source(v.stop, names)}, {value_source(v.step, names)})"
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        cls = type(v)
        mod = "gs.jax.lax" if cls.__name__ in ("GatherDimensionNumbers", "ScatterDimensionNumbers") else None
        fields = ", ".join(f"{f}={value_source(getattr(v, f), names)}" for f in v._fields)
        return f"{mod}.{cls.__name__}({fields})" if mod else f"{cls.__name__}({fields})"
    if isinstance(v, tuple):
        inner = ", ".join(value_source(x, names) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, list):
        return "[" + ", ".join(value_source(x, names) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {value_source(x, names)}" for k, x in v.items()) + "}"
    return repr(v)


def _arrays(v: Any) -> Iterator[Array]:
    if isinstance(v, np.ndarray):
        yield v
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _arrays(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _arrays(x)


def _dtype_source(dt: np.dtype[Any]) -> str:
    return f"np.dtype({dt.str!r})" if dt.fields is None else f"np.dtype({dt.descr!r})"


def array_source(a: Array, name: str, buf: str | None = None, offset: int = 0) -> str:
    """Source lines that rebuild ``a`` as ``name`` (on buffer ``buf`` at ``offset`` when given)."""
    lines = []
    if a.dtype.hasobject and any(s == 0 for s in a.strides) and a.size > 64:
        # a zero-stride object view: rebuild its distinct cells, then broadcast
        cells = a[tuple(slice(0, 1) if s == 0 else slice(None) for s in a.strides)]
        lines.append(array_source(np.array(cells), f"{name}_cells"))
        lines.append(f"{name} = np.broadcast_to({name}_cells, {a.shape!r})")
        return "\n".join(lines)
    if a.dtype.hasobject:
        items = ", ".join(value_source(x, {}) for x in a.reshape(-1).tolist()) if a.size else ""
        lines.append(f"{name} = np.empty({a.shape!r}, dtype=object)")
        if a.size:
            lines.append(f"{name}.reshape(-1)[:] = [{items}]")
    else:
        lo, _ = extent(a)
        if buf is None:
            lines.append(f"{name}_buf = bytearray.fromhex({raw_bytes(a).hex()!r})")
            buf, offset = f"{name}_buf", -lo
        lines.append(
            f"{name} = np.ndarray({a.shape!r}, {_dtype_source(a.dtype)}, buffer={buf}, offset={offset}, "
            f"strides={a.strides!r})"
        )
    if not a.flags.writeable:
        lines.append(f"{name}.flags.writeable = False")
    return "\n".join(lines)


def _arrays_source(arrays: list[Array]) -> tuple[list[str], dict[int, str]]:
    """Rebuild ``arrays``; arrays whose memory overlaps share one buffer."""
    names: dict[int, str] = {}
    lines: list[str] = []
    spans: list[tuple[int, int, Array]] = []
    for a in arrays:
        if id(a) in names:
            continue
        names[id(a)] = f"a{len(names)}"
        if not a.dtype.hasobject and a.size:
            lo, hi = extent(a)
            spans.append((a.ctypes.data + lo, a.ctypes.data + hi, a))
        else:
            lines.append(array_source(a, names[id(a)]))
    spans.sort(key=lambda t: t[0])
    groups: list[list[tuple[int, int, Array]]] = []
    for sp in spans:
        if groups and sp[0] < max(s[1] for s in groups[-1]):
            groups[-1].append(sp)
        else:
            groups.append([sp])
    for g in groups:
        if len(g) == 1:
            lines.append(array_source(g[0][2], names[id(g[0][2])]))
            continue
        start, end = g[0][0], max(s[1] for s in g)
        bname = f"buf{len(lines)}"
        lines.append(f"{bname} = bytearray.fromhex({ctypes.string_at(start, end - start).hex()!r})")
        for lo, _, a in g:
            off = a.ctypes.data - start
            lines.append(array_source(a, names[id(a)], buf=bname, offset=off))
            del lo
    return lines, names


def reproducer(
    op_ref: str, args: tuple[Any, ...], kwargs: dict[str, Any], *, header: str = "", expect: str = "any"
) -> str:
    """A self-contained snippet that rebuilds the call and runs the fuzzer's oracle on it.

    The snippet ends with ``check_call``, which raises ``FuzzFailure`` (naming
    what went wrong) while the failure is there and returns quietly once fixed.
    """
    arrays = list(_arrays(args)) + list(_arrays(kwargs))
    lines, names = _arrays_source(arrays)
    a_src = value_source(tuple(args), names)
    k_src = value_source(dict(kwargs), names)
    call = f"gs.get_op({op_ref!r})" if ":" not in op_ref else f"resolve_op({op_ref!r})"
    out: list[str] = []
    if header:
        out.extend("# " + h for h in header.splitlines())
    out += [
        "import numpy as np",
        "import gatherscatter as gs",
        "from gatherscatter.fuzz import check_call, resolve_op",
        "",
        *lines,
        f"args = {a_src}",
        f"kwargs = {k_src}",
        f"# the call itself: {call}(*args, **kwargs)",
        f"check_call({op_ref!r}, args, kwargs" + (f", expect={expect!r})" if expect != "any" else ")"),
        "",
    ]
    return "\n".join(out)
