"""openvino.GatherND (versions 5, 8): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

D234 = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]
I2311 = [[[[1]], [[0]], [[2]]], [[[0]], [[2]], [[2]]]]

# (data, indices, batch_dims, version, expected): the GatherND-5/8 spec examples, docs/behavior-matrix.md#t6-3
CASES = [
    pytest.param([[1, 2], [3, 4]], [[0, 0], [1, 0]], 0, 8, [1, 3], id="spec-example-1"),
    pytest.param([[1, 2], [3, 4]], [[1], [0]], 0, 8, [[3, 4], [1, 2]], id="spec-example-2-slices"),
    pytest.param([[1, 2], [3, 4]], [[[1]], [[0]]], 0, 8, [[[3, 4]], [[1, 2]]], id="spec-example-3-leading"),
    pytest.param([[1, 2], [3, 4]], [[1], [0]], 1, 8, [2, 3], id="spec-example-4-batch"),
    pytest.param(D234, [[1], [0]], 1, 8, [[5, 6, 7, 8], [13, 14, 15, 16]], id="spec-example-5-batch-slices"),
    pytest.param(D234, I2311, 2, 8, [[[2], [5], [11]], [[13], [19], [23]]], id="spec-8-example-6-batch-2"),
    pytest.param(D234, I2311, 2, 5, [[2], [5], [11], [13], [19], [23]], id="spec-5-example-6-flattened"),
    pytest.param([[[[1, 2, 3, 4], [5, 6, 7, 8]], [[9, 10, 11, 12], [13, 14, 15, 16]]]],
                 [[[[1], [0]], [[3], [2]]]], 3, 8, [[[2, 5], [12, 15]]], id="spec-8-example-7-batch-3"),
    pytest.param([[1, 2], [3, 4]], [[1], [0]], 1, 5, [2, 3], id="gathernd-5-batch-1-no-flattening"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 0], [-1, 0]], 0, 8, [1, 7], id="matrix-negative"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1]], 0, 8, [[4, 5, 6]], id="matrix-partial-index"),
    pytest.param([[0, 1], [2, 3]], [1, 0], 0, 8, 2, id="1d-indices-one-tuple-0d-result"),
    pytest.param([[0, 1], [2, 3]], [[-1, -1], [0, 0], [-1, -1]], 0, 8, [3, 0, 3], id="duplicates-negative"),
]


@pytest.mark.parametrize(("data", "indices", "batch_dims", "version", "expected"), CASES)
def test_cases(data, indices, batch_dims, version, expected):
    out = gs.openvino.GatherND(data, indices, batch_dims, version=version)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


def test_output_shapes():
    d = np.zeros((2, 3, 5, 7))
    i = np.zeros((2, 3, 4, 1), np.int64)
    assert gs.openvino.GatherND(d, i, 2).shape == (2, 3, 4, 7)  # docs/semantics.md#s4-2
    assert gs.openvino.GatherND(d, i, 2, version=5).shape == (6, 4, 7)
    d = np.zeros((2, 3, 4))
    assert gs.openvino.GatherND(d, np.zeros((2, 3, 1), np.int64), 2).shape == (2, 3)
    assert gs.openvino.GatherND(d, np.zeros((0, 2), np.int64)).shape == (0, 4)
    # empty index tuples: each selects the whole data[batch] block (the CPU plugin reads garbage)
    out = gs.openvino.GatherND(np.arange(4.0).reshape(2, 2), np.zeros((3, 0), np.int64))
    assert out.tolist() == [[[0.0, 1.0], [2.0, 3.0]]] * 3
    out = gs.openvino.GatherND(np.arange(4.0).reshape(2, 2), np.zeros((2, 0), np.int64), 1)
    assert out.tolist() == [[0.0, 1.0], [2.0, 3.0]]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_every_integer_index_type(dtype):
    assert gs.openvino.GatherND([[1, 2], [3, 4]], np.array([[1, 0]], dtype)).tolist() == [3]


def test_inputs_untouched_and_exact_float64():
    d = np.array([[1.2345678901234567, 2.0], [3.0, 4.0]])
    i = np.array([[0, 0]], np.int32)
    d0, i0 = d.copy(), i.copy()
    out = gs.openvino.GatherND(d, i)
    assert out[0] == d[0, 0] and not np.shares_memory(out, d)
    np.testing.assert_array_equal(d, d0)
    np.testing.assert_array_equal(i, i0)


ERRORS = [
    (([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 0], [3, 0]]), {}, gs.IndexOutOfRangeError,
     ["openvino.GatherND (GatherND-8)", "indices[1, 0] = 3", "axis 0", "[-3, 2]"]),
    (([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 3]]), {}, gs.IndexOutOfRangeError, ["indices[0, 1] = 3", "axis 1"]),
    (([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-4, 0]]), {}, gs.IndexOutOfRangeError, ["indices[0, 0] = -4"]),
    (([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-1, 0]]), dict(version=5), gs.IndexOutOfRangeError,
     ["GatherND-5", "negative", "[0, 2]"]),
    (([[1, 2], [3, 4]], [[0, 0, 0]]), {}, gs.ShapeError, ["indices.shape[-1] + batch_dims", "rank(data) = 2", "3"]),
    (([[[1, 2], [3, 4]]] * 2, [[[1, 0, 0]], [[0, 1, 0]]], 1), {}, gs.ShapeError, ["indices.shape[-1] = 3"]),
    (([[1, 2], [3, 4]], [[0], [1]], 2), {}, gs.AxisError, ["batch_dims", "[0, 2)", "batch_dims=2"]),
    (([[1, 2], [3, 4]], [[0], [1]], -1), {}, gs.AxisError, ["batch_dims=-1"]),
    ((np.ones((1, 2, 3)), [[[1]], [[0]]], 1), {}, gs.ShapeError, ["first batch_dims=1 dims", "broadcastable"]),
    ((np.ones((2, 2, 3)), [[[1]]], 1), {}, gs.ShapeError, ["first batch_dims=1 dims"]),
    ((5, [[0]]), {}, gs.ShapeError, ["data must have rank >= 1"]),
    (([1, 2], 0), {}, gs.ShapeError, ["indices must have rank >= 1"]),
    (([1, 2], [[0.0]]), {}, gs.DTypeError, ["indices", "float64"]),
    ((np.array(["a"]), [[0]]), {}, gs.DTypeError, ["dtype str"]),
    (([1, 2], [[0]]), dict(version=6), gs.UnsupportedError, ["no GatherND-6", "[5, 8]"]),
    (([1, 2], [[0]], 0.0), {}, gs.ArgumentError, ["batch_dims must be an int"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        gs.openvino.GatherND(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def nd_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(dshape)
    b = draw(st.integers(0, r - 1))
    k = draw(st.integers(0, r - b))
    mid = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    ishape = tuple(dshape[:b]) + tuple(mid) + (k,)
    dtype = draw(st.sampled_from([np.int32, np.int64, np.int16, np.uint8]))
    # one strategy per tuple component: each component indexes its own axis
    comps = [draw(index_arrays(ishape[:-1], dshape[b + j], dtype=dtype)) for j in range(k)]
    indices = np.stack(comps, axis=-1) if k else np.zeros(ishape, dtype)
    data = np.arange(1, int(np.prod(dshape)) + 1, dtype=np.float64).reshape(dshape)
    return data, indices, b, draw(st.sampled_from([5, 8]))


@given(nd_cases())
def test_matches_oracle(case):
    data, indices, batch_dims, version = case
    try:
        expected = oracle.gather_nd(data, indices, batch_dims, version)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.openvino.GatherND(data, indices, batch_dims, version=version)
        return
    out = gs.openvino.GatherND(data, indices, batch_dims, version=version)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
