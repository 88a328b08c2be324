"""gatherscatter.paddle against a real PaddlePaddle 3.3.1 on CPU (opt-in: ``pytest -m paddle``).

Paddle runs in a spawned worker process: importing paddle in a process that
already imported TensorFlow segfaults (docs/behavior-matrix.md#s3), and some inputs make
paddle write out of bounds and abort ('malloc(): invalid size'). The worker
imports paddle; this module never does.

Every generated case is sorted into one of three kinds:

* ``compare``: paddle and gatherscatter must agree value for value, dtype and
  shape, or both raise;
* ``divergence``: a recorded known divergence that is safe to run
  (``scatter_nd(_add)`` with an index that has no element); the test checks that
  paddle still differs as the record says;
* ``ours-only``: inputs on which paddle reads uninitialised memory or corrupts
  memory (see ``gs.divergences('paddle.*')``); paddle is not run.

Run ``pytest -m paddle tests/frameworks/test_paddle.py -s`` to see the per-op counts.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.paddle]

N_RANDOM = 250
Case = tuple[str, str, tuple[Any, ...], dict[str, Any]]  # (kind, op, args, kwargs)

# ---------------------------------------------------------------------------------------------
# the worker (imports paddle only there)


def _to_paddle(paddle: Any, v: Any) -> Any:
    if isinstance(v, (np.ndarray, np.generic)):
        v = np.asarray(v)
        if v.dtype.name == "bfloat16":
            return paddle.to_tensor(v.astype(np.float32)).astype("bfloat16")
        return paddle.to_tensor(v)
    return v


def _from_paddle(r: Any) -> np.ndarray[Any, Any]:
    if str(r.dtype) == "paddle.bfloat16":
        import ml_dtypes

        return np.asarray(r.astype("float32").numpy()).astype(ml_dtypes.bfloat16)
    return np.asarray(r.numpy())


def _run_cases(cases: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> list[tuple[Any, ...]]:
    import warnings

    warnings.filterwarnings("ignore")
    import paddle

    paddle.set_device("cpu")
    out: list[tuple[Any, ...]] = []
    for op, args, kwargs in cases:
        try:
            pargs = [_to_paddle(paddle, a) for a in args]
            pkw = {k: _to_paddle(paddle, v) for k, v in kwargs.items()}
            out.append(("ok", _from_paddle(getattr(paddle, op)(*pargs, **pkw))))
        except Exception as exc:  # every paddle error is an answer to compare
            out.append(("err", type(exc).__name__, str(exc).strip().splitlines()[0][:160] if str(exc) else ""))
    return out


@pytest.fixture(scope="module")
def run_paddle():
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddlepaddle is not installed")
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:

        def run(cases: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> list[tuple[Any, ...]]:
            return pool.submit(_run_cases, cases).result(timeout=600)

        yield run


# ---------------------------------------------------------------------------------------------
# comparison

COUNTS: dict[str, Counter[str]] = {}


def _ours(op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    try:
        return ("ok", getattr(gs.paddle, op)(*args, **kwargs))
    except gs.GatherScatterError as exc:
        return ("err", type(exc).__name__, str(exc))


def _same(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return bool(np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=2e-7, atol=0, equal_nan=True))
    return bool(np.array_equal(a, b))


def _check(name: str, cases: list[Case], run_paddle: Any) -> None:
    counts = COUNTS.setdefault(name, Counter())
    todo = [(op, args, kw) for kind, op, args, kw in cases if kind != "ours-only"]
    theirs = iter(run_paddle(todo))
    problems: list[str] = []
    for kind, op, args, kw in cases:
        ours = _ours(op, args, kw)
        if kind == "ours-only":
            counts["ours-only (paddle unsafe)"] += 1
            assert ours[0] == "err", (op, args, kw, ours)  # we raise where paddle reads garbage or crashes
            continue
        ref = next(theirs)
        if kind == "divergence":
            counts["known divergence"] += 1
            if ref[0] == "ok" and ours[0] == "ok" and _same(ours[1], ref[1]):
                problems.append(f"divergence no longer reproduced: {op} {kw} {[getattr(a, 'shape', a) for a in args]}")
            continue
        counts["compared"] += 1
        if ref[0] == "err" and ours[0] == "err":
            counts["both raise"] += 1
        elif ref[0] == "ok" and ours[0] == "ok" and _same(ours[1], ref[1]):
            counts["agree"] += 1
        else:
            counts["DISAGREE"] += 1
            shown = [(getattr(a, "dtype", None), getattr(a, "shape", None), a if np.size(a) < 13 else "...")
                     for a in args]
            r = ref if ref[0] == "err" else (ref[0], ref[1].dtype, ref[1].shape, ref[1].tolist())
            o = ours if ours[0] == "err" else (ours[0], ours[1].dtype, ours[1].shape, ours[1].tolist())
            problems.append(f"{op}{shown} {kw}\n   paddle: {r}\n   ours:   {o}")
    print(f"\npaddle {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    assert not problems, "\n".join(problems[:15])


# ---------------------------------------------------------------------------------------------
# generators (fixed seeds: the comparison is reproducible)

# (dtypes the op accepts or not, drawn often) + (dtypes most ops reject, drawn rarely: the dtype tables below cover them)
GATHER_DT = (["float32", "float64", "int32", "int64", "bool", "int8", "uint8", "int16", "complex64"], ["float16"])
ELEM_DT = (["float32", "float64", "int32", "int64", "int16", "uint8"], ["int8", "bool", "float16"])
SCATTER_DT = (["float32", "float64", "int32", "int64", "uint8"], ["int8", "bool", "float16"])


def _dt(rng: np.random.Generator, table: tuple[list[str], list[str]]) -> str:
    good, bad = table
    return str(rng.choice(bad if rng.random() < 0.06 else good))


def _data(rng: np.random.Generator, shape: tuple[int, ...], dt: str) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    if dt == "bool":
        return (rng.random(n) < 0.5).reshape(shape)
    if dt == "bfloat16":
        import ml_dtypes

        return (np.arange(n, dtype=np.float32) + 1).reshape(shape).astype(ml_dtypes.bfloat16)
    if dt.startswith("complex"):
        return (np.arange(n) + 1j * np.arange(n)[::-1]).astype(dt).reshape(shape)
    base = rng.permutation(n) + 1 if dt != "uint8" else rng.integers(0, 50, n)
    return base.astype(dt).reshape(shape)


def _shape(rng: np.random.Generator, lo: int, hi: int, side: int = 4) -> tuple[int, ...]:
    return tuple(int(v) for v in rng.integers(0, side + 1, int(rng.integers(lo, hi + 1))))


def _index(rng: np.random.Generator, shape: tuple[int, ...], s: int, dt: str = "int64", oob: float = 0.06):
    n = int(np.prod(shape))
    vals = rng.integers(-s, max(s, 1), n) if s else rng.integers(-2, 3, n)
    bad = rng.random(n) < oob
    vals[bad] = rng.choice([s, s + 1, -s - 1, -2 * s, -2 * s - 1, 2**31 - 1], int(bad.sum()))
    return vals.astype(dt).reshape(shape)


def gather_cases() -> list[Case]:
    rng = np.random.default_rng(101)
    cases: list[Case] = []
    for _ in range(N_RANDOM):
        shape = _shape(rng, 1, 3)
        r = len(shape)
        axis = None if rng.random() < 0.2 else int(rng.integers(-r, r))
        a = 0 if axis is None else axis % r
        ishape = [(), (int(rng.integers(0, 5)),), (int(rng.integers(0, 4)), 1)][int(rng.integers(0, 3))]
        idx = _index(rng, ishape, shape[a], str(rng.choice(["int32", "int64"])))
        x = _data(rng, shape, _dt(rng, GATHER_DT))
        out_n = int(np.prod(shape[:a] + (int(np.prod(ishape)),) + shape[a + 1 :]))
        kind = "ours-only" if shape[a] == 0 and out_n > 0 else "compare"
        cases.append((kind, "gather", (x, idx), {"axis": axis}))
    xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    cases += [
        ("compare", "gather", (xs, np.array([1, 2])), {"axis": 2}),
        ("ours-only", "gather", (xs, np.array([1])), {"axis": -3}),  # paddle: garbage
        ("compare", "gather", (xs, np.array([[1, 0]])), {}),
        ("compare", "gather", (xs, np.array([0], np.int16)), {}),
        ("compare", "gather", (np.float32(3.0) * np.ones(()), np.array([0])), {}),
        ("compare", "gather", (_data(rng, (3, 2), "bfloat16"), np.array([2, -1])), {}),
        ("compare", "gather", (np.zeros((3, 0), np.float32), np.array([5])), {}),
    ]
    # index_select: 1-D index, any axis
    for _ in range(N_RANDOM // 2):
        shape = _shape(rng, 1, 3)
        r = len(shape)
        axis = int(rng.integers(-r, r))
        idx = _index(rng, (int(rng.integers(0, 5)),), shape[axis], str(rng.choice(["int32", "int64"])))
        x = _data(rng, shape, _dt(rng, GATHER_DT))
        cases.append(("compare", "index_select", (x, idx), {"axis": axis}))
    cases += [
        ("compare", "index_select", (xs, np.array(1)), {"axis": 0}),
        ("compare", "index_select", (xs, np.array([[2]])), {"axis": 0}),
        ("compare", "index_select", (np.zeros((0, 2), np.float32), np.array([0])), {"axis": 0}),
    ]
    # take: any index shape, three modes
    for _ in range(N_RANDOM):
        shape = _shape(rng, 0, 3)
        n = int(np.prod(shape))
        ishape = _shape(rng, 0, 2)
        m = int(np.prod(ishape))
        vals = rng.integers(-3 * max(n, 1) - 1, 3 * max(n, 1) + 1, m)
        idx = vals.astype(str(rng.choice(["int32", "int64"]))).reshape(ishape)
        x = _data(rng, shape, _dt(rng, (["float32", "float64", "int32", "int64", "bool", "complex64"], ["int8"])))
        cases.append(("compare", "take", (x, idx), {"mode": str(rng.choice(["raise", "wrap", "clip"]))}))
    cases.append(("compare", "take", (xs, np.array([2**63 - 1, -(2**63)])), {"mode": "wrap"}))
    cases.append(("compare", "take", (xs, np.array([0])), {"mode": "bogus"}))
    return cases


def gather_nd_cases() -> list[Case]:
    rng = np.random.default_rng(202)
    cases: list[Case] = []
    for _ in range(N_RANDOM):
        shape = _shape(rng, 0, 3)
        k = int(rng.integers(0, len(shape) + 1))
        lead = [(), (0,), (1,), (3,), (2, 2)][int(rng.integers(0, 5))]
        cols = [_index(rng, lead, shape[j]) for j in range(k)]
        idx = np.stack(cols, -1) if k else np.zeros((*lead, 0), np.int64)
        idx = idx.astype(str(rng.choice(["int32", "int64"])))
        x = _data(rng, shape, _dt(rng, GATHER_DT))
        out_n = int(np.prod(lead + shape[k:]))
        kind = "ours-only" if out_n > 0 and 0 in shape[:k] else "compare"
        cases.append((kind, "gather_nd", (x, idx), {}))
    cases += [
        ("compare", "gather_nd", (np.zeros((3, 3), np.float32), np.array(1)), {}),
        ("compare", "gather_nd", (np.zeros((3, 3), np.float32), np.zeros((1, 3), np.int64)), {}),
        ("compare", "gather_nd", (_data(rng, (3,), "bfloat16"), np.array([[0]])), {}),
    ]
    return cases


ND_DTYPES = ("int32", "int64", "uint8", "float32", "float64")


def _nd_kind(x: np.ndarray[Any, Any], idx: np.ndarray[Any, Any], upd: np.ndarray[Any, Any]) -> str:
    """An index without elements skips paddle's kernel: paddle returns x + updates (broadcast, no dtype check)."""
    if idx.size:
        return "compare"
    try:
        shape = np.broadcast_shapes(x.shape, upd.shape)
    except ValueError:
        return "divergence"  # paddle: 'Broadcast dimension mismatch'
    if shape != x.shape or x.dtype.name not in ND_DTYPES:
        return "divergence"
    return "compare" if x.size == 0 or idx.shape == (0,) else "divergence"


