"""paddle.put_along_axis (3.3.1): reduction table, shape cases, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import paddle as oracle
from tests.strategies import shapes

from ._helpers import agree, check_errors

# docs/semantics.md#s5-2 worked example (observed in torch, OpenVINO and paddle): D=[1,2,3,4], I=[0,1,0,1,2,1], U=[1..6]
D, IDX, U = [1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1, 2, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
REDUCTIONS = [
    ("add", True, [5, 14, 8, 4]), ("add", False, [4, 12, 5, 4]),
    ("mul", True, [3, 96, 15, 4]), ("mul", False, [3, 48, 5, 4]),
    ("multiply", True, [3, 96, 15, 4]), ("multiply", False, [3, 48, 5, 4]),
    ("mean", True, [5 / 3, 3.5, 4, 4]), ("mean", False, [2, 4, 5, 4]),
    ("amax", True, [3, 6, 5, 4]), ("amax", False, [3, 6, 5, 4]),
    ("amin", True, [1, 2, 3, 4]), ("amin", False, [1, 2, 5, 4]),
    ("assign", True, [3, 6, 5, 4]), ("assign", False, [3, 6, 5, 4]),
]


@pytest.mark.parametrize(("reduce", "include_self", "expected"), REDUCTIONS)
def test_reduction_table(reduce, include_self, expected):
    out = gs.paddle.put_along_axis(np.array(D, np.float32), IDX, np.array(U, np.float32), 0, reduce=reduce,
                                   include_self=include_self)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-6)


# docs/behavior-matrix.md#t6-7: data [5,5,5,5], idx [0,0,2], upd [2,4,7]
MATRIX_67 = [
    ("add", True, [11, 5, 12, 5]), ("add", False, [6, 5, 7, 5]),
    ("mul", True, [40, 5, 35, 5]), ("mul", False, [8, 5, 7, 5]),
    ("amax", True, [5, 5, 7, 5]), ("amax", False, [4, 5, 7, 5]),
    ("amin", True, [2, 5, 5, 5]), ("amin", False, [2, 5, 7, 5]),
    ("mean", False, [3, 5, 7, 5]),
]


@pytest.mark.parametrize(("reduce", "include_self", "expected"), MATRIX_67)
def test_matrix_6_7(reduce, include_self, expected):
    out = gs.paddle.put_along_axis(np.full(4, 5.0), [0, 0, 2], [2.0, 4.0, 7.0], 0, reduce=reduce,
                                   include_self=include_self)
    assert out.tolist() == expected


INT_CASES = [
    # integer mean rounds toward -inf (docs/behavior-matrix.md#surprise-8 and docs/behavior-matrix.md#t6-7)
    pytest.param(np.int32, [5] * 4, [2, 4, 7], "mean", True, [3, 5, 6, 5], id="int-mean"),
    pytest.param(np.int32, [-5] * 4, [-2, -4, -7], "mean", True, [-4, -5, -6, -5], id="int-mean-negative-floor"),
    pytest.param(np.int32, [-5] * 4, [-2, -4, -7], "mean", False, [-3, -5, -7, -5], id="int-mean-no-self"),
    pytest.param(np.uint8, [5] * 4, [2, 4, 7], "mean", True, [3, 5, 6, 5], id="uint8-mean"),
    pytest.param(np.int32, [3] * 4, [2**20, 2**20], "mul", True, [0, 3, 3, 3], id="int32-mul-overflow-wraps"),
]


@pytest.mark.parametrize(("dtype", "data", "upd", "reduce", "inc", "expected"), INT_CASES)
def test_integer_cases(dtype, data, upd, reduce, inc, expected):
    idx = [0, 0, 2][: len(upd)] if len(upd) == 3 else [0, 0]
    out = gs.paddle.put_along_axis(np.array(data, dtype), idx, np.array(upd, dtype), 0, reduce=reduce,
                                   include_self=inc)
    assert out.dtype == dtype and out.tolist() == expected


Z34 = np.zeros((3, 4), np.float32)
SHAPE_CASES = [
    # docstring example: [[10,30,20],[60,40,50]], index [[0]], value 99, axis 0
    pytest.param([[10, 30, 20], [60, 40, 50]], [[0]], 99, 0, {}, [[99, 99, 99], [60, 40, 50]], id="docstring"),
    pytest.param(np.zeros((2, 2)), [[1, 0]], [[5.0, 6.0]], -1, {}, [[6, 5], [6, 5]], id="matrix-negative-axis-bcast"),
    pytest.param([1.0, 2.0, 3.0], [-1], [9.0], 0, {}, [1, 2, 9], id="matrix-negative-index"),
    pytest.param([0.0] * 4, [1, 1, 1], [10.0, 20.0, 30.0], 0, {}, [0, 30, 0, 0], id="matrix-dups-last-wins"),
    # docs/behavior-matrix.md#t6-4 "reduction names accepted": data [5,5,5], idx [0,0], upd [2,3]
    pytest.param([5.0, 5.0, 5.0], [0, 0], [2.0, 3.0], 0, {"reduce": "add"}, [10, 5, 5], id="matrix-names-add"),
    pytest.param([5.0, 5.0, 5.0], [0, 0], [2.0, 3.0], 0, {"reduce": "multiply"}, [30, 5, 5], id="matrix-names-mul"),
    pytest.param([5.0, 5.0, 5.0], [0, 0], [2.0, 3.0], 0, {"reduce": "amin"}, [2, 5, 5], id="matrix-names-amin"),
    pytest.param([5.0, 5.0, 5.0], [0, 0], [2.0, 3.0], 0, {}, [3, 5, 5], id="matrix-names-assign"),
    pytest.param([5.0, 5.0, 5.0], [0], [2.0], 0, {"reduce": "add", "include_self": False}, [2, 5, 5],
                 id="matrix-untouched-kept"),
    pytest.param(Z34, [[1, 3]], [[5.0]], 1, {}, [[0, 5, 0, 5]] * 3, id="values-broadcast"),
    pytest.param(Z34, [[1, 2], [2, 3], [0, 1]], [7.0, 8.0], 1, {},
                 [[0, 7, 8, 0], [0, 0, 7, 8], [7, 8, 0, 0]], id="1d-values-broadcast"),
    pytest.param(Z34, [[0, 1, 2, 3, 0, 1]], np.arange(6, dtype=np.float32).reshape(1, 6), 1, {"reduce": "add"},
                 [[4, 6, 2, 3], [0, 0, 0, 0], [0, 0, 0, 0]], id="longer-along-axis-no-broadcast"),
    pytest.param(Z34, [[1], [2]], [[5.0], [6.0]], 1, {"broadcast": False},
                 [[0, 5, 0, 0], [0, 0, 6, 0], [0, 0, 0, 0]], id="no-broadcast"),
    pytest.param(Z34, [[1], [2]], [[5.0, 7.0], [6.0, 8.0], [9.0, 9.0]], 1, {"broadcast": False},
                 [[0, 5, 0, 0], [0, 0, 6, 0], [0, 0, 0, 0]], id="no-broadcast-values-bigger"),
    pytest.param(Z34, [[-1], [2]], 3.0, 1, {"broadcast": False},
                 [[0, 0, 0, 3], [0, 0, 3, 0], [0, 0, 0, 0]], id="no-broadcast-scalar-negative"),
    pytest.param(Z34, np.zeros((3, 0), np.int64), 1.0, 1, {}, [[0] * 4] * 3, id="empty-indices"),
]


@pytest.mark.parametrize(("arr", "indices", "values", "axis", "kw", "expected"), SHAPE_CASES)
def test_shape_cases(arr, indices, values, axis, kw, expected):
    out = gs.paddle.put_along_axis(arr, indices, values, axis, **kw)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(arr).dtype


def test_empty_arr_unchecked_and_inputs_untouched():
    # measured: an empty arr is returned unchanged, its indices unchecked
    assert gs.paddle.put_along_axis(np.zeros((3, 0), np.float32), [[0]], 1.0, 1).shape == (3, 0)
    assert gs.paddle.put_along_axis(np.zeros((0, 3), np.float32), [[5]], 1.0, 1).shape == (0, 3)
    arr = np.zeros((2, 3), np.int64)
    idx = np.array([[2], [0]], np.int32)
    val = np.ones((2, 1), np.int64)
    out = gs.paddle.put_along_axis(arr, idx, val, 1, reduce="add")
    assert out.tolist() == [[0, 0, 1], [1, 0, 0]]
    assert arr.sum() == 0 and idx.tolist() == [[2], [0]] and not np.shares_memory(out, arr)


ERRORS = [
    (dict(arr=[1.0, 2.0, 3.0], indices=[3], values=[9.0], axis=0), gs.IndexOutOfRangeError,
     ["paddle.put_along_axis", "paddle 3.3.1", "indices[0] = 3", "[-3, 2]"]),
    (dict(arr=[1.0, 2.0, 3.0], indices=[-4], values=[9.0], axis=0), gs.IndexOutOfRangeError, ["indices[0] = -4"]),
    (dict(arr=Z34, indices=[[4], [2]], values=3.0, axis=1, broadcast=False), gs.IndexOutOfRangeError,
     ["indices[0, 0] = 4", "size 4"]),
    (dict(arr=Z34, indices=[[1], [2]], values=1.0, axis=1), gs.ShapeError, ["cannot be broadcast to [3, 1]"]),
    (dict(arr=Z34, indices=np.zeros((0, 1), np.int64), values=1.0, axis=1), gs.ShapeError, ["cannot be broadcast"]),
    (dict(arr=Z34, indices=[[1], [2], [0], [3]], values=1.0, axis=1), gs.ShapeError,
     ["indices.shape[0] = 4", "arr.shape[0] = 3", "out of bounds"]),
    (dict(arr=np.zeros((3, 1, 4)), indices=np.zeros((1, 2, 2), np.int64), values=1.0, axis=2), gs.ShapeError,
     ["indices.shape[1] = 2"]),
    (dict(arr=Z34, indices=[[1], [2], [0], [3]], values=3.0, axis=1, broadcast=False), gs.ShapeError,
     ["size does not match at dimension 0"]),
    (dict(arr=Z34, indices=[[1, 2], [2, 3]], values=np.ones((2, 1), np.float32), axis=1, broadcast=False),
     gs.ShapeError, ["dimension 1"]),
    (dict(arr=Z34, indices=[[1]], values=np.ones(1, np.float32), axis=1, broadcast=False), gs.ShapeError,
     ["same number of dimensions"]),
    (dict(arr=Z34, indices=[[1]], values=np.ones((3, 2), np.float32), axis=1), gs.ShapeError, ["[3, 2]"]),
    (dict(arr=Z34, indices=[1, 2], values=1.0, axis=1), gs.ShapeError, ["same number of dimensions"]),
    (dict(arr=Z34, indices=[[1]], values=1.0, axis=-3), gs.AxisError, ["axis -3"]),
    (dict(arr=Z34, indices=[[1]], values=1.0, axis=1, reduce="sum"), gs.UnsupportedError,
     ["can not support reduce: 'sum'", "'amax'"]),
    (dict(arr=Z34, indices=[[1]], values=1.0, axis=1, reduce="none"), gs.UnsupportedError, ["'none'"]),
    (dict(arr=Z34, indices=[[1]], values=1.0, axis=1, reduce="max"), gs.UnsupportedError, ["'max'"]),
    (dict(arr=Z34, indices=[[1]], values=1.0, axis=1, include_self=1), gs.ArgumentError, ["include_self"]),
    (dict(arr=Z34, indices=[[1]], values=np.ones((1, 1)), axis=1), gs.DTypeError,
     ["values dtype float64 must equal arr dtype float32"]),
    (dict(arr=np.zeros((1, 2), bool), indices=[[1]], values=True, axis=1), gs.DTypeError, ["bool", "no bool kernel"]),
    (dict(arr=np.zeros((1, 2), np.int8), indices=[[1]], values=1, axis=1), gs.DTypeError, ["int8"]),
    (dict(arr=np.zeros((1, 2), np.float16), indices=[[1]], values=1, axis=1), gs.DTypeError, ["float16"]),
    (dict(arr=np.zeros((1, 2), np.complex64), indices=[[1]], values=1, axis=1), gs.DTypeError, ["complex64"]),
    (dict(arr=np.zeros((1, 2), np.uint64), indices=[[1]], values=1, axis=1), gs.DTypeError, ["uint64"]),
    (dict(arr=Z34, indices=np.array([[1]], np.int16), values=1.0, axis=1), gs.DTypeError, ["indices dtype int16"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    check_errors(gs.paddle.put_along_axis, kwargs, cls, fragments)


def test_bfloat16_rejected():
    import ml_dtypes

    with pytest.raises(gs.DTypeError, match="bfloat16"):
        gs.paddle.put_along_axis(np.zeros((1, 2), ml_dtypes.bfloat16), [[1]], 1.0, 1)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    r = len(shape)
    axis = draw(st.integers(-r, r - 1))
    a = axis % r
    ishape = tuple(
        draw(st.integers(0, 5)) if d == a else draw(st.sampled_from(sorted({0, 1, shape[d], shape[d] + 1})))
        for d in range(r)
    )
    s = shape[a]
    vals = st.integers(-s - 1, s) if s else st.integers(-2, 2)
    n = int(np.prod(ishape))
    index = np.array(draw(st.lists(vals, min_size=n, max_size=n)), dtype=np.int64).reshape(ishape)
    if draw(st.booleans()):
        index = index.astype(np.int32)
    dtype = draw(st.sampled_from([np.int32, np.int64, np.float64]))
    x = np.arange(np.prod(shape)).reshape(shape).astype(dtype) - 3
    broadcast = draw(st.booleans())
    vshape = draw(st.sampled_from([(), ishape, tuple(1 for _ in ishape), tuple(m + 1 for m in ishape)]))
    values = (7 * np.arange(int(np.prod(vshape))) - 20).reshape(vshape).astype(dtype)
    reduce = draw(st.sampled_from(["assign", "add", "mul", "multiply", "mean", "amin", "amax"]))
    return x, index, values, axis, reduce, draw(st.booleans()), broadcast


@given(inputs())
def test_property_matches_loop_oracle(args):
    x, index, values, axis, reduce, include_self, broadcast = args

    def ours():
        return gs.paddle.put_along_axis(x, index, values, axis, reduce=reduce, include_self=include_self,
                                        broadcast=broadcast)

    def theirs():
        return oracle.put_along_axis(x, index, values, axis, reduce, include_self, broadcast)

    agree(theirs, ours)
