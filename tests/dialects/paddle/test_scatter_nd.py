"""paddle.scatter_nd_add and paddle.scatter_nd (3.3.1): case tables, error tables, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import index_values, shapes

from ._helpers import agree, check_errors

ADD_CASES = [
    # docstring case 1 and case 2 (k = 0: each empty tuple adds its whole update)
    pytest.param([0, 1, 2, 3, 4, 5], [[1], [2], [3], [1]], [9, 10, 11, 12], [0, 22, 12, 14, 4, 5], id="doc-case-1"),
    pytest.param([[65, 17], [-14, -25]], [[], []], [[[-1, -2], [1, 2]], [[3, 4], [-3, -4]]],
                 [[67, 19], [-16, -27]], id="doc-case-2-k0"),
    # docs/behavior-matrix.md#t6-5
    pytest.param([1, 2, 3], [[-1]], [9], [1, 2, 12], id="matrix-negative"),
    pytest.param([1, 1, 1, 1], [[1], [1], [2]], [10, 20, 30], [1, 31, 31, 1], id="matrix-dups-accumulate"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], [10, 5, 5], id="matrix-reduction-sum"),
    pytest.param([[1, 2], [3, 4]], [[1]], [[7, 8]], [[1, 2], [10, 12]], id="matrix-slice-update"),
    pytest.param([[0, 0], [0, 0], [0, 0]], [1, -1], 5, [[0, 0], [0, 5], [0, 0]], id="1d-index-0d-update"),
    pytest.param([[0, 0], [0, 0]], np.zeros((0,), np.int64), [[1, 2], [3, 4]], [[1, 2], [3, 4]], id="k0-1d-index"),
    pytest.param([[1, 1], [1, 1]], np.zeros((0, 1), np.int64), np.zeros((0, 2), np.int64), [[1, 1], [1, 1]],
                 id="no-tuples-unchanged"),
]


@pytest.mark.parametrize(("x", "index", "updates", "expected"), ADD_CASES)
def test_scatter_nd_add_cases(x, index, updates, expected):
    out = gs.paddle.scatter_nd_add(x, index, updates)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(x).dtype


ND_CASES = [
    # docs/behavior-matrix.md#t6-5: zeros init, duplicates summed
    pytest.param([[1], [1], [1]], [10, 20, 30], [4], [0, 60, 0, 0], id="matrix-dups-summed"),
    pytest.param([[1], [1], [2]], [10, 20, 30], [4], [0, 30, 30, 0], id="matrix-sigma-only"),
    pytest.param([[0]], [9], (3,), [9, 0, 0], id="matrix-uncovered-zero"),
    pytest.param([[1], [1], [-1]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [3, 2],
                 [[0, 0], [4, 6], [5, 6]], id="negative-rows"),
    pytest.param(np.zeros((2, 0), np.int64), [1.0, 2.0], [], 3.0, id="k0-0d-shape"),
    pytest.param(np.zeros((0, 1), np.int64), np.zeros((0, 2)), [3, 2], [[0, 0]] * 3, id="no-tuples-zeros"),
    pytest.param([[5]], np.zeros((1, 0)), np.array([2, 0]), [[], []], id="empty-output-unchecked"),
]


@pytest.mark.parametrize(("index", "updates", "shape", "expected"), ND_CASES)
def test_scatter_nd_cases(index, updates, shape, expected):
    out = gs.paddle.scatter_nd(index, updates, shape)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(updates).dtype
    assert out.shape == tuple(np.asarray(shape, dtype=np.int64).tolist())


def test_inputs_untouched_and_dtypes():
    x = np.zeros((3, 2), np.uint8)
    x0 = x.copy()
    out = gs.paddle.scatter_nd_add(x, np.array([[2], [2]], np.int32), np.full((2, 2), 200, np.uint8))
    assert out.dtype == np.uint8 and out.tolist() == [[0, 0], [0, 0], [144, 144]]  # uint8 wraps (400 - 256)
    np.testing.assert_array_equal(x, x0)
    assert gs.paddle.scatter_nd(np.array([[1]]), np.array([[1, 2]], np.int32), [2, 2]).dtype == np.int32


ADD_ERRORS = [
    (dict(x=np.zeros((3, 2)), index=[[3]], updates=np.ones((1, 2))), gs.IndexOutOfRangeError,
     ["paddle.scatter_nd_add", "paddle 3.3.1", "index[0, 0] = 3", "[-3, 2]"]),
    (dict(x=np.zeros((3, 2)), index=[[0, -3]], updates=[1.0]), gs.IndexOutOfRangeError, ["index[0, 1] = -3", "[-2, 1]"]),
    (dict(x=np.zeros((3, 2)), index=1, updates=np.ones(2)), gs.ShapeError, ["rank >= 1"]),
    (dict(x=np.zeros((3, 2)), index=np.zeros((1, 3), np.int64), updates=[1.0]), gs.ShapeError, ["<= rank", "got 3"]),
    (dict(x=np.zeros((3, 2)), index=[[1], [2]], updates=np.ones((2, 3))), gs.ShapeError, ["[2, 2]", "got [2, 3]"]),
    (dict(x=np.zeros((3, 2)), index=[[1], [2]], updates=np.ones((2, 1))), gs.ShapeError, ["[2, 2]"]),
    (dict(x=np.zeros((3, 2)), index=[[1], [2]], updates=1.0), gs.ShapeError, ["[2, 2]", "got []"]),
    (dict(x=np.zeros((3, 2), np.float32), index=[[1]], updates=np.ones((1, 2))), gs.DTypeError,
     ["updates dtype float64 must equal x dtype float32"]),
    (dict(x=np.zeros(3, bool), index=[[1]], updates=[True]), gs.DTypeError, ["bool", "no bool kernel"]),
    (dict(x=np.zeros(3, np.int8), index=[[1]], updates=[1]), gs.DTypeError, ["int8"]),
    (dict(x=np.zeros(3, np.float16), index=[[1]], updates=[1]), gs.DTypeError, ["float16"]),
    (dict(x=np.zeros(3, np.complex64), index=[[1]], updates=[1]), gs.DTypeError, ["complex64"]),
    (dict(x=np.zeros(3, np.uint64), index=[[1]], updates=[1]), gs.DTypeError, ["uint64"]),
    (dict(x=np.array(["a"]), index=[[0]], updates=["b"]), gs.DTypeError, ["str"]),
    (dict(x=np.zeros(3), index=np.array([[1]], np.uint8), updates=[1.0]), gs.DTypeError, ["index dtype uint8"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ADD_ERRORS)
def test_scatter_nd_add_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.scatter_nd_add, kwargs, cls, fragments)


ND_ERRORS = [
    (dict(index=[[3]], updates=np.ones((1, 2)), shape=[3, 2]), gs.IndexOutOfRangeError,
     ["paddle.scatter_nd", "index[0, 0] = 3"]),
    (dict(index=[[1]], updates=np.ones((1, 2)), shape=[3, -1]), gs.ShapeError,
     ["no less than 0", "shape[1] = -1"]),
    (dict(index=[[1]], updates=np.ones((1, 2)), shape=[3.0, 2]), gs.ArgumentError, ["shape[0] must be an int"]),
    (dict(index=[[1]], updates=np.ones((1, 2)), shape=3), gs.ArgumentError, ["shape must be a list"]),
    (dict(index=[[1]], updates=np.ones((1, 3)), shape=[3, 2]), gs.ShapeError, ["[1, 2]", "got [1, 3]"]),
    (dict(index=[[1]], updates=np.ones((1, 2), bool), shape=[3, 2]), gs.DTypeError, ["updates dtype bool"]),
    (dict(index=[[1]], updates=np.ones((1, 2), np.float16), shape=[3, 2]), gs.DTypeError, ["float16"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ND_ERRORS)
def test_scatter_nd_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.scatter_nd, kwargs, cls, fragments)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    k = draw(st.integers(0, len(shape)))
    lead = draw(st.sampled_from([(), (0,), (1,), (3,), (2, 2)]))
    n = int(np.prod(lead))
    cols = [draw(st.lists(index_values(shape[j]), min_size=n, max_size=n)) for j in range(k)]
    index = np.array(cols, dtype=np.int64).T.reshape((*lead, k)) if k else np.zeros((*lead, 0), np.int64)
    if draw(st.booleans()):
        index = np.clip(index, -(2**31), 2**31 - 1).astype(np.int32)
    x = np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
    ushape = lead + shape[k:]
    updates = 100 * (1 + np.arange(int(np.prod(ushape)), dtype=np.int64)).reshape(ushape)
    return x, index, updates


@given(inputs())
def test_scatter_nd_add_property(args):
    x, index, updates = args
    agree(lambda: oracle.scatter_nd_add(x, index, updates), lambda: gs.paddle.scatter_nd_add(x, index, updates))


@given(inputs())
def test_scatter_nd_property(args):
    x, index, updates = args
    agree(lambda: oracle.scatter_nd(index, updates, x.shape), lambda: gs.paddle.scatter_nd(index, updates, x.shape))


@pytest.mark.parametrize("shape", [[2**62, 2**62], [2**31, 2**31, 2**31], [0, 2**62]])
def test_scatter_nd_shape_beyond_numpy_size_limit_is_a_shape_error(shape):
    # found by the fuzzer: index.shape[-1] (3) > len(shape) skipped the updates check and np.zeros(shape)
    # raised a bare ValueError ("array is too big")
    with pytest.raises(gs.ShapeError, match=r"paddle.scatter_nd .*would need more than 2\*\*63 - 1 bytes"):
        gs.paddle.scatter_nd([[0, 0, 0]], [1.0], shape)
