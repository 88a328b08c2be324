"""Argument generators: valid and hostile calls for every registered op.

:func:`generate` builds case ``n`` of an op from ``(seed, op, n)`` alone, so a
worker process and its parent build the same case (the parent rebuilds a
crashing case to write its reproducer). A case is built in three steps:

1. a *valid* call of the op's family (``op.info.family``: gather, gather_elements,
   gather_nd, scatter_elements, scatter_nd, scatter_axis, general), laid out on
   the op's parameter names (``inspect.signature``), with per-op overrides where
   a signature is special (``torch.index_put`` index tuples, first-axis index
   tuples of MXNet, ``shape`` arguments of ``tf.scatter_nd``, JAX ``at_*`` index
   expressions, ``lax`` dimension numbers, keyword choices such as ``opset``,
   ``version``, ``device``, ``mode``, ``reduction``);
2. about half the time, a hostile *layout* that keeps the values: non-contiguous,
   negative-stride, Fortran, read-only, big-endian, zero-stride broadcast, list;
3. about half the time, one *mutation* that usually makes the call invalid:
   out-of-range indices (``±(2**63-1)``, ``-2**63``, ``2**64-1`` ...), index
   dtypes (float with NaN/inf, bool, uint64, object, big-endian), data dtypes,
   wrong ranks, 0-d and empty arrays, zero-size axes, mismatched update shapes,
   bad axes and ``batch_dims``, bad keyword values, huge zero-stride views and
   shape arguments whose product overflows.

The first cases of an op are fixed seeds: the TensorFlow CVE inputs (for the
ops they concern) and edge cases every op must survive.
"""

from __future__ import annotations

import inspect
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..dialects._record import ROLE_NAMES
from ..errors import UnsupportedError

__all__ = ["Case", "generate", "seed_cases"]

Array = np.ndarray[Any, Any]

I64_MAX = 2**63 - 1
I64_MIN = -(2**63)

DATA_NAMES, IDX_NAMES, UPD_NAMES = ROLE_NAMES["data"], ROLE_NAMES["indices"], ROLE_NAMES["updates"]
AXIS_NAMES = ("axis", "dim")

COMMON_DTYPES = ("float32", "float64", "int64", "int32")
ODD_DTYPES = (
    "float16", "int8", "uint8", "int16", "uint16", "uint32", "uint64", "bool", "complex64", "complex128",
    ">f4", ">i8", ">f8", "<U2", "S2", "object",
)
INDEX_DTYPES = ("int64", "int32")
HOSTILE_INDEX_DTYPES = (
    "int8", "int16", "uint8", "uint16", "uint32", "uint64", ">i8", ">i4", "float32", "float64", "float16",
    "bool", "object", "complex64", "<U2",
)


@dataclass
class Case:
    """One call: ``op(*args, **kwargs)``; ``kind`` says how it was built; ``expect`` what must happen."""

    op: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    kind: str
    expect: str = "any"
    roles: dict[str, str] = field(default_factory=dict)
    twin: dict[str, Any] | None = None
    """The same call on small data: when it returns a result, this call must too (huge zero-stride views)."""


# ------------------------------------------------------------------------------ helpers


