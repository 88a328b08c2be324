"""torch.scatter, scatter_add, scatter_reduce: case tables, error tables, properties against the loop oracle."""

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

SCATTER_CASES = [
    # torch docs (Tensor.scatter_): src = arange(1, 11).reshape(2, 5), index = [[0, 1, 2, 0]] into zeros(3, 5)
    pytest.param(dict(input=[[0] * 5] * 3, dim=0, index=[[0, 1, 2, 0]], src=[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]),
                 [[1, 0, 0, 4, 0], [0, 2, 0, 0, 0], [0, 0, 3, 0, 0]], id="torch-doc-dim0"),
    pytest.param(dict(input=[[0] * 5] * 3, dim=1, index=[[0, 1, 2], [0, 1, 4]], src=[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]),
                 [[1, 2, 3, 0, 0], [6, 7, 0, 0, 8], [0, 0, 0, 0, 0]], id="torch-doc-dim1"),
    pytest.param(dict(input=[[2.0] * 4] * 2, dim=1, index=[[2], [3]], value=1.23, reduce="multiply"),
                 [[2.0, 2.0, 2.46, 2.0], [2.0, 2.0, 2.0, 2.46]], id="torch-doc-multiply"),
    pytest.param(dict(input=[[2.0] * 4] * 2, dim=1, index=[[2], [3]], value=1.23, reduce="add"),
                 [[2.0, 2.0, 3.23, 2.0], [2.0, 2.0, 2.0, 3.23]], id="torch-doc-add"),
    # docs/behavior-matrix.md#t6-4
    pytest.param(dict(input=[[0, 0], [0, 0]], dim=-1, index=[[1, 0]], src=[[5, 6]]), [[6, 5], [0, 0]], id="neg-dim"),
    pytest.param(dict(input=[0, 0, 0, 0], dim=0, index=[1, 1, 1], src=[10, 20, 30]), [0, 30, 0, 0], id="dup-last"),
    pytest.param(dict(input=[1, 1, 1, 1], dim=0, index=[1, 1, 2], src=[10, 20, 30], reduce="add"), [1, 31, 31, 1],
                 id="dup-add"),
    pytest.param(dict(input=[5, 5, 5, 5], dim=0, index=[0, 0, 2], src=[2, 4, 7], reduce="multiply"), [40, 5, 35, 5],
                 id="matrix-6.7-prod"),
    pytest.param(dict(input=[[0.0] * 3] * 3, dim=0, index=[[1, 2]], src=[[0.0, 1, 2], [3, 4, 5], [6, 7, 8]]),
                 [[0.0, 0, 0], [0.0, 0, 0], [0.0, 1, 0]], id="src-larger"),
    pytest.param(dict(input=[1, 2, 3], dim=0, index=[1, 2], src=9), [1, 9, 9], id="number-as-src-is-value"),
    pytest.param(dict(input=1.0, dim=0, index=[0, 0], src=[5.0, 6.0]), 6.0, id="0d-input"),
    pytest.param(dict(input=[0, 0, 0], dim=0, index=[1], value=-2.7), [0, -2, 0], id="value-truncates"),
    pytest.param(dict(input=np.zeros(2, np.uint8), dim=0, index=[1], value=-1), [0, 255], id="value-uint8-wraps"),
]


@pytest.mark.parametrize(("kwargs", "expected"), SCATTER_CASES)
def test_scatter_cases(kwargs, expected):
    out = gs.torch.scatter(**kwargs)
    assert out.shape == np.shape(expected)
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def test_scatter_float16_sums_in_float32():
    # torch CPU accumulates float16 'add' in float32 and rounds once: 0 + 40 * 0.1 -> 4.0 (float16 steps give 4.004)
    out = gs.torch.scatter(np.zeros(1, np.float16), 0, np.zeros(40, np.int64), np.full(40, 0.1, np.float16), reduce="add")
    assert out.dtype == np.float16 and out.tolist() == [4.0]


