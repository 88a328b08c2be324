"""Keras 3 (one backend per plan: ``version=``) and MLX as translation TARGETS.

Always run: plan shapes against hand-written expectations (the backends' index rules as the Keras
3.15.1 / MLX 0.32.4 dialect records state them), hand-computed results, and every representative
source call translated and verified through gatherscatter's dialects. The verification is strict:
where a target computes 64-bit data in 32 bits (MLX's float64; Keras' JAX backend; the numpy
backend's scatter values) -- a residual that holds for every input and would explain any
difference -- the cases draw the dtypes the target keeps and that residual explains nothing.

Opt-in (``pytest -m keras`` / ``-m mlx``, e.g. with ``/work/venvs/fw/bin/python``): the generated
code runs on real Keras under each backend (a subprocess per backend: ``keras_codegen_worker.py``)
and on real MLX (CPU), compared with the SOURCE op exactly (value, dtype, shape) or explained by a
listed divergence; every adapter's emitted code is also compared with the adapter's definition.
"""

from __future__ import annotations

import ast
import os
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.errors import UnsupportedError
from gatherscatter.translate import Translation, translate
from gatherscatter.translate.codegen import compile_function, function_code
from gatherscatter.translate.coverage import calls
from gatherscatter.translate.ir import ADAPTERS, Step
from gatherscatter.translate.verify import sample_cases

from .codegen_util import NEUTRAL, REPRESENTATIVE, CodeReport, _outcome, call_id, call_keywords, check_code, judge
from .ort_util import same, show

BACKENDS = ("tensorflow", "jax", "torch", "numpy")
TARGETS = [("keras", b) for b in BACKENDS] + [("mlx", None)]
WORKER = Path(__file__).with_name("keras_codegen_worker.py")
N = 12  # cases per source call (real frameworks)
CHUNK = 400  # jobs per Keras worker process
#: beyond the representative grid: the Keras and MLX ops themselves, segment reductions, embeddings (every
#: variant their records name)
EXTRA_OPS = ("keras.take", "keras.take_along_axis", "keras.scatter", "keras.scatter_update", "keras.segment_sum",
             "mlx.take", "mlx.take_along_axis", "mlx.put_along_axis", "mlx.at_add", "mlx.at_minimum",
             "tensorflow.unsorted_segment_sum", "tensorflow.unsorted_segment_max", "jax.segment_sum",
             "torch.embedding", "tensorflow.embedding_lookup")
CALLS = REPRESENTATIVE + [(op, attrs) for op, attrs in calls() if op in EXTRA_OPS]


def strict(t: Translation) -> Translation:
    """``t`` without its 64-bits-in-32 residual (when=always), over cases of the dtypes the target keeps."""
    if not any(r.when == "always" and "32 bits" in r.target for r in t.plan.residuals):
        return t
    keep = ("float32", "int32") if t.version in ("jax", "numpy") else ("float32", "int32", "int64")
    dts = tuple(d for d in t.source.layout.get("data_dtypes", keep) if d in keep) or keep
    src = replace(t.source, layout={**t.source.layout, "data_dtypes": dts})
    kept = [r for r in t.plan.residuals if r.when != "always" or "32 bits" not in r.target]
    return replace(t, source=src, plan=replace(t.plan, residuals=kept))


# ------------------------------------------------------------------------------------------- (a) plans


def _ops(op: str, to: str = "keras", version: Any = None, **attrs: Any) -> list[str]:
    return translate(op, to=to, version=version, **attrs).ops


def _steps(op: str, to: str = "keras", version: Any = None, **attrs: Any) -> list[str]:
    return [s.name for s in translate(op, to=to, version=version, **attrs).steps]


def test_keras_plans_for_one_backend_named_by_version():
    t = translate("torch.gather", to="keras", dim=1)
    assert t.ops == ["keras.take_along_axis"]
    assert [s.attr_map for s in t.steps if s.kind == "op"] == [{"axis": 1, "backend": "tensorflow"}]
    t = translate("torch.gather", to="keras", version="jax", dim=1)
    assert [s.attr_map["backend"] for s in t.steps if s.kind == "op"] == ["jax"]
    assert not t.exact and any("32 bits" in d for d in t.divergences)
    with pytest.raises(UnsupportedError, match=r"version='cntk' is not a Keras backend; expected one of jax"):
        translate("torch.gather", to="keras", version="cntk", dim=1)
    with pytest.raises(UnsupportedError, match="has no versions"):
        translate("torch.gather", to="mlx", version="jax", dim=1)


