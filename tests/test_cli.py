"""The demo command: every seed example reproduced, exit status 0 (README's first command)."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys

from gatherscatter.cli import main, run_tour
from gatherscatter.explain import SEED_EXAMPLES


def test_tour_reproduces_every_seed_example():
    buf = io.StringIO()
    assert run_tour(buf) == 0
    text = buf.getvalue()
    assert f"{len(SEED_EXAMPLES)} of {len(SEED_EXAMPLES)} seed examples reproduced." in text
    assert "MISMATCH" not in text
    assert "-> [2, 2]" in text  # MXNet's different answer to GatherND example 2 (mxnet op or its fallback)
    assert text.count("[ok]") == len(SEED_EXAMPLES)


def test_python_dash_m_runs_the_tour():
    out = subprocess.run([sys.executable, "-m", "gatherscatter", "tour"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "seed examples reproduced" in out.stdout


def test_tour_detects_a_mismatch(monkeypatch):
    from gatherscatter.explain import seeds

    broken = dataclasses.replace(seeds.SEED_EXAMPLES[0], expected=[[0]])
    monkeypatch.setattr(seeds, "SEED_EXAMPLES", (broken,))
    buf = io.StringIO()
    assert run_tour(buf) == 1
    assert "MISMATCH" in buf.getvalue()
    assert main(["tour"], stdout=io.StringIO()) == 1


def test_seed_examples_name_their_source_and_a_registered_op_or_fallback():
    import gatherscatter as gs

    names = {op.info.qualname for op in gs.ops()}
    for ex in SEED_EXAMPLES:
        assert ex.source
        assert ex.op in names or (ex.fallback is not None and ex.fallback[0] in names), ex.title
