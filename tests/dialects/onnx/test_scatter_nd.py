"""onnx.ScatterND (opsets 11, 13, 16, 18): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.oracles import onnx as oracle
from tests.strategies import index_arrays, shapes

D3 = [[[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]]] * 4
S = [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]]
R = [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]

CASES = [
    pytest.param([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12], "none",
                 [1, 11, 3, 10, 9, 6, 7, 12], id="onnx-doc-1"),
    pytest.param(D3, [[0], [2]], [S, R], "none", [S, D3[0], R, D3[0]], id="onnx-doc-2-slices"),
    # ONNX node-test style reductions with duplicate slice indices (hand computed)
    pytest.param([1, 2, 3, 4], [[0], [0], [2]], [10, 20, 30], "add", [31, 2, 33, 4], id="add-dup"),
    pytest.param([1, 2, 3, 4], [[0], [0], [2]], [10, 20, 30], "mul", [200, 2, 90, 4], id="mul-dup"),
    pytest.param([1, 2, 3, 4], [[0], [0], [2]], [10, 0, 1], "max", [10, 2, 3, 4], id="max-dup"),
    pytest.param([1, 2, 3, 4], [[0], [0], [2]], [10, 0, 1], "min", [0, 2, 1, 4], id="min-dup"),
    # docs/behavior-matrix.md#t6-5
    pytest.param([1, 2, 3], [[-1]], [9], "none", [1, 2, 9], id="negative"),
    pytest.param([0, 0, 0, 0], [[1], [1], [1]], [10, 20, 30], "none", [0, 30, 0, 0], id="duplicates-last-wins"),
    pytest.param([1, 1, 1, 1], [[1], [1], [2]], [10, 20, 30], "add", [1, 31, 31, 1], id="duplicates-add"),
    pytest.param([[1, 2], [3, 4]], [[1]], [[7, 8]], "none", [[1, 2], [7, 8]], id="slice-update"),
    pytest.param([[1, 2], [3, 4]], [[1, 0], [0, 1]], [9, 8], "none", [[1, 8], [9, 4]], id="element-update"),
    pytest.param([[1, 2], [3, 4]], [1, 0], 9, "none", [[1, 2], [9, 4]], id="1d-indices-one-tuple"),
    # semantics docs/semantics.md#s6-1 example (seed)
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "add", [10, 5, 5], id="sum-5-2-3"),
]


@pytest.mark.parametrize(("data", "indices", "updates", "reduction", "expected"), CASES)
def test_cases(data, indices, updates, reduction, expected):
    out = gs.onnx.ScatterND(data, indices, updates, reduction=reduction)
    assert out.tolist() == expected


def test_opsets_without_reduction():
    for opset in (11, 13):
        assert gs.onnx.ScatterND([1, 2, 3], [[0]], [7], opset=opset).tolist() == [7, 2, 3]


def test_empty_indices():
    assert gs.onnx.ScatterND([1, 2, 3], np.zeros((0, 1), np.int64), np.zeros(0, np.int64)).tolist() == [1, 2, 3]


ERRORS = [
    (dict(data=[1, 2, 3], indices=[[3]], updates=[9]), gs.IndexOutOfRangeError,
     ["onnx.ScatterND", "ScatterND-18", "indices[0, 0] = 3", "[-3, 2]"]),
    (dict(data=[[1, 2], [3, 4]], indices=[[0, 0], [1, 2]], updates=[1, 1]), gs.IndexOutOfRangeError,
     ["indices[1, 1] = 2", "axis 1"]),
    (dict(data=[1, 2, 3], indices=np.array([[0]], np.int32), updates=[9]), gs.DTypeError, ["int32", "int64"]),
    (dict(data=[1, 2, 3], indices=[[0]], updates=[9, 9]), gs.ShapeError, ["updates must have shape [1]"]),
    (dict(data=[1, 2, 3], indices=[[0, 0]], updates=[9]), gs.ShapeError, ["[1, 1]", "got 2"]),
    (dict(data=[1, 2, 3], indices=0, updates=9), gs.ShapeError, ["rank q >= 1"]),
    (dict(data=[1, 2, 3], indices=[[0]], updates=[9], reduction="sub"), gs.UnsupportedError, ["'sub'"]),
    (dict(data=[1, 2, 3], indices=[[0]], updates=[9], reduction="mul", opset=13), gs.UnsupportedError,
     ["opset 16"]),
    (dict(data=[1, 2, 3], indices=[[0]], updates=[9], reduction="min", opset=17), gs.UnsupportedError,
     ["opset 18"]),
    (dict(data=[1, 2, 3], indices=[[0], [0]], updates=[9, 8], duplicates="raise"), gs.DuplicateIndexError,
     ["indices[0] and indices[1]", "element [0]"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.ScatterND(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    k = draw(st.integers(1, len(shape)))
    mshape = draw(shapes(min_dims=0, max_dims=2))
    comps = [draw(index_arrays(mshape, shape[j])) for j in range(k)]
    indices = np.stack(comps, axis=-1).astype(np.int64)
    dtype = draw(st.sampled_from([np.int64, np.float32, np.uint8]))
    data = (np.arange(np.prod(shape)).reshape(shape) % 7).astype(dtype)
    ushape = mshape + shape[k:]
    updates = (np.arange(np.prod(ushape)).reshape(ushape) % 5 + 1).astype(dtype)
    reduction = draw(st.sampled_from(["none", "add", "mul", "max", "min"]))
    return data, indices, updates, reduction


@pytest.mark.parametrize("backend", BACKENDS)
@given(inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    data, indices, updates, reduction = args
    try:
        expected = oracle.scatter_nd(data, indices, updates, reduction)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.ScatterND(data, indices, updates, reduction=reduction)
        return
    out = gs.onnx.ScatterND(data, indices, updates, reduction=reduction)
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
