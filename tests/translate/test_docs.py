"""docs/translation.md is generated (coverage matrix included) and kept current."""

from __future__ import annotations

from pathlib import Path

from gatherscatter.translate.coverage import TARGET_ORDER, coverage, translation_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "translation.md"


def test_committed_page_is_current():
    assert DOC.read_text(encoding="utf-8") == translation_markdown(), (
        "docs/translation.md is stale: regenerate with `gatherscatter translate --matrix --out docs/translation.md`"
    )


def test_matrix_covers_every_described_op_and_target():
    text = translation_markdown()
    for section in ("## How it works", "## The API", "## Coverage matrix", "### By family"):
        assert section in text
    rows = coverage()
    assert len(rows) >= 75
    for op, _, cells in rows:
        assert set(cells) == set(TARGET_ORDER), op
        for target, cell in cells.items():
            assert cell.status in ("exact", "closest", "none"), (op, target)
            if cell.status != "exact":
                assert cell.reason, (op, target)  # every gap says why
    # the source's own framework can always express the call (once the op has a description)
    from tests.translate.test_sources import PENDING

    for op, _, cells in rows:
        fw = op.split(".")[0]
        if fw in cells and op not in PENDING and op not in OWN_TARGET_GAPS:
            assert cells[fw].status == "exact", (op, cells[fw])
    for op, why in OWN_TARGET_GAPS.items():  # strict: a gap that closes fails here
        assert any(c[op.split(".")[0]].status != "exact" for o, _, c in rows if o == op), (op, why)


#: described ops whose own framework, as a translation target (its gather/scatter ops only), cannot run the
#: description exactly, with the reason
OWN_TARGET_GAPS = {
    "tensorflow.unsorted_segment_prod": "TF's scatter ops have no product (tensor_scatter_nd_* add/sub/min/max/update)",
    "tensorflow.segment_prod": "TF's scatter ops have no product (tensor_scatter_nd_* add/sub/min/max/update)",
    **{f"mlx.{n}": "MLX computes float64 data in float32, so no MLX plan is exact for every common dtype" for n in (
        "at_add", "at_subtract", "at_multiply", "at_maximum", "at_minimum", "at_divide", "put_along_axis", "take",
        "take_along_axis")},
}
