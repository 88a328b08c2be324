"""Running generated code on a real framework and judging it against the SOURCE op.

``check_code(t, to, back, n)`` executes ``t.code`` (the translation's source code for
its target framework), calls ``translated(**args)`` on generated cases (negative,
duplicate, out-of-range, empty, 0-d) converted to the framework's tensors, and
compares the result with the source op (our dialect, verified against its own real
framework) value for value, dtype and shape. A difference is accepted only where the
translation lists a residual divergence whose condition holds for the case (as
``Translation.verify`` does), or where the source op rejects the call statically.
Expected values never come from the code under test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gatherscatter.errors import DuplicateIndexError, GatherScatterError, IndexOutOfRangeError
from gatherscatter.translate import Translation
from gatherscatter.translate.codegen import compile_function
from gatherscatter.translate.verify import Case, sample_cases

# fmt: off
#: the neutral API with its policy grid (one call per family and policy combination)
NEUTRAL: list[tuple[str, dict[str, Any]]] = (
    [("gatherscatter.take", dict(axis=1, negative=n, bounds=b, **({"fill_value": -1} if b == "fill" else {})))
     for n, b in (("wrap", "raise"), ("raise", "raise"), ("bounds", "clip"), ("wrap", "wrap"), ("wrap", "fill"))]
    + [("gatherscatter.take", dict(axis=2, batch_dims=1)), ("gatherscatter.take", dict(axis=1, batch_dims=1,
                                                                                      bounds="fill"))]
    + [("gatherscatter.take_along_axis", dict(axis=1, negative=n, bounds=b))
       for n, b in (("wrap", "raise"), ("raise", "raise"), ("bounds", "clip"), ("wrap", "wrap"), ("wrap", "fill"))]
    + [("gatherscatter.take_along_axis", dict(axis=0, broadcast=True))]
    + [("gatherscatter.gather_nd", dict(negative=n, bounds=b))
       for n, b in (("wrap", "raise"), ("raise", "raise"), ("bounds", "clip"), ("wrap", "wrap"), ("wrap", "fill"))]
    + [("gatherscatter.gather_nd", dict(batch_dims=1)), ("gatherscatter.gather_nd", dict(index_axis=0))]
    + [("gatherscatter.scatter_along_axis", dict(axis=1, reduction=r, include_self=s))
       for r in ("none", "add", "sub", "mul", "max", "min", "mean") for s in ((True, False) if r != "none" else (True,))]
    + [("gatherscatter.scatter_along_axis", dict(axis=0, negative=n, bounds=b, reduction=r))
       for n, b, r in (("raise", "raise", "none"), ("bounds", "clip", "add"), ("wrap", "wrap", "max"),
                       ("wrap", "drop", "add"), ("wrap", "drop", "none"))]
    + [("gatherscatter.scatter_along_axis", dict(axis=0, broadcast=True, reduction="add")),
       ("gatherscatter.scatter_along_axis", dict(axis=1, reduction="mean", mean_rounding="trunc")),
       ("gatherscatter.scatter_along_axis", dict(axis=0, duplicates="first"))]
    + [("gatherscatter.scatter_nd", dict(reduction=r, include_self=s))
       for r in ("none", "add", "sub", "mul", "max", "min", "mean") for s in ((True, False) if r != "none" else (True,))]
    + [("gatherscatter.scatter_nd", dict(batch_dims=1, reduction=r)) for r in ("none", "add", "mean")]
    + [("gatherscatter.scatter_nd", dict(negative=n, bounds=b, reduction=r))
       for n, b, r in (("raise", "raise", "none"), ("bounds", "clip", "mul"), ("wrap", "wrap", "min"),
                       ("wrap", "drop", "sub"))]
)

#: framework source ops: the name-alike pitfalls, layouts, zero starts and reductions
FRAMEWORK: list[tuple[str, dict[str, Any]]] = [
    ("onnx.Gather", {"axis": 1}), ("onnx.GatherElements", {"axis": 0}), ("onnx.GatherND", {"batch_dims": 1}),
    ("onnx.ScatterElements", {"axis": 1, "reduction": "mul"}), ("onnx.ScatterND", {}),
    ("onnx.ScatterND", {"reduction": "max"}),
    ("torch.gather", {"dim": 1}), ("torch.take", {}), ("torch.index_select", {"dim": 0}),
    ("torch.take_along_dim", {"dim": 1}), ("torch.scatter_add", {"dim": 0}),
    ("torch.scatter_reduce", {"dim": 0, "reduce": "mean", "include_self": False}),
    ("torch.scatter_reduce", {"dim": 1, "reduce": "amax"}), ("torch.index_put", {"accumulate": True}),
    ("torch.index_add", {"dim": 1, "alpha": 2}),
    ("tensorflow.gather", {"axis": 1, "batch_dims": 1}), ("tensorflow.gather_nd", {"batch_dims": 1}),
    ("tensorflow.scatter_nd", {}), ("tensorflow.tensor_scatter_nd_sub", {}),
    ("mxnet.take", {"axis": 0}), ("mxnet.gather_nd", {}), ("mxnet.pick", {"axis": 1}), ("mxnet.scatter_nd", {}),
    ("jax.take", {"axis": 0, "mode": "fill", "fill_value": -1}), ("jax.take_along_axis", {"axis": 1}),
    ("jax.at_add", {}), ("jax.at_set", {"mode": "clip"}),
    ("numpy.take", {"axis": 1, "mode": "clip"}), ("numpy.put_along_axis", {"axis": 1}), ("numpy.add_at", {}),
    ("paddle.gather", {"axis": 0}), ("paddle.scatter", {"overwrite": False}),
    ("paddle.put_along_axis", {"axis": 1, "reduce": "mean"}),
    ("openvino.Gather", {"axis": 1, "batch_dims": 1}), ("openvino.ScatterNDUpdate", {"reduction": "sub"}),
    ("openvino.ScatterElementsUpdate", {"axis": 0, "reduction": "mean", "use_init_val": False}),
    ("caffe2.Gather", {"axis": 1}),
]
# fmt: on

REPRESENTATIVE = NEUTRAL + FRAMEWORK


def call_id(op: str, attrs: dict[str, Any]) -> str:
    return op + "(" + ",".join(f"{k}={v}" for k, v in attrs.items()) + ")"


@dataclass
class CodeReport:
    """Counts of one run of generated code on a real framework."""

    total: int = 0
    agree: int = 0
    both_raise: int = 0
    source_rejects: int = 0
    skipped: int = 0
    explained: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, other: CodeReport) -> None:
        self.total += other.total
        self.agree += other.agree
        self.both_raise += other.both_raise
        self.source_rejects += other.source_rejects
        self.skipped += other.skipped
        self.explained.update(other.explained)
        self.failures += other.failures

    def __str__(self) -> str:
        lines = [f"{self.total} cases: {self.agree} agree with the source, {self.both_raise} both raise, "
                 f"{self.source_rejects} rejected by the source's static rules, "
                 f"{sum(self.explained.values())} differ as a listed divergence says, {self.skipped} skipped, "
                 f"{len(self.failures)} failures"]
        lines += [f"  FAIL {f}" for f in self.failures[:5]]
        return "\n".join(lines)


def same(x: Any, y: Any, ulp: int = 0) -> bool:
    """Equal dtype, shape and values (NaN equals NaN); floats within ``ulp`` units in the last place if asked."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if ulp and x.dtype.kind == "f":
        close = np.abs(x - y) <= ulp * np.spacing(np.maximum(np.abs(x), np.abs(y)))
        return bool(np.all(close | (x == y) | (np.isnan(x) & np.isnan(y))))
    return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))