def _nd_case(rng: np.random.Generator, op: str) -> Case:
    shape = _shape(rng, 1 if rng.random() < 0.9 else 0, 3)
    k = int(rng.integers(1, len(shape) + 1)) if shape and rng.random() < 0.92 else 0
    leads = [(), (1,), (3,), (2, 2), (4,), (0,)]
    lead = leads[int(rng.choice(len(leads), p=[0.15, 0.2, 0.25, 0.15, 0.2, 0.05]))]
    cols = [_index(rng, lead, shape[j], oob=0.04) for j in range(k)]
    idx = np.stack(cols, -1) if k else np.zeros((*lead, 0), np.int64)
    idx = idx.astype(str(rng.choice(["int32", "int64"])))
    dt = _dt(rng, SCATTER_DT)
    x = _data(rng, shape, dt)
    upd = _data(rng, lead + shape[k:], dt)
    if dt in ("int32", "int64", "float32", "float64"):
        upd = np.asarray(upd * 10)
    kind = _nd_kind(x, idx, upd)
    if op == "scatter_nd":
        return (kind, op, (idx, upd, list(shape)), {})
    return (kind, op, (x, idx, upd), {})


def scatter_cases() -> list[Case]:
    rng = np.random.default_rng(303)
    cases: list[Case] = []
    for _ in range(N_RANDOM):
        shape = _shape(rng, 1, 3)
        n = int(rng.integers(0, 6))
        idx = _index(rng, (n,), shape[0], str(rng.choice(["int32", "int64"])), oob=0.04)
        if rng.random() < 0.1 and n:
            idx = idx.reshape(n, 1)
        dt = _dt(rng, SCATTER_DT)
        x = _data(rng, shape, dt)
        upd = _data(rng, (n + int(rng.integers(0, 2)), *shape[1:]), dt)
        cases.append(("compare", "scatter", (x, idx, upd), {"overwrite": bool(rng.random() < 0.5)}))
    x = np.ones((3, 2), np.float32)
    cases += [
        ("compare", "scatter", (x, np.array(1), np.array([7.0, 8.0], np.float32)), {}),
        ("compare", "scatter", (x, np.array([2, 0, 1]), np.ones((2, 2), np.float32)), {}),
        ("compare", "scatter", (np.ones(5, np.float32), np.array([1, 1, 3]), np.array([7, 8, 9], np.float32)),
         {"overwrite": False}),
        ("compare", "scatter", (x, np.array([1]), np.ones((1, 2), np.float64)), {}),
    ]
    for _ in range(N_RANDOM):
        cases.append(_nd_case(rng, "scatter_nd_add"))
        cases.append(_nd_case(rng, "scatter_nd"))
    z = np.zeros((3, 2), np.float32)
    cases += [
        ("divergence", "scatter_nd_add", (np.array([[65, 17], [-14, -25]], np.float32), np.zeros((2, 0), np.int64),
                                          np.array([[[-1, -2], [1, 2]], [[3, 4], [-3, -4]]], np.float32)), {}),
        ("compare", "scatter_nd_add", (z, np.array(1), np.ones(2, np.float32)), {}),
        ("compare", "scatter_nd_add", (z, np.array([[1], [2]]), np.ones((2, 1), np.float32)), {}),
        ("compare", "scatter_nd_add", (z, np.array([[1]]), np.ones((1, 2), np.float64)), {}),
        ("compare", "scatter_nd", (np.array([[1]]), np.ones((1, 2), np.float32), [3, -1]), {}),
    ]
    return cases


