"""docs/compatibility.md is generated from the registry and divergence records, and kept current."""

from __future__ import annotations

from pathlib import Path

from gatherscatter.explain.compat import compatibility_markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "compatibility.md"


def test_committed_page_is_current():
    assert DOC.read_text(encoding="utf-8") == compatibility_markdown(), (
        "docs/compatibility.md is stale: regenerate with `gatherscatter compat --out docs/compatibility.md`"
    )


def test_page_has_every_family_and_divergences():
    text = compatibility_markdown()
    for fam in ("## gather", "## gather_elements", "## gather_nd", "## scatter_elements", "## scatter_nd"):
        assert fam in text
    assert "### Known divergences" in text
    assert "onnx.reference 1.23" in text  # a record, not hand-written prose
