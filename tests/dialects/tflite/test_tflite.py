"""gs.tflite builtins: hand-computed cases, errors, and properties against the oracles."""

from __future__ import annotations

import platform

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


NAN, INF = float("nan"), float("inf")
U = tfl.UNSORTED_SEGMENT_MAX, tfl.UNSORTED_SEGMENT_MIN, tfl.UNSORTED_SEGMENT_SUM, tfl.UNSORTED_SEGMENT_PROD

# non-finite data and signed zeros, by hand from the kernels' folds (acc starts at the empty value; max:
# acc = x if acc < x else acc; min: acc = x if x < acc else acc; sum: acc + x; prod: acc * x); compared bit
# for bit. Each row: (op, data, ids, num_segments, expected)
NONFINITE = [
    (U[0], [1, NAN], [0, 0], 1, [1]),  # NaN last: acc < NaN is false
    (U[0], [NAN, 1], [0, 0], 1, [1]),  # NaN first: lowest < NaN is false, then lowest < 1
    (U[0], [3, NAN, 2], [0, 0, 0], 1, [3]),  # NaN in the middle
    (U[0], [NAN, NAN], [0, 0], 2, [LOW, LOW]),  # all NaN: the start stays
    (U[0], [-INF, -INF, 5], [0, 0, 1], 2, [LOW, 5]),  # only -inf: lowest < -inf is false
    (U[0], [INF, NAN, -INF], [0, 0, 0], 1, [INF]),
    (U[0], [-0.0], [0], 1, [-0.0]),  # lowest < -0.0
    (U[0], [0.0, -0.0], [0, 0], 1, [0.0]),  # a tie keeps acc: the first zero
    (U[0], [-0.0, 0.0], [0, 0], 1, [-0.0]),
    (U[0], [[-0.0, 0.0], [0.0, -0.0], [0.0, 0.0]], [1, 1, 0], 2, [[0.0, 0.0], [-0.0, 0.0]]),  # per element
    (U[0], [-1, -0.0, 0.0, 2], [0, 0, 0, 1], 2, [-0.0, 2]),
    (U[1], [1, NAN], [0, 0], 1, [1]),
    (U[1], [NAN, 1], [0, 0], 1, [1]),
    (U[1], [2, NAN, 3], [0, 0, 0], 1, [2]),
    (U[1], [NAN, NAN], [0, 0], 2, [HIGH, HIGH]),
    (U[1], [INF, INF, -1], [0, 0, 1], 2, [HIGH, -1]),  # only +inf: +inf < max() is false
    (U[1], [-INF, NAN, INF], [0, 0, 0], 1, [-INF]),
    (U[1], [0.0, -0.0], [0, 0], 1, [0.0]),
    (U[1], [-0.0, 0.0], [0, 0], 1, [-0.0]),
    (U[1], [NAN, -0.0, 0.0, NAN], [0, 0, 0, -1], 1, [-0.0]),  # the dropped -1 row reads nothing
    (U[2], [1, NAN], [0, 0], 1, [NAN]),
    (U[2], [INF, -INF], [0, 0], 1, [NAN]),
    (U[2], [-INF, -INF], [0, 0], 1, [-INF]),
    (U[2], [-0.0], [0], 1, [0.0]),  # 0 + -0.0 is +0.0
    (U[2], [-0.0, -0.0], [0, 0], 1, [0.0]),
    (U[3], [-0.0], [0], 1, [-0.0]),  # 1 * -0.0
    (U[3], [0.0, -0.0], [0, 0], 1, [-0.0]),
    (U[3], [-INF, -INF], [0, 0], 1, [INF]),
    (U[3], [NAN, 2], [0, 0], 1, [NAN]),
    (U[3], [INF, 0.0], [0, 0], 1, [NAN]),
    (tfl.SEGMENT_SUM, [-0.0], [0], None, [0.0]),  # memset 0, then +=
    (tfl.SEGMENT_SUM, [-0.0, -0.0, NAN], [0, 0, 1], None, [0.0, NAN]),
    (tfl.SEGMENT_SUM, [INF, -INF], [0, 0], None, [NAN]),
]


@pytest.mark.parametrize(("op", "data", "ids", "n", "want"), NONFINITE)
def test_nonfinite_bit_for_bit(op, data, ids, n, want):
    args = (F(data), I32(ids)) + (() if n is None else (n,))
    before = args[0].copy()
    got = op(*args)
    np.testing.assert_array_equal(args[0].view(np.uint32), before.view(np.uint32))  # the caller's data as it was
    want = F(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    # the bits (signed zeros) where a value is not NaN; any NaN where one is expected
    assert (np.isnan(got) == np.isnan(want)).all(), (got, want)
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))


