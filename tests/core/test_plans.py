"""Call plans (``core/plans.py``): a repeated call of a signature skips the dialect and the core, and must
answer exactly as the whole path does, for every index and data value, or take the whole path.

The expected outcome of each call comes from the same call with plans off (the whole path, itself tested
against loop oracles and the frameworks); with plans on, the first call of a signature keeps its plan and
the next calls, with other values in arrays of the same dtypes, shapes and strides, run it.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.core import plans
from gatherscatter.fuzz.gen import generate
from tests.conftest import has, using_backend

pytestmark = pytest.mark.skipif(not has("numba"), reason="numba not installed")

GATHERS = [op for op in gs.ops() if op.info.kind == "gather"]
CASES = 12  # generated cases per op (the first ones are the fuzzer's fixed seeds)


@pytest.fixture
def fresh_plans():
    was = plans.set_enabled(True)
    plans.clear()
    try:
        yield
    finally:
        plans.set_enabled(was)
        plans.clear()


def _arrays(seed, rows, cols, k):
    """Float data ``(rows, cols)`` and in-range int64 indices ``(rows, k)`` for axis 1."""
    rng = np.random.default_rng(seed)
    return rng.random((rows, cols)), rng.integers(0, cols, (rows, k))


def _kept(op, args, kwargs):
    return plans.get(plans.signature(op, args, kwargs)) is not None


def _outcome(fn):
    try:
        r = fn()
    except Exception as exc:  # the whole path's error is the expected outcome: type and words
        return ("raises", type(exc), str(exc))
    r = np.asarray(r)
    body = r.tolist() if r.dtype.kind in "OUS" else r.tobytes()
    return ("returns", r.dtype, r.shape, body)


def _index_variants(idx):
    """Other values in an array of ``idx``'s dtype, shape and strides (C-contiguous int64 is what plans take)."""
    flat = idx.reshape(-1)
    yield "reversed", flat[::-1].copy().reshape(idx.shape)
    yield "negative", (-1 - idx).copy()
    yield "zeros", np.zeros_like(idx)
    yield "past the end", (idx + 1_000_003).copy()
    for name, v in (("int64 max", np.iinfo(np.int64).max), ("int64 min", np.iinfo(np.int64).min), ("-1", -1)):
        x = idx.copy()
        x.reshape(-1)[-1] = v
        yield name, x


def _data_variant(data):
    if not data.flags.c_contiguous or data.dtype.kind not in "biufc":
        return data
    return data.reshape(-1)[::-1].copy().reshape(data.shape)


@pytest.mark.parametrize("op", GATHERS, ids=lambda op: op.info.qualname)
def test_a_plan_answers_as_the_whole_path(op, fresh_plans):
    kept = 0
    with using_backend("numba"):
        for n in range(CASES):
            case = generate(op.info.qualname, op, 7, n)
            kw = case.kwargs
            ii = case.roles.get("indices")
            di = case.roles.get("data")
            idx, data = kw.get(ii), kw.get(di)
            if type(idx) is not np.ndarray or type(data) is not np.ndarray or idx.dtype != np.int64 or not idx.size:
                continue
            calls = [("the case", dict(kw))]
            for name, v in _index_variants(idx):
                calls.append((f"indices {name}", {**kw, ii: v}))
            calls.append(("other data", {**kw, di: _data_variant(data)}))
            plans.set_enabled(False)
            expected = [_outcome(lambda k=k: op(**k)) for _, k in calls]
            plans.set_enabled(True)
            first = _outcome(lambda kw=kw: op(**kw))
            assert first == expected[0], f"{case.kind}: the recording call"
            key = plans.signature(op, (), kw)
            if key is None or plans.get(key) is None:
                continue
            kept += 1
            for (name, k), want in zip(calls, expected, strict=True):
                assert plans.get(key) is not None
                assert _outcome(lambda k=k: op(**k)) == want, f"{op.info.qualname} case {n} ({case.kind}): {name}"
    if kept == 0:
        pytest.skip("no generated case of this op keeps a plan (converted arrays, a post step, or no kernel)")


def test_plans_are_kept_for_most_framework_gathers(fresh_plans):
    """The test above is not vacuous: plans are kept for the common framework gathers."""
    rng = np.random.default_rng(5)
    d = rng.random((6, 5), np.float32)
    i = rng.integers(0, 5, (6, 3))
    calls = [
        (gs.onnx.GatherElements, (d, i), {"axis": 1}),
        (gs.onnx.Gather, (d, i), {"axis": 1}),
        (gs.torch.gather, (d, 1, i), {}),
        (gs.numpy.take_along_axis, (d, i, 1), {}),
        (gs.onnx.GatherND, (d, np.ascontiguousarray(i[:, :1])), {}),
    ]
    with using_backend("numba"):
        for op, args, kwargs in calls:
            op(*args, **kwargs)
            assert _kept(op, args, kwargs), op.info.qualname


def test_a_kept_plan_skips_the_lowering(fresh_plans, monkeypatch):
    rng = np.random.default_rng(6)
    d = rng.random((300, 64), np.float32)
    i = rng.integers(0, 64, (300, 8))
    op = gs.onnx.GatherElements
    with using_backend("numba"):
        first = op(d, i, axis=-1)
        calls = []
        real = type(op.lower(d, i, axis=-1)).run
        monkeypatch.setattr(type(op.lower(d, i, axis=-1)), "run", lambda self: calls.append(1) or real(self))
        i2 = rng.integers(0, 64, (300, 8))
        got = op(d, i2, axis=-1)
        assert calls == []  # the plan ran, not the lowering
        assert np.array_equal(got, np.take_along_axis(d, i2, 1))
        assert np.array_equal(first, np.take_along_axis(d, i, 1))
        neg = i2 - 64  # wrapped by ONNX: the plan declines, the whole path answers
        assert np.array_equal(op(d, neg, axis=-1), np.take_along_axis(d, i2, 1))
        assert calls == [1]


