"""torch.index_add, index_copy, index_fill, index_reduce: case tables, error tables, properties."""

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

ONES53 = np.ones((5, 3))
T3 = [[1.0, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_index_add_torch_doc():
    # torch docs: x = ones(5, 3); t = [[1,2,3],[4,5,6],[7,8,9]]; x.index_add_(0, [0, 4, 2], t)
    out = gs.torch.index_add(ONES53, 0, [0, 4, 2], T3)
    assert out.tolist() == [[2, 3, 4], [1, 1, 1], [8, 9, 10], [1, 1, 1], [5, 6, 7]]
    out = gs.torch.index_add(ONES53, 0, [0, 4, 2], T3, alpha=-1)
    assert out.tolist() == [[0, -1, -2], [1, 1, 1], [-6, -7, -8], [1, 1, 1], [-3, -4, -5]]


INDEX_ADD_CASES = [
    # docs/behavior-matrix.md#t6-6: duplicates onto non-zero data [[1,1],[2,2],[3,3]] idx [1,1] rows 10, 20
    pytest.param([[1, 1], [2, 2], [3, 3]], 0, [1, 1], [[10, 10], [20, 20]], 1, [[1, 1], [32, 32], [3, 3]], id="dups"),
    pytest.param([[0, 0, 0], [0, 0, 0]], -1, [2, 0, 2], [[1, 2, 3], [4, 5, 6]], 1, [[2, 0, 4], [5, 0, 10]], id="dim-1"),
    pytest.param([[0, 0], [0, 0]], 0, 1, [[5, 6]], 1, [[0, 0], [5, 6]], id="0d-index"),
    pytest.param(1.0, 0, [0], 5.0, 2, 11.0, id="0d-input"),
    pytest.param(np.zeros(2, np.int64), 0, [0, 1], [1, 1], 2.5, [2, 2], id="float-alpha-truncates"),
    pytest.param(np.zeros(2, np.uint8), 0, [0, 1], np.array([1, 2], np.uint8), -1, [255, 254], id="alpha-wraps"),
    pytest.param([False, True], 0, [0, 0], [True, False], True, [True, True], id="bool-or"),
    pytest.param(np.array([0], np.int8), 0, [0], np.array([100], np.int8), 3, [44], id="int8-wraps"),
]


@pytest.mark.parametrize(("data", "dim", "index", "source", "alpha", "expected"), INDEX_ADD_CASES)
def test_index_add_cases(data, dim, index, source, alpha, expected):
    assert gs.torch.index_add(data, dim, index, source, alpha=alpha).tolist() == expected


def test_index_add_float16_paths():
    # rank >= 2, dim 0, int64 index, alpha 1: torch uses scatter_add_ (float32 sums, one rounding) -> 4.0;
    # an int32 index takes the per-entry float16 adds -> 3.988 (both measured on torch 2.13)
    src = np.full((40, 1), 0.1, np.float16)
    assert gs.torch.index_add(np.zeros((1, 1), np.float16), 0, np.zeros(40, np.int64), src).item() == 4.0
    assert gs.torch.index_add(np.zeros((1, 1), np.float16), 0, np.zeros(40, np.int32), src).item() == 3.98828125


def test_index_copy_cases():
    # torch docs: x = zeros(5, 3); t = [[1,2,3],[4,5,6],[7,8,9]]; x.index_copy_(0, [0, 4, 2], t)
    out = gs.torch.index_copy(np.zeros((5, 3)), 0, [0, 4, 2], T3)
    assert out.tolist() == [[1, 2, 3], [0, 0, 0], [7, 8, 9], [0, 0, 0], [4, 5, 6]]
    assert gs.torch.index_copy(np.zeros((3, 2)), 0, [1, 1], [[1, 2], [3, 4]]).tolist() == [[0, 0], [3, 4], [0, 0]]
    assert gs.torch.index_copy([1.0, 2], 0, 1, 5.0).tolist() == [1, 5]  # 0-d index and source
    assert gs.torch.index_copy(1.0, 0, [0, 0], [5.0, 6]).tolist() == 6.0  # 0-d input, last wins
    assert gs.torch.index_copy(np.zeros((2, 0)), 0, [-9], np.ones((1, 0))).shape == (2, 0)  # empty slices


def test_index_fill_cases():
    # torch docs: x = [[1,2,3],[4,5,6],[7,8,9]]; x.index_fill_(1, [0, 2], -1)
    out = gs.torch.index_fill(T3, 1, [0, 2], -1)
    assert out.tolist() == [[-1, 2, -1], [-1, 5, -1], [-1, 8, -1]]
    assert gs.torch.index_fill(T3, 0, [-1], 0).tolist() == [[1, 2, 3], [4, 5, 6], [0, 0, 0]]  # -1 wraps
    assert gs.torch.index_fill(T3, 0, 1, np.array(7.5)).tolist()[1] == [7.5, 7.5, 7.5]  # 0-d index and value
    assert gs.torch.index_fill(np.zeros(2, np.uint8), 0, [1], -1).tolist() == [0, 255]
    assert gs.torch.index_fill(np.zeros(2, np.int64), 0, [1], 2.5).tolist() == [0, 2]
    assert gs.torch.index_fill(1.0, 0, [-1], 7.0).tolist() == 7.0


INDEX_REDUCE_TABLE = [  # torch docs example: x = [[1,2],[3,4],[5,6]] rows reduced at [0, 0, 2] from [[2,3],[4,5],[6,7]]
    ("prod", True, [[8, 30], [3, 4], [30, 42]]), ("prod", False, [[8, 15], [3, 4], [6, 7]]),
    ("mean", True, [[7 / 3, 10 / 3], [3, 4], [5.5, 6.5]]), ("mean", False, [[3, 4], [3, 4], [6, 7]]),
    ("amax", True, [[4, 5], [3, 4], [6, 7]]), ("amax", False, [[4, 5], [3, 4], [6, 7]]),
    ("amin", True, [[1, 2], [3, 4], [5, 6]]), ("amin", False, [[2, 3], [3, 4], [6, 7]]),
]


@pytest.mark.parametrize(("reduce", "include_self", "expected"), INDEX_REDUCE_TABLE)
def test_index_reduce_table(reduce, include_self, expected):
    out = gs.torch.index_reduce([[1.0, 2], [3, 4], [5, 6]], 0, [0, 0, 2], [[2.0, 3], [4, 5], [6, 7]], reduce,
                                include_self=include_self)
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def test_index_reduce_integers():
    # torch 2.13 CPU runs integers (mean floors: -18/4 -> -5, -11/3 -> -4)
    x = np.array([[-5], [-5]])
    assert gs.torch.index_reduce(x, 0, [0, 0, 0], [[-2], [-4], [-7]], "mean").tolist() == [[-5], [-5]]
    assert gs.torch.index_reduce(x, 0, [0, 0, 0], [[-2], [-4], [-5]], "mean", include_self=False).tolist() == [[-4], [-5]]
    assert gs.torch.index_reduce(np.zeros((1, 1), np.int8), 0, np.zeros(200, np.int64), np.ones((200, 1), np.int8),
                                 "mean").tolist() == [[1]]  # the int8 count wraps, as torch's


INDEX_ERRORS = [
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[-1], source=np.ones((1, 2))),
     gs.IndexOutOfRangeError, ["torch.index_add (2.13)", "index[0] = -1", "does not accept negative"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[3], source=np.ones((1, 2))),
     gs.IndexOutOfRangeError, ["index[0] = 3", "size 3"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[0, 2], source=np.ones((2, 3))), gs.ShapeError,
     ["source shape must match input shape except along dim 0", "[2, 3]"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[0, 2], source=np.ones((3, 2))), gs.ShapeError,
     ["number of indices (2) must equal source.shape[0] (3)"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[[1]], source=np.ones((1, 2))), gs.ShapeError,
     ["index must be a vector"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2), np.float32), dim=0, index=[1], source=np.ones((1, 2))),
     gs.DTypeError, ["source dtype float64 must equal input dtype float32"]),
    (gs.torch.index_add, dict(input=np.zeros((3, 2)), dim=0, index=[1], source=np.ones((1, 2)), alpha=1j),
     gs.DTypeError, ["alpha 1j", "complex"]),
    (gs.torch.index_add, dict(input=np.zeros(2, np.uint8), dim=0, index=[1], source=np.ones(1, np.uint8), alpha=300),
     gs.DTypeError, ["alpha 300", "uint8 without overflow"]),
    (gs.torch.index_add, dict(input=np.zeros(2), dim=0, index=np.array([1], np.int16), source=np.ones(1)),
     gs.DTypeError, ["int16"]),
    (gs.torch.index_copy, dict(input=np.zeros((3, 2)), dim=0, index=[-1], source=np.ones((1, 2))),
     gs.IndexOutOfRangeError, ["torch.index_copy (2.13)", "index[0] = -1"]),
    (gs.torch.index_copy, dict(input=np.zeros((3, 2)), dim=0, index=np.array([1], np.int32), source=np.ones((1, 2))),
     gs.DTypeError, ["int32", "expected one of: int64"]),
    (gs.torch.index_copy, dict(input=np.zeros((3, 2)), dim=0, index=[1], source=np.ones((1, 3))), gs.ShapeError,
     ["same slice shape"]),
    (gs.torch.index_copy, dict(input=np.zeros(2), dim=0, index=[0], source=np.ones((1, 1))), gs.ShapeError,
     ["same number of dims"]),
    (gs.torch.index_copy, dict(input=np.zeros((3, 2)), dim=0, index=[1, 2], source=np.ones((1, 2))), gs.ShapeError,
     ["number of indices (2)"]),
    (gs.torch.index_fill, dict(input=np.zeros(3), dim=0, index=[-4], value=1.0), gs.IndexOutOfRangeError,
     ["torch.index_fill (2.13)", "index[0] = -4", "[-3, 2]"]),
    (gs.torch.index_fill, dict(input=np.zeros(3), dim=0, index=[[0]], value=1.0), gs.ShapeError,
     ["index must be a vector"]),
    (gs.torch.index_fill, dict(input=np.zeros(3), dim=0, index=[0], value=[1.0]), gs.ShapeError,
     ["number or a 0-d array"]),
    (gs.torch.index_fill, dict(input=np.zeros(3), dim=0, index=[0], value=1 + 0j), gs.DTypeError,
     ["complex", "even with a zero imaginary part"]),
    (gs.torch.index_fill, dict(input=np.zeros(3, np.int8), dim=0, index=[0], value=300), gs.DTypeError,
     ["without overflow"]),
    (gs.torch.index_fill, dict(input=np.zeros(3), dim=0, index=np.array([0], np.int32), value=1.0), gs.DTypeError,
     ["int32"]),
    (gs.torch.index_fill, dict(input=np.zeros((2, 0)), dim=1, index=[0], value=1.0), gs.IndexOutOfRangeError,
     ["size 0"]),
    (gs.torch.index_reduce, dict(input=np.zeros((3, 2)), dim=0, index=[-1], source=np.ones((1, 2)), reduce="prod"),
     gs.IndexOutOfRangeError, ["torch.index_reduce (2.13)", "index[0] = -1"]),
    (gs.torch.index_reduce, dict(input=np.zeros((3, 2)), dim=0, index=[0], source=np.ones((1, 2)), reduce="sum"),
     gs.UnsupportedError, ["'prod', 'mean', 'amax' or 'amin'", "'sum'"]),
    (gs.torch.index_reduce, dict(input=np.zeros((3, 2)), dim=0, index=[0], source=np.ones((1, 2)), reduce="max"),
     gs.UnsupportedError, ["'max'"]),
    (gs.torch.index_reduce, dict(input=np.zeros(2, bool), dim=0, index=[0], source=np.ones(1, bool), reduce="amax"),
     gs.DTypeError, ["bool", "index_reduce('amax')"]),
    (gs.torch.index_reduce, dict(input=np.zeros((2, 2), complex), dim=0, index=[0], source=np.ones((1, 2), complex),
                                 reduce="amax"), gs.DTypeError, ["complex128"]),
    (gs.torch.index_reduce, dict(input=np.zeros((3, 2)), dim=0, index=[0], source=np.ones((1, 2)), reduce="prod",
                                 include_self=np.bool_(True)), gs.ArgumentError, ["include_self must be a bool"]),
]