def test_keras_index_rules_per_backend():
    # numpy.take raises out of range and wraps negatives, as keras.ops.take on TF/torch/numpy: nothing to adapt
    for b in ("tensorflow", "torch", "numpy"):
        t = translate("numpy.take", to="keras", version=b, axis=0)
        assert t.ops == ["keras.take"] and set(_steps("numpy.take", version=b, axis=0)) == {"cast", "keras.take"}
        assert not any(r.when in ("negative", "out_of_range") and r.source == "raises" for r in t.plan.residuals)
    # the JAX backend reads NaN there: a residual, no adapter can raise
    t = translate("numpy.take", to="keras", version="jax", axis=0)
    assert any(r.when == "out_of_range" and r.source == "raises" and "NaN" in r.target for r in t.residuals)
    # the torch backend's take_along_axis takes every index modulo s: a wrap source is native there only
    assert "wrap_index" not in _steps("gatherscatter.take_along_axis", version="torch", axis=1, bounds="wrap")
    assert "wrap_index" in _steps("gatherscatter.take_along_axis", version="tensorflow", axis=1, bounds="wrap")
    # the JAX backend drops out-of-range scatter updates itself; the others raise, so a mask sends them aside
    assert "valid_mask" not in _steps("gatherscatter.scatter_nd", version="jax", reduction="add", bounds="drop")
    assert "valid_mask" in _steps("gatherscatter.scatter_nd", version="numpy", reduction="add", bounds="drop")
    # scatters at flat (n, 1) offsets (torch's scatter_update takes 2-D indices only): a negative component
    # would ravel past the end, so a wrapping source normalises it on every backend
    assert {"normalize_negative", "ravel_tuples"} <= set(_steps("onnx.ScatterND", version="torch"))


def test_keras_scatters_and_hand_computed_results():
    # ONNX ScatterND doc example (docs/semantics.md#s6-1) through keras.ops.scatter_update
    t = translate("onnx.ScatterND", to="keras")
    assert t.ops == ["keras.scatter_update"]
    out = t.run(data=np.arange(1, 9), indices=np.array([[4], [3], [1], [7]]), updates=np.array([9, 10, 11, 12]))
    assert out.tolist() == [1, 11, 3, 10, 9, 6, 7, 12]
    # an adding scatter: keras.ops.scatter_update(reduction='add') adds each update into the data in turn
    t = translate("torch.scatter_add", to="keras", dim=0)
    assert t.ops == ["keras.scatter_update"] and "reduction='add'" in t.code and t.exact
    assert not any(r.when == "duplicates" for r in t.residuals)  # no longer 'sums them first'
    out = t.run(input=np.array([1, 1, 1, 1]), index=np.array([1, 1, 2]), src=np.array([10, 20, 30]))
    assert out.tolist() == [1, 31, 31, 1]
    # float32: 2**24 + 1 rounds to 2**24 (ties to even) twice; summing the updates first would give 2**24 + 2
    out = t.run(input=np.array([2.0**24], np.float32), index=np.array([0, 0]), src=np.array([1, 1], np.float32))
    assert out.tolist() == [2.0**24]
    # torch.gather: index [[0, 0], [1, 0]] along dim 1 of [[1, 2], [3, 4]]
    out = translate("torch.gather", to="keras", dim=1).run(input=np.array([[1, 2], [3, 4]]),
                                                         index=np.array([[0, 0], [1, 0]]))
    assert out.tolist() == [[1, 1], [4, 3]]
    # mul/max/min: scatter_update(reduction=...), every duplicate in turn
    data, ix, upd = np.array([2, 5, 4]), np.array([[1], [1], [2]]), np.array([4, 3, 7])
    for r, want in (("mul", [2, 60, 28]), ("max", [2, 5, 7]), ("min", [2, 3, 4])):
        t = translate("onnx.ScatterND", to="keras", reduction=r)
        assert t.ops == ["keras.scatter_update"] and f"reduction='{r}'" in t.code and t.exact
        assert t.run(data=data, indices=ix, updates=upd).tolist() == want
        nan = [x for x in t.residuals if x.when == "nonfinite"]  # tf.tensor_scatter_nd_max/min ignore a NaN update
        assert len(nan) == (r != "mul") and not any(x.when == "nonfinite" for x in translate(
            "onnx.ScatterND", to="keras", version="jax", reduction=r).residuals)


