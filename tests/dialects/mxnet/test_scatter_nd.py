"""mxnet.scatter_nd (MXNet 1.9.1): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import mxnet as oracle
from tests.strategies import shapes

F = np.float32

CASES = [
    pytest.param([2, 3], [[1, 1], [0, 1]], (2, 2), [[0, 0], [2, 3]], id="mxnet-doc-1"),
    pytest.param([[1, 1], [2, 2]], [[0, 1], [1, 0]], (2, 2, 2), [[[0, 0], [1, 1]], [[2, 2], [0, 0]]],
                 id="mxnet-doc-2"),
    pytest.param([10, 20, 30], [[1, 1, 1]], (4,), [0, 30, 0, 0], id="bm-duplicates-last-wins"),
    pytest.param([9], [[0]], (3,), [9, 0, 0], id="bm-zeros-elsewhere"),
    pytest.param([[7, 8]], [[1]], (2, 2), [[0, 0], [7, 8]], id="bm-slice-update"),
    pytest.param(np.array([9, 8, 7], F), np.array([[1.5, 2.4, -0.5]], F), (3,), [7, 9, 8], id="floats-truncate"),
    pytest.param(np.array([True]), [[1]], (3,), [False, True, False], id="bool-data-false-elsewhere"),
    pytest.param([1.0, 2.0], np.array([[True, False]]), (3,), [2.0, 1.0, 0.0], id="bool-indices"),
    pytest.param([5.0], [[1]], 3, [0.0, 5.0, 0.0], id="int-shape"),
]


@pytest.mark.parametrize(("data", "indices", "shape", "expected"), CASES)
def test_cases(data, indices, shape, expected):
    out = gs.mxnet.scatter_nd(data, indices, shape)
    assert out.tolist() == expected and out.dtype == np.asarray(data).dtype


def test_equivalent_to_onnx_scatternd_on_zeros():
    # docs/semantics.md#e6 (duplicates unspecified on both sides: none here)
    idx = np.array([[2, 0, 1], [3, 1, 0]])
    upd = np.array([1.0, 2.0, 3.0])
    ref = gs.onnx.ScatterND(np.zeros((3, 4)), np.moveaxis(idx, 0, -1), upd)
    assert gs.mxnet.scatter_nd(upd, idx, (3, 4)).tolist() == ref.tolist()


ERRORS = [
    (dict(data=[9.0], indices=[[-1]], shape=(3,)), gs.IndexOutOfRangeError,
     ["mxnet.scatter_nd (MXNet 1.9.1)", "indices[0, 0] = -1", "negative", "crashes"]),
    (dict(data=[9.0], indices=[[3]], shape=(3,)), gs.IndexOutOfRangeError, ["indices[0, 0] = 3", "size 3"]),
    (dict(data=[9.0], indices=[[1], [4]], shape=(3, 4)), gs.IndexOutOfRangeError,
     ["indices[1, 0] = 4", "axis 1", "another row"]),
    (dict(data=[9.0], indices=np.array([[-1.5]], F), shape=(3,)), gs.IndexOutOfRangeError, ["-1.5"]),
    (dict(data=[9.0], indices=np.array([[np.nan]], F), shape=(3,)), gs.IndexOutOfRangeError, ["nan"]),
    (dict(data=[9.0], indices=[1], shape=(3,)), gs.ShapeError, ["at least 2 dimensions"]),
    (dict(data=[9.0], indices=[[1], [1]], shape=(3,)), gs.ShapeError, ["Number of indices exceeds output"]),
    (dict(data=[9.0, 8.0], indices=[[1]], shape=(3,)), gs.ShapeError,
     ["Invalid data, indices, and output shape combination", "[1]", "got data [2]"]),
    (dict(data=[9.0], indices=[[0]], shape=(0,)), gs.UnsupportedError, ["empty"]),
    (dict(data=[9.0], indices=[[0]], shape=()), gs.UnsupportedError, ["0-d"]),
    (dict(data=[9.0], indices=[[0]], shape=(-3,)), gs.ShapeError, ["negative"]),
    (dict(data=[9.0], indices=[[0]], shape="3"), gs.ArgumentError, ["shape must be a tuple of ints"]),
    (dict(data=np.zeros(1, np.complex64), indices=[[0]], shape=(3,)), gs.DTypeError, ["complex64"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.mxnet.scatter_nd(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def snd_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    m = draw(st.integers(1, len(shape)))
    ys = draw(shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    idt = draw(st.sampled_from([np.float32, np.int64, np.int32, np.uint8]))
    n = int(np.prod(ys))
    rows = []
    for j in range(m):
        vals = np.array(draw(st.lists(st.integers(-1, shape[j]), min_size=n, max_size=n)), np.float64)
        frac = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 0.9]), min_size=n, max_size=n)))
        rows.append((vals + frac if np.dtype(idt).kind == "f" else vals).reshape(ys))
    idx = np.stack(rows)
    if np.dtype(idt).kind == "u":
        idx = np.abs(idx)
    upd = np.arange(np.prod(ys + shape[m:]), dtype=np.float64).reshape(ys + shape[m:]) + 1
    return upd, idx.astype(idt), shape


@given(snd_inputs())
def test_property_matches_loop_oracle(args):
    upd, idx, shape = args
    try:
        expected = oracle.scatter_nd(upd, idx, shape)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.mxnet.scatter_nd(upd, idx, shape)
        return
    out = gs.mxnet.scatter_nd(upd, idx, shape)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


def test_shape_beyond_numpy_size_limit_is_a_shape_error():
    # found by the fuzzer: np.zeros(shape) raised a bare ValueError ("array is too big"). The data is a
    # zero-stride view of the matching shape (np.ones((1, 2**31)) took 16 GiB and 39 s for nothing)
    data = np.broadcast_to(np.ones(1), (1, 2**31))
    with pytest.raises(gs.ShapeError, match=r"mxnet.scatter_nd .*would need more than 2\*\*63 - 1 bytes"):
        gs.mxnet.scatter_nd(data, np.zeros((1, 1)), (2**32, 2**31))
    # a dim beyond int64 (was an OverflowError)
    with pytest.raises(gs.ShapeError, match=r"shape \[18446744073709551616\] of float64 would need"):
        gs.mxnet.scatter_nd(np.ones(1), np.zeros((1, 1)), (2**64,))
