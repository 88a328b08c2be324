"""gs.tflite against TensorFlow 2.21's TFLite interpreter on converted one-op models (opt-in: ``-m tflite``).

Each op is converted once per input signature with ``tf.lite.TFLiteConverter`` (the model must contain
exactly the expected builtin), then random inputs of that signature are run through ``tf.lite.Interpreter``:
values and dtype must agree, or the invoke must fail where gatherscatter raises. ``-s`` shows the tallies.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.tflite]
N = 30


def _interpreter(tf: Any, fn: Any, specs: list[Any], builtin: str) -> Any:
    f = tf.function(fn, input_signature=specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = conv.convert()
        it = tf.lite.Interpreter(model_content=model)
    it.allocate_tensors()
    ops = [d["op_name"] for d in it._get_ops_details()]
    assert ops == [builtin], ops
    return it


def _invoke(it: Any, inputs: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any] | None:
    for d, x in zip(it.get_input_details(), inputs, strict=True):
        it.set_tensor(d["index"], x)
    try:
        it.invoke()
    except RuntimeError:
        return None
    return np.array(it.get_tensor(it.get_output_details()[0]["index"]))


def _compare(it: Any, ours: Any, cases: list[list[np.ndarray[Any, Any]]], extra: tuple[Any, ...] = ()) -> tuple[int, int]:
    agree = both = 0
    for inputs in cases:
        want = _invoke(it, inputs)
        if want is None:
            with pytest.raises(gs.GatherScatterError):
                ours(*inputs, *extra)
            both += 1
            continue
        got = ours(*inputs, *extra)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=str(inputs))
        agree += 1
    return agree, both


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


def test_gather(tf):
    rng = np.random.default_rng(1)
    it = _interpreter(tf, lambda p, i: tf.gather(p, i, axis=1), [tf.TensorSpec([3, 4], tf.float32),
                                                                   tf.TensorSpec([2, 2], tf.int32)], "GATHER")
    cases = [[rng.normal(size=(3, 4)).astype(np.float32), rng.integers(-1 if k % 5 == 0 else 0, 4 if k % 7 else 5,
                                                                          (2, 2)).astype(np.int32)] for k in range(N)]
    a, b = _compare(it, lambda p, i: gs.tflite.GATHER(p, i, axis=1), cases)
    print(f"GATHER: {a} agree, {b} both fail")


def test_gather_nd(tf):
    rng = np.random.default_rng(2)
    it = _interpreter(tf, tf.gather_nd, [tf.TensorSpec([3, 4], tf.int32), tf.TensorSpec([5, 2], tf.int32)],
                      "GATHER_ND")
    cases = [[rng.integers(-9, 9, (3, 4)).astype(np.int32),
              np.stack([rng.integers(-1 if k % 5 == 0 else 0, 3, 5), rng.integers(0, 4 if k % 7 else 5, 5)],
                       -1).astype(np.int32)] for k in range(N)]
    a, b = _compare(it, gs.tflite.GATHER_ND, cases)
    print(f"GATHER_ND: {a} agree, {b} both fail")


def test_scatter_nd(tf):
    rng = np.random.default_rng(3)
    it = _interpreter(tf, lambda i, u: tf.scatter_nd(i, u, [4, 2]),
                      [tf.TensorSpec([5, 1], tf.int32), tf.TensorSpec([5, 2], tf.float32)], "SCATTER_ND")
    cases = [[rng.integers(-1 if k % 5 == 0 else 0, 4 if k % 7 else 5, (5, 1)).astype(np.int32),
              rng.integers(-5, 5, (5, 2)).astype(np.float32)] for k in range(N)]
    a, b = _compare(it, lambda i, u: gs.tflite.SCATTER_ND(i, u, [4, 2]), cases)
    print(f"SCATTER_ND: {a} agree, {b} both fail")


def test_segment_sum(tf):
    rng = np.random.default_rng(4)
    it = _interpreter(tf, tf.math.segment_sum, [tf.TensorSpec([6, 2], tf.float32), tf.TensorSpec([6], tf.int32)],
                      "SEGMENT_SUM")
    cases = []
    for k in range(N):
        ids = np.cumsum(np.r_[0, rng.integers(0, 2 if k % 4 else 3, 5)]).astype(np.int32)
        cases.append([rng.integers(-5, 5, (6, 2)).astype(np.float32), ids])
    a, b = _compare(it, gs.tflite.SEGMENT_SUM, cases)
    print(f"SEGMENT_SUM: {a} agree, {b} both fail")


@pytest.mark.parametrize("red", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_unsorted_segment(tf, red, dtype):
    rng = np.random.default_rng(5)
    fn = getattr(tf.math, f"unsorted_segment_{red}")
    tdt = getattr(tf, dtype)
    it = _interpreter(tf, lambda d, s: fn(d, s, 4), [tf.TensorSpec([6, 2], tdt), tf.TensorSpec([6], tf.int32)],
                      f"UNSORTED_SEGMENT_{red.upper()}")
    cases = [[rng.integers(-5, 5, (6, 2)).astype(dtype), rng.integers(-2, 4 if k % 6 else 5, 6).astype(np.int32)]
             for k in range(N)]
    ours = getattr(gs.tflite, f"UNSORTED_SEGMENT_{red.upper()}")
    a, b = _compare(it, ours, cases, (4,))
    print(f"UNSORTED_SEGMENT_{red.upper()} {dtype}: {a} agree, {b} both fail")
