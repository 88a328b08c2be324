"""gs.jax.take: hand-computed cases, errors, and a property against the loop oracle."""

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
V = np.array([10.0, 20.0, 30.0])
VI = np.array([10, 20, 30], np.int32)

CASES = [
    # jnp.take docstring examples
    ("doc: axis=None flattens", X23, [2, 0], {}, np.array([3.0, 1.0])),
    ("doc: axis=1", X23, [2, 0], {"axis": 1}, np.array([[3.0, 1.0], [6.0, 4.0]])),
    ("doc: axis=0 fills NaN", X23, [2, 0], {"axis": 0}, np.array([[NAN, NAN, NAN], [1.0, 2.0, 3.0]])),
    ("doc: clip", X23, [2, 0], {"axis": 0, "mode": "clip"}, np.array([[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]])),
    # docs/behavior-matrix.md#t6-1, negative index [0, -1]
    ("neg default", V, [0, -1], {}, np.array([10.0, 30.0])),
    ("neg fill", V, [0, -1], {"mode": "fill"}, np.array([10.0, 30.0])),
    ("neg clip does not wrap", V, [0, -1], {"mode": "clip"}, np.array([10.0, 10.0])),
    ("neg wrap", V, [0, -1], {"mode": "wrap"}, np.array([10.0, 30.0])),
    # out of bounds [0, 3] and [0, -4]
    ("oob 3 default", V, [0, 3], {}, np.array([10.0, NAN])),
    ("oob 3 clip", V, [0, 3], {"mode": "clip"}, np.array([10.0, 30.0])),
    ("oob 3 wrap", V, [0, 3], {"mode": "wrap"}, np.array([10.0, 10.0])),
    ("oob -4 default", V, [0, -4], {}, np.array([10.0, NAN])),
    ("oob -4 clip", V, [0, -4], {"mode": "clip"}, np.array([10.0, 10.0])),
    ("oob -4 wrap", V, [0, -4], {"mode": "wrap"}, np.array([10.0, 30.0])),
    # per-dtype fill values (docs/behavior-matrix.md#t6-10)
    ("int32 fill", VI, [0, 3], {}, np.array([10, -2147483648], np.int32)),
    ("uint8 fill", VI.astype(np.uint8), [0, 3], {}, np.array([10, 255], np.uint8)),
    ("bool fill", np.array([True, False, True]), [0, 3], {}, np.array([True, True])),
    ("int64 fill", VI.astype(np.int64), [1, 5], {}, np.array([20, -(2**63)], np.int64)),
    ("uint16 fill", VI.astype(np.uint16), [1, 5], {}, np.array([20, 65535], np.uint16)),
    ("float16 fill", VI.astype(np.float16), [1, 5], {}, np.array([20, NAN], np.float16)),
    ("complex64 fill", VI.astype(np.complex64), [1, 5], {}, np.array([20, complex(NAN, 0)], np.complex64)),
    ("fill_value", VI, [1, 9], {"fill_value": 0}, np.array([20, 0], np.int32)),
    ("fill_value 1.5 into int", VI, [9], {"fill_value": 1.5}, np.array([1], np.int32)),
    ("fill_value 300 into uint8", VI.astype(np.uint8), [9], {"fill_value": 300}, np.array([44], np.uint8)),
    ("fill_value ignored by clip", V, [5], {"mode": "clip", "fill_value": -1}, np.array([30.0])),
    # shapes
    ("default axis flattens", np.array([[1, 2], [3, 4], [5, 6]]), [1], {}, np.array([2])),
    ("0-d index drops the axis", np.array([[1, 2], [3, 4], [5, 6]]), np.int64(1), {"axis": 0}, np.array([3, 4])),
    ("0-d oob index", V, np.int64(5), {}, np.array(NAN)),
    ("negative axis", X23, [0, 0], {"axis": -1}, np.array([[1.0, 1.0], [4.0, 4.0]])),
    ("empty indices", np.ones((3, 2)), np.zeros((0,), np.int64), {"axis": 0}, np.ones((0, 2))),
    ("empty 2-d indices", np.ones((3, 2)), np.zeros((2, 0), np.int64), {"axis": 0}, np.ones((2, 0, 2))),
    (
        "empty axis returns a (JAX shortcut)",
        np.zeros((3, 0)),
        np.zeros((2, 0), np.int64),
        {"axis": 1},
        np.zeros((3, 0)),
    ),
    ("0-d data, axis None", np.float64(3.0), [0, 1], {}, np.array([3.0, NAN])),
    ("bool indices are 0/1 in fill mode", V, np.array([True, False]), {}, np.array([20.0, 10.0])),
    ("uint64 huge index fills", V, np.array([2**64 - 1], np.uint64), {}, np.array([NAN])),
    ("uint64 huge index clips", V, np.array([2**64 - 1], np.uint64), {"mode": "clip"}, np.array([30.0])),
    ("uint64 huge index wraps", V, np.array([2**64 - 1], np.uint64), {"mode": "wrap"}, np.array([10.0])),
    ("int8 index -1 on 300 wraps exactly", np.arange(300.0), np.array([-1], np.int8), {}, np.array([299.0])),
    ("duplicates", V, [1, 1, 1], {}, np.array([20.0, 20.0, 20.0])),
]


