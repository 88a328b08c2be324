"""gatherscatter.tensorflow against a real TensorFlow 2.21 (opt-in: ``pytest -m tensorflow``).

Every case runs twice in TensorFlow: eagerly on the CPU (``device='cpu'``) and
inside ``tf.function(jit_compile=True)`` (``device='xla'``, XLA on the CPU).
GPU behaviour cannot be checked here (no GPU); it is covered by the oracle
tests in tests/dialects/tensorflow.

Each case must agree value for value, in dtype and in shape, or both sides must
raise. TensorFlow returns strings as ``bytes`` objects: our ``str`` results are
encoded before comparing. A few recorded divergences are checked the other way
round: TensorFlow must still do what the record says.

TensorFlow runs in a spawned worker process and is never imported by pytest
itself: TF aborts the process on a few inputs (XLA ``gather_nd`` with
``bad_indices_policy='IGNORE'`` and empty index tuples), and importing paddle
after tensorflow in one process segfaults (docs/behavior-matrix.md#s3). When TF
crashes, the case is counted and gatherscatter's documented answer stands. Run
``python -m pytest -m tensorflow tests/frameworks/test_tensorflow.py -s`` to see
the tallies.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import multiprocessing
import os
import warnings
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.tensorflow]

N_RANDOM = 120  # random cases per op family and device
Case = tuple[str, str, tuple[Any, ...], dict[str, Any]]


# ---------------------------------------------------------------------------------------------
# the worker: runs TensorFlow in a spawned process (TF aborts the process on some inputs)


def _tf_call(tf: Any, op: str, device: str, args: tuple[Any, ...], kw: dict[str, Any]) -> np.ndarray[Any, Any]:
    """Run ``op`` in TensorFlow: arrays are traced inputs, everything else is a constant."""
    arrays = [a for a in args if isinstance(a, np.ndarray)]

    def body(*tensors: Any) -> Any:
        it = iter(tensors)
        real = [next(it) if isinstance(a, np.ndarray) else a for a in args]
        return getattr(tf, op)(*real, **kw)

    if device == "xla":
        out = tf.function(body, jit_compile=True)(*arrays)
    else:
        with tf.device("/CPU:0"):
            out = body(*arrays)
    return np.asarray(out.numpy())


def run_tf_case(op: str, device: str, args: tuple[Any, ...], kw: dict[str, Any]) -> tuple[str, Any]:
    """Worker entry point: ``("ok", array)`` or ``("error", message)``."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import tensorflow as tf

        tf.get_logger().setLevel("ERROR")
        try:
            return ("ok", _tf_call(tf, op, device, args, kw))
        except Exception as exc:  # InvalidArgumentError, ValueError, TypeError, NotFoundError ...
            return ("error", f"{type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}")


class Worker:
    """One spawned TensorFlow process, restarted after a crash."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None

    def run(self, case: Case) -> tuple[str, Any]:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self.pool.submit(run_tf_case, *case).result(timeout=600)
        except BrokenProcessPool:
            self.pool = None
            return ("crash", None)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def _tf_version() -> str | None:
    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


@pytest.fixture(scope="module")
def tf_worker():
    """The TensorFlow worker (TensorFlow itself is never imported in the pytest process)."""
    version = _tf_version()
    if version is None or importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    if not version.startswith("2.21"):
        pytest.skip(f"these comparisons pin TensorFlow 2.21 (found {version})")
    worker = Worker()
    yield worker
    worker.close()


COUNTS: Counter[str] = Counter()
CRASHES: list[str] = []


def _ours(op: str, device: str, args: tuple[Any, ...], kw: dict[str, Any]) -> np.ndarray[Any, Any]:
    return getattr(gs.tensorflow, op)(*args, **dict(kw, device=device))


def _as_tf(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Our result in TF's representation (strings as bytes objects)."""
    if x.dtype.kind in "USO":
        return np.array([v.encode() if isinstance(v, str) else v for v in x.reshape(-1)], dtype=object).reshape(x.shape)
    return x


