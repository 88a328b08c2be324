"""numpy.take_along_axis and numpy.put_along_axis (NumPy 2.4): cases, errors, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import numpy as oracle
from tests.strategies import index_arrays, shapes

A = [[1, 2], [3, 4]]
M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

TAKE_CASES = [
    pytest.param(A, [[0, 0], [1, 0]], {}, [[1, 1], [4, 3]], id="bm-default-axis-is-minus-1"),
    pytest.param([[10, 30, 20], [60, 40, 50]], [[0], [1]], {"axis": 1}, [[10], [40]], id="numpy-doc-argmin"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [-1]], {"axis": 1}, [[1], [6]], id="bm-negative-wraps"),
    pytest.param(M, [[2, 0]], {"axis": 1}, [[3, 1], [6, 4], [9, 7]], id="bm-index-1x2-broadcast"),
    pytest.param([[1, 2]], [[1], [0], [1]], {"axis": 1}, [[2], [1], [2]], id="arr-broadcast"),
    pytest.param(A, np.array([3, -1]), {"axis": None}, [4, 4], id="axis-None-flat"),
    pytest.param(M, [[0, 2, 1]], {"axis": 0}, [[1, 8, 6]], id="axis-0"),
    pytest.param(A, np.array([[1]], np.uint64), {"axis": 1}, [[2], [4]], id="uint64"),
    pytest.param(A, np.array([[2**64 - 1]], np.uint64), {"axis": 1}, [[2], [4]], id="uint64-wraps"),
    pytest.param(np.zeros((2, 0)), np.zeros((2, 0), int), {"axis": 1}, [[], []], id="bm-empty"),
]


@pytest.mark.parametrize(("arr", "indices", "kwargs", "expected"), TAKE_CASES)
def test_take_cases(arr, indices, kwargs, expected):
    out = gs.numpy.take_along_axis(arr, indices, **kwargs)
    assert out.tolist() == expected and out.dtype == np.asarray(arr).dtype


PUT_CASES = [
    pytest.param([[10, 30, 20], [60, 40, 50]], [[1], [0]], 99, 1, [[10, 99, 20], [99, 40, 50]], id="numpy-doc"),
    pytest.param([0, 0, 0, 0], [1, 1, 1], [10, 20, 30], 0, [0, 30, 0, 0], id="bm-duplicates-last-wins"),
    pytest.param([1, 2, 3], [-1], [9], 0, [1, 2, 9], id="bm-negative"),
    pytest.param([[0, 0], [0, 0]], [[1, 0]], [[5, 6]], -1, [[6, 5], [6, 5]], id="bm-negative-axis-broadcast"),
    pytest.param([[0, 0, 0]], [[0], [1], [2]], [[1], [2], [3]], 1, [[1, 2, 3]], id="arr-size-1-dim-folded"),
    pytest.param([[0, 0, 0]], [[0, 1], [1, 0]], [[1, 2], [3, 4]], 1, [[4, 3, 0]], id="folded-order-is-C"),
    pytest.param([[0, 0], [0, 0]], [3, 0, 3], [1, 2, 3], None, [[2, 0], [0, 3]], id="axis-None"),
    pytest.param([0, 0, 0], [1], [1.7], 0, [0, 1, 0], id="values-cast-unsafely"),
    pytest.param([0, 0, 0], [1], ["5"], 0, [0, 5, 0], id="values-parsed"),
    pytest.param(np.zeros(3, np.int8), [1], np.array([300]), 0, [0, 44, 0], id="int8-array-wraps"),
    pytest.param(np.array(["a", "b"]), [1], ["xyz"], 0, ["a", "x"], id="str-truncates"),
    pytest.param([1, 2, 3], np.zeros(0, int), [9], 0, [1, 2, 3], id="bm-empty"),
]


@pytest.mark.parametrize(("arr", "indices", "values", "axis", "expected"), PUT_CASES)
def test_put_cases(arr, indices, values, axis, expected):
    arr0 = np.array(arr, copy=True)
    out = gs.numpy.put_along_axis(arr, indices, values, axis)
    assert out.tolist() == expected and out.dtype == np.asarray(arr).dtype
    np.testing.assert_array_equal(np.asarray(arr), arr0)  # never modified


TAKE_ERRORS = [
    (dict(arr=[[1, 2, 3]], indices=[[3]], axis=1), gs.IndexOutOfRangeError,
     ["numpy.take_along_axis (numpy 2.4)", "indices[0, 0] = 3", "axis 1", "[-3, 2]"]),
    (dict(arr=[[1, 2, 3]], indices=[[-4]], axis=1), gs.IndexOutOfRangeError, ["= -4"]),
    (dict(arr=np.zeros((2, 0)), indices=np.zeros((2, 1), int), axis=1), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(arr=A, indices=[[True]], axis=1), gs.DTypeError, ["`indices` must be an integer array", "bool"]),
    (dict(arr=A, indices=[[1.0]], axis=1), gs.DTypeError, ["float64"]),
    (dict(arr=A, indices=[1], axis=1), gs.ShapeError, ["same number of dimensions"]),
    (dict(arr=A, indices=[[0, 0]], axis=None), gs.ShapeError, ["axis=None", "single dimension"]),
    (dict(arr=M, indices=[[0], [1]], axis=1), gs.ShapeError, ["shape mismatch"]),
    (dict(arr=A, indices=[[0]], axis=2), gs.AxisError, ["axis 2"]),
    (dict(arr=5, indices=[0], axis=-1), gs.AxisError, ["0-d"]),
    (dict(arr=A, indices=[[0]], axis=1.0), gs.ArgumentError, ["axis must be an int"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), TAKE_ERRORS)
def test_take_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.numpy.take_along_axis(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


PUT_ERRORS = [
    (dict(arr=[1, 2, 3], indices=[3], values=[9], axis=0), gs.IndexOutOfRangeError,
     ["numpy.put_along_axis (numpy 2.4)", "indices[0] = 3", "[-3, 2]"]),
    (dict(arr=[1, 2, 3], indices=[0], values=[1, 2], axis=0), gs.ShapeError,
     ["value array of shape [2]", "indexing result of shape [1]"]),
    (dict(arr=[[0, 0, 0]], indices=[[1]], values=[[7, 8]], axis=1), gs.ShapeError, ["value array"]),
    (dict(arr=[1, 2, 3], indices=[0], values=[], axis=0), gs.ShapeError, ["value array of shape [0]"]),
    (dict(arr=[0, 0], indices=[0], values=["x"], axis=0), gs.DTypeError, ["values cannot be converted to int64"]),
    (dict(arr=[0.0, 0.0], indices=[0], values=[1 + 1j], axis=0), gs.DTypeError, ["values"]),
    (dict(arr=np.zeros(3, np.int8), indices=[0], values=[300], axis=0), gs.DTypeError, ["does not fit int8"]),
    (dict(arr=[1, 2, 3], indices=np.array(0), values=[9], axis=None), gs.ShapeError, ["single dimension"]),
    (dict(arr=[1, 2, 3], indices=[0.0], values=[9], axis=0), gs.DTypeError, ["integer array"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), PUT_ERRORS)
def test_put_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.numpy.put_along_axis(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def along_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    a = axis % len(shape)
    ishape = tuple(
        draw(st.integers(0, 3)) if d == a else draw(st.sampled_from([n, 1, 2])) for d, n in enumerate(shape)
    )
    idx = draw(index_arrays(ishape, shape[a], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1
    vshape = draw(st.sampled_from([(), ishape, (1,) * len(ishape)]))
    values = -(np.arange(np.prod(vshape), dtype=np.float64).reshape(vshape) + 1)
    return data, idx, axis, values


@given(along_inputs())
def test_take_property_matches_loop_oracle(args):
    data, idx, axis, _ = args
    try:
        expected = oracle.take_along_axis(data, idx, axis)
    except (IndexError, ValueError) as exc:
        with pytest.raises(gs.IndexOutOfRangeError if isinstance(exc, IndexError) else gs.ShapeError):
            gs.numpy.take_along_axis(data, idx, axis)
        return
    out = gs.numpy.take_along_axis(data, idx, axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


@given(along_inputs())
def test_put_property_matches_loop_oracle(args):
    data, idx, axis, values = args
    try:
        expected = oracle.put_along_axis(data, idx, values, axis)
    except (IndexError, ValueError) as exc:
        with pytest.raises(gs.IndexOutOfRangeError if isinstance(exc, IndexError) else gs.ShapeError):
            gs.numpy.put_along_axis(data, idx, values, axis)
        return
    out = gs.numpy.put_along_axis(data, idx, values, axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
