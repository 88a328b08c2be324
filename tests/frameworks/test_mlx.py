"""gs.mlx against the real MLX CPU wheel (opt-in: ``pytest -m mlx``). ``-s`` shows the tallies.

Only in-range indices are compared: MLX does not check bounds (out-of-range reads return garbage and
out-of-range ``.at[]`` updates can crash the process: a recorded divergence, gatherscatter raises).
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.mlx]
N = 60


def test_ops_match_mlx():
    mx = pytest.importorskip("mlx.core")
    rng = np.random.default_rng(18)
    agree = 0
    for k in range(N):
        dt = ("float32", "int32", "float64", "int64")[k % 4]
        a = rng.integers(-9, 9, (3, 4)).astype(dt)
        ma = mx.array(a)
        idx = rng.integers(-4, 4, 5)
        pairs = [
            (gs.mlx.take(a, idx, axis=1), mx.take(ma, mx.array(idx), axis=1)),
            (gs.mlx.take(a, idx * 3), mx.take(ma, mx.array(idx * 3))),
        ]
        ti = rng.integers(-4, 4, (1 if k % 2 else 3, 2))
        pairs.append((gs.mlx.take_along_axis(a, ti, axis=1), mx.take_along_axis(ma, mx.array(ti), axis=1)))
        pi = np.stack([rng.permutation(4)[:2] for _ in range(3)]) - (4 if k % 3 == 0 else 0)
        pv = rng.integers(-9, 9, (3, 2)).astype(dt)
        pairs.append((gs.mlx.put_along_axis(a, pi, pv, axis=1),
                      mx.put_along_axis(ma, mx.array(pi), mx.array(pv), axis=1)))
        ai = rng.integers(-3, 3, 4)
        av = rng.integers(-3, 4, (4, 4)).astype(dt)
        for name in ("add", "subtract", "multiply", "maximum", "minimum"):
            theirs = getattr(ma.at[mx.array(ai)], name)(mx.array(av))
            pairs.append((getattr(gs.mlx, f"at_{name}")(a, ai, av), theirs))
        for ours, theirs in pairs:
            want = np.array(theirs)
            assert ours.dtype == want.dtype, (k, ours.dtype, want.dtype)
            np.testing.assert_array_equal(ours, want, err_msg=f"case {k}")
            agree += 1
    print(f"mlx: {agree} cases agree")


def test_at_on_a_size_0_first_axis_raises_as_mlx():
    """MLX: an array of indices into a first axis of size 0 is a ValueError ('Updates ... too large'), even when
    empty; ours a ShapeError (a ValueError). An empty index array into a non-empty axis changes nothing."""
    mx = pytest.importorskip("mlx.core")
    compared = 0
    for shape in ((0,), (0, 3)):
        for name in ("add", "subtract", "multiply", "maximum", "minimum", "divide"):
            for idx in (np.zeros(0, np.int32), np.array(0, np.int32), np.array([0, 0], np.int32)):
                upd = np.ones(idx.shape + shape[1:], np.float32)
                with pytest.raises(ValueError, match="too large"):
                    getattr(mx.zeros(shape).at[mx.array(idx)], name)(mx.array(upd))
                with pytest.raises(gs.ShapeError, match="size 0 on its first axis"):
                    getattr(gs.mlx, f"at_{name}")(np.zeros(shape, np.float32), idx, upd)
                compared += 1
    a = np.array([1.0, 2.0, 3.0], np.float32)
    for name in ("add", "subtract", "multiply", "maximum", "minimum", "divide"):
        theirs = np.array(getattr(mx.array(a).at[mx.array(np.zeros(0, np.int32))], name)(mx.array(np.zeros(0))))
        np.testing.assert_array_equal(getattr(gs.mlx, f"at_{name}")(a, np.zeros(0, np.int32), np.zeros(0)), theirs)
        compared += 1
    for shape, ishape, axis in (((0,), (0,), 0), ((2, 0), (2, 0), 1), ((0, 2), (0, 1), 1), ((0,), (0,), None)):
        a, i, v = np.zeros(shape, np.float32), np.zeros(ishape, np.int32), np.zeros(ishape, np.float32)
        theirs = np.array(mx.put_along_axis(mx.array(a), mx.array(i), mx.array(v), axis=axis))  # no error in MLX
        ours = gs.mlx.put_along_axis(a, i, v, axis=axis)
        assert ours.shape == theirs.shape == shape and ours.dtype == theirs.dtype
        compared += 1
    print(f"mlx size-0 at[] and put_along_axis: {compared} cases agree")
