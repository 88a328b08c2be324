"""Ops called from many threads at once give what sequential calls give, bit for bit.

A few hundred mixed calls (every registered op, small and large inputs, and
every failing call of the error-quality table) run first one after the other,
then shuffled on a pool of 8 threads, on both backends and with
``gs.set_num_threads`` changed before and during the run. Each concurrent call
must return the same bytes, dtype and shape, or raise the same error class with
the same message, as its sequential run; no input may be modified.

A second test starts a fresh interpreter whose first calls are concurrent (the
lazy numba import and kernel compilation happen under contention), with numba's
``workqueue`` threading layer, which aborts the process on concurrent parallel
launches unless gatherscatter serialises them.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter import backends
from tests.conftest import BACKENDS, has

from .cases import CASES
from .test_errors import ROWS

Outcome = tuple[str, Any, Any, Any]


def _outcome(call: Callable[[], Any]) -> Outcome:
    try:
        out = call()
    except gs.GatherScatterError as exc:
        return ("error", type(exc).__name__, str(exc), None)
    if out is None:
        return ("none", None, None, None)
    arr = np.asarray(out)
    return ("ok", arr.dtype.str, arr.shape, _digest(arr))


def _digest(arr: np.ndarray[Any, Any]) -> str:
    """An array's bytes by their SHA-256: bit for bit, without holding a copy of every input and result."""
    data = repr(arr.tolist()).encode() if arr.dtype.kind == "O" else np.ascontiguousarray(arr).view(np.uint8)
    return hashlib.sha256(data).hexdigest()


def _inputs(args: Any) -> list[np.ndarray[Any, Any]]:
    if isinstance(args, np.ndarray):
        return [args]
    if isinstance(args, (tuple, list)):
        return [a for x in args for a in _inputs(x)]
    if isinstance(args, dict):
        return [a for x in args.values() for a in _inputs(x)]
    return []


def _calls() -> tuple[list[Callable[[], Any]], list[tuple[np.ndarray[Any, Any], str]]]:
    """The mixed workload, and (input, digest of its pristine bytes) pairs to check afterwards."""
    rng = np.random.default_rng(7)
    calls: list[Callable[[], Any]] = []
    inputs = []
    for name, lst in CASES.items():
        op = gs.get_op(name)
        for i, (_, make) in enumerate(lst):
            # every case small; one in four also large (above the 1 MB multi-thread threshold)
            for side in (6, 512) if i % 4 == 0 else (6,):
                args, kwargs = make(rng, side)
                inputs += [(a, _digest(a)) for a in _inputs((args, kwargs))]
                calls.append(lambda op=op, args=args, kwargs=kwargs: op(*args, **kwargs))
    calls += [row.call for row in ROWS]
    return calls, inputs


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Any:
    saved = backends._threads
    backends.set_backend(request.param)
    try:
        yield request.param
    finally:
        backends.set_backend("auto")
        backends._threads = saved


def test_concurrent_calls_match_sequential(backend: str) -> None:
    calls, inputs = _calls()
    assert len(calls) > 300
    gs.set_num_threads(1)
    expected = [_outcome(c) for c in calls]
    assert sum(e[0] == "error" for e in expected) >= len(ROWS)

    def set_threads(n: int) -> Callable[[], None]:
        return lambda: gs.set_num_threads(n)

    filters = list(warnings.filters)
    for threads in (1, 2):
        gs.set_num_threads(threads)
        order = list(range(len(calls))) * 2
        random.Random(threads).shuffle(order)
        jobs: list[tuple[int, Callable[[], Any]]] = [(k, calls[k]) for k in order]
        # change the (process-wide) kernel thread count while calls are running
        for pos, n in ((len(jobs) // 3, 2), (2 * len(jobs) // 3, 1)):
            jobs.insert(pos, (-1, set_threads(n)))
        with ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(lambda job: (job[0], _outcome(job[1])), jobs))
        for k, outcome in got:
            if k < 0:
                continue
            assert outcome == expected[k], f"call {k} on {backend} ({threads} kernel threads): {outcome[:3]} != {expected[k][:3]}"
    assert list(warnings.filters) == filters, "an op changed the process-wide warning filters"
    for arr, pristine in inputs:
        assert _digest(arr) == pristine, "an op modified its input"


_COLD = textwrap.dedent(
    """
    import numpy as np, gatherscatter as gs
    from concurrent.futures import ThreadPoolExecutor
    gs.set_backend("numba")
    from gatherscatter import backends
    backends.PARALLEL_BYTES = 0  # every call on the parallel kernels (small calls take their serial forms)
    rng = np.random.default_rng(0)
    x = rng.random((600, 600)).astype(np.float32)
    i = rng.integers(0, 600, (600, 600))
    t = rng.integers(0, 600, (50000, 2))
    calls = [
        lambda: gs.torch.gather(x, 1, i),
        lambda: gs.torch.scatter_add(x, 0, i, x),
        lambda: gs.onnx.GatherND(x, t),
        lambda: gs.onnx.ScatterND(x, t, np.ones(50000, np.float32), reduction="add"),
        lambda: gs.take(x, i[0], axis=1),
        lambda: gs.tensorflow.gather(x, i[:, :5], axis=1, batch_dims=1),
    ] * 8
    with ThreadPoolExecutor(8) as pool:                      # first calls: concurrent, cold
        got = list(pool.map(lambda c: c(), calls))
    want = [c() for c in calls]                              # then sequential
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
    import numba
    print("OK", numba.threading_layer())
    """
)


@pytest.mark.skipif(not has("numba"), reason="numba not installed")
@pytest.mark.parametrize("layer", ["default", "workqueue"])
def test_cold_concurrent_start(layer: str) -> None:
    env = dict(os.environ, NUMBA_THREADING_LAYER=layer)
    src = str(Path(gs.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-c", _COLD], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("OK")
    if layer == "workqueue":
        assert "workqueue" in proc.stdout


def test_ops_leave_the_warning_filters_alone() -> None:
    """Casts that NumPy warns about (complex -> real) must not touch the process-wide warning filters.

    ``warnings.catch_warnings`` swaps that global list: two threads inside it at
    once can restore each other's state and leave ``ignore`` filters behind.
    """
    filters = list(warnings.filters)
    a = np.zeros(20000)
    idx = np.arange(20000)[::-1].copy()
    b = np.full(20000, 1 + 2j)
    want = np.ones(20000)  # NumPy: the add runs in complex, the result is cast back (real part)

    def work(_: int) -> bool:
        ok = True
        for _ in range(20):
            ok &= bool(np.array_equal(gs.numpy.add_at(a, idx, b), want))
            ok &= gs.numpy.put_along_axis(a[:3], np.array([1]), [np.complex64(2 + 1j)], axis=0).tolist() == [0, 2, 0]
        return ok

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(work, range(32)))
    assert list(warnings.filters) == filters
