"""Run MXNet 1.9.1 ops for tests/frameworks/test_mxnet.py, inside MXNet's own venv.

MXNet 1.9.1 needs numpy 1.23.5, so it cannot be imported next to gatherscatter:
the test writes its cases into a folder and runs ``python mxnet_worker.py DIR``
with the MXNet venv's interpreter. ``DIR/cases.json`` is a list of
``{"op": "take", "inputs": ["c0_0.npy", ...], "kwargs": {...}}``; each input is
turned into an ``mx.nd.array`` of the same dtype. The worker writes
``DIR/results.json``: per case ``{"ok": true, "out": "r0.npy"}`` or
``{"ok": false, "error": "..."}``. This module imports nothing from MXNet at
import time (pytest collects it for doctests in the main environment).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(folder: str) -> int:
    import mxnet as mx
    import numpy as np

    root = Path(folder)
    cases = json.loads((root / "cases.json").read_text())
    results = []
    for n, case in enumerate(cases):
        try:
            args = [mx.nd.array(np.load(root / name), dtype=np.load(root / name).dtype) for name in case["inputs"]]
            kwargs = dict(case["kwargs"])
            if "shape" in kwargs:
                kwargs["shape"] = tuple(kwargs["shape"])
            out = getattr(mx.nd, case["op"])(*args, **kwargs).asnumpy()
            name = f"r{n}.npy"
            np.save(root / name, out)
            results.append({"ok": True, "out": name})
        except Exception as exc:  # any MXNet error is a result
            lines = [line for line in str(exc).splitlines() if line.strip()]
            msg = next((line for line in lines if "Check failed" in line or "Error" in line), lines[-1] if lines else "")
            results.append({"ok": False, "error": f"{type(exc).__name__}: {msg.strip()[:300]}"})
    (root / "results.json").write_text(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
