"""``out=`` on the neutral API and the core primitives: cases, rules, and a property.

Expected values are typed in by hand; the property compares ``out=`` against the
same call without it (the fresh-output path is itself tested against loop oracles).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from gatherscatter import errors
from gatherscatter.core import gather, gather_shape, scatter
from tests.conftest import BACKENDS, using_backend
from tests.core.test_primitives import gather_policies, scatter_policies, spec_and_arrays

D23 = np.array([[1, 2, 3], [4, 5, 6]], np.int64)

# (function, arguments, out shape, out dtype, expected)
CASES = [
    (gs.take, dict(data=D23, indices=[2, 0], axis=1), (2, 2), np.int64, [[3, 1], [6, 4]]),
    (gs.take, dict(data=D23, indices=[1, 1, 0], axis=0), (3, 3), np.int64, [[4, 5, 6], [4, 5, 6], [1, 2, 3]]),
    (gs.take, dict(data=D23, indices=[5, 0], axis=None), (2,), np.int64, [6, 1]),
    (gs.take, dict(data=D23, indices=1, axis=1), (2,), np.int64, [2, 5]),
    (gs.take, dict(data=np.array([10, 20, 30]), indices=[0, 5], bounds="fill", fill_value=-1), (2,), np.int64,
     [10, -1]),
    (gs.take, dict(data=np.array([1.5, 2.5]), indices=np.zeros(0, np.int64)), (0,), np.float64, []),
    (gs.take_along_axis, dict(data=D23, indices=[[2, 2], [0, 1]], axis=1), (2, 2), np.int64, [[3, 3], [4, 5]]),
    (gs.take_along_axis, dict(data=D23, indices=[[1, 0, 1]], axis=0), (1, 3), np.int64, [[4, 2, 6]]),
    (gs.take_along_axis, dict(data=D23, indices=[[2]], axis=1, broadcast=True), (2, 1), np.int64, [[3], [6]]),
    (gs.gather_nd, dict(data=D23, indices=[[1, 2], [0, 0]]), (2,), np.int64, [6, 1]),
    (gs.gather_nd, dict(data=D23, indices=[[1], [1]]), (2, 3), np.int64, [[4, 5, 6], [4, 5, 6]]),
    (gs.gather_nd, dict(data=D23, indices=[1, 0]), (), np.int64, 4),
    (gs.scatter_along_axis, dict(data=D23, indices=[[0, 0]], updates=[[7, 8]], axis=0), (2, 3), np.int64,
     [[7, 8, 3], [4, 5, 6]]),
    (gs.scatter_along_axis, dict(data=np.array([1, 2, 3, 4]), indices=[0, 1, 0, 1, 2, 1], updates=[1, 2, 3, 4, 5, 6],
                                 axis=0, reduction="add"), (4,), np.int64, [5, 14, 8, 4]),
    (gs.scatter_nd, dict(data=np.zeros(4, np.int64), indices=[[1], [1], [3]], updates=[10, 20, 30]), (4,), np.int64,
     [0, 20, 0, 30]),
    (gs.scatter_nd, dict(data=D23, indices=[[1]], updates=[[9, 9, 9]], reduction="max"), (2, 3), np.int64,
     [[1, 2, 3], [9, 9, 9]]),
    (gs.scatter_nd, dict(data=np.array([1.0, 2.0]), indices=[[0], [9]], updates=[5.0, 6.0], bounds="drop"), (2,),
     np.float64, [5.0, 2.0]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("fn", "kw", "shape", "dtype", "expected"), CASES)
def test_out_cases(backend, fn, kw, shape, dtype, expected):
    before = {k: np.array(v, copy=True) for k, v in kw.items() if isinstance(v, np.ndarray)}
    out = np.full(shape, 99, dtype)
    with using_backend(backend):
        res = fn(**kw, out=out)
    assert res is out
    assert out.tolist() == expected
    for k, v in before.items():  # the inputs are untouched
        np.testing.assert_array_equal(kw[k], v)


@pytest.mark.parametrize("backend", BACKENDS)
def test_scatter_nd_in_place_kv_cache(backend):
    cache = np.arange(12, dtype=np.float32).reshape(6, 2)
    upd = np.array([[-1, -2], [-3, -4]], np.float32)
    with using_backend(backend):
        res = gs.scatter_nd(cache, [[4], [0]], upd, out=cache)
    assert res is cache
    assert cache.tolist() == [[-3, -4], [2, 3], [4, 5], [6, 7], [-1, -2], [10, 11]]
    assert upd.tolist() == [[-1, -2], [-3, -4]]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("reduction", "include_self", "expected"),
    [
        ("add", True, [6, 2, 3, 14]),
        ("add", False, [5, 2, 3, 10]),
        ("max", True, [3, 2, 3, 6]),
        ("mean", True, [2, 2, 3, 4]),
        ("none", True, [3, 2, 3, 6]),
    ],
)
def test_scatter_along_axis_in_place(backend, reduction, include_self, expected):
    data = np.array([1, 2, 3, 4], np.int64)
    with using_backend(backend):
        res = gs.scatter_along_axis(data, [0, 3, 0, 3], [2, 4, 3, 6], 0, reduction=reduction,
                                    include_self=include_self, out=data)
    assert res is data
    assert data.tolist() == expected


def test_in_place_through_a_view_of_the_same_memory():
    buf = np.zeros(8, np.int64)
    data = buf.reshape(2, 4)
    res = gs.scatter_nd(data, [[1, 2]], [5], out=buf.reshape(2, 4))  # another view, same layout: in place
    assert res.base is buf
    assert buf.tolist() == [0, 0, 0, 0, 0, 0, 5, 0]


def test_errors_leave_out_and_data_untouched():
    data = np.array([1, 2, 3], np.int64)
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.scatter_nd(data, [[0], [7]], [9, 9], out=data)
    assert data.tolist() == [1, 2, 3]
    with pytest.raises(gs.DuplicateIndexError):
        gs.scatter_nd(data, [[0], [0]], [9, 9], duplicates="raise", out=data)
    assert data.tolist() == [1, 2, 3]
    out = np.full(2, -5, np.int64)
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.take(data, [0, 3], out=out)
    assert out.tolist() == [-5, -5]


def _errors():
    d = np.arange(6, dtype=np.int64).reshape(2, 3)
    i = np.array([0, 1])
    u = np.ones((2, 3), np.int64)
    big = np.zeros((4, 3), np.int64)
    idx_buf = np.zeros(4, np.int64)
    ro = np.zeros((2, 3), np.int64)
    ro.flags.writeable = False
    yield gs.take, dict(data=d, indices=i), [[0, 0, 0]] * 2, "out must be a numpy.ndarray (or None); got list"
    yield gs.take, dict(data=d, indices=i), ro, "out must be writeable"
    yield gs.take, dict(data=d, indices=i), np.zeros((3, 2), np.int64).T, "out must be C-contiguous"
    yield gs.take, dict(data=d, indices=i), np.zeros((3, 2), np.int64), "out must have the result's shape [2, 3]; got [3, 2]"
    yield gs.take, dict(data=d, indices=i), np.zeros((2, 3), np.int32), "result's dtype int64; got int32"
    yield gs.take, dict(data=d, indices=i), np.zeros((2, 3), ">i8"), "result's dtype <i8; got >i8"
    yield gs.take, dict(data=d, indices=i), d, "out must not share memory with data"
    yield gs.take, dict(data=big, indices=i), big[2:], "out must not share memory with data"
    yield gs.take, dict(data=np.arange(4), indices=idx_buf[:2]), idx_buf[2:].reshape(1, 2)[0], None  # disjoint: fine
    yield gs.take, dict(data=np.arange(4), indices=idx_buf), idx_buf, "out must not share memory with indices"
    yield gs.take_along_axis, dict(data=d, indices=np.zeros((2, 3), np.int64), axis=0), d, "share memory with data"
    yield gs.gather_nd, dict(data=d, indices=[[0], [1]]), d, "share memory with data"
    yield gs.scatter_nd, dict(data=d, indices=[[0], [1]], updates=u), u, \
        "out must not share memory with updates (only a scatter's data may be out, as out=data)"
    yield gs.scatter_nd, dict(data=big, indices=[[0]], updates=[[1, 2, 3]]), big.reshape(12), \
        "out overlaps data without being data itself; to update data in place pass out=data"
    yield gs.scatter_nd, dict(data=big, indices=[[0]], updates=[[1, 2, 3]]), big[:2].copy(), \
        "out must have the result's shape [4, 3]; got [2, 3]"
    yield gs.scatter_along_axis, dict(data=d, indices=[[0, 0, 0]], updates=d[:1], axis=0), d, \
        "share memory with updates"
    yield gs.scatter_along_axis, dict(data=d, indices=[[0, 0, 0]], updates=[[1, 1, 1]], axis=0), \
        np.zeros((2, 3)), "result's dtype int64; got float64"


@pytest.mark.parametrize(("fn", "kw", "out", "fragment"), list(_errors()))
def test_out_errors(fn, kw, out, fragment):
    snapshot = {k: np.array(v, copy=True) for k, v in kw.items() if isinstance(v, np.ndarray)}
    out_before = np.array(out, copy=True)
    if fragment is None:
        assert fn(**kw, out=out) is out
        return
    with pytest.raises(gs.ArgumentError) as info:
        fn(**kw, out=out)
    assert fn.__name__ in str(info.value) and fragment in str(info.value)
    assert isinstance(info.value, errors.GatherScatterError) and isinstance(info.value, TypeError)
    for k, v in snapshot.items():
        np.testing.assert_array_equal(kw[k], v)
    np.testing.assert_array_equal(out, out_before)


def test_vjp_refuses_out():
    with pytest.raises(gs.ArgumentError, match="vjp does not take out="):
        gs.vjp(gs.take, np.arange(3.0), [1], out=np.zeros(1))


def _sentinel(shape, dtype):
    out = np.empty(shape, dtype)
    out[...] = np.ones((), dtype) if dtype != np.bool_ else True
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@given(spec_and_arrays(), gather_policies)
def test_property_gather_out_equals_fresh(backend, arrays, policy):
    data, idx, _, spec = arrays
    with using_backend(backend):
        try:
            fresh = gather(data, idx, spec, policy)
        except errors.GatherScatterError as exc:
            out = _sentinel(gather_shape(data.shape, idx.shape, spec), data.dtype)
            keep = out.copy()
            with pytest.raises(type(exc)):
                gather(data, idx, spec, policy, out=out)
            np.testing.assert_array_equal(out, keep)
            return
        out = _sentinel(fresh.shape, fresh.dtype)
        assert gather(data, idx, spec, policy, out=out) is out
    np.testing.assert_array_equal(out, fresh)


@pytest.mark.parametrize("backend", BACKENDS)
@given(spec_and_arrays(scatter_op=True), scatter_policies, st.booleans())
def test_property_scatter_out_equals_fresh(backend, arrays, policy, in_place):
    data, idx, upd, spec = arrays
    data = data.copy()  # writeable, C-contiguous: may be the output itself
    with using_backend(backend):
        try:
            fresh = scatter(data, idx, upd, spec, policy)
        except errors.GatherScatterError as exc:
            target = data if in_place else _sentinel(data.shape, data.dtype)
            keep = target.copy()
            with pytest.raises(type(exc)):
                scatter(data, idx, upd, spec, policy, out=target)
            np.testing.assert_array_equal(target, keep)
            return
        keep = data.copy()
        out = data if in_place else _sentinel(data.shape, data.dtype)
        assert scatter(data, idx, upd, spec, policy, out=out) is out
    np.testing.assert_array_equal(out, fresh)
    if not in_place:
        np.testing.assert_array_equal(data, keep)


@given(st.integers(1, 5), st.integers(0, 6), st.integers(0, 3), st.booleans())
def test_property_neutral_api_out(n, m, c, in_place):
    rng = np.random.default_rng(n * 100 + m * 10 + c)
    data = rng.integers(-9, 9, (n, c + 1))
    idx = rng.integers(-n, n, (m, 1))
    upd = rng.integers(-9, 9, (m, c + 1))
    fresh = gs.gather_nd(data, idx)
    out = np.empty_like(fresh)
    assert gs.gather_nd(data, idx, out=out) is out
    np.testing.assert_array_equal(out, fresh)
    fresh_s = gs.scatter_nd(data, idx, upd, reduction="add")
    target = data if in_place else np.empty_like(data)
    assert gs.scatter_nd(data, idx, upd, reduction="add", out=target) is target
    np.testing.assert_array_equal(target, fresh_s)
