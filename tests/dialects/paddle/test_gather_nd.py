"""paddle.gather_nd (3.3.1): case table, error table, property test against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import index_values, shapes

from ._helpers import agree, check_errors

X234 = np.arange(24).reshape(2, 3, 4)  # the docstring's x
X12 = [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]  # the docstring example's x

CASES = [
    pytest.param(X234, [[1]], [[[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]], id="doc-case-1"),
    pytest.param(X234, [[0, 2]], [[8, 9, 10, 11]], id="doc-case-2"),
    pytest.param(X234, [[1, 2, 3]], [23], id="doc-case-3"),
    pytest.param(X12, [[0, 1]], [[3, 4]], id="doc-example"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 0], [-1, 0]], [1, 7], id="matrix-negative"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1]], [[4, 5, 6]], id="matrix-partial-index"),
    pytest.param(X12, [1, -1, 0], 11, id="1d-index-is-one-tuple"),
    pytest.param([[1, 2], [3, 4]], np.zeros((2, 0), np.int64), [[[1, 2], [3, 4]], [[1, 2], [3, 4]]], id="k0"),
    pytest.param([[1, 2], [3, 4]], np.zeros((0,), np.int64), [[1, 2], [3, 4]], id="k0-1d"),
    pytest.param(7.0, np.zeros((2, 0), np.int64), [7.0, 7.0], id="k0-0d-x"),
    pytest.param([[1, 2], [3, 4]], [[[1], [0]], [[0], [0]]], [[[3, 4], [1, 2]], [[1, 2], [1, 2]]], id="3d-index"),
]


@pytest.mark.parametrize(("x", "index", "expected"), CASES)
def test_cases(x, index, expected):
    out = gs.paddle.gather_nd(x, index)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype


def test_empty():
    assert gs.paddle.gather_nd(np.zeros((3, 3)), np.zeros((0, 2), np.int64)).shape == (0,)
    assert gs.paddle.gather_nd(np.zeros((3, 4)), np.zeros((0, 1), np.int64)).shape == (0, 4)
    # empty output: no index is checked (measured: (1, 0), no error)
    assert gs.paddle.gather_nd(np.zeros((3, 0)), [[5]]).shape == (1, 0)


ERRORS = [
    (dict(x=np.zeros((3, 3)), index=[[3, 0]]), gs.IndexOutOfRangeError,
     ["paddle.gather_nd", "paddle 3.3.1", "index[0, 0] = 3", "[-3, 2]"]),
    (dict(x=np.zeros((3, 3)), index=[[0, 0], [0, -4]]), gs.IndexOutOfRangeError, ["index[1, 1] = -4", "axis 1"]),
    (dict(x=np.zeros((0, 3)), index=[[0]]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=np.zeros((3, 3)), index=1), gs.ShapeError, ["rank >= 1", "0-d index"]),
    (dict(x=np.zeros((3, 3)), index=np.zeros((1, 3), np.int64)), gs.ShapeError, ["must be <= rank(x) = 2", "got 3"]),
    (dict(x=np.zeros(3, np.float16), index=[[0]]), gs.DTypeError, ["float16", "no float16 kernel"]),
    (dict(x=np.zeros(3, np.uint16), index=[[0]]), gs.DTypeError, ["uint16"]),
    (dict(x=np.zeros(3), index=np.array([[0]], np.int8)), gs.DTypeError, ["index dtype int8"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.gather_nd, kwargs, cls, fragments)


def test_bfloat16_rejected():
    import ml_dtypes

    with pytest.raises(gs.DTypeError, match="bfloat16"):
        gs.paddle.gather_nd(np.zeros(3, ml_dtypes.bfloat16), [[0]])


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    k = draw(st.integers(0, len(shape)))
    lead = draw(st.sampled_from([(), (0,), (1,), (3,), (2, 2)]))
    n = int(np.prod(lead))
    cols = [draw(st.lists(index_values(shape[j]), min_size=n, max_size=n)) for j in range(k)]
    index = np.array(cols, dtype=np.int64).T.reshape((*lead, k)) if k else np.zeros((*lead, 0), np.int64)
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    if dtype == np.int32:
        index = np.clip(index, -(2**31), 2**31 - 1).astype(np.int32)
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape), index


@given(inputs())
def test_property_matches_loop_oracle(args):
    x, index = args
    agree(lambda: oracle.gather_nd(x, index), lambda: gs.paddle.gather_nd(x, index))
