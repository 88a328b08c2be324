"""onnx.GatherElements (opsets 11, 13): case table, error table, property test."""

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
    # ONNX doc examples
    pytest.param([[1, 2], [3, 4]], [[0, 0], [1, 0]], 1, [[1, 1], [4, 3]], id="onnx-doc-1"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 2, 0], [2, 0, 0]], 0, [[4, 8, 3], [7, 2, 3]], id="onnx-doc-2"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-1, -2, 0], [-2, 0, 0]], 0, [[7, 5, 3], [4, 2, 3]],
                 id="onnx-doc-negative"),
    # the three OpenVINO GatherElements-6 examples of the seeds (same semantics in ONNX)
    pytest.param([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0, [[1, 4], [1, 2]], id="seed-ov-1"),
    pytest.param([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], 1, [[7, 7, 1], [3, 4, 3]], id="seed-ov-2-longer-axis"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]], 0, [[4, 2, 6], [4, 8, 3]],
                 id="seed-ov-3-shorter"),
    # docs/behavior-matrix.md#t6-2: index smaller on a non-axis dim (ORT accepts, reads the leading block)
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0], [1]], 1, [[1], [5]], id="smaller-non-axis"),
    pytest.param([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 0]], 1, [[3, 1]], id="row-wise-1x2"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [-1]], 1, [[1], [6]], id="negative-index"),
    pytest.param([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[1], [0]], [[0], [1]]], 2, [[[2], [3]], [[5], [8]]],
                 id="3d-axis-2"),
    pytest.param([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[1, 0]], [[0, 1]]], -2, [[[3, 2]], [[5, 8]]],
                 id="3d-negative-axis"),
]


@pytest.mark.parametrize("opset", [11, 13, None])
@pytest.mark.parametrize(("data", "indices", "axis", "expected"), CASES)
def test_cases(data, indices, axis, expected, opset):
    out = gs.onnx.GatherElements(data, indices, axis=axis, opset=opset)
    assert out.tolist() == expected


def test_empty():
    out = gs.onnx.GatherElements(np.ones((2, 3)), np.zeros((2, 0), np.int64), axis=1)
    assert out.shape == (2, 0) and out.dtype == np.float64


def test_non_contiguous_data_and_views():
    base = np.arange(48.0).reshape(6, 8)
    view = base[::2, ::-3]  # shape (3, 3), negative stride
    idx = np.array([[2, 0, 1], [0, 0, 2], [1, 2, 2]])
    expected = oracle.gather_elements(np.ascontiguousarray(view), idx, 1)
    np.testing.assert_array_equal(gs.onnx.GatherElements(view, idx, axis=1), expected)


ERRORS = [
    (dict(data=[[1, 2, 3], [4, 5, 6]], indices=[[0], [3]], axis=1), gs.IndexOutOfRangeError,
     ["onnx.GatherElements", "GatherElements-13", "indices[1, 0] = 3", "axis 1", "[-3, 2]"]),
    (dict(data=[[1, 2, 3], [4, 5, 6]], indices=[[0], [-4]], axis=1), gs.IndexOutOfRangeError, ["-4", "[-3, 2]"]),
    (dict(data=[[1, 2], [3, 4]], indices=[[0], [1], [0]], axis=1), gs.ShapeError,
     ["indices.shape[0] must be <= data.shape[0]", "[3, 1]", "[2, 2]"]),
    (dict(data=[[1, 2], [3, 4]], indices=[0, 1], axis=0), gs.ShapeError, ["same rank", "[2]"]),
    (dict(data=[[1, 2], [3, 4]], indices=[[0]], axis=2), gs.AxisError, ["axis 2", "[-2, 1]"]),
    (dict(data=[[1, 2]], indices=[[0]], opset=10), gs.UnsupportedError, ["does not exist before opset 11"]),
    (dict(data=[[1, 2]], indices=np.array([[0]], np.int8)), gs.DTypeError, ["int8"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.GatherElements(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    a = axis % len(shape)
    ishape = tuple(
        draw(st.integers(0, 4)) if d == a else draw(st.integers(0, n)) for d, n in enumerate(shape)
    )
    indices = draw(index_arrays(ishape, shape[a], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    data = np.arange(np.prod(shape), dtype=np.int64).reshape(shape) * 10 + 1
    return data, indices, axis


@pytest.mark.parametrize("backend", BACKENDS)
@given(inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    data, indices, axis = args
    try:
        expected = oracle.gather_elements(data, indices, axis)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.GatherElements(data, indices, axis=axis)
        return
    out = gs.onnx.GatherElements(data, indices, axis=axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
