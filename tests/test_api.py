"""The neutral API: case tables, error tables and properties against plain loops."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.strategies import index_arrays, shapes

TAKE_CASES = [
    (dict(data=[[1, 2, 3], [4, 5, 6]], indices=[2, 0], axis=1), [[3, 1], [6, 4]]),
    (dict(data=[[1, 2, 3], [4, 5, 6]], indices=[5, 0], axis=None), [6, 1]),
    (dict(data=[10, 20, 30], indices=[0, 5], bounds="fill", fill_value=-1), [10, -1]),
    (dict(data=[10, 20, 30], indices=[-1, 5], bounds="clip", negative="bounds"), [10, 30]),
    (dict(data=[10, 20, 30], indices=[-1, 5], bounds="wrap"), [30, 30]),
    # TF doc example: batch_dims=1, axis=1
    (dict(data=[[0, 0, 1, 0, 2], [3, 0, 0, 0, 4], [0, 5, 0, 6, 0]], indices=[[2, 4], [0, 4], [1, 3]], axis=1,
          batch_dims=1), [[1, 2], [3, 4], [5, 6]]),
]


@pytest.mark.parametrize(("kw", "expected"), TAKE_CASES)
def test_take(kw, expected):
    assert gs.take(**kw).tolist() == expected


def test_take_along_axis_and_broadcast():
    assert gs.take_along_axis([[10, 30, 20], [60, 40, 50]], [[1], [0]], axis=1).tolist() == [[30], [60]]
    d = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert gs.take_along_axis(d, [[2, 0]], axis=1, broadcast=True).tolist() == [[3, 1], [6, 4], [9, 7]]
    assert gs.take_along_axis(d, [[2, 0]], axis=1).tolist() == [[3, 1]]


def test_gather_nd_layouts():
    assert gs.gather_nd([[1, 2], [3, 4]], [[1, 1], [0, 1]]).tolist() == [4, 2]
    assert gs.gather_nd([[1, 2], [3, 4]], [[1, 1], [0, 1]], index_axis=0).tolist() == [3, 4]
    # MXNet example (semantics docs/semantics.md#s4-1): tuples (1,2),(0,3) on the first axis -> [6, 3]
    assert gs.gather_nd(np.arange(12).reshape(3, 4), [[1, 0], [2, 3]], index_axis=0).tolist() == [6, 3]
    # k = 0 selects whole slices (TF, Paddle)
    assert gs.gather_nd([[1, 2]], np.zeros((2, 0), np.int64)).tolist() == [[[1, 2]], [[1, 2]]]


def test_scatter_along_axis_cases():
    assert gs.scatter_along_axis([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0,
                                 reduction="mean").tolist() == [1, 3, 4, 4]
    assert gs.scatter_along_axis([[0, 0], [0, 0]], [[1, 0]], [[5, 6]], 1, broadcast=True).tolist() == [[6, 5], [6, 5]]
    assert gs.scatter_along_axis([0, 0, 0], [0, 7], [1, 2], 0, bounds="drop").tolist() == [1, 0, 0]


def test_scatter_nd_cases():
    assert gs.scatter_nd([0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30], reduction="add").tolist() == [0, 30, 0, 30]
    assert gs.scatter_nd([0, 0, 0, 0], [[1], [1], [3]], [10, 20, 30], duplicates="first").tolist() == [0, 10, 0, 30]
    # index tuples on the first axis (MXNet layout): [[1, 0]] holds the two 1-tuples (1,) and (0,)
    assert gs.scatter_nd([[0, 0], [0, 0]], [[1, 0]], [[5, 6], [7, 8]], index_axis=0).tolist() == [[7, 8], [5, 6]]
    out = gs.scatter_nd(np.zeros((2, 3)), [[[2]], [[0]]], [[7.0], [8.0]], batch_dims=1)
    assert out.tolist() == [[0, 0, 7], [8, 0, 0]]


ERRORS = [
    (gs.take, dict(data=[1, 2], indices=[2]), gs.IndexOutOfRangeError, ["gatherscatter.take", "indices[0] = 2"]),
    (gs.take, dict(data=[1, 2], indices=[0], bounds="nope"), gs.UnsupportedError, ["unknown bounds policy 'nope'"]),
    (gs.take, dict(data=[1, 2], indices=[0], negative="clip"), gs.UnsupportedError, ["negative-index policy"]),
    (gs.take, dict(data=[[1, 2]], indices=[[0]], axis=0, batch_dims=1), gs.AxisError, ["batch_dims"]),
    (gs.take, dict(data=[1, 2], indices=[-1], negative="raise"), gs.IndexOutOfRangeError, ["negative"]),
    (gs.take_along_axis, dict(data=[[1, 2]], indices=[0], axis=0), gs.ShapeError, ["rank of data"]),
    (gs.take_along_axis, dict(data=[[1, 2], [3, 4]], indices=[[0], [0], [0]], axis=1, broadcast=True), gs.ShapeError,
     ["do not broadcast"]),
    (gs.gather_nd, dict(data=[1, 2], indices=[[0, 0]]), gs.ShapeError, ["rank >= 2"]),
    (gs.gather_nd, dict(data=[1, 2], indices=[[[0]]], index_axis=1), gs.AxisError, ["index_axis"]),
    (gs.scatter_nd, dict(data=[1, 2], indices=[[0]], updates=[1], reduction="avg"), gs.UnsupportedError,
     ["unknown reduction 'avg'"]),
    (gs.scatter_nd, dict(data=[1, 2], indices=[[0], [0]], updates=[1, 2], duplicates="raise"),
     gs.DuplicateIndexError, ["indices[0] and indices[1]"]),
    (gs.scatter_along_axis, dict(data=[1, 2], indices=[0], updates=[1, 2], axis=0), gs.ShapeError, ["shape of indices"]),
]


@pytest.mark.parametrize(("fn", "kw", "cls", "fragments"), ERRORS)
def test_errors(fn, kw, cls, fragments):
    with pytest.raises(cls) as info:
        fn(**kw)
    for frag in fragments:
        assert frag in str(info.value)


def _loop_take(data, indices, axis, bounds):
    s = data.shape[axis]
    out = np.empty(data.shape[:axis] + indices.shape + data.shape[axis + 1 :], data.dtype)
    for pos in np.ndindex(*out.shape):
        i = pos[axis : axis + indices.ndim]
        k = int(indices[i])
        if bounds == "wrap":
            k %= s
        elif bounds == "clip":
            k = min(max(k + s if -s <= k < 0 else k, 0), s - 1)
        out[pos] = data[pos[:axis] + (k,) + pos[axis + indices.ndim :]]
    return out


@given(st.data())
def test_take_property(draw):
    shape = draw.draw(shapes(min_dims=1, max_dims=3, min_side=1))
    axis = draw.draw(st.integers(0, len(shape) - 1))
    idx = draw.draw(index_arrays(draw.draw(shapes(min_dims=0, max_dims=2)), shape[axis]))
    bounds = draw.draw(st.sampled_from(["wrap", "clip"]))
    data = np.arange(int(np.prod(shape))).reshape(shape)
    np.testing.assert_array_equal(gs.take(data, idx, axis=axis, bounds=bounds), _loop_take(data, idx, axis, bounds))
