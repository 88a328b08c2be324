"""tensorflow.gather_nd: case table, error table, property test against the brute-force oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import tensorflow as oracle
from tests.strategies import index_arrays, shapes

M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
AB = [["a", "b"], ["c", "d"]]
B2 = [[["a0", "b0"], ["c0", "d0"]], [["a1", "b1"], ["c1", "d1"]]]

# (params, indices, kwargs, expected): tf.gather_nd docstring, docs/behavior-matrix.md#t6-3, observed TF 2.21
CASES = [
    pytest.param(AB, [[0, 0], [1, 1]], {}, ["a", "d"], id="doc-scalars"),
    pytest.param(AB, [[1], [0]], {}, [["c", "d"], ["a", "b"]], id="doc-slices"),
    pytest.param(AB, [[[0, 0]], [[0, 1]]], {}, [["a"], ["b"]], id="doc-leading-dims"),
    pytest.param(B2, [[1], [0]], dict(batch_dims=1), [["c0", "d0"], ["a1", "b1"]], id="doc-batch"),
    pytest.param(B2, [[0, 1], [1, 0]], dict(batch_dims=1), ["b0", "c1"], id="doc-batch-scalars"),
    pytest.param(M, [[1]], {}, [[4, 5, 6]], id="matrix-partial-index"),
    pytest.param([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[1], [0]], dict(batch_dims=1), [[2, 3], [4, 5]],
                 id="matrix-onnx-example-5"),
    pytest.param(M, [[0, 0], [-1, 0]], dict(device="xla"), [1, 1], id="matrix-xla-neg-clamps-to-0"),
    pytest.param(M, [[0, 0], [3, 0]], dict(device="xla"), [1, 7], id="matrix-xla-row-3"),
    pytest.param(M, [[0, 0], [-4, 0]], dict(device="xla"), [1, 1], id="matrix-xla-row-minus-4"),
    pytest.param(M, [[0, 0], [0, 3]], dict(device="xla"), [1, 3], id="matrix-xla-column-3"),
    pytest.param(M, [[5]], dict(device="xla"), [[7, 8, 9]], id="xla-slice-clamp"),
    pytest.param(M, [[0, 0], [-1, 0]], dict(bad_indices_policy="IGNORE"), [1, 0], id="ignore-zero"),
    pytest.param(M, [[5]], dict(bad_indices_policy="IGNORE"), [[0, 0, 0]], id="ignore-zero-slice"),
    pytest.param(M, [[5]], dict(bad_indices_policy="IGNORE", device="xla"), [[0, 0, 0]], id="xla-honours-ignore"),
    pytest.param(M, [[5]], dict(bad_indices_policy="ERROR", device="xla"), [[7, 8, 9]], id="xla-ignores-error"),
    pytest.param(M, [[0, 0], [-1, 0]], dict(device="gpu"), [1, 0], id="gpu-zero"),
    pytest.param(M, [[0, 0], [-1, 0]], dict(device="gpu", bad_indices_policy="IGNORE"), [1, 0], id="gpu-ignore"),
    pytest.param([[0, 1], [2, 3]], [0, 1], {}, 1, id="1d-indices-one-tuple"),
    pytest.param(M, np.array([[1, 1]], np.int16), {}, [5], id="int16-indices"),
    pytest.param(M, [[0, 0]], dict(bad_indices_policy="DEFAULT"), [1], id="policy-default"),
]


@pytest.mark.parametrize(("params", "indices", "kwargs", "expected"), CASES)
def test_cases(params, indices, kwargs, expected):
    out = gs.tensorflow.gather_nd(params, indices, **kwargs)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(params).dtype


def test_shapes():
    d = np.zeros((2, 3, 5, 7))
    assert gs.tensorflow.gather_nd(d, np.zeros((2, 3, 4, 1), np.int64), 2).shape == (2, 3, 4, 7)  # semantics
                                                                                                  # docs/semantics.md#s4-2
    assert gs.tensorflow.gather_nd(np.zeros((2, 3, 4)), np.zeros((2, 3, 1), np.int64), 2).shape == (2, 3)
    assert gs.tensorflow.gather_nd(np.zeros((3, 3)), np.zeros((0, 2), np.int64)).shape == (0,)
    # k = 0: each empty tuple selects the whole params (semantics docs/semantics.md#s4-2, observed [2,3,4])
    out = gs.tensorflow.gather_nd(np.arange(12).reshape(3, 4), np.zeros((2, 0), np.int64))
    assert out.shape == (2, 3, 4) and (out == np.arange(12).reshape(3, 4)).all()
    out = gs.tensorflow.gather_nd(np.arange(6).reshape(2, 3), np.zeros((2, 4, 0), np.int64), batch_dims=1)
    assert out.tolist() == [[[0, 1, 2]] * 4, [[3, 4, 5]] * 4]
    assert gs.tensorflow.gather_nd(np.zeros((0, 3)), np.zeros((0, 1), np.int64)).shape == (0, 3)
    # XLA on an empty params: zeros of the documented shape (XLA's own shape is wrong)
    out = gs.tensorflow.gather_nd(np.zeros((0, 3)), [[5], [0]], device="xla")
    assert out.shape == (2, 3) and not out.any()


def test_every_dtype():
    import ml_dtypes

    for dtype in (np.bool_, np.int8, np.uint64, np.float16, ml_dtypes.bfloat16, np.complex128):
        d = np.arange(4).reshape(2, 2).astype(dtype)
        out = gs.tensorflow.gather_nd(d, [[1, 0]])
        assert out.dtype == d.dtype and out.tolist() == [d[1, 0]]


def test_inputs_untouched():
    p = np.arange(9.0).reshape(3, 3)
    i = np.array([[-1, 4]], np.int32)
    p0, i0 = p.copy(), i.copy()
    out = gs.tensorflow.gather_nd(p, i, device="xla")
    assert out.tolist() == [2.0] and not np.shares_memory(out, p)
    np.testing.assert_array_equal(p, p0)
    np.testing.assert_array_equal(i, i0)


ERRORS = [
    ((M, [[0, 0], [-1, 0]]), {}, gs.IndexOutOfRangeError,
     ["tensorflow.gather_nd (TF 2.21, device='cpu')", "indices[1] = [-1, 0] does not index into param shape [3,3]",
      "component 0 = -1"]),
    ((M, [[0, 0], [0, 3]]), dict(bad_indices_policy="ERROR"), gs.IndexOutOfRangeError,
     ["indices[1] = [0, 3]", "component 1 = 3 is not in [0, 3)"]),
    ((M, [[[0, 5]]]), dict(bad_indices_policy="DEFAULT"), gs.IndexOutOfRangeError, ["indices[0,0] = [0, 5]"]),
    ((M, [0, -1]), {}, gs.IndexOutOfRangeError, ["indices = [0, -1]"]),
    ((np.zeros((2, 2, 2)), [[1], [5]]), dict(batch_dims=1), gs.IndexOutOfRangeError, ["indices[1] = [5]"]),
    ((M, [[5]]), dict(device="gpu", bad_indices_policy="ERROR"), gs.UnsupportedError, ["GPU does not support"]),
    ((M, [[0]]), dict(bad_indices_policy="ignore"), gs.UnsupportedError, ["unknown bad_indices_policy 'ignore'"]),
    ((M, [[0]]), dict(bad_indices_policy=None), gs.ArgumentError, ["bad_indices_policy must be a string"]),
    ((M, [[0, 0, 0]]), {}, gs.ShapeError, ["index innermost dimension length must be <= params rank", "3 vs. 2"]),
    ((M, 0), {}, gs.ShapeError, ["indices must be at least a vector"]),
    ((1.0, np.zeros((2, 0), np.int64)), {}, gs.ShapeError, ["params must be at least a vector"]),
    ((np.zeros((0, 3)), [[0]]), {}, gs.ShapeError, ["Requested more than 0 entries, but params is empty"]),
    ((np.zeros((0, 3)), [[0]]), dict(bad_indices_policy="IGNORE"), gs.ShapeError, ["params is empty"]),
    ((np.zeros((3, 0)), [[1]]), dict(device="gpu"), gs.ShapeError, ["params is empty"]),
    ((np.zeros((2, 2, 2)), [[1], [0]]), dict(batch_dims=-1), gs.AxisError, ["does not allow negative batch_dims"]),
    ((np.zeros((2, 2, 2)), np.zeros((2, 2), np.int64)), dict(batch_dims=2), gs.AxisError,
     ["`batch_dims` = 2 must be less than rank(`indices`) = 2"]),
    ((np.zeros((2, 2, 2)), np.zeros((2, 2, 2, 0), np.int64)), dict(batch_dims=3), gs.AxisError,
     ["`batch_dims` = 3 must be less than rank(`params`) = 3"]),
    ((np.zeros((2, 3, 4)), np.zeros((3, 2, 1), np.int64)), dict(batch_dims=2), gs.ShapeError,
     ["first batch_dims=2 dims of params and indices must be equal"]),
    ((np.zeros((2, 2, 2)), np.zeros((3, 1), np.int64)), dict(batch_dims=1), gs.ShapeError, ["must be equal"]),
    ((np.zeros((2, 2, 2)), np.zeros((2, 3), np.int64)), dict(batch_dims=1), gs.ShapeError, ["3 vs. 2"]),
    ((M, np.array([[0]], np.uint16)), {}, gs.DTypeError, ["uint16", "int16, int32, int64"]),
    ((M, [[0]]), dict(batch_dims=1.5), gs.ArgumentError, ["batch_dims must be an int"]),
    ((np.array(["a"]), [[0]]), dict(device="xla"), gs.DTypeError, ["cannot compile string"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        gs.tensorflow.gather_nd(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.tensorflow.gather_nd(M, [[[0, 0], [1, 9]]])
    assert info.value.position == (0, 1, 1) and info.value.value == 9 and info.value.valid == (0, 2)


@st.composite
def nd_cases(draw):
    pshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(pshape)
    b = draw(st.integers(0, r - 1))
    k = draw(st.integers(0, r - b))
    mid = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    ishape = tuple(pshape[:b]) + tuple(mid) + (k,)
    dtype = draw(st.sampled_from([np.int16, np.int32, np.int64]))
    comps = [draw(index_arrays(ishape[:-1], pshape[b + j], dtype=dtype)) for j in range(k)]
    indices = np.stack(comps, axis=-1) if k else np.zeros(ishape, dtype)
    params = np.arange(1, int(np.prod(pshape)) + 1, dtype=np.float64).reshape(pshape)
    device = draw(st.sampled_from(["cpu", "gpu", "xla"]))
    policy = draw(st.sampled_from(["", "DEFAULT", "IGNORE"] + (["ERROR"] if device != "gpu" else [])))
    return params, indices, b, device, policy


@given(nd_cases())
def test_matches_oracle(case):
    params, indices, batch_dims, device, policy = case
    try:
        expected = oracle.gather_nd(params, indices, batch_dims, device, policy)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.tensorflow.gather_nd(params, indices, batch_dims, device, bad_indices_policy=policy)
        return
    except ValueError:
        with pytest.raises(gs.ShapeError):
            gs.tensorflow.gather_nd(params, indices, batch_dims, device, bad_indices_policy=policy)
        return
    out = gs.tensorflow.gather_nd(params, indices, batch_dims, device, bad_indices_policy=policy)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
