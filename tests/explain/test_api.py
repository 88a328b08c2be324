"""``gs.explain(op, *args, **kwargs)``: the explanation object, in a console and in a real Jupyter kernel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gatherscatter as gs


def test_explain_takes_the_op_call_as_written():
    # torch.gather(input, dim, index): out[i][j] = input[i][index[i][j]] (by hand: [[1, 1], [4, 3]])
    for op in ("torch.gather", gs.torch.gather):
        e = gs.explain(op, [[1, 2], [3, 4]], 1, [[0, 0], [1, 0]])
        assert e.output.tolist() == [[1, 1], [4, 3]]
        assert e.sources == {(0, 0): (0, 0), (0, 1): (0, 0), (1, 0): (1, 1), (1, 1): (1, 0)}
    e = gs.explain("tensorflow.gather", params=[5, 6, 7], indices=[2, 0])
    assert e.output.tolist() == [7, 5]
    assert e.names["data"] == "params"


def test_text_repr_and_notebook_reprs():
    e = gs.explain("onnx.ScatterND", [0, 0, 0], [[1], [1]], [10, 20], reduction="add")
    text = repr(e)
    assert text.startswith("onnx.ScatterND (opset")
    assert "collision at output[1]: 0 (data) + A=10 + B=20 = 30" in text
    assert "equivalent loop" not in text and "equivalent loop" in str(e)
    svg = e._repr_svg_()
    assert svg is not None and svg.startswith("<svg ") and 'data-tensor="output"' in svg
    html = e._repr_html_()
    assert "<svg " in html and "collision at output[1]" in html


def test_an_op_error_is_recorded_not_raised():
    e = gs.explain("onnx.Gather", [10, 20, 30], [0, 3])
    assert e.output is None
    assert e.error.startswith("IndexOutOfRangeError: indices[1] = 3")
    assert "error: IndexOutOfRangeError" in repr(e)


def test_too_large_to_draw_shows_text_only():
    e = gs.explain("onnx.Gather", np.arange(300), [1, 2])
    assert e._repr_svg_() is None
    assert "picture not drawn: data has 300 cells" in e._repr_html_()


def test_a_real_kernel_shows_the_svg_inline():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    src = Path(gs.__file__).resolve().parents[1]
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(src)!r})\nimport gatherscatter as gs"),
        nbformat.v4.new_code_cell('gs.explain("torch.gather", [[1, 2], [3, 4]], 1, [[0, 0], [1, 0]])'),
    ]
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3")
    client.execute()
    outputs = nb.cells[1].outputs
    assert len(outputs) == 1 and outputs[0].output_type == "execute_result"
    data = outputs[0].data
    assert data["image/svg+xml"].startswith("<svg ")
    assert 'data-tensor="output"' in data["image/svg+xml"]
    assert "<svg " in data["text/html"]
    assert data["text/plain"].startswith("torch.gather (2.13)  dim=1")


def test_hostile_calls_are_explained_not_crashed():
    # ragged data, an index expression, a 0-d index: each op's own error (or result) is explained
    e = gs.explain("onnx.Gather", [[1, 2], [3]], [0])
    assert e.output is None and e.error is not None
    e = gs.explain("numpy.add_at", np.zeros(4), slice(1, 3), 1.0)
    assert e.output.tolist() == [0.0, 1.0, 1.0, 0.0]  # a[1:3] += 1, by hand
    assert any("shown as the positions the op reads" in n for n in e.notes)
    e = gs.explain("onnx.Gather", [10, 20, 30], 2)
    assert e.output.tolist() == 30 and e.sources == {(): (2,)}


def test_numpy_tuple_index_rows_share_a_colour():
    # np.add.at(a, ([0, 1], [1, 1]), [10, 20]) on [[1, 2], [3, 4]]: a[0, 1] += 10, a[1, 1] += 20 (by hand)
    e = gs.explain("numpy.add_at", np.array([[1, 2], [3, 4]]), (np.array([0, 1]), np.array([1, 1])), np.array([10, 20]))
    assert e.output.tolist() == [[1, 12], [3, 24]]
    assert e.indices.tolist() == [[0, 1], [1, 1]]  # shown stacked: one tuple per row
    g = e.colour_groups()
    assert g[("indices", (0, 0))] == g[("indices", (0, 1))] == g[("updates", (0,))] == g[("output", (0, 1))]
    assert g[("indices", (1, 0))] == g[("updates", (1,))] == g[("output", (1, 1))]
    assert g[("updates", (0,))] != g[("updates", (1,))]