def test_mlx_plans_and_hand_computed_results():
    t = translate("torch.scatter_reduce", to="mlx", dim=0, reduce="amax")
    assert t.ops == ["mlx.at_maximum"] and "ravel_tuples" in [s.name for s in t.steps]
    out = t.run(input=np.array([1, 5, 2], np.int32), index=np.array([0, 0, 2]), src=np.array([4, 3, 7], np.int32))
    assert out.tolist() == [4, 5, 7] and out.dtype == np.int32  # max(1, 4, 3), 5, max(2, 7)
    assert _ops("onnx.ScatterND", "mlx") == ["mlx.put_along_axis"]
    assert _ops("numpy.put_along_axis", "mlx", axis=1) == ["mlx.put_along_axis"]
    assert _ops("numpy.take", "mlx", axis=1) == ["mlx.take"]
    assert _ops("onnx.GatherND", "mlx") == ["mlx.take"]
    assert _ops("torch.gather", "mlx", dim=1) == ["mlx.take_along_axis"]
    t = translate("numpy.take", to="mlx", axis=0)
    assert any(r.when == "out_of_range" and "undefined" in r.target for r in t.residuals)
    assert not t.exact and any("float32" in d for d in t.divergences)  # MLX has no float64
    assert t.run(a=np.array([10, 20, 30], np.int64), indices=np.array([-1, 0])).tolist() == [30, 10]


@pytest.mark.parametrize(("to", "version"), TARGETS)
def test_generated_code_calls_the_target_api(to, version):
    for op, attrs in [("torch.gather", {"dim": 1}), ("onnx.ScatterND", {"reduction": "add"}), ("onnx.GatherND", {})]:
        code = translate(op, to=to, version=version, **attrs).code
        ast.parse(code)
        assert "backend" not in call_keywords(code)  # gs.keras's backend= is KERAS_BACKEND, not an argument
        if to == "keras":
            assert f'os.environ.setdefault("KERAS_BACKEND", "{version}")' in code and "keras.ops." in code
        else:
            assert "import mlx.core as mx" in code and "mx." in code


#: every call into MLX and Keras' default backend; the neutral policy grid into every other backend
VERIFY = [(to, v, op, a) for to, v in TARGETS for op, a in CALLS if v in (None, "tensorflow") or (op, a) in NEUTRAL]


@pytest.mark.parametrize(("to", "version", "op", "attrs"), VERIFY,
                         ids=[f"{to}-{v}-{call_id(o, a)}" for to, v, o, a in VERIFY])
def test_translation_verifies_strictly(to, version, op, attrs):
    t = translate(op, to=to, version=version, **attrs)
    report = strict(t).verify(n=12, seed=5)
    assert report.ok, f"{t}\n{report}"
    assert report.agree > 0


# --------------------------------------------------------------------------- (b) real Keras and MLX (opt-in)


def _adapter_cases() -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    from .test_emitters import _cases

    return [(name, args, attrs) for name, _, args, attrs in _cases()
            if name not in ("apply_counted", "divide_inexact", "power", "reciprocal_like")]  # composed ops' steps


def _adapter_code(to: str, version: Any, name: str, args: tuple[Any, ...], attrs: dict[str, Any]) -> str:
    from gatherscatter.translate.codegen_python import TARGETS as CODE
    from gatherscatter.translate.codegen_python import _keras_header

    target = replace(CODE[to], header=_keras_header(version)) if to == "keras" else CODE[to]
    inputs = tuple("abcdefgh"[: len(args)])
    return function_code(target, inputs, [Step.adapt(name, "out", *inputs, **attrs)], "out")


def _narrow(x: Any, version: Any) -> Any:
    """What the JAX and numpy backends make of a 64-bit result, and MLX (``version='mlx'``) of float64."""
    if version not in ("jax", "numpy", "mlx") or not isinstance(x, np.ndarray):
        return x
    narrow = {"float64": np.float32} if version == "mlx" else {"int64": np.int32, "float64": np.float32}
    return x.astype(narrow.get(x.dtype.name, x.dtype))


def _same_adapter(name: str, got: Any, expected: Any, version: Any = None) -> bool:
    """The adapter's result (64-bit results may come back narrowed where the target narrows 64-bit inputs)."""
    if isinstance(expected, tuple) and name != "shape_of":
        return len(got) == len(expected) and all(_same_adapter("", g, e, version) for g, e in zip(got, expected,
                                                                                                   strict=True))
    if name == "shape_of":
        return [int(n) for n in got] == list(expected)
    return same(got, np.asarray(expected)) or same(got, _narrow(np.asarray(expected), version))


