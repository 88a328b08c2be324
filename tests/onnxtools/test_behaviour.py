"""The runtime behaviour table is measured, not believed: each entry's kit cases are re-run here.

For every entry of BEHAVIOUR for a runtime: the kit cases it names must all diverge
from the manifest when the entry says the runtime differs from the spec, and all pass
when it says it does not; on implementation-defined cases (which every allowed
outcome passes) the runtime must give the outcome the entry's ``label`` names. onnxruntime runs in CI; OpenVINO with ``-m openvino``.
Entries about races (``flaky``) are reported, not asserted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnx")

from gatherscatter.onnxtools.behaviour import BEHAVIOUR, CONDITIONS, Behaviour
from gatherscatter.onnxtools.conformance import run
from gatherscatter.onnxtools.reference_ops import onnx_ops


def _cases(b: Behaviour, manifest: dict[str, Any]) -> list[str]:
    fams = {name: op.info.family for name, op in onnx_ops().items()}
    return [
        c["name"]
        for c in manifest["cases"]
        if any(re.search(p, c["name"]) for p in b.cases) and (b.families is None or fams[c["op"]] in b.families)
    ]


def test_table_is_well_formed() -> None:
    for b in BEHAVIOUR:
        assert b.condition in CONDITIONS, b
        assert b.cases, b


def _check(runtime: str, kit: tuple[Path, dict[str, Any]], isolate: bool) -> None:
    root, manifest = kit
    entries = [b for b in BEHAVIOUR if b.runtime == runtime]
    wanted = sorted({n for b in entries for n in _cases(b, manifest)})
    report = run(root, runtime, only="^(" + "|".join(map(re.escape, wanted)) + ")$", isolate=isolate, timeout=60)
    status = {r.name: r.status for r in report.results}
    label = {r.name: r.detail for r in report.results}
    kind = {c["name"]: c["kind"] for c in manifest["cases"]}
    wrong = []
    for b in entries:
        names = _cases(b, manifest)
        assert names, f"no kit case matches {b}"
        if b.flaky:
            continue
        want = "diverge" if b.differs else "pass"
        bad = [n for n in names if kind[n] != "implementation-defined" and status[n] != want]
        bad += [n for n in names if kind[n] == "implementation-defined" and (
            status[n] != "pass" or (b.label is not None and label[n] != b.label))]
        if bad:
            wrong.append(f"{b.condition} ({b.does}): expected {want} for {bad}")
    assert not wrong, "\n".join(wrong)


def test_onnxruntime_does_what_the_table_says(kit: tuple[Path, dict[str, Any]]) -> None:
    pytest.importorskip("onnxruntime")
    _check("onnxruntime", kit, isolate=False)


def test_reference_does_what_the_table_says(kit: tuple[Path, dict[str, Any]]) -> None:
    _check("reference", kit, isolate=True)  # isolated: the stock evaluator can hang


@pytest.mark.openvino
def test_openvino_does_what_the_table_says(kit: tuple[Path, dict[str, Any]]) -> None:
    pytest.importorskip("openvino")
    _check("openvino", kit, isolate=True)  # isolated: the CPU plugin crashes on some cases
