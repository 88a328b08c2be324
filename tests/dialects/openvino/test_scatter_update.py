"""openvino.ScatterUpdate (version 3): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

SU = gs.openvino.ScatterUpdate

# (data, indices, updates, axis, expected): the ScatterUpdate-3 spec and docs/behavior-matrix.md#t6-6, by hand
CASES = [
    pytest.param([[-1.0, 1.0, -1.0, 3.0, 4.0], [-1.0, 6.0, -1.0, 8.0, 9.0], [-1.0, 11.0, 1.0, 13.0, 14.0]],
                 [0, 2], [[1.0, 1.0], [1.0, 1.0], [1.0, 2.0]], 1,
                 [[1.0, 1.0, 1.0, 3.0, 4.0], [1.0, 6.0, 1.0, 8.0, 9.0], [1.0, 11.0, 2.0, 13.0, 14.0]],
                 id="spec-example-2"),
    pytest.param([[0, 0], [0, 0], [0, 0]], 1, [9, 8], 0, [[0, 0], [9, 8], [0, 0]], id="spec-0d-indices"),
    pytest.param([[0, 0], [0, 0], [0, 0]], [2, 0], [[1, 2], [3, 4]], 0, [[3, 4], [0, 0], [1, 2]], id="1d-indices"),
    pytest.param([[0, 0, 0, 0], [0, 0, 0, 0]], [[3, 0], [1, 1]], [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], 1,
                 [[2, 4, 0, 1], [6, 8, 0, 5]], id="2d-indices-duplicates-last"),
    pytest.param([[0, 0, 0], [0, 0, 0]], [2, 0], [[1, 2], [3, 4]], -1, [[2, 0, 1], [4, 0, 3]], id="matrix-negative-axis"),
    pytest.param([[1, 1], [2, 2], [3, 3]], [1, 1], [[10, 10], [20, 20]], 0, [[1, 1], [20, 20], [3, 3]],
                 id="matrix-duplicates-onto-data"),
    pytest.param([[1, 1], [2, 2]], np.zeros(0, np.int64), np.zeros((0, 2), np.int64), 0, [[1, 1], [2, 2]],
                 id="matrix-empty"),
    pytest.param([False, False], [1], [True], 0, [False, True], id="bool"),
]


@pytest.mark.parametrize(("data", "indices", "updates", "axis", "expected"), CASES)
def test_cases(data, indices, updates, axis, expected):
    out = SU(data, indices, updates, axis)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_every_integer_index_type(dtype):
    assert SU([0.0, 0.0, 0.0], np.array([2], dtype), [5.0], np.array([0], np.int32)).tolist() == [0.0, 0.0, 5.0]


def test_duplicates_policy_and_inputs_untouched():
    d = np.zeros((3, 2), np.float32)
    i = np.array([1, 1])
    u = np.array([[1, 2], [3, 4]], np.float32)
    d0, i0, u0 = d.copy(), i.copy(), u.copy()
    assert SU(d, i, u, 0, duplicates="first").tolist() == [[0, 0], [1, 2], [0, 0]]
    with pytest.raises(gs.DuplicateIndexError, match=r"indices\[0\] and indices\[1\]"):
        SU(d, i, u, 0, duplicates="raise")
    out = SU(d, i, u, 0)
    assert out.tolist() == [[0, 0], [3, 4], [0, 0]] and not np.shares_memory(out, d)
    for a, b in ((d, d0), (i, i0), (u, u0)):
        np.testing.assert_array_equal(a, b)


ERRORS = [
    (([1, 2, 3], [-1], [9], 0), {}, gs.IndexOutOfRangeError,
     ["openvino.ScatterUpdate (ScatterUpdate-3)", "indices[0] = -1", "negative", "[0, 2]"]),
    (([1, 2, 3], [0, 3], [9, 9], 0), {}, gs.IndexOutOfRangeError, ["indices[1] = 3", "axis 0", "size 3"]),
    (([[1, 2, 3]], [[0, 5]], [[[9, 9]]], 1), {}, gs.IndexOutOfRangeError, ["indices[0, 1] = 5", "axis 1"]),
    (([[0, 0], [0, 0], [0, 0]], [2], [5, 6], 0), {}, gs.ShapeError, ["updates must have shape [1, 2]", "got [2]"]),
    (([[0, 0], [0, 0]], [1], [[5, 6]], 1), {}, gs.ShapeError, ["updates must have shape [2, 1]", "got [1, 2]"]),
    ((5, 0, 5, 0), {}, gs.AxisError, ["0-d"]),
    (([1, 2], [0], [1], 2), {}, gs.AxisError, ["axis 2"]),
    (([1, 2], [0], [1], 0.0), {}, gs.ArgumentError, ["axis must be an int"]),
    (([1, 2], [0.0], [1], 0), {}, gs.DTypeError, ["indices", "float64"]),
    ((np.array([1j]), [0], np.array([1j]), 0), {}, gs.DTypeError, ["complex"]),
    (([1, 2], [0], [1], 0), dict(version=4), gs.UnsupportedError, ["no ScatterUpdate-4", "[3]"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        SU(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def su_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=3, max_side=3))
    r = len(dshape)
    axis = draw(st.integers(-r, r - 1))
    a = axis + r if axis < 0 else axis
    ishape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    idt = draw(st.sampled_from([np.int32, np.int64, np.uint8, np.int16]))
    indices = draw(index_arrays(tuple(ishape), dshape[a], dtype=idt))
    dtype = draw(st.sampled_from([np.float64, np.int32]))
    data = np.arange(int(np.prod(dshape)), dtype=dtype).reshape(dshape)
    ushape = tuple(dshape[:a]) + tuple(ishape) + tuple(dshape[a + 1 :])
    updates = (100 + np.arange(int(np.prod(ushape)))).astype(dtype).reshape(ushape)
    return data, indices, updates, axis


@given(su_cases())
def test_matches_oracle(case):
    data, indices, updates, axis = case
    try:
        expected = oracle.scatter_update(data, indices, updates, axis)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            SU(data, indices, updates, axis)
        return
    out = SU(data, indices, updates, axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
