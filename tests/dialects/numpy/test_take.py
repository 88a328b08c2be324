"""numpy.take (NumPy 2.4): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import numpy as oracle
from tests.strategies import index_arrays, shapes

# (a, indices, kwargs, expected): typed by hand from the NumPy docstring and docs/behavior-matrix.md#t6-1
CASES = [
    pytest.param([4, 3, 5, 7, 6, 8], [0, 1, 4], {}, [4, 3, 6], id="numpy-doc-1"),
    pytest.param([4, 3, 5, 7, 6, 8], [[0, 1], [2, 3]], {}, [[4, 3], [5, 7]], id="numpy-doc-2d-indices"),
    pytest.param([[1, 2], [3, 4], [5, 6]], [1], {}, [2], id="bm-default-axis-flattens"),
    pytest.param([[1, 2], [3, 4], [5, 6]], [1], {"axis": 0}, [[3, 4]], id="axis-0"),
    pytest.param([[1, 2], [3, 4], [5, 6]], [1, 0], {"axis": -1}, [[2, 1], [4, 3], [6, 5]], id="bm-negative-axis"),
    pytest.param([10, 20, 30], [0, -1], {}, [10, 30], id="bm-negative-wraps"),
    pytest.param([10, 20, 30], [0, -1], {"mode": "wrap"}, [10, 30], id="bm-wrap-negative"),
    pytest.param([10, 20, 30], [0, -1], {"mode": "clip"}, [10, 10], id="bm-clip-negative-to-0"),
    pytest.param([10, 20, 30], [0, 3], {"mode": "wrap"}, [10, 10], id="bm-wrap-3"),
    pytest.param([10, 20, 30], [0, 3], {"mode": "clip"}, [10, 30], id="bm-clip-3"),
    pytest.param([10, 20, 30], [0, -4], {"mode": "wrap"}, [10, 30], id="bm-wrap-minus-4"),
    pytest.param([10, 20, 30], [0, -4], {"mode": "clip"}, [10, 10], id="bm-clip-minus-4"),
    pytest.param([10, 20, 30], [7, -8], {"mode": "wrap"}, [20, 20], id="wrap-far"),
    pytest.param([10, 20, 30], [0], {"mode": None}, [10], id="mode-None-is-raise"),
    pytest.param([10, 20, 30], [1.5, 2.9], {}, [20, 30], id="float-list-truncates"),
    pytest.param([10, 20, 30], np.array([True, False]), {}, [20, 10], id="bool-array-reads-0-1"),
    pytest.param([10, 20, 30], np.array([2**64 - 1], np.uint64), {}, [30], id="uint64-wraps-to-minus-1"),
    pytest.param([10, 20, 30], np.array([-1], np.int8), {"mode": "wrap"}, [30], id="int8"),
    pytest.param(np.array(5), [0, 0], {"axis": -1}, [5, 5], id="0d-a-reads-as-1d"),
    pytest.param(["a", "bb"], [1, 0], {}, ["bb", "a"], id="strings"),
    pytest.param([[1, 2], [3, 4]], [[1, 1, 0]], {"axis": 0}, [[[3, 4], [3, 4], [1, 2]]], id="duplicates"),
]


@pytest.mark.parametrize(("a", "indices", "kwargs", "expected"), CASES)
def test_cases(a, indices, kwargs, expected):
    out = gs.numpy.take(a, indices, **kwargs)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(a).dtype


def test_scalar_index_gives_0d_array_and_inputs_untouched():
    a = np.arange(6.0).reshape(2, 3)
    a0 = a.copy()
    out = gs.numpy.take(a, 4)
    assert isinstance(out, np.ndarray) and out.shape == () and out == 4.0
    out = gs.numpy.take(a, 1, axis=1)
    assert out.tolist() == [1.0, 4.0] and not np.shares_memory(out, a)
    np.testing.assert_array_equal(a, a0)


def test_object_and_datetime_data():
    obj = np.array([1, "x", None], dtype=object)
    assert gs.numpy.take(obj, [2, 1]).tolist() == [None, "x"]
    dt = np.array(["2020-01-01", "2021-02-03"], dtype="M8[D]")
    assert gs.numpy.take(dt, [1, 1]).dtype == dt.dtype


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_empty_axis_with_empty_result_matches_oracle(mode):
    a = np.zeros((2, 0, 0))
    try:
        expected = oracle.take(a, np.array([[1]]), 1, mode)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.numpy.take(a, [[1]], axis=1, mode=mode)
        return
    assert gs.numpy.take(a, [[1]], axis=1, mode=mode).shape == expected.shape == (2, 1, 1, 0)


def test_empty_cases_follow_numpy():
    assert gs.numpy.take(np.zeros((0, 2)), [], axis=0).shape == (0, 2)
    # no outer row is read: NumPy checks nothing
    assert gs.numpy.take(np.zeros((0, 3)), [[5]], axis=1).shape == (0, 1, 1)
    assert gs.numpy.take(np.zeros((0, 0)), [[-1]], axis=0, mode="clip").shape == (1, 1, 0)
    assert gs.numpy.take(np.zeros((0, 0)), [[-1]], axis=0, mode="wrap").shape == (1, 1, 0)


ERRORS = [
    (dict(a=[10, 20, 30], indices=[0, 3]), gs.IndexOutOfRangeError,
     ["numpy.take (numpy 2.4)", "indices[1] = 3", "axis 0", "[-3, 2]"]),
    (dict(a=[[1, 2]], indices=[[0], [-3]], axis=1), gs.IndexOutOfRangeError, ["indices[1, 0] = -3", "[-2, 1]"]),
    (dict(a=np.zeros((2, 0)), indices=[0], axis=1, mode="clip"), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(a=np.zeros((0, 0)), indices=[0], axis=0), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(a=[1, 2], indices=np.array([0.0])), gs.DTypeError, ["integer array", "float64", "same_kind"]),
    (dict(a=[1, 2], indices=[1 + 0j]), gs.DTypeError, ["indices cannot be read as integers"]),
    (dict(a=[1, 2], indices=[float("nan")]), gs.DTypeError, ["indices"]),
    (dict(a=[1, 2], indices=[2**64]), gs.DTypeError, ["too large"]),
    (dict(a=[1, 2], indices=[0], mode="foo"), gs.ArgumentError, ["clipmode", "'foo'"]),
    (dict(a=[1, 2], indices=[0], mode=1), gs.ArgumentError, ["mode"]),
    (dict(a=[1, 2], indices=[0], axis=1), gs.AxisError, ["axis 1", "rank 1"]),
    (dict(a=[1, 2], indices=[0], axis=0.0), gs.ArgumentError, ["axis must be an int"]),
    (dict(a=[[1], [2, 3]], indices=[0]), gs.ShapeError, ["a is not an array NumPy can read"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.numpy.take(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)
    assert isinstance(info.value, gs.GatherScatterError)


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.numpy.take(np.zeros((2, 3)), [[0, 1], [5, 0]], axis=1)
    assert info.value.value == 5 and info.value.position == (1, 0) and info.value.valid == (-3, 2)


@st.composite
def take_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    mode = draw(st.sampled_from(["raise", "wrap", "clip"]))
    axis = draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    size = int(np.prod(shape)) if axis is None else shape[axis]
    ishape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    idx = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from([np.int32, np.int64]))))
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape), idx, axis, mode


@given(take_inputs())
def test_property_matches_loop_oracle(args):
    a, idx, axis, mode = args
    try:
        expected = oracle.take(a, idx, axis, mode)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.numpy.take(a, idx, axis=axis, mode=mode)
        return
    out = gs.numpy.take(a, idx, axis=axis, mode=mode)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
