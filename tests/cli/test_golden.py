"""Every command's plain-text output at a fixed width, compared with reviewed golden files.

The outputs use only ops whose dialects are complete and committed (ONNX and the neutral
``gatherscatter.*`` ops), selected with ``--framework``, so that they do not change while
other dialects are written, nor with which optional frameworks are installed (no dialect
imports its framework). The tour's MXNet example is pinned to its neutral fallback for
the same reason.
"""

from __future__ import annotations

import dataclasses

import pytest

from gatherscatter.explain import seeds

from .conftest import run_cli

CASES = {
    "list_onnx": ("list", "--framework", "onnx"),
    "table_gather_nd_onnx": ("table", "--family", "gather_nd", "--framework", "onnx,gatherscatter"),
    "table_scatter_elements_onnx": ("table", "--family", "scatter_elements", "--framework", "onnx"),
    "table_gather_onnx_md": ("table", "--family", "gather", "--framework", "onnx", "--format", "md"),
    "explain_gather_elements": (
        "explain", "onnx.GatherElements", "--data", "[[1,2,3],[4,5,6],[7,8,9]]",
        "--indices", "[[1,2,0],[2,0,-1]]", "--axis", "0",
    ),
    "explain_gather_rows_3d": (
        "explain", "onnx.Gather", "--data", "[[20,30],[40,50],[60,70]]", "--indices", "[[0,1],[1,2]]",
    ),
    "explain_gather_nd_batch": (
        "explain", "onnx.GatherND", "--data", "[[[0,1],[2,3]],[[4,5],[6,7]]]", "--indices", "[[1],[0]]",
        "--batch_dims", "1", "--opset", "12",
    ),
    "explain_scatter_nd_collisions": (
        "explain", "onnx.ScatterND", "--data", "[1,2,3,4,5]", "--indices", "[[1],[1],[-1]]",
        "--updates", "[10,20,30]", "--reduction", "add",
    ),
    "explain_scatter_elements_last_wins": (
        "explain", "onnx.ScatterElements", "--data", "[[0,0,0],[0,0,0]]", "--indices", "[[1,0,1],[1,1,0]]",
        "--updates", "[[1,2,3],[4,5,6]]",
    ),
    "explain_out_of_range": ("explain", "onnx.Gather", "--data", "[10,20,30]", "--indices", "[0,3]"),
    "explain_fill_and_clip": (
        "explain", "gatherscatter.take", "--data", "[10.5,20,30]", "--indices", "[[0,5],[-1,-7]]",
        "--bounds", "fill", "--fill_value", "-1",
    ),
    "explain_mxnet_layout": (
        "explain", "gatherscatter.gather_nd", "--data", "[[1,2],[3,4]]", "--indices", "[[-2,0],[1,1]]",
        "--index_axis", "0",
    ),
    "explain_tf_scatter_nd_shape": (
        "explain", "gatherscatter.scatter_nd", "--data", "[0,0,0,0]", "--indices", "[[1],[1],[3]]",
        "--updates", "[10,20,30]", "--reduction", "add",
    ),
    "compare_across_families_with_errors": (
        "compare", "onnx.Gather", "gatherscatter.take", "gatherscatter.take_along_axis", "onnx.GatherElements",
        "--data", "[10,20,30]", "--indices", "[-1,2]", "--axis", "0", "--negative", "raise",
    ),
    "compare_across_families": (
        "compare", "onnx.Gather", "onnx.GatherElements", "gatherscatter.take_along_axis", "--data", "[[1,2,3],[4,5,6]]",
        "--indices", "[[0,2],[1,0]]", "--axis", "1",
    ),
    "explain_too_large": ("explain", "onnx.Gather", "--data", str(list(range(300))), "--indices", "[1,2]"),
    "compare_gather_nd": (
        "compare", "gather_nd", "--data", "[[1,2],[3,4]]", "--indices", "[[0,0],[1,1]]",
        "--framework", "onnx,gatherscatter",
    ),
    "compare_scatter_nd_reduction": (
        "compare", "scatter_nd", "--data", "[5,5,5]", "--indices", "[[0],[0]]", "--updates", "[2,3]",
        "--framework", "onnx,gatherscatter", "--reduction", "add",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_command_output_matches_golden(name, golden):
    status, out, err = run_cli(*CASES[name])
    assert err == ("" if name != "explain_out_of_range" else
                   "gatherscatter: error: IndexOutOfRangeError: indices[1] = 3 is out of range for axis 0 of data with "
                   "size 3; valid range is [-3, 2]\n")  # fmt: skip
    assert status == (1 if name == "explain_out_of_range" else 0)
    golden(name, out)


def test_tour_matches_golden(golden, monkeypatch):
    pinned = tuple(
        dataclasses.replace(ex, op=ex.fallback[0], kwargs={**ex.kwargs, **ex.fallback[1]}, fallback=None)
        if ex.fallback
        else ex
        for ex in seeds.SEED_EXAMPLES
    )
    monkeypatch.setattr(seeds, "SEED_EXAMPLES", pinned)
    status, out, err = run_cli("tour")
    assert (status, err) == (0, "")
    golden("tour", out)
