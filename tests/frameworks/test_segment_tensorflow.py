"""tf.math.segment_* / unsorted_segment_* against a real TensorFlow 2.21 CPU (opt-in: ``pytest -m tensorflow``).

Random small cases (sorted and unsorted ids, negative and too-large ids, empty
segments, several dtypes); each must agree in value, dtype and shape, or both
sides must raise. Run with ``-s`` to see the tally.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects.tensorflow.segment import SORTED, UNSORTED

pytestmark = [pytest.mark.tensorflow]

DTYPES = ("float32", "float64", "int32", "int64", "float16")
N = 40


def _tf():
    tf = pytest.importorskip("tensorflow")
    return tf


def _cases(name: str, sorted_: bool):
    rng = np.random.default_rng(sum(map(ord, name)))
    for k in range(N):
        dtype = DTYPES[k % len(DTYPES)]
        m = int(rng.integers(0, 7))
        rest = [(), (2,), (1, 3)][k % 3]
        data = rng.integers(-4, 5, (m, *rest)).astype(dtype)
        if sorted_:
            ids = np.sort(rng.integers(0, 5, m))
            if k % 7 == 3 and m > 1:
                ids = ids[::-1].copy()  # decreasing: an error
            if k % 11 == 5 and m:
                ids[0] = -1
            yield data, ids.astype(np.int64 if k % 2 else np.int32), None
        else:
            ids = rng.integers(-2, 6, m)
            n = int(rng.integers(0, 7))
            if k % 4 == 0 and m:
                ids = np.clip(ids, -2, max(n - 1, -1))  # mostly valid
            yield data, ids.astype(np.int64 if k % 2 else np.int32), n


@pytest.mark.parametrize(("name", "sorted_"), [(n, True) for n in SORTED] + [(n, False) for n in UNSORTED])
def test_segment_ops_match_tensorflow(name, sorted_):
    tf = _tf()
    ours_op = getattr(gs.tensorflow, name)
    theirs_op = getattr(tf.math, name)
    agree = both_raise = 0
    for data, ids, n in _cases(name, sorted_):
        if name.endswith("sqrt_n") and data.dtype.kind in "iu":
            data = data.astype(np.float32)
        args = (data, ids) if sorted_ else (data, ids, n)
        try:
            with tf.device("/CPU:0"):
                want = theirs_op(*[tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]).numpy()
        except (tf.errors.InvalidArgumentError, ValueError, TypeError):
            with pytest.raises(gs.GatherScatterError):
                ours_op(*args)
            both_raise += 1
            continue
        got = ours_op(*args)
        assert got.dtype == want.dtype, (name, args)
        np.testing.assert_array_equal(got, want, err_msg=f"{name}{args}")
        agree += 1
    print(f"{name}: {agree} agree, {both_raise} both raise")
    assert agree >= N // 3


def test_embedding_lookup_matches_tensorflow():
    tf = _tf()
    rng = np.random.default_rng(18)
    agree = both = 0
    for k in range(60):
        dtype = ("float32", "float64", "int32")[k % 3]
        params = (rng.normal(size=(5, 3)) * 3).astype(dtype)
        ids = rng.integers(-1 if k % 10 == 0 else 0, 5 if k % 7 else 6, (int(rng.integers(0, 4)), 2))
        kw = {"max_norm": 2.0} if k % 2 and dtype != "int32" else {}
        try:
            want = tf.nn.embedding_lookup(tf.constant(params), tf.constant(ids), **kw).numpy()
        except tf.errors.InvalidArgumentError:
            with pytest.raises(gs.IndexOutOfRangeError):
                gs.tensorflow.embedding_lookup(params, ids, **kw)
            both += 1
            continue
        got = gs.tensorflow.embedding_lookup(params, ids, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=f"case {k} {kw}")
        agree += 1
    print(f"tf.nn.embedding_lookup: {agree} agree, {both} both raise")


POOL = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0])


@pytest.mark.parametrize("name", ["segment_max", "segment_min", "unsorted_segment_max", "unsorted_segment_min"])
def test_nonfinite_max_min_match_tensorflow_bitwise(name):
    """NaN (both signs), infinities and signed zeros, rows of 1-17 elements (packet and scalar columns of the
    sorted kernel), sorted and shuffled ids: the same bits as TF."""
    tf = _tf()
    from tests.dialects.test_segment_folds import ROWS

    rng = np.random.default_rng(sum(map(ord, name)))
    agree = 0
    for op, data, ids, _ in ROWS:  # the hand-computed rows, checked here against TF itself
        if op is getattr(gs.tensorflow, name):
            n = () if name.startswith("segment") else (max(ids) + 1,)
            want = getattr(tf.math, name)(np.float32(data), np.int64(ids), *n).numpy()
            assert op(np.float32(data), np.int64(ids), *n).tobytes() == want.tobytes(), (data, ids)
            agree += 1
    for k in range(120):
        dtype = ("float32", "float64", "float16")[k % 3]
        data = rng.choice(POOL, (int(rng.integers(1, 14)), *[(), (1,), (4,), (8,), (9,), (17,), (2, 5)][k % 7]))
        ids = np.sort(rng.integers(0, 4, data.shape[0]))
        args = (data.astype(dtype), ids) if name.startswith("segment") else (
            data.astype(dtype), rng.permutation(ids) if k % 2 else ids, int(ids[-1]) + 1 + k % 2)
        want = getattr(tf.math, name)(*args).numpy()
        got = getattr(gs.tensorflow, name)(*args)
        assert got.tobytes() == want.tobytes() and got.shape == want.shape, args
        agree += 1
    print(f"{name} nonfinite: {agree} agree")
