"""Proof by running both sides: generated inputs, edge cases included.

:func:`sample_cases` draws inputs for a source op from its canonical family
(shapes that respect the fixed attributes, indices that are in range,
negative, duplicated, out of range, empty or 0-d), maps them to the source
op's own argument layout, and :func:`verify` runs the source op and the
translated program on each, classifying every disagreement as explained by a
residual divergence (its condition holds for that input) or as a failure.

The generator is generic: it draws arrays for the canonical family
(``Source.canonical``) and maps them to the source's arguments. A source's
quirks are described by ``Source.layout`` keys (all optional):

``index_dtypes``
    index dtype names to draw from (default: int64, int32 a quarter of the time);
    a float dtype draws integral float indices.
``fractional``
    probability of adding a fraction in (-1, 1) to float indices (the
    ``float_index`` feature then holds when an index is not integral).
``data_dtypes``
    data dtype names to draw from (default float64, float32, int64, int32).
``nonfinite``
    probability of putting NaN/inf into float data and updates (feature ``nonfinite``).
``rank``
    ``(lo, hi)``: the data rank (raised to what the axis/batch dims need).
``data_shape``
    a tuple of ints and ``None`` (free): fixes the data rank and those sizes.
``k``
    nd families: the index-tuple length (default: random in ``[1, rank - batch_dims]``).
``index_ndim``
    ``(lo, hi)``: the number of index dims besides the batch dims and the tuple
    axis (gather: default ``(1, 2)``, 0 in scalar cases; nd: ``(1, 2)``, 0..2 in scalar cases).
``full_index``
    element families: indices have the data's shape except on the axis.
``smaller_index``
    scatter_elements: indices may be smaller than the data off the axis (torch).
``axis_len``
    element families: the indices' length on the axis.
``index_fits``
    element families: indices no larger than the data on the axis either.
``larger_updates``
    scatter_elements: ``updates`` may be larger than the indices (torch reads a block).
``updates_broadcast``
    probability of passing updates with leading dims dropped or size-1 dims
    (sources whose values broadcast).
``index_axis``
    ``0``: nd index tuples on the first axis (MXNet).
``to_source``
    ``fn(canon, rng) -> args``: maps the canonical arrays (``canon`` holds
    ``data``, ``indices``, ``updates``, ``sizes``, ``duplicates``, ``k``,
    ``axis``) to the source's arguments when the role mapping (``Source.roles``,
    ``index_axis``) is not enough (index tuples, moved axes, flattened data).

``Source.sample(rng, kind) -> args`` replaces the whole generator (features
are then only the case kind).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..dialects._record import broadcastable
from ..errors import DTypeError, DuplicateIndexError, GatherScatterError, IndexOutOfRangeError
from .ir import Program
from .model import Canonical, Residual, Source

__all__ = ["Case", "Mismatch", "VerifyReport", "compare", "sample_cases", "verify"]

Array = np.ndarray[Any, Any]
KINDS = ("plain", "negative", "duplicates", "out_of_range", "empty", "scalar")
_INDEX = ("int32", "int64")  # the common index dtypes (others: the ``dtype`` feature)


@dataclass
class Case:
    """One generated input: the source op's value arguments and the features that hold."""

    kind: str
    args: dict[str, Any]
    features: frozenset[str]

    def reproducer(self) -> str:
        def lit(v: Any) -> str:
            if isinstance(v, np.ndarray):
                return f"np.array({v.tolist()!r}, dtype=np.{v.dtype})"
            if isinstance(v, tuple):
                return "(" + ", ".join(lit(x) for x in v) + ("," if len(v) == 1 else "") + ")"
            return repr(v)

        return ", ".join(f"{k}={lit(v)}" for k, v in self.args.items())


@dataclass
class Mismatch:
    """A case where source and translation differ and no residual explains it."""

    case: Case
    source: str
    translation: str

    def __str__(self) -> str:
        return f"[{self.case.kind}] {self.case.reproducer()}\n  source:      {self.source}\n" \
               f"  translation: {self.translation}"


@dataclass
class VerifyReport:
    """Counts of one verification run."""

    total: int = 0
    agree: int = 0
    both_raise: int = 0
    source_rejects: int = 0
    explained: Counter[str] = field(default_factory=Counter)
    failures: list[Mismatch] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        """No unexplained disagreement."""
        return not self.failures

    def __str__(self) -> str:
        lines = [f"{self.total} cases: {self.agree} agree ({self.both_raise} of them both raise), "
                 f"{self.source_rejects} rejected by the source's static rules (shape, dtype, arguments), "
                 f"{sum(self.explained.values())} differ as a listed divergence says, {len(self.failures)} failures"]
        lines += [f"  {n} x {why}" for why, n in self.explained.most_common()]
        lines += [f"  FAIL {m}" for m in self.failures[:5]]
        return "\n".join(lines)


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", np.asarray(fn())
    except GatherScatterError as e:
        return "error", e
    except Exception as e:
        return "crash", e


