"""gs.mlx: hand-computed cases, errors, and properties against brute-force loops."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs

M = gs.mlx
A = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)

CASES = [
    (M.take, (A, [-1, 0]), {"axis": 1}, [[3.0, 1.0], [6.0, 4.0]]),
    (M.take, (A, [5, -6]), {}, [6.0, 1.0]),
    (M.take, (A, 1), {"axis": 0}, [4.0, 5.0, 6.0]),
    (M.take_along_axis, (A, [[-1], [0]]), {"axis": 1}, [[3.0], [4.0]]),
    (M.take_along_axis, (A, [[2, 0]]), {"axis": 1}, [[3.0, 1.0], [6.0, 4.0]]),
    (M.take_along_axis, (A, [5, -1]), {}, [6.0, 6.0]),
    (M.put_along_axis, (A, [[0], [2]], [[9.0], [8.0]]), {"axis": 1}, [[9.0, 2.0, 3.0], [4.0, 5.0, 8.0]]),
    (M.put_along_axis, (A, [[0, 0]], [[9.0, 7.0]]), {"axis": 1}, [[7.0, 2.0, 3.0], [7.0, 5.0, 6.0]]),
    (M.put_along_axis, (A, [[-1]], [[9.0]]), {"axis": 1}, [[1.0, 2.0, 9.0], [4.0, 5.0, 9.0]]),
    (M.put_along_axis, (A, [[1], [1]], 0.0), {"axis": 1}, [[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]),
    (M.at_add, ([1.0, 2.0, 3.0, 4.0], [1, 1, -1], [1.0, 2.0, 3.0]), {}, [1.0, 5.0, 3.0, 7.0]),
    (M.at_multiply, ([1.0, 2.0, 3.0, 4.0], [1, 1], [2.0, 3.0]), {}, [1.0, 12.0, 3.0, 4.0]),
    (M.at_subtract, ([1.0, 2.0, 3.0, 4.0], [1, 1], [2.0, 3.0]), {}, [1.0, -3.0, 3.0, 4.0]),
    (M.at_maximum, ([1.0, 2.0, 3.0, 4.0], [0, 0], [5.0, 3.0]), {}, [5.0, 2.0, 3.0, 4.0]),
    (M.at_minimum, ([1.0, 2.0, 3.0, 4.0], [0], [-5.0]), {}, [-5.0, 2.0, 3.0, 4.0]),
    (M.at_add, (A, [1], 1.0), {}, [[1.0, 2.0, 3.0], [5.0, 6.0, 7.0]]),
]


@pytest.mark.parametrize(("op", "args", "kw", "want"), CASES)
def test_hand_computed(op, args, kw, want):
    got = op(*args, **kw)
    assert got.dtype == np.float32  # mx.array makes float64 float32
    np.testing.assert_array_equal(got, np.asarray(want, np.float32))


ERRORS = [
    (M.take, (A, [3]), {"axis": 1}, gs.IndexOutOfRangeError, "MLX does not check"),
    (M.take_along_axis, (A, [[3], [0]]), {"axis": 1}, gs.IndexOutOfRangeError, "valid range is [-3, 2]"),
    (M.take_along_axis, (A, [0, 1]), {"axis": 1}, gs.ShapeError, "rank of a"),
    (M.put_along_axis, (A, [[0]], [[1.0, 2.0]]), {"axis": 1}, gs.ShapeError, "does not broadcast"),
    (M.put_along_axis, (A, [[5]], [[1.0]]), {"axis": 1}, gs.IndexOutOfRangeError, "outside"),
    (M.at_add, (A, [0], [1.0, 2.0]), {}, gs.ShapeError, "does not broadcast"),
    (M.take, (A, [0.5]), {}, gs.DTypeError, "indices"),
    (M.at_add, ([1.0, 2.0, 3.0, 4.0], [4], [1.0]), {}, gs.IndexOutOfRangeError, "MLX does not check"),
    # a tuple index addresses several axes in MLX (a[(0, 1)] is one element): not reproduced, refused (it was read
    # as an array of rows and gave a wrong result)
    (M.at_add, (A, (np.array([0]), np.array([1])), 10.0), {}, gs.UnsupportedError, "got a tuple"),
    (M.at_multiply, (A, slice(0, 1), 2.0), {}, gs.UnsupportedError, "got a slice"),
    # MLX 0.32.4: '[scatter] Updates with shape (0,1) are too large for array with shape (0).' (a ValueError)
    (M.at_add, (np.zeros(0, np.float32), [], 1.0), {}, gs.ShapeError, "size 0 on its first axis"),
    (M.at_divide, (np.zeros((0, 3), np.float32), [0], 1.0), {}, gs.ShapeError, "size 0 on its first axis"),
    (M.at_minimum, (np.zeros((0, 3), np.float32), np.array(0), 1.0), {}, ValueError, "no update slice fits"),
]


@pytest.mark.parametrize(("op", "args", "kw", "exc", "fragment"), ERRORS)
def test_errors(op, args, kw, exc, fragment):
    with pytest.raises(exc) as info:
        op(*args, **kw)
    assert fragment in str(info.value)
    assert "mlx.core." in str(info.value)


def _at_oracle(a, idx, vals, f):
    out = np.array(a, copy=True)
    for j, k in enumerate(idx):
        k = k + len(out) if k < 0 else k
        out[k] = f(out[k], vals[j])
    return out


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum"]),
    idx=st.lists(st.integers(-5, 4), max_size=8),
    seed=st.integers(0, 2**16),
)
def test_at_property(name, idx, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, 5).astype(np.int64)
    vals = rng.integers(-4, 5, len(idx)).astype(np.int64)
    f = {"add": lambda x, y: x + y, "subtract": lambda x, y: x - y, "multiply": lambda x, y: x * y,
         "maximum": max, "minimum": min}[name]
    got = getattr(M, f"at_{name}")(a, np.array(idx, np.int64), vals)
    np.testing.assert_array_equal(got, _at_oracle(a, idx, vals, f))


@settings(max_examples=60, deadline=None)
@given(idx=st.lists(st.integers(-3, 2), min_size=1, max_size=4), seed=st.integers(0, 2**16))
def test_take_along_axis_property(idx, seed):
    a = np.random.default_rng(seed).integers(-9, 9, (2, 3)).astype(np.int32)
    got = M.take_along_axis(a, np.array([idx]), axis=1)  # broadcast over both rows
    want = np.array([[a[r, k % 3] for k in idx] for r in range(2)])
    np.testing.assert_array_equal(got, want)
