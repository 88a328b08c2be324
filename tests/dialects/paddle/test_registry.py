"""gs.paddle: public surface, registry entries and divergence records."""

from __future__ import annotations

import subprocess
import sys

import gatherscatter as gs

OPS = ["gather", "gather_nd", "index_select", "put_along_axis", "scatter", "scatter_nd", "scatter_nd_add",
       "take", "take_along_axis", "segment_max", "segment_mean", "segment_min", "segment_sum"]


def test_all_sorted_and_complete():
    assert gs.paddle.__all__ == sorted(gs.paddle.__all__)
    assert set(OPS) <= set(gs.paddle.__all__)
    assert gs.paddle.PADDLE_VERSION == "3.3.1"


def test_registry():
    names = sorted(op.info.name for op in gs.ops("paddle"))
    assert names == sorted(OPS)
    for name in OPS:
        op = gs.get_op(f"paddle.{name}")
        assert op is getattr(gs.paddle, name)
        assert op.info.versions == ("3.3.1",)
        assert op.__doc__ and "Equivalent loop" in op.__doc__ and "Differs from" in op.__doc__
        assert "3.3.1" in op.__doc__
    assert gs.get_op("paddle.scatter").info.family == "scatter_axis"
    assert gs.get_op("paddle.take_along_axis").info.family == "gather_elements"


def test_divergences_recorded():
    ops = {d.op for d in gs.divergences() if d.op.startswith("paddle.")}
    assert {"paddle.gather", "paddle.take", "paddle.take_along_axis", "paddle.scatter_nd_add", "paddle.scatter_nd",
            "paddle.put_along_axis", "paddle.scatter", "paddle.gather_nd"} <= ops
    for d in gs.divergences():
        if d.op.startswith("paddle."):
            assert d.evidence and d.theirs and d.ours


def test_lowering_is_exposed():
    low = gs.paddle.scatter.lower([[1.0], [2.0]], [1, 1], [[3.0], [4.0]], overwrite=False)
    assert low.primitive == "scatter" and low.policy.reduction.value == "add" and not low.policy.include_self


def test_import_does_not_import_paddle():
    code = "import sys, gatherscatter as gs; gs.paddle.gather([1], [0]); print('paddle' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