def compare(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    """Both raise a library error, or equal values with equal dtype and shape (NaN equals NaN)."""
    if a[0] != "ok" or b[0] != "ok":
        return a[0] == b[0] == "error"
    x, y = a[1], b[1]
    return x.dtype == y.dtype and x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))


def _show(o: tuple[str, Any]) -> str:
    if o[0] == "ok":
        v = o[1]
        return f"{v.dtype}{list(v.shape)} {np.array2string(v, threshold=20)}"
    return f"{type(o[1]).__name__}: {str(o[1])[:160]}"


def verify(run_source: Callable[..., Any], program: Program, source: Source, residuals: list[Residual], *,
           n: int = 200, seed: int = 0) -> VerifyReport:
    """Run ``run_source`` (the source op with its attrs) and ``program`` on ``n`` generated cases."""
    report = VerifyReport()
    for case in sample_cases(source, n=n, seed=seed):
        report.total += 1
        report.kinds[case.kind] += 1
        args = case.args
        a = _outcome(lambda: run_source(**args))  # noqa: B023 - called at once
        b = _outcome(lambda: program.run(args))  # noqa: B023
        if compare(a, b):
            report.agree += 1
            report.both_raise += a[0] == "error"
            continue
        if a[0] == "error" and b[0] != "crash" and not isinstance(a[1], (IndexOutOfRangeError, DuplicateIndexError)):
            # the source rejects the call itself (a shape, dtype or argument rule): a converter never sees
            # such a program; the translation may be more lenient there
            report.source_rejects += 1
            continue
        feats = case.features | ({"dtype"} if isinstance(b[1], DTypeError) else set())  # a target op refuses it
        why = next((r for r in residuals if r.when == "always" or r.when in feats), None)
        if why is not None and a[0] != "crash" and b[0] != "crash":
            report.explained[str(why)] += 1
        else:
            report.failures.append(Mismatch(case, _show(a), _show(b)))
    return report


# ---------------------------------------------------------------------------------------------- inputs


def sample_cases(source: Source, *, n: int, seed: int = 0) -> Iterator[Case]:
    """``n`` cases for ``source``, cycling through the kinds (plain, negative, duplicates ...)."""
    rng = np.random.default_rng(seed)
    for j in range(n):
        kind = KINDS[j % len(KINDS)]
        if source.sample is not None:
            args = source.sample(rng, kind)
            canon = None
        else:
            canon, args = _canonical_case(source, rng, kind)
        yield Case(kind, args, _features(source, args, canon, kind))


def _nonfinite(x: Any) -> bool:
    a = np.asarray(x) if x is not None else None
    return a is not None and a.dtype.kind in "fc" and a.size > 0 and not bool(np.isfinite(a).all())


def _features(source: Source, args: dict[str, Any], canon: dict[str, Any] | None, kind: str) -> frozenset[str]:
    if canon is None:
        return frozenset({kind})
    i, sizes, data, u = canon["indices"], canon["sizes"], canon["data"], canon.get("updates")
    arrays = [x for x in (data, i, u) if x is not None]
    holds = {
        "negative": i.size and (i < 0).any(),
        "out_of_range": i.size and ((i >= sizes) | (i < -sizes)).any(),
        "duplicates": canon.get("duplicates"),
        "float_index": i.dtype.kind == "f" and i.size and (np.trunc(i) != i).any(),
        "empty": any(np.asarray(x).size == 0 for x in arrays),
        "dtype": data.dtype.name not in ("float32", "float64", *_INDEX) or i.dtype.name not in _INDEX,
        "nonfinite": _nonfinite(data) or _nonfinite(u),
        "scalar": any(np.ndim(x) == 0 for x in arrays) or (canon.get("k") and i.ndim <= 1),
    }
    return frozenset(f for f, h in holds.items() if h)


def _shape(rng: np.random.Generator, rank: int, empty: bool) -> list[int]:
    shape = [int(rng.integers(1, 4)) for _ in range(rank)]
    if empty and rank:
        shape[int(rng.integers(rank))] = 0
    return shape


