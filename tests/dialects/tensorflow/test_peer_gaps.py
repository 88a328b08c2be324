"""Gaps TF's own test suite found: float8 data in gather / gather_nd (CPU), ``batch_dims=None`` in tf.gather.

Facts measured with tensorflow-cpu 2.21: ``tf.gather`` / ``tf.gather_nd`` take float8_e5m2 and float8_e4m3fn
params on CPU; ``tf.scatter_nd`` and ``tf.tensor_scatter_nd_*`` have no float8 kernel (NotFoundError);
``tf.gather(..., batch_dims=None)`` is batch_dims 0, ``tf.gather_nd(..., batch_dims=None)`` a TypeError.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs

ml_dtypes = pytest.importorskip("ml_dtypes")
FLOAT8 = [ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fn]


@pytest.mark.parametrize("dt", FLOAT8)
def test_float8_gather_cases(dt):
    p = np.array([[1.0, 2.0], [3.0, 0.5]], dt)
    out = gs.tensorflow.gather(p, [1, 0, 1], axis=0)
    assert out.dtype == np.dtype(dt) and out.astype(np.float32).tolist() == [[3.0, 0.5], [1.0, 2.0], [3.0, 0.5]]
    out = gs.tensorflow.gather_nd(p, [[1, 1], [0, 1]])
    assert out.dtype == np.dtype(dt) and out.astype(np.float32).tolist() == [0.5, 2.0]
    out = gs.tensorflow.gather(p, [[1], [0]], axis=1, batch_dims=1)
    assert out.astype(np.float32).tolist() == [[2.0], [3.0]]


@pytest.mark.parametrize("dt", FLOAT8)
@pytest.mark.parametrize(
    "call",
    [
        lambda p: gs.tensorflow.scatter_nd([[0]], p[:1], [2]),
        lambda p: gs.tensorflow.tensor_scatter_nd_update(p, [[0]], p[:1]),
        lambda p: gs.tensorflow.tensor_scatter_nd_add(p, [[0]], p[:1]),
        lambda p: gs.tensorflow.gather(p, [0], device="xla"),
    ],
)
def test_float8_refused_where_tf_has_no_kernel(dt, call):
    with pytest.raises(gs.DTypeError, match="float8"):
        call(np.array([1.0, 2.0], dt))


def test_batch_dims_none():
    assert gs.tensorflow.gather([[1, 2], [3, 4]], [1, 0], axis=1, batch_dims=None).tolist() == [[2, 1], [4, 3]]
    assert gs.tensorflow.gather([5, 6, 7], [2], batch_dims=None).tolist() == [7]
    with pytest.raises(gs.ArgumentError, match="batch_dims"):  # TF: TypeError, must be an int
        gs.tensorflow.gather_nd([[1, 2], [3, 4]], [[1, 0]], batch_dims=None)


@given(st.sampled_from(FLOAT8), st.lists(st.integers(0, 5), min_size=1, max_size=6))
def test_property_float8_gather_is_float32_gather(dt, idx):
    p = np.arange(6, dtype=np.float32).reshape(6, 1)
    out = gs.tensorflow.gather(p.astype(dt), idx)
    assert out.dtype == np.dtype(dt)
    np.testing.assert_array_equal(out.astype(np.float32), p[idx])  # 0..5 are exact in both float8 formats


def test_against_tensorflow():
    """Opt-in (tensorflow installed, e.g. /work/venvs/fw): float8 gathers and batch_dims=None as TF computes them."""
    tf = pytest.importorskip("tensorflow")
    compared = 0
    for dt in FLOAT8:
        p = np.array([[1.0, 2.0, 0.25], [3.0, 0.5, -4.0]], dt)
        for idx, axis, bd in (([1, 0], 0, 0), ([[2, 0], [1, 1]], 1, 1), ([2], 1, None)):
            theirs = tf.gather(p, idx, axis=axis, batch_dims=bd).numpy()
            ours = gs.tensorflow.gather(p, idx, axis=axis, batch_dims=bd)
            assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()
            compared += 1
        for idx in ([[1, 2], [0, 0]], [[1]]):
            theirs = tf.gather_nd(p, idx).numpy()
            ours = gs.tensorflow.gather_nd(p, idx)
            assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()
            compared += 1
    assert compared == 10


E1 = np.zeros((0,), np.int32)


@pytest.mark.parametrize(
    "call",
    [
        lambda: gs.tensorflow.scatter_nd(E1, np.zeros(0, np.float32), [0]),
        lambda: gs.tensorflow.tensor_scatter_nd_update(np.zeros(0, np.float32), E1, np.zeros(0, np.float32)),
        lambda: gs.tensorflow.tensor_scatter_nd_add(np.zeros(0, np.float32), E1, np.zeros(0, np.float32)),
        lambda: gs.tensorflow.tensor_scatter_nd_max(np.zeros(0, np.float32), E1, np.zeros(0, np.float32)),
    ],
)
def test_empty_1d_indices_with_empty_output(call):
    out = call()  # TF 2.21 CPU: the empty result, before its "at least 2 axes" rule
    assert out.shape == (0,) and out.dtype == np.float32


@pytest.mark.parametrize(
    "call",
    [
        lambda: gs.tensorflow.scatter_nd(E1, np.zeros(3, np.float32), [3]),
        lambda: gs.tensorflow.scatter_nd(E1, np.zeros(0, np.float32), [3]),
        lambda: gs.tensorflow.tensor_scatter_nd_add(np.arange(3, dtype=np.float32), E1, np.zeros(0, np.float32)),
    ],
)
def test_empty_1d_indices_with_non_empty_output_still_refused(call):
    with pytest.raises(gs.ShapeError):  # TF 2.21: InvalidArgumentError
        call()
