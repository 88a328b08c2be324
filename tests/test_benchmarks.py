"""The benchmark tools run: each one once, at quick sizes, on a workload or two.

Timings are not judged here (benchmarks/README.md has them); these catch a tool that
no longer imports or runs against the current core (as a merge once broke profile.py).
The harness's arithmetic (ratios, the spinning-pool columns, combining runs, parts.py --spin)
is checked on scripted timings, with expected values worked out by hand.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import has

ROOT = Path(__file__).resolve().parents[1]
needs_peers = pytest.mark.skipif(
    not all(has(m) for m in ("onnxruntime", "torch", "numba", "onnx")), reason="needs onnxruntime, torch, numba, onnx"
)


def _run(*args: str) -> str:
    res = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


@needs_peers
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
        # the spinning-off peers: ORT in the rounds, torch with OMP_WAIT_POLICY=PASSIVE in its subprocess
        assert r["checks"]["torch2_passive"] and r["omp_wait_policy"] == "PASSIVE" and "ort2_nospin" in r["checks"]
        assert r["times"]["ort2_nospin"] > 0 and r["times"]["torch2_passive"] > 0
        assert "numba2_torch_passive" in r["ratios"] and r["cost_s"]["ort2_nospin"] > 0
    # ORT's 2-thread ScatterND add may lose updates on duplicate indices (spinning or not): only the gather is sure
    batch1 = recs["gathernd_batch1"]
    assert batch1["checks"]["ort2_nospin"] and {"numba2_ort_nospin", "ort2_spin_gain"} <= set(batch1["ratios"])
    assert "| gathernd_batch1 | " in out.split("Spinning thread pools")[1]
    # combine.py merges runs (here: a run with itself)
    merged = _run("benchmarks/combine.py", str(tmp_path / "partial.json"), str(tmp_path / "partial.json"))
    assert "2 runs" in merged and "| scatternd_add_rows |" in merged and "ours2 / ort2 no-spin" in merged


@needs_peers
def test_ab_quick():
    out = _run("benchmarks/ab.py", "gather_rows_out", "--quick", "--reps", "3", "--nospin")
    assert "gather_rows_out:" in out and "numba1" in out and "numpy1" in out and "numba2_ort_nospin" in out


@needs_peers
def test_parts_quick():
    out = _run("benchmarks/parts.py", "scatternd_add_rows,gather_elements_last,scatter_elements_none_last", "--quick",
               "--reps", "2", "--threads", "1")
    # the NumPy path's parts as the core runs them: rounds of rows, a take per row, an assignment per row
    assert "np rounds" in out and "np take rows" in out and "np rows" in out and "ort1" in out


@needs_peers
def test_parts_spin_quick():
    out = _run("benchmarks/parts.py", "gathernd_batch1", "--spin", "--quick", "--reps", "1", "--gaps", "0,0.002")
    rows = {line[2:20].strip() for line in out.splitlines() if line.startswith("  ") and " ms/s" in line}
    assert {"ours2", "ort2", "ort2 no-spin", "torch2", "torch2 passive"} <= rows, out
    assert "ort2 against ort2 no-spin: spinning saves per call" in out and "torch2 against torch2 passive" in out


@needs_peers
def test_overhead_quick():
    out = _run("benchmarks/overhead.py", "--rounds", "2", "--calls", "3")
    rows = [line for line in out.splitlines() if line.startswith("| ") and " µs" in line]
    assert len(rows) == 8 and "| ScatterND add |" in out and "np.take" in out


# ---------------------------------------------------------------- the harness on scripted timings


@pytest.fixture
def bench(monkeypatch):
    """benchmarks/run.py, combine.py and parts.py as modules (their directory on sys.path while the test runs)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    names = ("run", "combine", "parts", "workloads")
    for n in names:
        monkeypatch.delitem(sys.modules, n, raising=False)
    mods = {n: importlib.import_module(n) for n in ("run", "combine", "parts")}
    yield mods
    for n in names:
        sys.modules.pop(n, None)


def test_round_ratios_nospin_is_not_a_best_peer(bench):
    times = {  # 3 rounds; ort2_nospin is the fastest 2-thread peer in round 0 and must not count as "best"
        "ours_numba1": [2.0, 2.0, 2.0], "ours_numba2": [1.0, 2.0, 3.0], "ort1": [4.0, 4.0, 4.0],
        "ort2": [2.0, 2.0, 2.0], "torch2": [8.0, 1.0, 8.0], "ort2_nospin": [0.5, 4.0, 4.0],
    }
    r = bench["run"].round_ratios(times, [1, 2])
    # best(ort2, torch2) per round: 2, 1, 2 -> 1/2, 2/1, 3/2 -> median 1.5 (2.0 if ort2_nospin counted)
    assert r["numba2"] == pytest.approx(1.5)
    assert r["numba1"] == pytest.approx(0.5) and r["scale2"] == pytest.approx(1.0)
    assert r["numba2_ort_nospin"] == pytest.approx(0.75)  # 1/0.5, 2/4, 3/4
    assert r["ort2_spin_gain"] == pytest.approx(0.5)  # 2/0.5, 2/4, 2/4
    assert "numba1_ort_nospin" not in r
    del times["ort2_nospin"]
    assert not {"numba2_ort_nospin", "ort2_spin_gain"} & set(bench["run"].round_ratios(times, [1, 2]))


