"""The PNG picture (Pillow, the cli extra): rendered, decoded, its cell colours sampled."""

from __future__ import annotations

import io

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.explain import Roles, bind, explain
from gatherscatter.explain.lines import PALETTE
from gatherscatter.explain.picture import CELL, picture

Image = pytest.importorskip("PIL.Image")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_png_renders_and_cell_colours_match_the_mapping():
    from gatherscatter.explain.png import png_bytes

    e = explain(bind(gs.get_op("onnx.GatherElements"), Roles(np.array([[1, 2], [3, 4]]), np.array([[0, 1], [0, 0]]))))
    data = png_bytes(e)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data)).convert("RGB")
    pic = picture(e)
    assert img.size == (round(pic.width * 2), round(pic.height * 2))
    rects = {(r.tensor, r.pos): r for r in pic.rects}

    def sample(tensor, pos):
        r = rects[(tensor, pos)]
        return img.getpixel((int((r.x + CELL * 0.85) * 2), int((r.y + CELL * 0.85) * 2)))

    # by hand: output[0, 1] <- data[1, 1]; output[1, 1] <- data[0, 1]; data[1, 0] is never read
    assert sample("output", (0, 1)) == sample("data", (1, 1))
    assert sample("output", (1, 1)) == sample("data", (0, 1))
    assert sample("data", (1, 0)) == (255, 255, 255)
    assert sample("output", (0, 0)) in {_rgb(c) for c in PALETTE}
