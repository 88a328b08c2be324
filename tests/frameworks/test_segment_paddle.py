"""paddle.geometric.segment_* against a real Paddle 3.3.1 CPU (opt-in: ``pytest -m paddle``)."""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects.paddle.segment import SEGMENT

pytestmark = [pytest.mark.paddle]
N = 40


@pytest.mark.parametrize("name", list(SEGMENT))
def test_segment_ops_match_paddle(name):
    paddle = pytest.importorskip("paddle")
    theirs = getattr(paddle.geometric, name)
    ours = getattr(gs.paddle, name)
    rng = np.random.default_rng(sum(map(ord, name)))
    agree = both = 0
    for k in range(N):
        dtype = ("float32", "float64", "int32", "int64", "float16")[k % 5]
        m = int(rng.integers(1, 7))  # paddle crashes on empty data (divergence record)
        data = rng.integers(-4, 5, (m, *[(), (2,)][k % 2])).astype(dtype)
        ids = np.sort(rng.integers(0, 5, m))
        if k % 7 == 3 and m > 1:
            ids = ids[::-1].copy()
        if k % 11 == 5:
            ids[0] = -1
        ids = ids.astype(np.int64 if k % 2 else np.int32)
        try:
            want = theirs(paddle.to_tensor(data), paddle.to_tensor(ids)).numpy()
        except (ValueError, IndexError, RuntimeError):
            with pytest.raises(gs.GatherScatterError):
                ours(data, ids)
            both += 1
            continue
        got = ours(data, ids)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=f"{name} {k}")
        agree += 1
    print(f"paddle.geometric.{name}: {agree} agree, {both} both raise")
    assert agree >= N // 2


@pytest.mark.parametrize("name", ["segment_max", "segment_min"])
def test_nonfinite_max_min_match_paddle_bitwise(name):
    """NaN (both signs), infinities and signed zeros: the same bits as paddle (the later row unless smaller)."""
    paddle = pytest.importorskip("paddle")
    rng = np.random.default_rng(sum(map(ord, name)))
    pool = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0])
    agree = 0
    for k in range(90):
        dtype = ("float32", "float64", "float16")[k % 3]
        data = rng.choice(pool, (int(rng.integers(1, 20)), *[(), (3,), (8,), (17,)][k % 4])).astype(dtype)
        ids = np.sort(rng.integers(0, 4, data.shape[0]))
        want = getattr(paddle.geometric, name)(paddle.to_tensor(data), paddle.to_tensor(ids)).numpy()
        got = getattr(gs.paddle, name)(data, ids)
        assert got.tobytes() == want.tobytes() and got.shape == want.shape, (data.tolist(), ids.tolist())
        agree += 1
    print(f"paddle {name} nonfinite: {agree} agree")
