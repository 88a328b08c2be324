"""tensorflow.scatter_nd: case table, error table, property test against the brute-force oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import tensorflow as oracle
from tests.strategies import index_arrays, shapes

SLICE = [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]]
Z4 = [[0] * 4] * 4

# (indices, updates, shape, kwargs, expected): tf.scatter_nd docstring,
# docs/behavior-matrix.md#t6-5/docs/behavior-matrix.md#t6-10, observed TF 2.21
CASES = [
    pytest.param([[4], [3], [1], [7]], [9, 10, 11, 12], [8], {}, [0, 11, 0, 10, 9, 0, 0, 12], id="doc-elements"),
    pytest.param([[0], [2]], [SLICE, SLICE], [4, 4, 4], {}, [SLICE, Z4, SLICE, Z4], id="doc-slices"),
    pytest.param([[1], [1], [1]], [10, 20, 30], [4], {}, [0, 60, 0, 0], id="matrix-duplicates-summed"),
    pytest.param([[1], [1], [2]], [10, 20, 30], [4], {}, [0, 30, 30, 0], id="matrix-sum-zeros-init"),
    pytest.param([[0], [0]], [2, 3], [3], {}, [5, 0, 0], id="matrix-reduction-row"),
    pytest.param([[0]], [9], [3], {}, [9, 0, 0], id="matrix-not-covered-zero"),
    pytest.param([[1]], [[7, 8]], [2, 2], {}, [[0, 0], [7, 8]], id="matrix-slice-update"),
    pytest.param([[3]], [9], [3], dict(device="xla"), [0, 0, 0], id="matrix-xla-oob-dropped"),
    pytest.param([[-1]], [9], [3], dict(device="xla"), [0, 0, 0], id="xla-negative-dropped"),
    pytest.param([[0], [5]], [9, 8], [3], dict(device="gpu"), [9, 0, 0], id="gpu-dropped"),
    pytest.param([[0], [5], [-1]], [9, 8, 7], [3], dict(bad_indices_policy="IGNORE"), [9, 0, 0], id="ignore"),
    pytest.param([[5]], [1], [3], dict(bad_indices_policy="ERROR", device="xla"), [0, 0, 0], id="xla-ignores-error"),
    pytest.param([[1], [1]], [True, True], [3], {}, [False, True, False], id="bool-or"),
    pytest.param([[1], [1]], np.array([100, 100], np.int8), [3], {}, [0, -56, 0], id="int8-wraps"),
    pytest.param([[1], [1], [0]], ["a", "b", "c"], [3], {}, ["c", "ab", ""], id="strings-concatenate"),
    pytest.param([[1], [0]], ["a", "b"], [3], {}, ["b", "a", ""], id="strings-no-duplicates"),
    # XLA: k = 0 adds every update to the whole output; a 1-D indices is one tuple (observed)
    pytest.param(np.zeros((2, 0), np.int64), np.ones((2, 2, 3)), [2, 3], dict(device="xla"), [[2.0] * 3] * 2,
                 id="xla-k0"),
    pytest.param([1], [5, 6, 7], [3, 3], dict(device="xla"), [[0, 0, 0], [5, 6, 7], [0, 0, 0]], id="xla-1d-indices"),
    pytest.param(np.zeros((0, 1), np.int64), np.zeros((0,)), [3], {}, [0.0, 0.0, 0.0], id="empty-indices"),
]


@pytest.mark.parametrize(("indices", "updates", "shape", "kwargs", "expected"), CASES)
def test_cases(indices, updates, shape, kwargs, expected):
    out = gs.tensorflow.scatter_nd(indices, updates, shape, **kwargs)
    assert out.tolist() == expected
    assert out.dtype.kind == np.asarray(updates).dtype.kind
    assert out.shape == tuple(shape)


def test_dtypes_and_shape_spellings():
    import ml_dtypes

    for dtype in (np.int16, np.uint64, np.float16, ml_dtypes.bfloat16, np.complex64, np.float32):
        u = np.array([1, 2]).astype(dtype)
        out = gs.tensorflow.scatter_nd([[1], [1]], u, np.array([3], np.int32))
        assert out.dtype == u.dtype and out.tolist() == np.array([0, 3, 0]).astype(dtype).tolist()
    out = gs.tensorflow.scatter_nd(np.array([[1]], np.int32), np.array([9.0], np.float32), (3,))
    assert out.dtype == np.float32
    out = gs.tensorflow.scatter_nd([[1], [1]], np.array([b"x", b"y"], object), [2])
    assert out.tolist() == [b"", b"xy"] and out.dtype == object
    out = gs.tensorflow.scatter_nd([[1], [1]], np.array([b"x", b"y"]), [2])
    assert out.tolist() == [b"", b"xy"] and out.dtype.kind == "S"


def test_inputs_untouched():
    i = np.array([[1], [1]])
    u = np.array([1.0, 2.0])
    i0, u0 = i.copy(), u.copy()
    out = gs.tensorflow.scatter_nd(i, u, [3])
    assert out.tolist() == [0.0, 3.0, 0.0]
    np.testing.assert_array_equal(i, i0)
    np.testing.assert_array_equal(u, u0)


ERRORS = [
    (([[3]], [9], [3]), {}, gs.IndexOutOfRangeError,
     ["tensorflow.scatter_nd (TF 2.21, device='cpu')", "indices[0] = [3] does not index into shape [3]"]),
    (([[0], [-1]], [9, 8], [3]), dict(bad_indices_policy="ERROR"), gs.IndexOutOfRangeError, ["indices[1] = [-1]"]),
    (([[[0, 0], [0, 4]]], [[1, 2]], [2, 4]), {}, gs.IndexOutOfRangeError,
     ["indices[0,1] = [0, 4] does not index into shape [2,4]"]),
    (([[5]], [1], [3]), dict(device="gpu", bad_indices_policy="ERROR"), gs.UnsupportedError, ["GPU does not support"]),
    (([[5]], [1], [3]), dict(bad_indices_policy="bogus"), gs.UnsupportedError, ["unknown bad_indices_policy"]),
    ((1, [5.0], [3]), {}, gs.ShapeError, ["Indices shape must have rank at least one"]),
    (([[1]], 5.0, [3]), {}, gs.ShapeError, ["Updates shape must have rank at least one"]),
    (([[1]], [5.0], [-3]), {}, gs.ShapeError, ["Dimension -3 must be >= 0"]),
    (([[1]], [5.0], 3), {}, gs.ShapeError, ["Shape must be a vector"]),
    (([[1]], [5.0], [[3]]), {}, gs.ShapeError, ["Shape must be a vector"]),
    ((np.zeros((0, 0), np.int64), np.zeros((0,)), np.zeros((0,), np.int64)), {}, gs.ShapeError,
     ["Output must be at least 1-D"]),
    ((np.zeros((2, 0), np.int64), np.ones((2, 3)), [3]), {}, gs.ShapeError,
     ["Indices and updates specified for empty output shape"]),
    (([[0]], [5.0], [0]), {}, gs.ShapeError, ["Indices and updates specified for empty output"]),
    (([[0]], np.zeros((1, 0)), [3, 0]), {}, gs.ShapeError, ["Indices and updates specified for empty output"]),
    (([[0]], np.zeros((1, 0)), [3, 0]), dict(device="xla"), gs.ShapeError, ["empty output"]),
    (([1, 2], [5.0, 6.0], [3]), {}, gs.ShapeError, ["indices must have at least 2 axes"]),
    (([[1]], [5.0, 6.0], [3]), {}, gs.ShapeError, ["updates must have shape", "[1]", "got updates shape [2]"]),
    (([[1, 2]], [5.0], [3]), {}, gs.ShapeError, ["index depth indices.shape[-1] = 2 must be <= rank"]),
    (([[1]], [5.0], [3.0]), {}, gs.DTypeError, ["shape must hold integers"]),
    (([[1]], [5.0], [2**62, 2**62]), {}, gs.ShapeError, ["more than 2**63 - 1 elements"]),
    ((np.array([[1]], np.int16), [5.0], [3]), {}, gs.DTypeError, ["int16", "int32, int64"]),
    ((np.array([[1]], np.int16), [5.0], [3]), dict(device="xla"), gs.DTypeError, ["int16"]),
    (([[1]], np.array(["a"]), [3]), dict(device="xla"), gs.DTypeError, ["cannot compile string"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        gs.tensorflow.scatter_nd(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def scatter_cases(draw, strings=False):
    oshape = draw(shapes(min_dims=1, max_dims=3, max_side=3))
    r = len(oshape)
    device = "cpu" if strings else draw(st.sampled_from(["cpu", "gpu", "xla"]))  # no string kernels elsewhere
    k = draw(st.integers(0 if device == "xla" else 1, r))
    mid = draw(shapes(min_dims=1, max_dims=2, max_side=4))
    ishape = tuple(mid) + (k,)
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    comps = [draw(index_arrays(ishape[:-1], oshape[j], dtype=dtype)) for j in range(k)]
    indices = np.stack(comps, axis=-1) if k else np.zeros(ishape, dtype)
    ushape = tuple(mid) + tuple(oshape[k:])
    n = int(np.prod(ushape))
    if strings:
        updates = np.array([chr(97 + j % 26) for j in range(n)]).reshape(ushape)
    else:
        updates = draw(st.sampled_from([np.float64, np.int32, np.bool_]))
        updates = (np.arange(n).reshape(ushape) % 7 + 1).astype(updates)
    policy = draw(st.sampled_from(["", "DEFAULT", "IGNORE"] + (["ERROR"] if device != "gpu" else [])))
    return indices, updates, oshape, device, policy


def _check(case):
    indices, updates, shape, device, policy = case
    call = lambda: gs.tensorflow.scatter_nd(indices, updates, shape, device, bad_indices_policy=policy)  # noqa: E731
    if device != "xla" and not (indices.size and updates.size and np.prod(shape)) and (indices.size or updates.size):
        with pytest.raises(gs.ShapeError):
            call()
        return
    if device == "xla" and not np.prod(shape) and (indices.size or updates.size):
        with pytest.raises(gs.ShapeError):
            call()
        return
    try:
        expected = oracle.scatter_nd(indices, updates, shape, device, policy)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            call()
        return
    out = call()
    assert out.shape == expected.shape and out.dtype.kind == expected.dtype.kind
    if out.dtype.kind not in "US":
        assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


@given(scatter_cases())
def test_matches_oracle(case):
    _check(case)


@given(scatter_cases(strings=True))
def test_strings_match_oracle(case):
    _check(case)


def test_shape_of_more_bytes_than_numpy_can_describe_is_a_shape_error():
    # found by the fuzzer: 2**62 float32 elements pass TF's int64 element check but np.zeros raised a bare
    # ValueError ("array is too big"); TF itself runs out of memory
    with pytest.raises(gs.ShapeError, match=r"shape \[2147483647, 2147483647\] of float32 would need more than"):
        gs.tensorflow.scatter_nd(np.zeros((1, 2), np.int32), np.ones(1, np.float32),
                                 np.array([2**31 - 1, 2**31 - 1], np.int32))


def test_object_updates_must_hold_strings():
    # found by the fuzzer: an object array of ints was summed as strings (bare TypeError)
    upd = np.array([1, 0, 3, 2], dtype=object)
    with pytest.raises(gs.DTypeError, match=r"updates is an object array holding int values"):
        gs.tensorflow.scatter_nd(np.zeros((4, 1), np.int64), upd, [1])
    out = gs.tensorflow.scatter_nd(np.zeros((2, 1), np.int64), np.array([b"a", b"b"], dtype=object), [1])
    assert out.tolist() == [b"ab"]
