"""Proof by running both sides: generated inputs, edge cases included.

:func:`sample_cases` draws inputs for a source op from its canonical family
(shapes that respect the fixed attributes, indices that are in range,
negative, duplicated, out of range, empty or 0-d), maps them to the source
op's own argument layout, and :func:`verify` runs the source op and the
translated program on each, classifying every disagreement as explained by a
residual divergence (its condition holds for that input) or as a failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import DuplicateIndexError, GatherScatterError, IndexOutOfRangeError
from .ir import Program
from .model import Canonical, Residual, Source

__all__ = ["Case", "Mismatch", "VerifyReport", "compare", "sample_cases", "verify"]

Array = np.ndarray[Any, Any]
KINDS = ("plain", "negative", "duplicates", "out_of_range", "empty", "scalar")


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
    if a[0] == "error" and b[0] == "error":
        return True
    if a[0] != "ok" or b[0] != "ok":
        return False
    x, y = a[1], b[1]
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind in "fc":
        return bool(np.array_equal(x, y, equal_nan=True))
    return bool(np.array_equal(x, y))


def _show(o: tuple[str, Any]) -> str:
    if o[0] == "ok":
        v = o[1]
        return f"{v.dtype}{list(v.shape)} {np.array2string(v, threshold=20)}"
    return f"{type(o[1]).__name__}: {str(o[1])[:160]}"


def verify(
    run_source: Callable[..., Any],
    program: Program,
    source: Source,
    residuals: list[Residual],
    *,
    n: int = 200,
    seed: int = 0,
) -> VerifyReport:
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
        why = next((r for r in residuals if r.when == "always" or r.when in case.features), None)
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


def _features(source: Source, args: dict[str, Any], canon: dict[str, Any] | None, kind: str) -> frozenset[str]:
    feats = set()
    if canon is not None:
        i, sizes = canon["indices"], canon["sizes"]
        if i.size:
            if (i < 0).any():
                feats.add("negative")
            if ((i >= sizes) | (i < -sizes)).any():
                feats.add("out_of_range")
        if canon.get("duplicates"):
            feats.add("duplicates")
        if i.dtype.kind == "f":
            feats.add("float_index")
        if any(np.asarray(v).size == 0 for v in (canon["data"], i, canon.get("updates", np.ones(1)))):
            feats.add("empty")
        if canon["data"].dtype.name not in ("float32", "float64", "int32", "int64"):
            feats.add("dtype")
    else:
        feats.add(kind)
    return frozenset(feats)


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
    elif kind == "out_of_range":
        v = rng.integers(0, hi)
        if v.size:
            flat = v.reshape(-1)
            k = int(rng.integers(flat.size))
            pick = int(rng.integers(4))
            big = [int(s.reshape(-1)[k]), int(s.reshape(-1)[k]) + 2, -int(s.reshape(-1)[k]) - 1, 2**40][pick]
            flat[k] = big
    else:
        v = rng.integers(0, hi)
    return np.where(s == 0, rng.integers(-1, 2, size=shape), v).astype(np.int64)


def _data(rng: np.random.Generator, shape: list[int], c: Canonical) -> Array:
    dt = rng.choice(["float64", "float32", "int64", "int32"]) if c.reduction != "mul" else "float64"
    if c.reduction == "mean" and rng.random() < 0.5:
        dt = "int64"
    vals = rng.integers(-9, 10, size=shape)
    return vals.astype(dt) if dt.startswith("int") else (vals + rng.random(shape)).astype(dt)


def _canonical_case(source: Source, rng: np.random.Generator, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Canonical arrays for ``source.canonical``'s family, then mapped to the source's arguments."""
    c = source.canonical
    empty = kind == "empty"
    fam = c.family
    ax = c.axis if c.axis is not None else 0
    b = c.batch_dims
    need = max(ax + 1 if ax >= 0 else -ax, b + 1, 1)
    rank = need + int(rng.integers(0, 2))
    dshape = _shape(rng, rank, empty)
    a = ax % rank
    updates = None
    dup = False
    if fam == "gather":
        extra = [] if kind == "scalar" and b == 0 else _shape(rng, int(rng.integers(1, 3)), False)
        ishape = dshape[:b] + extra
        idx = _values(rng, dshape[a], tuple(ishape), kind)
        sizes = np.int64(dshape[a])
    elif fam == "gather_elements" or fam == "scatter_elements":
        ishape = [int(rng.integers(1, n + 1)) if n else 0 for n in dshape]
        ishape[a] = int(rng.integers(0 if empty else 1, 4))
        if fam == "scatter_elements" and not empty:
            ishape = [n if j != a else ishape[a] for j, n in enumerate(dshape)]
        idx = _values(rng, dshape[a], tuple(ishape), kind)
        sizes = np.int64(dshape[a])
        if fam == "scatter_elements":
            updates = _data(rng, ishape, c).astype(np.float64)
            coords = np.indices(idx.shape).reshape(idx.ndim, -1)
            coords[a] = np.where(idx.reshape(-1) < 0, idx.reshape(-1) + dshape[a], idx.reshape(-1))
            dup = len({tuple(t) for t in coords.T}) < coords.shape[1]
    else:  # gather_nd / scatter_nd
        k = int(rng.integers(1, rank - b + 1))
        extra = _shape(rng, int(rng.integers(0 if kind == "scalar" else 1, 3)), empty and rng.random() < 0.5)
        ishape = dshape[:b] + extra + [k]
        sizes = np.asarray(dshape[b : b + k], np.int64)
        idx = _values(rng, sizes, tuple(ishape), kind)
        if fam == "scatter_nd":
            updates = _data(rng, dshape[:b] + extra + dshape[b + k :], c)
            rows = np.where(idx < 0, idx + sizes, idx).reshape(-1, k)
            dup = len({tuple(t) for t in rows}) < rows.shape[0]
    data = _data(rng, dshape, c)
    if updates is not None:
        updates = updates.astype(data.dtype)
    allowed = source.layout.get("index_dtypes")
    if c.index_dtype == "float":
        idx = idx.astype(np.float32)
    elif allowed:
        idx = idx.astype(str(rng.choice(list(allowed))))
    elif rng.random() < 0.25:
        idx = idx.astype(np.int32)
    canon = {"data": data, "indices": idx, "updates": updates, "sizes": sizes, "duplicates": dup}
    return canon, _to_source(source, data, idx, updates)


def _to_source(source: Source, data: Array, idx: Array, updates: Array | None) -> dict[str, Any]:
    names = list(source.inputs)
    roles = dict(source.roles)
    layout = source.layout
    if layout.get("index_axis") == 0 and idx.ndim > 1:
        idx = np.moveaxis(idx, -1, 0).copy()
    values = {"data": data, "indices": idx, "updates": updates}
    args: dict[str, Any] = {}
    default = iter(["data", "indices", "updates"])
    for name in names:
        role = next((r for r, p in roles.items() if p == name), None)
        if role is None:
            role = next(default)
            while role in roles:
                role = next(default)
        if role == "data" and name == "shape":
            args[name] = tuple(data.shape)
        else:
            args[name] = values[role]
    return args
