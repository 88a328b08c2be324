"""torch.index_select and torch.take: case tables, error tables, properties against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.dialects.torch._compare import assert_error, assert_matches
from tests.oracles import torch as oracle
from tests.strategies import index_arrays, shapes

X = [[0.1427, 0.0231, -0.5414, -1.0009], [-0.4664, 0.2647, -0.1228, -1.1068], [-1.1734, -0.6571, 0.7230, -0.6004]]

SELECT_CASES = [
    # torch docs: index_select(x, 0, [0, 2]) and index_select(x, 1, [0, 2]) on a 3x4 tensor
    pytest.param(X, 0, [0, 2], [X[0], X[2]], id="torch-doc-dim0"),
    pytest.param(X, 1, [0, 2], [[r[0], r[2]] for r in X], id="torch-doc-dim1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], 1, [2, 0, 2], [[3, 1, 3], [6, 4, 6]], id="duplicates"),
    pytest.param([[1, 2, 3], [4, 5, 6]], -1, [1], [[2], [5]], id="negative-dim"),
    # docs/semantics.md#pitfall-13 / docs/behavior-matrix.md#t6-1: a 0-d index keeps a size-1 dim
    pytest.param([[1, 2, 3], [4, 5, 6]], 1, 2, [[3], [6]], id="0d-index-keeps-dim"),
    pytest.param(5, 0, [0], 5, id="0d-input"),
]


@pytest.mark.parametrize(("data", "dim", "index", "expected"), SELECT_CASES)
def test_index_select_cases(data, dim, index, expected):
    out = gs.torch.index_select(data, dim, index)
    assert out.tolist() == expected and out.shape == np.shape(expected)


def test_index_select_empty_index():
    out = gs.torch.index_select([[1, 2], [3, 4]], 0, [])
    assert out.shape == (0, 2) and out.dtype == np.int64


def test_index_select_rank2_copies_any_tensor_dtype():
    # rank >= 2 copies raw slices in torch (uint32 works there), rank 1 dispatches on the dtype
    out = gs.torch.index_select(np.array([[1, 2], [3, 4]], np.uint32), 0, [1])
    assert out.dtype == np.uint32 and out.tolist() == [[3, 4]]
    with pytest.raises(gs.DTypeError, match="uint32"):
        gs.torch.index_select(np.array([1, 2], np.uint32), 0, [1])


SELECT_ERRORS = [
    (dict(input=[10, 20, 30], dim=0, index=[0, -1]), gs.IndexOutOfRangeError,
     ["torch.index_select (2.13)", "index[1] = -1", "does not accept negative", "dim 0"]),
    (dict(input=[10, 20, 30], dim=0, index=[0, 3]), gs.IndexOutOfRangeError, ["index[1] = 3", "size 3"]),
    (dict(input=[[1, 2]], dim=1, index=[[0]]), gs.ShapeError, ["index must be a vector", "[1, 1]"]),
    (dict(input=5, dim=0, index=[0, 0]), gs.ShapeError, ["0-d input", "exactly 1 value", "2"]),
    (dict(input=[[1, 2]], dim=2, index=[0]), gs.AxisError, ["dim 2"]),
    (dict(input=[1, 2], dim=0, index=np.array([0], np.int16)), gs.DTypeError, ["int16", "int32, int64"]),
    (dict(input=np.zeros((2, 0)), dim=1, index=[0]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(input=np.zeros((0, 3)), dim=1, index=[5]), gs.IndexOutOfRangeError, ["index[0] = 5"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), SELECT_ERRORS)
def test_index_select_errors(kwargs, cls, fragments):
    assert_error(gs.torch.index_select, kwargs, cls, fragments)


TAKE_CASES = [
    # torch docs: take(tensor([[4, 3, 5], [6, 7, 8]]), tensor([0, 2, 5])) -> [4, 5, 8]
    pytest.param([[4, 3, 5], [6, 7, 8]], [0, 2, 5], [4, 5, 8], id="torch-doc"),
    pytest.param([10, 20, 30], [0, -1], [10, 30], id="negative-wraps"),
    pytest.param([[4, 3, 5], [6, 7, 8]], [[5, -6], [0, 1]], [[8, 4], [4, 3]], id="2d-index"),
    pytest.param([[4, 3, 5], [6, 7, 8]], -1, 8, id="0d-index"),
    pytest.param(5, [0, -1], [5, 5], id="0d-input"),
]


@pytest.mark.parametrize(("data", "index", "expected"), TAKE_CASES)
def test_take_cases(data, index, expected):
    out = gs.torch.take(data, index)
    assert out.tolist() == expected and out.shape == np.shape(expected)


TAKE_ERRORS = [
    (dict(input=[10, 20, 30], index=[0, 3]), gs.IndexOutOfRangeError,
     ["torch.take (2.13)", "index[1] = 3", "input (flattened)", "[-3, 2]"]),
    (dict(input=[10, 20, 30], index=[-4]), gs.IndexOutOfRangeError, ["index[0] = -4"]),
    (dict(input=[10, 20, 30], index=np.array([0], np.int32)), gs.DTypeError, ["int32", "expected one of: int64"]),
    (dict(input=np.zeros((0, 3)), index=[0]), gs.IndexOutOfRangeError, ["size 0"]),
    (dict(input=np.zeros(3, np.uint64), index=[0]), gs.DTypeError, ["uint64"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), TAKE_ERRORS)
def test_take_errors(kwargs, cls, fragments):
    assert_error(gs.torch.take, kwargs, cls, fragments)


def test_take_empty_index_skips_data_dtype():
    out = gs.torch.take(np.zeros(3, np.uint64), np.zeros((2, 0), np.int64))
    assert out.shape == (2, 0) and out.dtype == np.uint64


@st.composite
def select_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    r = max(len(shape), 1)
    dim = draw(st.integers(-r - 1, r))
    a = dim % r if -r <= dim < r else 0
    size = shape[a] if shape else 1
    ishape = draw(st.sampled_from([(), (0,), (1,), (2,), (3,), (5,), (1, 1)]))
    index = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from([np.int32, np.int64]))))
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1
    return data, dim, index


@pytest.mark.parametrize("backend", BACKENDS)
@given(select_inputs())
def test_index_select_property(backend, args):
    data, dim, index = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_select(data, dim, index), lambda: oracle.index_select(data, dim, index))


@st.composite
def take_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    index = draw(index_arrays(ishape, int(np.prod(shape))))
    return np.arange(np.prod(shape), dtype=np.int64).reshape(shape) * 3 - 7, index


@pytest.mark.parametrize("backend", BACKENDS)
@given(take_inputs())
def test_take_property(backend, args):
    data, index = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.take(data, index), lambda: oracle.take(data, index))
