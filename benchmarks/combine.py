"""Combine several benchmark runs: per workload and peer, the lower of the runs' medians.

    python benchmarks/combine.py results/run1.json results/run2.json > results/combined.md

Noise on a shared machine only ever slows a run down, so the lower median is the better
estimate of a time (the method of ../shared/perf/perf-anchors.md). Ratios, measured side by
side within each run (thread scaling included), are the median of the runs' ratios. Checks
must hold in every run. Records are matched by name (workload and size). First-call probes:
the worse of the runs for the first and the slowest call, the lower for the other times.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import render


def _first_calls(fcs: list[dict[str, Any]]) -> dict[str, Any]:
    """First-call probes merged: the worst of the runs for first and max call, the lower for the rest."""
    merged: dict[str, Any] = {}
    for fam in fcs[0] if fcs else {}:
        entry: dict[str, Any] = {"workload": fcs[0][fam].get("workload", "")}
        for label in ("cold", "warm"):
            cells = [fc[fam][label] for fc in fcs if fam in fc and "first_s" in fc[fam].get(label, {})]
            if not cells:
                entry[label] = {"error": "failed in every run"}
                continue
            entry[label] = {
                k: (max if k in ("first_s", "max_s") else min)(c[k] for c in cells)
                for k in cells[0]
                if isinstance(cells[0][k], float | int)
            }
        merged[fam] = entry
    return merged


def combine(paths: list[str]) -> str:
    runs = [json.loads(Path(p).read_text()) for p in paths]
    env = dict(runs[0]["env"])
    runs_note = f" ({len(runs)} runs: lower median per time, median ratio)"
    env["date"] = " / ".join(r["env"]["date"] for r in runs) + runs_note
    env["bandwidth"] = {k: max(r["env"]["bandwidth"][k] for r in runs) for k in env["bandwidth"]}
    env["first_call"] = _first_calls([r["env"].get("first_call") or {} for r in runs])
    layers = sorted({r["env"]["numba_layer"] for r in runs if r["env"].get("numba_layer")})
    env["numba_layer"] = " / ".join(layers)  # different layers in the runs would show here
    env.pop("workloads_s", None)  # one run's wall time: not a combined quantity
    records = []
    for rec in runs[0]["records"]:
        merged = dict(rec)
        # records matched by name (a workload at a size: "gather_rows /16"); one missing from a run is dropped
        others = [o for r in runs for o in r["records"] if o["name"] == rec["name"]]
        if len(others) != len(runs):
            continue
        merged["times"] = {
            k: min((o["times"].get(k) for o in others if o["times"].get(k) is not None), default=None)
            for k in rec["times"]
        }
        merged["checks"] = {k: all(o["checks"].get(k, True) for o in others) for k in rec["checks"]}
        merged["peak_extra_MB"] = max(o["peak_extra_MB"] for o in others)
        if all("ratios" in o for o in others):
            keys = set.intersection(*(set(o["ratios"]) for o in others))
            merged["ratios"] = {k: statistics.median(o["ratios"][k] for o in others) for k in keys}
        records.append(merged)
    return render(env, records, env["threads"])


if __name__ == "__main__":
    sys.stdout.write(combine(sys.argv[1:]))
