"""onnx.ScatterElements (11, 13, 16, 18) and onnx.Scatter (9): cases, errors, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.oracles import onnx as oracle
from tests.strategies import index_arrays, shapes

Z3 = [[0.0, 0.0, 0.0]] * 3

CASES = [
    # ONNX doc examples
    pytest.param(Z3, [[1, 0, 2], [0, 2, 1]], [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], 0, "none",
                 [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]], id="onnx-doc-1"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 3]], [[1.1, 2.1]], 1, "none",
                 [[1.0, 1.1, 3.0, 2.1, 5.0]], id="onnx-doc-2"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, -3]], [[1.1, 2.1]], 1, "none",
                 [[1.0, 1.1, 2.1, 4.0, 5.0]], id="onnx-doc-negative"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 1]], [[1.1, 2.1]], 1, "add",
                 [[1.0, 5.2, 3.0, 4.0, 5.0]], id="onnx-doc-duplicate-add"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 1]], [[1.1, 2.1]], 1, "mul",
                 [[1.0, 2.0 * 1.1 * 2.1, 3.0, 4.0, 5.0]], id="onnx-doc-mul"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 1]], [[1.1, 2.1]], 1, "max",
                 [[1.0, 2.1, 3.0, 4.0, 5.0]], id="onnx-doc-max"),
    pytest.param([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 1]], [[1.1, 2.1]], 1, "min",
                 [[1.0, 1.1, 3.0, 4.0, 5.0]], id="onnx-doc-min"),
    # docs/behavior-matrix.md#t6-4 / docs/behavior-matrix.md#t6-7
    pytest.param([[0, 0], [0, 0]], [[1, 0]], [[5, 6]], 0, "none", [[0, 6], [5, 0]], id="default-axis"),
    pytest.param([[0, 0], [0, 0]], [[1, 0]], [[5, 6]], -1, "none", [[6, 5], [0, 0]], id="negative-axis"),
    pytest.param([0, 0, 0, 0], [1, 1, 1], [10, 20, 30], 0, "none", [0, 30, 0, 0], id="duplicates-last-wins"),
    pytest.param([1, 1, 1, 1], [1, 1, 2], [10, 20, 30], 0, "add", [1, 31, 31, 1], id="duplicates-add"),
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "add", [11, 5, 12, 5], id="matrix-sum"),
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "mul", [40, 5, 35, 5], id="matrix-prod"),
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "max", [5, 5, 7, 5], id="matrix-max"),
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "min", [2, 5, 5, 5], id="matrix-min"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[2], [0]], [[9], [8]], 1, "none", [[1, 2, 9], [8, 5, 6]],
                 id="smaller-non-axis"),
]


@pytest.mark.parametrize(("data", "indices", "updates", "axis", "reduction", "expected"), CASES)
def test_cases(data, indices, updates, axis, reduction, expected):
    out = gs.onnx.ScatterElements(data, indices, updates, axis=axis, reduction=reduction)
    np.testing.assert_array_equal(out, np.asarray(expected))
    assert out.dtype == np.asarray(data).dtype


def test_int32_mul_overflow_wraps():
    d = np.full(4, 3, np.int32)
    out = gs.onnx.ScatterElements(d, [0, 0], np.array([2**20, 2**20], np.int32), reduction="mul")
    assert out.tolist() == [0, 3, 3, 3]


def test_duplicates_policy_keyword():
    assert gs.onnx.ScatterElements([0, 0], [1, 1], [7, 8], duplicates="first").tolist() == [0, 7]
    with pytest.raises(gs.DuplicateIndexError, match=r"indices\[0\] and indices\[1\]"):
        gs.onnx.ScatterElements([0, 0], [1, 1], [7, 8], duplicates="raise")
    # with a reduction, duplicates are fine whatever the policy
    assert gs.onnx.ScatterElements([0, 0], [1, 1], [7, 8], reduction="add", duplicates="raise").tolist() == [0, 15]


def test_inputs_untouched_and_new_output():
    d = np.zeros((2, 3))
    i = np.array([[0, 1, 2]], np.int32)
    u = np.ones((1, 3))
    copies = [x.copy() for x in (d, i, u)]
    out = gs.onnx.ScatterElements(d, i, u, axis=1)
    assert out.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    for x, c in zip((d, i, u), copies, strict=True):
        np.testing.assert_array_equal(x, c)
    assert not np.shares_memory(out, d)


def test_empty():
    out = gs.onnx.ScatterElements([[1, 2]], np.zeros((1, 0), np.int64), np.zeros((1, 0), np.int64), axis=1)
    assert out.tolist() == [[1, 2]]


def test_scatter_9_and_10():
    for opset in (9, 10):
        out = gs.onnx.Scatter(Z3, [[1, 0, 2], [0, 2, 1]], [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], opset=opset)
        assert out.tolist() == [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]]
    assert gs.onnx.Scatter([1, 2, 3], [-1], [9]).tolist() == [1, 2, 9]


ERRORS = [
    (dict(data=[1, 2, 3], indices=[3], updates=[9]), gs.IndexOutOfRangeError,
     ["onnx.ScatterElements", "ScatterElements-18", "indices[0] = 3", "[-3, 2]"]),
    (dict(data=[1, 2, 3], indices=[-4], updates=[9]), gs.IndexOutOfRangeError, ["indices[0] = -4"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction="bogus"), gs.UnsupportedError,
     ["unknown reduction 'bogus'", "silently"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction="mean"), gs.UnsupportedError, ["no 'mean'"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction="sum"), gs.UnsupportedError, ["'sum'"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction="add", opset=13), gs.UnsupportedError,
     ["added in opset 16"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction="max", opset=16), gs.UnsupportedError,
     ["added in opset 18", "ScatterElements-16"]),
    (dict(data=[1, 2, 3], indices=[0], updates=[9], reduction=None), gs.ArgumentError, ["reduction must be a string"]),
    (dict(data=[1, 2, 3], indices=[0, 1], updates=[9]), gs.ShapeError, ["shape of indices"]),
    (dict(data=[[1, 2, 3]], indices=[[0, 1]], updates=[[9, 9]], axis=0, duplicates="often"), gs.UnsupportedError,
     ["unknown duplicates policy 'often'"]),
    (dict(data=np.zeros(3, np.float32), indices=[0], updates=np.ones(1, np.float64)), gs.DTypeError,
     ["float64", "float32"]),
    (dict(data=np.array(["a", "b"]), indices=[0], updates=np.array(["c"]), reduction="add"), gs.DTypeError,
     ["not defined for str"]),
    (dict(data=np.zeros(2, np.complex64), indices=[0], updates=np.ones(1, np.complex64), reduction="max"),
     gs.DTypeError, ["complex"]),
    (dict(data=[[1, 2]], indices=[[0], [1]], updates=[[1], [1]], axis=1), gs.ShapeError, ["must be <="]),
    (dict(data=[1], indices=[0], updates=[1], opset=10), gs.UnsupportedError, ["before opset 11"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.ScatterElements(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


def test_scatter_removed_at_11():
    with pytest.raises(gs.UnsupportedError, match="removed at opset 11"):
        gs.onnx.Scatter([1], [0], [2], opset=11)
    with pytest.raises(gs.UnsupportedError, match="before opset 9"):
        gs.onnx.Scatter([1], [0], [2], opset=8)
    with pytest.raises(gs.IndexOutOfRangeError, match=r"onnx.Scatter \(opset 9, Scatter-9\)"):
        gs.onnx.Scatter([1], [1], [2])


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    a = axis % len(shape)
    ishape = tuple(
        draw(st.integers(0, 5)) if d == a else draw(st.integers(0, n)) for d, n in enumerate(shape)
    )
    indices = draw(index_arrays(ishape, shape[a], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    dtype = draw(st.sampled_from([np.int64, np.float64, np.int8]))
    data = (np.arange(np.prod(shape)).reshape(shape) % 7).astype(dtype)
    updates = (np.arange(np.prod(ishape)).reshape(ishape) % 5 + 1).astype(dtype)
    reduction = draw(st.sampled_from(["none", "add", "mul", "max", "min"]))
    return data, indices, updates, axis, reduction


@pytest.mark.parametrize("backend", BACKENDS)
@given(inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    data, indices, updates, axis, reduction = args
    try:
        expected = oracle.scatter_elements(data, indices, updates, axis, reduction)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.ScatterElements(data, indices, updates, axis=axis, reduction=reduction)
        return
    out = gs.onnx.ScatterElements(data, indices, updates, axis=axis, reduction=reduction)
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
