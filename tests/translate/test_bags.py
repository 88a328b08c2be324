"""torch.segment_reduce and torch.nn.functional.embedding_bag as translation sources.

Their descriptions read the segments (bags) from the VALUES of ``lengths`` / ``offsets`` through the
``segment_ids`` adapter; here the description's own program runs on typed-in inputs against hand-computed
values, and the generated code of each target (NumPy, JAX, torch; ONNX in onnxruntime) runs on generated
cases against the source op (our dialect, itself checked against torch in tests/dialects/torch).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.translate import translate
from gatherscatter.translate.ir import Program

from .codegen_util import check_code

SOURCES: list[tuple[str, dict[str, Any]]] = [
    ("torch.segment_reduce", dict(reduce="sum")),
    ("torch.segment_reduce", dict(reduce="mean", axis=1)),
    ("torch.segment_reduce", dict(reduce="amax", initial=-1.0, form="offsets")),
    ("torch.segment_reduce", dict(reduce="prod", unsafe=True)),
    ("torch.segment_reduce", dict(reduce="min", axis=1, form="offsets")),
    ("torch.embedding_bag", dict(mode="sum")),
    ("torch.embedding_bag", dict(mode="mean", include_last_offset=True)),
    ("torch.embedding_bag", dict(mode="max", form="batch")),
    ("torch.embedding_bag", dict(mode="sum", weighted=True, include_last_offset=True, padding_idx=-1)),
]
_W = np.array([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [-7.0, 8.0]])


def _program(t: Any) -> Program:
    return Program(t.source.inputs, t.source.steps())


@pytest.mark.parametrize(
    ("op", "attrs", "args", "expected"),
    [
        # segments [1, 2], [], [3]: hand-computed
        ("torch.segment_reduce", dict(reduce="sum"), dict(data=np.array([1.0, 2.0, 3.0]), lengths=np.array([2, 0, 1])),
         [3.0, 0.0, 3.0]),
        ("torch.segment_reduce", dict(reduce="max"), dict(data=np.array([1.0, 2.0, 3.0]), lengths=np.array([2, 0, 1])),
         [2.0, -np.inf, 3.0]),
        ("torch.segment_reduce", dict(reduce="mean"), dict(data=np.array([1.0, 2.0, 3.0]), lengths=np.array([2, 0, 1])),
         [1.5, np.nan, 3.0]),
        # offsets [1, 3, 3, 4] on 5 rows: segments rows 1-2, none, row 3; rows 0 and 4 belong to no segment
        ("torch.segment_reduce", dict(reduce="sum", form="offsets"),
         dict(data=np.array([10.0, 1.0, 2.0, 4.0, 20.0]), offsets=np.array([1, 3, 3, 4])), [3.0, 0.0, 4.0]),
        # axis=1: one row of lengths per batch row
        ("torch.segment_reduce", dict(reduce="prod", axis=1, initial=2.0),
         dict(data=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), lengths=np.array([[1, 2], [3, 0]])),
         [[2.0, 12.0], [240.0, 2.0]]),
        # bags rows 0-1, none, rows 2-4 of input (the torch.embedding_bag docstring's example)
        ("torch.embedding_bag", dict(mode="sum"),
         dict(input=np.array([0, 1, 2, 3, 1]), weight=_W, offsets=np.array([0, 2, 2])),
         [[4.0, -2.0], [0.0, 0.0], [1.0, 10.0]]),
        # padding_idx=1 entries are left out and not counted: (w0), empty, (w2 + w3) / 2
        ("torch.embedding_bag", dict(mode="mean", padding_idx=1),
         dict(input=np.array([0, 1, 2, 3, 1]), weight=_W, offsets=np.array([0, 2, 2])),
         [[1.0, 2.0], [0.0, 0.0], [-1.0, 7.0]]),
        ("torch.embedding_bag", dict(mode="max", form="batch"), dict(input=np.array([[0, 1], [2, 1]]), weight=_W),
         [[3.0, 2.0], [5.0, 6.0]]),
        # the last offset ends the last bag; rows times their weights: 2 * w0, 1 * w1 + 0.5 * w2
        ("torch.embedding_bag", dict(mode="sum", weighted=True, include_last_offset=True),
         dict(input=np.array([0, 1, 2]), weight=_W, offsets=np.array([0, 1, 3]),
              per_sample_weights=np.array([2.0, 1.0, 0.5])), [[2.0, 4.0], [5.5, -1.0]]),
    ],
)
def test_hand_computed_values(op: str, attrs: dict[str, Any], args: dict[str, Any], expected: Any) -> None:
    t = translate(op, to="gatherscatter", **attrs)
    got = _program(t).run(args)
    np.testing.assert_array_equal(got, np.asarray(expected, dtype=got.dtype))
    np.testing.assert_array_equal(t.run_source(**args), got)


def test_refused_attributes_say_why() -> None:
    with pytest.raises(gs.UnsupportedError, match="negative axis"):
        translate("torch.segment_reduce", to="numpy", reduce="sum", axis=-1)
    with pytest.raises(gs.UnsupportedError, match="initial"):
        translate("torch.segment_reduce", to="numpy", reduce="mean", initial=1.0)
    with pytest.raises(gs.UnsupportedError, match="max_norm"):
        translate("torch.embedding_bag", to="numpy", max_norm=1.0)
    with pytest.raises(gs.UnsupportedError, match="mode='sum'"):
        translate("torch.embedding_bag", to="numpy", mode="max", weighted=True)


def test_two_primitives_are_planned_for_the_target() -> None:
    t = translate("torch.embedding_bag", to="onnx", mode="sum")
    assert t.ops == ["onnx.Gather", "onnx.ScatterND"]
    assert "first:   rows = gatherscatter.take(data=weight, indices=input" in t.plan_text()


def _frameworks() -> dict[str, Any]:
    def numpy() -> tuple[Any, Any]:
        return np.asarray, np.asarray

    def torch() -> tuple[Any, Any]:
        t = pytest.importorskip("torch")
        return (lambda x: t.from_numpy(np.array(x))), (lambda y: y.numpy() if hasattr(y, "numpy") else np.asarray(y))

    def jax() -> tuple[Any, Any]:
        j = pytest.importorskip("jax")
        j.config.update("jax_enable_x64", True)
        return j.numpy.asarray, np.asarray

    return {"numpy": numpy, "torch": torch, "jax": jax}


#: JAX compiles each new shape eagerly (seconds per case here): one source of each op, fewer cases
CODE_CASES = [(target, op, attrs, 24) for target in ("numpy", "torch") for op, attrs in SOURCES] + [
    ("jax", op, attrs, 6) for op, attrs in (SOURCES[0], SOURCES[5])]


@pytest.mark.parametrize(("target", "op", "attrs", "n"), CODE_CASES, ids=[f"{t}-{o}-{a}" for t, o, a, _ in CODE_CASES])
def test_generated_code_computes_the_source(target: str, op: str, attrs: dict[str, Any], n: int) -> None:
    to, back = _frameworks()[target]()
    t = translate(op, to=target, **attrs)
    report = check_code(t, to, back, n=n)
    assert not report.failures, f"{t.code}\n{report}"
    assert report.agree >= n // 2, str(report)


@pytest.mark.parametrize(("op", "attrs"), SOURCES, ids=[f"{o}-{a}" for o, a in SOURCES])
def test_exported_onnx_graph_computes_the_source(op: str, attrs: dict[str, Any]) -> None:
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from .test_onnx_export import _check_cases

    vs_source, _ = _check_cases(translate(op, to="onnx", **attrs), 24, seed=7)
    assert vs_source >= 12


#: the OpenVINO cases (its CPU plugin runs float32: the generator's prod cases are float64, left out)
OV_SOURCES = [(o, a) for o, a in SOURCES if a.get("reduce") != "prod"]


@pytest.mark.parametrize(("op", "attrs"), OV_SOURCES, ids=[f"{o}-{a}" for o, a in OV_SOURCES])
def test_generated_openvino_model_computes_the_source(op: str, attrs: dict[str, Any]) -> None:
    pytest.importorskip("openvino")
    from .test_codegen_openvino import keep, run

    t = translate(op, to="openvino", **attrs)
    ulp = 1 if t.source.canonical.reduction == "mean" else 0  # the CPU plugin's float Divide is not correctly rounded
    report = check_code(t, np.asarray, np.asarray, n=24, keep=keep, run=run, ulp=ulp)
    assert not report.failures, str(report)
    assert report.agree >= 4, str(report)