def test_a_plan_on_one_thread_calls_the_serial_kernel_directly_and_follows_the_thread_count(fresh_plans, monkeypatch):
    from gatherscatter import backends
    from gatherscatter.core import accel

    rng = np.random.default_rng(7)
    d = rng.random((300, 64), np.float32)
    op = gs.onnx.GatherElements
    launches = []
    real = accel.launch
    monkeypatch.setattr(accel, "launch", lambda *a, **k: launches.append(1) or real(*a, **k))
    monkeypatch.setattr(backends, "_threads", backends._threads)  # restored after the test
    with using_backend("numba"):
        backends.set_num_threads(1)
        for _ in range(4):  # the whole path, the plan through launch, then twice its serial form directly
            i = rng.integers(0, 64, (300, 8))
            assert np.array_equal(op(d, i, axis=-1), np.take_along_axis(d, i, 1))
        assert launches == [1, 1]
        bad = rng.integers(0, 64, (300, 8))
        bad[299, 7] = 64  # the direct call finds it and declines: the whole path raises the op's error
        with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[299, 7\] = 64"):
            op(d, bad, axis=-1)
        assert len(launches) == 3
        backends.set_num_threads(2)
        monkeypatch.setattr(backends, "PARALLEL_BYTES", 0)  # the call now runs on 2 threads: through launch
        i = rng.integers(0, 64, (300, 8))
        assert np.array_equal(op(d, i, axis=-1), np.take_along_axis(d, i, 1))
        assert len(launches) == 4


def test_what_is_not_kept(fresh_plans):
    d, i = _arrays(7, 6, 5, 3)
    op = gs.onnx.GatherElements
    with using_backend("numba"):
        op(d.tolist(), i, axis=1)  # a list: no signature
        assert plans.signature(op, (d.tolist(), i), {"axis": 1}) is None
        op(d, i.astype(np.int32), axis=1)  # indices converted by the core: not the caller's array
        assert not _kept(op, (d, i.astype(np.int32)), {"axis": 1})
        out = np.empty((6, 3, 5))
        gs.take(d, i, axis=0, out=out)  # into the caller's array: not kept
        assert not _kept(gs.take, (d, i), {"axis": 0, "out": out})
        same = np.arange(16).reshape(4, 4) % 4
        op(same, same, axis=1)  # one array as data and indices: not kept
        assert not _kept(op, (same, same), {"axis": 1})
        assert plans.signature(op, (d, i), {"axis": 1.0}) is None  # floats are not kept by value
        assert plans.signature(op, (d, i), {"axis": True}) != plans.signature(op, (d, i), {"axis": 1})


def test_a_plan_follows_the_backend(fresh_plans):
    d, i = _arrays(8, 40, 30, 30)
    op = gs.onnx.GatherElements
    with using_backend("numba"):
        op(d, i, axis=1)
        assert _kept(op, (d, i), {"axis": 1})
    with using_backend("numpy"):
        bad = i.copy()
        bad[3, 4] = 30
        with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[3, 4\] = 30"):
            op(d, bad, axis=1)
        assert np.array_equal(op(d, i, axis=1), np.take_along_axis(d, i, 1))


def test_plans_can_be_turned_off(fresh_plans):
    d, i = _arrays(9, 6, 5, 3)
    plans.set_enabled(False)
    with using_backend("numba"):
        gs.onnx.GatherElements(d, i, axis=1)
    assert plans.signature(gs.onnx.GatherElements, (d, i), {"axis": 1}) is None
    assert not plans.enabled()


def test_the_number_of_plans_is_bounded(fresh_plans):
    rng = np.random.default_rng(10)
    with using_backend("numba"):
        for n in range(1, plans.LIMIT + 20):
            d = rng.random((2, n))
            gs.onnx.GatherElements(d, np.zeros((2, 1), np.int64), axis=1)
    assert 0 < len(plans._plans) <= plans.LIMIT


def test_a_signature_without_a_plan_is_recorded_again_after_1_2_4_8_calls_without_one(fresh_plans, monkeypatch):
    d, i = _arrays(11, 6, 5, 3)
    op = gs.onnx.GatherElements
    key = plans.signature(op, (d, i), {"axis": 1})
    with using_backend("numpy"):
        op(d, i, axis=1)  # the NumPy path: nothing to keep
    assert plans.get(key) is None and plans._misses(key) == 1
    recorded = []
    real = plans.record
    monkeypatch.setattr(plans, "record", lambda k: recorded.append(plans._misses(k)) or real(k))
    with using_backend("numpy"):
        for _ in range(7):
            op(d, i, axis=1)
    assert plans._misses(key) == 8 and plans.get(key) is None
    assert [n for n in recorded if n & (n - 1) == 0] == [1, 2, 4]  # the calls that recorded
    with using_backend("numba"):
        op(d, i, axis=1)  # the 9th call: the 8th miss is a power of two, so it records, and keeps the plan
    assert plans.get(key) is not None
