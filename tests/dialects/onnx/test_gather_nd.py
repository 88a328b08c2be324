"""onnx.GatherND (opsets 11, 12, 13): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.oracles import onnx as oracle
from tests.strategies import index_arrays, shapes

CASES = [
    # ONNX doc examples 1-5
    pytest.param([[0, 1], [2, 3]], [[0, 0], [1, 1]], 0, [0, 3], id="onnx-doc-1"),
    pytest.param([[0, 1], [2, 3]], [[1], [0]], 0, [[2, 3], [0, 1]], id="onnx-doc-2"),
    pytest.param([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[0, 1], [1, 0]], 0, [[2, 3], [4, 5]], id="onnx-doc-3"),
    pytest.param([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[[0, 1]], [[1, 0]]], 0, [[[2, 3]], [[4, 5]]], id="onnx-doc-4"),
    pytest.param([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[1], [0]], 1, [[2, 3], [4, 5]], id="onnx-doc-5-batch"),
    # seeds: GatherND example 1 and 2 (ONNX layout)
    pytest.param([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[0, 0]], [[1, 0]]], 0, [[[1, 2]], [[5, 6]]], id="seed-ex-1"),
    pytest.param([[1, 2], [3, 4]], [[-2, 0], [1, 1]], 0, [1, 4], id="seed-ex-2-negative"),
    # semantics docs/semantics.md#s4-1 / behaviour matrix partial index -> slice
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1]], 0, [[4, 5, 6]], id="partial-index-slice"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 0], [-1, 0]], 0, [1, 7], id="negative-row"),
    pytest.param([10, 20, 30], [1], 0, 20, id="1d-indices-one-tuple"),
]


@pytest.mark.parametrize("opset", [12, 13, None])
@pytest.mark.parametrize(("data", "indices", "batch_dims", "expected"), CASES)
def test_cases(data, indices, batch_dims, expected, opset):
    out = gs.onnx.GatherND(data, indices, batch_dims=batch_dims, opset=opset)
    assert out.tolist() == expected


def test_opset_11_without_batch_dims():
    assert gs.onnx.GatherND([[0, 1], [2, 3]], [[0, 0], [1, 1]], opset=11).tolist() == [0, 3]


def test_batch_dims_2_shape():
    d = np.arange(2 * 3 * 5 * 7).reshape(2, 3, 5, 7)
    i = np.zeros((2, 3, 4, 1), np.int64)
    assert gs.onnx.GatherND(d, i, batch_dims=2).shape == (2, 3, 4, 7)
    d = np.arange(24).reshape(2, 3, 4)
    i = np.array([[[1], [0], [3]], [[2], [2], [0]]])
    out = gs.onnx.GatherND(d, i, batch_dims=2)
    assert out.tolist() == [[1, 4, 11], [14, 18, 20]]


def test_empty_indices():
    out = gs.onnx.GatherND(np.ones((3, 3)), np.zeros((0, 2), np.int64))
    assert out.shape == (0,)


ERRORS = [
    (dict(data=[[1, 2, 3]] * 3, indices=[[0, 0], [3, 0]]), gs.IndexOutOfRangeError,
     ["onnx.GatherND", "GatherND-13", "indices[1, 0] = 3", "axis 0", "[-3, 2]"]),
    (dict(data=[[1, 2, 3]] * 3, indices=[[0, 3]]), gs.IndexOutOfRangeError, ["indices[0, 1] = 3", "axis 1"]),
    (dict(data=[[1, 2, 3]] * 3, indices=[[0, -4]]), gs.IndexOutOfRangeError, ["-4"]),
    (dict(data=[[1, 2]], indices=np.array([[0, 0]], np.int32)), gs.DTypeError, ["int32", "int64"]),
    (dict(data=[[1, 2]], indices=[[0, 0, 0]]), gs.ShapeError, ["[1, 2]", "got 3"]),
    (dict(data=[[1, 2]], indices=np.zeros((1, 0), np.int64)), gs.ShapeError, ["got 0"]),
    (dict(data=[[1, 2]], indices=0), gs.ShapeError, ["rank q >= 1"]),
    (dict(data=[[1, 2]], indices=[[0]], batch_dims=1, opset=11), gs.UnsupportedError,
     ["batch_dims attribute was added in opset 12"]),
    (dict(data=[[1, 2]], indices=[[0]], batch_dims=-1), gs.AxisError, ["batch_dims=-1"]),
    (dict(data=[[1, 2]], indices=[[0]], batch_dims=2), gs.AxisError, ["batch_dims=2"]),
    (dict(data=np.zeros((2, 3)), indices=np.zeros((3, 1), np.int64), batch_dims=1), gs.ShapeError,
     ["batch", "[2, 3]", "[3, 1]"]),
    (dict(data=[[1]], indices=[[0]], opset=10), gs.UnsupportedError, ["before opset 11"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.GatherND(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=4, min_side=1))
    r = len(shape)
    b = draw(st.integers(0, r - 1))
    k = draw(st.integers(1, r - b))
    mshape = draw(shapes(min_dims=0, max_dims=2))
    ishape = shape[:b] + mshape + (k,)
    comps = [draw(index_arrays(shape[:b] + mshape, shape[b + j])) for j in range(k)]
    indices = np.stack(comps, axis=-1) if comps else np.zeros(ishape, np.int64)
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    return data, indices.astype(np.int64), b


@pytest.mark.parametrize("backend", BACKENDS)
@given(inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    data, indices, b = args
    if b >= indices.ndim:
        return
    try:
        expected = oracle.gather_nd(data, indices, b)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.GatherND(data, indices, batch_dims=b)
        return
    out = gs.onnx.GatherND(data, indices, batch_dims=b)
    assert out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)
