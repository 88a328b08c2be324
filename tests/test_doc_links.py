"""Citations point at what a user can open (issue 15).

Messages, docstrings and divergence records cite the project's semantics notes and
measurements as ``docs/semantics.md#e6`` or ``docs/behavior-matrix.md#t6-5``: every such
anchor must exist in the repository's docs, and the old bare citations of documents that are
not in the repository (an equivalence number in parentheses, a pitfall number, a section sign
after the seed documents' names, a table number after the matrix's name) must not come back;
the commit "Citations point at docs/" holds the script that rewrote them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LINK = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")
ANCHOR = re.compile(r"""<a id="([\w-]+)"></a>""")
# a citation of a document outside the repository: what tools would not resolve
BARE = re.compile(r"(?<![\w/#-])(semantics\.md|behaviou?r[- ]matrix(\.md)?|perf-anchors)[ ,]+(§|\d+\.\d+|surprise)"
                  r"|(?<![\w/#-])(\(E\d{1,2}\)|pitfall \d+|§\d+)")


def _sources() -> list[Path]:
    files = [p for d in ("src", "tests") for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".txt")]
    return [p for p in files if "__pycache__" not in p.parts and p.name != Path(__file__).name]


def _anchors(doc: Path) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}
    return set(ANCHOR.findall(text)) | headings


def _cited() -> dict[tuple[str, str], list[str]]:
    cited: dict[tuple[str, str], list[str]] = {}
    for p in _sources():
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for m in LINK.finditer(line):
                cited.setdefault((m[1], m[2]), []).append(f"{p.relative_to(ROOT)}:{n}")
    return cited


def test_every_cited_anchor_exists():
    cited = _cited()
    assert len(cited) >= 50  # the code cites the notes throughout
    missing = []
    for (doc, anchor), where in sorted(cited.items()):
        path = DOCS / doc
        if not path.exists() or anchor not in _anchors(path):
            missing.append(f"docs/{doc}#{anchor} (cited at {', '.join(where[:3])})")
    assert not missing, "cited anchors that do not exist:\n" + "\n".join(missing)


def test_links_inside_the_notes_resolve():
    for doc in ("semantics.md", "behavior-matrix.md"):
        text = (DOCS / doc).read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([\w-]*\.md)?#([\w-]+)\)", text):
            assert anchor in _anchors(DOCS / (target or doc)), f"{doc}: [..]({target}#{anchor})"


def test_no_bare_citations_of_documents_outside_the_repository():
    found = []
    for p in _sources():
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            m = BARE.search(LINK.sub("", line))
            if m:
                found.append(f"{p.relative_to(ROOT)}:{n}: {m[0]!r} in {line.strip()[:100]}")
    assert not found, "cite docs/semantics.md#... or docs/behavior-matrix.md#... instead:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("anchor", ["e6", "e21", "pitfall-1", "pitfall-22", "s5-2", "s11-3"])
def test_semantics_notes_have_the_stable_anchors(anchor):
    assert anchor in _anchors(DOCS / "semantics.md")


@pytest.mark.parametrize("anchor", ["t6-1", "t6-10", "surprise-1", "surprise-11", "appendix", "perf-8"])
def test_measurement_notes_have_the_stable_anchors(anchor):
    assert anchor in _anchors(DOCS / "behavior-matrix.md")
