"""gs.jax.take_along_axis: hand-computed cases, errors, and a property against the loop oracle."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests import strategies as gst
from tests.oracles import jax as oracle

from .helpers import assert_same

NAN = np.nan
X23 = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
V = np.array([10.0, 20.0, 30.0])
G = np.array([[1.0, 2.0], [3.0, 4.0]])

CASES = [
    # jnp.take_along_axis docstring examples
    ("doc: axis=1", X23, [[0, 2], [1, 0]], 1, {}, np.array([[1.0, 3.0], [5.0, 4.0]])),
    ("doc: fill NaN", X23, [[1, 0, 2]], 0, {}, np.array([[4.0, 2.0, NAN]])),
    ("doc: argsort", np.array([[5, 3, 4], [2, 7, 6]]), [[1, 2, 0], [0, 2, 1]], 1, {}, np.array([[3, 4, 5], [2, 6, 7]])),
    # docs/behavior-matrix.md#t6-2: data [[1,2],[3,4]]-style and [[1,2,3],[4,5,6]]
    ("matrix default axis example", G, [[0, 0], [1, 0]], -1, {}, np.array([[1.0, 1.0], [4.0, 3.0]])),
    ("neg default", M, [[0], [-1]], 1, {}, np.array([[1.0], [6.0]])),
    ("neg fill", M, [[0], [-1]], 1, {"mode": "fill"}, np.array([[1.0], [6.0]])),
    ("neg clip wraps first", M, [[0], [-1]], 1, {"mode": "clip"}, np.array([[1.0], [6.0]])),
    ("neg promise_in_bounds clamps to 0", M, [[0], [-1]], 1, {"mode": "promise_in_bounds"}, np.array([[1.0], [4.0]])),
    ("oob 3 default", M, [[0], [3]], 1, {}, np.array([[1.0], [NAN]])),
    ("oob 3 clip", M, [[0], [3]], 1, {"mode": "clip"}, np.array([[1.0], [6.0]])),
    ("oob 3 promise", M, [[0], [3]], 1, {"mode": "promise_in_bounds"}, np.array([[1.0], [6.0]])),
    ("oob -4 default", M, [[0], [-4]], 1, {}, np.array([[1.0], [NAN]])),
    ("oob -4 clip", M, [[0], [-4]], 1, {"mode": "clip"}, np.array([[1.0], [4.0]])),
    ("oob -4 promise", M, [[0], [-4]], 1, {"mode": "promise_in_bounds"}, np.array([[1.0], [4.0]])),
    ("drop is fill", V, [0, 5], 0, {"mode": "drop"}, np.array([10.0, NAN])),
    ("GatherScatterMode enum", V, [5], 0, {"mode": gs.jax.lax.GatherScatterMode.CLIP}, np.array([30.0])),
    (
        "enum PROMISE wraps (legacy rule compares strings)",
        V,
        [-1],
        0,
        {"mode": gs.jax.lax.GatherScatterMode.PROMISE_IN_BOUNDS},
        np.array([30.0]),
    ),
    (
        "broadcast 1x2 index over 3 rows",
        np.arange(1.0, 10.0).reshape(3, 3),
        [[2, 0]],
        1,
        {},
        np.array([[3.0, 1.0], [6.0, 4.0], [9.0, 7.0]]),
    ),
    (
        "broadcast data 1x3 over 3 index rows",
        np.array([[0.0, 1.0, 2.0]]),
        [[2], [0], [1]],
        1,
        {},
        np.array([[2.0], [0.0], [1.0]]),
    ),
    ("axis=None flattens", np.arange(6.0).reshape(2, 3), [5, 0, -1, 6], None, {}, np.array([5.0, 0.0, 5.0, NAN])),
    ("0-d data, axis=None", np.float64(1.0), [0, 1], None, {}, np.array([1.0, NAN])),
    ("empty axis gives zeros", np.zeros((2, 0)), [[1], [5]], 1, {}, np.zeros((2, 1))),
    ("empty axis gives int zeros", np.zeros((2, 0), np.int32), [[1], [5]], 1, {}, np.zeros((2, 1), np.int32)),
    ("empty indices", np.ones((2, 3)), np.zeros((2, 0), np.int64), 1, {}, np.ones((2, 0))),
    ("empty other dim", np.ones((0, 3)), np.zeros((1, 2), np.int64), 1, {}, np.ones((0, 2))),
    ("fill_value", V, [5], 0, {"fill_value": -7}, np.array([-7.0])),
    ("fill_value ignored by clip", V, [5], 0, {"mode": "clip", "fill_value": -7}, np.array([30.0])),
    ("int32 fill", V.astype(np.int32), [0, 3], 0, {}, np.array([10, -(2**31)], np.int32)),
    ("bool fill", np.array([False, False]), [0, 3], 0, {}, np.array([False, True])),
    ("int8 index -1 on 300", np.arange(300.0), np.array([-1], np.int8), 0, {}, np.array([299.0])),
    (
        "int8 index -1 on 300 promise",
        np.arange(300.0),
        np.array([-1], np.int8),
        0,
        {"mode": "promise_in_bounds"},
        np.array([0.0]),
    ),
    (
        "wrap_negative_indices=True with promise",
        V,
        [-1, 5, -4],
        0,
        {"mode": "promise_in_bounds", "wrap_negative_indices": True},
        np.array([30.0, 30.0, 10.0]),
    ),
    (
        "wrap_negative_indices=False with fill",
        V,
        [-1, 5, 1],
        0,
        {"mode": "fill", "wrap_negative_indices": False},
        np.array([NAN, NAN, 20.0]),
    ),
    (
        "wrap_negative_indices=False with clip",
        V,
        [-1, 5, 1],
        0,
        {"mode": "clip", "wrap_negative_indices": False},
        np.array([10.0, 30.0, 20.0]),
    ),
    ("uint64 huge index fills", V, np.array([2**64 - 1, 1], np.uint64), 0, {}, np.array([NAN, 20.0])),
]


@pytest.mark.parametrize(("name", "arr", "indices", "axis", "kw", "want"), CASES, ids=[c[0] for c in CASES])
def test_cases(name: str, arr: Any, indices: Any, axis: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(gs.jax.take_along_axis(arr, indices, axis, **kw), want)


ERRORS = [
    ("bool indices", V, np.array([True]), 0, {}, gs.DTypeError, "integer type, got bool"),
    ("float indices", V, np.array([1.0]), 0, {}, gs.DTypeError, "integer type"),
    ("wrap mode", V, [0], 0, {"mode": "wrap"}, gs.UnsupportedError, 'Unknown gather mode "wrap"'),
    ("raise mode", V, [0], 0, {"mode": "raise"}, gs.UnsupportedError, 'Unknown gather mode "raise"'),
    ("one_hot", V, [0], 0, {"mode": "one_hot"}, gs.UnsupportedError, "one_hot"),
    ("rank mismatch", M, [0], 1, {}, gs.ShapeError, "same number of dimensions; 1 vs. 2"),
    ("axis None with 2-d indices", M, [[0], [2]], None, {}, gs.ShapeError, "1D if axis=None"),
    ("no broadcast (2x1 vs 3x3)", np.zeros((3, 3)), [[2], [0]], 1, {}, gs.ShapeError, "broadcasting"),
    ("0-size index vs data", np.ones((2, 3)), np.zeros((0, 2), np.int64), 1, {}, gs.ShapeError, "broadcasting"),
    ("0-d data with an axis", np.float64(1.0), np.int64(0), 0, {}, gs.AxisError, "0-d"),
    ("axis out of range", M, [[0]], 2, {}, gs.AxisError, "axis 2"),
    ("string data", np.array(["a"]), [0], 0, {}, gs.DTypeError, "dtype str"),
]


@pytest.mark.parametrize(("name", "arr", "indices", "axis", "kw", "err", "frag"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name: str, arr: Any, indices: Any, axis: Any, kw: dict[str, Any], err: type, frag: str) -> None:
    with pytest.raises(err, match=r"jax.numpy.take_along_axis \(jax 0.10\)") as info:
        gs.jax.take_along_axis(arr, indices, axis, **kw)
    assert frag in str(info.value)


@st.composite
def tala_inputs(draw: Any) -> tuple[Any, ...]:
    shape = draw(gst.shapes(min_dims=1, max_dims=3, max_side=3))
    axis = draw(gst.axes(len(shape)))
    a = axis % len(shape)
    # indices: same rank, broadcast-compatible (each non-axis dim: equal or 1; data dims may be 1 too)
    ishape = []
    dshape = list(shape)
    for d, n in enumerate(shape):
        if d == a:
            ishape.append(draw(st.integers(0, 3)))
        else:
            choice = draw(st.sampled_from(["same", "idx1", "data1"]))
            ishape.append(1 if choice == "idx1" else n)
            if choice == "data1":
                dshape[d] = 1
    arr = draw(gst.data_arrays(tuple(dshape)))
    idx = draw(gst.index_arrays(tuple(ishape), dshape[a], dtype=draw(st.sampled_from(gst.INDEX_DTYPES))))
    mode = draw(st.sampled_from([None, "fill", "clip", "promise_in_bounds"]))
    wrap = draw(st.sampled_from([None, True, False]))
    return arr, idx, axis, mode, wrap


@given(tala_inputs())
def test_property_matches_oracle(args: tuple[Any, ...]) -> None:
    arr, idx, axis, mode, wrap = args
    want = oracle.take_along_axis(arr, idx, axis, mode=mode, wrap_negative_indices=wrap)
    assert_same(gs.jax.take_along_axis(arr, idx, axis, mode=mode, wrap_negative_indices=wrap), want)
