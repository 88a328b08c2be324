"""gs.tflite builtins: hand-computed cases, errors, and properties against the oracles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles.segment import segment_reduce

tfl = gs.tflite
F = np.float32
I32 = np.int32
LOW, HIGH = float(np.finfo(F).min), float(np.finfo(F).max)

CASES = [
    (tfl.GATHER, ([[1, 2], [3, 4], [5, 6]], [2, 0]), {}, [[5, 6], [1, 2]]),
    (tfl.GATHER, ([[1, 2], [3, 4]], [[1], [0]]), {"axis": 1, "batch_dims": 1}, [[2], [3]]),
    (tfl.GATHER, ([[1, 2], [3, 4]], [1, 1]), {"axis": -1}, [[2, 2], [4, 4]]),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[1, 0], [0, 1]]), {}, [3, 2]),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[1]]), {}, [[3, 4]]),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[0, 2]]), {}, [3]),  # flat offset 2: TFLite reads on
    (tfl.SCATTER_ND, (I32([[1], [1], [3]]), F([1, 2, 3]), [4]), {}, [0, 3, 0, 3]),
    (tfl.SCATTER_ND, (I32([[0, 1]]), I32([7]), [2, 2]), {}, [[0, 7], [0, 0]]),
    (tfl.SEGMENT_SUM, (F([1, 2, 3, 4]), I32([0, 0, 1, 2])), {}, [3, 3, 4]),
    (tfl.SEGMENT_SUM, (I32([[1, 2], [3, 4]]), I32([0, 0])), {}, [[4, 6]]),
    (tfl.UNSORTED_SEGMENT_SUM, (F([1, 2, 3, 4, 5]), I32([0, 0, 2, -1, 3]), 5), {}, [3, 0, 3, 5, 0]),
    (tfl.UNSORTED_SEGMENT_PROD, (F([1, 2, 3, 4, 5]), I32([0, 0, 2, -1, 3]), 5), {}, [2, 1, 3, 5, 1]),
    (tfl.UNSORTED_SEGMENT_MAX, (F([1, 2, 3, 4, 5]), I32([0, 0, 2, -1, 3]), 5), {}, [2, LOW, 3, 5, LOW]),
    (tfl.UNSORTED_SEGMENT_MIN, (F([1, 2, 3, 4, 5]), I32([0, 0, 2, -1, 3]), 5), {}, [1, HIGH, 3, 5, HIGH]),
    (tfl.UNSORTED_SEGMENT_MAX, (I32([1, 2]), I32([1, 1]), 2), {}, [-(2**31), 2]),
]


@pytest.mark.parametrize(("op", "args", "kw", "want"), CASES)
def test_hand_computed(op, args, kw, want):
    got = op(*args, **kw)
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


ERRORS = [
    (tfl.GATHER, ([1, 2, 3], [-1]), gs.IndexOutOfRangeError, "indices_has_only_positive_elements"),
    (tfl.GATHER, ([1, 2, 3], [3]), gs.IndexOutOfRangeError, "indices[0] = 3 is not in [0, 3)"),
    (tfl.GATHER, ([1, 2, 3], [0.0]), gs.DTypeError, "indices"),
    (tfl.GATHER, (np.float64([1, 2]), [0]), gs.DTypeError, "float64"),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[0, -1]]), gs.IndexOutOfRangeError, "indices[0,1] = -1"),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[0, 0, 0]]), gs.ShapeError, "must be <= params rank 2"),
    (tfl.GATHER_ND, ([[1, 2], [3, 4]], [[2, 0]]), gs.IndexOutOfRangeError, "checks the flat offset only"),
    (tfl.SCATTER_ND, (I32([[4]]), F([1]), [4]), gs.IndexOutOfRangeError, "indices[0,0] = 4"),
    (tfl.SCATTER_ND, (np.int64([[1]]), F([1]), [4]), gs.DTypeError, "int64"),
    (tfl.SCATTER_ND, (I32([[1]]), F([1, 2]), [4]), gs.ShapeError, "updates must have shape [1]"),
    (tfl.SEGMENT_SUM, (F([1, 2, 3]), I32([0, 2, 2])), gs.IndexOutOfRangeError, "delta == 0 || delta == 1"),
    (tfl.SEGMENT_SUM, (F([1, 2, 3]), I32([1, 1, 2])), gs.IndexOutOfRangeError, "start at 0"),
    (tfl.SEGMENT_SUM, (F([1, 2, 3]), I32([-1, -1, 0])), gs.IndexOutOfRangeError, "start at 0"),
    (tfl.SEGMENT_SUM, (F([1, 2, 3]), I32([0, 0])), gs.ShapeError, "data.shape[0] entries"),
    (tfl.UNSORTED_SEGMENT_SUM, (F([1, 2]), I32([0, 5]), 5), gs.IndexOutOfRangeError, "max_index < num_segments_"),
    (tfl.UNSORTED_SEGMENT_SUM, (F([1, 2]), I32([0]), 5), gs.ShapeError, "does not start with"),
    (tfl.UNSORTED_SEGMENT_SUM, (np.float64([1, 2]), I32([0, 1]), 5), gs.DTypeError, "float64"),
]


@pytest.mark.parametrize(("op", "args", "exc", "fragment"), ERRORS)
def test_errors(op, args, exc, fragment):
    with pytest.raises(exc) as info:
        op(*args)
    assert fragment in str(info.value)
    assert op.info.qualname in str(info.value)


_EMPTY = {"SUM": 0, "PROD": 1, "MAX": -(2**31), "MIN": 2**31 - 1}


@settings(max_examples=60, deadline=None)
@given(
    red=st.sampled_from(["SUM", "PROD", "MAX", "MIN"]),
    ids=st.lists(st.integers(-2, 4), max_size=8),
    seed=st.integers(0, 2**16),
)
def test_unsorted_property_against_oracle(red, ids, seed):
    data = np.random.default_rng(seed).integers(-3, 4, (len(ids), 2)).astype(I32)
    got = getattr(tfl, f"UNSORTED_SEGMENT_{red}")(data, I32(ids), 5)
    want = segment_reduce(data, np.array(ids), 5, red.lower(), _EMPTY[red])
    np.testing.assert_array_equal(got, want.astype(I32))


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.integers(0, 1), max_size=8), seed=st.integers(0, 2**16))
def test_segment_sum_property_against_oracle(steps, seed):
    ids = np.cumsum([0, *steps])[: len(steps)] if steps else np.zeros(0, int)
    data = np.random.default_rng(seed).integers(-3, 4, (len(ids), 2)).astype(I32)
    got = tfl.SEGMENT_SUM(data, I32(ids))
    n = int(ids[-1]) + 1 if len(ids) else 0
    np.testing.assert_array_equal(got, segment_reduce(data, ids, n, "sum", 0).astype(I32))
