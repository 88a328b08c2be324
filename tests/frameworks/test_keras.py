"""gs.keras against Keras 3 with each backend (opt-in: ``pytest -m keras``; needs keras and every backend).

Each backend runs in its own subprocess (KERAS_BACKEND is read at import): random calls of every op are sent
to ``keras_worker.py``; values and dtype must agree, or both sides must raise. ``-s`` shows the tallies.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.keras]
WORKER = Path(__file__).with_name("keras_worker.py")
N = 25


def _cases() -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    rng = np.random.default_rng(18)
    out: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    for k in range(N):
        dt = ("float32", "int32", "float64", "int64")[k % 4]
        x = rng.integers(-5, 6, (2, 3)).astype(dt)
        out.append(("take", (x, rng.integers(-4, 4, 2)), {"axis": 1}))
        out.append(("take", (x, rng.integers(-7, 7, 3)), {}))
        out.append(("take_along_axis", (x, rng.integers(-4, 5, (2, 2))), {"axis": 1}))
        idx = rng.integers(-5, 5 if k % 3 else 4, (3, 1))
        out.append(("scatter", (idx, rng.integers(-5, 5, 3).astype(dt), (4,)), {}))
        out.append(("scatter_update", (np.zeros(4, dt), idx, rng.integers(-5, 5, 3).astype(dt)), {}))
        ids = rng.integers(-1, 5, 5)
        data = rng.integers(-5, 5, (5, 2)).astype(dt)
        for op in ("segment_sum", "segment_max"):
            out.append((op, (data, ids), {"num_segments": 5}))
            out.append((op, (data, np.sort(np.abs(ids))), {"sorted": True}))
            out.append((op, (data, np.abs(ids)), {}))
        # indices that are not 2-D (each backend reads them its own way, or raises), 64-bit values near 2**40
        a, b = 2 + k % 2, 3 - k % 2
        z = np.zeros((4, 3), dt)  # (the numpy backend writes into it: each call gets a copy)
        out.append(("scatter_update", (z.copy(), rng.integers(0, 3, (a, b, 2)), rng.integers(-5, 5, (a, b)).astype(dt)), {}))
        out.append(("scatter_update", (z.copy(), rng.integers(0, 3, (b, a, 2)), rng.integers(-5, 5, (a, b)).astype(dt)), {}))
        out.append(("scatter_update", (z.copy(), rng.integers(0, 3, (2, 2, 1)), rng.integers(-5, 5, (2, 2, 3)).astype(dt)), {}))
        out.append(("scatter_update", (z.copy(), rng.integers(0, 3, (2,)), rng.integers(-5, 5, ()).astype(dt)), {}))
        out.append(("scatter_update", (z.copy(), rng.integers(0, 3, (1,)), rng.integers(-5, 5, (3,)).astype(dt)), {}))
        out.append(("scatter", (rng.integers(0, 3, (2,)), rng.integers(-5, 5, ()).astype(dt), (4, 3)), {}))
        out.append(("scatter", (rng.integers(0, 3, (2, 2, 1)), rng.integers(-5, 5, (2, 2, 3)).astype(dt), (4, 3)), {}))
        big = np.array([2**40 + k, 3]).astype(dt)
        out += [("take", (big, np.array([0, 1])), {}), ("take_along_axis", (big, np.array([1, 0])), {"axis": 0}),
                ("scatter", (np.array([[1]]), big[:1] + 2, (2,)), {}),
                ("scatter_update", (big.copy(), np.array([[1]]), big[:1] + 2), {}),
                ("segment_sum", (big, np.array([1, 1]), 2), {}), ("segment_max", (big, np.array([1, 1]), 3), {})]
    return out


@pytest.mark.parametrize("backend", ["jax", "tensorflow", "torch", "numpy"])
def test_keras_ops_match_keras(backend: str) -> None:
    pytest.importorskip("keras")
    cases = _cases()
    env = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, str(WORKER)], input=pickle.dumps(cases), capture_output=True, env=env,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    results = pickle.loads(proc.stdout)
    agree = both = 0
    bad: list[str] = []
    for (op, args, kwargs), want in zip(cases, results, strict=True):
        ours = getattr(gs.keras, op)
        if isinstance(want, str):
            with pytest.raises(gs.GatherScatterError):
                ours(*args, **kwargs, backend=backend)
            both += 1
            continue
        try:
            got = ours(*args, **kwargs, backend=backend)
        except gs.GatherScatterError as exc:
            bad.append(f"{op} {kwargs} raised {exc}; keras gave {want!r}")
            continue
        if got.dtype != want.dtype or not np.array_equal(got, want, equal_nan=got.dtype.kind == "f"):
            bad.append(f"{op} {args} {kwargs}: ours {got!r}, keras {want!r}")
            continue
        agree += 1
    print(f"keras backend={backend}: {agree} agree, {both} both raise")
    assert not bad, "\n".join(bad[:10])