def _show(v: Any) -> str:
    if isinstance(v, BaseException):
        return f"{type(v).__name__}: {str(v)[:200]}"
    a = np.asarray(v)
    return f"{a.dtype}{list(a.shape)} {np.array2string(a, threshold=12)}"


def convert(args: dict[str, Any], to: Callable[[np.ndarray], Any]) -> dict[str, Any]:
    """The case's arguments as framework tensors (tuples of arrays stay tuples; shape tuples stay ints)."""

    def one(v: Any) -> Any:
        if isinstance(v, (np.ndarray, np.generic)):
            return to(np.asarray(v))
        if isinstance(v, tuple) and v and all(isinstance(x, (np.ndarray, np.generic)) for x in v):
            return tuple(to(np.asarray(x)) for x in v)
        return v

    return {k: one(v) for k, v in args.items()}


def check_code(
    t: Translation,
    to: Callable[[np.ndarray], Any],
    back: Callable[[Any], np.ndarray],
    *,
    n: int,
    seed: int = 1,
    keep: Callable[[Case, Any], bool] | None = None,
    run: Callable[[Translation, Case], Any] | None = None,
    ulp: int = 0,
) -> CodeReport:
    """Execute ``t.code`` on ``n`` generated cases; ``keep(case, model_outcome)`` filters cases a framework
    cannot be given (ones that crash it); ``run`` replaces the default executor."""
    fn = compile_function(t.code) if run is None else None
    report = CodeReport()
    for case in sample_cases(t.source, n=n, seed=seed):
        a = _outcome(lambda: t.run_source(**case.args))  # noqa: B023 - called at once
        b = _outcome(lambda: t.run(**case.args))  # noqa: B023
        if b[0] == "crash" or (keep is not None and not keep(case, b)):
            report.skipped += 1
            continue
        report.total += 1
        try:
            out = run(t, case) if run is not None else fn(**convert(case.args, to))  # type: ignore[misc]
            r: tuple[str, Any] = ("ok", back(out))
        except Exception as e:  # the real framework's own error
            r = ("error", e)
        judge(report, t, case, a, r, ulp)
    return report