# NaN bits of sums on x86-64 (0x7fc00000 NaN, 0xffc00000 -NaN, 0x7f800000 inf): UNSORTED_SEGMENT_SUM adds
# acc + x and SEGMENT_SUM's compiled += adds x + acc; of two NaN operands x86 keeps the first one's
NAN_SIGNS = [
    ("UNSORTED_SEGMENT_SUM", [0x7FC00000, 0xFFC00000], 0x7FC00000),
    ("UNSORTED_SEGMENT_SUM", [0xFFC00000, 0x7F800000, 0x7FC00000], 0xFFC00000),
    ("UNSORTED_SEGMENT_PROD", [0xFFC00000, 0x7FC00000], 0xFFC00000),
    ("SEGMENT_SUM", [0x7FC00000, 0xFFC00000], 0xFFC00000),
    ("SEGMENT_SUM", [0xFFC00000, 0x7F800000, 0x7FC00000, 0x3F800000], 0x7FC00000),
    ("SEGMENT_SUM", [0x7F800000, 0xFF800000], 0xFFC00000),  # inf + -inf: x86's default NaN
    ("SEGMENT_SUM", [0x7F800000, 0xFF800000, 0x7FC00000], 0x7FC00000),
]


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64's NaN rules")
@pytest.mark.parametrize(("name", "bits", "want"), NAN_SIGNS)
def test_nan_signs(name, bits, want):
    d = np.uint32(bits).view(F)
    got = getattr(tfl, name)(d, np.zeros(len(bits), I32), *(() if name == "SEGMENT_SUM" else (1,)))
    assert int(got.view(np.uint32)[0]) == want


INT32_EDGES = [  # two's complement wrap (what the int32 kernels do), extremes
    (U[0], [-(2**31), -(2**31)], [0, 0], 2, [-(2**31), -(2**31)]),
    (U[1], [2**31 - 1, 2**31 - 1], [0, 0], 2, [2**31 - 1, 2**31 - 1]),
    (U[2], [2**31 - 1, 1], [0, 0], 1, [-(2**31)]),
    (U[2], [-(2**31), -1, -1], [0, 0, 0], 1, [2**31 - 2]),
    (U[3], [65536, 65536], [0, 0], 1, [0]),
    (U[3], [-(2**31), -1], [0, 0], 1, [-(2**31)]),
    (tfl.SEGMENT_SUM, [-(2**31), -1], [0, 0], None, [2**31 - 1]),
]


@pytest.mark.parametrize(("op", "data", "ids", "n", "want"), INT32_EDGES)
def test_int32_edges(op, data, ids, n, want):
    got = op(I32(data), I32(ids), *(() if n is None else (n,)))
    np.testing.assert_array_equal(got, I32(want))
    assert got.dtype == np.int32


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


_POOL = [float("nan"), -float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -1.0, LOW, HIGH, 2.5]


def _fold(red: str, data: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
    """The kernel's loop, written from tensorflow/lite/kernels/unsorted_segment.cc (float32 steps)."""
    start = {"max": F(LOW), "min": F(HIGH), "sum": F(0), "prod": F(1)}[red]
    out = np.full((n, *data.shape[ids.ndim :]), start, F)
    width = int(np.prod(data.shape[ids.ndim :]))
    rows, flat = data.reshape(ids.size, width), out.reshape(n, width)
    for j, s in enumerate(ids.reshape(-1)):
        if s < 0:
            continue
        for e in range(rows.shape[1]):
            a, x = flat[s, e], rows[j, e]
            if red == "max":
                flat[s, e] = x if a < x else a
            elif red == "min":
                flat[s, e] = x if x < a else a
            else:
                flat[s, e] = a + x if red == "sum" else a * x
    return out


@settings(max_examples=80, deadline=None)
@given(
    red=st.sampled_from(["max", "min", "sum", "prod"]),
    ids=st.lists(st.integers(-1, 2), max_size=7),
    picks=st.lists(st.integers(0, len(_POOL) - 1), min_size=14, max_size=14),
)
def test_nonfinite_property_against_the_kernel_loop(red, ids, picks):
    data = F([_POOL[k] for k in picks[: 2 * len(ids)]]).reshape(len(ids), 2)
    got = getattr(tfl, f"UNSORTED_SEGMENT_{red.upper()}")(data, I32(ids), 3)
    with np.errstate(all="ignore"):
        want = _fold(red, data, I32(ids), 3)
    assert (np.isnan(got) == np.isnan(want)).all(), (got, want)
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))
