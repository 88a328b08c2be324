"""gs.keras: one hand-computed table per op and backend, errors, and properties against the oracles."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

K = gs.keras
BACKENDS = gs.keras.BACKENDS
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


F32 = np.float32
DUP = (F32([1, 2, 3, 4]), np.array([[1], [1], [3]]), F32([5, -7, 2]))
# the three array-input gaps (values worked by hand; each row also observed with Keras 3.15.1: gap_cases.py)
GAP_CASES = [
    # 1. a 0-d x: the torch backend reads x.shape[0] (IndexError) whatever the indices and axis
    *[(op, (np.array(7.0, F32), ind), {"axis": ax}, "torch", gs.errors.IndexShapeError, None)
      for op in (K.take, K.take_along_axis) for ind in (np.array(0), np.array([0])) for ax in (None, 0)],
    (K.take, (np.array(7.0, F32), np.array([0])), {"axis": 0}, "numpy", [7.0], "float32"),  # np.take reads [7]
    (K.take, (np.array(7.0, F32), np.array(-1)), {"axis": 0}, "numpy", 7.0, "float32"),
    (K.take, (np.array(7.0, F32), np.array([0])), {}, "tensorflow", [7.0], "float32"),
    (K.take_along_axis, (np.array(7.0, F32), np.array([0])), {}, "jax", [7.0], "float32"),
    # 2. float index arrays: truncated toward 0 by tensorflow and torch (NaN / inf: the int64 minimum)
    (K.take_along_axis, (X, F32([[0.5, 1.9, -0.5], [-1.5, -2.9, 2.99]])), {"axis": 1}, "tensorflow",
     [[1.0, 2.0, 1.0], [6.0, 5.0, 6.0]], "float32"),  # [0, 1, 0], [-1, -2, 2] wrapped once
    (K.take_along_axis, (X, np.float64([[-3.5], [-0.9]])), {"axis": 1}, "tensorflow", [[1.0], [4.0]], "float32"),
    (K.take_along_axis, (X, np.float16([[np.nan], [0]])), {"axis": 1}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.take_along_axis, (X, F32([[np.inf], [0]])), {"axis": 1}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.take_along_axis, (X, F32([[3.5], [0]])), {"axis": 1}, "tensorflow", gs.IndexOutOfRangeError, None),
    (K.take_along_axis, (X, F32([0.5, 5.2, -1.5])), {}, "tensorflow", [1.0, 6.0, 6.0], "float32"),
    # torch: NaN -> -2**63, + 3 (negative), then modulo 3 = 1; 3.5 -> 3 -> 0
    (K.take_along_axis, (X, F32([[np.nan], [3.5]])), {"axis": 1}, "torch", [[2.0], [4.0]], "float32"),
    # torch, axis=None: a negative index is wrapped by x.shape[0] = 2, not x.size (as take): -1 -> 1
    (K.take_along_axis, (X, F32([0.5, 5.2, -1.5])), {}, "torch", [1.0, 6.0, 2.0], "float32"),
    (K.take_along_axis, (X, np.array([-1])), {}, "torch", [2.0], "float32"),
    (K.take, (X, F32([0.5, 2.2])), {"axis": 1}, "torch", [[1.0, 3.0], [4.0, 6.0]], "float32"),
    (K.take_along_axis, (X, F32([[0.5], [1.5]])), {"axis": 1}, "jax", gs.DTypeError, None),  # TypeError
    (K.take_along_axis, (X, F32([[0.5], [1.5]])), {"axis": 1}, "numpy", IndexError, None),
    (K.take, (X, F32([0.5])), {"axis": 1}, "jax", ValueError, None),
    (K.take, (X, F32([0.5])), {"axis": 1}, "numpy", TypeError, None),
    (K.take, (X, F32([0.5])), {"axis": 1}, "tensorflow", gs.DTypeError, None),
    # 3. scatter_update(reduction=): 2 + 5 - 7 = 0, 2 * 5 * -7 = -70, 4 * 2 = 8
    *[(K.scatter_update, DUP, {"reduction": r}, b, want, "float32") for b in BACKENDS for r, want in (
        (None, [1.0, -7.0, 3.0, 2.0]), ("add", [1.0, 0.0, 3.0, 6.0]), ("max", [1.0, 5.0, 3.0, 4.0]),
        ("min", [1.0, -7.0, 3.0, 2.0]), ("mul", [1.0, -70.0, 3.0, 8.0]), ("ADD", [1.0, 0.0, 3.0, 6.0]),
        ("Mul", [1.0, -70.0, 3.0, 8.0]))],
    (K.scatter_update, (np.arange(6, dtype=F32).reshape(3, 2), np.array([[2], [0], [2]]),
                        F32([[1, 1], [10, -1], [3, 9]])), {"reduction": "add"}, "torch",
     [[10.0, 0.0], [2.0, 3.0], [8.0, 15.0]], "float32"),
    (K.scatter_update, (F32([1, 2, 3, 4]), np.array([[-1], [0]]), F32([5, 6])), {"reduction": "add"}, "torch",
     [7.0, 2.0, 3.0, 9.0], "float32"),
    (K.scatter_update, (F32([1, 2, 3, 4]), np.array([[-1], [0]]), F32([5, 6])), {"reduction": "mul"}, "tensorflow",
     gs.IndexOutOfRangeError, None),
    (K.scatter_update, (F32([1, 2, 3, 4]), np.array([[4], [0]]), F32([5, 6])), {"reduction": "max"}, "jax",
     [6.0, 2.0, 3.0, 4.0], "float32"),  # out of range: dropped
    (K.scatter_update, (F32([1, 2, 3, 4]), np.array([[4], [0]]), F32([5, 6])), {"reduction": "min"}, "numpy",
     gs.IndexOutOfRangeError, None),
    # NaN: tensorflow's max/min keep the value for a NaN update; the others propagate it
    (K.scatter_update, (F32([1, NAN, 3, 4]), np.array([[1], [0]]), F32([5, NAN])), {"reduction": "max"},
     "tensorflow", [1.0, NAN, 3.0, 4.0], "float32"),
    (K.scatter_update, (F32([1, NAN, 3, 4]), np.array([[1], [0]]), F32([5, NAN])), {"reduction": "min"},
     "tensorflow", [1.0, NAN, 3.0, 4.0], "float32"),
    (K.scatter_update, (F32([1, NAN, 3, 4]), np.array([[1], [0]]), F32([5, NAN])), {"reduction": "max"},
     "jax", [NAN, NAN, 3.0, 4.0], "float32"),
    *[(K.scatter_update, (np.int8([100, 2]), np.array([[0], [0]]), np.int8([100, 100])), {"reduction": "add"}, b,
       [44, 2], "int8") for b in BACKENDS],  # 300 wraps to 44
    (K.scatter_update, (np.int64([1, 2]), np.array([[1], [1]]), np.int64([3, 4])), {"reduction": "mul"}, "jax",
     [1, 24], "int32"),
    # torch, 3-d indices: components on axis 1 ([[1, 0], [0, 1]] selects rows), the updates broadcast
    (K.scatter_update, (np.zeros((3, 2), F32), np.array([[[1, 0]], [[0, 1]]]), F32([[5, 7]])), {"reduction": "add"},
     "torch", [[10.0, 14.0], [10.0, 14.0], [0.0, 0.0]], "float32"),
    (K.scatter_update, (np.zeros((3, 2), F32), np.array([[[1, 0]], [[0, 1]]]), F32([[5, 7]])), {"reduction": "max"},
     "torch", gs.UnsupportedError, None),
]
# bad reduction values: Keras' own check (ValueError; a non-string: AttributeError from .lower())
GAP_ERRORS = [(r, b, cls) for b in BACKENDS for r, cls in (("sum", gs.UnsupportedError), ("", ValueError),
                                                           ("none", ValueError), (1, AttributeError),
                                                           (b"add", ValueError), (None.__class__, AttributeError))]


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



@pytest.mark.parametrize(("op", "args", "kw", "backend", "want", "dtype"), GAP_CASES)
def test_array_gaps_hand_computed(op, args, kw, backend, want, dtype):
    test_hand_computed(op, args, kw, backend, want, dtype)


@pytest.mark.parametrize(("reduction", "backend", "cls"), GAP_ERRORS)
def test_bad_reduction(reduction, backend, cls):
    with pytest.raises(cls) as info:
        K.scatter_update(F32([1, 2]), np.array([[0]]), F32([5]), reduction=reduction, backend=backend)
    assert isinstance(info.value, gs.GatherScatterError)
    assert "keras.ops.scatter_update" in str(info.value) and repr(reduction)[:20] in str(info.value)


def test_reduction_is_a_record_attribute():
    """``reduction`` is declared with Keras' accepted values; the description carries it to the canonical form."""
    op = gs.get_op("keras.scatter_update")
    assert tuple(op.record.values["reduction"]) == (None, "add", "max", "min", "mul")
    assert {v.get("reduction") for v in op.record.variants} == {None, "add", "max", "min", "mul"}
    for r, want in ((None, "none"), ("add", "add"), ("mul", "mul"), ("max", "max")):
        assert op.record.describe(backend="torch", reduction=r).canonical.reduction == want


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


