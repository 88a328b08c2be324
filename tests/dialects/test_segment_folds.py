"""Segment max/min on NaN, infinities and signed zeros: each framework's own fold, bit for bit.

Hand-computed rows (measured on the real frameworks: TF 2.21 x86-64 CPU, jax x64 CPU, torch 2.13 CPU,
paddle 3.3.1 CPU) and a property against loop oracles written here from the kernels' folds (not from the
code under test). The framework comparisons are in ``tests/frameworks/test_segment_*.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs

NAN, INF = float("nan"), float("inf")
MNAN = -NAN  # a NaN with its sign bit set
LOW, HIGH = float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)
tf, jx, pd = gs.tensorflow, gs.jax, gs.paddle


def _bits(a) -> list[int]:
    return np.ascontiguousarray(np.asarray(a, np.float32)).view(np.uint32).tolist()


def _torch(reduce, **kw):
    return lambda data, ids, *rest: gs.torch.segment_reduce(data, reduce, lengths=np.bincount(ids), **kw)


# (op, data, segment_ids, expected): all float32, one segment per row below unless ids say otherwise
ROWS = [
    # tf.math.unsorted_segment_*: acc = acc if x < acc else x (max) from lowest(): a NaN is taken and replaced
    (tf.unsorted_segment_max, [1, NAN], [0, 0], [NAN]),
    (tf.unsorted_segment_max, [NAN, 1], [0, 0], [1]),
    (tf.unsorted_segment_max, [3, NAN, 2], [0, 0, 0], [2]),
    (tf.unsorted_segment_max, [NAN, -INF], [0, 0], [-INF]),
    (tf.unsorted_segment_max, [-INF, -INF], [0, 0], [LOW]),
    (tf.unsorted_segment_max, [0.0, -0.0, -1], [0, 0, 0], [-0.0]),
    (tf.unsorted_segment_max, [-0.0, 0.0], [0, 0], [0.0]),
    (tf.unsorted_segment_min, [1, NAN, 5, NAN, 3], [0, 0, 1, 1, 1], [NAN, 3]),
    (tf.unsorted_segment_min, [INF, INF, 0.0, -0.0], [0, 0, 1, 1], [HIGH, -0.0]),
    # tf.math.segment_* (sorted), one column: the same fold from -inf / +inf; a one-row segment is copied
    (tf.segment_max, [1, NAN, NAN, 1, -INF, -INF, NAN], [0, 0, 1, 1, 2, 2, 3], [NAN, 1, -INF, NAN]),
    (tf.segment_min, [0.0, -0.0, INF, INF], [0, 0, 1, 1], [-0.0, INF]),
    # jax.ops.segment_*: XLA orders -0 below +0; a NaN x gives NaN with the sign bits ANDed (max) / ORed (min)
    (jx.segment_max, [0.0, -0.0, -0.0, 0.0], [0, 0, 1, 1], [0.0, 0.0]),
    (jx.segment_min, [0.0, -0.0, -0.0, 0.0], [0, 0, 1, 1], [-0.0, -0.0]),
    (jx.segment_min, [-1, NAN, NAN, -1], [0, 0, 1, 1], [MNAN, NAN]),
    (jx.segment_max, [-1, MNAN, 1, MNAN, MNAN, 2], [0, 0, 1, 1, 2, 2], [MNAN, NAN, MNAN]),
    # torch.segment_reduce: acc = x if isnan(x) else std::max(acc, x): the last NaN, the first tied zero
    (_torch("max"), [0.0, -0.0, -0.0, 0.0], [0, 0, 1, 1], [0.0, -0.0]),
    (_torch("min"), [NAN, MNAN, MNAN, 1, NAN], [0, 0, 1, 1, 1], [MNAN, NAN]),
    (_torch("max", initial=-0.0), [0.0, 1, 0.0, -1], [0, 0, 1, 1], [1, -0.0]),
    # paddle.geometric.segment_*: the later row unless smaller, from the first row
    (pd.segment_max, [NAN, 1, 1, NAN, 3, NAN, 2], [0, 0, 1, 1, 2, 2, 2], [1, NAN, 2]),
    (pd.segment_min, [-INF, -INF, 0.0, -0.0, 1, MNAN], [0, 0, 1, 1, 2, 2], [-INF, -0.0, MNAN]),
]


@pytest.mark.parametrize(("op", "data", "ids", "want"), ROWS)
def test_hand_computed_bits(op, data, ids, want):
    x = np.array(data, np.float32)
    args = (x, np.array(ids, np.int64)) + ((max(ids) + 1,) if op in (tf.unsorted_segment_max, tf.unsorted_segment_min,
                                                                      jx.segment_max, jx.segment_min) else ())
    got = op(*args)
    assert _bits(got) == _bits(want)
    assert _bits(x) == _bits(data)  # the caller's array is not modified


def test_tf_sorted_packet_columns():
    """Sorted, 8 float32 columns (one 32-byte packet): a NaN is skipped, of tied zeros the first stays; a
    ninth column folds one scalar at a time (a NaN is taken, then replaced)."""
    top = [NAN, 1, NAN, 0.0, -0.0, -INF, 2, NAN, 1]
    low = [1, NAN, NAN, -0.0, 0.0, -INF, 3, -INF, NAN]
    got = tf.segment_max(np.array([top, low], np.float32), [0, 0])
    assert _bits(got) == _bits([[1, 1, -INF, 0.0, -0.0, -INF, 3, -INF, NAN]])
    got = tf.segment_min(np.array([top, low], np.float32), [0, 0])
    assert _bits(got) == _bits([[1, 1, INF, 0.0, -0.0, -INF, 2, -INF, NAN]])


# ------------------------------------------------------------------------------------------------ loop oracles

def _fold(rows, start, step):
    acc = np.float32(start)
    for x in rows:
        acc = step(acc, x)
    return acc


def _later_unless_smaller(mx):
    return (lambda a, x: a if x < a else x) if mx else (lambda a, x: a if x > a else x)


def _torch_step(mx):
    return lambda a, x: x if np.isnan(x) else ((x if a < x else a) if mx else (x if a > x else a))


def _xla_step(mx):
    def step(a, x):
        if np.isnan(a):
            return a
        if np.isnan(x):
            neg = (np.signbit(a) and np.signbit(x)) if mx else (np.signbit(a) or np.signbit(x))
            return np.copysign(x, np.float32(-1.0 if neg else 1.0))
        if a == x == 0:  # -0 < +0
            neg = (np.signbit(a) and np.signbit(x)) if mx else (np.signbit(a) or np.signbit(x))
            return np.float32(-0.0 if neg else 0.0)
        return (x if x > a else a) if mx else (x if x < a else a)

    return step


VALUES = st.sampled_from([NAN, MNAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 2.0])


@settings(max_examples=120, deadline=None)
@given(vals=st.lists(VALUES, min_size=1, max_size=9), cut=st.lists(st.integers(0, 3), min_size=9, max_size=9),
       mx=st.booleans())
def test_folds_match_loop_oracles(vals, cut, mx):
    x = np.array(vals, np.float32)
    ids = np.sort(np.array(cut[: len(vals)], np.int64))
    n = int(ids[-1]) + 1
    seg = [x[ids == s] for s in range(n)]
    name = "max" if mx else "min"
    far = -INF if mx else INF
    cases = [
        (getattr(tf, f"unsorted_segment_{name}")(x, ids, n), [_fold(r, LOW if mx else HIGH, _later_unless_smaller(mx))
                                                               for r in seg]),
        (getattr(tf, f"segment_{name}")(x, ids), [0.0 if not len(r) else r[0] if len(r) == 1 else
                                                  _fold(r, far, _later_unless_smaller(mx)) for r in seg]),
        (getattr(pd, f"segment_{name}")(x, ids), [0.0 if not len(r) else _fold(r, far, _later_unless_smaller(mx))
                                                  for r in seg]),
        (getattr(jx, f"segment_{name}")(x, ids, n), [_fold(r, far, _xla_step(mx)) for r in seg]),
        (gs.torch.segment_reduce(x, name, lengths=np.bincount(ids, minlength=n)),
         [_fold(r, far, _torch_step(mx)) for r in seg]),
    ]
    for got, want in cases:
        assert _bits(got) == _bits(want), (vals, ids.tolist(), mx)