REDUCE_TABLE = {  # docs/semantics.md#s5-2 worked example: D=[1,2,3,4], I=[0,1,0,1,2,1], U=[1..6]
    ("sum", True): [5, 14, 8, 4], ("sum", False): [4, 12, 5, 4],
    ("prod", True): [3, 96, 15, 4], ("prod", False): [3, 48, 5, 4],
    ("mean", True): [5 / 3, 3.5, 4, 4], ("mean", False): [2, 4, 5, 4],
    ("amax", True): [3, 6, 5, 4], ("amax", False): [3, 6, 5, 4],
    ("amin", True): [1, 2, 3, 4], ("amin", False): [1, 2, 5, 4],
}


@pytest.mark.parametrize(("reduce", "include_self"), sorted(REDUCE_TABLE))
def test_scatter_reduce_worked_example(reduce, include_self):
    out = gs.torch.scatter_reduce([1.0, 2, 3, 4], 0, [0, 1, 0, 1, 2, 1], [1.0, 2, 3, 4, 5, 6], reduce,
                                  include_self=include_self)
    np.testing.assert_allclose(out, REDUCE_TABLE[reduce, include_self], rtol=1e-15)


MATRIX_6_7 = [  # docs/behavior-matrix.md#t6-7: data [5,5,5,5], idx [0,0,2], upd [2,4,7]
    ("sum", True, [11, 5, 12, 5]), ("sum", False, [6, 5, 7, 5]), ("prod", True, [40, 5, 35, 5]),
    ("prod", False, [8, 5, 7, 5]), ("amax", True, [5, 5, 7, 5]), ("amax", False, [4, 5, 7, 5]),
    ("amin", True, [2, 5, 5, 5]), ("amin", False, [2, 5, 7, 5]), ("mean", False, [3, 5, 7, 5]),
    ("max", True, [5, 5, 7, 5]), ("min", False, [2, 5, 7, 5]),
]


@pytest.mark.parametrize(("reduce", "include_self", "expected"), MATRIX_6_7)
def test_scatter_reduce_matrix(reduce, include_self, expected):
    out = gs.torch.scatter_reduce([5.0] * 4, 0, [0, 0, 2], [2.0, 4, 7], reduce, include_self=include_self)
    assert out.tolist() == expected


@pytest.mark.parametrize(("data", "src", "expected"), [
    ([5, 5, 5, 5], [2, 4, 7], [3, 5, 6, 5]),        # 11/3 -> 3
    ([-5, -5, -5, -5], [-2, -4, -7], [-4, -5, -6, -5]),  # -11/3 -> -4 (floor, not -3)
])
def test_scatter_reduce_integer_mean_floors(data, src, expected):
    out = gs.torch.scatter_reduce(np.array(data, np.int32), 0, [0, 0, 2], np.array(src, np.int32), "mean")
    assert out.dtype == np.int32 and out.tolist() == expected


def test_scatter_reduce_mean_count_in_data_dtype():
    # torch keeps the count in the data dtype: 1 + 200 wraps to -55 in int8, and the int8 sum 200 to -56
    out = gs.torch.scatter_reduce(np.zeros(1, np.int8), 0, np.zeros(200, np.int64), np.ones(200, np.int8), "mean")
    assert out.tolist() == [1]
    half = gs.torch.scatter_reduce(np.zeros(1, np.float16), 0, np.zeros(3000, np.int64), np.ones(3000, np.float16),
                                   "mean")
    assert half.tolist() == [1.0]  # float32 sum 3000 / float16 count 3000 (3001 rounded)


def test_scatter_add_cases():
    assert gs.torch.scatter_add([1, 1, 1, 1], 0, [1, 1, 2], [10, 20, 30]).tolist() == [1, 31, 31, 1]
    assert gs.torch.scatter_add([[0, 0], [0, 0]], 1, [[1, 1]], [[1, 2, 3], [4, 5, 6]]).tolist() == [[0, 3], [0, 0]]
    assert gs.torch.scatter_add(np.array([100, 0], np.int8), 0, [0, 0], np.array([100, 100], np.int8)).tolist() == [44, 0]
    assert gs.torch.scatter_add([False, False], 0, [0, 0], [True, True]).tolist() == [True, False]