# ------------------------------------------------------------------------------ Python lists, tuples and scalars

E = gs.errors
F3 = np.float32([1.5, 2.5, 3.5])
Z4 = np.zeros(4, np.float32)
IDX = np.array([[1], [3]])
U2 = np.float32([5.5, 7.5])
BIG = 2**40 + 1

# (op, args, kwargs, backend, expected values or error class, dtype): each backend's convert_to_tensor makes Python
# ints int32, floats float32, bools bool (Keras 3.15.1, floatx float32); the numpy backend's np.take reads them as
# NumPy does; ints past int32 are int64 on tensorflow, an OverflowError (jax, numpy) or RuntimeError (torch); where a
# backend reads .shape / .dtype of the argument, or indexes into a list, a Python value raises (values worked by hand
# from the backends' code, keras/src/backend/*; every row was also observed with Keras 3.15.1)
LIST_CASES = [
    *[(K.take, ([1, 2, 3], np.array([1])), {}, b, [2], "int32") for b in ("jax", "tensorflow", "torch")],
    (K.take, ([1, 2, 3], np.array([1])), {}, "numpy", [2], "int64"),
    *[(K.take, ((1.5, 2.5, 3.5), np.array([1])), {}, b, [2.5], "float32") for b in ("jax", "tensorflow", "torch")],
    (K.take, ((1.5, 2.5, 3.5), np.array([1])), {}, "numpy", [2.5], "float64"),
    *[(K.take, ([True, False], np.array([1])), {}, b, [False], "bool") for b in ("jax", "tensorflow", "torch", "numpy")],
    (K.take, ([1, 2.5], np.array([0])), {}, "jax", [1.0], "float32"),  # mixed int/float: float32
    (K.take, ([True, 2], np.array([0])), {}, "torch", [1], "int32"),  # bools with ints: ints
    (K.take, ([True, 2], np.array([0])), {}, "tensorflow", E.DTypeValueError, None),  # TF: mixed types
    (K.take, ([[1.5, 2.5], [3.5, 4.5]], np.array([1])), {"axis": 1}, "torch", [[2.5], [4.5]], "float32"),
    (K.take, ([[1, 2], [3]], np.array([0])), {}, "jax", gs.ShapeError, None),  # ragged: ValueError everywhere
    (K.take, ([BIG, 3], np.array([0])), {}, "tensorflow", [BIG], "int64"),
    (K.take, ([BIG, 3], np.array([0])), {}, "jax", E.DTypeOverflowError, None),
    (K.take, ([BIG, 3], np.array([0])), {}, "torch", E.DTypeRuntimeError, None),
    (K.take, ([BIG, 3], np.array([0])), {}, "numpy", [BIG], "int64"),
    (K.take, ([1e40, 2.5], np.array([0])), {}, "torch", [np.inf], "float32"),
    (K.take, ([1e40, 2.5], np.array([0])), {}, "tensorflow", E.DTypeValueError, None),
    (K.take, ([np.float64(1.5), np.float64(2.5)], np.array([0])), {}, "tensorflow", [1.5], "float64"),
    (K.take, ([np.float64(1.5), np.float64(2.5)], np.array([0])), {}, "torch", [1.5], "float32"),
    (K.take, (7, np.array([0])), {}, "jax", [7], "int32"),
    (K.take, (7, np.array([0])), {}, "torch", E.IndexShapeError, None),  # torch reads x.shape[0]
    (K.take, (7, np.array([0])), {"axis": 0}, "numpy", [7], "int64"),  # np.take(7, [0], axis=0)
    # indices: floats truncated by torch's .long() and np.take, refused by jax (ValueError) and TF; bools 0/1 in
    # jnp.take; an empty list is float32
    (K.take, (F3, [2.9, 0.0]), {}, "torch", [3.5, 1.5], "float32"),
    (K.take, (F3, [2.9, 0.0]), {}, "numpy", [3.5, 1.5], "float32"),
    (K.take, (F3, [2.0]), {}, "jax", E.DTypeValueError, None),
    (K.take, (F3, [2.0]), {}, "tensorflow", gs.DTypeError, None),
    (K.take, (F3, [True, False]), {}, "jax", [2.5, 1.5], "float32"),
    (K.take, (F3, [True, False]), {}, "tensorflow", gs.DTypeError, None),
    (K.take, (F3, []), {}, "torch", [], "float32"),
    (K.take, (F3, []), {}, "tensorflow", gs.DTypeError, None),
    (K.take, (F3, [BIG]), {}, "jax", E.DTypeOverflowError, None),
    (K.take_along_axis, ([1, 2, 3], np.array([2])), {"axis": 0}, "tensorflow", [3], "int32"),
    (K.take_along_axis, ([1, 2, 3], np.array([2])), {"axis": 0}, "numpy", E.ArgumentAttributeError, None),
    (K.take_along_axis, (F3, [2]), {"axis": 0}, "numpy", E.ArgumentAttributeError, None),
    (K.take_along_axis, (F3, [2.7, 0.2]), {"axis": 0}, "tensorflow", [3.5, 1.5], "float32"),  # cast to int64
    (K.take_along_axis, (F3, [2.7, True]), {"axis": 0}, "tensorflow", E.DTypeValueError, None),  # mixed types
    (K.take_along_axis, (F3, [2.0]), {"axis": 0}, "jax", gs.DTypeError, None),
    (K.take_along_axis, (F3, [[2]]), {"axis": 0}, "torch", E.ShapeRuntimeError, None),  # take_along_dim's ranks
    # scatter: jax reads values.dtype (AttributeError) and moveaxis(indices) (TypeError); the others convert
    (K.scatter, (IDX, [1.5, 2.5], (4,)), {}, "jax", E.ArgumentAttributeError, None),
    (K.scatter, ([[1], [3]], U2, (4,)), {}, "jax", gs.ArgumentError, None),
    *[(K.scatter, ([[1], [3]], [1, 2], [4]), {}, b, [0, 1, 0, 2], "int32") for b in ("tensorflow", "torch", "numpy")],
    (K.scatter, (IDX, [1.5, 2.5], (4,)), {}, "numpy", [0.0, 1.5, 0.0, 2.5], "float32"),
    (K.scatter, (IDX, [BIG, 2], (4,)), {}, "tensorflow", [0, BIG, 0, 2], "int64"),
    (K.scatter, (IDX, [BIG, 2], (4,)), {}, "numpy", E.DTypeOverflowError, None),
    (K.scatter, (IDX, 7, (4,)), {}, "numpy", [0, 7, 0, 7], "int32"),  # reshape(-1) then ufunc.at broadcasts
    (K.scatter, (IDX, 7, (4,)), {}, "torch", E.IndexShapeError, None),  # values[1] of a one-element reshape
    (K.scatter, (IDX, [], (4,)), {}, "torch", E.IndexShapeError, None),
    (K.scatter, ([[1.0], [3.0]], U2, (4,)), {}, "numpy", E.IndexDTypeError, None),
    (K.scatter, ([[True], [False]], U2, (4,)), {}, "tensorflow", gs.DTypeError, None),
    (K.scatter, ([], np.float32([]), (4,)), {}, "torch", E.DTypeRuntimeError, None),  # reshape to [-1, 0]
    (K.scatter, ([1, 3], U2, (4,)), {}, "numpy", E.IndexShapeError, None),  # 2 components into 1 axis
    (K.scatter, (IDX, U2, 4), {}, "jax", [0.0, 5.5, 0.0, 7.5], "float32"),  # jnp.zeros(4)
    (K.scatter, (IDX, U2, 4), {}, "torch", gs.ArgumentError, None),  # shape[k:] of an int
    (K.scatter, (IDX, U2, 4), {}, "tensorflow", gs.ShapeError, None),
    (K.scatter, (IDX, U2, (4.0,)), {}, "numpy", gs.ArgumentError, None),
    # scatter_update: updates take the inputs' dtype as each backend casts them
    (K.scatter_update, ([0, 0, 0, 0], IDX, U2), {}, "jax", [0, 5, 0, 7], "int32"),
    (K.scatter_update, ([0, 0, 0, 0], IDX, U2), {}, "tensorflow", [0, 5, 0, 7], "int32"),
    (K.scatter_update, ([0, 0, 0, 0], IDX, U2), {}, "numpy", gs.ArgumentError, None),  # list[tuple] = ...
    (K.scatter_update, ([0.5, 0.5, 0.5, 0.5], [[1], [3]], [5.5, 7.5]), {}, "torch", [0.5, 5.5, 0.5, 7.5], "float32"),
    (K.scatter_update, (7.0, IDX, U2), {}, "jax", E.IndexShapeError, None),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [1.9, -2.9]), {}, "torch", [0, 1, 0, -2], "int32"),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [1.9, -2.9]), {}, "numpy", [0, 1, 0, -2], "int32"),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [1.9, -2.9]), {}, "tensorflow", gs.DTypeError, None),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [1e40, 2.5]), {}, "jax", [0, 2**31 - 1, 0, 2], "int32"),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [BIG, 2]), {}, "tensorflow", [0, 1, 0, 2], "int32"),  # wraps
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [BIG, 2]), {}, "torch", E.DTypeRuntimeError, None),
    (K.scatter_update, (np.zeros(4, np.int32), IDX, [BIG, 2]), {}, "numpy", E.DTypeOverflowError, None),
    (K.scatter_update, (Z4, IDX, 2.5), {}, "jax", [0.0, 2.5, 0.0, 2.5], "float32"),  # broadcast
    (K.scatter_update, (Z4, IDX, 2.5), {}, "tensorflow", gs.ShapeError, None),  # rank-0 updates
    (K.scatter_update, (Z4, IDX, []), {}, "torch", E.ShapeRuntimeError, None),
    (K.scatter_update, (Z4, [[1.9], [3.0]], U2), {}, "torch", [0.0, 5.5, 0.0, 7.5], "float32"),  # int64 cast
    (K.scatter_update, (Z4, [[True], [False]], U2), {}, "torch", [7.5, 5.5, 0.0, 0.0], "float32"),
    (K.scatter_update, (Z4, [[True], [False]], U2), {}, "jax", E.IndexDTypeError, None),
    (K.scatter_update, (Z4, [[1.0], [3.0]], U2), {}, "numpy", E.IndexDTypeError, None),
    # segment_*: keras.ops reads data.shape and segment_ids.shape first, on every backend
    *[(K.segment_sum, ([1.5, 2.5], np.array([0, 0]), 1), {}, b, E.ArgumentAttributeError, None) for b in BACKENDS],
    *[(K.segment_max, (np.float32([1.5, 2.5]), (0, 0), 1), {}, b, E.ArgumentAttributeError, None) for b in BACKENDS],
]


