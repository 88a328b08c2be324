"""Run generated MXNet code for tests/translate/test_codegen_mxnet.py, inside MXNet's own venv.

MXNet 1.9.1 needs numpy 1.23.5 and cannot be imported next to gatherscatter: the test
writes the generated modules (``code_<k>.py``) and the cases into a folder and runs
``python mxnet_codegen_worker.py DIR`` with the MXNet venv's interpreter.
``DIR/jobs.json`` is a list of ``{"code": "code_3.py", "args": {name: spec}}`` where a
spec is ``{"npy": "a0_1.npy"}``, ``{"tuple": ["a0_2_0.npy", ...]}`` or ``{"ints": [2, 3]}``.
Each argument array becomes an ``mx.nd.array`` of its dtype (a NumPy array when MXNet
lacks the dtype, e.g. int16 indices from a TF source; ``translated`` takes both). The worker writes
``DIR/results.json``: per job ``{"ok": true, "out": "r5.npy"}`` or ``{"ok": false, "error": "..."}``.
This module imports nothing from MXNet at import time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(folder: str) -> int:
    import mxnet as mx
    import numpy as np

    root = Path(folder)
    jobs = json.loads((root / "jobs.json").read_text())
    functions: dict[str, object] = {}
    results = []

    def nd(name: str) -> object:
        a = np.load(root / name)
        try:
            return mx.nd.array(a, dtype=a.dtype)
        except (KeyError, TypeError, ValueError):  # a dtype MXNet lacks (int16 ...): pass the NumPy array
            return a

    for n, job in enumerate(jobs):
        try:
            if job["code"] not in functions:
                namespace: dict[str, object] = {}
                exec(compile((root / job["code"]).read_text(), job["code"], "exec"), namespace)
                functions[job["code"]] = namespace["translated"]
            args = {}
            for k, spec in job["args"].items():
                if "npy" in spec:
                    args[k] = nd(spec["npy"])
                elif "tuple" in spec:
                    args[k] = tuple(nd(x) for x in spec["tuple"])
                else:
                    args[k] = tuple(spec["ints"])
            out = functions[job["code"]](**args)  # type: ignore[operator]
            out = out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)
            name = f"r{n}.npy"
            np.save(root / name, out)
            results.append({"ok": True, "out": name})
        except Exception as exc:  # any MXNet error is a result
            lines = [line for line in str(exc).splitlines() if line.strip()]
            results.append({"ok": False, "error": f"{type(exc).__name__}: {(lines[-1] if lines else '')[:300]}"})
    (root / "results.json").write_text(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
