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


def test_ops_prints_a_table_and_stays_a_list():
    # issue 15: gs.ops() printed function objects; the README says it lists ops with versions
    onnx_ops = gs.ops("onnx")
    assert isinstance(onnx_ops, list) and onnx_ops[0] is gs.onnx.Gather and len(onnx_ops) == 7
    expected = "\n".join([
        "op                    family            kind     versions",
        "onnx.Gather           gather            gather   opset 1, 11, 13",
        "onnx.GatherElements   gather_elements   gather   opset 11, 13",
        "onnx.GatherND         gather_nd         gather   opset 11, 12, 13",
        "onnx.ScatterElements  scatter_elements  scatter  opset 11, 13, 16, 18",
        "onnx.Scatter          scatter_elements  scatter  opset 9",
        "onnx.ScatterND        scatter_nd        scatter  opset 11, 13, 16, 18",
        "onnx.TensorScatter    scatter_axis      scatter  opset 24",
        "(7 ops)",
    ])
    assert str(onnx_ops) == expected and repr(onnx_ops) == expected
    everything = repr(gs.ops())
    assert "function" not in everything and "0x" not in everything
    assert "torch.scatter_reduce " in everything and "mxnet.gather_nd " in everything
    assert everything.endswith(f"({len(gs.ops())} ops)")
    # still a list: filtering, comparison and concatenation behave as before
    assert gs.ops("onnx") == list(onnx_ops) and [op for op in onnx_ops if op.info.kind == "gather"][-1] is gs.onnx.GatherND


def test_divergences_of_an_unknown_op_is_an_error():
    # issue 15: gs.divergences("nope.Op") returned [] (a typo looked like "no divergences")
    with pytest.raises(gs.UnsupportedError, match=r"unknown op 'nope\.Op'"):
        gs.divergences("nope.Op")
    with pytest.raises(gs.UnsupportedError):
        gs.divergences(print)
    by_name = gs.divergences("onnx.GatherElements")
    assert by_name and all(d.op == "onnx.GatherElements" for d in by_name)
    assert gs.divergences(gs.onnx.GatherElements) == by_name
