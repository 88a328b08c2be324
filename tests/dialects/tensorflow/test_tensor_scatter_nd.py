"""tensorflow.tensor_scatter_nd_update / _add / _sub / _min / _max: cases, errors, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import tensorflow as oracle
from tests.strategies import index_arrays, shapes

OPS = {
    "update": gs.tensorflow.tensor_scatter_nd_update,
    "add": gs.tensorflow.tensor_scatter_nd_add,
    "sub": gs.tensorflow.tensor_scatter_nd_sub,
    "min": gs.tensorflow.tensor_scatter_nd_min,
    "max": gs.tensorflow.tensor_scatter_nd_max,
}
T3 = [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
SLICES = [[[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]]] * 2
ONES4 = [[1, 1, 1, 1]] * 4
NAN = float("nan")

# (op, tensor, indices, updates, kwargs, expected): TF docstrings, docs/behavior-matrix.md#t6-5 /
# docs/behavior-matrix.md#t6-7, observed TF 2.21
CASES = [
    pytest.param("update", [0] * 8, [[1], [3], [4], [7]], [9, 10, 11, 12], {}, [0, 9, 0, 10, 11, 0, 0, 12],
                 id="update-doc-elements"),
    pytest.param("update", [[1, 1], [1, 1], [1, 1]], [[0, 1], [2, 0]], [5, 10], {}, [[1, 5], [1, 1], [10, 1]],
                 id="update-doc-rank2"),
    pytest.param("update", T3, [[0], [2]], [[5, 5, 5], [10, 10, 10]], {}, [[5, 5, 5], [1, 1, 1], [10, 10, 10]],
                 id="update-doc-rows"),
    pytest.param("update", [0, 0, 0, 0], [[1], [1], [1]], [10, 20, 30], {}, [0, 30, 0, 0],
                 id="update-matrix-duplicates-last-wins"),
    pytest.param("update", [1, 2, 3], [[0]], [9], {}, [9, 2, 3], id="update-matrix-kept-from-data"),
    pytest.param("update", [[1, 2], [3, 4]], [[1]], [[7, 8]], {}, [[1, 2], [7, 8]], id="update-matrix-slice"),
    pytest.param("update", [1, 2, 3], [[-1]], [9], dict(device="xla"), [1, 2, 3], id="update-matrix-xla-negative"),
    pytest.param("update", [1, 2, 3], [[3]], [9], dict(device="xla"), [1, 2, 3], id="update-matrix-xla-oob"),
    pytest.param("update", [1, 2, 3], [[0], [5]], [9, 8], dict(device="gpu"), [9, 2, 3], id="update-gpu-drop"),
    pytest.param("update", [1, 2, 3], np.array([[1]], np.uint16), [9], dict(device="xla"), [1, 9, 3],
                 id="update-xla-uint16"),
    pytest.param("update", ["a", "b"], [[1]], ["z"], {}, ["a", "z"], id="update-strings"),
    pytest.param("update", [[0, 0, 0], [0, 0, 0]], np.zeros((2, 0), np.int64), np.ones((2, 2, 3), np.int64),
                 dict(device="xla"), [[1, 1, 1], [1, 1, 1]], id="update-xla-k0"),
    pytest.param("update", [[0, 0, 0]] * 3, [1, 2], 5, dict(device="xla"), [[0, 0, 0], [0, 0, 5], [0, 0, 0]],
                 id="update-xla-1d-indices-one-tuple"),
    pytest.param("add", [1] * 8, [[4], [3], [1], [7]], [9, 10, 11, 12], {}, [1, 12, 1, 11, 10, 1, 1, 13],
                 id="add-doc-elements"),
    pytest.param("add", [ONES4] * 4, [[0], [2]], SLICES, {},
                 [[[6] * 4, [7] * 4, [8] * 4, [9] * 4], ONES4, [[6] * 4, [7] * 4, [8] * 4, [9] * 4], ONES4],
                 id="add-doc-slices"),
    pytest.param("add", [1, 1, 1, 1], [[1], [1], [2]], [10, 20, 30], {}, [1, 31, 31, 1], id="add-matrix-dups"),
    pytest.param("add", [5, 5, 5], [[0], [0]], [2, 3], {}, [10, 5, 5], id="add-matrix-reduction"),
    pytest.param("sub", [5, 5, 5], [[0], [0]], [2, 3], {}, [0, 5, 5], id="sub-matrix-reduction"),
    pytest.param("max", [5, 5, 5], [[0], [0]], [2, 3], {}, [5, 5, 5], id="max-matrix-reduction"),
    pytest.param("min", [5, 5, 5], [[0], [0]], [2, 3], {}, [2, 5, 5], id="min-matrix-reduction"),
    pytest.param("add", [5, 5, 5, 5], [[0], [0], [2]], [2, 4, 7], {}, [11, 5, 12, 5], id="add-matrix-6.7"),
    pytest.param("max", [5, 5, 5, 5], [[0], [0], [2]], [2, 4, 7], {}, [5, 5, 7, 5], id="max-matrix-6.7"),
    pytest.param("min", [5, 5, 5, 5], [[0], [0], [2]], [2, 4, 7], {}, [2, 5, 5, 5], id="min-matrix-6.7"),
    pytest.param("add", [1.0] * 5, [[1], [1]], [7.0, 8.0], {}, [1, 16, 1, 1, 1], id="add-semantics-6.2"),
    pytest.param("sub", [1.0] * 5, [[1], [1]], [7.0, 8.0], {}, [1, -14, 1, 1, 1], id="sub-semantics-6.2"),
    pytest.param("max", [1.0] * 5, [[1], [1]], [7.0, -8.0], {}, [1, 7, 1, 1, 1], id="max-semantics-6.2"),
    pytest.param("min", [1.0] * 5, [[1], [1]], [7.0, -8.0], {}, [1, -8, 1, 1, 1], id="min-semantics-6.2"),
    pytest.param("add", [1, 2, 3], [[0], [5], [-1]], [9, 8, 7], dict(bad_indices_policy="IGNORE"), [10, 2, 3],
                 id="add-ignore"),
    pytest.param("sub", [1, 2, 3], [[0], [5], [-1]], [9, 8, 7], dict(device="xla", bad_indices_policy="ERROR"),
                 [-8, 2, 3], id="sub-xla-ignores-error"),
    pytest.param("max", [1.0, 2.0, 3.0], [[0], [5]], [9.0, 8.0], dict(device="gpu"), [9.0, 2.0, 3.0],
                 id="max-gpu-drop"),
    pytest.param("add", [True, False, False], [[1], [1], [0]], [True, True, False], dict(device="xla"),
                 [True, True, False], id="add-xla-bool-or"),
    pytest.param("min", [True, False, True], [[1], [2], [0]], [True, True, False], dict(device="xla"),
                 [False, False, True], id="min-xla-bool-and"),
    pytest.param("max", [True, False, False], [[1], [1], [0]], [True, True, False], dict(device="xla"),
                 [True, True, False], id="max-xla-bool-or"),
    pytest.param("add", [[1, 2, 3], [4, 5, 6]], np.zeros((2, 0), np.int64), [[[1, 1, 1]] * 2] * 2,
                 dict(device="xla"), [[3, 4, 5], [6, 7, 8]], id="add-xla-k0"),
]


@pytest.mark.parametrize(("op", "tensor", "indices", "updates", "kwargs", "expected"), CASES)
def test_cases(op, tensor, indices, updates, kwargs, expected):
    out = OPS[op](tensor, indices, updates, **kwargs)
    np.testing.assert_array_equal(out, np.asarray(expected))
    assert out.dtype == np.asarray(tensor).dtype


def test_nan_like_tensorflow():
    # observed TF 2.21 (CPU and XLA): a NaN update changes nothing, a NaN value stays NaN
    t = np.array([1.0, NAN, 3.0])
    i = [[0], [1], [2]]
    u = np.array([NAN, 5.0, 1.0])
    for device in ("cpu", "xla"):
        np.testing.assert_array_equal(gs.tensorflow.tensor_scatter_nd_max(t, i, u, device), [1.0, NAN, 3.0])
        np.testing.assert_array_equal(gs.tensorflow.tensor_scatter_nd_min(t, i, u, device), [1.0, NAN, 1.0])
    np.testing.assert_array_equal(gs.tensorflow.tensor_scatter_nd_add(t, i, u), [NAN, NAN, 4.0])


def test_dtypes():
    import ml_dtypes

    for dtype in (np.int8, np.uint64, np.float16, ml_dtypes.bfloat16, np.complex64):
        t = np.array([1, 2, 3]).astype(dtype)
        u = np.array([5, 5]).astype(dtype)
        out = gs.tensorflow.tensor_scatter_nd_add(t, [[1], [1]], u)
        assert out.dtype == t.dtype
        np.testing.assert_array_equal(out, np.array([1, 12, 3]).astype(dtype))
    t = np.array([1, 2, 3], ml_dtypes.bfloat16)
    out = gs.tensorflow.tensor_scatter_nd_max(t, [[0], [1]], np.array([NAN, 7], ml_dtypes.bfloat16))
    assert out.dtype == t.dtype and out.tolist() == [1, 7, 3]
    for op in OPS.values():
        assert op(np.array([1, 2], np.uint8), [[1]], [250]).dtype == np.uint8


def test_inputs_untouched_and_new_array():
    t = np.arange(4.0)
    i = np.array([[1], [1]])
    u = np.array([5.0, 6.0])
    t0, i0, u0 = t.copy(), i.copy(), u.copy()
    for op in OPS.values():
        out = op(t, i, u)
        assert not np.shares_memory(out, t)
    for a, b in ((t, t0), (i, i0), (u, u0)):
        np.testing.assert_array_equal(a, b)


ERRORS = [
    ("update", ([1, 2, 3], [[3]], [9]), {}, gs.IndexOutOfRangeError,
     ["tensorflow.tensor_scatter_nd_update (TF 2.21, device='cpu')", "indices[0] = [3] does not index into shape [3]"]),
    ("add", ([1, 2, 3], [[0], [-1]], [9, 8]), {}, gs.IndexOutOfRangeError,
     ["tensorflow.tensor_scatter_nd_add", "indices[1] = [-1]", "bad_indices_policy='IGNORE'"]),
    ("sub", ([1, 2, 3], [[[0], [1]], [[2], [7]]], [[1, 1], [1, 1]]), {}, gs.IndexOutOfRangeError,
     ["indices[1,1] = [7]"]),
    ("min", ([1, 2, 3], [[5]], [1]), dict(bad_indices_policy="ERROR"), gs.IndexOutOfRangeError, ["indices[0] = [5]"]),
    ("max", ([1, 2, 3], [[5]], [1]), dict(device="gpu", bad_indices_policy="ERROR"), gs.UnsupportedError,
     ["GPU does not support"]),
    ("add", ([1, 2, 3], [[5]], [1]), dict(bad_indices_policy="bogus"), gs.UnsupportedError, ["bogus"]),
    ("update", (np.zeros((2, 3)), 1, np.ones(3)), {}, gs.ShapeError, ["Indices shape must have rank at least one"]),
    ("update", (np.zeros((2, 3)), [1, 2], 9.0), {}, gs.ShapeError, ["Updates shape must have rank at least one"]),
    ("update", (np.zeros((2, 3)), [1], np.ones(3)), {}, gs.ShapeError, ["indices must have at least 2 axes"]),
    ("update", (np.zeros((2, 3)), np.zeros((2, 0), np.int64), np.ones((2, 2, 3))), {}, gs.ShapeError,
     ["Indices and updates specified for empty output shape"]),
    ("update", (np.zeros((0, 3)), [[0]], np.ones((1, 3))), {}, gs.ShapeError, ["empty output"]),
    ("update", (np.zeros((0, 3)), [[0]], np.ones((1, 3))), dict(device="xla"), gs.ShapeError, ["empty output"]),
    ("update", (1.0, np.zeros((1, 0), np.int64), [2.0]), {}, gs.ShapeError, ["empty output shape"]),
    ("update", (np.zeros((2, 3)), [[1]], np.ones((1, 4))), {}, gs.ShapeError,
     ["updates must have shape indices.shape[:-1] + tensor.shape[1:] = [1, 3]", "[1, 4]"]),
    ("add", (np.zeros((2, 3)), [[1]], np.ones((2, 3))), {}, gs.ShapeError, ["updates must have shape"]),
    ("update", (np.zeros((2, 3)), [[1, 1, 1]], np.ones(1)), {}, gs.ShapeError, ["index depth", "3 must be <= rank"]),
    ("update", (np.zeros(3), [[1]], np.ones(1, np.float32)), {}, gs.DTypeError, ["float32", "float64"]),
    ("update", (np.zeros(3), np.array([[1]], np.int16), [1.0]), {}, gs.DTypeError, ["int16", "int32, int64"]),
    ("add", (np.zeros(3), np.array([[1]], np.int16), [1.0]), dict(device="xla"), gs.DTypeError, ["int16"]),
    ("update", (np.zeros(3), np.array([[1]], np.int8), [1.0]), dict(device="xla"), gs.DTypeError, ["int8"]),
    ("add", (np.array([True]), [[0]], [True]), {}, gs.DTypeError, ["bool has no TensorFlow kernel"]),
    ("add", (np.array(["a"]), [[0]], ["b"]), {}, gs.DTypeError, ["dtype str"]),
    ("sub", (np.array([True]), [[0]], [True]), dict(device="xla"), gs.UnsupportedError, ["segfault"]),
    ("max", (np.array([1j]), [[0]], [2j]), {}, gs.DTypeError, ["complex128"]),
    ("min", (np.array([1j]), [[0]], [2j]), dict(device="xla"), gs.UnsupportedError, ["ordering of complex"]),
    ("update", (np.array(["a"]), [[0]], ["b"]), dict(device="xla"), gs.DTypeError, ["cannot compile string"]),
    ("update", ([1, 2], [[0]], [1]), dict(device="cuda"), gs.UnsupportedError, ["unknown device 'cuda'"]),
]


@pytest.mark.parametrize(("op", "args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(op, args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        OPS[op](*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_update_takes_no_bad_indices_policy():
    with pytest.raises(TypeError):
        gs.tensorflow.tensor_scatter_nd_update([1, 2], [[0]], [1], bad_indices_policy="IGNORE")
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.tensorflow.tensor_scatter_nd_update([1, 2], [[2]], [1])
    assert "bad_indices_policy" not in str(info.value)


@st.composite
def scatter_cases(draw):
    op = draw(st.sampled_from(sorted(OPS)))
    tshape = draw(shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    r = len(tshape)
    device = draw(st.sampled_from(["cpu", "gpu", "xla"]))
    k = draw(st.integers(0 if device == "xla" else 1, r))
    mid = draw(shapes(min_dims=1, max_dims=2, max_side=4))
    ishape = tuple(mid) + (k,)
    dtype = draw(st.sampled_from([np.int32, np.int64]))
    comps = [draw(index_arrays(ishape[:-1], tshape[j], dtype=dtype)) for j in range(k)]
    indices = np.stack(comps, axis=-1) if k else np.zeros(ishape, dtype)
    ushape = tuple(mid) + tuple(tshape[k:])
    ddtype = draw(st.sampled_from([np.float64, np.int32, np.float32]))
    tensor = (np.arange(int(np.prod(tshape))).reshape(tshape) % 5).astype(ddtype)
    updates = (np.arange(int(np.prod(ushape))).reshape(ushape) % 7 - 3).astype(ddtype)
    if ddtype != np.int32 and draw(st.booleans()):
        updates = np.where(updates == 0, np.nan, updates).astype(ddtype)
        tensor = np.where(tensor == 1, np.nan, tensor).astype(ddtype)
    policies = [""] if op == "update" else ["", "DEFAULT", "IGNORE"] + (["ERROR"] if device != "gpu" else [])
    return op, tensor, indices, updates, device, draw(st.sampled_from(policies))


@given(scatter_cases())
def test_matches_oracle(case):
    op, tensor, indices, updates, device, policy = case
    kwargs = {"bad_indices_policy": policy} if op != "update" else {}
    if device != "xla" and not (indices.size and updates.size) and (indices.size or updates.size):
        with pytest.raises(gs.ShapeError):
            OPS[op](tensor, indices, updates, device, **kwargs)
        return
    try:
        expected = oracle.tensor_scatter(op, tensor, indices, updates, device, policy)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            OPS[op](tensor, indices, updates, device, **kwargs)
        return
    out = OPS[op](tensor, indices, updates, device, **kwargs)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
