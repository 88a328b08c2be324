"""Call plans (``core/plans.py``): a repeated call of a signature skips the dialect and the core, and must
answer exactly as the whole path does, for every index and data value, or take the whole path.

The expected outcome of each call comes from the same call with plans off (the whole path, itself tested
against loop oracles and the frameworks); with plans on, the first call of a signature keeps its plan and
the next calls, with other values in arrays of the same dtypes, shapes and strides, run it.
"""

from __future__ import annotations

import inspect

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


def _special_values(a):
    """``a``'s dtype, shape and strides holding the values lowerings treat apart (a plan must not skip that):
    NaN, zeros of both signs, infinities, for floats; negative values and zeros for integers."""
    if not a.flags.c_contiguous or not a.size or a.dtype.kind not in "iuf":
        return
    flat = a.reshape(-1)
    if a.dtype.kind == "f":
        for name, v in (("NaN", np.nan), ("-0.0", -0.0), ("-inf", -np.inf), ("inf", np.inf)):
            x = flat.copy()
            x[::2] = v
            yield name, x.reshape(a.shape)
        x = flat.copy()
        x[:] = 0.0
        x[1::2] = -0.0
        yield "zeros of both signs", x.reshape(a.shape)
    else:
        yield "zeros", np.zeros_like(a)
        if a.dtype.kind == "i":
            yield "negative", (-1 - np.abs(a.astype(np.int64) % 7)).astype(a.dtype)


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
            calls += [(f"data {name}", {**kw, di: v}) for name, v in _special_values(data)]
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