def take_along_axis_cases() -> list[Case]:
    rng = np.random.default_rng(404)
    cases: list[Case] = []
    for _ in range(N_RANDOM):
        shape = _shape(rng, 1, 3)
        r = len(shape)
        axis = int(rng.integers(-r, r))
        a = axis % r
        ishape = tuple(
            int(rng.integers(0, 5)) if d == a else int(rng.choice([1, shape[d], shape[d], 0, shape[d] + 1, 2]))
            for d in range(r)
        )
        idx = _index(rng, ishape, shape[a], str(rng.choice(["int32", "int64"])))
        x = _data(rng, shape, _dt(rng, ELEM_DT))
        broadcast = bool(rng.random() < 0.6)
        kind = "compare"
        if shape[a] == 0:
            lower = gs.paddle.take_along_axis.lower  # a non-empty output means paddle reads memory
            try:
                low = lower(np.zeros(shape, np.float32), idx.astype(np.int64), axis, broadcast=broadcast)
                if low.result is None:
                    kind = "ours-only"
            except gs.GatherScatterError:
                pass
        cases.append((kind, "take_along_axis", (x, idx, axis), {"broadcast": broadcast}))
    cases += [
        ("compare", "take_along_axis", (np.zeros((3, 3), np.float32), np.array([0, 1]), 1), {}),
        ("compare", "take_along_axis", (np.zeros((3, 3), np.float32), np.array([[1]]), 2), {}),
        ("compare", "take_along_axis", (np.zeros((3, 3), np.float32), np.array([[1]], np.uint64), 1), {}),
        ("ours-only", "take_along_axis", (np.zeros((2, 3), np.float32), np.array([[2], [0]], np.int8), 1), {}),
        ("ours-only", "take_along_axis", (np.zeros((2, 3), np.float32), np.array([[2], [0]], np.float32), 1), {}),
    ]
    return cases