@pytest.mark.parametrize(("op", "args", "kw", "backend", "want", "dtype"), LIST_CASES)
def test_python_lists_hand_computed(op, args, kw, backend, want, dtype):
    test_hand_computed(op, args, kw, backend, want, dtype)


def test_python_rules_are_data():
    """The list rule is a table per backend (what a Python int / float / bool list becomes), read by the ops."""
    assert set(gs.keras._backend.PYTHON_RULES) == set(BACKENDS)
    for rule in gs.keras._backend.PYTHON_RULES.values():
        assert (rule["int"], rule["float"], rule["bool"]) == ("int32", "float32", "bool")
    assert gs.keras._backend.PYTHON_RULES["tensorflow"]["int_past"] == "int64"


def test_numpy_arrays_are_not_converted():
    """Arrays keep their dtype (the Python rule is for Python values only): int64 indices, float64 data."""
    got = K.take(np.float64([1.5, 2.5]), np.array([1]), backend="tensorflow")
    assert got.dtype == np.float64
    x = [1.5, 2.5]
    K.scatter_update(np.zeros(2, np.float32), np.array([[0], [1]]), x, backend="numpy")
    assert x == [1.5, 2.5]


# ------------------------------------------------------------------------------------- against the real Keras

#: (backend, case label) -> the divergence record (in the op's .toml sidecar) that explains the difference
KNOWN = {
    ("jax", "take x=empty list"): "take.toml: jax empty axis",
    ("jax", "take x=empty list axis=0"): "take.toml: jax empty axis",
    ("jax", "take_along_axis x=empty list"): "take_along_axis.toml: jax empty axis",
    ("jax", "take_along_axis x=empty list axis=None"): "take_along_axis.toml: jax empty axis",
    ("torch", "take_along_axis x=empty list"): "take_along_axis.toml: torch empty axis",
    ("torch", "take_along_axis x=empty list axis=None"): "take_along_axis.toml: torch empty axis",
    ("torch", "scatter indices=bool list"): "scatter.toml: torch bool index lists",
}


