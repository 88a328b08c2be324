"""The public translation API: ``gs.translate`` and the ``Translation`` it returns (DESIGN.md)."""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.translate import ADAPTERS, Step, VerifyReport, frameworks

TARGETS = ("caffe2", "gatherscatter", "jax", "lax", "mxnet", "numpy", "onnx", "openvino", "paddle", "tensorflow", "torch")
PYTHON_TARGETS = ("jax", "lax", "numpy", "paddle", "tensorflow", "torch")


def test_translate_and_translation_are_exported():
    assert "translate" in gs.__all__ and "Translation" in gs.__all__
    t = gs.translate("mxnet.gather_nd", to="onnx")
    assert isinstance(t, gs.Translation)


def test_op_by_name_or_by_function_object():
    a = gs.translate("torch.scatter_reduce", to="onnx", dim=1, reduce="amax", include_self=False)
    b = gs.translate(gs.torch.scatter_reduce, to="onnx", dim=1, reduce="amax", include_self=False)
    assert a.steps == b.steps
    assert a.divergences == b.divergences
    assert a.source.op == b.source.op == "torch.scatter_reduce"


def test_every_target_framework_has_a_planner():
    assert set(TARGETS) <= set(frameworks())


def test_unknown_target_lists_the_targets():
    with pytest.raises(gs.UnsupportedError) as e:
        gs.translate("torch.gather", to="tfjs", dim=0)
    msg = str(e.value)
    assert "'tfjs'" in msg
    for fw in TARGETS:
        assert fw in msg


def test_unknown_op_is_refused():
    with pytest.raises(gs.UnsupportedError, match=r"torch\.gathr"):
        gs.translate("torch.gathr", to="onnx", dim=0)


@pytest.mark.parametrize(
    ("op", "attrs", "fragment"),
    [
        ("torch.gather", {"dim": 0, "colour": 1}, "unknown attribute 'colour'; its attributes are: dim"),
        ("torch.gather", {"axis": 0}, "unknown attribute 'axis'"),
        ("torch.gather", {}, "attribute 'dim' is required"),
        ("mxnet.gather_nd", {"batch_dims": 1}, "unknown attribute 'batch_dims'; its attributes are: none"),
        ("torch.scatter_reduce", {"dim": 0}, "attribute 'reduce' is required"),
    ],
)
def test_bad_attributes_raise_argument_error_naming_them(op, attrs, fragment):
    with pytest.raises(gs.ArgumentError, match="translate " + op.replace(".", r"\.")) as e:
        gs.translate(op, to="onnx", **attrs)
    assert fragment in str(e.value)
    assert isinstance(e.value, gs.GatherScatterError)


def test_version_selects_the_onnx_opset():
    t16 = gs.translate("torch.scatter_add", to="onnx", version=16, dim=0)
    assert t16.version == 16
    assert {s.attr_map["opset"] for s in t16.steps if s.kind == "op"} == {16}
    assert t16.exact is not False or t16.divergences
    t11 = gs.translate("torch.scatter_add", to="onnx", version=11, dim=0)
    assert not t11.exact  # opset 11 ScatterElements cannot add: the closest translation, which says so
    assert any("opset 16" in d for d in t11.divergences)
    with pytest.raises(gs.UnsupportedError, match="opset >= 11"):
        gs.translate("torch.scatter_add", to="onnx", version=10, dim=0)


def test_steps_ops_and_plan_text():
    t = gs.translate("tensorflow.scatter_nd", to="onnx")
    assert all(isinstance(s, Step) for s in t.steps)
    assert [s.kind for s in t.steps] == ["adapter" if s.name in ADAPTERS else "op" for s in t.steps]
    assert t.ops == ["onnx.ScatterND"]
    scatter = t.steps[-1]
    assert scatter.attr_map["reduction"] == "add"  # docs/semantics.md#e5: zeros + add, not a plain ScatterND
    assert all(s.why for s in t.steps if s.kind == "adapter")
    text = t.plan_text()
    assert text == str(t)
    assert text.startswith("tensorflow.scatter_nd(indices, updates, shape")
    assert "meaning:" in text and "steps:" in text and "divergences" in text
    for s in t.steps:
        assert s.describe() in text


def test_divergences_are_sentences_and_residuals_are_structured():
    t = gs.translate("torch.gather", to="onnx", dim=1)
    assert t.divergences == [str(r) for r in t.residuals]
    neg = [r for r in t.residuals if r.when == "negative"]
    assert neg and "raises" in neg[0].source and "wraps" in neg[0].target
    assert t.exact  # a negative index is an error in torch: exact on every input torch accepts
    exact = gs.translate("onnx.GatherND", to="onnx", batch_dims=0)
    assert exact.exact


def test_run_and_run_source():
    t = gs.translate("mxnet.gather_nd", to="onnx")
    data, idx = np.array([[0, 1], [2, 3]]), np.array([[1, 1, 0], [0, 1, 0]])
    assert t.run(data=data, indices=idx).tolist() == [2, 3, 0]
    assert t.run_source(data=data, indices=idx).tolist() == [2, 3, 0]
    with pytest.raises(gs.ArgumentError, match="takes data, indices"):
        t.run(data=data, index=idx)


def test_verify_report_fields():
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean", include_self=False)
    r = t.verify(n=60)
    assert isinstance(r, VerifyReport)
    assert r.total == 60 and r.ok and not r.failures
    assert r.agree + r.source_rejects + sum(r.explained.values()) == r.total
    assert 0 < r.both_raise <= r.agree
    assert set(r.kinds) >= {"plain", "negative", "duplicates", "out_of_range", "empty", "scalar"}
    assert str(r).startswith("60 cases: ")
    assert t.verify_source(n=30).ok


def test_verify_catches_a_wrong_program():
    """verify must be able to fail: the naive ONNX Gather for torch.gather is caught."""
    t = gs.translate("torch.gather", to="onnx", dim=0)
    wrong = [Step.op("onnx.Gather", t.program.output, {"data": "input", "indices": "index"}, axis=0)]
    t.program.steps[:] = wrong
    r = t.verify(n=30)
    assert not r.ok and r.failures
    assert "source:" in str(r.failures[0]) and "translation:" in str(r.failures[0])


def test_code_is_a_string_per_target():
    onnx = pytest.importorskip("onnx")
    t = gs.translate("torch.gather", to="onnx", dim=1)
    assert "helper.make_node('GatherElements'" in t.code
    m = t.onnx_model
    assert isinstance(m, onnx.ModelProto)
    for target in (*PYTHON_TARGETS, "openvino"):
        code = gs.translate("torch.gather", to=target, dim=1).code
        compile(code, f"<{target}>", "exec")
        assert "def translated(input, index):" in code
    ov = gs.translate("torch.gather", to="openvino", dim=1).code
    assert "import openvino.opset15 as ops" in ov and "ops.gather_elements(" in ov


def test_onnx_model_needs_the_onnx_target():
    t = gs.translate("torch.gather", to="numpy", dim=1)
    with pytest.raises(gs.UnsupportedError):
        t.onnx_model  # noqa: B018 - the property raises