def _record(name: str, times: dict[str, float], checks: dict[str, bool], ratios: dict[str, float],
            cost: float = 0.0) -> dict:
    base = {"ours_numpy1": 3e-3, "ours_numba1": 2e-3, "ours_numba2": 1e-3, "ort1": 4e-3, "ort2": 2e-3,
            "torch1": 5e-3, "torch2": 1.5e-3, "numpy": 9e-3}
    return {"name": name, "workload": name.split()[0], "size": 16, "MB_moved": 10.0, "peak_extra_MB": 1.0,
            "memory_limit_MB": 2.0, "times": {**base, **times}, "checks": checks,
            "ratios": {"numpy1": 0.75, "numba1": 0.5, "numba2": 0.67, "scale2": 0.5, **ratios},
            "cost_s": {"ours_numba2": 9.0, "ort2_nospin": cost}}


ENV = {"date": "d", "machine": "m", "python": "3", "versions": {}, "quick": True, "threads": [1, 2],
       "bandwidth": {"copy_GBps": 10.0, "random_row_gather_GBps": 5.0}}


def _spin_rows(md: str) -> dict[str, str]:
    part = md.split("Spinning thread pools")[1].split("First calls")[0].split("Targets (")[0]
    return {line.split(" | ")[0][2:]: line for line in part.splitlines() if line.startswith("| ")}


def test_render_spin_table(bench):
    recs = [
        _record("a /16", {"ort2_nospin": 5e-4, "torch2_passive": 2.5e-4}, {"ort2_nospin": True, "torch2_passive": False},
                {"numba2_ort_nospin": 2.0, "ort2_spin_gain": 4.0, "numba2_torch_passive": 4.0}, cost=3.0),
        _record("b /16", {"ort2_nospin": 3e-3}, {"ort2": False, "ort2_nospin": True}, {"numba2_ort_nospin": 0.33},
                cost=2.0),
        _record("c", {}, {}, {}),
    ]
    md = bench["run"].render({**ENV, "workloads_s": 100.0, "passive_s": 5.0}, recs, [1, 2])
    # the best peer is torch2 (1.5 ms), not ort2_nospin (500 µs) nor torch2_passive (250 µs)
    assert "| torch2 1.5 ms |" in md.split("\n| a /16 |")[1].splitlines()[0]
    rows = _spin_rows(md)
    assert set(rows) == {"workload", "a /16", "b /16"}  # c has no spinning-off peer: no row
    assert rows["workload"] == ("| workload | ort2 | ort2 no-spin | ours2 / ort2 no-spin | ort2 / ort2 no-spin "
                                "| torch2 passive | ours2 / torch2 passive |")
    assert rows["a /16"] == "| a /16 | 2 ms | 500 µs | 2.00 | 4.00 | WRONG | WRONG |"
    assert rows["b /16"] == "| b /16 | WRONG | 3 ms | 0.33 | - | - | - |"
    assert "took 10 s of the workloads' 100 s (no-spin rounds 5 s, passive subprocess 5 s)" in md
    assert "Spinning thread pools" not in bench["run"].render(ENV, [recs[2]], [1, 2])


def test_combine_spin_columns(bench, tmp_path):
    runs = []
    for k, (t_ns, ratio) in enumerate(((5e-4, 2.0), (4e-4, 1.0))):
        rec = _record("a /16", {"ort2_nospin": t_ns}, {"ort2_nospin": True}, {"numba2_ort_nospin": ratio}, 1.0)
        env = {**ENV, "sizes": [16], "workloads_s": 50.0, "first_call": {}}
        path = tmp_path / f"run{k}.json"
        path.write_text(json.dumps({"env": env, "records": [rec]}))
        runs.append(str(path))
    md = bench["combine"].combine(runs)
    # the lower median time (400 µs), the median of the runs' ratios (1.50); one run's wall time is not shown
    assert _spin_rows(md)["a /16"] == "| a /16 | 2 ms | 400 µs | 1.50 | - | - | - |"
    assert "informational peers took" not in md