def _compare_with_keras(backend: str, cases: list[tuple[Any, ...]]) -> tuple[int, int, list[str]]:
    """Run ``cases`` ((label, op, args, kwargs)) under Keras with this backend (a subprocess) and through gs.keras:
    (agree: same values and dtype, both raise: ours an instance of the built-in class Keras raised (TF's own
    errors derive from Exception only), the labels that differ)."""
    import builtins
    import os
    import pickle
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("keras")
    worker = Path(__file__).with_name("keras_list_worker.py")
    env = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, str(worker)], input=pickle.dumps([c[1:] for c in cases]),
                          capture_output=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    agree = both = 0
    differ: list[str] = []
    for (label, op, args, kw), want in zip(cases, pickle.loads(proc.stdout), strict=True):
        try:
            got = getattr(K, op)(*args, **kw, backend=backend)
        except gs.GatherScatterError as exc:
            base = getattr(builtins, want[2]) if want[0] == "error" else None
            if base is not None and isinstance(exc, base):
                both += 1
            else:
                differ.append(label)
            continue
        if want[0] == "ok" and got.dtype == want[1].dtype and got.shape == want[1].shape and np.array_equal(
                got, want[1], equal_nan=got.dtype.kind == "f"):
            agree += 1
        else:
            differ.append(label)
    return agree, both, differ


