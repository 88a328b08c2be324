"""paddle.index_select (3.3.1): case table, error table, property test against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import index_arrays, shapes

from ._helpers import agree, check_errors

X = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]

CASES = [
    # docstring example: index [0, 1, 1] on axis 0 and axis 1
    pytest.param(X, [0, 1, 1], 0, [[1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8]], id="docstring-axis-0"),
    pytest.param(X, [0, 1, 1], 1, [[1, 2, 2], [5, 6, 6], [9, 10, 10]], id="docstring-axis-1"),
    pytest.param(X, [-1, 0], 0, [[9, 10, 11, 12], [1, 2, 3, 4]], id="negative-wraps"),
    pytest.param(X, [1, -1], -1, [[2, 4], [6, 8], [10, 12]], id="negative-axis"),
    pytest.param(X, [[2]], 0, [[9, 10, 11, 12]], id="2d-index-n-by-1"),
    pytest.param([True, False], [1, 1], 0, [False, False], id="bool"),
]


@pytest.mark.parametrize(("x", "index", "axis", "expected"), CASES)
def test_cases(x, index, axis, expected):
    out = gs.paddle.index_select(x, index, axis=axis)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype


def test_empty():
    assert gs.paddle.index_select(np.zeros((3, 2)), np.zeros(0, np.int32)).shape == (0, 2)
    # empty output: no index is checked (measured)
    assert gs.paddle.index_select(np.zeros((3, 0)), [5]).shape == (1, 0)


ERRORS = [
    (dict(x=[10, 20, 30], index=[3]), gs.IndexOutOfRangeError,
     ["paddle.index_select", "paddle 3.3.1", "index[0] = 3", "[-3, 2]"]),
    (dict(x=[10, 20, 30], index=[0, -4]), gs.IndexOutOfRangeError, ["index[1] = -4"]),
    (dict(x=np.zeros((0, 2)), index=[0]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=X, index=2), gs.ShapeError, ["1-D", "index shape []"]),
    (dict(x=X, index=[[2, 0]]), gs.ShapeError, ["1-D", "[1, 2]"]),
    (dict(x=X, index=[0], axis=2), gs.AxisError, ["axis 2"]),
    (dict(x=X, index=[0], axis=None), gs.ArgumentError, ["axis must be an int"]),
    (dict(x=5.0, index=[0]), gs.ShapeError, ["rank >= 1"]),
    (dict(x=np.zeros(3, np.int8), index=[0]), gs.DTypeError, ["int8", "no int8 kernel on CPU"]),
    (dict(x=np.zeros(3, np.float16), index=[0]), gs.DTypeError, ["float16"]),
    (dict(x=np.zeros(3, np.uint8), index=[0]), gs.DTypeError, ["uint8"]),
    (dict(x=X, index=np.array([0], np.int8)), gs.DTypeError, ["index dtype int8"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.index_select, kwargs, cls, fragments)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    n = draw(st.integers(0, 5))
    index = draw(index_arrays((n,), shape[axis], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    return np.arange(np.prod(shape), dtype=np.int64).reshape(shape), index, axis


@given(inputs())
def test_property_matches_loop_oracle(args):
    x, index, axis = args
    agree(lambda: oracle.index_select(x, index, axis), lambda: gs.paddle.index_select(x, index, axis))
