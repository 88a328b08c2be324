"""caffe2.Gather (final source): case table citing the source, error table, property test.

No framework comparison is possible: Caffe2 is no longer shipped (PyTorch 2.x
removed it). Every expected value below is typed by hand from the source of
pytorch/pytorch ``caffe2/operators/gather_op.h`` (commit 0ffa9372, the version with
``axis``/``wrap_indices``; ``match_outer`` from the final version kept in
klebs6/caffe2-rs) and the schema example of ``gather_op.cc``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import caffe2 as oracle
from tests.strategies import index_arrays, shapes

DATA = [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]

# (data, indices, kwargs, expected shape, expected values, source)
CASES = [
    pytest.param(DATA, [[0, 1], [1, 2]], {}, (2, 2, 2), [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]],
                 id="gather_op.cc-schema-example"),
    # GatherOp ctor: wrap_indices_ = (axis_ == 0) when the argument is absent
    pytest.param([10, 20, 30], [-1, 0], {}, (2,), [30, 10], id="ctor-axis-0-wraps-by-default"),
    pytest.param([10, 20, 30], [-3], {"axis": 0}, (1,), [10], id="wrap-once-most-negative"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [2, 0], {"axis": 1}, (2, 2), [[3, 1], [6, 4]], id="axis-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [-1], {"axis": 1, "wrap_indices": True}, (2, 1), [[3], [6]],
                 id="axis-1-wrap-given"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [2], {"axis": -1}, (2, 1), [[3], [6]], id="gather_impl-negative-axis"),
    pytest.param([10, 20, 30], 2, {}, (), 30, id="0d-indices-drop-axis"),
    # calc_output_shape_vector: data_dims[axis] == 0 -> output shape = data shape (pytorch/pytorch#13781)
    pytest.param(np.zeros((0, 3)), [[7, 8]], {}, (0, 3), [], id="empty-axis-shape-is-data-shape"),
    pytest.param(np.zeros((2, 0, 3)), [5], {"axis": 1}, (2, 0, 3), [[], []], id="empty-axis-1"),
    # gather_impl: output->size() == 0 -> return before check_indexarray_range
    pytest.param(np.zeros((3, 0)), [9, -9], {}, (2, 0), [[], []], id="empty-output-unchecked"),
    pytest.param(np.array(["a", "b", "c"]), [2, 0], {}, (2,), ["c", "a"], id="any-dtype-strings"),
    # match_outer (final source): INDICES shares DATA.shape[:axis]
    pytest.param([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], {"axis": 1, "match_outer": True}, (2, 2),
                 [[3, 1], [5, 5]], id="match_outer"),
]


@pytest.mark.parametrize(("data", "indices", "kwargs", "shape", "expected"), CASES)
def test_cases(data, indices, kwargs, shape, expected):
    out = gs.caffe2.Gather(data, indices, **kwargs)
    assert out.shape == shape
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


def test_int32_indices_and_inputs_untouched():
    d = np.arange(12, dtype=np.int16).reshape(3, 4)
    i = np.array([[2, 0]], np.int32)
    d0 = d.copy()
    out = gs.caffe2.Gather(d, i, axis=1)
    assert out.tolist() == [[[2, 0]], [[6, 4]], [[10, 8]]]
    assert not np.shares_memory(out, d)
    np.testing.assert_array_equal(d, d0)


ERRORS = [
    # check_indexarray_range: CAFFE_ENFORCE(0 <= idx && idx < indexing_axis_dim)
    (dict(data=[10, 20, 30], indices=[0, 3]), gs.IndexOutOfRangeError,
     ["caffe2.Gather", "final source", "INDICES[1] = 3", "[-3, 2]"]),
    (dict(data=[10, 20, 30], indices=[-4]), gs.IndexOutOfRangeError, ["INDICES[0] = -4"]),
    # wrap_indices defaults to false for axis != 0, and for axis=-r (the argument is not literally 0)
    (dict(data=[[1, 2, 3]], indices=[-1], axis=1), gs.IndexOutOfRangeError,
     ["INDICES[0] = -1", "wrap_indices=True", "[0, 2]"]),
    (dict(data=[10, 20, 30], indices=[-1], axis=-1), gs.IndexOutOfRangeError, ["INDICES[0] = -1", "wrap_indices"]),
    (dict(data=[10, 20, 30], indices=[-1], wrap_indices=False), gs.IndexOutOfRangeError, ["wrap_indices"]),
    (dict(data=np.zeros((3, 2)), indices=[[0, 5]], axis=1, match_outer=False), gs.IndexOutOfRangeError,
     ["INDICES[0, 1] = 5"]),
    # gather_impl: CAFFE_ENFORCE_GE(data.dim(), axis + 1) / axis >= 0
    (dict(data=[10, 20, 30], indices=[0], axis=1), gs.AxisError, ["axis 1", "[axis+1]-D"]),
    (dict(data=[10, 20, 30], indices=[0], axis=-2), gs.AxisError, ["axis -2"]),
    (dict(data=5.0, indices=[0]), gs.AxisError, ["0-d DATA"]),
    (dict(data=[1, 2], indices=[0], axis=0.0), gs.ArgumentError, ["axis must be an int"]),
    (dict(data=[1, 2], indices=[0], wrap_indices="yes"), gs.ArgumentError, ["wrap_indices must be a bool"]),
    # DispatchHelper<TensorTypes<int32_t, int64_t>> on INDICES
    (dict(data=[1, 2], indices=np.array([0], np.int16)), gs.DTypeError, ["INDICES dtype int16", "int32, int64"]),
    (dict(data=[1, 2], indices=[0.0]), gs.DTypeError, ["integer dtype"]),
    # match_outer: CAFFE_ENFORCE_GE(axis, 1) and equal outer dims
    (dict(data=[[1, 2]], indices=[[0]], match_outer=True), gs.AxisError, ["axis >= 1"]),
    (dict(data=[[1, 2], [3, 4]], indices=[[0]], axis=1, match_outer=True), gs.ShapeError, ["same outer dims"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.caffe2.Gather(**kwargs)
    assert isinstance(info.value, gs.GatherScatterError)
    for frag in fragments:
        assert frag in str(info.value), (frag, str(info.value))


def test_error_attributes():
    with pytest.raises(gs.IndexOutOfRangeError) as info:
        gs.caffe2.Gather(np.zeros((2, 3)), [[0, 1], [-1, 0]], axis=1)
    assert info.value.value == -1 and info.value.position == (1, 0) and info.value.valid == (0, 2)


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    wrap = draw(st.sampled_from([None, True, False]))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    index = draw(index_arrays(ishape, shape[axis], dtype=draw(st.sampled_from([np.int32, np.int64]))))
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape), index, axis, wrap


@given(inputs())
def test_property_matches_source_loop(args):
    data, indices, axis, wrap = args
    try:
        expected = oracle.gather(data, indices, axis, wrap)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.caffe2.Gather(data, indices, axis=axis, wrap_indices=wrap)
        return
    out = gs.caffe2.Gather(data, indices, axis=axis, wrap_indices=wrap)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


@st.composite
def outer_inputs(draw):
    shape = draw(shapes(min_dims=2, max_dims=3, min_side=1))
    axis = draw(st.integers(1, len(shape) - 1))
    inner = draw(shapes(min_dims=0, max_dims=1))
    index = draw(index_arrays(shape[:axis] + inner, shape[axis], dtype=np.int64))
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape), index, axis, draw(st.booleans())


@given(outer_inputs())
def test_property_match_outer(args):
    data, indices, axis, wrap = args
    try:
        expected = oracle.gather(data, indices, axis, wrap, match_outer=True)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.caffe2.Gather(data, indices, axis=axis, wrap_indices=wrap, match_outer=True)
        return
    out = gs.caffe2.Gather(data, indices, axis=axis, wrap_indices=wrap, match_outer=True)
    np.testing.assert_array_equal(out, expected)
    assert out.shape == expected.shape
