"""caffe2.BatchGather (final source): case table citing the source, error table, property test.

No framework comparison is possible (Caffe2 is no longer shipped). Expected
values come from pytorch/pytorch ``caffe2/operators/batch_gather_ops.cc`` (schema
example) and ``batch_gather_ops.h`` (commit 281c8985: ``gather_impl(..., axis=1,
wrap_indices=false)``), typed by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import caffe2 as oracle
from tests.strategies import index_arrays, shapes

DATA = [[1.0, 1.2, 2.4, 4.5], [2.3, 3.4, 3.6, 2.3], [4.5, 5.7, 1.2, 4.5]]

CASES = [
    pytest.param(DATA, [0, 2], {}, [[1.0, 2.4], [2.3, 3.6], [4.5, 1.2]], id="batch_gather_ops.cc-schema-example"),
    pytest.param(DATA, [[3], [3]], {}, [[[4.5], [4.5]], [[2.3], [2.3]], [[4.5], [4.5]]], id="2d-indices"),
    pytest.param(np.arange(12).reshape(2, 3, 2), 1, {}, [[2, 3], [8, 9]], id="0d-index-drops-axis-1"),
    pytest.param(np.arange(6).reshape(2, 3), [[2, 0], [1, 1]], {"match_outer": True}, [[2, 0], [4, 4]],
                 id="match_outer-per-row"),
]


@pytest.mark.parametrize(("data", "indices", "kwargs", "expected"), CASES)
def test_cases(data, indices, kwargs, expected):
    out = gs.caffe2.BatchGather(data, indices, **kwargs)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


def test_empty_axis_and_empty_output():
    # calc_output_shape_vector(axis=1): DATA.shape[1] == 0 -> the shape of DATA
    assert gs.caffe2.BatchGather(np.zeros((4, 0, 2)), [[1, 2, 3]]).shape == (4, 0, 2)
    # empty output (batch of 0): returns before any index check
    assert gs.caffe2.BatchGather(np.zeros((0, 3)), [7]).shape == (0, 1)


ERRORS = [
    (dict(data=DATA, indices=[4]), gs.IndexOutOfRangeError, ["caffe2.BatchGather", "INDICES[0] = 4", "axis 1"]),
    # wrap_indices is false: a negative index raises
    (dict(data=DATA, indices=[0, -1]), gs.IndexOutOfRangeError, ["INDICES[1] = -1", "[0, 3]"]),
    (dict(data=[1.0, 2.0], indices=[0]), gs.ShapeError, ["at least 2-D"]),
    (dict(data=DATA, indices=np.array([0], np.uint8)), gs.DTypeError, ["INDICES dtype uint8"]),
    (dict(data=DATA, indices=[[0]], match_outer=True), gs.ShapeError, ["same outer dims"]),
    (dict(data=DATA, indices=[0], match_outer=None), gs.ArgumentError, ["match_outer"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.caffe2.BatchGather(**kwargs)
    for frag in fragments:
        assert frag in str(info.value), (frag, str(info.value))


@st.composite
def inputs(draw):
    shape = draw(shapes(min_dims=2, max_dims=4))
    index = draw(index_arrays(draw(shapes(min_dims=0, max_dims=2)), shape[1]))
    return np.arange(np.prod(shape), dtype=np.int32).reshape(shape), index


@given(inputs())
def test_property_matches_source_loop(args):
    data, indices = args
    try:
        expected = oracle.batch_gather(data, indices)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.caffe2.BatchGather(data, indices)
        return
    out = gs.caffe2.BatchGather(data, indices)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


def test_registry_and_surface():
    assert gs.caffe2.__all__ == sorted(gs.caffe2.__all__)
    assert sorted(op.info.name for op in gs.ops("caffe2")) == ["BatchGather", "Gather"]
    assert any(d.op == "caffe2.Gather" for d in gs.divergences())
    for op in (gs.caffe2.Gather, gs.caffe2.BatchGather):
        assert "Equivalent loop" in op.__doc__ and "Differs from" in op.__doc__
