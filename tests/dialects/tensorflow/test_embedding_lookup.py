"""tf.nn.embedding_lookup: hand-computed cases, errors, and a property against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import embedding as oracle

el = gs.tensorflow.embedding_lookup
P = np.array([[3.0, 4.0], [0.0, 1.0], [6.0, 8.0]], np.float32)

CASES = [
    ((P, [2, 0]), {}, [[6.0, 8.0], [3.0, 4.0]]),
    ((P, [[1], [1]]), {}, [[[0.0, 1.0]], [[0.0, 1.0]]]),
    ((P, [0, 1, 2]), {"max_norm": 5.0}, [[3.0, 4.0], [0.0, 1.0], [3.0, 4.0]]),  # 6,8 has norm 10: halved
    ((np.array([3.0, -4.0, 0.5]), [0, 1, 2]), {"max_norm": 1.0}, [1.0, -1.0, 0.5]),
    ((P, np.zeros(0, np.int32)), {}, np.zeros((0, 2))),
]


@pytest.mark.parametrize(("args", "kw", "want"), CASES)
def test_hand_computed(args, kw, want):
    got = el(*args, **kw)
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))
    assert got.dtype == np.asarray(args[0]).dtype


ERRORS = [
    ((P, [3]), {}, gs.IndexOutOfRangeError, "ids[0] = 3 is not in [0, 3)"),
    ((P, [0, -1]), {}, gs.IndexOutOfRangeError, "ids[1] = -1 is not in [0, 3)"),
    ((P, [0.0]), {}, gs.DTypeError, "ids"),
    ((P, [0]), {"max_norm": "1"}, gs.ArgumentError, "max_norm must be a number"),
    (([P, P], [0]), {}, gs.UnsupportedError, "sharded params"),
    ((np.array([1, 2]), [0]), {"max_norm": 1.0}, gs.UnsupportedError, "floating params"),
]


@pytest.mark.parametrize(("args", "kw", "exc", "fragment"), ERRORS)
def test_errors(args, kw, exc, fragment):
    with pytest.raises(exc) as info:
        el(*args, **kw)
    assert fragment in str(info.value)
    assert "tensorflow.embedding_lookup" in str(info.value)


@settings(max_examples=50, deadline=None)
@given(ids=st.lists(st.integers(0, 3), max_size=6), seed=st.integers(0, 2**16))
def test_property_against_oracle(ids, seed):
    p = np.random.default_rng(seed).integers(-5, 6, (4, 3)).astype(np.float64)
    np.testing.assert_array_equal(el(p, np.array(ids, np.int64)), oracle.embedding(ids, p))
