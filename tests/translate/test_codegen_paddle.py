"""Generated Paddle code, executed on real PaddlePaddle 3.3.1 (CPU), computes what the SOURCE op computes.

Opt-in (``pytest -m paddle``). Every representative call runs on generated cases
(negative, duplicate, out-of-range, empty, 0-d); differences must be listed residuals
(Paddle's gathers read uninitialised memory on an empty x; its amax/amin ignore NaN).
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import REPRESENTATIVE, CodeReport, call_id, check_code, check_real_api, translations

pytestmark = [pytest.mark.paddle]
paddle = pytest.importorskip("paddle")
TARGET = "paddle"
TOTAL = CodeReport()


def to(x: np.ndarray) -> object:
    return paddle.to_tensor(x)


def back(y: object) -> np.ndarray:
    return y.numpy() if hasattr(y, "numpy") else np.asarray(y)


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_paddle_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=30)
    TOTAL.add(report)
    assert not report.failures, f"{t.code}\n{report}"


def test_code_uses_the_real_paddle_api():
    for t in translations(TARGET, REPRESENTATIVE):
        check_real_api(t.code, "paddle", paddle)


def test_put_along_axis_with_include_self():
    # docs/semantics.md#s5-2 worked example (observed identical in Paddle): include_self=False sum -> [4, 12, 5, 4]
    t = translate("torch.scatter_reduce", to=TARGET, dim=0, reduce="sum", include_self=False)
    assert "paddle.put_along_axis(" in t.code
    out = compile_function(t.code)(input=paddle.to_tensor([1.0, 2.0, 3.0, 4.0]),
                                   index=paddle.to_tensor([0, 1, 0, 1, 2, 1]), src=paddle.arange(1.0, 7.0))
    assert out.numpy().tolist() == [4.0, 12.0, 5.0, 4.0]


def test_summary(capsys):
    with capsys.disabled():
        print(f"\npaddle codegen: {TOTAL}")
