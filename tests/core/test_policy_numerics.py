"""The Policy fields for numerics: accumulate, mean_count, identity.

Expected values are worked out by hand from the documented semantics (IEEE
half/bfloat16 spacing, two's complement wrap), and the core (both backends) and
the loop oracle must each give them.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter import errors
from gatherscatter.core import IndexSpec, Policy, scatter
from gatherscatter.core.loops import scatter_loop
from tests.conftest import BACKENDS, has, using_backend

SPEC = IndexSpec(axis=0)


def _run(fn, backend, data, idx, upd, **kw):
    with using_backend(backend):
        return fn(data, np.asarray(idx), upd, SPEC, Policy(**kw))


ENGINES = [(scatter, b) for b in BACKENDS] + [(scatter_loop, "numpy")]
IDS = [f"core-{b}" for b in BACKENDS] + ["loop"]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_float16_sums_accumulate_in_float32(fn, backend):
    # 2048 + 1 is a tie in float16 (spacing 2 above 2048) and rounds to even: 2048, twice; in float32 it is 2050
    data, upd = np.array([2048.0, 7.0], np.float16), np.array([1.0, 1.0], np.float16)
    assert fn(data, [0, 0], upd, SPEC, Policy(reduction="add")).tolist() == [2048.0, 7.0]
    with using_backend(backend):
        got = fn(data, np.array([0, 0]), upd, SPEC, Policy(reduction="add", accumulate="float32"))
    assert got.dtype == np.float16 and got.tolist() == [2050.0, 7.0]
    # products: 1.5**3 = 3.375 exactly either way; the float32 path rounds once at the end
    got = _run(fn, backend, np.array([1.0], np.float16), [0, 0, 0], np.array([1.5] * 3, np.float16),
               reduction="mul", accumulate="float32")
    assert got.tolist() == [3.375]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_float16_mean_rounds_the_float32_sum_once_then_divides(fn, backend):
    # (2048 + 1 + 1) / 3: float32 sum 2050 -> float16 2050 -> / 3 = 683.33 -> float16 683.5 (spacing 0.5)
    data, upd = np.array([2048.0], np.float16), np.array([1.0, 1.0], np.float16)
    assert _run(fn, backend, data, [0, 0], upd, reduction="mean", accumulate="float32").tolist() == [683.5]
    # in float16 the sum stays 2048: 2048 / 3 = 682.67 -> 682.5
    assert _run(fn, backend, data, [0, 0], upd, reduction="mean").tolist() == [682.5]


@pytest.mark.skipif(not has("ml_dtypes"), reason="bfloat16 needs ml_dtypes")
@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_bfloat16_sums_accumulate_in_float32(fn, backend):
    import ml_dtypes

    bf = ml_dtypes.bfloat16
    data, upd = np.array([256.0], bf), np.array([1.0, 1.0], bf)  # bfloat16 spacing above 256: 2
    assert _run(fn, backend, data, [0, 0], upd, reduction="add").astype(float).tolist() == [256.0]
    assert _run(fn, backend, data, [0, 0], upd, reduction="add", accumulate="float32").astype(float).tolist() == [258.0]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_accumulate_leaves_other_dtypes_and_reductions_alone(fn, backend):
    data = np.array([1.0, 2.0], np.float32)
    upd = np.array([3.0, 4.0], np.float32)
    got = _run(fn, backend, data, [1, 1], upd, reduction="add", accumulate="float32")
    assert got.dtype == np.float32 and got.tolist() == [1.0, 9.0]
    h = np.array([np.nan, 1.0], np.float16)
    got = _run(fn, backend, h, [1], np.array([5.0], np.float16), reduction="max", accumulate="float32")
    assert got.dtype == np.float16 and np.isnan(got[0]) and got[1] == 5.0


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
@pytest.mark.parametrize(
    ("mean_count", "expected"),
    [
        # int8: 200 updates of 1 with include_self=False sum to 200, which int8 holds as -56
        ("exact", -1),  # -56 / 200 = -0.28 -> floor -1
        ("rounded", 1),  # the count 200 is also -56 in int8: -56 / -56 = 1
        ("stepwise", 1),  # grown by one 200 times in int8: -56 again
    ],
)
def test_int8_mean_count(fn, backend, mean_count, expected):
    got = _run(fn, backend, np.zeros(2, np.int8), [0] * 200, np.ones(200, np.int8),
               reduction="mean", include_self=False, mean_count=mean_count)
    assert got.tolist() == [expected, 0]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
@pytest.mark.parametrize(("rounding", "expected"), [("floor", -2), ("trunc", -1)])
def test_a_wrapped_negative_count_rounds_per_mean_rounding(fn, backend, rounding, expected):
    # 200 updates of 3 sum to 600 = 88 in int8; the count 200 is -56 in int8: 88 / -56 = -1.57
    got = _run(fn, backend, np.zeros(1, np.int8), [0] * 200, np.full(200, 3, np.int8),
               reduction="mean", include_self=False, mean_count="rounded", mean_rounding=rounding)
    assert got.tolist() == [expected]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_uint8_count_that_wraps_to_zero_divides_by_one(fn, backend):
    # 255 updates of 3 plus self 4: sum 769 -> 769 mod 256 = 1; count 256 -> 0 in uint8 -> 1
    got = _run(fn, backend, np.array([4], np.uint8), [0] * 255, np.full(255, 3, np.uint8),
               reduction="mean", mean_count="rounded")
    assert got.tolist() == [1]
    got = _run(fn, backend, np.array([4], np.uint8), [0] * 255, np.full(255, 3, np.uint8), reduction="mean")
    assert got.tolist() == [0]  # exact: 1 // 256


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
def test_float16_stepwise_count_stops_at_2048(fn, backend):
    # 3000 ones summed in float32 and rounded: 3000 (exact in float16); counted one by one in float16 the
    # count stops at 2048 (2048 + 1 rounds back to 2048): 3000 / 2048 = 1.46484375 (exact in float16)
    data, upd = np.zeros(1, np.float16), np.ones(3000, np.float16)
    kw = dict(reduction="mean", include_self=False, accumulate="float32")
    assert _run(fn, backend, data, [0] * 3000, upd, **kw, mean_count="stepwise").tolist() == [1.46484375]
    assert _run(fn, backend, data, [0] * 3000, upd, **kw, mean_count="rounded").tolist() == [1.0]
    assert _run(fn, backend, data, [0] * 3000, upd, **kw).tolist() == [1.0]


@pytest.mark.parametrize(("fn", "backend"), ENGINES, ids=IDS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_finite_identity(fn, backend, dtype):
    big = float(np.finfo(dtype).max)
    data = np.array([5.0, 5.0], dtype)
    got = _run(fn, backend, data, [0], np.array([-np.inf], dtype), reduction="max", include_self=False)
    assert got.tolist() == [-np.inf, 5.0]
    got = _run(fn, backend, data, [0], np.array([-np.inf], dtype), reduction="max", include_self=False,
               identity="finite")
    assert got.tolist() == [-big, 5.0]
    got = _run(fn, backend, data, [1, 1], np.array([np.inf, np.inf], dtype), reduction="min", include_self=False,
               identity="finite")
    assert got.tolist() == [5.0, big]
    # a finite update wins over the finite start; NaN still propagates
    got = _run(fn, backend, data, [0, 1], np.array([-3.0, np.nan], dtype), reduction="max", include_self=False,
               identity="finite")
    assert got[0] == -3.0 and np.isnan(got[1])
    # integers start from their extremes either way
    ints = _run(fn, backend, np.array([5], np.int16), [0], np.array([-7], np.int16), reduction="max",
                include_self=False, identity="finite")
    assert ints.tolist() == [-7]


def test_policy_fields_parse_strings_and_reject_unknown_values():
    p = Policy(accumulate="float32", mean_count="stepwise", identity="finite")
    assert (p.accumulate.value, p.mean_count.value, p.identity.value) == ("float32", "stepwise", "finite")
    assert Policy() == Policy(accumulate="data", mean_count="exact", identity="inf")
    with pytest.raises(errors.UnsupportedError, match="unknown accumulation policy 'float64'"):
        Policy(accumulate="float64")
    with pytest.raises(errors.UnsupportedError, match="unknown mean count policy 'approx'; expected one of"):
        Policy(mean_count="approx")
    with pytest.raises(errors.UnsupportedError, match="unknown max/min identity 'zero'"):
        Policy(identity="zero")
    with pytest.raises(errors.ArgumentError, match="must be a string"):
        Policy(identity=0)
    assert "identity=finite" in Policy(reduction="max", include_self=False, identity="finite").describe()
    assert "identity" not in Policy(reduction="max", identity="finite").describe()  # only where it matters
    assert "identity" not in Policy(reduction="add", identity="finite").describe()
    assert Policy(reduction="add").with_(accumulate="float32").accumulate.value == "float32"
