"""The public surface: sorted __all__, numpy-only import, registry and docstrings."""

from __future__ import annotations

import subprocess
import sys

import pytest

import gatherscatter as gs

FRAMEWORK_MODULES = ("torch", "jax", "tensorflow", "onnx", "onnxruntime", "openvino", "paddle", "mxnet", "numba", "rich")


def test_all_is_sorted_and_exported():
    assert gs.__all__ == sorted(gs.__all__)
    for name in gs.__all__:
        assert hasattr(gs, name), name


def test_import_loads_numpy_only():
    code = (
        "import sys, gatherscatter; "
        f"print(','.join(m for m in {FRAMEWORK_MODULES!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_onnx_ops_registered_with_versions():
    names = {op.info.qualname: op.info.versions for op in gs.ops("onnx")}
    assert names == {
        "onnx.Gather": ("1", "11", "13"),
        "onnx.GatherElements": ("11", "13"),
        "onnx.GatherND": ("11", "12", "13"),
        "onnx.Scatter": ("9",),
        "onnx.ScatterElements": ("11", "13", "16", "18"),
        "onnx.ScatterND": ("11", "13", "16", "18"),
        "onnx.TensorScatter": ("24",),
    }
    assert gs.get_op("onnx.Gather") is gs.onnx.Gather
    assert gs.get_op(gs.onnx.Gather) is gs.onnx.Gather
    with pytest.raises(gs.UnsupportedError):
        gs.get_op("onnx.Gathr")


@pytest.mark.parametrize("op", gs.ops(), ids=lambda op: op.info.qualname)
def test_every_op_is_documented(op):
    doc = op.__doc__ or ""
    assert "Equivalent loop" in doc or "equivalent loop" in doc, op.info.qualname
    assert ">>>" in doc, op.info.qualname
    assert op.info.family and op.info.kind in ("gather", "scatter")


def test_divergence_records_are_complete():
    recs = gs.divergences()
    assert len(recs) >= 8
    for rec in recs:
        assert rec.op and rec.case and rec.theirs and rec.ours and rec.evidence, rec
        assert rec.kind in ("undefined", "oracle", "spec", "device", "choice"), rec
    assert any(r.op == "onnx.GatherElements" and r.kind == "oracle" for r in recs)


def test_lowering_is_reusable():
    low = gs.onnx.GatherND.lower([[1, 2], [3, 4]], [[1, 0]])
    assert low.primitive == "gather" and low.spec.vector and low.run().tolist() == [3]
