"""gs.keras: one hand-computed table per op and backend, errors, and properties against the oracles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

K = gs.keras
X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
NAN = np.nan
D = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)
IDS = np.array([0, 0, 2, -1, 3])
LOW32 = float(np.finfo(np.float32).min)

# (op, args, kwargs, backend, expected values or an exception class, expected dtype); values from the Keras docs'
# backend semantics worked by hand (each row was also observed with Keras 3.15.1)
CASES = [
    (K.take, (X, [-1, 0]), {"axis": 1}, "jax", [[3.0, 1.0], [6.0, 4.0]], "float32"),
    (K.take, (X, [3, 0]), {"axis": 1}, "jax", [[NAN, 1.0], [NAN, 4.0]], "float32"),
    (K.take, (X, [3, 0]), {"axis": 1}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.take, (X, [-1]), {}, "torch", [2.0], "float32"),  # wraps by x.shape[0] = 2: flat element 1
    (K.take, (X, [-1]), {}, "numpy", [6.0], "float32"),
    (K.take, (np.array([1, 2], np.int64), [1]), {}, "jax", [2], "int32"),
    (K.take_along_axis, (X, [[3], [-4]]), {"axis": 1}, "torch", [[1.0], [6.0]], "float32"),  # modulo 3
    (K.take_along_axis, (X, [[3], [0]]), {"axis": 1}, "jax", [[NAN], [4.0]], "float32"),
    (K.take_along_axis, (X, np.array([[3], [0]])), {"axis": 1}, "numpy", gs.IndexOutOfRangeError, None),
    (K.scatter, (np.array([[1], [1], [-1]]), np.float32([1, 2, 3]), (4,)), {}, "jax", [0.0, 3.0, 0.0, 3.0], "float32"),
    (K.scatter, (np.array([[4]]), np.float32([1]), (4,)), {}, "jax", [0.0, 0.0, 0.0, 0.0], "float32"),
    (K.scatter, ([[-1]], np.float32([1]), (4,)), {}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.scatter, ([[-1]], np.float64([1]), (4,)), {}, "numpy", [0.0, 0.0, 0.0, 1.0], "float32"),
    (K.scatter, ([[-1]], np.float64([1]), (4,)), {}, "torch", [0.0, 0.0, 0.0, 1.0], "float64"),
    (K.scatter_update, (np.zeros(4, np.float32), [[1], [1]], np.float32([5, 7])), {}, "tensorflow",
     [0.0, 7.0, 0.0, 0.0], "float32"),
    (K.scatter_update, (np.zeros(4, np.float32), [[-5]], np.float32([5])), {}, "torch", gs.IndexOutOfRangeError,
     None),
    # indices that are not 2-D (observed with Keras 3.15.1): torch transposes axes 0 and 1 (1-D: IndexError; 3-D:
    # components on axis 1), jax/numpy reverse every axis (3-D: leading axes reversed), TF wants 2-D or more
    (K.scatter_update, (np.zeros(4, np.float32), [1, 2], np.float32([5, 7])), {}, "torch", gs.errors.IndexShapeError, None),
    (K.scatter_update, (np.zeros((3, 2), np.float32), [1, 0], np.float32(5)), {}, "torch", IndexError, None),
    (K.scatter_update, (np.zeros((3, 2), np.float32), [1, 0], np.float32(5)), {}, "numpy",
     [[0.0, 0.0], [5.0, 0.0], [0.0, 0.0]], "float32"),
    (K.scatter_update, (np.zeros((3, 2), np.float32), [1, 0], np.float32(5)), {}, "tensorflow", gs.ShapeError, None),
    (K.scatter_update, (np.zeros((3, 2), np.float32), [[[1, 0], [0, 1]]], np.float32([[5, 7]])), {}, "torch",
     [[0.0, 7.0], [5.0, 0.0], [0.0, 0.0]], "float32"),  # tuples (idx[0, 0, 0], idx[0, 1, 0]) = (1, 0), (0, 1)
    (K.scatter_update, (np.zeros((3, 2), np.float32), [[[1, 0]], [[0, 1]]], np.float32([[5, 7]])), {}, "numpy",
     [[0.0, 7.0], [5.0, 0.0], [0.0, 0.0]], "float32"),  # positions shape (1, 2): the (2, 1) reversed
    (K.scatter_update, (np.zeros((3, 2), np.float32), [[[1, 0]], [[0, 1]]], np.float32([[5], [7]])), {}, "jax",
     ValueError, None),  # updates of the unreversed shape (2, 1)
    (K.scatter_update, (np.zeros((3, 2), np.float32), [[[1, 0]], [[0, 1]]], np.float32([[5], [7]])), {},
     "tensorflow", [[0.0, 7.0], [5.0, 0.0], [0.0, 0.0]], "float32"),
    (K.scatter, ([1], np.float32([5]), (3,)), {}, "tensorflow", gs.ShapeError, None),
    (K.scatter, ([1], np.float32(5), (3,)), {}, "numpy", [0.0, 5.0, 0.0], "float32"),
    # 64-bit data on the numpy backend: only scatter's values become 32-bit (2**40 + 3 -> 3 in int32)
    (K.scatter, ([[1]], np.int64([2**40 + 3]), (2,)), {}, "numpy", [0, 3], "int32"),
    (K.scatter, ([[1]], np.float64([2**40 + 3]), (2,)), {}, "numpy", [0.0, 2.0**40], "float32"),
    (K.take, (np.int64([2**40 + 1, 3]), [0]), {}, "numpy", [2**40 + 1], "int64"),
    (K.take_along_axis, (np.float64([2**40 + 1, 3]), np.array([0])), {"axis": 0}, "numpy", [2.0**40 + 1], "float64"),
    (K.scatter_update, (np.int64([1, 3]), [[1]], np.int64([2**40 + 3])), {}, "numpy", [1, 2**40 + 3], "int64"),
    (K.segment_sum, (np.int64([2**40 + 1, 3]), np.array([1, 1]), 2), {}, "numpy", [0, 2**40 + 4], "int64"),
    (K.segment_max, (np.float64([2**40 + 1, 3]), np.array([1, 1]), 2), {}, "numpy", [-np.inf, 2.0**40 + 1], "float64"),
    (K.segment_sum, (D, IDS, 5), {}, "jax", [3.0, 0.0, 3.0, 5.0, 0.0], "float32"),
    (K.segment_sum, (D, np.array([0, 0, 2, 7, 3]), 5), {}, "jax", [3.0, 0.0, 3.0, 5.0, 0.0], "float32"),
    (K.segment_sum, (D, np.array([0, 0, 2, 7, 3]), 5), {}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.segment_sum, (D, np.array([0, 0, 2, 2, 3])), {}, "tensorflow", gs.IndexOutOfRangeError, None),  # 3 distinct ids
    (K.segment_sum, (D, np.array([0, 0, 2, 2, 3])), {}, "torch", [3.0, 0.0, 7.0, 5.0], "float32"),
    (K.segment_sum, (D, np.array([0, 0, 2, 2, 3])), {"sorted": True}, "tensorflow", [3.0, 0.0, 7.0, 5.0], "float32"),
    (K.segment_sum, (D, np.array([0, 0, 2, 2, 3]), 4), {"sorted": True}, "tensorflow", gs.UnsupportedError, None),
    (K.segment_sum, (D, np.array([0, 0, 2, 2, 3])), {}, "jax", gs.UnsupportedError, None),
    (K.segment_sum, (D, np.array([0, 0, 2, 7, 3]), 5), {}, "numpy", gs.IndexOutOfRangeError, None),
    (K.segment_max, (D, IDS, 5), {}, "jax", [2.0, -np.inf, 3.0, 5.0, -np.inf], "float32"),
    (K.segment_max, (D, IDS, 5), {}, "tensorflow", [2.0, LOW32, 3.0, 5.0, LOW32], "float32"),
    (K.segment_max, (D, np.array([0, 0, 2, 2, 3])), {"sorted": True}, "tensorflow", [2.0, 0.0, 4.0, 5.0], "float32"),
    (K.segment_max, (np.int32([1, 2, 3]), np.array([0, 0, 2]), 4), {}, "torch", [2, -(2**31), 3, -(2**31)], "int32"),
    (K.segment_max, (np.int32([1, 2, 3]), np.array([0, 0, 2]), 4), {}, "numpy", [2.0, -np.inf, 3.0, -np.inf], "float64"),
    (K.segment_sum, (np.float64([0.1, 0.2]), np.array([0, 0]), 1), {}, "torch", [float(np.float32(0.1) + np.float32(0.2))],
     "float64"),  # reduced in float32
]


@pytest.mark.parametrize(("op", "args", "kw", "backend", "want", "dtype"), CASES)
def test_hand_computed(op, args, kw, backend, want, dtype):
    if isinstance(want, type):
        with pytest.raises(want) as info:
            op(*args, **kw, backend=backend)
        assert f"backend={backend!r}" in str(info.value) or "tensorflow." in str(info.value)
        return
    got = op(*args, **kw, backend=backend)
    assert str(got.dtype) == dtype
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def test_numpy_backend_leaves_the_callers_array_alone():
    """Keras' numpy backend writes into inputs (recorded divergence, scatter_update.toml); ours never does."""
    x = np.zeros(3, np.float32)
    got = K.scatter_update(x, [[1]], np.float32([5]), backend="numpy")
    np.testing.assert_array_equal(got, [0.0, 5.0, 0.0])
    np.testing.assert_array_equal(x, [0.0, 0.0, 0.0])


def test_bad_backend():
    with pytest.raises(gs.UnsupportedError, match="unknown backend 'mlx'"):
        K.take(X, [0], backend="mlx")
    with pytest.raises(gs.ArgumentError, match="backend must be a string"):
        K.take(X, [0], backend=None)


_EMPTY = {"jax": -(2**31), "torch": -(2**31)}


@settings(max_examples=40, deadline=None)
@given(
    backend=st.sampled_from(["jax", "torch", "numpy"]),
    ids=st.lists(st.integers(-2, 4), min_size=1, max_size=8),
    seed=st.integers(0, 2**16),
)
def test_segment_sum_property(backend, ids, seed):
    data = np.random.default_rng(seed).integers(-3, 4, (len(ids), 2)).astype(np.int32)
    ids_a = np.array(ids)
    n = 5
    want = segment_reduce(data, ids_a, n, "sum", 0)
    got = K.segment_sum(data, ids_a, n, backend=backend)
    np.testing.assert_array_equal(got, want.astype(np.int32))