def _values(rng: np.random.Generator, size: int | Array, shape: tuple[int, ...], kind: str) -> Array:
    s = np.asarray(size, dtype=np.int64)
    s = np.broadcast_to(s, shape) if s.ndim else np.full(shape, int(s), np.int64)
    hi = np.maximum(s, 1)
    if kind == "negative":
        v = rng.integers(-hi, hi)
    elif kind == "duplicates":
        v = rng.integers(0, np.minimum(hi, 2))
    else:
        v = rng.integers(0, hi)
    if kind == "out_of_range" and v.size:  # one index just past either end, or huge
        k = int(rng.integers(v.size))
        n = int(s.reshape(-1)[k])
        v.reshape(-1)[k] = [n, n + 2, -n - 1, 2**40][int(rng.integers(4))]
    return np.where(s == 0, rng.integers(-1, 2, size=shape), v).astype(np.int64)


def _data(rng: np.random.Generator, shape: list[int], c: Canonical, layout: dict[str, Any] | None = None) -> Array:
    dtypes = list((layout or {}).get("data_dtypes", ("float64", "float32", "int64", "int32")))
    dt = str(rng.choice(dtypes))
    if c.reduction == "mul" and "float64" in dtypes:
        dt = "float64"
    if c.reduction == "mean" and rng.random() < 0.5 and "int64" in dtypes:
        dt = "int64"
    vals = rng.integers(-9, 10, size=shape)
    kind = np.dtype(dt).kind
    if kind == "b":
        return (vals > 0).astype(dt)
    if kind == "u":
        return np.abs(vals).astype(dt)
    return vals.astype(dt) if kind in "iu" else (vals + rng.random(shape)).astype(dt)


def _sprinkle(rng: np.random.Generator, x: Array | None, p: float) -> Array | None:
    """Put NaN / +-inf into a float array with probability ``p``."""
    if x is None or x.dtype.kind not in "fc" or x.size == 0 or rng.random() >= p:
        return x
    x = x.copy()
    flat = x.reshape(-1)
    for _ in range(int(rng.integers(1, 3))):
        flat[int(rng.integers(flat.size))] = [np.nan, np.inf, -np.inf][int(rng.integers(3))]
    return x


def _nextra(rng: np.random.Generator, layout: dict[str, Any], kind: str, scalar_ok: bool, nd: bool = False) -> int:
    """How many index dims (besides batch dims and the tuple axis) a case gets; 0 in scalar cases when allowed."""
    lo, hi = layout.get("index_ndim", (1, 2))
    if kind == "scalar" and scalar_ok and lo == 0:
        return 0
    if kind == "scalar" and scalar_ok and "index_ndim" not in layout:
        return int(rng.integers(0, 3)) if nd else 0
    return int(rng.integers(max(lo, min(1, hi)), hi + 1))


