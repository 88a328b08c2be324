"""The audit: static, constant-index and sample-input findings, typed errors, exit status and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from gatherscatter.cli import main  # noqa: E402
from gatherscatter.onnxtools.audit import AuditError, audit  # noqa: E402

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def model(nodes: list[Any], inputs: list[tuple[str, int, list[Any]]], outputs: list[str], opset: int = 18,
          inits: list[Any] = ()) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(o, F, None) for o in outputs], initializer=list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def findings(report: Any, node: str | None = None) -> dict[str, tuple[str, str]]:
    return {f.condition: (f.level, f.origin) for f in report.findings if node is None or f.node == node}


def scatter_model(reduction: str = "none", opset: int = 18, idx_type: int = I64) -> onnx.ModelProto:
    node = helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], name="s", reduction=reduction)
    return model([node], [("x", F, [4]), ("i", idx_type, [3]), ("u", F, [3])], ["y"], opset)


def test_node_listing() -> None:
    r = audit(scatter_model("add"), runtimes=["onnxruntime"])
    (n,) = r.nodes
    assert (n.name, n.op, n.opset, n.op_version, n.attrs) == ("s", "ScatterElements", 18, 18, {"reduction": "add"})
    assert [(i["role"], i["dtype"], i["shape"]) for i in n.inputs] == [
        ("data", "float32", [4]), ("indices", "int64", [3]), ("updates", "float32", [3])]


@pytest.mark.parametrize(("reduction", "opset", "condition", "level"), [
    ("max", 16, "minmax_opset16", "error"),
    ("sum", 18, "unknown_reduction", "error"),
    ("none", 18, "duplicates", "warning"),
    ("max", 18, "nan_minmax", "warning"),
    ("add", 18, "out_of_range", "info"),
])
def test_static_findings(reduction: str, opset: int, condition: str, level: str) -> None:
    r = audit(scatter_model(reduction, opset), runtimes=["onnxruntime"])
    assert findings(r)[condition] == (level, "static")
    assert r.exit_status == (1 if level == "error" else 0)


def test_static_out_of_range_is_a_warning_when_a_runtime_does_not_raise() -> None:
    r = audit(scatter_model("add"), runtimes=["onnxruntime", "reference"])
    assert findings(r)["out_of_range"] == ("info", "static")  # both raise on ScatterElements
    node = helper.make_node("GatherElements", ["x", "i"], ["y"], name="g")
    m = model([node], [("x", F, [3, 3]), ("i", I64, [3, 3])], ["y"])
    assert findings(audit(m, runtimes=["reference"]))["out_of_range"] == ("warning", "static")  # it wraps


def test_index_dtype_outside_the_type_constraint() -> None:
    node = helper.make_node("GatherND", ["x", "i"], ["y"], name="g")
    m = model([node], [("x", F, [3, 3]), ("i", TensorProto.INT32, [2, 2])], ["y"])
    r = audit(m, runtimes=["onnxruntime", "reference"])
    f = next(f for f in r.findings if f.condition == "index_dtype")
    assert f.level == "error" and "indices dtype int32" in f.message
    assert f.runtimes["reference"].startswith("accepts any integer index dtype")


def test_constant_indices_are_checked_without_inputs() -> None:
    idx = numpy_helper.from_array(np.array([0, 5, -1, -7]), "i")
    node = helper.make_node("Gather", ["x", "i"], ["y"], name="g", axis=1)
    m = model([node], [("x", F, [2, 4])], ["y"], inits=[idx])
    r = audit(m, runtimes=["onnxruntime", "openvino"])
    f = {f.condition: f for f in r.findings}
    assert f["out_of_range"].level == "error" and f["out_of_range"].origin == "constant"
    assert f["out_of_range"].positions == ["indices[1] = 5 (axis size 4)", "indices[3] = -7 (axis size 4)"]
    assert f["out_of_range"].runtimes["openvino"].startswith("Gather returns zeros")
    assert f["negative"].level == "info" and f["negative"].positions == ["indices[2]"]
    assert r.exit_status == 1


def test_sample_inputs_duplicates_that_change_the_result() -> None:
    m = scatter_model("none")
    x = np.zeros(4, np.float32)
    r = audit(m, {"x": x, "i": np.array([1, 1, 2]), "u": np.array([5, 5, 7], np.float32)}, runtimes=["onnxruntime"])
    assert "duplicates" not in findings(r)  # the colliding updates are equal: no order dependence
    assert r.exit_status == 0 and r.run_by == "onnxruntime"
    r = audit(m, {"x": x, "i": np.array([1, 2, 1]), "u": np.array([5, 6, 7], np.float32)}, runtimes=["onnxruntime"])
    f = next(f for f in r.findings if f.condition == "duplicates")
    assert (f.level, f.origin, f.positions, f.count) == ("error", "inputs", ["indices[2]"], 1)
    assert r.exit_status == 1


def test_nan_under_max_in_sample_inputs() -> None:
    r = audit(scatter_model("max"), {"x": np.array([1, np.nan, 0, 0], np.float32), "i": np.array([0, 1, 2]),
                                     "u": np.array([5, 6, 7], np.float32)}, runtimes=["onnxruntime", "openvino"])
    f = next(f for f in r.findings if f.condition == "nan_minmax")
    assert f.level == "error" and "1 in data" in f.message


def test_a_failing_run_falls_back_to_the_reference_and_names_the_node() -> None:
    nodes = [helper.make_node("Gather", ["x", "i"], ["a"], name="first"),
             helper.make_node("Gather", ["a", "j"], ["y"], name="second")]
    m = model(nodes, [("x", F, [3]), ("i", I64, [2]), ("j", I64, [1])], ["y"])
    feeds = {"x": np.array([1, 2, 3], np.float32), "i": np.array([0, 3]), "j": np.array([0])}
    r = audit(m, feeds, runtimes=["onnxruntime"])
    assert r.run_by.startswith("onnx.reference with gatherscatter's ops")
    assert "indices[1] = 3 is out of range" in r.run_error
    first, second = r.nodes
    assert first.reached and findings(r, "first")["out_of_range"] == ("error", "inputs")
    assert second.reached is False


def test_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="cannot read model"):
        audit(tmp_path / "missing.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x00\x01 not a protobuf \xff")
    with pytest.raises(AuditError, match="is not an ONNX model"):
        audit(bad)
    good = tmp_path / "m.onnx"
    onnx.save(scatter_model(), str(good))
    np.savez(tmp_path / "few.npz", x=np.zeros(4, np.float32))
    with pytest.raises(AuditError, match="no array for model input"):
        audit(good, tmp_path / "few.npz")
    np.savez(tmp_path / "dt.npz", x=np.zeros(4), i=np.zeros(3, np.int64), u=np.zeros(3, np.float32))
    with pytest.raises(AuditError, match="input x has dtype float64; the model declares float32"):
        audit(good, tmp_path / "dt.npz")
    (tmp_path / "junk.npz").write_text("junk")
    with pytest.raises(AuditError, match=r"not a NumPy \.npz file"):
        audit(good, tmp_path / "junk.npz")
    with pytest.raises(AuditError, match="no array for model input"):
        audit(good, {"x": np.zeros(4, np.float32)})
    with pytest.raises(AuditError, match="unknown runtime 'tensorrt'"):
        audit(good, runtimes=["tensorrt"])


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(scatter_model("none"), str(path))
    np.savez(tmp_path / "s.npz", x=np.zeros(4, np.float32), i=np.array([1, 2, 1]), u=np.array([5, 6, 7], np.float32))
    assert main(["audit", str(path), "--runtimes", "onnxruntime"]) == 0
    out = capsys.readouterr().out
    assert "node s ScatterElements (opset 18, ScatterElements-18) reduction='none'" in out
    assert "WARNING duplicates [static]" in out
    assert main(["audit", str(path), "--inputs", str(tmp_path / "s.npz"), "--format", "json", "--quiet"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["exit_status"] == 1 and data["nodes"][0]["findings"][0]["condition"] == "duplicates"
    assert main(["audit", str(path), "--format", "md"]) == 0
    assert capsys.readouterr().out.startswith(f"# Audit of `{path}`")
    assert main(["audit", str(tmp_path / "nope.onnx")]) == 2
    assert "cannot read model" in capsys.readouterr().err


def test_a_node_the_checks_cannot_read_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    from gatherscatter.onnxtools import audit as audit_mod

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(audit_mod, "_dynamic", broken)
    idx = numpy_helper.from_array(np.array([0, 1]), "i")
    node = helper.make_node("Gather", ["x", "i"], ["y"], name="g")
    r = audit(model([node], [("x", F, [3])], ["y"], inits=[idx]), runtimes=["onnxruntime"])
    (f,) = [f for f in r.findings if f.condition == "not_analysed"]
    assert f.level == "warning" and "RuntimeError: boom" in f.message


def test_progress_counter_without_a_terminal() -> None:
    import io

    from gatherscatter.cli.progress import Progress

    buf = io.StringIO()
    with Progress("run", buf) as p:
        for k in range(20):
            p.update(k, 20, f"case{k}")
    assert buf.getvalue().splitlines() == [f"run: {k}/20" for k in range(0, 20, 2)]
    quiet = io.StringIO()
    with Progress("run", quiet, enabled=False) as p:
        p.update(0, 1)
    assert quiet.getvalue() == ""


def tensor_scatter_model(mode: str = "circular", idx_type: int = I64) -> onnx.ModelProto:
    node = helper.make_node("TensorScatter", ["past", "upd", "w"], ["present"], name="kv", mode=mode)
    return model([node], [("past", F, [2, 5, 3]), ("upd", F, [2, 2, 3]), ("w", idx_type, [2])], ["present"], 24)


def ts_inputs(w: list[int]) -> dict[str, np.ndarray]:
    return {"past": np.zeros((2, 5, 3), np.float32), "upd": np.ones((2, 2, 3), np.float32), "w": np.array(w, np.int64)}


def test_tensor_scatter_static() -> None:
    r = audit(tensor_scatter_model(), runtimes=["onnxruntime", "reference"])
    assert findings(r) == {"write_index": ("info", "static")}  # no duplicates: the write positions are distinct
    assert r.exit_status == 0
    r = audit(tensor_scatter_model(), runtimes=["onnxruntime", "openvino"])
    assert findings(r)["op_missing"] == ("error", "static")  # OpenVINO 2026.4's ONNX frontend has no TensorScatter
    # write_indices is int64 only: onnxruntime refuses int32 (as the spec says), the stock evaluator runs it
    r = audit(tensor_scatter_model(idx_type=TensorProto.INT32), runtimes=["onnxruntime"])
    assert findings(r)["index_dtype"] == ("info", "static")
    r = audit(tensor_scatter_model(idx_type=TensorProto.INT32), runtimes=["onnxruntime", "reference"])
    assert findings(r)["index_dtype"] == ("error", "static")


def test_tensor_scatter_sample_inputs() -> None:
    rts = ["onnxruntime", "reference"]
    # circular: 4 + 1 = 5 wraps to position 0; nothing to report
    r = audit(tensor_scatter_model(), ts_inputs([4, 1]), runtimes=rts)
    assert findings(r) == {} and r.exit_status == 0
    r = audit(tensor_scatter_model(), ts_inputs([1, -1]), runtimes=rts)
    (f,) = r.findings
    assert (f.condition, f.level, f.positions) == ("write_index", "error", ["write_indices[1] = -1"])
    r = audit(tensor_scatter_model("linear"), ts_inputs([3, 4]), runtimes=rts)  # 4 + 2 > 5
    assert [(f.condition, f.positions) for f in r.findings] == [("write_index", ["write_indices[1] = 4"])]
    # 2**63 - 1 + 1 overflows int64: the stock evaluator writes at the wrong position, onnxruntime does not
    r = audit(tensor_scatter_model(), ts_inputs([2**63 - 1, 0]), runtimes=rts)
    assert findings(r) == {"int64_extreme_index": ("error", "inputs")}
    assert r.findings[0].positions == [f"write_indices[0] = {2**63 - 1}"]
