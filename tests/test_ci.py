"""The CI entry point (.ci/run) reports the suite's peak memory, and no default test needs gigabytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEAK = ROOT / ".ci" / "peak_rss.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(PEAK), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units and /proc are Linux's")
def test_peak_rss_reports_the_commands_peak_and_keeps_its_status():
    # a child that touches 300 MiB: the one-process peak is at least that, and at most a little more
    r = _run("--", sys.executable, "-c", "import numpy as np; a = np.ones(300 * 2**20 // 8); print(a.sum())")
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("peak RSS: ")
    mib = int(line.split("(")[1].split(" MiB")[0])
    assert 300 <= mib < 600
    # the command's failure status is kept
    assert _run("--", sys.executable, "-c", "import sys; sys.exit(5)").returncode == 5
    # over the limit: reported and status 3; under it: ok and 0
    over = _run("--limit-gib", "0.1", "--", sys.executable, "-c", "import numpy as np; np.ones(2**25).sum()")
    assert over.returncode == 3 and over.stdout.rstrip().endswith("limit 0.1 GiB: OVER")
    ok = _run("--limit-gib", "4", "--", sys.executable, "-c", "pass")
    assert ok.returncode == 0 and ok.stdout.rstrip().endswith("limit 4 GiB: ok")


@pytest.mark.skipif(sys.platform != "linux", reason="PSS comes from Linux's smaps_rollup")
def test_peak_of_all_processes_sums_the_tree():
    # pytest -n 2 runs two workers at once: the whole tree's memory is what the machine must hold. Two
    # grandchildren holding 300 MiB each at the same time: one process peaked near 300 MiB, the tree near 600
    pytest.importorskip("psutil")
    hold = "import numpy as np, time; a = np.ones(300 * 2**20 // 8); time.sleep(2.5); print(a.sum())"
    code = (f"import subprocess, sys; ps = [subprocess.Popen([sys.executable, '-c', {hold!r}]) for _ in range(2)]; "
            "sys.exit(max(p.wait() for p in ps))")
    r = _run("--every", "0.1", "--", sys.executable, "-c", code)
    assert r.returncode == 0, r.stderr
    tree_line, one_line = r.stdout.strip().splitlines()[-2:]
    assert tree_line.startswith("peak PSS of all processes: ") and one_line.startswith("peak RSS: ")
    tree = int(tree_line.split("(")[1].split(" MiB")[0])
    one = int(one_line.split("(")[1].split(" MiB")[0])
    assert 300 <= one < 450 and 600 <= tree < 800, r.stdout
    # the limit applies to the tree: 0.5 GiB holds either process but not both
    over = _run("--every", "0.1", "--limit-gib", "0.5", "--", sys.executable, "-c", code)
    assert over.returncode == 3 and over.stdout.rstrip().endswith("limit 0.5 GiB: OVER"), over.stdout


def test_ci_run_wraps_the_suite_in_the_peak_report():
    text = (ROOT / ".ci" / "run").read_text()
    assert ".ci/peak_rss.py" in text and "-m pytest" in text
    assert "set -euo pipefail" in text  # a failing pytest fails CI


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as a memory cap is Linux's")
def test_the_numpy_size_limit_test_runs_in_little_memory():
    # issue 15: this test allocated np.ones((1, 2**31)) (16 GiB) and the OOM killer ended CI; under a 2 GiB
    # address-space cap it must still pass (the ShapeError is reached without allocating)
    node = "tests/dialects/mxnet/test_scatter_nd.py::test_shape_beyond_numpy_size_limit_is_a_shape_error"
    code = (
        "import resource, sys, pytest\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))\n"
        f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '--no-header', {node!r}]))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def test_recording_the_suites_numba_signatures(tmp_path):
    # GS_RECORD_SIGNATURES (tests/conftest.py) writes what .ci/run warms up: the header, then each compiled
    # signature once, sorted, whatever was in the file before
    pytest.importorskip("numba")
    out = tmp_path / "sigs.txt"
    out.write_text("zz_old: (int64,)\nzz_old: (int64,)\n")
    node = "tests/core/test_accel_paths.py::test_warm_up_of_a_signature_compiles_it_without_calling"
    env = {**os.environ, "GS_RECORD_SIGNATURES": str(out)}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    text = out.read_text()
    from tests.conftest import SIGNATURES_HEADER

    assert text.startswith(SIGNATURES_HEADER)
    lines = text[len(SIGNATURES_HEADER) :].splitlines()
    assert lines == sorted(set(lines)) and lines.count("zz_old: (int64,)") == 1
    assert ("copy_blocks_1: (Array(uint8, 1, 'C', False, aligned=True), Array(uint8, 1, 'C', True, aligned=True), "
            "bool)") in lines
    # the committed list starts with the same header
    assert (ROOT / ".ci" / "numba-signatures.txt").read_text().startswith(SIGNATURES_HEADER)