def recorded_divergence(case: Case) -> str | None:
    """The recorded XLA divergence (gs.divergences('tensorflow.*')) a case falls under, if any."""
    op, device, args, kw = case
    if device != "xla":
        return None
    if op == "gather":
        p, i = args
        ax = kw.get("axis", kw.get("batch_dims", 0))
        if p.ndim and -p.ndim <= ax < p.ndim and p.shape[ax] == 0 and i.size:
            return "xla-empty-axis"  # TF: zeros of a wrong shape
    if op == "gather_nd":
        p, i = args
        if p.size == 0 and i.ndim and int(np.prod(i.shape[:-1])):
            return "xla-empty-params"  # TF: zeros of a wrong shape, or an error
        if kw.get("bad_indices_policy") == "IGNORE":
            return "xla-ignore-broken"  # TF: fails to compile (or aborts) for some shapes
    if op == "scatter_nd" or (op.startswith("tensor_scatter_nd_") and op != "tensor_scatter_nd_update"):
        i, dims = (args[0], tuple(args[2])) if op == "scatter_nd" else (args[1], args[0].shape)
        if i.ndim >= 2 and i.shape[-1] == 0 and int(np.prod(dims)) == 1 and int(np.prod(i.shape[:-1])) > 1:
            return "xla-k0-one-element"  # TF: only the last update applies
    return None


def compare(worker: Worker, case: Case) -> None:
    """TensorFlow and gatherscatter agree (value, dtype, shape), or both raise."""
    op, device, args, kw = case
    status, theirs = worker.run(case)
    try:
        ours = _ours(op, device, args, kw)
        our_err = None
    except gs.GatherScatterError as exc:
        ours, our_err = None, exc
    known = recorded_divergence(case)
    if known is not None and our_err is None:
        differs = status != "ok" or _as_tf(ours).shape != theirs.shape or not np.array_equal(_as_tf(ours), theirs)
        if differs and (status != "ok" or known != "xla-ignore-broken"):
            # a recorded divergence: we give the documented result where XLA errs, crashes or differs
            COUNTS[f"recorded divergence ({known})"] += 1
            return
    if status == "crash":
        # TensorFlow killed its process: gatherscatter gives the documented answer (or a clear error)
        COUNTS["tensorflow crashed"] += 1
        CRASHES.append(_id(case))
        return
    if status == "error" or our_err is not None:
        assert status == "error", f"TensorFlow returned {theirs!r} where we raise {our_err!r}"
        assert our_err is not None, f"we return {ours!r} where TensorFlow raises {theirs}"
        if "is not in [0," in theirs or "does not index into" in theirs:  # TF's bad-index messages
            assert isinstance(our_err, gs.IndexOutOfRangeError), f"{our_err!r} for TF's {theirs}"
        COUNTS["both raise"] += 1
        return
    assert ours is not None
    ours = _as_tf(ours)
    assert ours.shape == theirs.shape, f"shape {ours.shape} != TF {theirs.shape}"
    if ours.dtype.kind != "O":
        assert ours.dtype == theirs.dtype, f"dtype {ours.dtype} != TF {theirs.dtype}"
    np.testing.assert_array_equal(ours, theirs, strict=ours.dtype.kind != "O")
    COUNTS["values compared"] += 1


# ---------------------------------------------------------------------------------------------
# hand-picked edge cases (docs/behavior-matrix.md#t6-1, docs/behavior-matrix.md#t6-3, docs/behavior-matrix.md#t6-5,
# docs/behavior-matrix.md#t6-7 and the probes behind the divergences)

I64, I32, I16 = np.int64, np.int32, np.int16
F32 = np.float32
V = np.array([10.0, 20.0, 30.0], F32)
M = np.arange(1, 10, dtype=F32).reshape(3, 3)
A = np.arange(24).reshape(2, 3, 4)


def a(x: Any, dtype: Any = I64) -> np.ndarray[Any, Any]:
    return np.array(x, dtype)


