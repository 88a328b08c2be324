"""torch.segment_reduce: hand-computed cases, errors, and a property against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce as oracle

sr = gs.torch.segment_reduce
X = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)
L = [2, 0, 3]

CASES = [
    ((X, "sum"), {"lengths": L}, [3.0, 0.0, 12.0]),
    ((X, "mean"), {"lengths": L}, [1.5, np.nan, 4.0]),
    ((X, "max"), {"lengths": L}, [2.0, -np.inf, 5.0]),
    ((X, "amin"), {"lengths": L}, [1.0, np.inf, 3.0]),
    ((X, "prod"), {"lengths": L}, [2.0, 1.0, 60.0]),
    ((X, "sum"), {"lengths": L, "initial": 10.0}, [13.0, 10.0, 22.0]),
    ((X, "mean"), {"lengths": L, "initial": 10.0}, [6.5, 10.0, 22.0 / 3]),
    ((X, "max"), {"lengths": L, "initial": 10.0}, [10.0, 10.0, 10.0]),
    ((X, "sum"), {"offsets": [0, 2, 2, 5]}, [3.0, 0.0, 12.0]),
    ((X, "sum"), {"offsets": [1, 3, 5]}, [5.0, 9.0]),
    ((X, "sum"), {"offsets": [0, 3, 4]}, [6.0, 4.0]),
    ((X, "sum"), {"lengths": [1, 0, 3], "unsafe": True}, [1.0, 0.0, 9.0]),
    ((np.arange(12.0).reshape(3, 4), "sum"), {"lengths": [[1, 3], [2, 2], [0, 4]], "axis": 1},
     [[0.0, 6.0], [9.0, 13.0], [0.0, 38.0]]),
    ((np.arange(12.0).reshape(3, 4), "max"), {"lengths": [1, 2]}, [[0.0, 1.0, 2.0, 3.0], [8.0, 9.0, 10.0, 11.0]]),
]


@pytest.mark.parametrize(("args", "kw", "want"), CASES)
def test_hand_computed(args, kw, want):
    got = sr(*args, **kw)
    assert got.dtype == np.asarray(args[0]).dtype
    np.testing.assert_allclose(got, np.asarray(want, got.dtype), rtol=1e-6)


ERRORS = [
    ((X, "sum"), {"lengths": [2, 0, 2]}, gs.ShapeError, "sum to data.size"),
    ((X, "sum"), {"lengths": [2, -1, 4]}, gs.IndexOutOfRangeError, "lengths contains negative value"),
    ((X, "sum"), {"offsets": [0, 3, 2, 5]}, gs.IndexOutOfRangeError, "segment_length >= 0"),
    ((X, "sum"), {"lengths": [2.0, 3.0]}, gs.DTypeError, "lengths"),
    ((X, "sum"), {"indices": [0, 0, 1, 1, 1]}, gs.UnsupportedError, "indices based reduction"),
    ((X, "sum"), {}, gs.ArgumentError, "Either lengths or offsets"),
    ((X, "avg"), {"lengths": [5]}, gs.UnsupportedError, "sum, max, min, mean or prod"),
    ((np.arange(5), "sum"), {"lengths": [5]}, gs.DTypeError, "not implemented"),
    ((np.zeros((3, 4)), "sum"), {"lengths": [1, 3], "axis": 1}, gs.ShapeError, "last dimension of lengths"),
    ((X, "sum"), {"lengths": [4, 4], "unsafe": True}, gs.IndexOutOfRangeError, "past data.shape[0]"),
]


@pytest.mark.parametrize(("args", "kw", "exc", "fragment"), ERRORS)
def test_errors(args, kw, exc, fragment):
    with pytest.raises(exc) as info:
        sr(*args, **kw)
    assert fragment in str(info.value)
    assert "torch.segment_reduce" in str(info.value)


_EMPTY = {"sum": 0.0, "prod": 1.0, "max": -np.inf, "min": np.inf, "mean": np.nan}


@settings(max_examples=60, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "prod", "max", "min", "mean"]),
    lengths=st.lists(st.integers(0, 3), min_size=1, max_size=5),
    rest=st.sampled_from([(), (2,)]),
    initial=st.sampled_from([None, 0.5]),
    seed=st.integers(0, 2**16),
)
def test_property_against_oracle(reduce, lengths, rest, initial, seed):
    m = sum(lengths)
    data = np.random.default_rng(seed).integers(-3, 4, (m, *rest)).astype(np.float64)
    ids = np.repeat(np.arange(len(lengths)), lengths)
    got = sr(data, reduce, lengths=np.array(lengths), initial=initial)
    want = oracle(data, ids, len(lengths), reduce, _EMPTY[reduce], initial=initial)
    np.testing.assert_allclose(got, want.astype(np.float64), rtol=1e-12)
