"""onnx.Gather (opsets 1, 11, 13): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.oracles import onnx as oracle
from tests.strategies import index_arrays, shapes

OPSETS = [1, 9, 11, 12, 13, 18, 28, None]

# (data, indices, axis, expected) — expected values typed by hand from the ONNX docs and the seeds
CASES = [
    pytest.param(
        [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], [[0, 1], [1, 2]], 0,
        [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]], id="onnx-doc-example-1",
    ),
    pytest.param(
        [[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], [[0, 2]], 1,
        [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], id="onnx-doc-example-2",
    ),
    pytest.param([[1, 2, 3], [4, 5, 6]], [2, 0], 1, [[3, 1], [6, 4]], id="semantics-2.1"),
    pytest.param([10, 20, 30], [0, -1], 0, [10, 30], id="negative-wraps"),
    pytest.param([10, 20, 30], [-3], 0, [10], id="most-negative"),
    pytest.param([[1, 2], [3, 4], [5, 6]], 1, 0, [3, 4], id="scalar-index-drops-axis"),
    pytest.param([[1, 2], [3, 4], [5, 6]], -1, 1, [2, 4, 6], id="scalar-negative-axis-1"),
    pytest.param([[1, 2], [3, 4], [5, 6]], [1], -2, [[3, 4]], id="negative-axis"),
    pytest.param([[1, 2], [3, 4]], [1, 1, 0], 0, [[3, 4], [3, 4], [1, 2]], id="duplicates"),
    # seed (PathPartner 2020) Gather example: rows of a 3x2 table by a 2x2 index
    pytest.param([[20, 30], [40, 50], [60, 70]], [[0, 1], [1, 2]], 0,
                 [[[20, 30], [40, 50]], [[40, 50], [60, 70]]], id="seed-gather"),
]


@pytest.mark.parametrize("opset", [11, 13, None])
@pytest.mark.parametrize(("data", "indices", "axis", "expected"), CASES)
def test_cases(data, indices, axis, expected, opset):
    out = gs.onnx.Gather(data, indices, axis=axis, opset=opset)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


def test_empty_and_zero_size():
    d = np.arange(6.0).reshape(3, 2)
    out = gs.onnx.Gather(d, np.zeros((0,), np.int64))
    assert out.shape == (0, 2)
    out = gs.onnx.Gather(np.zeros((3, 0)), [2, 0])
    assert out.shape == (2, 0)
    out = gs.onnx.Gather(np.zeros((0, 2)), np.zeros((2, 0), np.int64))
    assert out.shape == (2, 0, 2)


def test_zero_size_axis_with_index_raises():
    with pytest.raises(gs.IndexOutOfRangeError, match="size 0"):
        gs.onnx.Gather(np.zeros((0, 2)), [0])


def test_0d_result_is_array():
    out = gs.onnx.Gather([10, 20, 30], 2)
    assert isinstance(out, np.ndarray) and out.shape == () and out == 30


def test_int32_indices_and_inputs_untouched():
    d = np.arange(12, dtype=np.int16).reshape(3, 4)
    i = np.array([[2, -1]], dtype=np.int32)
    d0, i0 = d.copy(), i.copy()
    out = gs.onnx.Gather(d, i, axis=1)
    assert out.tolist() == [[[2, 3]], [[6, 7]], [[10, 11]]]
    assert np.shares_memory(out, d) is False
    np.testing.assert_array_equal(d, d0)
    np.testing.assert_array_equal(i, i0)


ERRORS = [
    # (kwargs, error class, message fragments)
    (dict(data=[10, 20, 30], indices=[0, 3]), gs.IndexOutOfRangeError,
     ["onnx.Gather", "opset 28", "indices[1] = 3", "axis 0", "[-3, 2]"]),
    (dict(data=[10, 20, 30], indices=[[0], [-4]]), gs.IndexOutOfRangeError, ["indices[1, 0] = -4", "[-3, 2]"]),
    (dict(data=[10, 20, 30], indices=[2**63 - 1]), gs.IndexOutOfRangeError, ["9223372036854775807"]),
    (dict(data=[10, 20, 30], indices=[0], axis=1), gs.AxisError, ["axis 1", "rank 1", "[-1, 0]"]),
    (dict(data=[10, 20, 30], indices=[0], axis=1.0), gs.ArgumentError, ["axis must be an int"]),
    (dict(data=5, indices=[0]), gs.ShapeError, ["rank r >= 1"]),
    (dict(data=[10, 20], indices=[0.0]), gs.DTypeError, ["integer dtype", "float64"]),
    (dict(data=[10, 20], indices=np.array([0], np.int16)), gs.DTypeError, ["int16", "int32, int64"]),
    (dict(data=[10, 20], indices=np.array([0], np.uint8)), gs.DTypeError, ["uint8"]),
    (dict(data=[10, 20], indices=[True]), gs.DTypeError, ["bool"]),
    (dict(data=[10, 20], indices=[0], opset=0), gs.UnsupportedError, ["opset 0"]),
    (dict(data=[10, 20], indices=[0], opset=29), gs.UnsupportedError, ["opset 29"]),
    (dict(data=np.array([1.0], np.longdouble), indices=[0]), gs.DTypeError, ["float128"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.onnx.Gather(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)
    assert isinstance(info.value, gs.GatherScatterError)


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.onnx.Gather(np.zeros((2, 3)), [[0, 1], [5, 0]], axis=1)
    assert info.value.value == 5 and info.value.position == (1, 0) and info.value.valid == (-3, 2)
    assert isinstance(info.value, IndexError)


@pytest.mark.parametrize("opset", OPSETS)
def test_every_opset_runs_and_names_version(opset):
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.onnx.Gather([1, 2], [2], opset=opset)
    expect = {1: "Gather-1", 9: "Gather-1", 11: "Gather-11", 12: "Gather-11", 13: "Gather-13"}.get(opset, "Gather-13")
    assert expect in str(info.value)


@st.composite
def gather_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    size = shape[axis]
    indices = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from([np.int32, np.int64]))))
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return data, indices, axis


@pytest.mark.parametrize("backend", BACKENDS)
@given(gather_inputs())
def test_property_matches_spec_loop(backend, args):
    with using_backend(backend):
        _property(args)


def _property(args):
    data, indices, axis = args
    try:
        expected = oracle.gather(data, indices, axis)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.Gather(data, indices, axis=axis)
        return
    out = gs.onnx.Gather(data, indices, axis=axis)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
