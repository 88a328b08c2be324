"""torch.gather and torch.take_along_dim: case tables, error tables, properties against the loop oracle."""

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

X23 = [[1, 2, 3], [4, 5, 6]]

GATHER_CASES = [
    # torch docs: torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
    pytest.param([[1, 2], [3, 4]], 1, [[0, 0], [1, 0]], [[1, 1], [4, 3]], id="torch-doc"),
    pytest.param([[1, 2], [3, 4]], 0, [[1, 0], [0, 1]], [[3, 2], [1, 4]], id="dim-0"),
    pytest.param([[1, 2], [3, 4]], -1, [[1], [0]], [[2], [3]], id="negative-dim"),
    # docs/behavior-matrix.md#t6-2: smaller index on a non-gather dim reads the leading block (no broadcast)
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1, [[0], [1]], [[1], [5]], id="smaller-index"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1, [[2, 0]], [[3, 1]], id="row-wise-1x2"),
    pytest.param(X23, 1, [[2, 1, 0, 0, 1]], [[3, 2, 1, 1, 2]], id="longer-along-dim"),
    pytest.param([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], 2, [[[1], [0]], [[0], [1]]], [[[2], [3]], [[5], [8]]], id="3d"),
    # 0-d tensors count as 1-d
    pytest.param(5, 0, 0, 5, id="0d-0d"),
    pytest.param(5, -1, [0, 0], [5, 5], id="0d-input-1d-index"),
    pytest.param([5, 6], 0, 1, 6, id="1d-input-0d-index"),
]


@pytest.mark.parametrize(("data", "dim", "index", "expected"), GATHER_CASES)
def test_gather_cases(data, dim, index, expected):
    out = gs.torch.gather(data, dim, index)
    assert out.tolist() == expected
    assert out.shape == np.shape(index)


def test_gather_int32_index_and_dtype_kept():
    out = gs.torch.gather(np.array(X23, np.float16), 1, np.array([[2], [0]], np.int32))
    assert out.dtype == np.float16 and out.tolist() == [[3.0], [4.0]]


def test_gather_empty_index_skips_every_check():
    # torch returns at once: rank mismatch, larger sizes, an int8 index and uint64 data are all accepted
    out = gs.torch.gather(np.ones((2, 3), np.uint64), 1, np.zeros((5, 0, 7), np.int8))
    assert out.shape == (5, 0, 7) and out.dtype == np.uint64


GATHER_ERRORS = [
    (dict(input=X23, dim=1, index=[[0], [-1]]), gs.IndexOutOfRangeError,
     ["torch.gather (2.13)", "index[1, 0] = -1", "does not accept negative", "dim 1", "[0, 2]"]),
    (dict(input=X23, dim=1, index=[[0], [3]]), gs.IndexOutOfRangeError, ["index[1, 0] = 3", "dim 1", "size 3"]),
    (dict(input=[[1, 2], [3, 4]], dim=1, index=[[0], [1], [0]]), gs.ShapeError,
     ["index.shape[0] must be <= input.shape[0]", "[3, 1]", "[2, 2]"]),
    (dict(input=X23, dim=1, index=[2, 1]), gs.ShapeError, ["same number of dimensions", "[2]", "[2, 3]"]),
    (dict(input=X23, dim=0, index=1), gs.ShapeError, ["same number of dimensions"]),
    (dict(input=X23, dim=2, index=[[0]]), gs.AxisError, ["dim 2", "[-2, 1]"]),
    (dict(input=5, dim=1, index=0), gs.AxisError, ["dim 1", "0-d input as 1-d"]),
    (dict(input=X23, dim=True, index=[[0]]), gs.ArgumentError, ["dim must be an int"]),
    (dict(input=X23, dim=1, index=np.array([[0]], np.int16)), gs.DTypeError, ["index dtype int16", "int32, int64"]),
    (dict(input=X23, dim=1, index=[[0.5]]), gs.DTypeError, ["integer dtype"]),
    (dict(input=np.ones((2, 2), np.uint64), dim=1, index=[[0]]), gs.DTypeError, ["input dtype uint64", "not supported"]),
    (dict(input=np.array([["a"]]), dim=1, index=[[0]]), gs.DTypeError, ["input dtype str"]),
    (dict(input=np.zeros((2, 0)), dim=1, index=[[0], [0]]), gs.IndexOutOfRangeError, ["has size 0"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), GATHER_ERRORS)
def test_gather_errors(kwargs, cls, fragments):
    assert_error(gs.torch.gather, kwargs, cls, fragments)


TAKE_ALONG_CASES = [
    pytest.param([[10, 30, 20], [60, 40, 50]], [[0, 2], [1, -1]], 1, [[10, 20], [40, 50]], id="neg-wraps"),
    # docs/behavior-matrix.md#t6-2 (torch 2.13 CPU): out-of-range indices wrap modulo s along a dim
    pytest.param(X23, [[0], [3]], 1, [[1], [4]], id="3-wraps-to-0"),
    pytest.param(X23, [[0], [-4]], 1, [[1], [6]], id="-4-wraps-to-2"),
    pytest.param(X23, [[100], [-100]], 1, [[2], [6]], id="far-wrap"),
    # broadcasting (a 1x2 index on 3x3 data yields 3x2)
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 0]], 1, [[3, 1], [6, 4], [9, 7]], id="broadcast-index"),
    pytest.param([[1, 2, 3]], [[0], [2], [1]], 1, [[1], [3], [2]], id="broadcast-input"),
    # dim=None: flattened, 1-D result whatever the index rank
    pytest.param(X23, [[5, 0], [1, 2]], None, [6, 1, 2, 3], id="flat"),
    pytest.param(X23, 4, None, [5], id="flat-0d-index"),
    pytest.param(5, [0, 0], None, [5, 5], id="flat-0d-input"),
]


