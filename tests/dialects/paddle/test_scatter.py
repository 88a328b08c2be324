"""paddle.scatter (3.3.1): case table, error table, property test against the docstring loop."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import index_arrays, shapes

from ._helpers import agree, check_errors

X = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
U4 = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]

CASES = [
    # docstring (index [2, 1, 0, 1]): overwrite -> last wins; accumulate -> zero the rows, then sum
    pytest.param(X, [2, 1, 0, 1], U4, True, [[3, 3], [4, 4], [1, 1]], id="doc-overwrite"),
    pytest.param(X, [2, 1, 0, 1], U4, False, [[3, 3], [6, 6], [1, 1]], id="doc-accumulate"),
    # docs/semantics.md#s6-7 / docs/behavior-matrix.md#surprise-6: ones(5), [1,1,3], [7,8,9] -> [1,15,1,9,1]
    pytest.param([1.0] * 5, [1, 1, 3], [7.0, 8.0, 9.0], False, [1, 15, 1, 9, 1], id="matrix-zero-then-sum"),
    pytest.param([[2, 2]], [0, 0], [[10, 10], [20, 20]], False, [[30, 30]], id="matrix-row-2-2-gives-30"),
    pytest.param(X, [-1], [[9.0, 9.0]], True, [[1, 1], [2, 2], [9, 9]], id="negative-wraps"),
    pytest.param(X, [-1, -1], [[1.0, 2.0], [3.0, 4.0]], False, [[1, 1], [2, 2], [4, 6]], id="negative-accumulate"),
    pytest.param(X, 1, [7.0, 8.0], True, [[1, 1], [7, 8], [3, 3]], id="0d-index"),
    pytest.param(X, [[2], [0]], [[5.0, 6.0], [7.0, 8.0]], True, [[7, 8], [2, 2], [5, 6]], id="2d-index-n-by-1"),
    pytest.param(X, [2], U4, True, [[1, 1], [2, 2], [1, 1]], id="extra-update-rows-ignored"),
    pytest.param([0, 0, 0, 0], [2, 0, 2], [1, 2, 3], True, [2, 0, 3, 0], id="1d-int64"),
]


@pytest.mark.parametrize(("x", "index", "updates", "overwrite", "expected"), CASES)
def test_cases(x, index, updates, overwrite, expected):
    out = gs.paddle.scatter(x, index, updates, overwrite=overwrite)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype


def test_empty_and_inputs_untouched():
    x = np.ones((3, 2), np.float32)
    x0 = x.copy()
    out = gs.paddle.scatter(x, np.zeros(0, np.int64), np.zeros((0, 2), np.float32), overwrite=False)
    assert out.tolist() == x0.tolist() and not np.shares_memory(out, x)
    # empty x: returned unchanged, index not checked (measured)
    assert gs.paddle.scatter(np.zeros((0, 2), np.float32), [5], np.zeros((1, 2), np.float32)).shape == (0, 2)
    np.testing.assert_array_equal(x, x0)


ERRORS = [
    (dict(x=X, index=[3], updates=[[1.0, 1.0]]), gs.IndexOutOfRangeError,
     ["paddle.scatter", "paddle 3.3.1", "index[0] = 3", "[-3, 2]"]),
    (dict(x=X, index=[0, -4], updates=U4, overwrite=False), gs.IndexOutOfRangeError, ["index[1] = -4"]),
    (dict(x=X, index=[2, 0, 1], updates=[[1.0, 1.0]] * 2), gs.ShapeError, ["at least len(index) = 3 rows"]),
    (dict(x=X, index=[2], updates=[[1.0, 1.0, 1.0]]), gs.ShapeError, ["updates.shape[1:] == x.shape[1:]"]),
    (dict(x=X, index=[2], updates=[1.0, 1.0]), gs.ShapeError, ["rank of x"]),
    (dict(x=X, index=1, updates=[[7.0, 8.0]]), gs.ShapeError, ["0-D index", "x.shape[1:] = [2]"]),
    (dict(x=X, index=[[2, 0]], updates=U4), gs.ShapeError, ["last dim 1", "[1, 2]"]),
    (dict(x=1.0, index=[0], updates=[1.0]), gs.ShapeError, ["rank >= 1"]),
    (dict(x=np.ones((3, 2), np.float32), index=[1], updates=np.ones((1, 2))), gs.DTypeError,
     ["updates dtype float64 must equal x dtype float32"]),
    (dict(x=np.ones(3, np.complex64), index=[1], updates=[1]), gs.DTypeError, ["complex64", "no complex64 kernel"]),
    (dict(x=np.ones(3, np.uint8), index=[1], updates=[1]), gs.DTypeError, ["uint8"]),
    (dict(x=np.ones(3, bool), index=[1], updates=[1]), gs.DTypeError, ["bool"]),
    (dict(x=X, index=np.array([1], np.int16), updates=[[1.0, 1.0]]), gs.DTypeError, ["index dtype int16"]),
    (dict(x=X, index=[1], updates=[[1.0, 1.0]], overwrite=1), gs.ArgumentError, ["overwrite must be a bool"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.scatter, kwargs, cls, fragments)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    n = draw(st.integers(0, 5))
    index = draw(index_arrays((n,), shape[0], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    extra = draw(st.integers(0, 2))
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    updates = 100 + np.arange((n + extra) * int(np.prod(shape[1:])), dtype=np.float64).reshape((n + extra, *shape[1:]))
    return x, index, updates, draw(st.booleans())


@given(inputs())
def test_property_matches_docstring_loop(args):
    x, index, updates, overwrite = args
    agree(lambda: oracle.scatter(x, index, updates, overwrite), lambda: gs.paddle.scatter(x, index, updates, overwrite))