def test_a_plan_calls_the_serial_kernel_directly_once_the_tuner_chose_one_thread(fresh_plans, monkeypatch):
    """At 2 threads, once the tuner's final choice for the plan's kernel is one thread, the plan calls the serial
    form itself (as launch would, without its lookups); when the choice's revisit is due, through launch again."""
    import time

    from gatherscatter import backends
    from gatherscatter.core import accel

    rng = np.random.default_rng(17)
    d = rng.random((300, 64), np.float32)
    op = gs.onnx.GatherElements
    launches = []
    real = accel.launch
    monkeypatch.setattr(accel, "launch", lambda *a, **k: launches.append(a[0]) or real(*a, **k))
    monkeypatch.setattr(backends, "_threads", backends._threads)
    monkeypatch.setattr(backends, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(backends, "_tune_on", True)
    monkeypatch.setattr(backends, "_tuning", {})
    with using_backend("numba"):
        backends.set_num_threads(2)
        i = rng.integers(0, 64, (300, 8))
        assert np.array_equal(op(d, i, axis=-1), np.take_along_axis(d, i, 1))  # the whole path, keeps the plan
        (key,) = backends._tuning
        st = backends._tuning[key]
        st.recent, st.settled, st.due = [1, 1], 1, time.monotonic() + 3600  # final: one thread
        for _ in range(3):
            i = rng.integers(0, 64, (300, 8))
            assert np.array_equal(op(d, i, axis=-1), np.take_along_axis(d, i, 1))
        assert len(launches) == 2  # the whole path's, then the plan's first (which finds the serial form)
        st.due = time.monotonic() - 1  # a revisit is due: through launch (and the tuner) again
        i = rng.integers(0, 64, (300, 8))
        assert np.array_equal(op(d, i, axis=-1), np.take_along_axis(d, i, 1))
        assert len(launches) == 3


def test_what_is_not_kept(fresh_plans):
    d, i = _arrays(7, 6, 5, 3)
    op = gs.onnx.GatherElements
    with using_backend("numba"):
        op(d.tolist(), i, axis=1)  # a list: no signature
        assert plans.signature(op, (d.tolist(), i), {"axis": 1}) is None
        op(d, i.astype(np.int32), axis=1)  # indices converted by the core: not the caller's array
        assert not _kept(op, (d, i.astype(np.int32)), {"axis": 1})
        same = np.arange(16).reshape(4, 4) % 4
        op(same, same, axis=1)  # one array as data and indices: not kept
        assert not _kept(op, (same, same), {"axis": 1})
        assert plans.signature(op, (d, i), {"axis": 1.0}) is None  # floats are not kept by value
        assert plans.signature(op, (d, i), {"axis": True}) != plans.signature(op, (d, i), {"axis": 1})


def _gather_out_cases():
    """Common gathers into a caller's ``out=``, one per kernel the core runs there (rows, rows of a middle axis,
    elements in 2-D and 3-D views, index tuples turned into rows, one-component tuples as rows), each with a plain
    NumPy oracle for its in-range and negative (wrapped) indices."""
    rng = np.random.default_rng(21)
    d = rng.random((40, 16), np.float32)
    d3 = rng.random((6, 40, 5), np.float32)
    rows = rng.integers(0, 40, 30)

    def nd(k):
        return k["data"][tuple(np.moveaxis(k["indices"], -1, 0))]

    yield "take axis 0", gs.take, {"data": d, "indices": rows, "axis": 0}, \
        lambda k: np.take(k["data"], k["indices"], axis=0)
    yield "take axis 1", gs.take, {"data": d3, "indices": rows[:12], "axis": 1}, \
        lambda k: np.take(k["data"], k["indices"], axis=1)
    yield "take_along_axis 2-D", gs.take_along_axis, \
        {"data": d, "indices": rng.integers(0, 16, (40, 9)), "axis": 1}, \
        lambda k: np.take_along_axis(k["data"], k["indices"], axis=1)
    yield "take_along_axis 3-D", gs.take_along_axis, \
        {"data": d3, "indices": rng.integers(0, 40, (6, 7, 5)), "axis": 1}, \
        lambda k: np.take_along_axis(k["data"], k["indices"], axis=1)
    yield "gather_nd tuples", gs.gather_nd, \
        {"data": d3, "indices": np.stack([rng.integers(0, 6, 25), rng.integers(0, 40, 25)], -1)}, nd
    yield "gather_nd rows", gs.gather_nd, {"data": d, "indices": rows[:, None]}, nd


@pytest.mark.parametrize("case", list(_gather_out_cases()), ids=lambda c: c[0])
def test_a_gather_into_out_keeps_a_plan_that_answers_as_the_whole_path(case, fresh_plans):
    """A gather into the caller's ``out=`` keeps a plan (one launch after its index check); the plan answers every
    index and data variant as the whole path does (plans off), and on a bad index has written nothing into
    ``out``: each call's ``out`` starts filled with a sentinel, compared after the call."""
    _, op, kw, oracle = case
    idx = kw["indices"]
    calls = [("the case", kw)] + [(f"indices {name}", {**kw, "indices": v}) for name, v in _index_variants(idx)]
    calls.append(("other data", {**kw, "data": _data_variant(kw["data"])}))
    shape = np.asarray(op(**kw)).shape  # fresh output, plans on (the fresh signature is another one)

    def into_out(k):
        out = np.full(shape, 7.5, np.float32)
        return _outcome(lambda: op(**k, out=out)), out.tobytes()

    with using_backend("numba"):
        plans.set_enabled(False)
        expected = [into_out(k) for _, k in calls]
        plans.set_enabled(True)
        assert into_out(kw) == expected[0]
        key = plans.signature(op, (), {**kw, "out": np.empty(shape, np.float32)})
        assert plans.get(key) is not None
        sentinel = np.full(shape, 7.5, np.float32).tobytes()
        for (name, k), want in zip(calls, expected, strict=True):
            got = into_out(k)
            assert got == want, f"{case[0]}: {name}"
            if got[0][0] == "raises":
                assert got[1] == sentinel, f"{case[0]}: {name} wrote into out before raising"
            else:  # not only the whole path's answer: plain NumPy's
                assert got[1] == np.ascontiguousarray(oracle(k), np.float32).tobytes(), f"{case[0]}: {name}"
        assert plans.get(key) is not None


def test_a_gather_plan_into_out_declines_what_its_signature_does_not_fix(fresh_plans):
    """The signature fixes ``out``'s dtype, shape and strides; the plan checks the rest on each call (writeable,
    sharing no memory with the data or the indices) and declines: the whole path then raises the rule's error,
    before any write."""
    rng = np.random.default_rng(22)
    d = rng.random((40, 8), np.float32)
    i = rng.integers(0, 40, 10)
    with using_backend("numba"):
        out = np.zeros((10, 8), np.float32)
        assert gs.take(d, i, axis=0, out=out) is out and np.array_equal(out, d[i])
        key = plans.signature(gs.take, (d, i), {"axis": 0, "out": out})
        assert plans.get(key) is not None
        ro = np.zeros((10, 8), np.float32)
        ro.flags.writeable = False
        with pytest.raises(gs.ArgumentError, match="writeable"):
            gs.take(d, i, axis=0, out=ro)
        big = rng.random((40, 8), np.float32)
        data, inside = big, big[30:40]  # out inside the data's own rows: the same signatures as the plan's
        before = big.copy()
        with pytest.raises(gs.ArgumentError, match="share memory with data"):
            gs.take(data, i, axis=0, out=inside)
        assert np.array_equal(big, before)
        assert plans.get(key) is not None


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


SCATTERS = [op for op in gs.ops() if op.info.kind == "scatter"]
SCATTER_CASES = 40  # more than for gathers: fewer generated scatter cases have int64 indices the kernels take raw


def _modes(op):
    """How a scatter's result is asked for: a fresh array, and where the op takes ``out=``, into the caller's
    array and in place (``out=data``)."""
    yield "fresh", None
    if "out" in inspect.signature(op).parameters:
        yield "into out", "out"
        yield "in place", "data"


def _copies(kw):
    return {n: v.copy() if type(v) is np.ndarray else v for n, v in kw.items()}


def _call(op, kw, di, mode):
    """``op`` on copies of ``kw``'s arrays (each call starts from the same values), ``out=`` per ``mode``;
    the outcome and every array the call was given, after it (only an ``out=`` may change)."""
    k = _copies(kw)
    if mode == "out":
        k["out"] = np.zeros_like(k[di])
    elif mode == "data":
        k["out"] = k[di]
    outcome = _outcome(lambda: op(**k))
    return outcome, [(n, v.tobytes()) for n, v in k.items() if type(v) is np.ndarray]


def _scatter_plan_checked(op, kw, roles, label):
    """Every variant of the call ``op(**kw)`` in every way of asking for the result, with the plan kept by each
    way's first call, against the whole path (plans off); how many ways kept a plan."""
    ii, di, ui = roles.get("indices"), roles.get("data"), roles.get("updates")
    idx, data, upd = kw.get(ii), kw.get(di), kw.get(ui)
    calls = [("the case", dict(kw))]
    calls += [(f"indices {name}", {**kw, ii: v}) for name, v in _index_variants(idx)]
    calls.append(("other data", {**kw, di: _data_variant(data)}))
    calls += [(f"data {name}", {**kw, di: v}) for name, v in _special_values(data)]
    if type(upd) is np.ndarray:
        calls.append(("other updates", {**kw, ui: _data_variant(upd)}))
        calls += [(f"updates {name}", {**kw, ui: v}) for name, v in _special_values(upd)]
    modes = [m for _, m in _modes(op)]
    plans.set_enabled(False)
    expected = {(name, m): _call(op, k, di, m) for name, k in calls for m in modes}
    plans.set_enabled(True)
    kept = 0
    for recording in modes:
        plans.clear()
        assert _call(op, kw, di, recording) == expected["the case", recording], f"{label}: recording"
        k0 = _copies(kw)
        key = plans.signature(op, (), {**k0, "out": k0[di]} if recording else k0)
        if key is None or plans.get(key) is None:
            continue
        kept += 1
        for (name, m), want in expected.items():
            assert _call(op, dict(calls)[name], di, m) == want, f"{label}, kept {recording}: {name}, {m}"
    return kept


@pytest.mark.parametrize("op", SCATTERS, ids=lambda op: op.info.qualname)
def test_a_scatter_plan_answers_as_the_whole_path(op, fresh_plans):
    """As for gathers, with other updates too, and for each way of asking for the result (fresh, ``out=``,
    ``out=data``): a plan kept in one way is also met by calls of the others with the same signature."""
    kept = 0
    with using_backend("numba"):
        for n in range(SCATTER_CASES):
            case = generate(op.info.qualname, op, 7, n)
            kw, roles = case.kwargs, case.roles
            idx, data = kw.get(roles.get("indices")), kw.get(roles.get("data"))
            if type(idx) is not np.ndarray or type(data) is not np.ndarray or idx.dtype != np.int64 or not idx.size:
                continue
            if any(type(v) is np.ndarray and (v.nbytes > 1 << 20 or 0 in v.strides) for v in kw.values()):
                continue  # the fuzzer's broadcast giants: each call here starts from copies
            kept += _scatter_plan_checked(op, kw, roles, f"{op.info.qualname} case {n} ({case.kind})")
    if kept == 0:
        pytest.skip("no generated case of this op keeps a plan (converted arrays, a post step, or no kernel)")


def _scatter_cases():
    """Common framework scatters on rows and elements, float32 data, in-range int64 indices with duplicates, and
    whether each keeps plans (TF's max/min treat a NaN update apart: they keep none)."""
    rng = np.random.default_rng(12)
    d = rng.random((40, 16), np.float32)
    rows = rng.integers(0, 40, (30, 1))
    u_rows = rng.random((30, 16), np.float32)
    el = rng.integers(0, 16, (40, 5))
    u_el = rng.random((40, 5), np.float32)
    roles = {"data": "data", "indices": "indices", "updates": "updates"}
    nd = {"data": d, "indices": rows, "updates": u_rows}
    yield gs.onnx.ScatterND, nd, roles, True
    yield gs.onnx.ScatterND, {**nd, "reduction": "add"}, roles, True
    yield gs.scatter_nd, nd, roles, True
    yield gs.scatter_nd, {**nd, "reduction": "max"}, roles, True
    tf = {"tensor": d, "indices": rows, "updates": u_rows}
    tf_roles = {"data": "tensor", "indices": "indices", "updates": "updates"}
    yield gs.tensorflow.tensor_scatter_nd_update, tf, tf_roles, True
    yield gs.tensorflow.tensor_scatter_nd_max, tf, tf_roles, False  # a NaN update keeps the current value
    yield gs.tensorflow.tensor_scatter_nd_min, tf, tf_roles, False
    el_kw = {"data": d, "indices": el, "updates": u_el}
    yield gs.onnx.ScatterElements, {**el_kw, "axis": 1}, roles, True
    yield gs.onnx.ScatterElements, {**el_kw, "axis": 1, "reduction": "add"}, roles, True
    yield gs.scatter_along_axis, {**el_kw, "axis": 1}, roles, True
    yield gs.scatter_along_axis, {**el_kw, "axis": -1, "reduction": "add"}, roles, True


@pytest.mark.parametrize("case", list(_scatter_cases()), ids=lambda c: c[0].info.qualname)
def test_common_scatters_keep_plans_that_answer_as_the_whole_path(case, fresh_plans):
    """Not vacuous: the common framework scatters keep plans, in every way each can be asked (fresh, ``out=``,
    ``out=data``), and the plans answer as the whole path."""
    op, kw, roles, keeps = case
    with using_backend("numba"):
        assert _scatter_plan_checked(op, kw, roles, op.info.qualname) == (len(list(_modes(op))) if keeps else 0)


def test_an_in_place_plan_declines_another_out_and_a_read_only_one(fresh_plans, monkeypatch):
    """``out=data`` keeps a plan whose signature a call into another array (or into a read-only one) shares;
    the plan declines those (the whole path writes the other array, or raises), and writes nothing."""
    rng = np.random.default_rng(13)
    d = rng.random((50, 8), np.float32)
    i = rng.integers(0, 50, (20, 1))
    u = rng.random((20, 8), np.float32)
    want = d.copy()
    for r, row in enumerate(i[:, 0]):
        want[row] = u[r]
    with using_backend("numba"):
        first = d.copy()
        assert gs.scatter_nd(first, i, u, out=first) is first
        assert np.array_equal(first, want)
        key = plans.signature(gs.scatter_nd, (first, i, u), {"out": first})
        assert plans.get(key) is not None
        calls = []
        lowering = type(gs.scatter_nd.lower(d, i, u))
        real = lowering.run
        monkeypatch.setattr(lowering, "run", lambda self: calls.append(1) or real(self))
        again = d.copy()
        assert gs.scatter_nd(again, i, u, out=again) is again and np.array_equal(again, want)
        assert calls == []  # the plan ran
        other, src = np.zeros_like(d), d.copy()
        assert gs.scatter_nd(src, i, u, out=other) is other  # the whole path: into other, data untouched
        assert np.array_equal(other, want) and np.array_equal(src, d) and calls == [1]
        ro = np.zeros_like(d)
        ro.flags.writeable = False
        with pytest.raises(gs.ArgumentError, match="writeable"):
            gs.scatter_nd(d.copy(), i, u, out=ro)
        assert not ro.any()
        alias = d.copy()
        view = alias[...]  # another object on the same memory: in place for the core, declined by the plan
        assert gs.scatter_nd(alias, i, u, out=view) is view and np.array_equal(alias, want) and calls == [1, 1]
        plans.clear()
        into = np.zeros_like(d)
        assert gs.scatter_nd(d, i, u, out=into) is into and np.array_equal(into, want)  # keeps the out= plan
        assert plans.get(key) is not None
        buf = np.zeros(d.size, np.float32)
        out = buf.reshape(d.shape)
        u_in_out = buf[80:240].reshape(u.shape)  # the updates inside out: the whole path refuses
        u_in_out[...] = u
        with pytest.raises(gs.ArgumentError, match="share memory with updates"):
            gs.scatter_nd(d, i, u_in_out, out=out)
        assert np.array_equal(u_in_out, u) and not buf[:80].any()
        bad = i.copy()
        bad[7, 0] = 50
        mine = d.copy()
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.scatter_nd(mine, bad, u, out=mine)
        assert np.array_equal(mine, d)  # checked before the first write
