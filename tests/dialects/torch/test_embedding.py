"""torch.nn.functional.embedding and embedding_bag: hand-computed cases, errors, properties, and torch itself."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import embedding as oracle

W = np.array([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [-7.0, 8.0]], np.float32)
INP = np.array([0, 1, 2, 3, 1])

EMB_CASES = [
    (([[0, 2], [2, 1]], W), {}, [[[1.0, 2.0], [5.0, 6.0]], [[5.0, 6.0], [3.0, -4.0]]]),
    ((np.int32(1), W), {}, [3.0, -4.0]),
    (([3, 3], W), {"padding_idx": -1}, [[-7.0, 8.0], [-7.0, 8.0]]),
    (([1], [[3.0, 4.0], [6.0, 8.0]]), {"max_norm": 5.0}, [[6.0 * 5 / (10 + 1e-7), 8.0 * 5 / (10 + 1e-7)]]),
]


@pytest.mark.parametrize(("args", "kw", "want"), EMB_CASES)
def test_embedding_hand_computed(args, kw, want):
    got = gs.torch.embedding(*args, **kw)
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def test_embedding_renorm_reports_the_weight_without_touching_it():
    w = np.array([[3.0, 4.0], [0.0, 1.0], [6.0, 8.0]])
    before = w.copy()
    out = gs.torch.embedding([0, 0, 1], w, max_norm=1.0)
    new = gs.torch.embedding.renorm([0, 0, 1], w, max_norm=1.0)
    np.testing.assert_array_equal(w, before)
    np.testing.assert_array_equal(new, [[3 / (5 + 1e-7), 4 / (5 + 1e-7)], [0.0, 1.0], [6.0, 8.0]])
    np.testing.assert_array_equal(out, new[[0, 0, 1]])


BAG_CASES = [
    ({"offsets": [0, 2, 2], "mode": "sum"}, [[4.0, -2.0], [0.0, 0.0], [1.0, 10.0]]),
    ({"offsets": [0, 2, 2], "mode": "mean"}, [[2.0, -1.0], [0.0, 0.0], [1 / 3, 10 / 3]]),
    ({"offsets": [0, 2, 2], "mode": "max"}, [[3.0, 2.0], [0.0, 0.0], [5.0, 8.0]]),
    ({"offsets": [0, 2, 2], "mode": "mean", "padding_idx": 1}, [[1.0, 2.0], [0.0, 0.0], [-1.0, 7.0]]),
    ({"offsets": [0, 2, 2, 4], "mode": "sum", "include_last_offset": True}, [[4.0, -2.0], [0.0, 0.0], [-2.0, 14.0]]),
    ({"offsets": [0, 2, 2, 4], "mode": "mean", "include_last_offset": True},
     [[2.0, -1.0], [0.0, 0.0], [-2 / 3, 14 / 3]]),  # torch divides the last bag by len(input) - 2 = 3
    ({"offsets": [0, 2, 2], "mode": "sum", "per_sample_weights": np.array([1.0, 2.0, 0.5, 0.0, 1.0], np.float32)},
     [[7.0, -6.0], [0.0, 0.0], [5.5, -1.0]]),
    ({"offsets": [], "mode": "sum"}, np.zeros((0, 2))),
]


@pytest.mark.parametrize(("kw", "want"), BAG_CASES)
def test_embedding_bag_hand_computed(kw, want):
    got = gs.torch.embedding_bag(INP, W, **{k: (np.array(v, np.int64) if k == "offsets" else v) for k, v in kw.items()})
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.asarray(want, np.float32), rtol=1e-6)


ERRORS = [
    (gs.torch.embedding, ([4], W), {}, gs.IndexOutOfRangeError, "index out of range in self"),
    (gs.torch.embedding, ([-1], W), {}, gs.IndexOutOfRangeError, "index out of range in self"),
    (gs.torch.embedding, ([0.0], W), {}, gs.DTypeError, "input"),
    (gs.torch.embedding, ([0], W), {"padding_idx": 4}, gs.IndexOutOfRangeError, "Padding_idx must be within"),
    (gs.torch.embedding, ([0], [1.0, 2.0]), {}, gs.ShapeError, "'weight' must be 2-D"),
    (gs.torch.embedding_bag, (INP, W, [1, 2]), {}, gs.IndexOutOfRangeError, "offsets[0] has to be 0"),
    (gs.torch.embedding_bag, (INP, W, [0, 6]), {}, gs.IndexOutOfRangeError, "can not be greater than input's length"),
    (gs.torch.embedding_bag, (INP, W, [0, 3, 2]), {}, gs.IndexOutOfRangeError, "non-decreasing"),
    (gs.torch.embedding_bag, (INP, W), {}, gs.ShapeError, "offsets has to be a 1D Tensor"),
    (gs.torch.embedding_bag, ([[0, 1]], W, [0]), {}, gs.ShapeError, "offsets has to be None"),
    (gs.torch.embedding_bag, (INP, W, [0, 2]), {"mode": "avg"}, gs.UnsupportedError, "sum, mean or max"),
    (gs.torch.embedding_bag, (INP, W.astype(np.int64), [0, 2]), {}, gs.DTypeError, "Float, Double, Half"),
    (gs.torch.embedding_bag, (INP, W, [0, 2]), {"per_sample_weights": np.ones(5, np.float32)},
     gs.UnsupportedError, "only supported for mode='sum'"),
]


@pytest.mark.parametrize(("op", "args", "kw", "exc", "fragment"), ERRORS)
def test_errors(op, args, kw, exc, fragment):
    with pytest.raises(exc) as info:
        op(*args, **kw)
    assert fragment in str(info.value)
    assert op.info.qualname in str(info.value)


@settings(max_examples=60, deadline=None)
@given(
    idx=st.lists(st.integers(0, 3), max_size=8),
    cuts=st.lists(st.integers(0, 8), max_size=3),
    mode=st.sampled_from(["sum", "mean", "max"]),
    pad=st.sampled_from([None, 1]),
    seed=st.integers(0, 2**16),
)
def test_property_against_oracle(idx, cuts, mode, pad, seed):
    w = np.random.default_rng(seed).integers(-4, 5, (4, 3)).astype(np.float64)
    np.testing.assert_array_equal(gs.torch.embedding(np.array(idx, np.int64), w), oracle.embedding(idx, w))
    off = sorted({0, *(c for c in cuts if c <= len(idx))})
    bags = [list(range(a, b)) for a, b in zip(off, [*off[1:], len(idx)], strict=True)]
    got = gs.torch.embedding_bag(np.array(idx, np.int64), w, np.array(off), mode=mode, padding_idx=pad)
    np.testing.assert_allclose(got, oracle.embedding_bag(idx, w, bags, mode, padding_idx=pad), rtol=1e-12)


def test_against_torch():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(18)
    agree = 0
    for k in range(120):
        dtype = (np.float32, np.float64)[k % 2]
        w = rng.normal(size=(5, 3)).astype(dtype) * 3
        m = int(rng.integers(0, 8))
        idx = rng.integers(0, 5, m)
        kw: dict = {}
        if k % 3 == 0:
            kw["max_norm"] = 2.0
        if k % 4 == 1:
            kw["padding_idx"] = int(rng.integers(-5, 5))
        tw = torch.tensor(w)
        want = F.embedding(torch.tensor(idx), tw, **kw).numpy()
        np.testing.assert_array_equal(gs.torch.embedding(idx, w, **kw), want, err_msg=f"embedding {k}")
        np.testing.assert_array_equal(gs.torch.embedding.renorm(idx, w, kw.get("max_norm", 1e9)) if "max_norm" in kw
                                      else w, tw.numpy(), err_msg=f"renorm {k}")
        # embedding_bag
        mode = ("sum", "mean", "max")[k % 3]
        off = np.array(sorted({0, *rng.integers(0, m + 1, int(rng.integers(0, 3))).tolist()}))
        bkw: dict = {"mode": mode}
        if k % 5 == 2:
            bkw["include_last_offset"] = True
        if k % 4 == 3:
            bkw["padding_idx"] = int(rng.integers(0, 5))
        if mode == "sum" and k % 2:
            bkw["per_sample_weights"] = rng.normal(size=m).astype(dtype)
        if off.size <= 1 and bkw.get("include_last_offset"):
            continue  # zero bags: torch 2.13 corrupts its heap here (divergence record); ours returns shape (0, 3)
        tkw = {a: (torch.tensor(v) if isinstance(v, np.ndarray) else v) for a, v in bkw.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = F.embedding_bag(torch.tensor(idx), torch.tensor(w), torch.tensor(off), **tkw).numpy()
        got = gs.torch.embedding_bag(idx, w, off, **bkw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=2e-6 if dtype == np.float32 else 1e-13, atol=1e-6,
                                   err_msg=f"embedding_bag {k} {bkw} off={off} idx={idx}")
        agree += 2
    print(f"torch embedding/embedding_bag: {agree} cases agree")
