"""tf.math.segment_* and unsorted_segment_*: hand-computed cases, errors, and a property against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

tf = gs.tensorflow
F32_LOW = float(np.finfo(np.float32).min)
F32_HIGH = float(np.finfo(np.float32).max)
X = np.array([1.0, 2.0, 3.0, 4.0, 6.0], np.float32)
XI = np.array([1, 2, 3, 4, 6], np.int32)

# (op, args, expected values, expected dtype): computed by hand
CASES = [
    (tf.segment_sum, (X, [0, 0, 2, 2, 3]), [3.0, 0.0, 7.0, 6.0], "float32"),
    (tf.segment_prod, (X, [0, 0, 2, 2, 3]), [2.0, 1.0, 12.0, 6.0], "float32"),
    (tf.segment_max, (X, [0, 0, 2, 2, 3]), [2.0, 0.0, 4.0, 6.0], "float32"),
    (tf.segment_min, (X, [0, 0, 2, 2, 3]), [1.0, 0.0, 3.0, 6.0], "float32"),
    (tf.segment_mean, (X, [0, 0, 2, 2, 3]), [1.5, 0.0, 3.5, 6.0], "float32"),
    (tf.segment_mean, (np.array([-3, 2, -4], np.int32), [0, 0, 1]), [0, -4], "int32"),  # -0.5 truncates to 0
    (tf.segment_mean, (XI, [0, 0, 2, 2, 3]), [1, 0, 3, 6], "int32"),
    (tf.segment_sum, (np.zeros((0, 2), np.float32), np.zeros(0, np.int64)), np.zeros((0, 2)), "float32"),
    (tf.segment_sum, ([[1, 2], [3, 4], [5, 6]], [1, 1, 1]), [[0, 0], [9, 12]], "int64"),
    (tf.unsorted_segment_sum, (X, [0, 0, 2, -1, 3], 5), [3.0, 0.0, 3.0, 6.0, 0.0], "float32"),
    (tf.unsorted_segment_prod, (X, [0, 0, 2, -1, 3], 5), [2.0, 1.0, 3.0, 6.0, 1.0], "float32"),
    (tf.unsorted_segment_max, (X, [0, 0, 2, -1, 3], 5), [2.0, F32_LOW, 3.0, 6.0, F32_LOW], "float32"),
    (tf.unsorted_segment_min, (X, [0, 0, 2, -1, 3], 5), [1.0, F32_HIGH, 3.0, 6.0, F32_HIGH], "float32"),
    (tf.unsorted_segment_max, (XI, [3, 3, 0, 0, 0], 4), [6, -(2**31), -(2**31), 2], "int32"),
    (tf.unsorted_segment_min, (XI, [3, 3, 0, 0, 0], 4), [3, 2**31 - 1, 2**31 - 1, 1], "int32"),
    (tf.unsorted_segment_mean, (X, [0, 0, 2, -1, 3], 5), [1.5, 0.0, 3.0, 6.0, 0.0], "float32"),
    (tf.unsorted_segment_mean, (XI, [0, 0, 2, 2, 3], 5), [1.5, 0.0, 3.5, 6.0, 0.0], "float64"),
    (tf.unsorted_segment_mean, (np.array([1, 2], np.int16), [0, 0], 1), [1.5], "float32"),
    (tf.unsorted_segment_sqrt_n, (np.array([3.0, 5.0, 4.0]), [0, 0, 1], 3), [8 / np.sqrt(2), 4.0, 0.0], "float64"),
    (tf.unsorted_segment_sum, (np.arange(12.0).reshape(2, 3, 2), [[0, 1, 0], [2, 2, -1]], 3),
     [[4.0, 6.0], [2.0, 3.0], [14.0, 16.0]], "float64"),
    (tf.unsorted_segment_sum, (X, [-1, -1, -1, -1, -1], 0), np.zeros(0), "float32"),
    (tf.unsorted_segment_sum, (X, [-1, -1, -1, -1, -1], 2), [0.0, 0.0], "float32"),
]


@pytest.mark.parametrize(("op", "args", "want", "dtype"), CASES, ids=lambda v: getattr(v, "__name__", None))
def test_hand_computed(op, args, want, dtype):
    got = op(*args)
    assert str(got.dtype) == dtype
    np.testing.assert_array_equal(got, np.asarray(want, dtype=got.dtype))


ERRORS = [
    (tf.segment_sum, (X, [0, 2, 1, 3, 3]), gs.IndexOutOfRangeError, "segment_ids[2] = 1 follows 2: segment ids are not increasing"),
    (tf.segment_sum, (X, [-1, 0, 1, 1, 2]), gs.IndexOutOfRangeError, "Segment id -1 out of range [0, 3)"),
    (tf.segment_max, (X, [-3, -3, -2, -2, -2]), gs.IndexOutOfRangeError, "segment ids must be >= 0"),
    (tf.segment_sum, (X, [0, 0, 1]), gs.ShapeError, "same size as dimension 0 of input"),
    (tf.segment_sum, (X, [[0, 0, 1, 1, 1]]), gs.ShapeError, "should be a vector"),
    (tf.segment_sum, (X, [0.0, 0, 1, 1, 1]), gs.DTypeError, "segment_ids"),
    (tf.segment_max, (X.astype(np.complex64), [0, 0, 1, 1, 1]), gs.DTypeError, "complex64"),
    (tf.unsorted_segment_sum, (X, [0, 0, 2, 5, 3], 5), gs.IndexOutOfRangeError, "segment_ids[3] = 5 is out of range [0, 5)"),
    (tf.unsorted_segment_sum, (X, [0, 0, 1], 5), gs.ShapeError, "does not start with segment_ids.shape = [3]"),
    (tf.unsorted_segment_sum, (X, [0, 0, 1, 1, 1], -1), gs.ShapeError, "must not be negative"),
    (tf.unsorted_segment_sum, (X, [0, 0, 1, 1, 1], [2]), gs.ShapeError, "num_segments should be a scalar"),
    (tf.unsorted_segment_sum, (X, [0, 0, 1, 1, 1], 2.0), gs.DTypeError, "num_segments must be an int32"),
    (tf.unsorted_segment_sqrt_n, (XI, [0, 0, 1, 1, 1], 2), gs.DTypeError, "int32"),
]


@pytest.mark.parametrize(("op", "args", "exc", "fragment"), ERRORS, ids=lambda v: getattr(v, "__name__", None))
def test_errors(op, args, exc, fragment):
    with pytest.raises(exc) as info:
        op(*args)
    assert fragment in str(info.value)
    assert op.info.qualname in str(info.value)


def test_inputs_are_not_modified():
    d, ids = X.copy(), np.array([0, 0, 2, 2, 3])
    tf.unsorted_segment_mean(d, ids, 4)
    np.testing.assert_array_equal(d, X)
    np.testing.assert_array_equal(ids, [0, 0, 2, 2, 3])


_EMPTY = {"sum": 0, "prod": 1, "max": 0, "min": 0, "mean": 0}
_UEMPTY = {"sum": 0, "prod": 1, "max": -(2**31), "min": 2**31 - 1, "mean": 0}


@settings(max_examples=60, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "prod", "max", "min", "mean"]),
    ids=st.lists(st.integers(-2, 5), max_size=8),
    rest=st.sampled_from([(), (2,), (1, 3)]),
    n=st.integers(0, 6),
    seed=st.integers(0, 2**16),
)
def test_property_against_oracle(reduce, ids, rest, n, seed):
    rng = np.random.default_rng(seed)
    data = rng.integers(-3, 4, (len(ids), *rest)).astype(np.int32)
    ids_a = np.array(ids, np.int64)
    # unsorted: negative ids dropped, ids >= n raise
    uop = getattr(tf, f"unsorted_segment_{reduce}")
    if ids and max(ids) >= n:
        with pytest.raises(gs.IndexOutOfRangeError):
            uop(data, ids_a, n)
    else:
        want = segment_reduce(data, ids_a, n, reduce, _UEMPTY[reduce], mean="float")
        got = uop(data, ids_a, n)
        np.testing.assert_array_equal(got, want.astype(got.dtype))
    # sorted: the same ids sorted, made non-negative
    s_ids = np.sort(np.abs(ids_a))
    sop = getattr(tf, f"segment_{reduce}")
    rows = int(s_ids[-1]) + 1 if ids else 0
    want = segment_reduce(data, s_ids, rows, reduce, _EMPTY[reduce], mean="trunc")
    got = sop(data, s_ids)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want.astype(np.int32))