def test_empty_index_returns_input_without_checks():
    data = np.arange(6.0).reshape(2, 3)
    out = gs.torch.scatter(data, 0, np.zeros(0, np.int16), [1.0])  # rank, sizes and index dtype unchecked
    np.testing.assert_array_equal(out, data)
    assert not np.shares_memory(out, data)
    np.testing.assert_array_equal(gs.torch.scatter_reduce(np.array([1j]), 0, np.zeros(0, np.int64), np.array([2j]),
                                                          "amax"), [1j])


SCATTER_ERRORS = [
    (gs.torch.scatter, dict(input=[1, 2, 3], dim=0, index=[-1], src=[9]), gs.IndexOutOfRangeError,
     ["torch.scatter (2.13)", "index[0] = -1", "does not accept negative", "dim 0"]),
    (gs.torch.scatter, dict(input=[1, 2, 3], dim=0, index=[3], src=[9]), gs.IndexOutOfRangeError,
     ["index[0] = 3", "size 3"]),
    (gs.torch.scatter, dict(input=np.zeros((3, 3)), dim=0, index=[[1, 2]], src=np.ones((1, 1))), gs.ShapeError,
     ["index.shape[1] = 2 must be <= src.shape[1] = 1"]),
    (gs.torch.scatter, dict(input=np.zeros((3, 3)), dim=0, index=[[1, 2, 0, 0]], src=np.ones((4, 5))), gs.ShapeError,
     ["index.shape[1] = 4 must be <= input.shape[1] = 3"]),
    (gs.torch.scatter, dict(input=np.zeros((3, 3)), dim=0, index=[1, 2], src=np.ones((3, 3))), gs.ShapeError,
     ["index must have the same number of dimensions"]),
    (gs.torch.scatter, dict(input=np.zeros((3, 3)), dim=0, index=[[1]], src=np.ones(3)), gs.ShapeError,
     ["src must have the same number of dimensions"]),
    (gs.torch.scatter, dict(input=np.zeros(3, np.float32), dim=0, index=[1], src=np.ones(1)), gs.DTypeError,
     ["src dtype float64 must equal input dtype float32"]),
    (gs.torch.scatter, dict(input=[1.0], dim=0, index=[0], src=[1.0], reduce="mean"), gs.UnsupportedError,
     ["'add' or 'multiply'", "'mean'", "scatter_reduce"]),
    (gs.torch.scatter, dict(input=[1.0], dim=0, index=[0], src=[1.0], value=2.0), gs.ArgumentError, ["not both"]),
    (gs.torch.scatter, dict(input=[1.0], dim=0, index=[0]), gs.ArgumentError, ["pass src"]),
    (gs.torch.scatter, dict(input=np.zeros(2, np.uint8), dim=0, index=[0], value=300), gs.DTypeError,
     ["value 300", "uint8 without overflow"]),
    (gs.torch.scatter, dict(input=np.zeros(2, np.float32), dim=0, index=[0], value=1 + 2j), gs.DTypeError,
     ["complex"]),
    (gs.torch.scatter, dict(input=np.zeros(2, np.int64), dim=0, index=[0], value=float("nan")), gs.DTypeError,
     ["without overflow"]),
    (gs.torch.scatter, dict(input=[1.0], dim=1, index=[0], src=[1.0]), gs.AxisError, ["dim 1", "[-1, 0]"]),
    (gs.torch.scatter, dict(input=[1.0], dim=0, index=np.array([0], np.int16), src=[1.0]), gs.DTypeError,
     ["index dtype int16"]),
    (gs.torch.scatter_add, dict(input=[0.0, 0.0], dim=0, index=[0, 2], src=[1.0, 1.0]), gs.IndexOutOfRangeError,
     ["torch.scatter_add (2.13)", "index[1] = 2"]),
    (gs.torch.scatter_reduce, dict(input=[1.0], dim=0, index=[0], src=[1.0], reduce="add"), gs.UnsupportedError,
     ["'sum', 'prod', 'mean', 'amax' or 'amin'", "'add'"]),
    (gs.torch.scatter_reduce, dict(input=[1.0], dim=0, index=[0], src=[1.0], reduce="sum", include_self=0),
     gs.ArgumentError, ["include_self must be a bool"]),
    (gs.torch.scatter_reduce, dict(input=[True], dim=0, index=[0], src=[True], reduce="mean"), gs.DTypeError,
     ["'mean' is not implemented for bool"]),
    (gs.torch.scatter_reduce, dict(input=[1j], dim=0, index=[0], src=[1j], reduce="amin"), gs.DTypeError,
     ["complex"]),
    (gs.torch.scatter_reduce, dict(input=np.zeros(1, np.uint16), dim=0, index=[0], src=np.zeros(1, np.uint16),
                                   reduce="sum"), gs.DTypeError, ["uint16", "not supported"]),
]


