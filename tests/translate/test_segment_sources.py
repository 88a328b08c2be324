"""Segment reductions as translate sources: their descriptions on typed-in inputs, and the generated code.

The sorted segment ops (``segment_ids[-1] + 1`` output rows) and TF's unsorted mean / sqrt_n (integer data
divides as float) are described with the adapters ``segment_count``, ``full_rows``, ``with_ones`` and
``mean_of_pairs``. Expected values are hand-computed (TF's docs for ``tf.math.segment_*``: empty segments 0,
``unsorted_segment_mean`` = ``unsorted_segment_sum / N`` with Python's ``/``); the generated code is judged
against the source op (``codegen_util.check_code``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.translate import translate
from gatherscatter.translate.ir import Program

from .codegen_util import check_code

SORTED = [f"tensorflow.segment_{r}" for r in ("sum", "prod", "max", "min", "mean")] + [
    f"paddle.segment_{r}" for r in ("sum", "mean", "max", "min")] + ["tflite.SEGMENT_SUM"]
DIVIDED = ["tensorflow.unsorted_segment_mean", "tensorflow.unsorted_segment_sqrt_n"]


def _program(op: str) -> Program:
    d = translate(op, to="gatherscatter").source
    return Program(d.inputs, d.pre + [d.canonical.step()] + d.post)


@pytest.mark.parametrize(
    ("op", "args", "expected", "dtype"),
    [
        # ids [0, 0, 2, 2]: three rows, row 1 empty (0 for every reduction of the sorted ops, 1 for prod)
        ("tensorflow.segment_sum", dict(data=np.array([1.0, 2.0, 3.0, 4.0]), segment_ids=np.array([0, 0, 2, 2])),
         [3.0, 0.0, 7.0], "float64"),
        ("tensorflow.segment_prod", dict(data=np.array([[1, 2], [3, 4], [5, 6]]), segment_ids=np.array([1, 1, 1])),
         [[1, 1], [15, 48]], "int64"),
        ("tensorflow.segment_max", dict(data=np.array([-1.0, -2.0, 3.0]), segment_ids=np.array([1, 1, 3])),
         [0.0, -1.0, 0.0, 3.0], "float64"),
        ("tensorflow.segment_mean", dict(data=np.array([-7, 0, 5], np.int32), segment_ids=np.array([0, 0, 0])),
         [-0], "int32"),  # -2 / 3 truncates toward zero
        ("tensorflow.segment_mean", dict(data=np.array([-7, 2], np.int32), segment_ids=np.array([0, 0])),
         [-2], "int32"),  # -5 / 2 = -2.5 -> -2
        ("paddle.segment_min", dict(data=np.array([4.0, -1.0, 2.0]), segment_ids=np.array([0, 2, 2])),
         [4.0, 0.0, -1.0], "float64"),
        ("tflite.SEGMENT_SUM", dict(data=np.array([1, 2, 3, 4], np.int32), segment_ids=np.array([0, 0, 1, 2], np.int32)),
         [3, 3, 4], "int32"),
        ("tensorflow.segment_sum", dict(data=np.zeros((0, 2)), segment_ids=np.zeros(0, np.int64)),
         np.zeros((0, 2)), "float64"),
        # TF: N counts the ids in [0, num_segments) (negative ids drop), max(N, 1); int8 sums wrap (100 + 100 = -56)
        # before the division, which is float32 for 8/16-bit integers and float64 for 32/64-bit ones
        ("tensorflow.unsorted_segment_mean",
         dict(data=np.array([100, 100, 3], np.int8), segment_ids=np.array([0, 0, 1]), num_segments=3),
         [-28.0, 3.0, 0.0], "float32"),
        ("tensorflow.unsorted_segment_mean",
         dict(data=np.array([7, 2, 9], np.int32), segment_ids=np.array([1, 1, -1]), num_segments=2),
         [0.0, 4.5], "float64"),
        ("tensorflow.unsorted_segment_mean",
         dict(data=np.array([[1.0, 2.0], [3.0, 5.0]], np.float32), segment_ids=np.array([0, 0]), num_segments=1),
         [[2.0, 3.5]], "float32"),
        ("tensorflow.unsorted_segment_sqrt_n",
         dict(data=np.array([3.0, 5.0, 1.0, 2.0]), segment_ids=np.array([0, 0, 0, 0]), num_segments=2),
         [5.5, 0.0], "float64"),  # 11 / sqrt(4)
    ],
)
def test_description_program_on_typed_in_inputs(op: str, args: dict[str, Any], expected: Any, dtype: str) -> None:
    got = _program(op).run(args)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, np.asarray(expected, dtype))
    np.testing.assert_array_equal(gs.dialects._registry.get_op(op)(**args), got)  # and the op agrees


def test_float16_n_stops_at_2048_as_tf() -> None:
    """TF sums the ones of N in the data dtype one row at a time: 3000 float16 ones sum to 2048 (2048 + 1 rounds
    to 2048), and so do 3000 fours (8192 + 4 rounds to 8192): the mean is 8192 / 2048 = 4, not 8192 / 3000."""
    args = dict(data=np.full(3000, 4.0, np.float16), segment_ids=np.zeros(3000, np.int64), num_segments=1)
    assert gs.tensorflow.unsorted_segment_mean(**args).tolist() == [4.0]
    assert _program("tensorflow.unsorted_segment_mean").run(args).tolist() == [4.0]


def _targets() -> dict[str, tuple[Any, Any]]:
    out: dict[str, tuple[Any, Any]] = {"numpy": (np.array, np.asarray)}
    try:
        import torch

        out["torch"] = (lambda x: torch.from_numpy(np.array(x)), lambda y: y.numpy() if hasattr(y, "numpy")
                        else np.asarray(y))
    except ImportError:  # pragma: no cover - torch is in the test extra
        pass
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)
        out["jax"] = (jnp.asarray, np.asarray)
    except ImportError:  # pragma: no cover - jax is in the test extra
        pass
    return out


def _torch_sqrt_is_exact() -> bool:
    """Whether torch's float64 sqrt of the integers 1..4096 is the correctly rounded one (NumPy's) on this CPU."""
    import torch

    x = np.arange(1, 4097, dtype=np.float64)
    return bool((torch.sqrt(torch.from_numpy(x)).numpy() == np.sqrt(x)).all())


#: every op on NumPy and torch; JAX (slow to dispatch eagerly: ~20 s a call) on the one with most adapters
CODE = [(t, op) for t in ("numpy", "torch") for op in SORTED + DIVIDED + ["tensorflow.unsorted_segment_sum",
                                                                         "jax.segment_max"]] + [
    ("jax", "tensorflow.unsorted_segment_mean")]


@pytest.mark.parametrize(("target", "op"), CODE)
def test_generated_code_computes_the_source(op: str, target: str) -> None:
    """The generated code runs on the real framework (the output canvas, the row count read from the ids, TF's
    float mean) and equals the source op, up to the residuals the description lists."""
    conv = _targets().get(target)
    if conv is None:
        pytest.skip(f"{target} is not installed")
    t = translate(op, to=target)
    # torch's float sqrt is not correctly rounded where it runs its AVX-512 kernels (an Intel Xeon: sqrt(2.0) in
    # float64 one ulp low, 527 of the integers 1..100000 off by one ulp): a divisor sqrt(N) may differ there
    ulp = 1 if target == "torch" and "sqrt" in t.code and not _torch_sqrt_is_exact() else 0
    report = check_code(t, *conv, n=12, ulp=ulp)
    assert not report.failures, f"{t.code}\n{report}"
    assert report.agree - report.both_raise >= 4, str(report)


@pytest.mark.parametrize("op", ["tensorflow.segment_mean", "paddle.segment_max", "tensorflow.unsorted_segment_sqrt_n",
                                "tensorflow.unsorted_segment_sum"])
def test_onnx_export_runs_in_onnxruntime(op: str) -> None:
    pytest.importorskip("onnxruntime")
    from .test_onnx_export import _check_cases

    vs_source, vs_program = _check_cases(gs.translate(op, to="onnx"), 12, seed=5)
    assert vs_source >= 4, (vs_source, vs_program)
