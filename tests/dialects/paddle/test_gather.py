"""paddle.gather (3.3.1): case table, error table, property test against the loop oracle."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import index_arrays, shapes

from ._helpers import agree, check_errors

X32 = [[1, 2], [3, 4], [5, 6]]

# (x, index, axis, expected): typed by hand from the paddle docstring and docs/behavior-matrix.md#t6-1
CASES = [
    pytest.param(X32, [1, 2], None, [[3, 4], [5, 6]], id="docstring-text"),
    pytest.param(X32, [0, 1], 0, [[1, 2], [3, 4]], id="docstring-example"),
    pytest.param(X32, [1], None, [[3, 4]], id="matrix-default-axis-0"),
    pytest.param([10, 20, 30], [0, -1], None, [10, 30], id="matrix-negative-wraps"),
    pytest.param([10, 20, 30], [-3], 0, [10], id="most-negative"),
    pytest.param(X32, 1, None, [3, 4], id="0d-index-drops-axis"),
    pytest.param(X32, -1, 1, [2, 4, 6], id="0d-index-axis-1"),
    pytest.param(X32, [1, 0], -1, [[2, 1], [4, 3], [6, 5]], id="negative-axis"),
    pytest.param(X32, [[2], [0]], 0, [[5, 6], [1, 2]], id="2d-index-last-dim-1"),
    pytest.param(X32, [1, 1, 1], 0, [[3, 4], [3, 4], [3, 4]], id="duplicates"),
    pytest.param(
        np.arange(24).reshape(2, 3, 4), 2, 1, [[8, 9, 10, 11], [20, 21, 22, 23]], id="3d-axis-1-scalar"
    ),
    pytest.param([True, False, True], [2, 1], 0, [True, False], id="bool"),
]


@pytest.mark.parametrize(("x", "index", "axis", "expected"), CASES)
def test_cases(x, index, axis, expected):
    out = gs.paddle.gather(x, index, axis=axis)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype


def test_empty_and_unchecked_empty_output():
    assert gs.paddle.gather(np.zeros((3, 2), np.float32), np.zeros(0, np.int64)).shape == (0, 2)
    assert gs.paddle.gather(np.zeros((3, 2)), np.zeros((2, 0), np.int64)).shape == (0, 2)
    # paddle checks no index when the output is empty (measured: (1, 0), no error)
    assert gs.paddle.gather(np.zeros((3, 0)), [5]).shape == (1, 0)
    assert gs.paddle.gather(np.zeros((0, 3)), [5], axis=1).shape == (0, 1)


def test_dtypes_kept_and_inputs_untouched():
    for dt in (np.int8, np.int16, np.uint8, np.int32, np.float64, np.complex64, np.complex128, ml_dtypes.bfloat16):
        x = np.arange(6).reshape(3, 2).astype(dt)
        i = np.array([2, 0], np.int32)
        x0, i0 = x.copy(), i.copy()
        out = gs.paddle.gather(x, i)
        assert out.dtype == x.dtype and out.astype(np.complex128).real.tolist() == [[4, 5], [0, 1]]
        assert not np.shares_memory(out, x)
        np.testing.assert_array_equal(x, x0)
        np.testing.assert_array_equal(i, i0)


def test_0d_result_is_array():
    out = gs.paddle.gather([10, 20, 30], 2)
    assert isinstance(out, np.ndarray) and out.shape == () and out == 30


ERRORS = [
    (dict(x=[10, 20, 30], index=[0, 3]), gs.IndexOutOfRangeError,
     ["paddle.gather", "paddle 3.3.1", "index[1] = 3", "axis 0", "[-3, 2]"]),
    (dict(x=[10, 20, 30], index=[0, -4]), gs.IndexOutOfRangeError, ["index[1] = -4", "[-3, 2]"]),
    (dict(x=[[1, 2]], index=[0, 5], axis=1), gs.IndexOutOfRangeError, ["index[1] = 5", "axis 1", "[-2, 1]"]),
    (dict(x=np.zeros((0, 2)), index=[0]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=X32, index=[0], axis=2), gs.AxisError, ["axis 2", "[-2, 1]"]),
    (dict(x=X32, index=[0], axis=-3), gs.AxisError, ["axis -3", "[-2, 1]"]),
    (dict(x=X32, index=[0], axis=1.0), gs.ArgumentError, ["axis must be an int"]),
    (dict(x=5, index=[0]), gs.ShapeError, ["rank >= 1", "0-d x"]),
    (dict(x=X32, index=[[0, 1], [1, 2]]), gs.ShapeError, ["index must be 0-D or 1-D", "[2, 2]"]),
    (dict(x=X32, index=np.zeros((1, 1, 1), np.int64)), gs.ShapeError, ["[1, 1, 1]"]),
    (dict(x=X32, index=np.array([0], np.int16)), gs.DTypeError, ["index dtype int16", "int32, int64"]),
    (dict(x=X32, index=np.array([0], np.uint8)), gs.DTypeError, ["uint8"]),
    (dict(x=X32, index=[0.0]), gs.DTypeError, ["integer dtype", "float64"]),
    (dict(x=np.zeros(3, np.float16), index=[0]), gs.DTypeError,
     ["x dtype float16", "no float16 kernel on CPU", "paddle 3.3.1"]),
    (dict(x=np.zeros(3, np.uint16), index=[0]), gs.DTypeError, ["uint16", "bfloat16 bits"]),
    (dict(x=np.zeros(3, np.uint64), index=[0]), gs.DTypeError, ["uint64", "rejects"]),
    (dict(x=np.array(["a", "b"]), index=[0]), gs.DTypeError, ["str is not a paddle dtype"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.gather, kwargs, cls, fragments)


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.paddle.gather(np.zeros((2, 3)), [0, 1, 5], axis=1)
    assert info.value.value == 5 and info.value.position == (2,) and info.value.valid == (-3, 2)


@st.composite
def gather_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    size = shape[0 if axis is None else axis]
    ishape = draw(st.sampled_from([(), (0,), (1,), (3,), (5,), (2, 1)]))
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    index = draw(index_arrays(ishape, size, dtype=dtype))
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return x, index, axis


@given(gather_inputs())
def test_property_matches_loop_oracle(args):
    x, index, axis = args
    agree(lambda: oracle.gather(x, index, axis), lambda: gs.paddle.gather(x, index, axis=axis))