@pytest.mark.parametrize(("name", "a", "indices", "kw", "want"), CASES, ids=[c[0] for c in CASES])
def test_cases(name: str, a: Any, indices: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(gs.jax.take(a, indices, **kw), want)


def test_does_not_modify_or_alias() -> None:
    a = np.array([1.0, 2.0, 3.0])
    out = gs.jax.take(a, [0, 1, 2])
    out[0] = 99.0
    assert a.tolist() == [1.0, 2.0, 3.0]
    e = np.zeros((3, 0))
    assert not np.shares_memory(gs.jax.take(e, np.zeros(0, np.int64), axis=1), e)


ERRORS = [
    ("raise mode", V, [0], {"mode": "raise"}, gs.UnsupportedError, "'raise' mode"),
    ("unknown mode", V, [0], {"mode": "bogus"}, gs.UnsupportedError, "invalid mode 'bogus'"),
    ("drop is not a take mode", V, [0], {"mode": "drop"}, gs.UnsupportedError, "invalid mode 'drop'"),
    ("float indices", V, np.array([1.0]), {}, gs.DTypeError, "integer type"),
    ("bool indices with clip", V, np.array([True]), {"mode": "clip"}, gs.DTypeError, "mode='clip'"),
    ("bool indices with wrap", V, np.array([True]), {"mode": "wrap"}, gs.DTypeError, "got bool"),
    ("axis out of range", V, [0], {"axis": 1}, gs.AxisError, "axis 1"),
    ("axis of a 0-d array", np.float64(1.0), [0], {"axis": 0}, gs.AxisError, "0-d"),
    ("float axis", V, [0], {"axis": 0.0}, gs.ArgumentError, "axis must be an int"),
    ("non-empty take from empty axis", np.zeros((3, 0)), [0], {"axis": 1}, gs.IndexOutOfRangeError, "empty axis"),
    ("string data", np.array(["a", "b"]), [0], {}, gs.DTypeError, "a dtype str"),
    ("complex fill_value for float data", V, [5], {"fill_value": 1j}, gs.DTypeError, "complex"),
    ("array fill_value", V, [5], {"fill_value": [1.0, 2.0]}, gs.ArgumentError, "scalar"),
]


@pytest.mark.parametrize(("name", "a", "indices", "kw", "err", "frag"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name: str, a: Any, indices: Any, kw: dict[str, Any], err: type, frag: str) -> None:
    with pytest.raises(err, match=r"jax.numpy.take \(jax 0.10\)") as info:
        gs.jax.take(a, indices, **kw)
    assert frag in str(info.value)


@st.composite
def take_inputs(draw: Any) -> tuple[Any, ...]:
    shape = draw(gst.shapes(min_dims=0, max_dims=3, max_side=3))
    axis = draw(st.none() | (gst.axes(len(shape)) if shape else st.none()))
    size = int(np.prod(shape)) if axis is None else shape[axis]
    ishape = draw(gst.shapes(min_dims=0, max_dims=2, max_side=3))
    idx = draw(gst.index_arrays(ishape, size, dtype=draw(st.sampled_from(gst.INDEX_DTYPES))))
    dtype = draw(st.sampled_from([np.float64, np.int32, np.uint8, np.bool_]))
    a = draw(gst.data_arrays(shape, np.float64)).astype(dtype)
    mode = draw(st.sampled_from([None, "fill", "clip", "wrap"]))
    fill_value = draw(st.none() | st.integers(-3, 3)) if mode in (None, "fill") else None
    return a, idx, axis, mode, fill_value


@given(take_inputs())
def test_property_matches_oracle(args: tuple[Any, ...]) -> None:
    a, idx, axis, mode, fill_value = args
    try:
        want = oracle.take(a, idx, axis=axis, mode=mode, fill_value=fill_value)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.jax.take(a, idx, axis=axis, mode=mode, fill_value=fill_value)
        return
    assert_same(gs.jax.take(a, idx, axis=axis, mode=mode, fill_value=fill_value), want)