def _canonical_case(source: Source, rng: np.random.Generator, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Canonical arrays for ``source.canonical``'s family, then mapped to the source's arguments."""
    c = source.canonical
    L = source.layout
    empty = kind == "empty"
    fam = c.family
    nd = fam in ("gather_nd", "scatter_nd")
    ax = c.axis if c.axis is not None else 0
    b = c.batch_dims
    kfix = L.get("k")
    need = max(ax + 1 if ax >= 0 else -ax, b + 1, b + int(kfix) if nd and kfix is not None else 1)
    fixed = L.get("data_shape")
    lo, hi = L.get("rank", (need, need + 1))
    rank = len(fixed) if fixed is not None else int(rng.integers(max(lo, need), max(hi, lo, need) + 1))
    dshape = _shape(rng, rank, empty)
    if fixed is not None:
        dshape = [n if f is None else int(f) for n, f in zip(dshape, fixed, strict=True)]
    a = ax % rank if rank else 0
    updates, dup, k = None, False, 0
    if fam == "gather":
        extra = _shape(rng, _nextra(rng, L, kind, b == 0), empty and rng.random() < 0.3)
        ishape = dshape[:b] + extra
        idx = _values(rng, dshape[a], tuple(ishape), kind)
        sizes: Any = np.int64(dshape[a])
    elif fam in ("gather_elements", "scatter_elements"):
        scatter = fam == "scatter_elements"
        ishape = [int(rng.integers(1, n + 1)) if n else 0 for n in dshape]
        if L.get("full_index") or (scatter and not empty and not L.get("smaller_index")):
            ishape = list(dshape)
        ishape[a] = int(L["axis_len"]) if "axis_len" in L else int(rng.integers(0 if empty else 1, 4))
        if L.get("index_fits") and dshape[a]:
            ishape[a] = min(ishape[a], dshape[a])
        if c.broadcast:
            for j in range(rank):
                if j == a:
                    continue
                r = rng.random()
                if r < 0.3:
                    ishape[j] = 1
                elif r < 0.45 and not scatter and fixed is None and dshape[j]:
                    dshape[j], ishape[j] = 1, int(rng.integers(1, 4))
        idx = _values(rng, dshape[a], tuple(ishape), kind)
        sizes = np.int64(dshape[a])
        if scatter:
            updates = _data(rng, ishape, c, L).astype(np.float64)
            coords = np.indices(idx.shape).reshape(idx.ndim, -1)
            coords[a] = np.where(idx.reshape(-1) < 0, idx.reshape(-1) + dshape[a], idx.reshape(-1))
            if c.broadcast:
                coords = coords[[j for j in range(rank) if j == a or ishape[j] == dshape[j]]]
            dup = len({tuple(t) for t in coords.T}) < coords.shape[1]
    else:  # gather_nd / scatter_nd
        k = int(kfix) if kfix is not None else int(rng.integers(1, rank - b + 1))
        extra = _shape(rng, _nextra(rng, L, kind, True, nd=True), empty and rng.random() < 0.5)
        ishape = dshape[:b] + extra + [k]
        sizes = np.asarray(dshape[b : b + k], np.int64)
        idx = _values(rng, sizes, tuple(ishape), kind)
        if fam == "scatter_nd":
            updates = _data(rng, dshape[:b] + extra + dshape[b + k :], c, L)
            rows = np.where(idx < 0, idx + sizes, idx).reshape(-1, k)
            if b:
                rows = np.concatenate([np.indices(ishape[:-1]).reshape(len(ishape) - 1, -1)[:b].T, rows], axis=1)
            dup = len({tuple(t) for t in rows}) < rows.shape[0]
    data = _data(rng, dshape, c, L)
    if updates is not None:
        updates = updates.astype(data.dtype)
    p = float(L.get("nonfinite", 0.0))
    if p:
        data = _sprinkle(rng, data, p)  # type: ignore[assignment]
        updates = _sprinkle(rng, updates, p)
    allowed = L.get("index_dtypes")
    if c.index_dtype == "float":
        idx = idx.astype(np.float32)
    elif allowed:
        idx = _narrow(idx, str(rng.choice(list(allowed))))
    elif rng.random() < 0.25:
        idx = _narrow(idx, "int32")
    if idx.dtype.kind == "f" and idx.size and rng.random() < float(L.get("fractional", 0.0)):
        idx = (idx + rng.uniform(-0.95, 0.95, size=idx.shape)).astype(idx.dtype)
    canon = {"data": data, "indices": idx, "updates": updates, "sizes": sizes, "duplicates": dup, "k": k,
             "axis": a}
    mapper = L.get("to_source")
    if mapper is not None:
        return canon, mapper(canon, rng)
    return canon, _to_source(source, data, idx, _source_updates(rng, L, updates, idx))


def _narrow(idx: Array, dtype: str) -> Array:
    """``idx.astype(dtype)``, a huge out-of-range index saturating at the dtype's max (2**40 as int32 would wrap
    to 0: a valid index, and maybe a duplicate the features computed before the cast do not show)."""
    dt = np.dtype(dtype)
    if dt.kind in "iu" and idx.size:
        idx = np.minimum(idx, np.iinfo(dt).max)
    return idx.astype(dt)


def _source_updates(rng: np.random.Generator, layout: dict[str, Any], u: Array | None, idx: Array) -> Array | None:
    """The updates as the source receives them: larger (torch) or broadcastable (``updates_broadcast``)."""
    if u is None:
        return None
    if layout.get("larger_updates") and u.ndim and rng.random() < 0.4:
        pad = [(0, int(rng.integers(0, 2))) for _ in range(u.ndim)]
        u = np.pad(u, pad, constant_values=7).astype(u.dtype)
    return broadcastable(rng, u, float(layout.get("updates_broadcast", 0.0)))


def _to_source(source: Source, data: Array, idx: Array, updates: Array | None) -> dict[str, Any]:
    if source.layout.get("index_axis") == 0 and idx.ndim > 1:
        idx = np.moveaxis(idx, -1, 0).copy()
    values = {"data": data, "indices": idx, "updates": updates}
    free = iter([r for r in values if r not in source.roles])  # the roles of the inputs no role names, in order
    args: dict[str, Any] = {}
    for name in source.inputs:
        role = next((r for r, p in source.roles.items() if p == name), None) or next(free)
        args[name] = tuple(data.shape) if role == "data" and name == "shape" else values[role]
    return args
