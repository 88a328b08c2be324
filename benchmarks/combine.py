"""Combine several benchmark runs: per workload and peer, the lower of the runs' medians.

    python benchmarks/combine.py results/run1.json results/run2.json > results/combined.md

Noise on a shared machine only ever slows a run down, so the lower median is the better
estimate of a time (the method of ../shared/perf/perf-anchors.md). Ratios, measured side by
side within each run, are the median of the runs' ratios. Checks must hold in every run.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import render


def combine(paths: list[str]) -> str:
    runs = [json.loads(Path(p).read_text()) for p in paths]
    env = dict(runs[0]["env"])
    runs_note = f" ({len(runs)} runs: lower median per time, median ratio)"
    env["date"] = " / ".join(r["env"]["date"] for r in runs) + runs_note
    env["bandwidth"] = {k: max(r["env"]["bandwidth"][k] for r in runs) for k in env["bandwidth"]}
    records = []
    for i, rec in enumerate(runs[0]["records"]):
        merged = dict(rec)
        others = [r["records"][i] for r in runs]
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
