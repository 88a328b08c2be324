"""gs.mxnet as a package: public surface, registry entries, divergence records, no MXNet import."""

from __future__ import annotations

import subprocess
import sys

import gatherscatter as gs


def test_all_is_sorted_and_complete():
    assert gs.mxnet.__all__ == sorted(gs.mxnet.__all__) == ["gather_nd", "pick", "scatter_nd", "take"]


def test_registry_entries():
    ops = {op.info.name: op for op in gs.ops("mxnet")}
    assert set(ops) == {"take", "pick", "gather_nd", "scatter_nd"}
    assert {n: op.info.family for n, op in ops.items()} == {
        "take": "gather", "pick": "gather_elements", "gather_nd": "gather_nd", "scatter_nd": "scatter_nd",
    }
    for op in ops.values():
        assert op.info.versions == ("1.9.1",)
        assert gs.get_op(f"mxnet.{op.info.name}") is op
        assert "MXNet 1.9.1" in op.__doc__ and "Equivalent loop" in op.__doc__ and "Differs from" in op.__doc__


def test_divergences_recorded():
    assert any("negative" in d.case for d in gs.divergences("mxnet.scatter_nd"))
    assert any("int32" in d.case for d in gs.divergences("mxnet.pick"))
    assert gs.divergences("mxnet.take") and gs.divergences("mxnet.gather_nd")


def test_lowering_is_kept():
    low = gs.mxnet.gather_nd.lower([[0, 1], [2, 3]], [[1, 0], [0, 1]])
    assert low.primitive == "gather" and low.spec.vector and low.spec.depth == 2
    assert low.indices.shape == (2, 2)  # tuples moved to the last axis


def test_importing_does_not_import_mxnet():
    code = "import sys, gatherscatter; print('mxnet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
