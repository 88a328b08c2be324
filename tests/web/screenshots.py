"""Screenshots of the explorer's main views for docs/web/, and its load and response times.

    PYTHONPATH=src python -m tests.web.screenshots [--out docs/web] [--repeat 20]

Starts the explorer on a free loopback port, drives the distribution's Chromium at a
laptop width (1366 px) and a phone width (390 px), saves one PNG per view, then times
the page load (navigation to the first picture drawn) and each API endpoint (median
and slowest of ``--repeat`` calls from Python). Not a test: run it when the page changes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
from pathlib import Path
from typing import Any

from .harness import LAPTOP, PHONE, browser, serve, wait_ready

GATHER = "/?op=torch.gather&a.input=[[1,2,3],[4,5,6]]&a.index=[[2,0],[1,1]]&a.dim=1"
SCATTER = "/?op=onnx.ScatterND&a.data=[1,2,3,4,5,6,7,8]&a.indices=[[4],[3],[1],[7],[3]]&a.updates=[9,10,11,12,13]"
VIEWS = [
    ("picture", GATHER),
    ("compare", SCATTER + "&tab=compare"),
    ("table", GATHER + "&tab=table"),
    ("translate", "/?op=torch.scatter_reduce&a.input=[0,0,0]&a.index=[0,0,2]&a.src=[1,2,3]&a.dim=0&a.reduce=%22mean%22"
                  "&tab=translate&to=onnx"),
    ("error", "/?op=onnx.Gather&a.data=[10,20,30]&a.indices=[0,3]"),
    ("compare-ops", GATHER + "&tab=compare&cmp=onnx.Gather,onnx.GatherElements,numpy.take_along_axis"),
]


def _settle(page: Any, view: str) -> None:
    wait_ready(page)
    sel = {"compare": "#compare .group", "compare-ops": "#compare .group", "table": "#table table", "translate": "#translation .steps",
           "error": "#error:not([hidden])"}.get(view)
    if sel:
        page.wait_for_selector(sel)
    if view == "translate":
        page.click("#verify")
        page.wait_for_selector("#translation .verify [data-ok]")
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def screenshots(base: str, out: Path, chrome: Any) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    for size_name, size in (("laptop", LAPTOP), ("phone", PHONE)):
        ctx = chrome.new_context(viewport=size, device_scale_factor=1)
        page = ctx.new_page()
        for view, url in VIEWS:
            if size_name == "phone" and view in ("table", "error", "compare-ops"):
                continue
            page.goto(base + url)
            _settle(page, view)
            if size_name == "phone":  # the results come below the inputs on a phone
                page.evaluate("() => document.getElementById('results').scrollIntoView()")
            path = out / f"{view}-{size_name}.png"
            full = size_name == "laptop" and view in ("compare", "translate", "compare-ops")
            page.screenshot(path=str(path), full_page=full)
            saved.append(path)
        ctx.close()
    return saved


def page_load(base: str, chrome: Any, n: int) -> tuple[list[float], list[float]]:
    """Seconds from navigation start to the first picture: as the page measures it, and as Python sees it."""
    inside, outside = [], []
    for _ in range(n):
        ctx = chrome.new_context(viewport=LAPTOP)
        page = ctx.new_page()
        t = time.perf_counter()
        page.goto(base + GATHER)
        page.wait_for_selector("body[data-ready=true]", state="attached")
        outside.append(time.perf_counter() - t)
        inside.append(float(page.get_attribute("body", "data-ready-ms") or "nan") / 1000)
        ctx.close()
    return inside, outside


def api_times(base: str, n: int) -> dict[str, list[float]]:
    calls: list[tuple[str, str, Any]] = [
        ("GET /api/ops", "/api/ops", None),
        ("GET /api/ops/{op}", "/api/ops/torch.scatter_reduce", None),
        ("POST /api/explain", "/api/explain", {"op": "torch.gather", "args": {"input": [[1, 2, 3], [4, 5, 6]],
                                                                            "index": [[2, 0], [1, 1]], "dim": 1}}),
        ("POST /api/compare", "/api/compare", {"op": "onnx.ScatterND", "args": {"data": [1, 2, 3, 4],
                                                                              "indices": [[1], [1]],
                                                                              "updates": [5, 6]}}),
        ("POST /api/compare (4 ops, 3 families)", "/api/compare", {
            "op": "torch.gather", "ops": ["onnx.Gather", "onnx.GatherElements", "numpy.take_along_axis"],
            "args": {"input": [[1, 2, 3], [4, 5, 6]], "index": [[2, 0], [1, 1]], "dim": 1}}),
        ("GET /api/table (gather_nd)", "/api/table?family=gather_nd", None),
        ("POST /api/translate", "/api/translate", {"op": "torch.scatter_reduce", "to": "onnx",
                                                   "attrs": {"dim": 0, "reduce": "mean"}}),
        ("POST /api/translate verify=200", "/api/translate", {"op": "torch.scatter_reduce", "to": "onnx",
                                                              "attrs": {"dim": 0, "reduce": "mean"}, "verify": 200}),
    ]
    out: dict[str, list[float]] = {}
    for name, path, body in calls:
        times = []
        for _ in range(n):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
            t = time.perf_counter()
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read()
            times.append(time.perf_counter() - t)
        out[name] = times
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="docs/web")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    with serve(processes=2) as base, browser() as chrome:
        for path in screenshots(base, Path(args.out), chrome):
            print("wrote", path)
        inside, outside = page_load(base, chrome, max(5, args.repeat // 2))
        for name, loads in (("in the page", inside), ("from Python, new browser context included", outside)):
            print(f"page load to first picture ({name}): median {statistics.median(loads) * 1000:.0f} ms, "
                  f"slowest {max(loads) * 1000:.0f} ms ({len(loads)} loads)")
        for name, times in api_times(base, args.repeat).items():
            print(f"{name}: median {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
