"""onnx.TensorScatter (opset 24): case table, error table, property test, onnxruntime and onnx.reference.

Expected values are hand-computed (or copied from the hand-written ONNX backend node cases in
onnx/backend/test/case/node/tensorscatter.py); the property test compares with the loop oracle
``tests.oracles.onnx.tensor_scatter``; the differential tests run a one-node opset-24 model in
onnxruntime (CPU) and onnx.reference.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.oracles import onnx as oracle

# ---------------------------------------------------------------- hand-computed cases

P24 = [[1, 2, 3, 4], [5, 6, 7, 8]]
P22_3 = [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
U22_2 = [[[0, 0], [0, 0]], [[-1, -2], [-3, -4]]]
P3_2 = [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]
# 4-d (batch, heads, sequence, head_dim) with the default axis -2
P4 = [[[[1], [2], [3]], [[4], [5], [6]]], [[[7], [8], [9]], [[10], [11], [12]]]]
U4 = [[[[20], [21]], [[22], [23]]], [[[30], [31]], [[32], [33]]]]
# 4-d with the sequence on axis 1
P4_AX1 = [[[[1, 2]], [[3, 4]], [[5, 6]]], [[[7, 8]], [[9, 10]], [[11, 12]]]]
U4_AX1 = [[[[0, 0]]], [[[-1, -1]]]]
# ONNX backend node cases (onnx/backend/test/case/node/tensorscatter.py), values as written there
NODE_PAST = [[[[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [4, 3, 2, 1, 0]]]] * 2
NODE_3D_PAST = [[[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [5, 4, 3, 2, 1]]] * 3

CASES = [
    # (past_cache, update, write_indices, attrs, expected)
    pytest.param(P24, [[9], [10]], [3, 0], dict(axis=1), [[1, 2, 3, 9], [10, 6, 7, 8]], id="2d-linear-axis1"),
    pytest.param(P24, [[9], [10]], [3, 0], dict(axis=-1), [[1, 2, 3, 9], [10, 6, 7, 8]], id="2d-linear-axis-1"),
    pytest.param(P24, [[9, 10], [11, 12]], [3, 5], dict(axis=-1, mode="circular"), [[10, 2, 3, 9], [5, 11, 12, 8]],
                 id="2d-circular-wraps-and-w-beyond-S"),
    pytest.param(P24, [[9, 10], [11, 12]], [2, 0], dict(axis=1, mode="linear"), [[1, 2, 9, 10], [11, 12, 7, 8]],
                 id="2d-linear-to-the-end"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10]], None, dict(axis=1), [[7, 8, 3], [9, 10, 6]],
                 id="absent-write-indices-are-zeros"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10]], None, dict(axis=1, mode="circular"),
                 [[7, 8, 3], [9, 10, 6]], id="absent-write-indices-circular"),
    pytest.param(P3_2, [[[0, 0]], [[-1, -1]]], [2, 0], {}, [[[1, 2], [3, 4], [0, 0]], [[-1, -1], [9, 10], [11, 12]]],
                 id="3d-default-axis-minus-2"),
    pytest.param(P22_3, U22_2, [1, 0], dict(axis=-1), [[[1, 0, 0], [4, 0, 0]], [[-1, -2, 9], [-3, -4, 12]]],
                 id="3d-axis-minus-1-linear"),
    pytest.param(P22_3, U22_2, [2, 7], dict(axis=2, mode="circular"), [[[0, 2, 0], [0, 5, 0]], [[7, -1, -2], [10, -3, -4]]],
                 id="3d-axis-2-circular"),
    pytest.param(P4, U4, [1, 0], {}, [[[[1], [20], [21]], [[4], [22], [23]]], [[[30], [31], [9]], [[32], [33], [12]]]],
                 id="4d-default-axis-linear"),
    pytest.param(P4, U4, [2, 4], dict(mode="circular"),
                 [[[[21], [2], [20]], [[23], [5], [22]]], [[[7], [30], [31]], [[10], [32], [33]]]],
                 id="4d-default-axis-circular"),
    pytest.param(P4_AX1, U4_AX1, [2, 1], dict(axis=1), [[[[1, 2]], [[3, 4]], [[0, 0]]], [[[7, 8]], [[-1, -1]], [[11, 12]]]],
                 id="4d-axis-1"),
    pytest.param(P4_AX1, U4_AX1, [2, 1], dict(axis=-3), [[[[1, 2]], [[3, 4]], [[0, 0]]], [[[7, 8]], [[-1, -1]], [[11, 12]]]],
                 id="4d-axis-minus-3"),
    pytest.param([[[[1, 2, 3, 4], [5, 6, 7, 8]]]], [[[[10, 11, 12], [20, 21, 22]]]], [2], dict(axis=-1, mode="circular"),
                 [[[[12, 2, 10, 11], [22, 6, 20, 21]]]], id="4d-last-axis-circular"),
    pytest.param([[0, 0, 0, 0]] * 3, [[1, 2], [3, 4], [5, 6]], [0, 2, 1], dict(axis=1),
                 [[1, 2, 0, 0], [0, 0, 3, 4], [0, 5, 6, 0]], id="batch-of-3-linear"),
    pytest.param([[0, 0, 0, 0]] * 3, [[1, 2], [3, 4], [5, 6]], [3, 2, 7], dict(axis=1, mode="circular"),
                 [[2, 0, 0, 1], [0, 0, 3, 4], [6, 0, 0, 5]], id="batch-of-3-circular"),
    pytest.param([[1, 2], [3, 4]], [[5, 6], [7, 8]], [0, 0], dict(axis=1), [[5, 6], [7, 8]], id="whole-cache-linear"),
    pytest.param([[1, 2], [3, 4]], [[5, 6], [7, 8]], [1, 0], dict(axis=1, mode="circular"), [[6, 5], [7, 8]],
                 id="whole-cache-circular"),
    pytest.param([[1, 2], [3, 4]], np.zeros((2, 0), np.int64), [2, 0], dict(axis=1), [[1, 2], [3, 4]],
                 id="sequence-length-0-at-the-end"),
    pytest.param(NODE_PAST, [[[[5, 5, 5, 5, 5]]], [[[1, 1, 1, 1, 1]]]], [1, 2], dict(mode="linear"),
                 [[[[1, 2, 3, 4, 5], [5, 5, 5, 5, 5], [8, 7, 6, 5, 4], [4, 3, 2, 1, 0]]],
                  [[[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [1, 1, 1, 1, 1], [4, 3, 2, 1, 0]]]], id="onnx-node-tensorscatter"),
    pytest.param(NODE_PAST, [[[[5, 5, 5, 5, 5], [6, 6, 6, 6, 6]]], [[[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]]]], [1, 3],
                 dict(mode="circular"),
                 [[[[1, 2, 3, 4, 5], [5, 5, 5, 5, 5], [6, 6, 6, 6, 6], [4, 3, 2, 1, 0]]],
                  [[[2, 2, 2, 2, 2], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [1, 1, 1, 1, 1]]]], id="onnx-node-circular"),
    pytest.param(NODE_3D_PAST, [[[4] * 5, [5] * 5], [[6] * 5, [7] * 5], [[2] * 5, [3] * 5]], [1, 2, 0], {},
                 [[[1, 2, 3, 4, 5], [4] * 5, [5] * 5, [5, 4, 3, 2, 1]],
                  [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [6] * 5, [7] * 5],
                  [[2] * 5, [3] * 5, [8, 7, 6, 5, 4], [5, 4, 3, 2, 1]]], id="onnx-node-3d"),
]


@pytest.mark.parametrize(("past", "update", "write_indices", "attrs", "expected"), CASES)
def test_cases(past, update, write_indices, attrs, expected):
    past = np.asarray(past, np.float32)
    update = np.asarray(update, np.float32)
    w = None if write_indices is None else np.asarray(write_indices, np.int64)
    copies = [past.copy(), update.copy()]
    out = gs.onnx.TensorScatter(past, update, w, **attrs)
    assert out.dtype == np.float32 and out.shape == past.shape
    assert out.tolist() == expected
    assert not np.shares_memory(out, past) and not np.shares_memory(out, update)
    np.testing.assert_array_equal(past, copies[0])  # the caller's arrays are never modified
    np.testing.assert_array_equal(update, copies[1])


def test_every_opset_from_24():
    for opset in (24, 25, 26, 27, 28, None):
        assert gs.onnx.TensorScatter([[1, 2]], [[9]], [1], axis=1, opset=opset).tolist() == [[1, 9]]


def test_lists_and_keywords():
    out = gs.onnx.TensorScatter(past_cache=[[1, 2, 3]], update=[[7]], write_indices=[2], axis=-1, mode="circular")
    assert out.tolist() == [[1, 2, 7]] and out.dtype == np.int64


def test_empty_batch_and_empty_cache():
    out = gs.onnx.TensorScatter(np.zeros((0, 3, 2)), np.zeros((0, 1, 2)), np.zeros(0, np.int64))
    assert out.shape == (0, 3, 2)
    out = gs.onnx.TensorScatter(np.zeros((2, 0, 2)), np.zeros((2, 0, 2)), [5, 0], mode="circular")
    assert out.shape == (2, 0, 2)


DTYPE_CASES = ["bool", "int8", "uint64", "float16", "complex64", "str", "object", "bfloat16", "float8_e4m3fn",
               "float8_e5m2", "int4", "uint4", "float4_e2m1fn", "float8_e8m0fnu"]


def _as(a, dt):
    a = np.asarray(a)
    if dt == "str":
        return a.astype(str)
    if dt == "object":
        return a.astype(str).astype(object)
    if dt in ("bool", "int8", "uint64", "float16", "complex64"):
        return a.astype(dt)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    return a.astype(getattr(ml_dtypes, dt))


def _two(mask, dt):
    """0/1 pattern as dt (1/2 for float8_e8m0fnu, which has no zero)."""
    lo, hi = (1, 2) if dt == "float8_e8m0fnu" else (0, 1)
    return _as(np.where(np.asarray(mask, bool), hi, lo), dt)


@pytest.mark.parametrize("dt", DTYPE_CASES)
def test_every_onnx_tensor_type(dt):
    # all_tensor_types_ir12: pure data movement, so every type, including float8 / int4 / float4
    past, update = _two([[0, 0, 0], [1, 1, 1]], dt), _two([[1, 1], [0, 1]], dt)
    out = gs.onnx.TensorScatter(past, update, [1, 2], axis=1, mode="circular")
    expected = _two([[0, 1, 1], [1, 1, 0]], dt)
    assert out.dtype == expected.dtype
    assert out.tolist() == expected.tolist()


# ---------------------------------------------------------------- errors

Z = np.zeros((2, 4, 3), np.float32)
U1 = np.ones((2, 1, 3), np.float32)
U2 = np.ones((2, 2, 3), np.float32)

ERRORS = [
    (dict(past_cache=Z, update=U2, write_indices=[0, 3]), gs.IndexOutOfRangeError,
     ["onnx.TensorScatter (opset 28, TensorScatter-24)", "write_indices[1] = 3", "mode='linear'", "(3 + 2 > 4)",
      "[0, 2]"]),
    (dict(past_cache=Z, update=np.ones((2, 0, 3), np.float32), write_indices=[5, 0]), gs.IndexOutOfRangeError,
     ["write_indices[0] = 5", "(5 + 0 > 4)"]),
    (dict(past_cache=Z, update=U1, write_indices=[0, -1]), gs.IndexOutOfRangeError,
     ["write_indices[1] = -1 is negative", "mode='linear': in [0, 3]"]),
    (dict(past_cache=Z, update=U1, write_indices=[-5, 0], mode="circular"), gs.IndexOutOfRangeError,
     ["write_indices[0] = -5 is negative", "taken mod 4"]),
    (dict(past_cache=Z, update=U1, write_indices=np.array([0, 0], np.int32)), gs.DTypeError,
     ["write_indices dtype int32", "int64"]),
    (dict(past_cache=Z, update=U1, write_indices=[0.0, 1.0]), gs.DTypeError, ["write_indices must have an integer"]),
    (dict(past_cache=Z, update=U1, write_indices=[0, 0, 0]), gs.ShapeError,
     ["write_indices must have shape [batch_size] = [2]", "got shape [3]"]),
    (dict(past_cache=Z, update=U1, write_indices=[[0, 0]]), gs.ShapeError, ["got shape [1, 2]"]),
    (dict(past_cache=Z, update=U1, write_indices=0), gs.ShapeError, ["got shape []"]),
    (dict(past_cache=Z, update=U1, axis=0), gs.AxisError, ["axis 0", "cannot be 0, the batch axis", "[1, 2] or [-2, -1]"]),
    (dict(past_cache=Z, update=U1, axis=-3), gs.AxisError, ["axis -3", "axis 0 counted from the back"]),
    (dict(past_cache=Z, update=U1, axis=3), gs.AxisError, ["axis 3 is not a sequence axis", "rank 3"]),
    (dict(past_cache=Z, update=U1, axis=1.0), gs.ArgumentError, ["axis must be an int"]),
    (dict(past_cache=Z, update=U1, mode="ring"), gs.UnsupportedError, ["unknown mode 'ring'", "'linear' or 'circular'"]),
    (dict(past_cache=Z, update=U1, mode=None), gs.ArgumentError, ["mode must be a string"]),
    (dict(past_cache=Z, update=U1, opset=23), gs.UnsupportedError, ["does not exist before opset 24", "opset 23"]),
    (dict(past_cache=Z, update=U1, opset=29), gs.UnsupportedError, ["opset 29"]),
    (dict(past_cache=Z, update=np.ones((2, 1), np.float32)), gs.ShapeError,
     ["update must have the rank of past_cache (3)", "[2, 1]"]),
    (dict(past_cache=Z, update=np.ones((2, 1, 2), np.float32)), gs.ShapeError,
     ["update.shape[2] must equal past_cache.shape[2]", "sequence axis 1", "[2, 1, 2]", "[2, 4, 3]"]),
    (dict(past_cache=Z, update=np.ones((1, 1, 3), np.float32)), gs.ShapeError, ["update.shape[0]"]),
    (dict(past_cache=Z, update=np.ones((2, 5, 3), np.float32), mode="circular"), gs.ShapeError,
     ["sequence_length (update.shape[1] = 5) must be <= max_sequence_length (past_cache.shape[1] = 4)"]),
    (dict(past_cache=np.zeros(4, np.float32), update=np.ones(1, np.float32), axis=-1), gs.ShapeError,
     ["past_cache must have rank >= 2", "rank 1"]),
    (dict(past_cache=Z, update=np.ones((2, 1, 3), np.float64)), gs.DTypeError,
     ["update dtype float64 must equal past_cache dtype float32"]),
    (dict(past_cache=np.zeros((2, 2), np.float32).astype("datetime64[s]"), update=np.zeros((2, 1), "datetime64[s]"),
          axis=1), gs.DTypeError, ["past_cache dtype datetime64", "not accepted"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.TensorScatter(**kwargs)
    for frag in fragments:
        assert frag in str(info.value), (frag, str(info.value))


def test_index_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.onnx.TensorScatter(Z, U2, [1, 9])
    assert (info.value.value, info.value.position, info.value.valid) == (9, (1,), (0, 2))


# ---------------------------------------------------------------- property: against the loop oracle


@st.composite
def inputs(draw, *, in_range: bool = False):
    rank = draw(st.integers(2, 4))
    shape = [draw(st.integers(0, 3)) for _ in range(rank)]
    a = draw(st.integers(1, rank - 1))
    shape[a] = draw(st.integers(0, 5))
    seq = draw(st.integers(0, shape[a]))
    axis = draw(st.sampled_from([a, a - rank]))
    mode = draw(st.sampled_from(["linear", "circular"]))
    dtype = draw(st.sampled_from([np.float32, np.int64, np.float64]))
    past = (np.arange(int(np.prod(shape))).reshape(shape) + 1).astype(dtype)
    ushape = shape.copy()
    ushape[a] = seq
    update = (-np.arange(int(np.prod(ushape))).reshape(ushape) - 1).astype(dtype)
    s = shape[a]
    hi = s - seq if mode == "linear" else 3 * s + 2
    valid = st.integers(0, hi)
    bad = st.sampled_from([-1, -s - 1, hi + 1, 2**62]) if not in_range else valid
    w = draw(st.lists(st.one_of(valid, valid, valid, bad), min_size=shape[0], max_size=shape[0]))
    write_indices = None if draw(st.integers(0, 4)) == 0 else np.array(w, np.int64).reshape(shape[0])
    return past, update, write_indices, axis, mode


@pytest.mark.parametrize("backend", BACKENDS)
@given(inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    past, update, w, axis, mode = args
    try:
        expected = oracle.tensor_scatter(past, update, w, axis, mode)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.TensorScatter(past, update, w, axis=axis, mode=mode)
        return
    out = gs.onnx.TensorScatter(past, update, w, axis=axis, mode=mode)
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


def test_oracle_rejects_what_the_spec_forbids():
    # the oracle itself: the spec's shape and axis rules are ValueErrors, bad write positions IndexErrors
    with pytest.raises(ValueError, match="rank or axis"):
        oracle.tensor_scatter(np.zeros((2, 3)), np.zeros((2, 1)), axis=0)
    with pytest.raises(IndexError):
        oracle.tensor_scatter(np.zeros((2, 3)), np.zeros((2, 2)), np.array([2, 0]), axis=1)
    assert oracle.tensor_scatter(np.zeros((1, 3)), np.ones((1, 2)), np.array([2]), 1, "circular").tolist() == [[1, 0, 1]]


# ---------------------------------------------------------------- gradients


def test_vjp_hand_computed():
    past = np.arange(8, dtype=np.float64).reshape(2, 4)
    upd = np.array([[10.0, 11.0], [12.0, 13.0]])
    out, pullback = gs.vjp(gs.onnx.TensorScatter, past, upd, np.array([3, 0]), 1, "circular")
    assert out.tolist() == [[11, 1, 2, 10], [12, 13, 6, 7]]
    ct = np.arange(1.0, 9.0).reshape(2, 4)
    g_past, g_upd, g_w, g_axis, g_mode = pullback(ct)
    assert g_past.tolist() == [[0, 2, 3, 0], [0, 0, 7, 8]]  # overwritten cells get no gradient
    assert g_upd.tolist() == [[4, 1], [5, 6]]  # each update element gets its target cell's cotangent
    assert (g_w, g_axis, g_mode) == (None, None, None)


# ---------------------------------------------------------------- onnxruntime and onnx.reference


def _model(arrays, **attrs):
    from onnx import helper

    names = ["past_cache", "update", "write_indices"][: len(arrays)]
    node = helper.make_node("TensorScatter", names, ["present_cache"], **attrs)
    inputs_ = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), [None] * a.ndim)
        for n, a in zip(names, arrays, strict=True)
    ]
    out = helper.make_tensor_value_info("present_cache", helper.np_dtype_to_tensor_dtype(arrays[0].dtype), None)
    graph = helper.make_graph([node], "g", inputs_, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 24)], ir_version=10), names


def _onnx_has_tensor_scatter():
    onnx = pytest.importorskip("onnx")
    if not onnx.defs.has("TensorScatter"):
        pytest.skip(f"onnx {onnx.__version__} has no TensorScatter (opset 24 needs a newer onnx)")


@functools.cache
def _ort_kernel() -> bool:
    try:
        _run_ort([np.zeros((1, 2), np.float32), np.ones((1, 1), np.float32)], axis=1)
    except Exception:  # an onnxruntime without the opset-24 kernel (NOT_IMPLEMENTED) or without opset 24
        return False
    return True


def run_ort(arrays, **attrs):
    ort = pytest.importorskip("onnxruntime")
    _onnx_has_tensor_scatter()
    if not _ort_kernel():
        pytest.skip(f"onnxruntime {ort.__version__} cannot run TensorScatter-24 (needs a newer onnxruntime)")
    return _run_ort(arrays, **attrs)


def _run_ort(arrays, **attrs):
    import onnxruntime as ort

    model, names = _model(arrays, **attrs)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.log_severity_level = 3  # ORT warns that it copies past_cache (no in-place buffer in a one-node model)
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, dict(zip(names, arrays, strict=True)))[0]


def run_ref(arrays, **attrs):
    _onnx_has_tensor_scatter()
    from onnx.reference import ReferenceEvaluator

    model, names = _model(arrays, **attrs)
    return ReferenceEvaluator(model).run(None, dict(zip(names, arrays, strict=True)))[0]


def _arrays(past, update, w):
    return [past, update] if w is None else [past, update, w]


@settings(max_examples=60, deadline=None)
@given(inputs())
def test_matches_onnxruntime(args):
    pytest.importorskip("onnxruntime")
    past, update, w, axis, mode = args
    try:
        theirs = run_ort(_arrays(past, update, w), axis=axis, mode=mode)
    except Exception as exc:  # onnxruntime raises its own Fail/RuntimeException types
        theirs = str(exc)
    if isinstance(theirs, str):
        assert "TensorScatter" in theirs and "write_indices" in theirs
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.TensorScatter(past, update, w, axis=axis, mode=mode, opset=24)
        return
    ours = gs.onnx.TensorScatter(past, update, w, axis=axis, mode=mode, opset=24)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


ORT_ERRORS = [
    pytest.param(dict(axis=0), gs.AxisError, id="axis-0"),
    pytest.param(dict(axis=-3), gs.AxisError, id="axis-minus-r"),
    pytest.param(dict(axis=3), gs.AxisError, id="axis-r"),
    pytest.param(dict(w=[0, 0, 0]), gs.ShapeError, id="write-indices-too-long"),
    pytest.param(dict(w=[0]), gs.ShapeError, id="write-indices-too-short"),
    pytest.param(dict(update=np.ones((2, 7, 1), np.float32)), gs.ShapeError, id="sequence-longer-than-cache"),
    pytest.param(dict(update=np.ones((2, 2, 2), np.float32)), gs.ShapeError, id="other-dim-differs"),
    pytest.param(dict(mode="ring"), gs.UnsupportedError, id="unknown-mode"),
    pytest.param(dict(w=[-1, 0], mode="circular"), gs.IndexOutOfRangeError, id="negative-circular"),
    pytest.param(dict(w=[5, 0]), gs.IndexOutOfRangeError, id="linear-past-the-end"),
    pytest.param(dict(w=[9, 0], update=np.ones((2, 0, 1), np.float32)), gs.IndexOutOfRangeError,
                 id="linear-past-the-end-empty-update"),
]


@pytest.mark.parametrize(("change", "cls"), ORT_ERRORS)
def test_onnxruntime_raises_where_we_raise(change, cls):
    pytest.importorskip("onnxruntime")
    past = np.arange(12, dtype=np.float32).reshape(2, 6, 1)
    update = change.get("update", np.ones((2, 2, 1), np.float32))
    w = np.asarray(change.get("w", [0, 0]), np.int64)
    attrs = {k: v for k, v in change.items() if k in ("axis", "mode")}
    with pytest.raises(Exception, match="TensorScatter"):
        run_ort([past, update, w], **attrs)
    with pytest.raises(cls):
        gs.onnx.TensorScatter(past, update, w, **attrs)


@settings(max_examples=60, deadline=None)
@given(inputs(in_range=True))
def test_matches_onnx_reference_in_range(args):
    past, update, w, axis, mode = args
    theirs = run_ref(_arrays(past, update, w), axis=axis, mode=mode)
    ours = gs.onnx.TensorScatter(past, update, w, axis=axis, mode=mode)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("dt", ["str", "float8_e4m3fn", "int4", "float4_e2m1fn", "bfloat16", "complex64"])
def test_types_onnxruntime_cannot_run_match_onnx_reference(dt):
    past, update = _two([[0, 0, 0], [1, 1, 1]], dt), _two([[1, 1], [0, 1]], dt)
    w = np.array([1, 2], np.int64)
    theirs = run_ref([past, update, w], axis=1, mode="circular")
    ours = gs.onnx.TensorScatter(past, update, w, axis=1, mode="circular")
    assert ours.tolist() == np.asarray(theirs).astype(ours.dtype).tolist()


def _divergence(case_fragment, reference_fragment):
    recs = [d for d in gs.divergences("onnx.TensorScatter") if case_fragment in d.case and reference_fragment in d.reference]
    assert len(recs) == 1, (case_fragment, reference_fragment)
    return recs[0]


def test_recorded_divergences_from_onnx_reference_hold():
    past = np.arange(6, dtype=np.float32).reshape(1, 6)
    # negative linear write index: onnx.reference indexes Python-style (-1 -> 5, then 0); we raise
    _divergence("negative write_indices, mode='linear'", "onnx.reference")
    assert run_ref([past, np.full((1, 2), 9, np.float32), np.array([-1], np.int64)], axis=1).tolist() == [
        [9, 1, 2, 3, 4, 9]
    ]
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.onnx.TensorScatter(past, np.full((1, 2), 9, np.float32), [-1], axis=1)
    # negative circular write index: floor modulo in the spec pseudocode and onnx.reference; we raise (as ORT)
    _divergence("negative write_indices, mode='circular'", "onnx.reference")
    got = run_ref([past, np.full((1, 1), 9, np.float32), np.array([-2], np.int64)], axis=1, mode="circular")
    assert got.tolist() == [[0, 1, 2, 3, 9, 5]]
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.onnx.TensorScatter(past, np.full((1, 1), 9, np.float32), [-2], axis=1, mode="circular")
    # linear past the end with nothing to write: onnx.reference returns the cache, we (and ORT) raise
    _divergence("sequence_length 0", "onnx.reference")
    assert run_ref([past, np.zeros((1, 0), np.float32), np.array([7], np.int64)], axis=1).tolist() == past.tolist()
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.onnx.TensorScatter(past, np.zeros((1, 0), np.float32), [7], axis=1)
    # axis outside [-r, r-1]: onnx.reference takes axis % r
    _divergence("axis 0, or axis outside", "onnx.reference")
    got = run_ref([past, np.full((1, 1), 9, np.float32), np.array([1], np.int64)], axis=3)
    assert got.tolist() == [[0, 9, 2, 3, 4, 5]]
    with pytest.raises(gs.AxisError):
        gs.onnx.TensorScatter(past, np.full((1, 1), 9, np.float32), [1], axis=3)
    # write_indices longer than the batch: onnx.reference reads the first batch_size entries
    _divergence("write_indices of a shape", "onnx.reference")
    got = run_ref([past, np.full((1, 1), 9, np.float32), np.array([1, 4], np.int64)], axis=1)
    assert got.tolist() == [[0, 9, 2, 3, 4, 5]]
    with pytest.raises(gs.ShapeError):
        gs.onnx.TensorScatter(past, np.full((1, 1), 9, np.float32), [1, 4], axis=1)


def test_recorded_divergence_onnxruntime_has_no_string_kernel():
    _divergence("string, float8", "ONNX Runtime")
    with pytest.raises(Exception, match=r"NOT_IMPLEMENTED|implementation"):
        run_ort([np.array([["a", "b"]], object), np.array([["c"]], object), np.array([0], np.int64)], axis=1)


# ---------------------------------------------------------------- the record (issue 13): description and translate


def test_positions_adapter_on_hand_computed_tables():
    from gatherscatter.translate.ir import ADAPTERS

    pos = ADAPTERS["positions"].run
    z23 = np.zeros((2, 2, 3))
    # linear: P[b, j, :] = w[b] + j
    assert pos(np.array([1, 0]), z23, np.zeros((2, 4, 3)), axis=1).tolist() == [
        [[1, 1, 1], [2, 2, 2]], [[0, 0, 0], [1, 1, 1]]]
    # circular, s = 4: (w mod 4 + j) mod 4; -1 -> 3 (floor modulo: the op itself raises there)
    got = pos(np.array([3, -1, 9]), np.zeros((3, 1, 2)), np.zeros((3, 1, 4)), axis=-1, circular=True)
    assert got.tolist() == [[[3, 0]], [[3, 0]], [[1, 2]]]
    # near the int64 maximum: reduced first, no overflow (2**63 - 1 = 7 mod 8)
    got = pos(np.array([2**63 - 1]), np.zeros((1, 2)), np.zeros((1, 8)), axis=1, circular=True)
    assert got.tolist() == [[7, 0]]
    # absent write_indices: zeros
    assert pos(None, np.zeros((2, 2)), np.zeros((2, 5)), axis=1).tolist() == [[0, 1], [0, 1]]
    assert got.dtype == np.int64


def test_description_reads_as_scatter_elements_at_the_positions():
    rec = gs.onnx.TensorScatter.record
    assert rec.arg_roles == {"past_cache": "data", "update": "updates", "write_indices": "indices"}
    assert [a.name for a in rec.attrs] == ["axis", "mode", "opset"]
    assert rec.attr("mode").values == ("linear", "circular")
    d = rec.describe(axis=1, mode="circular")
    assert d.canonical.describe() == (
        "out = gatherscatter.scatter_along_axis(data=past_cache, indices=pos, updates=update, negative='raise', "
        "bounds='raise', axis=1, reduction='none', duplicates='last')")
    assert [s.describe() for s in d.pre] == ["pos = positions(write_indices, update, past_cache, axis=1, circular=True)"]
    assert [r.when for r in d.residuals] == ["negative", "empty"]
    assert [r.when for r in rec.describe(mode="linear").residuals] == ["empty"]
    with pytest.raises(gs.AxisError, match="batch axis"):
        rec.describe(axis=0)
    with pytest.raises(gs.UnsupportedError, match="mode"):
        rec.describe(mode="ring")


@pytest.mark.parametrize("to", ["gatherscatter", "numpy", "torch", "onnx"])
def test_translation_runs_the_hand_computed_cases(to):
    cache = np.zeros((2, 4, 1), np.float32)
    upd = np.array([[[7], [8]], [[5], [6]]], np.float32)
    t = gs.translate("onnx.TensorScatter", to=to, axis=1)
    assert t.run(past_cache=cache, update=upd, write_indices=np.array([1, 2]))[..., 0].tolist() == [
        [0, 7, 8, 0], [0, 0, 5, 6]]
    assert t.run(past_cache=cache, update=upd, write_indices=None)[..., 0].tolist() == [[7, 8, 0, 0], [5, 6, 0, 0]]
    t = gs.translate("onnx.TensorScatter", to=to, axis=1, mode="circular")
    assert t.run(past_cache=cache, update=upd, write_indices=np.array([3, 0]))[..., 0].tolist() == [
        [8, 0, 0, 7], [5, 6, 0, 0]]
    r = t.verify(n=120)
    assert r.ok, str(r)
    assert r.agree >= 60
