"""openvino.Gather (versions 1, 7, 8): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

# (data, indices, axis, batch_dims, version, expected): typed by hand from the Gather-1/7/8 specs,
# docs/behavior-matrix.md#t6-1 and docs/semantics.md#s2
CASES = [
    pytest.param([1, 2, 3, 4, 5], [0, 0, 4], 0, 0, 8, [1, 1, 5], id="spec-8-example-1"),
    pytest.param([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[0, 0, 4], [4, 0, 0]], 1, 1, 8,
                 [[1, 1, 5], [10, 6, 6]], id="spec-8-example-2-batch"),
    pytest.param(
        [[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]],
        [[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]], 2, 2, 8,
        [[[1, 1, 5], [10, 6, 6]], [[12, 13, 15], [20, 19, 18]]], id="spec-8-example-3-batch-2",
    ),
    pytest.param(
        [[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]]],
         [[[21, 22, 23, 24], [25, 26, 27, 28], [29, 30, 31, 32], [33, 34, 35, 36], [37, 38, 39, 40]]]],
        [[1, 2, 4], [4, 3, 2]], 2, 1, 8,
        [[[[5, 6, 7, 8], [9, 10, 11, 12], [17, 18, 19, 20]]],
         [[[37, 38, 39, 40], [33, 34, 35, 36], [29, 30, 31, 32]]]],
        id="spec-8-example-4-axis-gt-batch",
    ),
    pytest.param([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[0, 0, 4], [4, 0, 0]], 1, -1, 8,
                 [[1, 1, 5], [10, 6, 6]], id="spec-8-example-5-negative-batch"),
    pytest.param([1, 2, 3, 4, 5], [0, -2, -1], 0, 0, 8, [1, 4, 5], id="spec-8-example-6-negative"),
    pytest.param([1, 2, 3, 4, 5], [3, 10, -20], 0, 0, 8, [4, 0, 0], id="spec-8-example-7-out-of-range"),
    pytest.param([10, 20, 30], [0, 3], 0, 0, 8, [10, 0], id="matrix-oob-3-zero"),
    pytest.param([10, 20, 30], [0, -4], 0, 0, 8, [10, 0], id="matrix-oob-minus-4-zero"),
    pytest.param([10, 20, 30], [0, -1], 0, 0, 8, [10, 30], id="matrix-negative-last"),
    pytest.param([[1, 2], [3, 4], [5, 6]], 1, 0, 0, 8, [3, 4], id="matrix-0d-index-drops-axis"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], 1, 1, 8, [[3, 1], [5, 5]], id="matrix-batch-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], -1, -1, 8, [[3, 1], [5, 5]], id="matrix-batch-minus-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [2, 0], 1, 0, 1, [[3, 1], [6, 4]], id="gather-1-axis-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], 1, 1, 7, [[3, 1], [5, 5]], id="gather-7-batch"),
    pytest.param([[1, 2], [3, 4]], [1, 1, 0], 0, 0, 7, [[3, 4], [3, 4], [1, 2]], id="duplicates"),
    # batch_dims == rank(indices): one index per batch, the axis disappears
    pytest.param([[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]], [[0, 2], [1, -1]], 2, 2, 8,
                 [[0, 5], [7, 11]], id="batch-equals-rank-indices"),
]


@pytest.mark.parametrize(("data", "indices", "axis", "batch_dims", "version", "expected"), CASES)
def test_cases(data, indices, axis, batch_dims, version, expected):
    out = gs.openvino.Gather(data, indices, axis, batch_dims=batch_dims, version=version)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype
    if version == 8:
        assert gs.openvino.Gather(data, indices, axis, batch_dims).tolist() == expected


@pytest.mark.parametrize("axis", [1, np.int32(1), np.array(1, np.uint8), np.array([1], np.int64), [1], [-1]])
def test_axis_is_an_input(axis):
    out = gs.openvino.Gather([[1, 2, 3], [4, 5, 6]], [2, 0], axis)
    assert out.tolist() == [[3, 1], [6, 4]]


def test_zero_fill_per_dtype():
    assert gs.openvino.Gather([True, True], [1, 5], 0).tolist() == [True, False]
    assert gs.openvino.Gather(np.array(["a", "bb"]), [1, 0, 5], 0).tolist() == ["bb", "a", ""]
    out = gs.openvino.Gather(np.array([10, 20, 30], np.int32), [0, 3, -4, 7], 0)
    assert out.tolist() == [10, 0, 0, 0] and out.dtype == np.int32
    out = gs.openvino.Gather(np.array([1.5, 2.5], np.float16), [-3], 0)
    assert out.tolist() == [0.0] and out.dtype == np.float16


def test_float64_kept_exact():
    d = np.array([1.2345678901234567, 2.0])
    out = gs.openvino.Gather(d, [0], 0)
    assert out.dtype == np.float64 and out[0] == d[0]
    d = np.array([2**40 + 1, 3], np.int64)
    assert gs.openvino.Gather(d, [0], 0).tolist() == [2**40 + 1]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_every_integer_index_type(dtype):
    out = gs.openvino.Gather([10, 20, 30], np.array([2, 0], dtype), 0)
    assert out.tolist() == [30, 10]


def test_uint64_huge_index_is_zero():
    assert gs.openvino.Gather([1.0, 2.0, 3.0], np.array([2, 2**63 + 5], np.uint64), 0).tolist() == [3.0, 0.0]


def test_empty_indices_and_empty_axis():
    # Gather-8 with empty indices kills the CPU plugin (SIGFPE); the spec gives an empty result
    out = gs.openvino.Gather(np.arange(6.0).reshape(3, 2), np.zeros((0,), np.int64), 0)
    assert out.shape == (0, 2)
    # an axis of size 0: every index is out of range, so zeros (the plugin reads garbage)
    out = gs.openvino.Gather(np.zeros((0, 2), np.float32), [0, -1], 0)
    assert out.tolist() == [[0.0, 0.0], [0.0, 0.0]] and out.dtype == np.float32
    out = gs.openvino.Gather(np.zeros((2, 0), np.int32), [[0, -1], [1, 1]], 1, batch_dims=1)
    assert out.tolist() == [[0, 0], [0, 0]]
    with pytest.raises(gs.IndexOutOfRangeError, match="size 0"):
        gs.openvino.Gather(np.zeros((0, 2)), [0], 0, version=7)


def test_batch_of_size_one():
    # crashes the CPU plugin (SIGSEGV); the spec's value
    d = np.array([[1.0, 2.0, 3.0]], np.float32)
    assert gs.openvino.Gather(d, [[1, 5, -1, -4]], 1, batch_dims=1).tolist() == [[2.0, 0.0, 3.0, 0.0]]


def test_0d_result_and_inputs_untouched():
    d = np.arange(6, dtype=np.int16).reshape(2, 3)
    i = np.array([1, -1], np.int8)
    d0, i0 = d.copy(), i.copy()
    out = gs.openvino.Gather(d, i, 1, batch_dims=1)
    assert out.tolist() == [1, 5] and out.dtype == np.int16
    assert not np.shares_memory(out, d)
    np.testing.assert_array_equal(d, d0)
    np.testing.assert_array_equal(i, i0)
    out = gs.openvino.Gather([10, 20], 1, 0)
    assert isinstance(out, np.ndarray) and out.shape == () and out == 20


ERRORS = [
    # (args, kwargs, error class, message fragments)
    (([1, 2, 3], [-1], 0), dict(version=7), gs.IndexOutOfRangeError,
     ["openvino.Gather (Gather-7)", "indices[0] = -1", "negative", "[0, 2]"]),
    (([1, 2, 3], [0, 3], 0), dict(version=1), gs.IndexOutOfRangeError,
     ["Gather-1", "indices[1] = 3", "axis 0", "size 3", "[0, 2]"]),
    (([[1, 2, 3]], [[0, 5]], 1), dict(version=7), gs.IndexOutOfRangeError, ["indices[0, 1] = 5"]),
    (([1, 2, 3], [0], 0), dict(version=9), gs.UnsupportedError, ["no Gather-9", "[1, 7, 8]", "opset8 to opset17"]),
    (([1, 2, 3], [0], 0), dict(version=1, batch_dims=1), gs.UnsupportedError, ["Gather-1", "batch_dims"]),
    (([1, 2, 3], [0], 1), {}, gs.AxisError, ["Gather-8", "axis 1", "[-1, 0]"]),
    (([1, 2, 3], [0], -2), {}, gs.AxisError, ["axis -2"]),
    ((5, [0], 0), {}, gs.AxisError, ["0-d"]),
    (([1, 2, 3], [0], 0.0), {}, gs.ArgumentError, ["axis must be an int", "0.0"]),
    (([1, 2, 3], [0], np.array([0.0])), {}, gs.ArgumentError, ["axis", "integer element type", "float64"]),
    (([1, 2, 3], [0], [0, 0]), {}, gs.ShapeError, ["axis must be a scalar or a 1-D tensor with one element", "[2]"]),
    (([[1, 2], [3, 4]], [[0]], 1), dict(batch_dims=3), gs.AxisError, ["batch_dims", "[-2, 2]", "batch_dims=3"]),
    (([[1, 2], [3, 4]], [[0]], 1), dict(batch_dims=-3), gs.AxisError, ["[-2, 2]"]),
    (([[1, 2], [3, 4]], [[0, 1], [1, 0]], 0), dict(batch_dims=1), gs.AxisError, ["batch_dims' <= axis'", "axis 0"]),
    (([[1, 2], [3, 4]], [[0, 1]], 1), dict(batch_dims=1), gs.ShapeError,
     ["first batch_dims=1 dims", "[2, 2]", "[1, 2]"]),
    (([1, 2, 3], [0.0], 0), {}, gs.DTypeError, ["indices", "integer", "float64"]),
    (([1, 2, 3], [True], 0), {}, gs.DTypeError, ["indices", "bool"]),
    ((np.array([1j, 2j]), [0], 0), {}, gs.DTypeError, ["data dtype complex128", "complex"]),
    (([1, 2, 3], [0], 0), dict(batch_dims=0.5), gs.ArgumentError, ["batch_dims must be an int"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        gs.openvino.Gather(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def gather_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(dshape)
    axis = draw(st.integers(-r, r - 1))
    a = axis + r if axis < 0 else axis
    version = draw(st.sampled_from([1, 7, 8]))
    b = 0 if version == 1 else draw(st.integers(0, a))
    extra = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    ishape = tuple(dshape[:b]) + tuple(extra)
    q = len(ishape)
    batch_dims = b - q if version > 1 and q - b <= min(r, q) and draw(st.booleans()) else b
    dtype = draw(st.sampled_from([np.int32, np.int64, np.int8, np.uint8]))
    indices = draw(index_arrays(ishape, dshape[a], dtype=dtype))
    data = np.arange(1, int(np.prod(dshape)) + 1, dtype=np.float64).reshape(dshape)
    return data, indices, axis, batch_dims, version


@given(gather_cases())
def test_matches_oracle(case):
    data, indices, axis, batch_dims, version = case
    try:
        expected = oracle.gather(data, indices, axis, batch_dims, version)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.openvino.Gather(data, indices, axis, batch_dims=batch_dims, version=version)
        return
    out = gs.openvino.Gather(data, indices, axis, batch_dims=batch_dims, version=version)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
