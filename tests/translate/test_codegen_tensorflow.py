"""Generated TensorFlow code, executed on real TensorFlow (eager CPU), computes what the SOURCE op computes.

Opt-in (``pytest -m tensorflow``). TF's CPU semantics are the target's: negative and
out-of-range indices raise. Every representative call runs on generated cases
(negative, duplicate, out-of-range, empty, 0-d); differences must be listed residuals.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import REPRESENTATIVE, CodeReport, call_id, check_code, check_real_api, translations

pytestmark = [pytest.mark.tensorflow]
tf = pytest.importorskip("tensorflow")
TARGET = "tensorflow"
TOTAL = CodeReport()


def to(x: np.ndarray) -> object:
    return tf.constant(x)


def back(y: object) -> np.ndarray:
    return y.numpy() if hasattr(y, "numpy") else np.asarray(y)


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_tensorflow_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=30)
    TOTAL.add(report)
    assert not report.failures, f"{t.code}\n{report}"


def test_code_uses_the_real_tensorflow_api():
    for t in translations(TARGET, REPRESENTATIVE):
        check_real_api(t.code, "tf", tf)


def test_elementwise_scatter_through_tensor_scatter_nd():
    # docs/semantics.md#e16: torch.scatter_add has no TF op; coordinates + tf.tensor_scatter_nd_add
    t = translate("torch.scatter_add", to=TARGET, dim=0)
    assert "tf.tensor_scatter_nd_add(" in t.code
    out = compile_function(t.code)(input=tf.constant([1, 1, 1, 1]), index=tf.constant([1, 1, 2]),
                                   src=tf.constant([10, 20, 30]))
    assert out.numpy().tolist() == [1, 31, 31, 1]


def test_summary(capsys):
    with capsys.disabled():
        print(f"\ntensorflow codegen: {TOTAL}")
