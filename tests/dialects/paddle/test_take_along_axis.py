"""paddle.take_along_axis (3.3.1): case table, error table, property test against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import shapes

from ._helpers import agree, check_errors

X33 = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

CASES = [
    pytest.param(X33, [[0]], 0, True, [[1, 2, 3]], id="docstring"),
    pytest.param([[1, 2], [3, 4]], [[0, 0], [1, 0]], 1, True, [[1, 1], [4, 3]], id="semantics-3.1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [-1]], 1, True, [[1], [6]], id="matrix-negative"),
    pytest.param(X33, [[1, 0]], 1, True, [[2, 1], [5, 4], [8, 7]], id="matrix-broadcast-1x2"),
    pytest.param(X33, [[1, 0]], 1, False, [[2, 1]], id="no-broadcast-1x2"),
    pytest.param(X33, [[0], [2]], 1, False, [[1], [6]], id="no-broadcast-smaller"),
    pytest.param([[1, 2, 3, 4]], [[1], [2], [0]], 1, True, [[2], [3], [1]], id="arr-broadcast-to-indices"),
    pytest.param([[1], [2]], [[0, 0, 0], [0, 0, 0]], 1, True, [[1, 1, 1], [2, 2, 2]], id="indices-longer-along-axis"),
    pytest.param([0.0, 1.0, 2.0, 3.0], [3, -1, 0], 0, True, [3.0, 3.0, 0.0], id="1d"),
    pytest.param(X33, [[2]], -1, True, [[3], [6], [9]], id="negative-axis"),
]


@pytest.mark.parametrize(("arr", "indices", "axis", "broadcast", "expected"), CASES)
def test_cases(arr, indices, axis, broadcast, expected):
    out = gs.paddle.take_along_axis(arr, indices, axis, broadcast=broadcast)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(arr).dtype


def test_empty():
    assert gs.paddle.take_along_axis(np.zeros((3, 4)), np.zeros((3, 0), np.int64), 1).shape == (3, 0)
    assert gs.paddle.take_along_axis(np.zeros((3, 4)), np.zeros((0, 2), np.int64), 1, broadcast=False).shape == (0, 2)
    # empty output: the index is not checked (measured)
    assert gs.paddle.take_along_axis(np.zeros((0, 3)), [[5]], 1).shape == (0, 1)


ERRORS = [
    (dict(arr=X33, indices=[[3]], axis=1), gs.IndexOutOfRangeError,
     ["paddle.take_along_axis", "paddle 3.3.1", "indices[0, 0] = 3", "[-3, 2]"]),
    (dict(arr=X33, indices=[[0], [-4], [0]], axis=1), gs.IndexOutOfRangeError, ["indices[1, 0] = -4"]),
    (dict(arr=np.zeros((3, 0)), indices=[[0]], axis=1), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(arr=X33, indices=[[0], [1]], axis=1), gs.ShapeError, ["do not broadcast", "3 vs 2"]),
    (dict(arr=X33, indices=np.zeros((0, 2), np.int64), axis=1), gs.ShapeError, ["do not broadcast"]),
    (dict(arr=X33, indices=[[0]] * 4, axis=1, broadcast=False), gs.ShapeError, ["broadcast=False", "indices.shape[0]"]),
    (dict(arr=X33, indices=[0, 1], axis=1), gs.ShapeError, ["same number of dimensions"]),
    (dict(arr=X33, indices=[[0]], axis=2), gs.AxisError, ["axis 2", "[-2, 1]"]),
    (dict(arr=3.0, indices=0, axis=0), gs.AxisError, ["0-d"]),
    (dict(arr=X33, indices=np.array([[2], [0], [1]], np.int8), axis=1), gs.DTypeError,
     ["indices dtype int8", "returns garbage"]),
    (dict(arr=X33, indices=np.array([[2], [0], [1]], np.float32), axis=1), gs.DTypeError, ["float32", "garbage"]),
    (dict(arr=X33, indices=np.array([[2], [0], [1]], np.uint16), axis=1), gs.DTypeError, ["uint16"]),
    (dict(arr=X33, indices=np.array([[2], [0], [1]], np.uint64), axis=1), gs.DTypeError, ["uint64"]),
    (dict(arr=np.zeros((1, 1), bool), indices=[[0]], axis=1), gs.DTypeError, ["bool", "no bool kernel"]),
    (dict(arr=np.zeros((1, 1), np.int8), indices=[[0]], axis=1), gs.DTypeError, ["int8"]),
    (dict(arr=np.zeros((1, 1), np.complex64), indices=[[0]], axis=1), gs.DTypeError, ["complex64"]),
    (dict(arr=X33, indices=[[0]], axis=1, broadcast="yes"), gs.ArgumentError, ["broadcast must be a bool"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.take_along_axis, kwargs, cls, fragments)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    r = len(shape)
    axis = draw(st.integers(-r, r - 1))
    a = axis % r
    ishape = tuple(
        draw(st.integers(0, 4)) if d == a else draw(st.sampled_from(sorted({0, 1, shape[d], max(shape[d] - 1, 0), 2})))
        for d in range(r)
    )
    s = shape[a]
    vals = st.integers(-s - 1, s) if s else st.integers(-2, 2)
    n = int(np.prod(ishape))
    index = np.array(draw(st.lists(vals, min_size=n, max_size=n)), dtype=np.int64).reshape(ishape)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return x, index, axis, draw(st.booleans())


@given(inputs())
def test_property_matches_loop_oracle(args):
    x, index, axis, broadcast = args
    agree(
        lambda: oracle.take_along_axis(x, index, axis, broadcast),
        lambda: gs.paddle.take_along_axis(x, index, axis, broadcast=broadcast),
    )
