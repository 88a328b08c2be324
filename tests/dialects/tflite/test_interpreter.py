"""gs.tflite's segment ops against TF 2.21's TFLite interpreter on non-finite data, bit for bit (opt-in:
``-m tflite``, in a venv with TensorFlow).

The hand-computed rows of ``test_tflite.py`` (NaN first / middle / last / all, -inf- or +inf-only segments,
signed zeros, int32 wrap-around) run on one-op models converted by ``tests/frameworks/test_tflite.py``'s
helpers, then random rows drawn from a pool of non-finite values and float32 / int32 extremes. Values
compare as bits (a NaN's sign and payload too); ``-s`` shows the tallies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from tests.dialects.tflite.test_tflite import _POOL, INT32_EDGES, NAN_SIGNS, NONFINITE
from tests.frameworks.test_tflite import _interpreter, _invoke

pytestmark = [pytest.mark.tflite]
F, I32 = np.float32, np.int32
N = 150


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


def _model(tf: Any, name: str, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], n: int | None) -> Any:
    """``name``'s one-op model for these shapes (``n``: num_segments, a constant of the model)."""
    specs = [tf.TensorSpec(data.shape, tf.as_dtype(data.dtype)), tf.TensorSpec(ids.shape, tf.int32)]
    if n is None:
        return _interpreter(tf, tf.math.segment_sum, specs, name)
    fn = getattr(tf.math, name.lower())
    return _interpreter(tf, lambda d, s: fn(d, s, n), specs, name)


def _bits(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return x.view(np.uint32 if x.dtype == F else np.int32)


def _same(it: Any, name: str, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], n: int | None) -> None:
    want = _invoke(it, [data, ids])
    assert want is not None, "the interpreter refused a valid input"
    got = getattr(gs.tflite, name)(data, ids, *(() if n is None else (n,)))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want), err_msg=f"{name} {data.tolist()} {ids.tolist()}")


@pytest.mark.parametrize(("op", "data", "ids", "n", "want"), NONFINITE + INT32_EDGES)
def test_hand_computed_rows_on_the_interpreter(tf, op, data, ids, n, want):
    dt = F if any(isinstance(v, float) for v in np.ravel(data)) else I32
    d, i = dt(data), I32(ids)
    name = op.info.qualname.split(".", 1)[1]
    it = _model(tf, name, d, i, n)
    _same(it, name, d, i, n)
    out, w = _invoke(it, [d, i]), np.asarray(want, dt)  # the hand-computed value is the interpreter's too
    nan = np.isnan(w) if dt == F else np.zeros(w.shape, bool)
    assert (np.isnan(out) == nan).all() if dt == F else True
    np.testing.assert_array_equal(_bits(out[~nan]), _bits(w[~nan]))


@pytest.mark.parametrize(("name", "bits", "want"), NAN_SIGNS)
def test_nan_signs_on_the_interpreter(tf, name, bits, want):
    d, i = np.uint32(bits).view(F), np.zeros(len(bits), I32)
    n = None if name == "SEGMENT_SUM" else 1
    it = _model(tf, name, d, i, n)
    _same(it, name, d, i, n)
    assert _bits(_invoke(it, [d, i]))[0] == want


@pytest.mark.parametrize("name", ["UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_MIN", "UNSORTED_SEGMENT_SUM",
                                  "UNSORTED_SEGMENT_PROD", "SEGMENT_SUM"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_random_rows(tf, name, dtype):
    rng = np.random.default_rng(18)
    sorted_ = name == "SEGMENT_SUM"
    pool = F(_POOL) if dtype == "float32" else I32([-(2**31), 2**31 - 1, -1, 0, 1, 2, 65536, -65536])
    shape, ishape, n = ((6, 2), (6,), None) if sorted_ else ((3, 2, 2), (3, 2), 3)
    it = _model(tf, name, np.zeros(shape, dtype), np.zeros(ishape, I32), n)
    for _ in range(N):
        data = rng.choice(pool, size=shape).astype(dtype)
        if sorted_:
            ids = np.cumsum(np.r_[0, rng.integers(0, 2, 5)]).astype(I32)
        else:
            ids = rng.integers(-1, 3, ishape).astype(I32)
        _same(it, name, data, ids, n)
    print(f"{name} {dtype}: {N} random rows agree bit for bit")