class G:
    """A random source with the drawing helpers the family generators share."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, seq: Any) -> Any:
        return seq[int(self.rng.integers(len(seq)))]

    def randint(self, lo: int, hi: int) -> int:
        """An int in ``[lo, hi]``."""
        return int(self.rng.integers(lo, hi + 1))

    def side(self, zero: float = 0.04, hi: int = 4) -> int:
        return 0 if self.chance(zero) else self.randint(1, hi)

    def shape(self, rank: int, zero: float = 0.04, hi: int = 4) -> tuple[int, ...]:
        return tuple(self.side(zero, hi) for _ in range(rank))

    def dtype(self, odd: float = 0.15) -> np.dtype[Any]:
        dt: np.dtype[Any] = np.dtype(self.pick(ODD_DTYPES) if self.chance(odd) else self.pick(COMMON_DTYPES))
        return dt

    def values(self, shape: tuple[int, ...], dtype: Any) -> Array:
        """Distinct-looking values of ``dtype`` (floats sometimes hold NaN, inf and -0.0)."""
        dt = np.dtype(dtype)
        n = int(np.prod(shape)) if shape else 1
        base = self.rng.permutation(n) + 1 - (n // 3)
        if dt.kind == "b":
            v: Array = self.rng.random(n) < 0.5
        elif dt.kind in "US":
            v = np.array([chr(97 + int(x) % 26) for x in base])
        elif dt.kind == "O":
            v = np.empty(n, object)
            v[:] = [int(x) for x in base]
        elif dt.kind == "u":
            v = np.abs(base)
        elif dt.kind in "fc":
            v = base.astype(np.float64) * 0.5
            if n and self.chance(0.2):
                v[self.randint(0, n - 1)] = self.pick([np.nan, np.inf, -np.inf, -0.0, 1e300])
            if dt.kind == "c":
                with np.errstate(all="ignore"):
                    v = v + 1j * np.roll(v, 1)
        else:
            v = base
        with np.errstate(all="ignore"):
            out: Array = np.asarray(v).astype(dt).reshape(shape)
        return out

    def indices(self, shape: tuple[int, ...], size: int, neg: bool = True, dtype: Any = "int64") -> Array:
        """In-range indices for an axis of ``size`` (negatives sometimes; empty axis: zeros)."""
        if size <= 0:
            return np.zeros(shape, dtype)
        lo = -size if neg and self.chance(0.3) else 0
        return self.rng.integers(lo, size, size=shape).astype(dtype)

    def index_dtype(self) -> str:
        return "int64" if self.chance(0.7) else "int32"

    def pick_str(self, seq: Any) -> str:
        return str(self.pick(seq))


def _params(op: Any) -> dict[str, inspect.Parameter]:
    return dict(inspect.signature(op).parameters)


def _first(names: tuple[str, ...], params: dict[str, inspect.Parameter]) -> str | None:
    for n in names:
        if n in params:
            return n
    return None


# ------------------------------------------------------------------------------ keyword choices

# valid choices (first) and a few invalid ones (after None in each list) per keyword
_BAD = object()

KW_CHOICES: dict[str, dict[str, list[Any]]] = {
    "*": {
        "device": ["cpu", "gpu", "xla", _BAD, "tpu", 0],
        "bad_indices_policy": ["", "DEFAULT", "IGNORE", "ERROR", _BAD, "ignore", 1],
        "duplicates": ["last", "first", "raise", _BAD, "any"],
        "include_self": [True, False, _BAD, 1, "yes"],
        "use_init_val": [True, False, _BAD, "no"],
        "accumulate": [False, True, _BAD, 2],
        "keepdims": [False, True, _BAD, 2],
        "broadcast": [True, False, _BAD, "x"],
        "overwrite": [True, False, _BAD, "x"],
        "wrap_indices": [None, True, False, _BAD, 3],
        "match_outer": [False, True, _BAD, 1],
        "unique_indices": [False, True, _BAD, "no"],
        "indices_are_sorted": [False, True, _BAD, "no"],
        "wrap_negative_indices": [None, True, False, _BAD, "yes"],
        "negative": ["wrap", "raise", "bounds", _BAD, "clip", 5],
        "mean_rounding": ["floor", "trunc", _BAD, "round"],
        "index_axis": [-1, _BAD, 5, 1.5, "0"],  # (a valid 0 is set by the generator, with the indices moved)
    },
    "jax": {
        "mode": [None, "clip", "fill", "drop", "promise_in_bounds", _BAD, "wrap", "raise", 3],
        "fill_value": [None, 0, -1, 7.5, float("nan"), _BAD, [1, 2], "x"],
    },
    "numpy": {"mode": ["raise", "wrap", "clip", _BAD, "fill", None]},
    "mxnet": {"mode": ["clip", "wrap", "raise", _BAD, "fill", None]},
    "paddle": {
        "mode": ["raise", "wrap", "clip", _BAD, "fill"],
        "reduce": ["assign", "add", "mul", "multiply", "mean", "amin", "amax", _BAD, "sum", None],
    },
    "onnx": {
        "reduction": ["none", "add", "mul", "max", "min", _BAD, "mean", "sum", None],
        "mode": ["linear", "circular", _BAD, "ring", None],
    },
    "openvino": {"reduction": ["none", "sum", "prod", "min", "max", "mean", _BAD, "add", None]},
    "torch": {
        "reduce": [None, "add", "multiply", _BAD, "sum", "mean"],
        "alpha": [1, 2, -1, 0.5, _BAD, "a", None],
        "value": [0, 1.5, -3, True, _BAD, "x", [1, 2], float("nan"), 2**70],
    },
    "gatherscatter": {
        "bounds": ["raise", "wrap", "clip", "fill", _BAD, "drop", "clamp", 3],
        "reduction": ["none", "add", "sub", "mul", "max", "min", "mean", _BAD, "sum"],
        "fill_value": [None, 0, -1, 9.5, float("nan"), _BAD, [1], "x"],
    },
}


def _arg(op: Any, p: dict[str, inspect.Parameter], role: str, names: tuple[str, ...]) -> str | None:
    """The parameter playing ``role`` (``data``, ``indices``, ``updates``), as the op's record says; by the usual
    parameter names for ops without a record or whose record has no description yet."""
    roles = _roles(op)
    if roles is None:
        return _first(names, p)
    return next((n for n, r in roles.items() if r == role and n in p), None)


def _roles(op: Any) -> dict[str, str] | None:
    """The record's argument roles; None when the op has no record, or a record without a description yet
    (its ``describe`` raises :class:`~gatherscatter.errors.UnsupportedError`: the roles are not stated)."""
    rec = getattr(op, "record", None)
    if rec is None:
        return None
    try:
        roles: dict[str, str] = rec.arg_roles
    except (AttributeError, UnsupportedError):
        return None
    return roles


def _hints(op: Any) -> Any:
    """What the op's record tells the generator (``op.record.fuzz``; empty for ops without a record)."""
    rec = getattr(op, "record", None)
    return rec.fuzz if rec is not None else {}


def _choices(op: Any, name: str) -> list[Any] | None:
    info = op.info
    if name == info.version_kw and info.versions:
        vers: list[Any] = [int(v) if v.isdigit() else v for v in info.versions]
        if name == "opset":
            vers = [None, *vers, 14, 16, 18, 28]
        return [*vers, _BAD, 0, 99, 2.0, "13", -1]
    own = _hints(op).get("choices", {}).get(name)
    if own is not None:  # the op's record names its valid and invalid values
        valid, invalid = own
        return [*valid, _BAD, *invalid]
    for key in (info.framework, "*"):
        got = KW_CHOICES.get(key, {}).get(name)
        if got is not None:
            return got
    return None


def keyword(g: G, op: Any, name: str, bad: bool) -> tuple[bool, Any]:
    """``(known, value)``: a valid (or, with ``bad``, an invalid) value for keyword ``name``."""
    ch = _choices(op, name)
    if ch is None:
        return False, None
    cut = ch.index(_BAD)
    pool = ch[cut + 1 :] if bad and cut + 1 < len(ch) else ch[:cut]
    return True, g.pick(pool)


# ------------------------------------------------------------------------------ family generators


@dataclass
class Draft:
    """A call under construction: keyword arguments and which parameter plays which role."""

    kwargs: dict[str, Any]
    roles: dict[str, str]
    axis_size: int = 1
    """Size of the (first) indexed axis, for out-of-range mutations."""
    data_axis: int | None = None
    """The data axis the indices address (None: flat or unknown)."""
    twin: dict[str, Any] | None = None


def _elementwise_ishape(g: G, dshape: tuple[int, ...], axis: int, mode: str) -> tuple[int, ...]:
    """Index shape for take_along_axis-like ops: 'le' (<= data), 'bcast' (data dim or 1), 'eq'."""
    out = []
    for d, n in enumerate(dshape):
        if d == axis:
            out.append(g.side(0.05))
        elif mode == "le":
            out.append(g.randint(0 if n == 0 else 1, n) if n else 0)
        elif mode == "bcast":
            out.append(g.pick([n, 1]) if n else g.pick([0, 1]))
        else:
            out.append(n)
    return tuple(out)