@pytest.mark.keras
@pytest.mark.parametrize("backend", BACKENDS)
def test_generated_keras_code_matches_the_source_on_real_keras(backend):
    pytest.importorskip("keras")
    jobs: list[tuple[str, str, dict[str, Any]]] = []
    meta: list[Any] = []
    for op, attrs in CALLS if backend != "jax" else NEUTRAL:  # JAX compiles every op for every shape: fewer
        t = strict(translate(op, to="keras", version=backend, **attrs))
        code = t.code
        for case in sample_cases(t.source, n=N if backend != "jax" else 4, seed=1):
            meta.append((t, case, _outcome(lambda: t.run_source(**case.args))))  # noqa: B023
            jobs.append((code, "translated", case.args))
    adapters = _adapter_cases()
    for name, args, attrs in adapters:
        jobs.append((_adapter_code("keras", backend, name, args, attrs), "translated",
                     dict(zip("abcdefgh", args, strict=False))))
    env = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    results: list[Any] = []
    for k in range(0, len(jobs), CHUNK):  # a fresh process per chunk: bounded memory
        proc = subprocess.run([sys.executable, str(WORKER)], input=pickle.dumps(jobs[k: k + CHUNK]),
                              capture_output=True, env=env, timeout=1500, check=False)
        assert proc.returncode == 0, proc.stderr.decode()[-3000:]
        results += pickle.loads(proc.stdout)
    report = CodeReport()
    for (t, case, a), res in zip(meta, results, strict=False):
        report.total += 1
        judge(report, t, case, a, ("error", RuntimeError(res)) if isinstance(res, str) else ("ok", res))
    bad, gaps = [], set()
    for (name, args, attrs), res in zip(adapters, results[len(meta):], strict=True):
        if backend == "jax":  # 32-bit inputs (convert_to_tensor without x64); numpy: results may come back 32-bit
            args = tuple(tuple(_narrow(x, "jax") for x in a) if isinstance(a, tuple) else _narrow(a, "jax")
                         for a in args)
        expected = ADAPTERS[name].run(*args, **attrs)
        if isinstance(res, str) or not _same_adapter(name, res, expected, backend):
            got = res if isinstance(res, str) else show(res) if not isinstance(res, tuple) else repr(res)
            if name in KNOWN_ADAPTER_GAPS.get(backend, ()):
                gaps.add(name)
                continue
            bad.append(f"{name}{attrs}: keras {got}, expected {expected!r}")
    print(f"\nkeras backend={backend} codegen: {report}; adapters: {len(adapters) - len(bad)}/{len(adapters)} agree")
    assert not report.failures, str(report)
    assert not bad, "\n".join(bad[:10])
    assert gaps == set(KNOWN_ADAPTER_GAPS.get(backend, ())), gaps  # strict: a gap that closes fails here


#: adapters whose emitted Keras code differs on a backend, with the reason (the translations' own results are
#: compared above; these show only in the adapters' dtype)
KNOWN_ADAPTER_GAPS = {
    "torch": {"clip_index": "keras.ops.minimum(int64 tensor, Python int) returns int32 on the torch backend",
              "row_ids": "int64 row numbers come back int32 on the torch backend"},
}


@pytest.mark.mlx
def test_generated_mlx_code_matches_the_source_on_real_mlx():
    mx = pytest.importorskip("mlx.core")
    total = CodeReport()
    for op, attrs in CALLS:
        t = strict(translate(op, to="mlx", **attrs))
        # MLX checks no bound (out-of-range reads garbage, writes crash): only cases the dialect program accepts
        total.add(check_code(t, mx.array, np.array, n=N, keep=lambda case, model: model[0] == "ok"))
    bad = []
    adapters = _adapter_cases()
    for name, args, attrs in adapters:
        expected = ADAPTERS[name].run(*args, **attrs)
        fn = compile_function(_adapter_code("mlx", None, name, args, attrs))
        try:
            got = fn(*[tuple(mx.array(x) for x in a) if isinstance(a, tuple) else mx.array(a) for a in args])
            got = tuple(np.array(g) for g in got) if isinstance(got, (tuple, list)) and name != "shape_of" else \
                got if name == "shape_of" else np.array(got)
        except Exception as e:  # reported below
            got = f"error: {type(e).__name__}: {e}"
        if isinstance(got, str) or not _same_adapter(name, got, expected, "mlx"):
            bad.append(f"{name}{attrs}: mlx {got if isinstance(got, str) else show(got)}, expected {show(expected)}")
    print(f"\nmlx codegen: {total}; adapters: {len(adapters) - len(bad)}/{len(adapters)} agree")
    assert not total.failures, str(total)
    assert not bad, "\n".join(bad[:10])


def test_the_neutral_api_sources_cover_every_family():
    fams = {translate(op, to="mlx", **attrs).source.canonical.family for op, attrs in NEUTRAL}
    assert fams == {"gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd"}
    assert set(gs.keras.BACKENDS) == set(BACKENDS)  # every backend the dialect reproduces is a target version
