"""The fuzzer shipped with the package: a short run over every op, and proof that it can fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.fuzz import FuzzFailure, check_call, fuzz, generate, reproducer, select_ops
from gatherscatter.fuzz.repro import array_source

ROOT = Path(__file__).resolve().parents[2]


def test_every_op_survives_a_short_run(tmp_path):
    # every registered op (75: the dialects and the neutral API), a fixed seed, a bounded number of cases
    ops = select_ops(None)
    assert len(ops) == len(gs.ops()) >= 75
    # (the numba cross-check is left to the long runs: compiling its kernels for every dtype takes minutes)
    report = fuzz(ops, cases=100, seed=20261122, workers=2, out_dir=str(tmp_path), timeout=120, numba=False)
    assert report.calls == 100 * len(ops)
    msg = "\n\n".join(f"{f.op}: {f.kind}: {f.error}: {f.message}\n{f.reproducer}" for f in report.failures)
    assert report.failure_count == 0, msg
    for st in report.stats.values():
        assert st.results > 0, f"{st.op}: no call of the short run returned a result"
        assert sum(st.typed.values()) > 0, f"{st.op}: no call of the short run raised a typed error"


BROKEN = {
    "modifies_input": "modified-input",
    "bare_value_error": "exception",
    "wrong_value": "loop-mismatch",
    "view_of_input": "shares-memory",
    "hangs": "hang",
    "aborts": "crash",
    "segfaults": "crash",
}


@pytest.fixture(scope="module")
def broken_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("broken")
    refs = [f"tests.fuzz.broken:{name}" for name in BROKEN]
    report = fuzz(refs, cases=12, seed=1, workers=2, out_dir=str(out), timeout=3, stop_after=1)
    return report


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_op_is_reported_with_a_reproducer_that_reproduces(broken_report, name, tmp_path):
    ref = f"tests.fuzz.broken:{name}"
    found = [f for f in broken_report.failures if f.op == ref]
    assert found, f"the fuzzer did not catch {name}"
    assert BROKEN[name] in {f.kind for f in found}
    f = next(f for f in found if f.kind == BROKEN[name])
    assert f.path and Path(f.path).read_text() == f.reproducer
    if name == "aborts":
        assert "SIGABRT" in f.error
    if name == "segfaults":
        assert "SIGSEGV" in f.error
    # the reproducer, run on its own, fails the same way
    script = tmp_path / "repro.py"
    script.write_text(f.reproducer)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    try:
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              timeout=6 if name == "hangs" else 60, env=env,
                              cwd=str(tmp_path))
    except subprocess.TimeoutExpired:
        assert name == "hangs"
        return
    assert name != "hangs"
    assert proc.returncode != 0
    if name in ("aborts", "segfaults"):
        assert proc.returncode < 0
    else:
        assert "FuzzFailure" in proc.stderr and BROKEN[name] in proc.stderr


def test_healthy_op_passes_the_oracle():
    assert check_call("onnx.Gather", (np.arange(6).reshape(2, 3), np.array([1, -2])), {"axis": 1}).status == "result"
    assert check_call("torch.gather", (np.zeros(3), 0, np.array([3])), {}).error == "IndexOutOfRangeError"


def test_tf_cve_seeds_are_expected_errors():
    op = gs.get_op("tensorflow.gather_nd")
    seeds = [generate("tensorflow.gather_nd", op, 0, n) for n in range(4)]
    assert [c.expect for c in seeds] == ["error"] * 4
    assert any("CVE-2021-37687" in c.kind for c in seeds)
    for c in seeds:
        assert check_call(c.op, c.args, c.kwargs, expect=c.expect).status == "typed"
    # a result where the seed says the framework raises is a failure
    with pytest.raises(FuzzFailure, match="expected-error"):
        check_call("onnx.GatherND", (np.arange(6.0).reshape(2, 3), np.array([[-1, 0]])), {}, expect="error")


def test_generation_is_deterministic():
    op = gs.get_op("torch.index_put")
    a, b = generate("torch.index_put", op, 5, 17), generate("torch.index_put", op, 5, 17)
    ns_a: dict = {}
    ns_b: dict = {}
    exec(reproducer(a.op, a.args, a.kwargs).replace("check_call(", "(lambda *a, **k: None)("), ns_a)
    exec(reproducer(b.op, b.args, b.kwargs).replace("check_call(", "(lambda *a, **k: None)("), ns_b)
    assert repr(ns_a["kwargs"]) == repr(ns_b["kwargs"])


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.arange(12, dtype=">i8").reshape(3, 4)[::-1, ::2],
        lambda: np.asfortranarray(np.arange(6.0, dtype=np.float32).reshape(2, 3)),
        lambda: np.broadcast_to(np.float32(3), (2**40,)),
        lambda: np.array([1, "a", None], dtype=object),
        lambda: np.zeros((0, 3), np.int16),
        lambda: np.array(5.5),
    ],
)
def test_reproducer_rebuilds_arrays_exactly(make):
    a = make()
    ns: dict = {"np": np}
    exec(array_source(a, "x"), ns)
    x = ns["x"]
    assert x.dtype.str == a.dtype.str and x.shape == a.shape and x.strides == a.strides
    assert x.flags.writeable == a.flags.writeable
    if a.size < 100:
        assert x.tolist() == a.tolist()
    else:
        assert x[:3].tolist() == a[:3].tolist()


def test_reproducer_keeps_views_on_one_buffer():
    base = np.arange(10.0)
    ns: dict = {}
    src = reproducer("numpy.put", (base, np.array([0]), base[2:5]), {})
    exec(src.replace("check_call(", "(lambda *a, **k: None)("), ns)
    a0, _, a2 = ns["args"]
    assert np.shares_memory(a0, a2) and a2.tolist() == [2.0, 3.0, 4.0]


def test_cli_exits_nonzero_on_failure(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    cmd = [sys.executable, "-m", "gatherscatter.fuzz", "--cases", "6", "--op", "tests.fuzz.broken:wrong_value",
           "--out", str(tmp_path), "--plain", "--report", str(tmp_path / "t.md")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=str(ROOT))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "loop-mismatch" in proc.stdout and "check_call(" in proc.stdout
    assert "| tests.fuzz.broken:wrong_value | 6 |" in (tmp_path / "t.md").read_text()
    ok = subprocess.run([*cmd[:5], "--op", "onnx.Gather", "--out", str(tmp_path)], capture_output=True, text=True,
                        timeout=120, env=env, cwd=str(ROOT))
    assert ok.returncode == 0, ok.stdout + ok.stderr