@pytest.mark.keras
@pytest.mark.parametrize("backend", BACKENDS)
def test_python_lists_match_keras(backend: str) -> None:
    """Every call of ``list_cases.CASES`` under Keras with this backend: same values and dtype, or both raise.
    Differences are exactly :data:`KNOWN`. ``-s`` shows the tallies."""
    from tests.dialects.keras.list_cases import CASES as KCASES

    agree, both, differ = _compare_with_keras(backend, KCASES)
    print(f"keras backend={backend}: {len(KCASES)} cases, {agree} agree, {both} both raise, {len(differ)} differ")
    assert sorted(differ) == sorted(k for b, k in KNOWN if b == backend)


#: (backend, case label of gap_cases.py) -> the divergence record that explains the difference
GAP_KNOWN: dict[tuple[str, str], str] = {}


@pytest.mark.keras
@pytest.mark.parametrize("backend", BACKENDS)
def test_array_gaps_match_keras(backend: str) -> None:
    """``gap_cases.CASES`` (0-d ``x``, float index arrays, ``scatter_update(reduction=)``) under Keras with this
    backend: same values and dtype, or both raise; differences are exactly :data:`GAP_KNOWN`."""
    from tests.dialects.keras.gap_cases import CASES as GCASES

    agree, both, differ = _compare_with_keras(backend, GCASES)
    print(f"keras backend={backend} (array gaps): {len(GCASES)} cases, {agree} agree, {both} both raise, "
          f"{len(differ)} differ")
    assert sorted(differ) == sorted(k for b, k in GAP_KNOWN if b == backend), differ