EDGE: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("gather", (V, a([0, -1])), {}),
    ("gather", (V, a([0, 3])), {}),
    ("gather", (V, a([0, -4])), {}),
    ("gather", (V, a([[0, 1], [3, 0]])), {}),
    ("gather", (V, a(5)), {}),
    ("gather", (V, a(-1)), {}),
    ("gather", (V, a(1)), {}),
    ("gather", (np.zeros((3, 2), F32), a([], I64)), {}),
    ("gather", (np.zeros((3, 0), F32), a([5])), {}),
    ("gather", (np.zeros((0, 3), F32), a([5])), dict(axis=1)),
    ("gather", (V, a([2, 0], I16)), {}),
    ("gather", (V, a([2, 0], np.int8)), {}),
    ("gather", (V, a([2, 0], np.uint16)), {}),
    ("gather", (np.array([b"a", b"bc", b"d"], object), a([2, 0])), {}),
    ("gather", (np.array(["a", "bc", "d"]), a([2, 0, 2])), {}),
    ("gather", (A, a([[0, 1], [1, 3]])), dict(axis=2, batch_dims=1)),
    ("gather", (A, a([[-5, 9], [2, -1]])), dict(axis=2, batch_dims=1)),
    ("gather", (A, a([[-5, 9], [2, -1]], I32)), dict(axis=2, batch_dims=1)),
    ("gather", (A, a([[-1, 0], [5, 2]])), dict(axis=1, batch_dims=1)),
    ("gather", (A, a([[[-1], [0], [1]], [[4], [3], [-100]]])), dict(axis=2, batch_dims=2)),
    ("gather", (A, np.zeros((2, 5), I64)), dict(batch_dims=-1)),
    ("gather", (A, np.zeros((2, 3, 5), I64)), dict(batch_dims=-2)),
    ("gather", (A, np.zeros((2, 5), I64)), dict(axis=0, batch_dims=1)),
    ("gather", (A, np.zeros((2, 5), I64)), dict(axis=0, batch_dims=5)),
    ("gather", (A, np.zeros((2, 5), I64)), dict(axis=-3, batch_dims=1)),
    ("gather", (A, np.zeros((2, 3), I64)), dict(axis=1, batch_dims=2)),
    ("gather", (A, np.zeros((2, 3, 4), I64)), dict(batch_dims=3)),
    ("gather", (A, np.zeros((2, 3, 4), I64)), dict(axis=2, batch_dims=3)),
    ("gather", (A, np.zeros((2,), I64)), dict(axis=1, batch_dims=-1)),
    ("gather", (np.arange(6).reshape(2, 3), a(0)), dict(batch_dims=-1)),
    ("gather", (np.arange(6).reshape(2, 3), a([[0], [1]])), dict(axis=1, batch_dims=1)),
    ("gather", (np.arange(6).reshape(2, 3), a([[-1, 3], [-4, 1]])), dict(batch_dims=-1)),
    ("gather", (np.float32(3), a([0])), {}),
    ("gather", (V, a([0])), dict(axis=1)),
    ("gather", (V, a([0])), dict(axis=-2)),
    ("gather_nd", (M, a([[0, 0], [-1, 0]])), {}),
    ("gather_nd", (M, a([[0, 0], [3, 0]])), {}),
    ("gather_nd", (M, a([[0, 0], [-4, 0]])), {}),
    ("gather_nd", (M, a([[0, 0], [0, 3]])), {}),
    ("gather_nd", (M, a([[1]])), {}),
    ("gather_nd", (M, a([[5]])), {}),
    ("gather_nd", (M, a([[-1]])), {}),
    ("gather_nd", (M, a([0, -1])), {}),
    ("gather_nd", (M, a([[[0, 5]]])), {}),
    ("gather_nd", (M, np.zeros((2, 0), I64)), {}),
    ("gather_nd", (M, np.zeros((0,), I64)), {}),
    ("gather_nd", (M, np.zeros((0, 2), I64)), {}),
    ("gather_nd", (M, a([[1, 1]], I16)), {}),
    ("gather_nd", (M, a([[1, 1]], np.uint16)), {}),
    ("gather_nd", (M, a(0)), {}),
    ("gather_nd", (M, np.zeros((2, 3), I64)), {}),
    ("gather_nd", (np.float32(1), np.zeros((2, 0), I64)), {}),
    ("gather_nd", (np.zeros((0, 3), F32), np.zeros((2, 1), I64)), {}),
    ("gather_nd", (np.zeros((0, 3), F32), np.zeros((0, 1), I64)), {}),
    ("gather_nd", (np.zeros((3, 0), F32), a([[1]])), {}),
    ("gather_nd", (np.array([[b"a", b"b"], [b"c", b"d"]], object), a([[0, 0], [1, 1]])), {}),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[1], [0]])), dict(batch_dims=1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[1], [-1]])), dict(batch_dims=1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[[1, 0]], [[1, 2]]])), dict(batch_dims=1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[1], [0]])), dict(batch_dims=-1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[[1], [0]], [[0], [1]]])), dict(batch_dims=2)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), np.zeros((2, 2, 0), I64)), dict(batch_dims=2)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), np.zeros((2, 2, 2, 0), I64)), dict(batch_dims=3)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), np.zeros((2, 2), I64)), dict(batch_dims=2)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), np.zeros((3, 1), I64)), dict(batch_dims=1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[-1], [5]])), dict(batch_dims=1)),
    ("gather_nd", (np.arange(8).reshape(2, 2, 2), a([[-1, 0], [5, -3]], I32)), dict(batch_dims=1)),
    ("gather_nd", (np.zeros((2, 3)), np.zeros((2, 0, 1), I64)), dict(batch_dims=1)),
    ("scatter_nd", (a([[4], [3], [1], [7]]), a([9, 10, 11, 12], F32), [8]), {}),
    ("scatter_nd", (a([[1], [1], [1]]), a([10, 20, 30], F32), [4]), {}),
    ("scatter_nd", (a([[-1]]), a([9], F32), [3]), {}),
    ("scatter_nd", (a([[3]]), a([9], F32), [3]), {}),
    ("scatter_nd", (a([[0], [5]]), a([9, 8], F32), [3]), {}),
    ("scatter_nd", (a([[1], [1]]), np.array([True, True]), [3]), {}),
    ("scatter_nd", (a([[1], [1], [0]]), np.array([b"a", b"b", b"c"], object), [3]), {}),
    ("scatter_nd", (a([[1], [1]]), a([100, 100], np.int8), [3]), {}),
    ("scatter_nd", (a([[1], [1]]), a([200, 100], np.uint8), [3]), {}),
    ("scatter_nd", (a([[1]], I32), a([9], F32), [3]), {}),
    ("scatter_nd", (a([[1]], I16), a([9], F32), [3]), {}),
    ("scatter_nd", (a([[1]]), a([9], F32), [-3]), {}),
    ("scatter_nd", (np.zeros((2, 0), I64), np.ones((2, 3), F32), [3]), {}),
    ("scatter_nd", (np.zeros((2, 0), I64), np.ones((2, 2, 3), F32), [2, 3]), {}),
    ("scatter_nd", (np.zeros((0, 1), I64), np.zeros((0,), F32), [3]), {}),
    ("scatter_nd", (a([1, 2]), a([5, 6], F32), [3]), {}),
    ("scatter_nd", (a([1]), a([5, 6, 7], F32), [3, 3]), {}),
    ("scatter_nd", (a([[1]]), a([5, 6], F32), [3]), {}),
    ("scatter_nd", (a([[1, 2]]), a([5], F32), [3]), {}),
    ("scatter_nd", (a([[0]]), a([5], F32), [0]), {}),
    ("scatter_nd", (a([[0]]), np.zeros((1, 0), F32), [3, 0]), {}),
    ("scatter_nd", (a([[0], [2]]), np.ones((2, 4, 4), F32), [4, 4, 4]), {}),
    ("tensor_scatter_nd_update", (V, a([[-1]]), a([9], F32)), {}),
    ("tensor_scatter_nd_update", (V, a([[3]]), a([9], F32)), {}),
    ("tensor_scatter_nd_update", (V, a([[0], [5]]), a([9, 8], F32)), {}),
    ("tensor_scatter_nd_update", (np.zeros(4), a([[1], [1], [1]]), a([10, 20, 30], float)), {}),
    ("tensor_scatter_nd_update", (V, a([[1]], I16), a([9], F32)), {}),
    ("tensor_scatter_nd_update", (V, a([[1]], np.uint16), a([9], F32)), {}),
    ("tensor_scatter_nd_update", (V, a([[1]], np.int8), a([9], F32)), {}),
    ("tensor_scatter_nd_update", (np.array([b"a", b"b"], object), a([[1]]), np.array([b"z"], object)), {}),
    ("tensor_scatter_nd_update", (np.zeros((2, 3)), np.zeros((2, 0), I64), np.ones((2, 2, 3))), {}),
    ("tensor_scatter_nd_update", (np.zeros((3, 3), F32), a([1, 2]), np.array(5.0, F32)), {}),
    ("tensor_scatter_nd_update", (np.zeros(3, F32), a([1]), np.array(5.0, F32)), {}),
    ("tensor_scatter_nd_update", (np.zeros(3, F32), a([1]), a([5.0], F32)), {}),
    ("tensor_scatter_nd_update", (np.zeros((3, 3), F32), a([1]), a([5, 6, 7], F32)), {}),
    ("tensor_scatter_nd_update", (np.zeros((0, 3)), a([[0]]), np.ones((1, 3))), {}),
    ("tensor_scatter_nd_update", (np.zeros((2, 3)), np.zeros((0, 1), I64), np.ones((0, 3))), {}),
    ("tensor_scatter_nd_update", (np.zeros((2, 3)), a([[1]]), np.ones((1, 4))), {}),
    ("tensor_scatter_nd_update", (np.zeros((2, 3)), a([[1, 1, 1]]), np.ones((1,))), {}),
    ("tensor_scatter_nd_add", (a([1, 1, 1, 1], I32), a([[1], [1], [2]]), a([10, 20, 30], I32)), {}),
    ("tensor_scatter_nd_add", (V, a([[0], [5], [-1]]), a([9, 8, 7], F32)), dict(bad_indices_policy="IGNORE")),
    ("tensor_scatter_nd_add", (V, a([[0], [5], [-1]]), a([9, 8, 7], F32)), dict(bad_indices_policy="ERROR")),
    ("tensor_scatter_nd_add", (np.array([True, False, False]), a([[1], [1], [0]]), np.array([True, True, False])), {}),
    ("tensor_scatter_nd_add", (np.zeros((2, 3)), np.zeros((2, 0), I64), np.ones((2, 2, 3))), {}),
    ("tensor_scatter_nd_add", (V, a([[1]], I16), a([9], F32)), {}),
    ("tensor_scatter_nd_sub", (a([5, 5, 5], I32), a([[0], [0]]), a([2, 3], I32)), {}),
    ("tensor_scatter_nd_sub", (V, a([[0], [5]]), a([9, 8], F32)), dict(bad_indices_policy="IGNORE")),
    ("tensor_scatter_nd_min", (a([5, 5, 5, 5], I32), a([[0], [0], [2]]), a([2, 4, 7], I32)), {}),
    ("tensor_scatter_nd_min", (np.array([1.0, np.nan, 3.0]), a([[0], [1], [2]]), np.array([np.nan, 5.0, 1.0])), {}),
    ("tensor_scatter_nd_min", (np.array([True, False, True]), a([[1], [2], [0]]), np.array([True, True, False])), {}),
    ("tensor_scatter_nd_max", (a([5, 5, 5, 5], I32), a([[0], [0], [2]]), a([2, 4, 7], I32)), {}),
    ("tensor_scatter_nd_max", (np.array([1.0, np.nan, 3.0]), a([[0], [1], [2]]), np.array([np.nan, 5.0, 1.0])), {}),
    ("tensor_scatter_nd_max", (np.array([True, False, False]), a([[1], [1], [0]]), np.array([True, True, False])), {}),
]
# cases whose XLA behaviour is a recorded divergence (checked by the tests at the end instead)
CPU_ONLY = [
    ("gather", (np.arange(12).reshape(3, 4), a([[0], [1]])), dict(axis=1, batch_dims=1)),
    ("tensor_scatter_nd_max", (np.array([1 + 1j]), a([[0]]), np.array([2 + 0j])), {}),
]
EDGE_CASES: list[Case] = [(op, dev, args, kw) for op, args, kw in EDGE for dev in ("cpu", "xla")]
EDGE_CASES += [(op, "cpu", args, kw) for op, args, kw in CPU_ONLY]


