"""jax.ops.segment_*: hand-computed cases, errors, and a property against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

jx = gs.jax
X = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
IDS = [0, 0, 2, -1, 5]

CASES = [
    (jx.segment_sum, (X, IDS, 4), {}, [3.0, 0.0, 3.0, 0.0]),
    (jx.segment_sum, (X, IDS, 4), {"mode": "clip"}, [7.0, 0.0, 3.0, 5.0]),
    (jx.segment_prod, (X, IDS, 4), {}, [2.0, 1.0, 3.0, 1.0]),
    (jx.segment_prod, (X, IDS, 4), {"mode": "clip"}, [8.0, 1.0, 3.0, 5.0]),
    (jx.segment_max, (X, IDS, 4), {}, [2.0, -np.inf, 3.0, -np.inf]),
    (jx.segment_min, (X, IDS, 4), {"mode": "promise_in_bounds"}, [1.0, np.inf, 3.0, np.inf]),
    (jx.segment_max, (np.array([1, 2, 3, 4, 5]), IDS, 4), {}, [2, -(2**63), 3, -(2**63)]),
    (jx.segment_min, (np.array([1, 0], np.uint8), [0, 0], 2), {}, [0, 255]),
    (jx.segment_max, (np.array([True, False]), [0, 0], 2), {}, [True, False]),
    (jx.segment_sum, (X, [0, 2, 1, 1, 0]), {}, [6.0, 7.0, 2.0]),
    (jx.segment_sum, (X, [0, 1, 1, 1, -3]), {"indices_are_sorted": True}, [1.0, 9.0]),
    (jx.segment_sum, (np.arange(6.0).reshape(3, 2), [1, 1, 0], 3), {}, [[4.0, 5.0], [2.0, 4.0], [0.0, 0.0]]),
    (jx.segment_sum, (X, IDS, 0), {}, np.zeros(0)),
]


@pytest.mark.parametrize(("op", "args", "kw", "want"), CASES)
def test_hand_computed(op, args, kw, want):
    got = op(*args, **kw)
    np.testing.assert_array_equal(got, np.asarray(want, dtype=got.dtype))
    assert got.dtype == np.asarray(args[0]).dtype


ERRORS = [
    (jx.segment_sum, (np.array([True]), [0]), {}, gs.DTypeError, "bool"),
    (jx.segment_max, (np.array([1j]), [0]), {}, gs.DTypeError, "complex128"),
    (jx.segment_sum, (X, [0.0, 1, 1, 1, 1]), {}, gs.DTypeError, "segment_ids"),
    (jx.segment_sum, (X, [0, 1]), {}, gs.ShapeError, "data.shape[0] entries"),
    (jx.segment_sum, (X, IDS, -1), {}, gs.ShapeError, "num_segments must be >= 0"),
    (jx.segment_sum, (X, IDS, 3), {"mode": "wrap"}, gs.UnsupportedError, "Unknown gather mode"),
    (jx.segment_sum, (X, IDS, 3), {"unique_indices": "yes"}, gs.ArgumentError, "unique_indices must be a bool"),
    (jx.segment_sum, (X, IDS, 3), {"bucket_size": 2}, gs.UnsupportedError, "bucket_size"),
]


@pytest.mark.parametrize(("op", "args", "kw", "exc", "fragment"), ERRORS)
def test_errors(op, args, kw, exc, fragment):
    with pytest.raises(exc, match=None) as info:
        op(*args, **kw)
    assert fragment in str(info.value)
    assert "jax.ops." in str(info.value)


_EMPTY = {"sum": 0, "prod": 1, "max": -(2**63), "min": 2**63 - 1}


@settings(max_examples=60, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "prod", "max", "min"]),
    ids=st.lists(st.integers(-3, 6), max_size=8),
    rest=st.sampled_from([(), (2,)]),
    n=st.integers(0, 6),
    clip=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_property_against_oracle(reduce, ids, rest, n, clip, seed):
    data = np.random.default_rng(seed).integers(-3, 4, (len(ids), *rest))
    got = getattr(jx, f"segment_{reduce}")(data, np.array(ids, np.int64), n, mode="clip" if clip else None)
    want = segment_reduce(data, np.array(ids), n, reduce, _EMPTY[reduce], out_of_range="clip" if clip else "drop")
    np.testing.assert_array_equal(got, want.astype(np.int64))