def _pal_crashes(arr_shape: tuple[int, ...], ishape: tuple[int, ...], a: int, broadcast: bool, scalar: bool) -> bool:
    bigger = any(m > n for d, (m, n) in enumerate(zip(ishape, arr_shape, strict=True)) if d != a)
    if broadcast:
        return bigger and int(np.prod(arr_shape)) > 0
    return bigger and scalar


def put_along_axis_cases() -> list[Case]:
    rng = np.random.default_rng(505)
    cases: list[Case] = []
    reduces = ["assign", "add", "mul", "multiply", "mean", "amin", "amax"]
    for _ in range(2 * N_RANDOM):
        shape = _shape(rng, 1, 3)
        r = len(shape)
        axis = int(rng.integers(-r, r))
        a = axis % r
        ishape = tuple(
            int(rng.integers(0, 6)) if d == a else int(rng.choice([1, shape[d], shape[d], 0, shape[d] + 1]))
            for d in range(r)
        )
        idx = _index(rng, ishape, shape[a], str(rng.choice(["int32", "int64"])), oob=0.04)
        dt = _dt(rng, (["float32", "float64", "int32", "int64", "int16", "uint8"], ["int8", "bool"]))
        x = _data(rng, shape, dt)
        if dt.startswith(("int", "float")) and dt != "int8":
            x = x - 3  # negatives for the integer mean
        broadcast = bool(rng.random() < 0.6)
        vchoice = int(rng.integers(0, 4))
        if vchoice == 0:
            scalar = True
            values: Any = float(rng.integers(-9, 9)) if dt.startswith("float") else int(rng.integers(0, 9))
            if broadcast:
                values = np.asarray(values, dtype=dt)  # a 0-d tensor of arr's dtype (paddle's own scalar dtype differs)
        else:
            scalar = False
            vshape = [ishape, tuple(1 for _ in ishape), tuple(m + 1 for m in ishape)][vchoice - 1]
            values = (7 * np.arange(int(np.prod(vshape))) - 20).reshape(vshape)
            values = np.abs(values).astype(dt) if dt == "uint8" else values.astype(dt)
        reduce = str(rng.choice(reduces))
        kw = {"reduce": reduce, "include_self": bool(rng.random() < 0.6), "broadcast": broadcast}
        kind = "ours-only" if _pal_crashes(shape, ishape, a, broadcast, scalar) else "compare"
        cases.append((kind, "put_along_axis", (x, idx, values, axis), kw))
    z = np.zeros((3, 4), np.float32)
    cases += [
        ("compare", "put_along_axis", (z, np.array([[1]]), np.float32(1.0), 1), {"reduce": "sum"}),
        ("compare", "put_along_axis", (z, np.array([1, 2]), np.float32(1.0), 1), {}),
        ("compare", "put_along_axis", (z, np.array([[1]]), np.float32(1.0), -3), {}),
        ("compare", "put_along_axis", (z, np.array([[4], [2]]), 3.0, 1), {"broadcast": False}),
        ("compare", "put_along_axis", (np.full(4, -5, np.int32), np.array([0, 0, 2]), np.array([-2, -4, -7], np.int32),
                                       0), {"reduce": "mean"}),
        ("ours-only", "put_along_axis", (z, np.array([[1], [2], [0], [3]]), np.float32(1.0), 1), {}),
    ]
    return cases