@pytest.mark.parametrize(("data", "indices", "dim", "expected"), TAKE_ALONG_CASES)
def test_take_along_dim_cases(data, indices, dim, expected):
    assert gs.torch.take_along_dim(data, indices, dim).tolist() == expected


TAKE_ALONG_ERRORS = [
    (dict(input=X23, indices=[0, -1]), gs.IndexOutOfRangeError,
     ["torch.take_along_dim (2.13)", "indices[1] = -1", "does not accept negative", "input (flattened)"]),
    (dict(input=X23, indices=[6]), gs.IndexOutOfRangeError, ["indices[0] = 6", "size 6"]),
    (dict(input=X23, indices=np.array([[0]], np.int32), dim=1), gs.DTypeError, ["int32", "expected one of: int64"]),
    (dict(input=X23, indices=[0, 1], dim=1), gs.ShapeError, ["same number of dimensions"]),
    (dict(input=[[1, 2], [3, 4]], indices=[[0], [1], [0]], dim=1), gs.ShapeError, ["do not broadcast on dim 0"]),
    (dict(input=X23, indices=[[0]], dim=2), gs.AxisError, ["dim 2", "[-2, 1]"]),
    (dict(input=5, indices=0, dim=0), gs.AxisError, ["0-d"]),
    (dict(input=np.zeros((2, 0)), indices=[[0], [1]], dim=1), gs.IndexOutOfRangeError, ["size 0"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), TAKE_ALONG_ERRORS)
def test_take_along_dim_errors(kwargs, cls, fragments):
    assert_error(gs.torch.take_along_dim, kwargs, cls, fragments)


@st.composite
def gather_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    r = max(len(shape), 1)
    dim = draw(st.integers(-r - 1, r))
    a = dim % r if -r <= dim < r else 0
    base = shape if shape else (1,)
    if not shape and draw(st.booleans()):
        ishape: tuple[int, ...] = ()
    else:
        ishape = tuple(draw(st.integers(0, 4)) if d == a else draw(st.integers(0, n + (1 if draw(st.booleans()) and
                       draw(st.booleans()) else 0))) for d, n in enumerate(base))
    if draw(st.integers(0, 20)) == 0:
        ishape = ishape + (1,)  # rank mismatch
    size = base[a] if a < len(base) else 1
    index = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from([np.int32, np.int64]))))
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1
    return data, dim, index


@pytest.mark.parametrize("backend", BACKENDS)
@given(gather_inputs())
def test_gather_property(backend, args):
    data, dim, index = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.gather(data, dim, index), lambda: oracle.gather(data, dim, index))


@st.composite
def take_along_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    if draw(st.integers(0, 4)) == 0:
        ishape = draw(shapes(min_dims=0, max_dims=2))
        index = draw(index_arrays(ishape, int(np.prod(shape)), dtype=draw(st.sampled_from([np.int32, np.int64]))))
        return np.arange(np.prod(shape), dtype=np.int64).reshape(shape), index, None
    r = len(shape)
    dim = draw(st.integers(-r, r - 1))
    a = dim % r
    ishape = tuple(draw(st.integers(0, 3)) if d == a else (draw(st.sampled_from([1, n])) if n != 1 else
                   draw(st.integers(0, 3))) for d, n in enumerate(shape))
    index = draw(index_arrays(ishape, shape[a]))
    data = np.arange(np.prod(shape), dtype=np.int64).reshape(shape) * 10 + 1
    return data, index, dim


@pytest.mark.parametrize("backend", BACKENDS)
@given(take_along_inputs())
def test_take_along_dim_property(backend, args):
    data, index, dim = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.take_along_dim(data, index, dim),
                       lambda: oracle.take_along_dim(data, index, dim))


def test_inputs_are_not_modified_and_output_is_new():
    data = np.arange(6.0).reshape(2, 3)
    index = np.array([[0, 2], [1, 1]])
    before = (data.copy(), index.copy())
    out = gs.torch.gather(data, 1, index)
    out2 = gs.torch.take_along_dim(data, index, 1)
    assert not np.shares_memory(out, data) and not np.shares_memory(out2, data)
    np.testing.assert_array_equal(data, before[0])
    np.testing.assert_array_equal(index, before[1])
