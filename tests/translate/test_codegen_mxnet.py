"""Generated MXNet code, executed on real MXNet 1.9.1 (in its own venv), computes what the SOURCE op computes.

Opt-in (``pytest -m mxnet``). MXNet 1.9.1 needs numpy 1.23.5, so the generated modules and
the cases go to ``tests/translate/mxnet_codegen_worker.py``, run by the MXNet venv's
interpreter (``$GS_MXNET_PYTHON``, else ``/work/venvs/mxnet/bin/python``). Only cases the
translated program accepts are sent (MXNet's scatter_nd crashes on a bad index), and no
empty or 0-d inputs (MXNet 1.9 cannot express them; listed residuals).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gatherscatter.translate import Translation
from gatherscatter.translate.verify import Case, sample_cases

from .codegen_util import REPRESENTATIVE, CodeReport, _outcome, call_id, judge, translations

pytestmark = [pytest.mark.mxnet]
PYTHON = os.environ.get("GS_MXNET_PYTHON") or "/work/venvs/mxnet/bin/python"
WORKER = Path(__file__).with_name("mxnet_codegen_worker.py")
TARGET = "mxnet"
N = 30


def _spec(root: Path, stem: str, v: Any) -> dict[str, Any]:
    if isinstance(v, (np.ndarray, np.generic)):
        np.save(root / f"{stem}.npy", np.asarray(v))
        return {"npy": f"{stem}.npy"}
    if isinstance(v, tuple) and all(isinstance(x, (int, np.integer)) for x in v):
        return {"ints": [int(x) for x in v]}
    names = []
    for j, x in enumerate(v):
        np.save(root / f"{stem}_{j}.npy", np.asarray(x))
        names.append(f"{stem}_{j}.npy")
    return {"tuple": names}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Translation, list[tuple[Case, Any, Any]]]]:
    """Per representative call: its translation and (case, source outcome, MXNet outcome) triples."""
    if not Path(PYTHON).exists():
        pytest.skip(f"no MXNet interpreter at {PYTHON} (set GS_MXNET_PYTHON)")
    root = tmp_path_factory.mktemp("mxnet_codegen")
    jobs: list[dict[str, Any]] = []
    plan: dict[str, tuple[Translation, list[tuple[Case, Any, int]]]] = {}
    for k, (op, attrs) in enumerate(REPRESENTATIVE):
        (t,) = translations(TARGET, [(op, attrs)]) or [None]
        if t is None:
            continue
        (root / f"code_{k}.py").write_text(t.code)
        items = []
        for c, case in enumerate(sample_cases(t.source, n=N, seed=1)):
            model = _outcome(lambda: t.run(**case.args))  # noqa: B023
            if model[0] != "ok" or {"empty", "scalar"} & case.features:
                continue
            a = _outcome(lambda: t.run_source(**case.args))  # noqa: B023
            args = {name: _spec(root, f"a{k}_{c}_{name}", v) for name, v in case.args.items()}
            items.append((case, a, len(jobs)))
            jobs.append({"code": f"code_{k}.py", "args": args})
        plan[call_id(op, attrs)] = (t, items)
    (root / "jobs.json").write_text(json.dumps(jobs))
    env = {key: v for key, v in os.environ.items() if not key.startswith("PYTHON")}
    proc = subprocess.run([PYTHON, str(WORKER), str(root)], capture_output=True, text=True, timeout=1200, env=env,
                          check=False)
    if proc.returncode != 0:
        pytest.fail(f"mxnet worker failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    results = json.loads((root / "results.json").read_text())
    out = {}
    for key, (t, items) in plan.items():
        triples = []
        for case, a, j in items:
            res = results[j]
            r = ("ok", np.load(root / res["out"])) if res["ok"] else ("error", RuntimeError(res["error"]))
            triples.append((case, a, r))
        out[key] = (t, triples)
    return out


TOTAL = CodeReport()


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_mxnet_code_matches_the_source(runs, op, attrs):
    key = call_id(op, attrs)
    if key not in runs:
        pytest.skip("no translation")
    t, triples = runs[key]
    report = CodeReport()
    for case, a, r in triples:
        report.total += 1
        judge(report, t, case, a, r)
    TOTAL.add(report)
    assert not report.failures, f"{t.code}\n{report}"


def test_summary(capsys):
    with capsys.disabled():
        print(f"\nmxnet codegen: {TOTAL}")
