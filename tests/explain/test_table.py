"""The live comparison tables: structure for every family, stable whatever dialects are registered."""

from __future__ import annotations

import json

import pytest

import gatherscatter as gs
from gatherscatter.explain.table import TABLE_FAMILIES, make_table, table_json, table_markdown


@pytest.mark.parametrize("family", TABLE_FAMILIES)
def test_every_registered_op_is_a_column_or_skipped_and_every_cell_is_filled(family):
    t = make_table(family)
    shown = {c.op for c in t.columns} | {op for op, _ in t.skipped}
    assert shown == {op.info.qualname for op in gs.ops(family=family)}
    for row in t.rows:
        assert len(row.cells) == len(t.columns)
        for cell in row.cells:
            assert cell.text.strip()
            assert cell.status in {"ok", "error", "n/a", "other"}
    data = json.loads(json.dumps(table_json(t), default=str))
    assert data["family"] == family
    md = table_markdown(t).splitlines()
    assert md[2].startswith("| case |")
    assert len(md[2].split(" | ")) == len(t.columns) + 1


def test_versions_that_differ_get_their_own_column():
    t = make_table("scatter_elements", frameworks=["onnx"])
    labels = [c.label for c in t.columns]
    assert "onnx.ScatterElements opset 16" in labels
    assert "onnx.ScatterElements opset 18" in labels
    red = next(r for r in t.rows if r.case.startswith("reductions"))
    by = dict(zip(labels, (c.text for c in red.cells), strict=True))
    assert by["onnx.ScatterElements opset 16"] == "none→3 add→10 mul→30"
    assert by["onnx.ScatterElements opset 18"] == "none→3 add→10 mul→30 max→5 min→2"


def test_cells_are_computed_from_the_ops(monkeypatch):
    # a registry that answers differently gives a different cell: nothing is written by hand
    from gatherscatter.dialects import _registry

    real = _registry.get_op("onnx.GatherND")
    original = real.lower
    t = make_table("gather_nd", op_names=["onnx.GatherND"])
    layout = t.rows[0].cells[0].text
    assert layout.startswith("last axis")

    def transposed(data, indices, batch_dims=0, opset=None):
        import numpy as np

        return original(data, np.moveaxis(np.asarray(indices), 0, -1), batch_dims, opset)

    monkeypatch.setattr(real, "lower", transposed)
    t2 = make_table("gather_nd", op_names=["onnx.GatherND"])
    assert t2.rows[0].cells[0].text.startswith("first axis")