def _gen_embedding(g: G, p: dict[str, inspect.Parameter]) -> Draft:
    """An embedding lookup: indices (``input`` / ``ids``) into the rows of a 2-D table (``weight`` / ``params``).

    ``embedding_bag`` gets a 1-D ``input`` and sorted ``offsets`` starting at 0.
    """
    dn, iname = ("weight", "input") if "weight" in p else ("params", "ids")
    rows = g.side(0.05)
    table = g.values((rows, g.randint(1, 4)), g.pick([np.dtype("float32"), np.dtype("float64")]))
    roles = {"data": dn, "indices": iname}
    if "offsets" in p:
        m = g.randint(0, 6)
        idx = g.indices((m,), rows, False, g.index_dtype())
        offsets = np.unique(np.concatenate([[0], g.rng.integers(0, m + 1, g.randint(0, 3))])).astype(np.int64)
        return Draft({iname: idx, dn: table, "offsets": offsets}, roles, rows, 0)
    idx = g.indices(g.shape(g.randint(0, 2)), rows, False, g.index_dtype())
    return Draft({iname: idx, dn: table}, roles, rows, 0)


def gen_gather(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    h = _hints(op)
    if ("weight" in p and "input" in p) or "ids" in p:
        return _gen_embedding(g, p)
    dn, iname, aname = _arg(op, p, "data", DATA_NAMES), _arg(op, p, "indices", IDX_NAMES), _first(AXIS_NAMES, p)
    assert dn is not None
    assert iname is not None
    rank = g.randint(1, 4)
    rank = max(rank, h.get("min_rank", 1))
    dshape = g.shape(rank)
    dt = g.dtype()
    data = g.values(dshape, dt)
    kw: dict[str, Any] = {dn: data}
    flat = bool(h.get("flat"))
    axis: int | None = 0
    if aname is not None:
        default = p[aname].default
        if default is None and g.chance(0.3) and h.get("axis_none"):
            axis, flat = None, True
        else:
            axis = g.randint(0, rank - 1)
            kw[aname] = axis - rank if g.chance(0.3) else axis
    elif "fixed_axis" in h:
        axis = h["fixed_axis"]
    b = 0
    if "batch_dims" in p and axis is not None and g.chance(0.5):
        b = g.randint(0, axis)
        kw["batch_dims"] = b
    size = data.size if flat else dshape[axis or 0]
    form = h.get("index_shape")
    if form in ("vector_or_scalar", "vector"):
        mshape: tuple[int, ...] = g.pick([(g.side(0.05),), ()]) if form == "vector_or_scalar" else (g.side(0.05),)
    elif form == "matrix":
        mshape = g.shape(g.randint(1, 2))
    else:
        mshape = g.shape(g.randint(0, 2))
    ishape = (dshape[:b] if not flat else ()) + mshape
    neg = h.get("negative", True)
    kw[iname] = g.indices(ishape, size, neg, g.index_dtype())
    if h.get("float_index") and g.chance(h["float_index"]):
        kw[iname] = kw[iname].astype("float32") + 0.25
    return Draft(kw, {"data": dn, "indices": iname, **({"axis": aname} if aname else {})}, size,
                 None if flat else axis)


def gen_gather_elements(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    q = op.info.qualname
    h = _hints(op)
    dn, iname, aname = _arg(op, p, "data", DATA_NAMES), _arg(op, p, "indices", IDX_NAMES), _first(AXIS_NAMES, p)
    assert dn is not None
    assert iname is not None
    assert aname is not None
    rank = g.randint(1, 4)
    dshape = g.shape(rank)
    data = g.values(dshape, g.dtype())
    axis = g.randint(0, rank - 1)
    kw: dict[str, Any] = {dn: data, aname: axis - rank if g.chance(0.3) else axis}
    roles = {"data": dn, "indices": iname, "axis": aname}
    if h.get("drops_axis"):
        keep = g.chance(0.3)
        ishape = tuple(1 if (d == axis and keep) else n for d, n in enumerate(dshape) if d != axis or keep)
        kw["keepdims"] = keep
        kw[iname] = g.indices(ishape, dshape[axis], True, g.pick(["int64", "int32", "float32"]))
        return Draft(kw, roles, dshape[axis], axis)
    mode = "bcast" if q.split(".")[0] in ("numpy", "jax", "paddle") or q.endswith("take_along_dim") else "le"
    if q.startswith(("onnx.", "openvino.")) and g.chance(0.5):
        mode = "eq"
    if h.get("axis_none") and g.chance(0.15):
        kw[aname] = None
        kw[iname] = g.indices((g.side(0.1),), data.size, True, g.index_dtype())
        return Draft(kw, roles, data.size, None)
    ishape = _elementwise_ishape(g, dshape, axis, mode)
    neg = not q.startswith("torch.")
    kw[iname] = g.indices(ishape, dshape[axis], neg, g.index_dtype())
    return Draft(kw, roles, dshape[axis], axis)


def _nd_layout(g: G, op: Any, p: dict[str, inspect.Parameter]) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """(data shape, batch_dims, k, M) of a gather_nd/scatter_nd case."""
    rank = g.randint(1, 4)
    dshape = g.shape(rank)
    b = g.randint(0, rank - 1) if "batch_dims" in p and g.chance(0.4) else 0
    kmin = 1 if op.info.framework in ("mxnet", "tensorflow", "paddle") else 0
    k = g.randint(min(kmin, rank - b), rank - b)
    m = g.shape(g.randint(0, 2) if op.info.framework != "mxnet" else g.randint(1, 2))
    return dshape, b, k, m


def _nd_indices(g: G, dshape: tuple[int, ...], b: int, k: int, m: tuple[int, ...], neg: bool) -> Array:
    ishape = dshape[:b] + m
    dt = g.index_dtype()
    cols = [g.indices(ishape, dshape[b + j], neg, dt) for j in range(k)]
    return np.stack(cols, axis=-1) if cols else np.zeros((*ishape, 0), dt)


def _npindex(g: G, shape: tuple[int, ...]) -> Any:
    """A NumPy-style index expression for an array of ``shape`` (advanced and basic entries)."""
    r = len(shape)
    kind = g.pick(["array", "tuple", "int", "slice", "mask", "mixed"])
    if r == 0:
        return g.pick([(), Ellipsis, None])
    if kind == "array":
        return g.indices(g.shape(g.randint(1, 2)), shape[0], True, g.index_dtype())
    if kind == "int" and shape[0] > 0:
        return g.randint(-shape[0], shape[0] - 1)
    if kind == "slice":
        return slice(g.pick([None, 0, 1, -1]), g.pick([None, 2, -1, 10]), g.pick([None, 1, 2, -1]))
    if kind == "mask":
        return g.rng.random(shape[: g.randint(1, r)]) < 0.5
    if kind == "mixed":
        entries: list[Any] = []
        for d in range(g.randint(1, r)):
            entries.append(g.pick([slice(None), "arr", "int", None]))
            if entries[-1] == "arr":
                entries[-1] = g.indices((2,), shape[d], True)
            elif entries[-1] == "int":
                entries[-1] = g.randint(-shape[d], shape[d] - 1) if shape[d] else 0
        if g.chance(0.2):
            entries.insert(0, Ellipsis) if len(entries) < r else None
        return tuple(entries)
    k = g.randint(1, r)
    bshape = g.shape(g.randint(0, 2))
    return tuple(g.indices(bshape, shape[j], True, g.index_dtype()) for j in range(k))


def _selected_shape(shape: tuple[int, ...], idx: Any) -> tuple[int, ...] | None:
    try:
        return tuple(np.empty(shape, np.int8)[idx].shape)
    except (IndexError, ValueError, TypeError):
        return None


def gen_gather_nd(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    q = op.info.qualname
    h = _hints(op)
    dn, iname = _arg(op, p, "data", DATA_NAMES), _arg(op, p, "indices", IDX_NAMES)
    assert dn is not None
    assert iname is not None
    if h.get("npindex"):
        dshape = g.shape(g.randint(0, 3))
        kw: dict[str, Any] = {dn: g.values(dshape, g.dtype()), iname: _npindex(g, dshape)}
        return Draft(kw, {"data": dn, "indices": iname}, dshape[0] if dshape else 1)
    dshape, b, k, m = _nd_layout(g, op, p)
    data = g.values(dshape, g.dtype())
    idx = _nd_indices(g, dshape, b, k, m, neg=not q.startswith("tensorflow"))
    kw = {dn: data}
    if "batch_dims" in p and b:
        kw["batch_dims"] = b
    if h.get("index_axis") == 0:
        idx = np.moveaxis(idx, -1, 0)
        if h.get("float_index") and g.chance(h["float_index"]):
            idx = idx.astype("float32")
    if "index_axis" in p and g.chance(0.3):
        kw["index_axis"] = 0 if b == 0 else b
        idx = np.moveaxis(idx, -1, kw["index_axis"])
    kw[iname] = idx
    return Draft(kw, {"data": dn, "indices": iname}, dshape[b] if b < len(dshape) else 1, b if k else None)


def gen_scatter_elements(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    q = op.info.qualname
    h = _hints(op)
    d = gen_gather_elements(g, op, p)
    kw = d.kwargs
    uname = _arg(op, p, "updates", UPD_NAMES)
    assert uname is not None
    data = kw[d.roles["data"]]
    idx = kw[d.roles["indices"]]
    if kw.get(d.roles["axis"], 0) is None:
        kw[d.roles["axis"]] = 0
        kw[d.roles["indices"]] = idx = g.indices((g.side(),) * data.ndim, data.shape[0] if data.ndim else 1)
    ushape = idx.shape
    if q.startswith("torch.") and g.chance(0.3):
        ushape = tuple(n + g.randint(0, 1) for n in ushape)
    if "value" in p and g.chance(0.3):
        kw["value"] = g.pick([1, 2.5, -1])
    else:
        upd = g.values(ushape, data.dtype)
        if h.get("scalar_updates") and g.chance(h["scalar_updates"]):
            upd = upd.reshape(-1)[:1].reshape(()) if upd.size else upd
        kw[uname] = upd
    d.roles["updates"] = uname
    return d


def gen_scatter_nd(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    q = op.info.qualname
    h = _hints(op)
    dn, iname = _arg(op, p, "data", DATA_NAMES), _arg(op, p, "indices", IDX_NAMES)
    uname = _arg(op, p, "updates", UPD_NAMES)
    if h.get("npindex"):
        assert dn is not None
        assert iname is not None
        dshape = g.shape(g.randint(0, 3))
        x = g.values(dshape, g.dtype())
        idx = _npindex(g, dshape)
        kw: dict[str, Any] = {dn: x, iname: idx}
        named = {"data": dn, "indices": iname}
        if uname is not None:  # (x.at[idx].apply has no values: its record names none)
            sel = _selected_shape(dshape, idx) or ()
            kw[uname] = g.values(sel, x.dtype) if g.chance(0.8) else g.values((), x.dtype)
            named["updates"] = uname
        return Draft(kw, named, dshape[0] if dshape else 1)
    if h.get("index_axis") == 0:
        dshape, _, k, m = _nd_layout(g, op, p)
        k = max(k, 1) if len(dshape) else 0
        if not dshape:
            dshape = (g.randint(1, 3),)
            k = 1
        idx = np.moveaxis(_nd_indices(g, dshape, 0, k, m, True), -1, 0)
        dt = np.dtype(g.pick(["float32", "float64", "int32", "int64", "uint8", "int8", "float16"]))
        upd = g.values(m + dshape[k:], dt)
        kw = {"data": upd, "indices": idx, "shape": dshape}
        return Draft(kw, {"updates": "data", "indices": "indices", "shape": "shape"}, dshape[0])
    dshape, b, k, m = _nd_layout(g, op, p)
    if h.get("nonempty_tuples"):
        k = max(k, 1)
        m = m or (g.side(),)
    dt = g.dtype()
    idx = _nd_indices(g, dshape, b, k, m, neg=not q.startswith("tensorflow"))
    upd = g.values(dshape[:b] + m + dshape[b + k :], dt)
    roles: dict[str, str] = {"indices": iname or "indices", "updates": uname or "updates"}
    kw = {}
    if dn is not None:
        kw[dn] = g.values(dshape, dt)
        roles["data"] = dn
    if "shape" in p:
        kw["shape"] = list(dshape) if g.chance(0.7) else np.array(dshape, g.pick(["int64", "int32"]))
        roles["shape"] = "shape"
    if b:
        kw["batch_dims"] = b
    if h.get("tuple_index"):
        parts = tuple(idx[..., j] for j in range(k))
        if not parts or g.chance(0.15):
            mask = g.rng.random(dshape[:1]) < 0.5
            parts = (mask,)
            upd = g.values((int(mask.sum()),) + dshape[1:], dt)
        kw["indices"] = parts if g.chance(0.8) else list(parts)
    else:
        assert iname is not None
        kw[iname] = idx
    if "index_axis" in p and iname is not None and g.chance(0.3):
        kw["index_axis"] = b
        kw[iname] = np.moveaxis(idx, -1, b)
    assert uname is not None
    kw[uname] = upd
    return Draft(kw, roles, dshape[b] if b < len(dshape) else 1)


def _gen_cache_update(g: G) -> Draft:
    """A KV-cache update (ONNX TensorScatter's signature): ``update`` differs from ``past_cache`` on one axis."""
    rank = g.randint(2, 4)
    dshape = list(g.shape(rank))
    axis = g.randint(1, rank - 1)
    ushape = list(dshape)
    ushape[axis] = g.randint(0, dshape[axis])
    dt = g.dtype()
    w = g.rng.integers(0, dshape[axis] - ushape[axis] + 1, size=dshape[0]).astype(np.int64)
    kw: dict[str, Any] = {"past_cache": g.values(tuple(dshape), dt), "update": g.values(tuple(ushape), dt)}
    kw["write_indices"] = w
    kw["axis"] = axis - rank if g.chance(0.3) else axis
    roles = {"data": "past_cache", "indices": "write_indices", "updates": "update", "axis": "axis"}
    return Draft(kw, roles, dshape[axis], axis)


def _gen_segment(g: G, p: dict[str, inspect.Parameter]) -> Draft:
    """A segment reduction (``data, segment_ids[, num_segments]`` or torch's ``data, reduce, lengths=``).

    Ids are sorted (the sorted ops need them so) and mostly in range; the mutations make them hostile.
    """
    m = g.side(0.05)
    dshape = (m, *g.shape(g.randint(0, 2)))
    if "lengths" in p:
        dt = g.pick([np.dtype("float32"), np.dtype("float64")])
    else:  # float32 / int32 often: some frameworks (TFLite) take nothing else
        dt = g.pick([np.dtype("float32"), np.dtype("int32"), g.dtype()])
    kw: dict[str, Any] = {"data": g.values(dshape, dt)}
    if "lengths" in p:
        cuts = np.sort(g.rng.integers(0, m + 1, g.randint(0, 3)))
        kw["lengths"] = np.diff(np.concatenate([[0], cuts, [m]])).astype(np.int64)
        kw["reduce"] = g.pick(["sum", "mean", "max", "min", "prod"])
        return Draft(kw, {"data": "data", "indices": "lengths"}, m, 0)
    if g.chance(0.5):  # consecutive ids from 0 (no empty segment: what TFLite's SEGMENT_SUM needs)
        ids = np.cumsum(np.r_[0, g.rng.integers(0, 2, max(m - 1, 0))])[:m]
    else:
        ids = np.sort(g.rng.integers(0, 4, m))
    ids = ids.astype(g.pick(["int32", "int64"]))
    kw["segment_ids"] = ids
    if "num_segments" in p:
        kw["num_segments"] = g.randint(int(ids.max()) + 1 if m else 0, 5)
    return Draft(kw, {"data": "data", "indices": "segment_ids"}, 4, 0)


def gen_scatter_axis(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    q = op.info.qualname
    if "past_cache" in p:
        return _gen_cache_update(g)
    h = _hints(op)
    if "segment_ids" in p or "lengths" in p:
        return _gen_segment(g, p)
    if "weight" in p and "input" in p:
        return _gen_embedding(g, p)
    dn, iname = _arg(op, p, "data", DATA_NAMES), _arg(op, p, "indices", IDX_NAMES)
    uname, aname = _arg(op, p, "updates", UPD_NAMES), _first(AXIS_NAMES, p)
    assert dn is not None
    assert iname is not None
    rank = g.randint(1, 4)
    dshape = g.shape(rank)
    dt = g.dtype()
    data = g.values(dshape, dt)
    kw: dict[str, Any] = {dn: data}
    roles = {"data": dn, "indices": iname}
    if h.get("flat"):
        size = data.size
        ishape = g.shape(g.randint(0, 2))
        kw[iname] = g.indices(ishape, size, True)
        assert uname is not None
        kw[uname] = g.values((g.randint(1, 5),), dt) if g.chance(0.7) else g.values((), dt)
        roles["updates"] = uname
        return Draft(kw, roles, size)
    axis = 0 if aname is None else g.randint(0, rank - 1)
    if aname is not None:
        kw[aname] = axis - rank if g.chance(0.3) else axis
        roles["axis"] = aname
    ishape = (g.side(0.05),) if h.get("index_shape") != "any" else g.shape(g.randint(0, 2))
    if q.startswith("torch.") and g.chance(0.15):
        ishape = ()
    neg = not q.startswith(("openvino.", "paddle."))
    idx = g.indices(ishape, dshape[axis], neg, g.index_dtype())
    if h.get("distinct_targets") and dshape[axis] and g.chance(h["distinct_targets"]):
        # distinct targets: a permutation prefix
        n = min(int(np.prod(ishape)) if ishape else 1, dshape[axis])
        if n == (int(np.prod(ishape)) if ishape else 1):
            idx = g.rng.permutation(dshape[axis])[:n].reshape(ishape).astype(idx.dtype)
    kw[iname] = idx
    ushape = dshape[:axis] + ishape + dshape[axis + 1 :]
    if "value" in p:
        kw["value"] = g.pick([0, 1.5, -2, True])
    elif uname is not None:
        kw[uname] = g.values(ushape, dt)
        roles["updates"] = uname
    return Draft(kw, roles, dshape[axis])


def _lax_operand(g: G) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A lax.gather / lax.scatter operand: its rank and shape, its batching dim (at most one) and the dims the
    index tuples address (``start_index_map`` / ``scatter_dims_to_operand_dims``)."""
    r = g.randint(1, 3)
    oshape = tuple(g.randint(1, 4) for _ in range(r))
    dims = list(g.rng.permutation(r))
    nb = 1 if r >= 2 and g.chance(0.2) else 0
    batching = tuple(sorted(dims[:nb]))
    rest = [d for d in range(r) if d not in batching]
    k = g.randint(1, len(rest)) if rest else 0
    return r, oshape, batching, tuple(int(d) for d in g.rng.permutation(rest)[:k])


def _lax_indices(g: G, oshape: tuple[int, ...], batching: tuple[int, ...],
                 addressed: tuple[int, ...]) -> tuple[list[int], tuple[int, ...], Array]:
    """The index array (its batch shape, its batching dim, the index tuples on its last axis, one per
    ``addressed`` operand dim, from -1 to the dim's size: out of range both ways)."""
    bshape = list(g.shape(g.randint(0, 2), zero=0.02))
    ibd: tuple[int, ...] = ()
    if batching:
        pos = g.randint(0, len(bshape))
        bshape.insert(pos, oshape[batching[0]])
        ibd = (pos,)
    cols = [g.rng.integers(-1, oshape[d] + 1, size=tuple(bshape)) for d in addressed]
    idx = np.stack(cols, axis=-1) if cols else np.zeros((*bshape, 0), np.int64)
    return bshape, ibd, idx


def _lax_gather_case(g: G) -> tuple[Array, Array, Any, tuple[int, ...]]:
    from ..dialects.jax.lax import GatherDimensionNumbers

    r, oshape, batching, sim = _lax_operand(g)
    slice_sizes = [1 if d in batching else g.randint(1 if d in sim else 0, oshape[d]) for d in range(r)]
    collapsed = tuple(sorted(d for d in sim if slice_sizes[d] == 1 and g.chance(0.6)))
    bshape, ibd, idx = _lax_indices(g, oshape, batching, sim)
    n_off = r - len(collapsed) - len(batching)
    out_rank = n_off + len(bshape)
    off = tuple(sorted(int(x) for x in g.rng.permutation(out_rank)[:n_off]))
    dn = GatherDimensionNumbers(off, collapsed, sim, batching, ibd)
    return g.values(oshape, g.dtype(0.1)), idx.astype(g.index_dtype()), dn, tuple(slice_sizes)


def _lax_scatter_case(g: G) -> tuple[Array, Array, Array, Any]:
    from ..dialects.jax.lax import ScatterDimensionNumbers

    r, oshape, batching, sdod = _lax_operand(g)
    inserted = tuple(sorted(d for d in sdod if g.chance(0.5)))
    window = [d for d in range(r) if d not in inserted and d not in batching]
    wsizes = [g.randint(0 if g.chance(0.05) else 1, oshape[d]) for d in window]
    bshape, ibd, idx = _lax_indices(g, oshape, batching, sdod)
    urank = len(bshape) + len(window)
    uwd = tuple(sorted(int(x) for x in g.rng.permutation(urank)[: len(window)]))
    ushape: list[int] = []
    bi, wi = iter(bshape), iter(wsizes)
    for u in range(urank):
        ushape.append(next(wi) if u in uwd else next(bi))
    dt = g.dtype(0.1)
    dn = ScatterDimensionNumbers(uwd, inserted, sdod, batching, ibd)
    return g.values(oshape, dt), idx.astype(g.index_dtype()), g.values(tuple(ushape), dt), dn


def gen_general(g: G, op: Any, p: dict[str, inspect.Parameter]) -> Draft:
    if "slice_sizes" in p:  # lax.gather
        data, idx, dn, sizes = _lax_gather_case(g)
        kw: dict[str, Any] = {"operand": data, "start_indices": idx, "dimension_numbers": dn, "slice_sizes": sizes}
        return Draft(kw, {"data": "operand", "indices": "start_indices"}, data.shape[0])
    if "dimension_numbers" in p:  # lax.scatter*
        data, idx, upd, sdn = _lax_scatter_case(g)
        kw = {"operand": data, "scatter_indices": idx, "dimension_numbers": sdn}
        roles = {"data": "operand", "indices": "scatter_indices"}
        shape = next((n for n, r in (_roles(op) or {}).items() if r == "shape" and n in p), None)
        if shape is not None:  # lax.scatter_apply: no updates, their shape (its record's role 'shape')
            kw[shape] = upd.shape
        else:
            kw["updates"], roles["updates"] = upd, "updates"
        return Draft(kw, roles, data.shape[0])
    # numpy ufunc.at: a[indices] op= b (unbuffered)
    dshape = g.shape(g.randint(1, 3))
    a = g.values(dshape, g.dtype())
    idx = _npindex(g, dshape)
    sel = _selected_shape(dshape, idx) or ()
    b = g.values(sel, a.dtype) if g.chance(0.8) else g.values((), a.dtype)
    return Draft({"a": a, "indices": idx, "b": b}, {"data": "a", "indices": "indices", "updates": "b"}, dshape[0])


FAMILY: dict[str, Callable[[G, Any, dict[str, inspect.Parameter]], Draft]] = {
    "gather": gen_gather,
    "gather_elements": gen_gather_elements,
    "gather_nd": gen_gather_nd,
    "scatter_elements": gen_scatter_elements,
    "scatter_nd": gen_scatter_nd,
    "scatter_axis": gen_scatter_axis,
    "general": gen_general,
}


def _required(op: Any, p: dict[str, inspect.Parameter], kw: dict[str, Any]) -> None:
    """Fill required keywords the draft did not set (``reduce``) with their first valid choice."""
    for name, par in p.items():
        if name not in kw and par.default is inspect.Parameter.empty:
            ch = _choices(op, name)
            if ch:
                kw[name] = ch[0]


def _keywords(g: G, op: Any, p: dict[str, inspect.Parameter], d: Draft, bad: bool) -> None:
    """Fill in the other keyword parameters (versions, modes, policies) with valid or bad values."""
    for name, par in p.items():
        if name in d.kwargs or name in ("dimension_numbers", "slice_sizes", "shape"):
            continue
        known, value = keyword(g, op, name, bad)
        if not known:
            if par.default is inspect.Parameter.empty and name in ("reduce",):
                d.kwargs[name] = "sum"
            continue
        if par.default is not inspect.Parameter.empty and not bad and g.chance(0.35):
            continue  # leave the default
        if name == op.info.version_kw and "valid_versions" in _hints(op) and not bad:
            value = g.pick(list(_hints(op)["valid_versions"]))
        d.kwargs[name] = value
        if bad:
            return


# ------------------------------------------------------------------------------ layouts (values kept)


def relayout(g: G, a: Any) -> Any:
    """``a`` with the same values in a hostile memory layout (or as a list)."""
    if not isinstance(a, np.ndarray):
        return a
    how = g.pick(["strided", "reversed", "fortran", "readonly", "bigendian", "broadcast", "list", "offset"])
    if how == "strided" and a.ndim:
        base = np.empty(a.shape[:-1] + (a.shape[-1] * 2 + 1,), a.dtype)
        view = base[..., 1::2]
        view[...] = a
        return view
    if how == "reversed" and a.ndim:
        ax = g.randint(0, a.ndim - 1)
        return np.flip(np.flip(a, ax).copy(), ax)
    if how == "fortran":
        return np.asfortranarray(a)
    if how == "readonly":
        c = a.copy()
        c.flags.writeable = False
        return c
    if how == "bigendian" and a.dtype.kind in "iufc" and a.dtype.itemsize > 1:
        return a.astype(a.dtype.newbyteorder(">" if a.dtype.byteorder in "=<" else "<"))
    if how == "broadcast" and a.size and a.ndim:
        # a zero-stride view: the same value everywhere (values change; still a legal input)
        return np.broadcast_to(a.reshape(-1)[:1].reshape((1,) * a.ndim), a.shape)
    if how == "list" and a.dtype.kind in "biuf" and a.dtype.isnative and a.size:  # (an empty list loses the shape)
        return a.tolist()
    if how == "offset" and a.size:
        # an unaligned view: one byte into a larger buffer
        buf = np.zeros(a.nbytes + 1, np.uint8)
        view = buf[1:].view(a.dtype).reshape(a.shape) if not a.dtype.hasobject else a
        if view is not a:
            view[...] = a
        return view
    return a


# ------------------------------------------------------------------------------ mutations


def _hostile_value(g: G, size: int) -> int:
    return int(g.pick([size, size + 1, -size - 1, 2**31 - 1, 2**31, -(2**31) - 1, I64_MAX, I64_MIN, I64_MIN + 1,
                       I64_MAX - 1, 2**32]))


def mutate_indices(g: G, a: Any, size: int) -> Any:
    if isinstance(a, (tuple, list)) and a:
        j = g.randint(0, len(a) - 1)
        items = list(a)
        items[j] = mutate_indices(g, items[j], size)
        return type(a)(items) if isinstance(a, tuple) else items
    if not isinstance(a, np.ndarray) or a.dtype.kind not in "iu":
        return np.array([_hostile_value(g, size)])
    how = g.pick(["oob", "oob", "uint64", "dtype", "nan", "rank+", "rank-", "empty", "zerod", "huge"])
    if how == "oob":
        v = _hostile_value(g, size)
        out: Array = a.astype(np.int64) if a.size else np.zeros((1,) * max(a.ndim, 1), np.int64)
        out.reshape(-1)[g.randint(0, out.size - 1)] = v
        return out.astype(a.dtype) if np.iinfo(a.dtype).min <= v <= np.iinfo(a.dtype).max else out
    if how == "uint64":
        out = a.astype(np.uint64) if a.size else np.zeros((1,) * max(a.ndim, 1), np.uint64)
        out.reshape(-1)[g.randint(0, out.size - 1)] = g.pick([2**63, 2**64 - 1, 2**63 + 1, size])
        return out
    if how == "dtype":
        dt = g.pick(HOSTILE_INDEX_DTYPES)
        if dt == "object":
            o = np.empty(a.shape, object)
            o.reshape(-1)[:] = [int(x) for x in a.reshape(-1)]
            return o
        with np.errstate(all="ignore"):
            return a.astype(dt)
    if how == "nan":
        f = a.astype(g.pick(["float32", "float64"]))
        if f.size:
            f.reshape(-1)[g.randint(0, f.size - 1)] = g.pick([np.nan, np.inf, -np.inf, 0.5, -0.5, 1e30])
        return f
    if how == "rank+":
        return a[None] if g.chance(0.5) else a[..., None]
    if how == "rank-":
        return a.reshape(-1)[:1].reshape(()) if a.size else np.zeros((), a.dtype)
    if how == "empty":
        return np.zeros((0,) + a.shape[1:], a.dtype) if a.ndim else np.zeros((0,), a.dtype)
    if how == "zerod":
        return np.array(g.pick([0, -1, size, I64_MIN]), np.int64)
    # a zero-stride index array (one value repeated); enormous logical sizes are left out: a gather's output
    # would be as large (it cannot be allocated) and scanning the indices first takes hours
    if a.ndim == 0:
        return a
    return np.broadcast_to(a.reshape(-1)[:1] if a.size else np.zeros(1, a.dtype), (g.randint(2, 300),) + a.shape[1:])


def huge_along(a: Array, axis: int) -> Array:
    """A zero-stride view of ``a`` with axis ``axis`` enormous (about 2**45 bytes in all)."""
    sl = np.take(a, [0], axis=axis) if a.shape[axis] else np.zeros(a.shape[:axis] + (1,) + a.shape[axis + 1 :],
                                                                    a.dtype)
    other = max(1, int(np.prod(sl.shape)))
    big = max(2, (1 << 45) // (other * max(1, a.itemsize)))
    return np.broadcast_to(sl, a.shape[:axis] + (big,) + a.shape[axis + 1 :])


def mutate_data(g: G, a: Any) -> Any:
    if not isinstance(a, np.ndarray):
        return a
    how = g.pick(["dtype", "zerod", "empty", "rank+", "rank-", "huge", "object", "list-ragged"])
    if how == "dtype":
        dt = np.dtype(g.pick(ODD_DTYPES))
        return g.values(a.shape, dt)
    if how == "zerod":
        return a.reshape(-1)[:1].reshape(()) if a.size else np.zeros((), a.dtype)
    if how == "empty":
        if a.ndim == 0:
            return np.zeros((0,), a.dtype)
        shape = list(a.shape)
        shape[g.randint(0, a.ndim - 1)] = 0
        return np.zeros(tuple(shape), a.dtype)
    if how == "rank+":
        return a[None]
    if how == "rank-":
        return a[0] if a.ndim and a.shape[0] else a.reshape(-1)
    if how == "huge":
        # enormous (and so never allocatable) as soon as two grown dims meet; one grown dim alone is small
        r = max(a.ndim, 1)
        side = 2**45 if r == 1 else 2**19
        while True:
            grown = tuple(max(n, side) if d < 3 else n for d, n in enumerate(a.shape if a.ndim else (1,)))
            if int(np.prod([max(n, 1) for n in grown], dtype=object)) * a.itemsize < 2**61:
                return np.broadcast_to(g.values((1,) * r, a.dtype), grown)
            side //= 2
    if how == "object":
        o = np.empty(a.shape, object)
        o.reshape(-1)[:] = a.reshape(-1).tolist()
        return o
    return [[1, 2], [3]]


def mutate_updates(g: G, u: Any) -> Any:
    if not isinstance(u, np.ndarray):
        return g.pick([np.zeros((7, 7)), None, "x", [[1], [2, 3]]])
    # (no enormous zero-stride updates: where indices broadcast against them, e.g. scatter_along_axis with
    # broadcast=True, the call is valid and asks for 2**42 updates: hours of work, not a bug)
    how = g.pick(["dim+", "dim-", "rank+", "prefix", "dtype", "scalar", "empty"])
    if how in ("dim+", "dim-") and u.ndim:
        shape = list(u.shape)
        j = g.randint(0, u.ndim - 1)
        shape[j] = max(0, shape[j] + (1 if how == "dim+" else -1))
        return g.values(tuple(shape), u.dtype)
    if how == "rank+":
        return u[None]
    if how == "prefix" and u.ndim >= 2:
        return np.ascontiguousarray(np.swapaxes(u, 0, u.ndim - 1))
    if how == "dtype":
        return g.values(u.shape, g.pick(["float64", "float32", "int64", "int8", "bool", "complex64", "object"]))
    if how == "scalar":
        return g.values((), u.dtype)
    if how == "empty":
        return np.zeros((0,), u.dtype)
    return u


def mutate_axis(g: G, a: Any, rank: int) -> Any:
    return g.pick([rank, -rank - 1, I64_MAX, I64_MIN, 1.0, True, None, np.int64(0), "0", np.array(0), [0], 2**64,
                   np.uint64(0), np.float32(1)])


def mutate_shape(g: G, s: Any) -> Any:
    return g.pick([
        [2**62, 2**62], [2**31, 2**31, 2**31], [2**63 - 1], [I64_MAX, 2], [-1, 3], [], [[2, 3]], [1.5], [0, 2**62],
        [2**32, 2**32], np.array([2**62, 4], np.int64), np.array([3], np.uint64), [2**64], "3", None, 5,
        np.array([2**31 - 1, 2**31 - 1], np.int32),
    ])


def mutate(g: G, op: Any, p: dict[str, inspect.Parameter], d: Draft) -> str:
    """Apply one mutation to the draft; returns its name."""
    roles = d.roles
    options = ["indices"] * 4 + ["data"] * 2 + ["keyword"]
    if "updates" in roles:
        options += ["updates"] * 2
    if "axis" in roles:
        options += ["axis"]
    if "batch_dims" in p:
        options += ["batch_dims"]
    if "shape" in roles:
        options += ["shape"] * 2
    if "data" in roles and "indices" in roles:
        options += ["swap"]
    what = g.pick(options)
    kw = d.kwargs
    data = kw.get(roles.get("data", ""))
    if (what == "data" and op.info.kind == "gather" and d.data_axis is not None and isinstance(data, np.ndarray)
            and data.ndim and g.chance(0.3)):
        # a zero-stride view, enormous along the indexed axis: in-range indices stay in range, so
        # whenever the same call on the small data returns a result, this one must too (no copy)
        d.twin = dict(kw)
        kw[roles["data"]] = huge_along(data, d.data_axis)
        return "huge view"
    if what == "indices":
        kw[roles["indices"]] = mutate_indices(g, kw[roles["indices"]], d.axis_size)
    elif what == "data" and "data" in roles:
        kw[roles["data"]] = mutate_data(g, kw[roles["data"]])
    elif what == "updates":
        kw[roles["updates"]] = mutate_updates(g, kw.get(roles["updates"]))
    elif what == "axis":
        data = kw.get(roles.get("data", ""), None)
        kw[roles["axis"]] = mutate_axis(g, kw.get(roles["axis"]), getattr(data, "ndim", 1))
    elif what == "batch_dims":
        data = kw.get(roles.get("data", ""), None)
        r = int(getattr(data, "ndim", 1))
        kw["batch_dims"] = g.pick([r, r + 1, -1, -r - 1, I64_MAX, 1.5, True, None, r + 5])
    elif what == "shape":
        kw[roles["shape"]] = mutate_shape(g, kw[roles["shape"]])
    elif what == "swap":
        kw[roles["data"]], kw[roles["indices"]] = kw[roles["indices"]], kw[roles["data"]]
    else:
        _keywords(g, op, p, d, bad=True)
        names = [n for n in p if _choices(op, n) is not None]
        if names:
            name = g.pick_str(names)
            _, kw[name] = keyword(g, op, name, True)
    return str(what)


# ------------------------------------------------------------------------------ seeds


def seed_cases(op_ref: str, op: Any) -> list[Case]:
    """The fixed first cases of ``op``: CVE inputs (expected errors) and edge cases."""
    q = op.info.qualname
    p = _params(op)
    seeds = _hints(op).get("seeds")
    out = [Case(op_ref, (), kw, f"seed: {name}", expect) for name, kw, expect in (seeds() if seeds else [])]
    for c in out:
        _required(op, p, c.kwargs)
    # every op: the int64 extremes as indices, uint64 beyond int64, NaN float indices, a 0-d data
    for name, v in (("2**63-1", I64_MAX), ("-2**63", I64_MIN), ("2**64-1 uint64", 2**64 - 1), ("NaN", np.nan)):
        g = G(np.random.default_rng(zlib.crc32(f"{q}/{name}".encode())))
        d = FAMILY[op.info.family](g, op, p)
        idx = d.kwargs.get(d.roles["indices"])
        if isinstance(idx, np.ndarray) and idx.size:
            dt = np.uint64 if v == 2**64 - 1 else (np.float32 if isinstance(v, float) else np.int64)
            new = idx.astype(dt)
            new.reshape(-1)[0] = v
            d.kwargs[d.roles["indices"]] = new
        _required(op, p, d.kwargs)
        out.append(Case(op_ref, (), d.kwargs, f"seed: index {name}", roles=d.roles))
    return out


# ------------------------------------------------------------------------------ entry point


def generate(op_ref: str, op: Any, seed: int, n: int) -> Case:
    """Case ``n`` of ``op`` for ``seed`` (deterministic)."""
    seeds = seed_cases(op_ref, op)
    if n < len(seeds):
        return seeds[n]
    rng = np.random.default_rng([seed & 0xFFFFFFFF, zlib.crc32(op_ref.encode()), n])
    g = G(rng)
    p = _params(op)
    d = FAMILY[op.info.family](g, op, p)
    _keywords(g, op, p, d, bad=False)
    kind = "valid"
    if g.chance(0.45):
        for role in ("data", "indices", "updates"):
            name = d.roles.get(role)
            if name is not None and name in d.kwargs and g.chance(0.5):
                d.kwargs[name] = relayout(g, d.kwargs[name])
                kind = "layout"
    if g.chance(0.5):
        kind = "invalid: " + mutate(g, op, p, d)
    return Case(op_ref, (), d.kwargs, kind, roles=d.roles, twin=d.twin)
