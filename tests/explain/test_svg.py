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
