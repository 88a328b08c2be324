"""paddle.take (3.3.1): case table per mode, error table, property test against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import shapes

from ._helpers import agree, check_errors

X12 = np.arange(12).reshape(3, 4)
X6 = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]

CASES = [
    # docstring examples (x_int = arange(12).reshape(3, 4))
    pytest.param(X12, np.arange(4, 10).reshape(2, 3), "raise", [[4, 5, 6], [7, 8, 9]], id="doc-idx-pos"),
    pytest.param(X12, np.arange(-2, 4).reshape(2, 3), "raise", [[10, 11, 0], [1, 2, 3]], id="doc-idx-neg"),
    pytest.param(X12, np.arange(-2, 13).reshape(3, 5), "wrap",
                 [[10, 11, 0, 1, 2], [3, 4, 5, 6, 7], [8, 9, 10, 11, 0]], id="doc-idx-err-wrap"),
    # docs/behavior-matrix.md#t6-1 (data [10, 20, 30])
    pytest.param([10, 20, 30], [0, -1], "raise", [10, 30], id="matrix-negative"),
    pytest.param([10, 20, 30], [0, -1], "clip", [10, 10], id="matrix-negative-clip-to-0"),
    pytest.param([10, 20, 30], [0, 3], "wrap", [10, 10], id="matrix-oob-wrap"),
    pytest.param([10, 20, 30], [0, 3], "clip", [10, 30], id="matrix-oob-clip"),
    pytest.param([10, 20, 30], [0, -4], "raise", [10, 30], id="matrix-minus-4-raise-mode-wraps"),
    pytest.param([10, 20, 30], [0, -4], "clip", [10, 10], id="matrix-minus-4-clip"),
    # raise mode: -n..-2n wrap twice (n = 6 here: -7 -> -1 -> 5, -12 -> -6 -> 0)
    pytest.param(X6, [-7, -12], "raise", [5.0, 0.0], id="raise-mode-double-wrap"),
    pytest.param(X6, [13, -13, -6, -12], "wrap", [1.0, 5.0, 0.0, 0.0], id="wrap-python-modulo"),
    pytest.param(X6, [2**63 - 1, -(2**63)], "wrap", [1.0, 4.0], id="wrap-int64-extremes"),
    pytest.param(X6, [2**63 - 1, -(2**63)], "clip", [5.0, 0.0], id="clip-int64-extremes"),
    pytest.param(X6, 4, "raise", 4.0, id="0d-index-0d-result"),
    pytest.param(5.0, [0, -1], "raise", [5.0, 5.0], id="0d-x"),
]


@pytest.mark.parametrize(("x", "index", "mode", "expected"), CASES)
def test_cases(x, index, mode, expected):
    out = gs.paddle.take(x, index, mode=mode)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype
    assert out.shape == np.shape(index)


def test_empty():
    assert gs.paddle.take(X6, np.zeros((0, 2), np.int64)).shape == (0, 2)
    assert gs.paddle.take(np.zeros((0, 3)), np.zeros(0, np.int64), mode="wrap").shape == (0,)


ERRORS = [
    (dict(x=X6, index=[6]), gs.IndexOutOfRangeError,
     ["paddle.take", "paddle 3.3.1", "index[0] = 6", "[-12, 5]", "mode='raise'"]),
    (dict(x=X6, index=[[0, -13]]), gs.IndexOutOfRangeError, ["index[0, 1] = -13", "[-12, 5]"]),
    (dict(x=X6, index=[2**63 - 1]), gs.IndexOutOfRangeError, ["9223372036854775807"]),
    (dict(x=X6, index=np.array([-(2**31)], np.int32)), gs.IndexOutOfRangeError, ["-2147483648"]),
    (dict(x=np.zeros((0, 3)), index=[0]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=np.zeros((0, 3)), index=[0], mode="wrap"), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=np.zeros((0, 3)), index=[-1], mode="clip"), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(x=X6, index=[0], mode="bogus"), gs.UnsupportedError, ["'raise', 'wrap', 'clip'", "'bogus'"]),
    (dict(x=X6, index=[0], mode=None), gs.ArgumentError, ["mode must be a string"]),
    (dict(x=X6, index=np.array([0], np.int16)), gs.DTypeError, ["index dtype int16", "int32, int64"]),
    (dict(x=np.zeros(3, np.int8), index=[0]), gs.DTypeError, ["int8", "no int8 kernel"]),
    (dict(x=np.zeros(3, np.uint8), index=[0]), gs.DTypeError, ["uint8"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.take, kwargs, cls, fragments)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    n = int(np.prod(shape))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    vals = st.integers(-3 * max(n, 1) - 2, 3 * max(n, 1) + 2) | st.sampled_from([2**31 - 1, -(2**31)])
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    index = np.array(draw(st.lists(vals, min_size=int(np.prod(ishape)), max_size=int(np.prod(ishape)))),
                     dtype=dtype).reshape(ishape)
    mode = draw(st.sampled_from(["raise", "wrap", "clip"]))
    return np.arange(n, dtype=np.float64).reshape(shape), index, mode


@given(inputs())
def test_property_matches_loop_oracle(args):
    x, index, mode = args
    agree(lambda: oracle.take(x, index, mode), lambda: gs.paddle.take(x, index, mode=mode))