@pytest.mark.parametrize(
    "name",
    ["gather", "gather_nd", "scatter", "take_along_axis", "put_along_axis"],
)
def test_against_paddle(name, run_paddle):
    cases = {
        "gather": gather_cases, "gather_nd": gather_nd_cases, "scatter": scatter_cases,
        "take_along_axis": take_along_axis_cases, "put_along_axis": put_along_axis_cases,
    }[name]()
    _check(name, cases, run_paddle)


DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]


def _dtype_case(op: str, dt: str) -> Case:
    rng = np.random.default_rng(7)
    x = _data(rng, (3, 2), dt)
    if op in ("gather", "index_select", "take"):
        return ("compare", op, (x, np.array([2, 0])), {})
    if op == "gather_nd":
        return ("compare", op, (x, np.array([[2], [0]])), {})
    if op == "scatter":
        return ("compare", op, (x, np.array([2, 2]), x[:2]), {"overwrite": False})
    if op == "scatter_nd_add":
        return ("compare", op, (x, np.array([[2], [0]]), x[:2]), {})
    if op == "scatter_nd":
        return ("compare", op, (np.array([[2], [0]]), x[:2], [3, 2]), {})
    if op == "take_along_axis":
        return ("compare", op, (x, np.array([[1], [0], [1]]), 1), {})
    return ("compare", op, (x, np.array([[1], [0], [1]]), x[:, :1], 1), {"reduce": "add"})


@pytest.mark.parametrize("op", ["gather", "index_select", "take", "gather_nd", "scatter", "scatter_nd_add",
                                "scatter_nd", "take_along_axis", "put_along_axis"])
def test_dtype_tables(op, run_paddle):
    """Every paddle dtype: accepted by both (same result) or rejected by both."""
    _check(f"dtypes {op}", [_dtype_case(op, dt) for dt in DTYPES], run_paddle)
