"""mxnet.pick (MXNet 1.9.1): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import mxnet as oracle
from tests.strategies import shapes

F = np.float32
X = np.array([[1, 2], [3, 4], [5, 6]], F)

# the MXNet docstring examples and docs/behavior-matrix.md#t6-2 (mx.nd.pick) cells, measured on 1.9.1
CASES = [
    pytest.param(X, [0, 1], {"axis": 0}, [1, 4], id="mxnet-doc-axis-0"),
    pytest.param(X, [0, 1, 0], {"axis": 1}, [1, 4, 5], id="mxnet-doc-axis-1"),
    pytest.param(X, [1, 0, 2], {"axis": 1, "keepdims": True}, [[2], [3], [6]], id="mxnet-doc-keepdims"),
    pytest.param(X, [2, -1, -2], {"axis": 1, "mode": "wrap"}, [1, 4, 5], id="mxnet-doc-wrap"),
    pytest.param(X, [2, -1, -2], {"axis": 1}, [2, 3, 5], id="clip-default"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [-1]], {"axis": 1, "keepdims": True}, [[1], [4]], id="bm-clip-minus-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [-1]], {"axis": 1, "mode": "wrap", "keepdims": True}, [[1], [6]],
                 id="bm-wrap-minus-1"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [3]], {"axis": 1, "keepdims": True}, [[1], [6]], id="bm-clip-3"),
    pytest.param([[1, 2, 3], [4, 5, 6]], [[0], [3]], {"axis": 1, "mode": "wrap", "keepdims": True}, [[1], [4]],
                 id="bm-wrap-3"),
    pytest.param(X, np.array([[1], [0], [1]], F), {"axis": 1}, [2, 3, 6], id="index-with-kept-axis"),
    pytest.param(X, np.array([1.9, -1.5, 2.5], F), {"axis": 1}, [2, 3, 6], id="floats-truncate-clip"),
    pytest.param(X, np.array([-1.5, 2.5, 3.5], F), {"axis": 1, "mode": "wrap"}, [2, 3, 6], id="floats-truncate-wrap"),
    pytest.param([10.0, 20.0, 30.0], [2], {"axis": 0}, [30.0], id="1d-data-gives-shape-1"),
    pytest.param([[1.0, 2.0, 3.0]], [2], {"axis": 1, "keepdims": True}, [[3.0]], id="1-row"),
    pytest.param(np.arange(24, dtype=F).reshape(2, 3, 4), [[0, 1, 2, 0], [2, 2, 1, 0]], {"axis": 1},
                 [[0, 5, 10, 3], [20, 21, 18, 15]], id="3d-axis-1"),
    pytest.param(X, [0, 1], {"axis": -2}, [1, 4], id="negative-axis"),
    pytest.param(np.array([[1, 0], [0, 1]], np.int8), [1, 0], {"axis": 1}, [0, 0], id="int8-data"),
]


@pytest.mark.parametrize(("data", "index", "kwargs", "expected"), CASES)
def test_cases(data, index, kwargs, expected):
    out = gs.mxnet.pick(data, index, **kwargs)
    assert out.tolist() == expected and out.dtype == np.asarray(data).dtype


ERRORS = [
    (dict(data=X, index=[1, 0], axis=1), gs.ShapeError, ["mxnet.pick (MXNet 1.9.1)", "Provided = [2]", "[3]"]),
    (dict(data=X, index=[[1, 0], [0, 0], [1, 1]], axis=1), gs.ShapeError, ["Shape inconsistent"]),
    (dict(data=[10.0, 20.0], index=[1, 0], axis=0), gs.ShapeError, ["inferred shape=[1]"]),
    (dict(data=X, index=[0, 1, 0], axis=2), gs.AxisError, ["axis 2"]),
    (dict(data=X, index=[5], axis=None), gs.UnsupportedError, ["axis=None is not supported by pick"]),
    (dict(data=X, index=[0, 1, 0], axis=1, mode="raise"), gs.UnsupportedError, ["Invalid Input: 'raise'"]),
    (dict(data=X, index=[0, 1, 0], axis=1, keepdims=1), gs.ArgumentError, ["keepdims must be a bool"]),
    (dict(data=[10.0, 20.0, 30.0], index=np.array([2**32 + 1], np.int64), axis=0), gs.IndexOutOfRangeError,
     ["index[0] = 4294967297", "int32"]),
    (dict(data=[10.0, 20.0, 30.0], index=np.array([3e9], F), axis=0), gs.IndexOutOfRangeError, ["int32"]),
    (dict(data=X, index=np.array([np.nan, 0, 0], F), axis=1), gs.IndexOutOfRangeError, ["index[0] = nan"]),
    (dict(data=np.array([[True, False]]), index=[0], axis=1), gs.DTypeError, ["data dtype bool"]),
    (dict(data=X, index=np.array([1, 0, 1], bool), axis=1), gs.DTypeError, ["index dtype bool"]),
    (dict(data=np.zeros((2, 0), F), index=[0, 0], axis=1), gs.UnsupportedError, ["empty"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.mxnet.pick(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def pick_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    a = axis % len(shape)
    s = shape[a]
    kept = draw(st.booleans())
    ishape = (shape[:a] + (1,) + shape[a + 1 :]) if kept else ((shape[:a] + shape[a + 1 :]) or (1,))
    n = int(np.prod(ishape))
    vals = np.array(draw(st.lists(st.integers(-2 * s - 2, 2 * s + 2), min_size=n, max_size=n)), np.float64)
    frac = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 0.75]), min_size=n, max_size=n)))
    idt = draw(st.sampled_from([np.float32, np.int32, np.int64, np.int8]))
    idx = (vals + np.sign(vals) * frac if np.dtype(idt).kind == "f" else vals).reshape(ishape).astype(idt)
    kw = {"axis": axis, "mode": draw(st.sampled_from(["clip", "wrap"])), "keepdims": draw(st.booleans())}
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape), idx, kw


@given(pick_inputs())
def test_property_matches_loop_oracle(args):
    data, idx, kw = args
    expected = oracle.pick(data, idx, **kw)
    out = gs.mxnet.pick(data, idx, **kw)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
