"""mxnet.gather_nd (MXNet 1.9.1): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import mxnet as oracle
from tests.strategies import shapes

F = np.float32
D = np.arange(12, dtype=F).reshape(3, 4)
V = np.array([10, 20, 30], F)

CASES = [
    pytest.param([[0, 1], [2, 3]], [[1, 1, 0], [0, 1, 0]], [2, 3, 0], id="mxnet-doc-1"),
    pytest.param([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[0, 1], [1, 0]], [[3, 4], [5, 6]], id="mxnet-doc-2"),
    pytest.param(D, [[1, 0], [2, 3]], [6, 3], id="semantics-4.1-first-axis-layout"),
    pytest.param(D, [[1, 2]], [[4, 5, 6, 7], [8, 9, 10, 11]], id="partial-tuples-slices"),
    pytest.param(D, [[-1, 0], [0, -4]], [8, 0], id="bm-negative-wraps"),
    pytest.param(np.arange(24, dtype=F).reshape(2, 3, 4), [[[1, 0], [0, 1]], [[2, 0], [1, 1]]],
                 [[[20, 21, 22, 23], [0, 1, 2, 3]], [[4, 5, 6, 7], [16, 17, 18, 19]]], id="2d-tuple-grid"),
    pytest.param(V, np.array([[0.6, 1.5, 1.99, 2.0]], F), [10, 20, 20, 30], id="bm-6.10-floats-truncate"),
    pytest.param(V, np.array([[-0.5, -1.5, -2.5, -3.0, -2.99]], F), [30, 20, 10, 10, 10], id="negative-floats-shift"),
    pytest.param(V, np.array([[-1e-8]], F), [10], id="float32-rounding-of-x-plus-s"),
    pytest.param(np.arange(3000, dtype=F), np.array([[-0.0001, -1.5]], np.float16), [0, 2998], id="float16-sum"),
    pytest.param(np.array([[True, False]]), [[0], [1]], [False], id="bool-data"),
]


@pytest.mark.parametrize(("data", "indices", "expected"), CASES)
def test_cases(data, indices, expected):
    out = gs.mxnet.gather_nd(data, indices)
    assert out.tolist() == expected and out.dtype == np.asarray(data).dtype


def test_equivalent_to_onnx_gathernd_with_moved_axis():
    # docs/semantics.md#e6: MXNet gather_nd(D, I) = ONNX GatherND(D, moveaxis(I, 0, -1))
    idx = np.array([[2, 0, -1], [3, 1, 0]])
    assert gs.mxnet.gather_nd(D, idx).tolist() == gs.onnx.GatherND(D, np.moveaxis(idx, 0, -1)).tolist()


ERRORS = [
    (dict(data=V, indices=[[0.6, 1.5, 2.4]]), ["mxnet.gather_nd (MXNet 1.9.1)", "indices[0, 2] = 2.4",
                                               "out of bounds for axis 0 with size 3"], gs.IndexOutOfRangeError),
    (dict(data=V, indices=[[-3.5]]), ["-3.5"], gs.IndexOutOfRangeError),
    (dict(data=D, indices=[[3], [0]]), ["indices[0, 0] = 3", "axis 0", "[-3, 2]"], gs.IndexOutOfRangeError),
    (dict(data=D, indices=[[0], [4]]), ["indices[1, 0] = 4", "axis 1 with size 4"], gs.IndexOutOfRangeError),
    (dict(data=D, indices=[[0, 5, 5], [7, 0, 0]]), ["indices[0, 2] = 5"], gs.IndexOutOfRangeError),
    (dict(data=V, indices=np.array([[np.nan]], F)), ["nan", "not a finite number"], gs.IndexOutOfRangeError),
    (dict(data=V, indices=np.array([[np.inf]], F)), ["inf", "out of bounds"], gs.IndexOutOfRangeError),
    (dict(data=D, indices=[1, 2]), ["at least 2 dimensions"], gs.ShapeError),
    (dict(data=D, indices=[[1], [2], [0]]), ["Number of indices exceeds data dimension", "3 > rank(data) = 2"],
     gs.ShapeError),
    (dict(data=D, indices=np.array([[1]], bool)), ["indices dtype bool"], gs.DTypeError),
    (dict(data=D, indices=np.zeros((2, 0), F)), ["empty"], gs.UnsupportedError),
    (dict(data=np.zeros(3, np.int16), indices=[[0]]), ["int16"], gs.DTypeError),
]


@pytest.mark.parametrize(("kwargs", "fragments", "cls"), ERRORS)
def test_errors(kwargs, fragments, cls):
    with pytest.raises(cls) as info:
        gs.mxnet.gather_nd(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def gnd_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    m = draw(st.integers(1, len(shape)))
    ys = draw(shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    idt = draw(st.sampled_from([np.float32, np.float64, np.int64, np.int32, np.int8, np.float16]))
    rows = []
    for j in range(m):
        s = shape[j]
        n = int(np.prod(ys))
        vals = np.array(draw(st.lists(st.integers(-s - 1, s), min_size=n, max_size=n)), np.float64)
        frac = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, -0.5, 0.25]), min_size=n, max_size=n)))
        rows.append((vals + frac if np.dtype(idt).kind == "f" else vals).reshape(ys))
    idx = np.stack(rows).astype(idt)
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape), idx


@given(gnd_inputs())
def test_property_matches_loop_oracle(args):
    data, idx = args
    try:
        expected = oracle.gather_nd(data, idx)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.mxnet.gather_nd(data, idx)
        return
    out = gs.mxnet.gather_nd(data, idx)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
