"""The benchmark tools run: each one once, at quick sizes, on a workload or two.

Timings are not judged here (benchmarks/README.md has them); these catch a tool that
no longer imports or runs against the current core (as a merge once broke profile.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import has

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    not all(has(m) for m in ("onnxruntime", "torch", "numba", "onnx")), reason="needs onnxruntime, torch, numba, onnx"
)


def _run(*args: str) -> str:
    res = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


def test_run_quick_writes_markdown_and_json(tmp_path):
    out = _run("benchmarks/run.py", "--quick", "--only", "gathernd_batch1,scatternd_add_rows", "--no-compile",
               "--out", str(tmp_path))
    assert "| gathernd_batch1 |" in out and "| scatternd_add_rows |" in out
    data = json.loads((tmp_path / "partial.json").read_text())
    recs = {r["name"]: r for r in data["records"]}
    for r in recs.values():
        assert r["checks"]["numpy"] and r["checks"]["numba1"] and r["checks"]["torch1"]
        assert r["rounds"] >= 7 and {"numpy1", "numba1", "numba2"} <= set(r["ratios"])
        assert r["peak_extra_MB"] <= r["memory_limit_MB"]
    # combine.py merges runs (here: a run with itself)
    merged = _run("benchmarks/combine.py", str(tmp_path / "partial.json"), str(tmp_path / "partial.json"))
    assert "2 runs" in merged and "| scatternd_add_rows |" in merged


def test_ab_quick():
    out = _run("benchmarks/ab.py", "gather_rows_out", "--quick", "--reps", "3")
    assert "gather_rows_out:" in out and "numba1" in out and "numpy1" in out


def test_parts_quick():
    out = _run("benchmarks/parts.py", "scatternd_add_rows,gather_elements_last", "--quick", "--reps", "2",
               "--threads", "1")
    assert "np rounds" in out and "np offsets" in out and "ort1" in out


def test_overhead_quick():
    out = _run("benchmarks/overhead.py", "--rounds", "2", "--calls", "3")
    rows = [line for line in out.splitlines() if line.startswith("| ") and " µs" in line]
    assert len(rows) == 8 and "| ScatterND add |" in out and "np.take" in out