@pytest.mark.parametrize(("fn", "kwargs", "cls", "fragments"), SCATTER_ERRORS)
def test_scatter_errors(fn, kwargs, cls, fragments):
    assert_error(fn, kwargs, cls, fragments)


def test_duplicates_policy_on_request():
    assert gs.torch.scatter([0, 0], 0, [1, 1], src=[10, 20], duplicates="first").tolist() == [0, 10]
    with pytest.raises(gs.DuplicateIndexError, match="index"):
        gs.torch.scatter([0, 0], 0, [1, 1], src=[10, 20], duplicates="raise")


@st.composite
def scatter_inputs(draw, dtype=np.float64):
    shape = draw(shapes(min_dims=0, max_dims=3))
    r = max(len(shape), 1)
    dim = draw(st.integers(-r - 1, r))
    a = dim % r if -r <= dim < r else 0
    base = shape if shape else (1,)
    ishape = tuple(draw(st.integers(0, 4)) if d == a else draw(st.integers(0, n)) for d, n in enumerate(base))
    if not shape and draw(st.booleans()):
        ishape = ()
    if draw(st.integers(0, 25)) == 0:
        ishape = (*ishape, 1)  # rank mismatch
    index = draw(index_arrays(ishape, base[a], dtype=draw(st.sampled_from([np.int32, np.int64])), allow_negative=True))
    sshape = tuple(n + draw(st.integers(0, 1)) for n in (ishape if ishape else ((1,) if not shape else ())))
    if not ishape and not shape:
        sshape = ()
    data = (np.arange(np.prod(shape)).reshape(shape) + 1).astype(dtype)
    src = ((np.arange(np.prod(sshape)).reshape(sshape) % 7) - 2).astype(dtype)
    return data, dim, index, src


@pytest.mark.parametrize("backend", BACKENDS)
@given(scatter_inputs(), st.sampled_from([None, "add", "multiply"]), st.booleans())
def test_scatter_property(backend, args, reduce, use_value):
    data, dim, index, src = args
    with using_backend(backend):
        if use_value:
            assert_matches(lambda: gs.torch.scatter(data, dim, index, value=2.5, reduce=reduce),
                           lambda: oracle.scatter(data, dim, index, value=2.5, reduce=reduce))
        else:
            assert_matches(lambda: gs.torch.scatter(data, dim, index, src, reduce=reduce),
                           lambda: oracle.scatter(data, dim, index, src, reduce=reduce))


@pytest.mark.parametrize("backend", BACKENDS)
@given(scatter_inputs(dtype=np.int64))
def test_scatter_add_property(backend, args):
    data, dim, index, src = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.scatter_add(data, dim, index, src),
                       lambda: oracle.scatter_add(data, dim, index, src))


@pytest.mark.parametrize("backend", BACKENDS)
@given(st.sampled_from([np.float64, np.int64, np.int32]).flatmap(scatter_inputs),
       st.sampled_from(["sum", "prod", "mean", "amax", "amin"]), st.booleans())
def test_scatter_reduce_property(backend, args, reduce, include_self):
    data, dim, index, src = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.scatter_reduce(data, dim, index, src, reduce, include_self=include_self),
                       lambda: oracle.scatter_reduce(data, dim, index, src, reduce, include_self=include_self))
