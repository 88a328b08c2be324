"""The SVG picture: parsed as XML, its cells and colours checked against a hand-computed mapping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

import gatherscatter as gs
from gatherscatter.explain import Roles, bind, explain
from gatherscatter.explain.lines import PALETTE
from gatherscatter.explain.svg import svg_text

NS = "{http://www.w3.org/2000/svg}"


def _cells(svg: str) -> dict[tuple[str, tuple[int, ...]], dict[str, str]]:
    root = ET.fromstring(svg)
    out = {}
    for r in root.iter(f"{NS}rect"):
        if "data-tensor" in r.attrib:
            pos = tuple(int(x) for x in r.attrib["data-pos"].split(",")) if r.attrib["data-pos"] else ()
            out[(r.attrib["data-tensor"], pos)] = r.attrib
    return out


def test_gather_elements_svg_colours_follow_the_hand_computed_mapping():
    # OpenVINO GatherElements-6 example 1 (axis 0): out[i][j] = data[indices[i][j]][j]
    # by hand: out[0,0] <- data[0,0]; out[0,1] <- data[1,1]; out[1,0] <- data[0,0]; out[1,1] <- data[0,1]
    e = explain(bind(gs.get_op("onnx.GatherElements"), Roles(np.array([[1, 2], [3, 4]]), np.array([[0, 1], [0, 0]]))))
    svg = svg_text(e)
    cells = _cells(svg)
    assert len([k for k in cells if k[0] == "data"]) == 4
    assert len([k for k in cells if k[0] == "output"]) == 4
    expected = {(0, 0): (0, 0), (0, 1): (1, 1), (1, 0): (0, 0), (1, 1): (0, 1)}
    for out_pos, data_pos in expected.items():
        assert cells[("output", out_pos)]["fill"] == cells[("data", data_pos)]["fill"]
        assert cells[("output", out_pos)]["fill"] in PALETTE
    # the three data cells that are read get three different colours; data[1, 0] is never read
    read = {cells[("data", p)]["fill"] for p in [(0, 0), (0, 1), (1, 1)]}
    assert len(read) == 3
    assert cells[("data", (1, 0))]["fill"] == "#ffffff"
    # every value is written in the picture
    texts = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert texts.count("4") == 2  # data[1, 1] and output[0, 1]


def test_scatter_svg_marks_collision_and_out_of_range():
    # by hand: updates [10, 20, 30] at rows 1, 1, -1 (= 3) of a 4-vector; 10 and 20 collide, 20 wins
    e = explain(
        bind(gs.get_op("onnx.ScatterND"), Roles(np.zeros(4), np.array([[1], [1], [-1]]), np.array([10.0, 20.0, 30.0])))
    )
    cells = _cells(svg_text(e))
    assert cells[("output", (1,))]["fill"] == cells[("updates", (1,))]["fill"]
    assert cells[("output", (3,))]["fill"] == cells[("updates", (2,))]["fill"]
    assert cells[("output", (0,))]["fill"] == "#ffffff"
    assert float(cells[("output", (1,))]["stroke-width"]) > 3  # collision border
    assert cells[("indices", (2, 0))].get("stroke-dasharray")  # negative index that wrapped


def test_three_d_tensors_are_drawn_as_slices():
    e = explain(bind(gs.get_op("onnx.GatherND"), Roles(np.arange(8).reshape(2, 2, 2), np.array([[[0, 0]], [[1, 0]]]))))
    svg = svg_text(e)
    cells = _cells(svg)
    assert ("data", (1, 1, 1)) in cells
    assert "[1, :, :]" in svg
    # by hand: output[1, 0, :] = data[1, 0, :]
    assert cells[("output", (1, 0, 1))]["fill"] == cells[("data", (1, 0, 1))]["fill"]


def test_cells_carry_value_and_colour_group():
    e = gs.explain("onnx.GatherElements", [[1, 2], [3, 4]], [[0, 1], [0, 0]])
    cells = _cells(svg_text(e))
    assert cells[("data", (1, 1))]["data-value"] == "4"
    assert cells[("output", (0, 1))]["data-value"] == "4"
    # output[0, 1] <- data[1, 1] (by hand): same group, same tag
    assert cells[("output", (0, 1))]["data-group"] == cells[("data", (1, 1))]["data-group"]
    assert cells[("output", (0, 1))]["data-tag"] == cells[("data", (1, 1))]["data-tag"]
    assert "data-group" not in cells[("data", (1, 0))]  # never read


def test_slice_gather_colours_index_data_slice_and_output_slice_alike():
    # ONNX Gather axis 0, indices [2, 0]: index 2 picks row [7, 8, 9] (by hand) -> output row 0
    e = gs.explain("onnx.Gather", [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [2, 0])
    cells = _cells(svg_text(e))
    g = cells[("indices", (0,))]["data-group"]
    assert {cells[("data", (2, j))]["data-group"] for j in range(3)} == {g}
    assert {cells[("output", (0, j))]["data-group"] for j in range(3)} == {g}
    h = cells[("indices", (1,))]["data-group"]
    assert h != g
    assert {cells[("data", (0, j))]["data-group"] for j in range(3)} == {h}
    assert "data-group" not in cells[("data", (1, 0))]


def test_mxnet_indices_are_drawn_as_given_with_tuples_down_the_first_axis():
    # MXNet gather_nd: indices [[0, 1], [2, 2]] hold the tuples (0, 2) and (1, 2) (columns; by hand)
    e = gs.explain("mxnet.gather_nd", [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 1], [2, 2]])
    svg = svg_text(e)
    cells = _cells(svg)
    assert [cells[("indices", p)]["data-value"] for p in [(0, 0), (0, 1), (1, 0), (1, 1)]] == ["0", "1", "2", "2"]
    assert e.output.tolist() == [3, 6]
    # column 0 = (0, 2) read data[0, 2] = 3 -> output[0]
    assert cells[("indices", (0, 0))]["data-group"] == cells[("indices", (1, 0))]["data-group"]
    assert cells[("indices", (0, 0))]["data-group"] == cells[("data", (0, 2))]["data-group"]
    assert cells[("output", (0,))]["data-group"] == cells[("data", (0, 2))]["data-group"]
    assert "indices.shape[1:]" in svg and "M = indices.shape[0] = 2" in svg
    assert "one index tuple per column" in svg


def test_every_collision_contributor_is_drawn_and_the_loser_struck_out():
    # ScatterND rows 1, 1: update 10 then 20 (by hand: 20 kept, 10 overwritten)
    e = gs.explain("onnx.ScatterND", [0, 0, 0], [[1], [1]], [10, 20])
    svg = svg_text(e)
    assert svg.count('text-decoration="line-through"') == 1
    assert "A=10, B=20: duplicates=last keeps B=20; A=10 is overwritten" in svg
    e = gs.explain("tensorflow.scatter_nd", [[1], [0], [1]], [10, 30, 30], [3])
    svg = svg_text(e)
    assert "A=10 + C=30 = 40" in svg  # tf.scatter_nd sums into zeros
    assert 'text-decoration="line-through"' not in svg


def test_every_picture_has_a_legend():
    for e in (
        gs.explain("onnx.Gather", [10, 20, 30], [0, 3]),  # an error: still a legend
        gs.explain("numpy.take", [10, 20, 30], [0, 5], mode="clip"),
        gs.explain("jax.at_add", np.zeros(3), np.array([0, 4, 0]), np.array([1.0, 2, 3])),
    ):
        svg = svg_text(e)
        assert "A, B ...: one index" in svg or "cells not followed" in svg
    svg = svg_text(gs.explain("jax.at_add", np.zeros(3), np.array([0, 4, 0]), np.array([1.0, 2, 3])))
    assert "update dropped" in svg and "index out of range" in svg and "N updates collided" in svg


def test_cells_grow_with_their_text_and_tags_stay_legible():
    from gatherscatter.explain.picture import TAG_SIZE, picture, text_width

    e = gs.explain("onnx.Gather", [22222222.5, 1.0], [0, 1])
    pic = picture(e)
    rect = next(r for r in pic.rects if r.tensor == "data" and r.pos == (0,))
    assert rect.w >= text_width("2.222e+07", 15) + 8
    # 144 groups: every tag at the same legible size, every colour distinct
    big = gs.explain("torch.gather", np.arange(144).reshape(12, 12), 1, np.tile(np.arange(12), (12, 1)))
    pic = picture(big)
    tags = [t for t in pic.texts if t.size == TAG_SIZE and t.bold and t.text.isalpha()]
    assert len({t.text for t in tags}) == 144 and TAG_SIZE >= 11
    fills = {r.fill for r in pic.rects if r.tensor == "data"}
    assert len(fills) == 144
