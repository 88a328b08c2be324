"""Translation artefacts fit the caller (issue 15): ONNX models for the caller's dtypes with symbolic dims,
the onnx extra named when onnx is missing, an exactness line true to the divergences, checked versions."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

import gatherscatter as gs
from tests.cli.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]


def _inputs(model):
    return [(i.name, i.type.tensor_type.elem_type, [d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim])
            for i in model.graph.input]


def _ort(model, **feeds):
    ort = pytest.importorskip("onnxruntime")
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)[0]


FLOAT, INT32, INT64 = 1, 6, 7  # onnx.TensorProto element types


def test_mxnet_gather_nd_model_runs_the_tours_example():
    # the tour's MXNet example: tuples on the FIRST axis, (-2, 1) -> (0, 1) and (0, 1): [2, 2]. The model was
    # built for a hidden example with one-component tuples (indices dim 0 fixed to 1) and float64 data
    pytest.importorskip("onnx")
    m = gs.translate("mxnet.gather_nd", to="onnx").onnx_model
    assert _inputs(m) == [("data", FLOAT, ["data_d0", "data_d1"]), ("indices", INT64, [2, "indices_d1"])]
    out = _ort(m, data=np.array([[1, 2], [3, 4]], np.float32), indices=np.array([[-2, 0], [1, 1]], np.int64))
    assert out.dtype == np.float32 and out.tolist() == [2.0, 2.0]
    # any number of tuples (a symbolic dim)
    out = _ort(m, data=np.array([[1, 2], [3, 4]], np.float32), indices=np.array([[1, 0, 1], [0, 1, 1]], np.int64))
    assert out.tolist() == [3.0, 2.0, 4.0]


def test_scatter_reduce_model_takes_float32():
    # was an int32 model ("expected tensor(int32)" for float32 inputs in onnxruntime)
    pytest.importorskip("onnx")
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean", include_self=False)
    m = t.onnx_model
    assert _inputs(m) == [("input", FLOAT, ["input_d0", "input_d1"]), ("index", INT64, ["index_d0", "index_d1"]),
                          ("src", FLOAT, ["src_d0", "src_d1"])]
    x = np.full((3, 2), 9, np.float32)
    idx = np.array([[0, 1], [0, 1], [2, 2]])
    src = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    # hand-computed: column 0: row 0 <- mean(1, 3) = 2, row 2 <- 5; column 1: row 1 <- mean(2, 4) = 3, row 2 <- 6
    assert _ort(m, input=x, index=idx, src=src).tolist() == [[2, 9], [9, 3], [5, 6]]


def test_to_onnx_fits_given_dtypes_or_example():
    pytest.importorskip("onnx")
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="sum")
    m = t.to_onnx(dtypes={"input": "int32"})  # data and updates share a dtype: naming one names both
    assert [e for _, e, _ in _inputs(m)] == [INT32, INT64, INT32]
    out = _ort(m, input=np.zeros((3, 1), np.int32), index=np.array([[0], [2], [0]]),
               src=np.array([[5], [6], [7]], np.int32))
    assert out.dtype == np.int32 and out.tolist() == [[12], [0], [6]]
    m = t.to_onnx(input=np.zeros((2, 2, 2), np.float64), index=np.zeros((1, 1, 1), np.int64),
                  src=np.zeros((1, 1, 1), np.float64))
    assert _inputs(m)[0] == ("input", 11, ["input_d0", "input_d1", "input_d2"])
    with pytest.raises(gs.ArgumentError, match="dtypes names 'data'"):
        t.to_onnx(dtypes={"data": "int32"})
    with pytest.raises(gs.UnsupportedError, match="does not take index of dtype float32"):
        t.to_onnx(dtypes={"index": "float32"})
    with pytest.raises(gs.ArgumentError, match="not both"):
        t.to_onnx(dtypes={"input": "int32"}, input=np.zeros(2))


def test_scatter_nd_model_dims_are_symbolic():
    # every dim symbolic (ranks fixed): one model serves every size of data and every number of tuples
    pytest.importorskip("onnx")
    m = gs.translate("onnx.ScatterND", to="onnx").onnx_model
    assert [[isinstance(x, str) for x in d] for _, _, d in _inputs(m)] == [[True] * 2, [True] * 3, [True] * 2]
    one = _ort(m, data=np.zeros((2, 2), np.float32), indices=np.array([[[1, 0]]]), updates=np.array([[7]], np.float32))
    two = _ort(m, data=np.zeros((3, 1), np.float32), indices=np.array([[[2, 0]], [[0, 0]]]),
               updates=np.array([[5], [6]], np.float32))
    assert one.tolist() == [[0, 0], [7, 0]] and two.tolist() == [[6], [0], [5]]


def test_missing_onnx_names_the_extra(monkeypatch):
    t = gs.translate("torch.gather", to="onnx", dim=0)
    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx fails as if it were not installed
    for get in (lambda: t.onnx_model, lambda: t.code, lambda: t.to_onnx(input=np.zeros(2), index=np.zeros(2, int))):
        with pytest.raises(ModuleNotFoundError, match=r'needs the onnx package.*pip install "gatherscatter\[onnx\]"'):
            get()
    status, out, _ = run_cli("translate", "torch.gather", "--to", "onnx", "--dim", "0")
    assert status == 0 and "code not generated: onnx code needs the onnx package" in out
    extra = re.search(r"^onnx = \[(.*)\]$", (ROOT / "pyproject.toml").read_text(), re.MULTILINE)
    assert extra is not None and '"onnx>=' in extra.group(1)  # the extra the message names exists


def test_exact_yes_only_without_divergences():
    t = gs.translate("torch.gather", to="onnx", dim=0)
    assert t.exact and t.divergences  # exact on every input torch accepts; differs where torch refuses
    assert t.verdict == "exact: except when an index is negative (see the divergences)"
    status, out, _ = run_cli("translate", "torch.gather", "--to", "onnx", "--dim", "0", "--no-code")
    assert status == 0 and "exact: yes" not in out
    assert "exact: except when an index is negative" in out.split("divergences:")[1]
    clean = gs.translate("gatherscatter.scatter_nd", to="numpy", reduction="add")
    assert clean.divergences == [] and clean.verdict == "exact: yes"
    # the source op's recorded divergences from ONNX Runtime (gatherscatter.divergences) are residuals too
    onnx_gather = gs.translate("onnx.Gather", to="numpy")
    assert [r.when for r in onnx_gather.residuals] == ["out_of_range"]
    assert "DirectML clamps" in onnx_gather.divergences[0] and onnx_gather.exact
    old = gs.translate("tensorflow.scatter_nd", to="onnx", version=13)
    assert not old.exact and old.verdict == "exact: no (the closest translation; see the divergences)"


@pytest.mark.parametrize(("version", "fragment"), [
    ("abc", r"version='abc' is not an opset number; onnx opsets are 1 to 28"),
    (1.5, r"version=1\.5 is not an opset number"),
    (True, r"version=True is not an opset number"),
    (99, r"opset 99 is not one gatherscatter knows; onnx opsets are 1 to 28"),
    (0, r"opset 0 is not one gatherscatter knows"),
])
def test_bad_target_versions_are_typed_errors(version, fragment):
    with pytest.raises(gs.UnsupportedError, match=r"translate torch\.gather to onnx: " + fragment):
        gs.translate("torch.gather", to="onnx", dim=0, version=version)


def test_versions_are_checked_per_target():
    assert gs.translate("torch.gather", to="onnx", dim=0, version="13").version == 13
    assert gs.translate("onnx.Gather", to="openvino", version=15).version == 15
    with pytest.raises(gs.UnsupportedError, match="opset 18 is not one gatherscatter knows; openvino opsets are 1 to 17"):
        gs.translate("onnx.Gather", to="openvino", version=18)
    with pytest.raises(gs.UnsupportedError, match="the numpy target has no versions to choose"):
        gs.translate("torch.gather", to="numpy", dim=0, version=2)
    with pytest.raises(gs.UnsupportedError, match="unknown target framework 'nope'"):
        gs.translate("torch.gather", to="nope", dim=0, version=2)


@pytest.mark.parametrize("version", ["abc", "99"])
def test_cli_translate_bad_version_is_an_argument_error(version):
    status, out, err = run_cli("translate", "torch.gather", "--to", "onnx", "--dim", "0", "--version", version)
    assert status == 2 and out == ""
    assert "onnx opsets are 1 to 28" in err and "Traceback" not in err
