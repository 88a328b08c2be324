"""jax.ops.segment_* and torch.segment_reduce against the real JAX (x64) and torch 2.13 (CPU); run in CI.

Random small cases; each must agree in value, dtype and shape, or both sides must raise.
Run with ``-s`` to see the tallies.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects.jax.segment import SEGMENT
from gatherscatter.dialects.torch.segment_reduce import REDUCE

N = 60


@pytest.mark.parametrize("name", list(SEGMENT))
def test_jax_segment_ops_match_jax(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    theirs = getattr(jax.ops, name)
    ours = getattr(gs.jax, name)
    rng = np.random.default_rng(sum(map(ord, name)))
    agree = 0
    for k in range(N):
        dtype = ("float32", "float64", "int32", "int64", "uint8")[k % 5]
        m = int(rng.integers(0, 7))
        data = rng.integers(0, 5, (m, *[(), (2,)][k % 2])).astype(dtype)
        ids = rng.integers(-2, 7, m)
        n = int(rng.integers(0, 6))
        mode = (None, "clip", "drop", "promise_in_bounds")[k % 4]
        want = np.asarray(theirs(data, ids, n, mode=mode))
        got = ours(data, ids, n, mode=mode)
        assert got.dtype == want.dtype, (name, k)
        np.testing.assert_array_equal(got, want, err_msg=f"{name} case {k}")
        agree += 1
    print(f"jax.ops.{name}: {agree} agree")


@pytest.mark.parametrize("reduce", list(REDUCE))
def test_torch_segment_reduce_matches_torch(reduce):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(sum(map(ord, reduce)))
    agree = both = 0
    for k in range(N):
        dtype = ("float32", "float64")[k % 2]
        nseg = int(rng.integers(1, 5))
        lengths = rng.integers(0, 4, nseg)
        m = int(lengths.sum()) + (1 if k % 9 == 4 else 0)  # sometimes a length mismatch: an error
        data = rng.integers(-3, 4, (m, *[(), (2,)][k % 2])).astype(dtype)
        kw: dict = {"lengths": lengths} if k % 3 else {"offsets": np.concatenate([[0], np.cumsum(lengths)])}
        if k % 4 == 1:
            kw["initial"] = 0.5
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tkw = {a: (torch.tensor(v) if isinstance(v, np.ndarray) else v) for a, v in kw.items()}
                want = torch.segment_reduce(torch.tensor(data), reduce, **tkw).numpy()
        except RuntimeError:
            with pytest.raises(gs.GatherScatterError):
                gs.torch.segment_reduce(data, reduce, **kw)
            both += 1
            continue
        got = gs.torch.segment_reduce(data, reduce, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == "float32" else 1e-12, err_msg=f"{reduce} {k}")
        agree += 1
    print(f"torch.segment_reduce({reduce!r}): {agree} agree, {both} both raise")
    assert agree >= N // 2


POOL = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0])


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_nonfinite_max_min_match_jax_and_torch_bitwise(reduce):
    """NaN (both signs), infinities and signed zeros: the same bits as jax (scatter fold, mode drop/clip) and
    torch (lengths, a batch axis, initial)."""
    jax = pytest.importorskip("jax")
    torch = pytest.importorskip("torch")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(18 + len(reduce))
    agree = 0
    for k in range(80):
        dtype = ("float32", "float64", "float16")[k % 3]
        data = rng.choice(POOL, (int(rng.integers(1, 10)), *[(), (3,), (2, 4)][k % 3])).astype(dtype)
        ids = rng.integers(-1, 5, data.shape[0])
        mode = "clip" if k % 4 == 0 else None
        if dtype != "float16":
            want = np.asarray(getattr(jax.ops, f"segment_{reduce}")(data, ids, 4, mode=mode))
            got = getattr(gs.jax, f"segment_{reduce}")(data, ids, 4, mode=mode)
            assert got.tobytes() == want.tobytes(), (data.tolist(), ids.tolist(), mode)
            agree += 1
        lengths = np.stack([np.bincount(np.sort(rng.integers(0, 3, data.shape[0])), minlength=3)] * 2)
        batch = np.stack([data, data[::-1]])
        kw = {"initial": float(rng.choice([0.0, -0.0, 1.0]))} if k % 5 == 0 else {}
        want = torch.segment_reduce(torch.from_numpy(batch), reduce, lengths=torch.from_numpy(lengths), axis=1,
                                    **kw).numpy()
        got = gs.torch.segment_reduce(batch, reduce, lengths=lengths, axis=1, **kw)
        assert got.tobytes() == want.tobytes(), (batch.tolist(), lengths.tolist(), kw)
        agree += 1
    print(f"segment {reduce} nonfinite: {agree} agree")
