"""paddle.geometric.segment_*: hand-computed cases, errors, and a property against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

pd = gs.paddle
X = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)

CASES = [
    (pd.segment_sum, (X, [0, 0, 2, 2, 3]), [3.0, 0.0, 7.0, 5.0]),
    (pd.segment_mean, (X, [0, 0, 2, 2, 3]), [1.5, 0.0, 3.5, 5.0]),
    (pd.segment_max, (X, [0, 0, 2, 2, 3]), [2.0, 0.0, 4.0, 5.0]),
    (pd.segment_min, (X, [0, 0, 2, 2, 3]), [1.0, 0.0, 3.0, 5.0]),
    (pd.segment_mean, (np.array([-3, 2, -4], np.int32), [0, 0, 1]), [0, -4]),
    (pd.segment_max, (np.arange(6.0).reshape(3, 2), [1, 1, 3]), [[0.0, 0.0], [2.0, 3.0], [0.0, 0.0], [4.0, 5.0]]),
    (pd.segment_sum, (np.array([1.0, 2.0]), np.array([0, 0], np.int32)), [3.0]),
]


@pytest.mark.parametrize(("op", "args", "want"), CASES)
def test_hand_computed(op, args, want):
    got = op(*args)
    assert got.dtype == np.asarray(args[0]).dtype
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


ERRORS = [
    (pd.segment_sum, (X, [0, 0, 2, 1, 3]), gs.IndexOutOfRangeError, "segment_ids[3]:1 < current_id:2"),
    (pd.segment_sum, (X, [-2, -1, 0, 0, 0]), gs.IndexOutOfRangeError, "begin_idx >= 0"),
    (pd.segment_sum, (X, [0, 0, 0, 0, -1]), gs.ShapeError, "Expected dims[0] > 0"),
    (pd.segment_sum, (X, [0, 0, 1]), gs.ShapeError, "x.dims()[0]"),
    (pd.segment_sum, (np.zeros((0, 2)), np.zeros(0, np.int64)), gs.ShapeError, "must not be empty"),
    (pd.segment_sum, (X.astype(np.uint8), [0, 0, 1, 1, 1]), gs.DTypeError, "uint8"),
    (pd.segment_sum, (X, np.array([0, 0, 1, 1, 1], np.int16)), gs.DTypeError, "int16"),
]


@pytest.mark.parametrize(("op", "args", "exc", "fragment"), ERRORS)
def test_errors(op, args, exc, fragment):
    with pytest.raises(exc) as info:
        op(*args)
    assert fragment in str(info.value)
    assert op.info.qualname in str(info.value)


@settings(max_examples=60, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "mean", "max", "min"]),
    ids=st.lists(st.integers(0, 5), min_size=1, max_size=8),
    rest=st.sampled_from([(), (2,)]),
    seed=st.integers(0, 2**16),
)
def test_property_against_oracle(reduce, ids, rest, seed):
    data = np.random.default_rng(seed).integers(-3, 4, (len(ids), *rest))
    s = np.sort(ids)
    got = getattr(pd, f"segment_{reduce}")(data, s)
    want = segment_reduce(data, s, int(s[-1]) + 1, reduce, 0, mean="trunc")
    np.testing.assert_array_equal(got, want.astype(np.int64))