# ---------------------------------------------------------------------------------------------
# random cases (numpy RNG, fixed seed): small shapes, mixed dtypes, negative / duplicate / out-of-range indices

_DATA = [np.float32, np.float64, np.int32, np.int64, np.bool_, np.complex64, np.float16, np.uint8]


def _shape(rng: np.random.Generator, lo: int, hi: int, side_lo: int = 0, side_hi: int = 4) -> tuple[int, ...]:
    return tuple(int(x) for x in rng.integers(side_lo, side_hi + 1, size=int(rng.integers(lo, hi + 1))))


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    if dtype == "str":
        return np.array([chr(97 + int(v)) for v in rng.integers(0, 26, n)], dtype="<U1").reshape(shape)
    base = rng.integers(-5, 9, n).reshape(shape)
    if np.dtype(dtype).kind == "u":
        base = np.abs(base)
    if np.dtype(dtype).kind == "c":
        return (base + 1j * rng.integers(-3, 3, n).reshape(shape)).astype(dtype)
    return base.astype(dtype)


def _indices(rng: np.random.Generator, shape: tuple[int, ...], size: int, bad: float, dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    vals = rng.integers(0, max(size, 1), n)
    flip = rng.random(n) < bad
    vals = np.where(flip, rng.choice([-1, -size - 1 if size else -2, size, size + 3], n), vals)
    return vals.reshape(shape).astype(dtype)


def _random_cases() -> list[Case]:
    rng = np.random.default_rng(20260521)
    cases: list[Case] = []
    for device in ("cpu", "xla"):
        for _ in range(N_RANDOM):  # gather
            pshape = _shape(rng, 1, 4)
            r = len(pshape)
            b = int(rng.integers(0, r))
            ax = int(rng.integers(b, r))
            ishape = pshape[:b] + _shape(rng, 0, 2)
            bad = float(rng.choice([0.0, 0.0, 0.2, 0.5]))
            idx = _indices(rng, ishape, pshape[ax], bad, rng.choice([I16, I32, I64]))
            dt = _DATA[int(rng.integers(len(_DATA)))] if device == "xla" or rng.random() < 0.9 else "str"
            kw: dict[str, Any] = {"axis": ax - r if rng.random() < 0.3 else ax, "batch_dims": b}
            if ax == b and rng.random() < 0.3:
                kw.pop("axis")
            cases.append(("gather", device, (_values(rng, pshape, dt), idx), kw))
        for _ in range(N_RANDOM):  # gather_nd
            pshape = _shape(rng, 1, 4)
            r = len(pshape)
            b = int(rng.integers(0, r))
            k = int(rng.integers(0, r - b + 1))
            lead = pshape[:b] + _shape(rng, 0, 2)
            bad = float(rng.choice([0.0, 0.0, 0.2, 0.5]))
            comps = [_indices(rng, lead, pshape[b + j], bad, I64) for j in range(k)]
            idx = (np.stack(comps, -1) if k else np.zeros(lead + (0,), I64)).astype(rng.choice([I16, I32, I64]))
            dt = _DATA[int(rng.integers(len(_DATA)))] if device == "xla" or rng.random() < 0.9 else "str"
            kw = {"batch_dims": b, "bad_indices_policy": str(rng.choice(["", "DEFAULT", "ERROR", "IGNORE"]))}
            cases.append(("gather_nd", device, (_values(rng, pshape, dt), idx), kw))
        for _ in range(N_RANDOM):  # scatter_nd
            oshape = _shape(rng, 1, 3, 1, 4)
            r = len(oshape)
            k = int(rng.integers(0 if device == "xla" else 1, r + 1))
            lead = _shape(rng, 1, 2)
            bad = float(rng.choice([0.0, 0.0, 0.2, 0.5]))
            comps = [_indices(rng, lead, oshape[j], bad, I64) for j in range(k)]
            idx = (np.stack(comps, -1) if k else np.zeros(lead + (0,), I64)).astype(rng.choice([I32, I64]))
            dt = _DATA[int(rng.integers(len(_DATA)))] if device == "xla" or rng.random() < 0.85 else "str"
            upd = _values(rng, lead + oshape[k:], dt)
            kw = {"bad_indices_policy": str(rng.choice(["", "DEFAULT", "ERROR", "IGNORE"]))}
            cases.append(("scatter_nd", device, (idx, upd, list(oshape)), kw))
        for _ in range(2 * N_RANDOM):  # tensor_scatter_nd_*
            op = str(rng.choice(["update", "add", "sub", "min", "max"]))
            tshape = _shape(rng, 1, 3, 1, 4)
            r = len(tshape)
            k = int(rng.integers(0 if device == "xla" else 1, r + 1))
            lead = _shape(rng, 1, 2)
            bad = float(rng.choice([0.0, 0.0, 0.2, 0.5]))
            comps = [_indices(rng, lead, tshape[j], bad, I64) for j in range(k)]
            idx_dtypes = [I32, I64] + ([I16, np.uint16] if op == "update" and device == "xla" else [])
            idx = (np.stack(comps, -1) if k else np.zeros(lead + (0,), I64))
            idx = idx.astype(idx_dtypes[int(rng.integers(len(idx_dtypes)))])
            if op in ("min", "max"):
                dt = [np.float32, np.float64, np.int32, np.int64, np.float16][int(rng.integers(5))]
            elif op in ("add", "sub"):
                dt = [np.float32, np.float64, np.int32, np.int64, np.complex64, np.uint8][int(rng.integers(6))]
            else:
                dt = _DATA[int(rng.integers(len(_DATA)))] if device == "xla" or rng.random() < 0.85 else "str"
            tensor = _values(rng, tshape, dt)
            upd = _values(rng, lead + tshape[k:], dt)
            if np.dtype(tensor.dtype).kind == "f" and rng.random() < 0.3:
                upd = np.where(upd == 0, np.nan, upd).astype(upd.dtype)
                tensor = np.where(tensor == 1, np.nan, tensor).astype(tensor.dtype)
            kw = {} if op == "update" else {"bad_indices_policy": str(rng.choice(["", "DEFAULT", "ERROR", "IGNORE"]))}
            cases.append((f"tensor_scatter_nd_{op}", device, (tensor, idx, upd), kw))
    return cases


RANDOM_CASES = _random_cases()


def _id(case: Case) -> str:
    op, device, args, kw = case
    shapes = ",".join("x".join(map(str, np.shape(x))) for x in args)
    return f"{op}-{device}-[{shapes}]-{kw}"


@pytest.mark.parametrize("case", EDGE_CASES, ids=[_id(c) for c in EDGE_CASES])
def test_edge_cases(tf_worker, case):
    compare(tf_worker, case)


@pytest.mark.parametrize("case", RANDOM_CASES, ids=[f"{n}-{_id(c)}" for n, c in enumerate(RANDOM_CASES)])
def test_random_cases(tf_worker, case):
    compare(tf_worker, case)


# ---------------------------------------------------------------------------------------------
# recorded divergences: TensorFlow must still behave as the records say


def _theirs(worker: Worker, case: Case) -> np.ndarray[Any, Any]:
    status, out = worker.run(case)
    assert status == "ok", out
    return out


def test_divergence_gather_nd_batch_reinterpretation(tf_worker):
    p = np.arange(24).reshape(2, 3, 4)
    i = np.array([[[0], [1]], [[2], [3]], [[0], [0]]])
    for device in ("cpu", "xla"):
        assert _theirs(tf_worker, ("gather_nd", device, (p, i), {"batch_dims": 2})).tolist() == [[0, 5, 10], [15, 16, 20]]
        with pytest.raises(gs.ShapeError):
            gs.tensorflow.gather_nd(p, i, batch_dims=2, device=device)


def test_divergence_xla_empty_axis_shapes(tf_worker):
    p, i = np.zeros((0, 3)), np.zeros((4,), np.int64)
    assert _theirs(tf_worker, ("gather", "xla", (p, i), {})).shape == (3,)  # XLA: wrong shape
    assert gs.tensorflow.gather(p, i, device="xla").shape == (4, 3)
    i = np.zeros((4, 1), np.int64)
    assert _theirs(tf_worker, ("gather_nd", "xla", (p, i), {})).shape == (3,)
    assert gs.tensorflow.gather_nd(p, i, device="xla").shape == (4, 3)


def test_divergence_xla_gather_batch_mismatch(tf_worker):
    p, i = np.arange(12).reshape(3, 4), np.array([[0], [1]])
    assert _theirs(tf_worker, ("gather", "xla", (p, i), {"axis": 1, "batch_dims": 1})).tolist() == [[0], [5]]
    with pytest.raises(gs.ShapeError):
        gs.tensorflow.gather(p, i, axis=1, batch_dims=1, device="xla")


def test_divergence_numpy_updates_are_cast(tf_worker):
    t, i, u = np.zeros(3), np.array([[1]]), np.array([9.0], np.float32)
    assert _theirs(tf_worker, ("tensor_scatter_nd_update", "cpu", (t, i, u), {})).dtype == np.float64
    with pytest.raises(gs.DTypeError):
        gs.tensorflow.tensor_scatter_nd_update(t, i, u)


def test_divergence_update_duplicates_last_wins(tf_worker):
    rng = np.random.default_rng(0)
    t, i, u = np.zeros(16), rng.integers(0, 16, (2000, 1)), rng.random(2000)
    for device in ("cpu", "xla"):
        theirs = _theirs(tf_worker, ("tensor_scatter_nd_update", device, (t, i, u), {}))
        np.testing.assert_array_equal(gs.tensorflow.tensor_scatter_nd_update(t, i, u, device), theirs)


def test_divergence_xla_gather_nd_ignore(tf_worker):
    p, i = np.arange(24.0).reshape(2, 3, 4), np.array([[1], [5]])
    status, msg = tf_worker.run(("gather_nd", "xla", (p, i), {"bad_indices_policy": "IGNORE"}))
    assert status == "error" and "Indices rank must be equal to output rank" in msg
    out = gs.tensorflow.gather_nd(p, i, device="xla", bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out, [p[1], np.zeros((3, 4))])


def test_divergence_xla_k0_one_element(tf_worker):
    t, i, u = np.array([100], np.int32), np.zeros((3, 0), np.int32), np.array([[5], [6], [7]], np.int32)
    assert _theirs(tf_worker, ("tensor_scatter_nd_add", "xla", (t, i, u), {})).tolist() == [107]
    assert gs.tensorflow.tensor_scatter_nd_add(t, i, u, device="xla").tolist() == [118]
    u = np.array([[[-5.0]], [[2.0]], [[7.0]]])
    assert _theirs(tf_worker, ("scatter_nd", "xla", (i, u, [1, 1]), {})).tolist() == [[7.0]]
    assert gs.tensorflow.scatter_nd(i, u, [1, 1], device="xla").tolist() == [[4.0]]


def test_zz_counts():
    """Print the tallies (run with -s to see them)."""
    print(f"\nTensorFlow comparison: {dict(COUNTS)}; TensorFlow crashed on: {CRASHES}")
