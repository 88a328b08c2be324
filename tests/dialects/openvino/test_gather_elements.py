"""openvino.GatherElements (version 6): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

# (data, indices, axis, expected): the GatherElements-6 spec examples and docs/behavior-matrix.md#t6-2
CASES = [
    pytest.param([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0, [[1, 4], [1, 2]], id="spec-example-1"),
    pytest.param([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], 1, [[7, 7, 1], [3, 4, 3]], id="spec-example-2-longer"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]], 0, [[4, 2, 6], [4, 8, 3]],
                 id="spec-example-3-shorter-on-axis"),
    pytest.param([[1, 2], [3, 4]], [[0, 0], [1, 0]], 0, [[1, 2], [3, 2]], id="matrix-axis-0"),
    pytest.param([[1, 2], [3, 4]], [[0, 0], [1, 0]], -1, [[1, 1], [4, 3]], id="matrix-negative-axis"),
    pytest.param([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[[1], [0]], [[0], [1]]], 2, [[[1], [2]], [[4], [7]]],
                 id="3d-axis-2"),
    pytest.param([5, 6, 7], [2, 2, 0, 1], 0, [7, 7, 5, 6], id="1d-duplicates"),
]


@pytest.mark.parametrize(("data", "indices", "axis", "expected"), CASES)
def test_cases(data, indices, axis, expected):
    out = gs.openvino.GatherElements(data, indices, axis)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype
    assert gs.openvino.GatherElements(data, np.asarray(indices, np.int32), axis, version=6).tolist() == expected


def test_empty_and_dtypes():
    out = gs.openvino.GatherElements(np.ones((2, 2), np.float32), np.zeros((2, 0), np.int64), 1)
    assert out.shape == (2, 0) and out.dtype == np.float32
    out = gs.openvino.GatherElements(np.ones((2, 0)), np.zeros((2, 0), np.int64), 1)
    assert out.shape == (2, 0)
    d = np.array([1.2345678901234567, 2.0])
    assert gs.openvino.GatherElements(d, [0, 1, 0], 0).tolist() == [d[0], 2.0, d[0]]
    assert gs.openvino.GatherElements([True, False], [1, 1], 0).tolist() == [False, False]


def test_inputs_untouched():
    d = np.arange(6, dtype=np.uint16).reshape(2, 3)
    i = np.array([[2], [0]], np.int32)
    d0, i0 = d.copy(), i.copy()
    out = gs.openvino.GatherElements(d, i, 1)
    assert out.tolist() == [[2], [3]] and out.dtype == np.uint16
    assert not np.shares_memory(out, d)
    np.testing.assert_array_equal(d, d0)
    np.testing.assert_array_equal(i, i0)


ERRORS = [
    (([[1, 2, 3]], [[0, -1]], 1), gs.IndexOutOfRangeError,
     ["openvino.GatherElements (GatherElements-6)", "indices[0, 1] = -1", "negative", "[0, 2]"]),
    (([[1, 2, 3]], [[0, 3]], 1), gs.IndexOutOfRangeError, ["indices[0, 1] = 3", "axis 1", "size 3"]),
    (([[1, 2, 3]], [[0, -4]], 1), gs.IndexOutOfRangeError, ["indices[0, 1] = -4"]),
    ((np.ones((2, 0)), np.zeros((2, 1), np.int64), 1), gs.IndexOutOfRangeError, ["size 0"]),
    (([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0], [1]], 1), gs.ShapeError,
     ["shape of data except on axis 1", "indices.shape[0] = 2", "data.shape[0] = 3"]),
    (([[1, 2], [3, 4]], [[0], [1], [0]], 1), gs.ShapeError, ["indices.shape[0] = 3"]),
    (([[1, 2], [3, 4]], [0, 1], 1), gs.ShapeError, ["rank of data (2)", "[2]"]),
    ((5, 0, 0), gs.ShapeError, ["data must have rank >= 1"]),
    (([[1, 2]], [[0]], 2), gs.AxisError, ["axis 2", "[-2, 1]"]),
    (([1, 2], np.array([0], np.int16), 0), gs.DTypeError, ["int16", "int32, int64"]),
    (([1, 2], np.array([0], np.uint8), 0), gs.DTypeError, ["uint8"]),
    ((np.array(["a", "b"]), [0], 0), gs.DTypeError, ["dtype str", "string"]),
    ((np.array([1j]), [0], 0), gs.DTypeError, ["complex"]),
    (([1, 2], [0], 0.5), gs.ArgumentError, ["axis must be an int"]),
]


@pytest.mark.parametrize(("args", "error", "fragments"), ERRORS)
def test_errors(args, error, fragments):
    with pytest.raises(error) as info:
        gs.openvino.GatherElements(*args)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_unknown_version():
    with pytest.raises(gs.UnsupportedError, match="no GatherElements-8"):
        gs.openvino.GatherElements([1], [0], 0, version=8)


@st.composite
def elements_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(dshape)
    axis = draw(st.integers(-r, r - 1))
    a = axis + r if axis < 0 else axis
    ishape = list(dshape)
    ishape[a] = draw(st.integers(0, 4))
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    indices = draw(index_arrays(tuple(ishape), dshape[a], dtype=dtype))
    data = np.arange(1, int(np.prod(dshape)) + 1, dtype=np.float64).reshape(dshape)
    return data, indices, axis


@given(elements_cases())
def test_matches_oracle(case):
    data, indices, axis = case
    try:
        expected = oracle.gather_elements(data, indices, axis)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.openvino.GatherElements(data, indices, axis)
        return
    out = gs.openvino.GatherElements(data, indices, axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
