"""Generated NumPy code, executed on real NumPy, computes what the SOURCE op computes.

For a representative set of source calls (the neutral API's policy grid and name-alike
framework ops) ``translate(..., to="numpy").code`` is executed and ``translated(**args)``
is called on generated cases (negative, duplicate, out-of-range, empty, 0-d); the result
must equal the source op's (value, dtype, shape) unless a listed residual divergence
covers the case. NumPy's in-place functions (``np.put``, ``np.add.at``) run on copies:
the caller's arrays must stay untouched.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import NEUTRAL, REPRESENTATIVE, CodeReport, call_id, check_code, check_real_api, translations

TARGET = "numpy"


def to(x: np.ndarray) -> np.ndarray:
    return np.array(x)


def back(y: object) -> np.ndarray:
    return np.asarray(y)


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_numpy_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=18)
    assert not report.failures, f"{t.code}\n{report}"


def test_code_uses_the_real_numpy_api():
    for t in translations(TARGET, REPRESENTATIVE):
        check_real_api(t.code, "np", np)
        assert "gs." not in t.code


def test_inplace_numpy_functions_run_on_copies():
    t = translate("onnx.ScatterND", to=TARGET, reduction="add")
    assert "np.add.at(" in t.code and "np.array(" in t.code
    fn = compile_function(t.code)
    data = np.zeros(4)
    out = fn(data=data, indices=np.array([[1], [1], [3]]), updates=np.array([1.0, 2.0, 5.0]))
    assert out.tolist() == [0.0, 3.0, 0.0, 5.0]  # duplicates accumulate (unbuffered add.at)
    assert data.tolist() == [0.0, 0.0, 0.0, 0.0]


def test_generated_code_on_hand_computed_cases():
    # torch.scatter_reduce worked example (docs/semantics.md#s5-2): D=[1,2,3,4], I=[0,1,0,1,2,1], U=[1..6]
    d, i, u = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 1, 0, 1, 2, 1]), np.arange(1.0, 7.0)
    want = {("sum", True): [5, 14, 8, 4], ("sum", False): [4, 12, 5, 4], ("prod", True): [3, 96, 15, 4],
            ("prod", False): [3, 48, 5, 4], ("amax", True): [3, 6, 5, 4], ("amin", False): [1, 2, 5, 4],
            ("mean", False): [2, 4, 5, 4]}
    for (r, s), expected in want.items():
        t = translate("torch.scatter_reduce", to=TARGET, dim=0, reduce=r, include_self=s)
        got = compile_function(t.code)(input=d, index=i, src=u)
        assert got.tolist() == expected, (r, s)
    # MXNet gather_nd (docs/semantics.md#s4-1): tuples on the first axis
    t = translate("mxnet.gather_nd", to=TARGET)
    got = compile_function(t.code)(data=np.arange(12.0).reshape(3, 4), indices=np.array([[1.0, 0.0], [2.0, 3.0]]))
    assert got.tolist() == [6.0, 3.0]


def test_report_counts_add_up():
    total = CodeReport()
    for t in translations(TARGET, REPRESENTATIVE[:10]):
        total.add(check_code(t, to, back, n=6))
    assert total.total == total.agree + total.both_raise + total.source_rejects + sum(total.explained.values())
    assert total.agree > total.total // 2


@pytest.mark.parametrize(("op", "attrs"), NEUTRAL[::2], ids=[call_id(o, a) for o, a in NEUTRAL[::2]])
def test_generated_neutral_api_code_matches_the_source(op, attrs):
    # target "gatherscatter": the canonical call through the neutral API, with every policy keyword kept
    t = translate(op, to="gatherscatter", **attrs)
    report = check_code(t, to, back, n=12)
    assert not report.failures, f"{t.code}\n{report}"