def judge(report: CodeReport, t: Translation, case: Case, a: tuple[str, Any], r: tuple[str, Any],
          ulp: int = 0) -> None:
    """Classify one case: real result ``r`` against the source outcome ``a``."""
    if a[0] == "ok" and r[0] == "ok" and same(a[1], r[1], ulp):
        report.agree += 1
        return
    if a[0] == "error" and r[0] == "error":
        report.both_raise += 1
        return
    if a[0] == "error" and not isinstance(a[1], (IndexOutOfRangeError, DuplicateIndexError)):
        report.source_rejects += 1
        return
    why = next((x for x in t.residuals if x.when == "always" or x.when in case.features), None)
    if why is not None and a[0] != "crash":
        report.explained[str(why)] += 1
        return
    report.failures.append(f"{t.source.op}{t.source.attrs} -> {t.target} [{case.kind}] {case.reproducer()[:300]}\n"
                           f"    source: {_show(a[1])}\n    real:   {_show(r[1])}")


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", np.asarray(fn())
    except GatherScatterError as e:
        return "error", e
    except Exception as e:
        return "crash", e


def translations(target: str, calls: Iterable[tuple[str, dict[str, Any]]]) -> list[Translation]:
    """The translations of ``calls`` into ``target`` that exist (caffe2 has no scatters)."""
    from gatherscatter.errors import UnsupportedError
    from gatherscatter.translate import translate

    out = []
    for op, attrs in calls:
        try:
            out.append(translate(op, to=target, **attrs))
        except UnsupportedError:
            continue
    return out


DIALECT_ONLY = frozenset({"opset", "version", "device", "duplicates", "bad_indices_policy"})


def call_keywords(code: str) -> set[str]:
    """The keyword argument names of every call in ``code``."""
    import ast

    return {k.arg for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Call) for k in node.keywords
            if k.arg}


def dotted_names(code: str, root: str) -> set[str]:
    """Every dotted name ``root.a.b`` used in ``code`` (the framework functions it calls)."""
    import ast

    out = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Attribute):
            parts = []
            cur: Any = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name) and cur.id == root:
                out.add(".".join([root, *reversed(parts)]))
    return out


def check_real_api(code: str, root: str, module: Any) -> None:
    """Every ``root.x.y`` in ``code`` exists in ``module`` and no dialect-only keyword is passed."""
    assert not call_keywords(code) & DIALECT_ONLY, code
    for name in dotted_names(code, root):
        obj = module
        for part in name.split(".")[1:]:
            assert hasattr(obj, part), f"{name} is not in {module.__name__}\n{code}"
            obj = getattr(obj, part)