def test_spin_table_and_summary(bench):
    parts = bench["parts"]
    # samples: (other threads' CPU s, caller idle s, calls, median call s); 3 windows per cell, one an outlier
    spin = {0.0: [(0.010, 0.0, 10, 1.0e-3)] * 2 + [(0.5, 0.0, 10, 9e-3)],
            0.05: [(0.205, 0.25, 5, 1.2e-3)] * 2 + [(0.0, 0.25, 5, 1e-2)]}
    off = {0.0: [(0.010, 0.0, 10, 1.5e-3)] * 3, 0.05: [(0.005, 0.25, 5, 1.6e-3)] * 3}
    table = parts.spin_table({"ort2": spin, "ort2 no-spin": off})
    # ort2: 1 ms of the workers' CPU per call back to back, 41 ms per call with 50 ms gaps: (41 - 1) / 0.05 s
    assert table["ort2"][0.05]["spin_ms_per_s"] == pytest.approx(800.0)
    assert table["ort2"][0.0]["spin_ms_per_s"] is None and table["ort2"][0.0]["call_s"] == pytest.approx(1e-3)
    assert table["ort2 no-spin"][0.05]["spin_ms_per_s"] == pytest.approx(0.0)
    (line,) = parts.spin_summary(table, 2)
    assert line == ("  ort2 against ort2 no-spin: spinning saves per call 500 µs back to back, 400 µs after 50 ms; "
                    "it costs extra CPU per second of the caller's idle 800 ms/s at 50 ms gaps; 40.0 ms of CPU "
                    "per call followed by 50 ms idle")
    assert parts.spin_summary({"ort2": table["ort2"]}, 2) == []  # no spinning-off form: no comparison


def test_tuner_cell_shows_the_warm_up_votes_and_the_rounds_revisits(bench):
    run = bench["run"]
    rec = {"tuner": {"ours_numba2": {"gather_rows@24": [1, 1], "nd_rows@20": [2, 2]},
                     "ours_numba2_rounds": {"gather_rows@24": [2, 2], "copy_blocks@24": [2]}}}
    assert run.votes(rec, "gather_rows", 1, 2) == "gather_rows 1,1 + 2,2; nd_rows 2,2; copy_blocks + 2"
    assert run.votes({"tuner": {}}, "x", 1, 2) == "-"


def test_size_sweep_and_targets_tables(bench):
    """The sweep puts each target's ratio at every size side by side, bold over its limit; the targets table lists
    each miss once, with its ratio; a streaming gather's share of the copy probe comes from its fastest time."""
    def rec(name: str, size: int, ratios: dict[str, float], ours: float) -> dict:
        r = _record(name, {"ours_numba1": ours, "ours_numba2": 2 * ours}, {}, ratios)
        return {**r, "workload": name.split()[0], "size": size}

    recs = [rec("gather_rows", 1, {"numba1": 1.2, "scale2": 1.06}, 2e-3),  # 10 MB in 2 ms: 5 GB/s, 50% of 10
            rec("gather_rows /16", 16, {"numpy1": 1.6}, 2.5e-3),  # 4 GB/s: 40%
            rec("scatternd_add_rows", 1, {"numba2": 1.01}, 1e-4)]  # not a streaming gather: no share
    fc = {"Gather": {"workload": "gather_rows", "cold": {"first_s": 0.1, "max_s": 0.7, "numpy_s": 0.1,
                                                        "ready_s": 9.0, "steady_s": 0.01}}}
    md = bench["run"].render({**ENV, "first_call": fc}, recs, [1, 2])
    sweep = md.split("Size sweep")[1].split("\n\n")[1].splitlines()
    assert sweep[0] == ("| workload | NumPy 1T: full | 1/16 | accelerated 1T: full | 1/16 | accelerated 2T: full | 1/16 "
                        "| % of copy: full | 1/16 |")
    assert sweep[2] == "| gather_rows | 0.75 | **1.60** | **1.20** | 0.50 | 0.67 | 0.67 | 50% | **40%** |"
    assert sweep[3] == "| scatternd_add_rows | 0.75 | - | 0.50 | - | **1.01** | - | - | - |"
    targets = {line.split(" | ")[0][2:]: line.split(" | ")[1:] for line in md.split("Targets (")[1].splitlines()
               if line.startswith("| ")}
    assert targets["ours at 2 threads / ours at 1 thread <= 1.05"] == ["1", "gather_rows 1.06 |"]
    assert targets["no call waits over 0.5 s for compilation (longest: 600 ms)"] == ["1", "Gather cold 600 ms |"]
    assert targets["accelerated at 1 thread <= 1.0x the best peer"] == ["1", "gather_rows 1.20 |"]
    assert targets["accelerated at 2 threads <= 1.0x the best peer"] == ["1", "scatternd_add_rows 1.01 |"]
    assert targets["NumPy path at 1 thread <= 1.5x the best peer"] == ["1", "gather_rows /16 1.60 |"]
    assert targets["streaming gathers >= 50% of the copy bandwidth"] == ["1", "gather_rows /16 40% |"]
    assert "Size sweep" not in bench["run"].render(ENV, recs[:1], [1, 2])  # one size: no sweep
