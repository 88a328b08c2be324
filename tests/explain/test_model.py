"""The explanation model against hand-computed mappings (never computed with the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.explain import Roles, bind, bind_call, explain
from gatherscatter.explain.adapter import ProbeError
from gatherscatter.explain.model import loop_text


def _exp(op, data, indices, updates=None, **attrs):
    roles = Roles(np.asarray(data), np.asarray(indices), None if updates is None else np.asarray(updates), attrs)
    return explain(bind(gs.get_op(op), roles, index_form="native"))


def test_gather_elements_sources_by_hand():
    # ONNX GatherElements example 1: out[i][j] = data[i][indices[i][j]], axis 1
    e = _exp("onnx.GatherElements", [[1, 2], [3, 4]], [[0, 0], [1, 0]], axis=1)
    assert e.mapped
    assert e.output.tolist() == [[1, 1], [4, 3]]
    assert e.sources == {(0, 0): (0, 0), (0, 1): (0, 0), (1, 0): (1, 1), (1, 1): (1, 0)}
    assert e.index_of[(1, 0)] == [(1, 0)]
    assert e.source_cells() == [(0, 0), (1, 0), (1, 1)]  # (0, 1) is never read: no colour


def test_gather_slices_and_shape_formula():
    e = _exp("onnx.Gather", [[20, 30], [40, 50], [60, 70]], [[0, 1], [1, 2]])
    # output[i, j, c] = data[indices[i, j], c]
    assert e.sources[(1, 1, 0)] == (2, 0)
    assert e.sources[(0, 1, 1)] == (1, 1)
    assert e.shape_formula[0] == "output.shape = indices.shape + data.shape[1:] = (2, 2) + (2,) = (2, 2, 2)"


def test_flattened_gather_maps_back_to_2d_cells():
    # np.take-style axis=None on 2x3 data: flat index 4 is data[1, 1]
    e = _exp("gatherscatter.take", [[1, 2, 3], [4, 5, 6]], [4, 0], axis=None)
    assert e.sources == {(0,): (1, 1), (1,): (0, 0)}


def test_scatter_collisions_winner_and_reduction():
    e = _exp("onnx.ScatterND", [0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30])
    assert e.contributors == {(1,): [(0,), (1,)], (3,): [(2,)]}
    assert e.winner((1,)) == (1,)  # duplicates=last
    assert e.collisions() == {(1,): [(0,), (1,)]}
    e = _exp("onnx.ScatterND", [0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30], reduction="add")
    assert e.winner((1,)) is None
    assert e.output.tolist() == [0, 30, 0, 30]
    first = _exp("onnx.ScatterND", [0, 0, 0, 0], [[1], [1]], [10, 20], duplicates="first")
    assert first.winner((1,)) == (0,)


def test_bad_indices_and_their_outcome():
    e = _exp("gatherscatter.take", [10.0, 20.0, 30.0], [0, 5, -1, -9], bounds="clip")
    got = {b.position: (b.outcome, b.negative_only) for b in e.bad}
    assert got == {(1,): ("clipped to 2", False), (2,): ("wraps to 2", True), (3,): ("clipped to 0", False)}
    e = _exp("onnx.Gather", [10, 20, 30], [0, 3])
    assert e.error.startswith("IndexOutOfRangeError: indices[1] = 3")
    assert [(b.position, b.outcome) for b in e.bad] == [((1,), "error")]
    assert e.output is None


def test_dropped_scatter_update():
    e = _exp("gatherscatter.scatter_nd", [1, 2, 3], [[0], [7]], [8, 9], bounds="drop")
    assert e.landing == {(0,): (0,), (1,): None}
    assert e.output.tolist() == [8, 2, 3]


def test_first_axis_layout_keeps_the_callers_index_positions():
    # MXNet layout: columns of indices are the tuples; (-2, 1) -> data[0, 1], (0, 1) -> data[0, 1]
    e = _exp("gatherscatter.gather_nd", [[1, 2], [3, 4]], [[-2, 0], [1, 1]], index_axis=0)
    assert e.output.tolist() == [2, 2]
    assert e.sources == {(0,): (0, 1), (1,): (0, 1)}
    assert e.index_of[(0,)] == [(0, 0), (1, 0)]  # the first column drives output[0]
    assert [b.position for b in e.bad] == [(0, 0)]


def test_tuple_index_op_is_shown_stacked():
    op = gs.get_op("torch.index_put") if "torch.index_put" in {o.info.qualname for o in gs.ops()} else None
    if op is None:
        pytest.skip("torch.index_put is not registered yet")
    e = explain(bind_call(op, ([[1, 2], [3, 4]], ([0, 1], [1, 1]), [7, 9]), {}))
    assert e.indices.tolist() == [[0, 1], [1, 1]]
    assert e.contributors == {(0, 1): [(0,)], (1, 1): [(1,)]}


def test_adapter_special_cases_and_refusals():
    with pytest.raises(ProbeError, match="no batch_dims parameter"):
        bind(gs.get_op("onnx.Gather"), Roles([1], [0], attrs={"batch_dims": 1}))
    b = bind(gs.get_op("onnx.Gather"), Roles([1], [0], attrs={"axis": 0}), version=11)
    assert b.kwargs["opset"] == 11
    assert b.data_param == "data"


def test_loop_text_reads_the_literal_block():
    doc = "Title.\n\n    Equivalent loop::\n\n        for i in x:\n            y = 1\n\n    After.\n"
    assert loop_text(doc) == "for i in x:\n    y = 1"
    assert loop_text("no loop here") == ""
