"""tensorflow.gather: case table, error table, property test against the brute-force oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import tensorflow as oracle
from tests.strategies import index_arrays, shapes

P2 = [[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]
BD = [[0, 0, 1, 0, 2], [3, 0, 0, 0, 4], [0, 5, 0, 6, 0]]
A234 = np.arange(24).reshape(2, 3, 4)

# (params, indices, kwargs, expected): tf.gather docstring examples, docs/behavior-matrix.md#t6-1, observed TF 2.21
CASES = [
    pytest.param(["p0", "p1", "p2", "p3", "p4", "p5"], 3, {}, "p3", id="doc-scalar-index"),
    pytest.param(["p0", "p1", "p2", "p3", "p4", "p5"], [2, 0, 2, 5], {}, ["p2", "p0", "p2", "p5"], id="doc-1d"),
    pytest.param(P2, [3, 1], {}, [[30, 31, 32], [10, 11, 12]], id="doc-rows"),
    pytest.param(P2, [2, 1], dict(axis=1), [[2, 1], [12, 11], [22, 21], [32, 31]], id="doc-axis-1"),
    pytest.param(P2, [[2, 1]], dict(axis=-1), [[[2, 1]], [[12, 11]], [[22, 21]], [[32, 31]]], id="negative-axis"),
    pytest.param(BD, [[2, 4], [0, 4], [1, 3]], dict(axis=1, batch_dims=1), [[1, 2], [3, 4], [5, 6]], id="doc-batch"),
    pytest.param(BD, [[2, 4], [0, 4], [1, 3]], dict(batch_dims=1), [[1, 2], [3, 4], [5, 6]], id="axis-none-is-b"),
    pytest.param(BD, [[2], [0], [3]], dict(batch_dims=-1), [[1], [3], [6]], id="take-along-last-axis"),
    pytest.param([[1, 2], [3, 4], [5, 6]], [1], {}, [[3, 4]], id="matrix-default-axis-0"),
    pytest.param([[1, 2], [3, 4], [5, 6]], 1, {}, [3, 4], id="matrix-0d-index-drops-axis"),
    pytest.param([10, 20, 30], [0, -1], dict(device="xla"), [10, 10], id="matrix-xla-neg-clamps-to-0"),
    pytest.param([10, 20, 30], [0, 3], dict(device="xla"), [10, 30], id="matrix-xla-oob-clamp"),
    pytest.param([10, 20, 30], [0, -4], dict(device="xla"), [10, 10], id="matrix-xla-minus-4"),
    pytest.param([10, 20, 30], [0, -1, 3], dict(device="gpu"), [10, 0, 0], id="gpu-zero-fill"),
    pytest.param([10.0, 20.0], [[1, 5]], dict(device="gpu"), [[20.0, 0.0]], id="gpu-zero-fill-2d"),
    pytest.param([10, 20, 30], np.array([2, 0], np.int16), {}, [30, 10], id="int16-indices"),
    # observed TF 2.21: axis=0 makes tf.gather drop batch_dims, even an invalid one
    pytest.param([[1, 2], [3, 4]], [[1], [0]], dict(axis=0, batch_dims=5), [[[3, 4]], [[1, 2]]], id="axis0-drops-b"),
    # observed TF 2.21 XLA: int64 indices with batch_dims > 0 read s-1 for a negative index
    pytest.param(A234, np.array([[-5, 9], [2, -1]], np.int64), dict(axis=2, batch_dims=1, device="xla"),
                 [[[3, 3], [7, 7], [11, 11]], [[14, 15], [18, 19], [22, 23]]], id="xla-batch-int64-neg-last"),
    pytest.param(A234, np.array([[-5, 9], [2, -1]], np.int32), dict(axis=2, batch_dims=1, device="xla"),
                 [[[0, 3], [4, 7], [8, 11]], [[14, 12], [18, 16], [22, 20]]], id="xla-batch-int32-neg-first"),
    pytest.param(A234, [[0, 1], [1, 3]], dict(axis=2, batch_dims=1), [[[0, 1], [4, 5], [8, 9]], [[13, 15], [17, 19],
                 [21, 23]]], id="batch-1-axis-2"),
]


@pytest.mark.parametrize(("params", "indices", "kwargs", "expected"), CASES)
def test_cases(params, indices, kwargs, expected):
    out = gs.tensorflow.gather(params, indices, **kwargs)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(params).dtype


def test_shapes():
    # batch_dims=-1 with axis=None: axis = -1 of params (2), batch_dims = -1 of indices (1); observed TF 2.21
    assert gs.tensorflow.gather(A234, np.zeros((2, 5), np.int64), batch_dims=-1).shape == (2, 3, 5)
    assert gs.tensorflow.gather(A234, np.zeros((2, 3, 5), np.int64), batch_dims=-2).shape == (2, 3, 5, 4)
    assert gs.tensorflow.gather(np.zeros((3, 2)), np.zeros((0,), np.int64)).shape == (0, 2)  # matrix 6.1
    assert gs.tensorflow.gather(A234, np.zeros((2,), np.int64), axis=1, batch_dims=1).shape == (2, 4)
    assert gs.tensorflow.gather(A234, np.array(0), axis=1).shape == (2, 4)
    # empty outputs: TF's CPU kernel does not look at the indices (observed)
    assert gs.tensorflow.gather(np.zeros((3, 0)), [5]).shape == (1, 0)
    assert gs.tensorflow.gather(np.zeros((0, 3)), [5], axis=1).shape == (0, 1)
    # an empty axis: zeros on GPU and under XLA (XLA itself returns a wrongly shaped zero tensor)
    for device in ("gpu", "xla"):
        out = gs.tensorflow.gather(np.ones((0, 3)), [[5, -1]], device=device)
        assert out.shape == (1, 2, 3) and not out.any()


def test_every_dtype_and_strings():
    import ml_dtypes

    for dtype in (np.bool_, np.int8, np.uint64, np.float16, ml_dtypes.bfloat16, np.float64, np.complex64):
        d = np.arange(3).astype(dtype)
        out = gs.tensorflow.gather(d, [2, 0])
        assert out.dtype == d.dtype and out.tolist() == d[[2, 0]].tolist()
    assert gs.tensorflow.gather(np.array([b"a", b"bc"], object), [1]).tolist() == [b"bc"]
    assert gs.tensorflow.gather(np.array(["a", "bc"]), [1, 1]).tolist() == ["bc", "bc"]


def test_inputs_untouched_and_new_array():
    p = np.arange(6.0).reshape(2, 3)
    i = np.array([[-1, 1]], np.int64)
    p0, i0 = p.copy(), i.copy()
    out = gs.tensorflow.gather(p, i, axis=1, batch_dims=0, device="xla")
    assert not np.shares_memory(out, p)
    np.testing.assert_array_equal(p, p0)
    np.testing.assert_array_equal(i, i0)
    out = gs.tensorflow.gather(A234, np.array([[-1, 0], [1, 2]]), axis=2, batch_dims=1, device="xla")
    assert out.shape == (2, 3, 2)


ERRORS = [
    (([10, 20, 30], [0, -1]), {}, gs.IndexOutOfRangeError,
     ["tensorflow.gather (TF 2.21, device='cpu')", "indices[1] = -1 is not in [0, 3)", "axis 0 of params"]),
    (([10, 20, 30], [[0, 1], [3, 0]]), {}, gs.IndexOutOfRangeError, ["indices[1,0] = 3 is not in [0, 3)"]),
    (([10, 20, 30], 5), {}, gs.IndexOutOfRangeError, ["indices = 5 is not in [0, 3)"]),
    ((P2, [[0, 5]]), dict(axis=1), gs.IndexOutOfRangeError, ["indices[0,1] = 5 is not in [0, 3)", "axis 1"]),
    ((np.zeros((0, 2)), [0]), {}, gs.IndexOutOfRangeError, ["indices[0] = 0 is not in [0, 0)"]),
    ((A234, [[0, 1], [1, 4]]), dict(axis=2, batch_dims=1), gs.IndexOutOfRangeError, ["indices[1,1] = 4"]),
    ((3.0, [0]), {}, gs.ShapeError, ["params must be at least 1 dimensional"]),
    ((P2, [0]), dict(axis=2), gs.AxisError, ["axis 2 is out of range", "Shape must be at least rank 3 but is rank 2"]),
    ((P2, [0]), dict(axis=-3), gs.AxisError, ["axis -3", "[-2, 1]"]),
    ((P2, [0, 1, 2]), dict(axis=1, batch_dims=2), gs.AxisError, ["Expected batch_dims in the range [-1, 1], but got 2"]),
    ((A234, [[0]]), dict(axis=-3, batch_dims=1), gs.AxisError, ["batch_dims (1) must be less than or equal to axis (0)."]),
    ((A234, np.zeros((2, 3))), dict(axis=1, batch_dims=2), gs.DTypeError, ["indices", "float64"]),
    ((A234, np.zeros((2, 3), np.int64)), dict(axis=1, batch_dims=2), gs.AxisError,
     ["batch_dims (2) must be less than or equal to axis (1)."]),
    ((A234, np.zeros((2, 3, 4), np.int64)), dict(axis=2, batch_dims=3), gs.AxisError,
     ["batch_dims (3) must be less than rank(params) (3)."]),
    ((A234, np.zeros((2, 3, 4, 1), np.int64)), dict(axis=2, batch_dims=4), gs.AxisError,
     ["params must have at least 4 (batch_dims) dimensions"]),
    ((P2, [[0], [1]]), dict(axis=1, batch_dims=1), gs.ShapeError,
     ["params.shape[0]: 4 should be equal to indices.shape[0]: 2"]),
    ((P2, np.array([0], np.int8)), {}, gs.DTypeError, ["int8", "int16, int32, int64"]),
    ((P2, np.array([0], np.uint16)), {}, gs.DTypeError, ["uint16"]),
    ((P2, [True]), {}, gs.DTypeError, ["bool"]),
    ((P2, [0]), dict(axis=1.0), gs.ArgumentError, ["axis must be an int"]),
    ((P2, [0]), dict(batch_dims=1.0), gs.ArgumentError, ["batch_dims must be an int"]),
    ((P2, [0]), dict(device="tpu"), gs.UnsupportedError, ["unknown device 'tpu'", "cpu", "gpu", "xla"]),
    ((P2, [0]), dict(device="CPU"), gs.UnsupportedError, ["unknown device 'CPU'"]),
    ((np.array(["a"]), [0]), dict(device="xla"), gs.DTypeError, ["XLA (jit_compile=True) cannot compile string"]),
    ((np.array(["a"]), [0]), dict(device="gpu"), gs.DTypeError, ["no GPU kernel for string"]),
    ((np.array([np.datetime64("2020")]), [0]), {}, gs.DTypeError, ["no TensorFlow kernel"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        gs.tensorflow.gather(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.tensorflow.gather([[1, 2], [3, 4]], [[0, 1], [1, 7]], axis=1)
    assert info.value.position == (1, 1) and info.value.value == 7 and info.value.valid == (0, 1)
    assert isinstance(info.value, IndexError)


@st.composite
def gather_cases(draw):
    pshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(pshape)
    b = draw(st.integers(0, r - 1))
    a = draw(st.integers(b, r - 1))
    mid = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    ishape = tuple(pshape[:b]) + tuple(mid)
    dtype = draw(st.sampled_from([np.int16, np.int32, np.int64]))
    indices = draw(index_arrays(ishape, pshape[a], dtype=dtype))
    params = np.arange(1, int(np.prod(pshape)) + 1, dtype=np.float64).reshape(pshape)
    # the spellings TF accepts for the same call: negative axis / batch_dims, axis=None
    a_arg = draw(st.sampled_from([a, a - r]))
    b_arg = draw(st.sampled_from([b, b - len(ishape)])) if b else 0
    axis = None if (a == b and b_arg == b and draw(st.booleans())) else a_arg
    if axis is not None and axis == 0:
        b_arg = draw(st.integers(-3, 3))  # ignored by tf.gather when axis == 0
    return params, indices, axis, b_arg, draw(st.sampled_from(["cpu", "gpu", "xla"]))


@given(gather_cases())
def test_matches_oracle(case):
    params, indices, axis, batch_dims, device = case
    try:
        expected = oracle.gather(params, indices, axis, batch_dims, device)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.tensorflow.gather(params, indices, axis, batch_dims, device)
        return
    out = gs.tensorflow.gather(params, indices, axis, batch_dims, device)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


def test_zero_d_object_params_must_hold_a_string():
    # found by the fuzzer: a 0-d object array broke the string check (AttributeError)
    with pytest.raises(gs.DTypeError, match=r"params is an object array holding int"):
        gs.tensorflow.gather(np.array(5, dtype=object), [0])
