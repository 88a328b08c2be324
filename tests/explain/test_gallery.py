"""docs/gallery is current: every picture regenerated from its example equals the file on disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gatherscatter as gs
from gatherscatter.explain import gallery

GALLERY = Path(__file__).resolve().parents[2] / "docs" / "gallery"


def test_gallery_covers_the_tour_and_every_family():
    exs = gallery.examples()
    names = [e.name for e in exs]
    assert len(names) == len(set(names))
    seeds = [n for n in names if n.startswith("seed-")]
    assert len(seeds) == 12
    assert len(names) - len(seeds) >= 20
    families = {gs.get_op(e.op).info.family for e in exs}
    assert families == {op.info.family for op in gs.ops()}


def test_gallery_is_not_stale():
    stale = gallery.write(GALLERY, png=True, check=True)
    assert stale == [], f"stale: {stale}; run `python -m gatherscatter.explain.gallery`"


def test_gallery_png_sizes_match_their_svg():
    Image = pytest.importorskip("PIL.Image")
    for svg in sorted(GALLERY.glob("*.svg")):
        m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg.read_text(encoding="utf-8"))
        assert m is not None
        w, h = int(m.group(1)), int(m.group(2))
        with Image.open(svg.with_suffix(".png")) as img:
            assert abs(img.size[0] - 2 * w) <= 2 and abs(img.size[1] - 2 * h) <= 2, svg.name