@pytest.mark.parametrize(("fn", "kwargs", "cls", "fragments"), INDEX_ERRORS)
def test_index_errors(fn, kwargs, cls, fragments):
    assert_error(fn, kwargs, cls, fragments)


@st.composite
def axis_inputs(draw, dtype=np.float64, index_dtypes=(np.int32, np.int64)):
    shape = draw(shapes(min_dims=0, max_dims=3))
    r = max(len(shape), 1)
    dim = draw(st.integers(-r - 1, r))
    a = dim % r if -r <= dim < r else 0
    size = shape[a] if shape else 1
    ishape = draw(st.sampled_from([(), (0,), (1,), (2,), (3,), (5,)]))
    index = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from(index_dtypes))))
    n = int(np.prod(ishape))
    sshape = list(shape)
    if shape:
        sshape[a] = n
    elif draw(st.booleans()):
        sshape = [n]
    if draw(st.integers(0, 20)) == 0 and sshape:
        sshape[draw(st.integers(0, len(sshape) - 1))] += 1
    data = (np.arange(np.prod(shape)).reshape(shape) % 9 + 1).astype(dtype)
    source = (np.arange(np.prod(sshape)).reshape(sshape) % 5 - 2).astype(dtype)
    return data, dim, index, source


@pytest.mark.parametrize("backend", BACKENDS)
@given(st.sampled_from([np.float64, np.int64, np.bool_]).flatmap(axis_inputs), st.sampled_from([1, 2, -1, 3]))
def test_index_add_property(backend, args, alpha):
    data, dim, index, source = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_add(data, dim, index, source, alpha=alpha),
                       lambda: oracle.index_add(data, dim, index, source, alpha=alpha))


@pytest.mark.parametrize("backend", BACKENDS)
@given(axis_inputs(index_dtypes=(np.int64,)))
def test_index_copy_property(backend, args):
    data, dim, index, source = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_copy(data, dim, index, source),
                       lambda: oracle.index_copy(data, dim, index, source))


@pytest.mark.parametrize("backend", BACKENDS)
@given(axis_inputs(index_dtypes=(np.int64,)), st.sampled_from([-1.5, 0.0, 7.0]))
def test_index_fill_property(backend, args, value):
    data, dim, index, _ = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_fill(data, dim, index, value),
                       lambda: oracle.index_fill(data, dim, index, value))


@pytest.mark.parametrize("backend", BACKENDS)
@given(st.sampled_from([np.float64, np.int64, np.int32]).flatmap(axis_inputs),
       st.sampled_from(["prod", "mean", "amax", "amin"]), st.booleans())
def test_index_reduce_property(backend, args, reduce, include_self):
    data, dim, index, source = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_reduce(data, dim, index, source, reduce, include_self=include_self),
                       lambda: oracle.index_reduce(data, dim, index, source, reduce, include_self=include_self))
