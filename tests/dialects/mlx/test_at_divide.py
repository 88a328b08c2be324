"""gs.mlx.at_divide: hand-computed cases, errors, a property against a loop, and (opt-in, ``-m mlx``) real MLX.

MLX 0.32's ``a.at[i].divide(v)`` multiply-scatters ``reciprocal(v)`` (computed in v's dtype, integers in
float32, then cast to a's dtype) in index order: the expected values below are worked by hand from that rule.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs

I32 = np.int32
F16 = np.float16
CASES = [
    # repeats: 8 * (1/2) * (1/4) = 1
    (([8.0, 9.0], [0, 0], [2.0, 4.0]), [1.0, 9.0], np.float32),
    # negative index wraps once; a Python scalar broadcasts
    (([8.0, 9.0, 10.0], [-1], 2.0), [8.0, 9.0, 5.0], np.float32),
    # zero divisors: 1/0 = inf, 1/-0 = -inf, 1/inf = 0
    (([8.0, 9.0, 10.0], [0, 1, 2], [0.0, -0.0, np.inf]), [np.inf, -np.inf, 0.0], np.float32),
    # integer data: the reciprocal (float32) is truncated to int before multiplying
    ((np.array([8, 9, 10], I32), [0, 0, 2], np.array([2, 3, 4], I32)), [0, 9, 0], I32),
    ((np.array([8, 9, 10], I32), [0, 1, 2], np.array([1, -1, 2], I32)), [8, -9, 0], I32),
    ((np.array([8, 9, 10], I32), [0, 1, 2], [0.5, 0.25, 2.0]), [16, 36, 0], I32),
    # Python scalars: an int takes a's dtype (1/2 -> 0), a float on integer data is float32 (1/0.5 = 2)
    ((np.array([8, 9, 10], I32), [0, 1], 2), [0, 0, 10], I32),
    ((np.array([8, 9, 10], I32), [0, 1], 0.5), [16, 18, 10], I32),
    ((np.array([8, 9, 10], I32), [0, 1], True), [8, 9, 10], I32),
    # bool data: 1/True = 1 -> True, 1/False = inf -> True; False * True = False
    ((np.array([True, False]), [0, 1], np.array([True, False])), [True, False], np.bool_),
    # rows: values broadcast to a[indices].shape (2, 2): row 0 divided by [2, 4] twice
    (([[8.0, 9.0], [1.0, 2.0]], [0, 0], [2.0, 4.0]), [[2.0, 0.5625], [1.0, 2.0]], np.float32),
    # float64 data is MLX's float32
    ((np.array([3.0, 1.0]), [0], [3.0]), [np.float32(3.0) * np.float32(1 / np.float32(3.0)), 1.0], np.float32),
    # float16 data, float16 scalar reciprocal: 1/3 in float16 is 0.33325195, times 3 in float16 is 0.99975586
    ((np.array([3.0], F16), [0], 3.0), [0.99975586], F16),
    # a Python float on float16 data is first rounded to float16 (1.11 -> 1.1103516): 1/that -> 0.9004
    # (from float32's 1.11 it would be 0.901)
    ((np.array([1.0], F16), [0], 1.11), [0.9003906], F16),
    # an empty index changes nothing
    (([1.0, 2.0], np.zeros(0, np.int64), np.zeros(0, np.float32)), [1.0, 2.0], np.float32),
]


@pytest.mark.parametrize(("args", "want", "dtype"), CASES)
def test_hand_computed(args, want, dtype):
    got = gs.mlx.at_divide(*args)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.array(want, dtype))


def test_bfloat16_and_caller_unchanged():
    a = np.array([1.0, 2.0], ml_dtypes.bfloat16)
    v = np.array([3.0, 3.0], ml_dtypes.bfloat16)
    got = gs.mlx.at_divide(a, [0, 1], v)
    # 1/3 in bfloat16 is 0.333984375 (0x3EAB); 2 * that is exact
    assert got.dtype == ml_dtypes.bfloat16
    assert got.astype(np.float32).tolist() == [0.333984375, 0.66796875]
    assert a.astype(np.float32).tolist() == [1.0, 2.0]


ERRORS = [
    (([1.0, 2.0], [2], [1.0]), gs.IndexOutOfRangeError, "MLX does not check"),
    (([1.0, 2.0], [-3], [1.0]), gs.IndexOutOfRangeError, "-3"),
    ((np.ones((2, 2)), [0], [1.0, 2.0, 3.0]), gs.ShapeError, "does not broadcast"),
    ((np.float32(1.0), [0], [1.0]), gs.ShapeError, "at least one axis"),
    (([1.0, 2.0], (np.array([0]), np.array([1])), 1.0), gs.UnsupportedError, "got a tuple"),
    (([1.0, 2.0], slice(0, 1), 1.0), gs.UnsupportedError, "got a slice"),
    (([1.0, 2.0], [0.5], [1.0]), gs.DTypeError, "integer dtype"),
]


@pytest.mark.parametrize(("args", "exc", "fragment"), ERRORS)
def test_errors(args, exc, fragment):
    with pytest.raises(exc) as info:
        gs.mlx.at_divide(*args)
    assert fragment in str(info.value)
    assert "array.at[].divide" in str(info.value)


def _loop(a, idx, vals):
    """Independent loop over the rule: out[k] = out[k] * a.dtype(1 / float32(v)), in index order."""
    out = a.copy()
    for j, k in enumerate(idx):
        k = k + len(out) if k < 0 else k
        r = (np.float32(1) / np.float32(vals[j])).astype(a.dtype) if vals.dtype.kind == "i" else (
            vals.dtype.type(1) / vals[j]).astype(a.dtype)
        out[k] = (out[k] * r).astype(a.dtype)
    return out


@settings(max_examples=60, deadline=None)
@given(idx=st.lists(st.integers(-4, 3), max_size=10), seed=st.integers(0, 2**16),
       dtype=st.sampled_from(["float32", "float16", "int32"]))
def test_property(idx, seed, dtype):
    rng = np.random.default_rng(seed)
    if dtype == "int32":
        a = rng.integers(-9, 9, 4).astype(np.int32)
        vals = rng.choice(np.array([-2, -1, 1, 2], np.int32), len(idx))
    else:
        a = rng.uniform(-3, 3, 4).astype(dtype)
        vals = rng.uniform(0.5, 2.0, len(idx)).astype(dtype)
    with np.errstate(all="ignore"):
        want = _loop(a, idx, vals)
    got = gs.mlx.at_divide(a, np.array(idx, np.int64), vals)
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got.view(f"u{a.itemsize}"), want.view(f"u{a.itemsize}"))


@pytest.mark.mlx
def test_matches_real_mlx():
    """Bit patterns against MLX's CPU wheel: many repeats, float32/float16/bfloat16/int32 data, mixed values."""
    mx = pytest.importorskip("mlx.core")
    rng = np.random.default_rng(18)
    mdt = {"float32": mx.float32, "float16": mx.float16, "bfloat16": mx.bfloat16, "int32": mx.int32}
    ndt = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16, "int32": np.int32}
    compared = 0
    for k in range(48):
        dname = ("float32", "float16", "bfloat16", "int32")[k % 4]
        vname = (dname, "float32", "int32")[k // 4 % 3]
        a = rng.uniform(-3, 3, (5, 2)).astype(np.float32)
        v = rng.uniform(0.5, 2.0, (40, 2)).astype(np.float32)
        if dname == "int32":
            a = np.round(a * 3)
        if vname == "int32":
            v = rng.choice([-2.0, -1.0, 1.0, 2.0, 4.0], (40, 2)).astype(np.float32)
        idx = rng.integers(-5, 5, 40)
        ma = mx.array(a).astype(mdt[dname])
        mv = mx.array(v).astype(mdt[vname])
        theirs = np.array(ma.at[mx.array(idx)].divide(mv).astype(mx.float32))
        ours = gs.mlx.at_divide(a.astype(ndt[dname]), idx, v.astype(ndt[vname]))
        assert ours.dtype == ndt[dname]
        np.testing.assert_array_equal(ours.astype(np.float32), theirs, err_msg=f"{dname} / {vname}")
        compared += 1
    for scalar in (2, 0.5, 3.0, 1.11, True):  # 1/1.11 rounds differently in float16 and float32
        for dname in ("float16", "int32"):
            a = np.array([8, 9, 10], ndt[dname])
            theirs = np.array(mx.array(a).at[mx.array([0, 0, 2])].divide(scalar))
            np.testing.assert_array_equal(gs.mlx.at_divide(a, [0, 0, 2], scalar), theirs, err_msg=f"{dname} {scalar}")
            compared += 1
    assert compared == 58
