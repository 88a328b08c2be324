"""Generated OpenVINO code builds an ``ov.Model`` from opset15 calls that computes what the SOURCE op computes.

Opt-in (``pytest -m openvino``). For each case the script is generated for the case's
ranks and dtypes (``codegen_openvino.script(t, example)``), executed (it builds the model
from ``ops.parameter`` inputs and compiles it for the CPU with f32 inference precision),
and ``translated(**args)`` is compared with the source op. Only cases the translated
program accepts are sent (the CPU plugin crashes on some invalid scatter indices), and the
data is float32/int32 with int32-range indices: the plugin computes f64 in f32 (saturating
infinities) and i64 in i32 (recorded dialect divergences). Empty inputs are not sent either:
Gather-8 along an axis of size 0 kills the process with SIGFPE even for empty indices.
Float means may be 1 ulp off: the plugin's Divide is not correctly rounded.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen_openvino import build, script
from gatherscatter.translate.verify import Case

from .codegen_util import REPRESENTATIVE, CodeReport, call_id, check_code, translations

pytestmark = [pytest.mark.openvino]
ov = pytest.importorskip("openvino")
TARGET = "openvino"
TOTAL = CodeReport()


def _arrays(args: dict) -> list[np.ndarray]:
    out = []
    for v in args.values():
        if isinstance(v, tuple):
            out += [np.asarray(x) for x in v if isinstance(x, (np.ndarray, np.generic))]
        elif isinstance(v, (np.ndarray, np.generic)):
            out.append(np.asarray(v))
    return out


def keep(case: Case, model: tuple) -> bool:
    if "empty" in case.features:  # the 2026.4 CPU plugin dies (SIGFPE) gathering along a size-0 axis
        return False
    if model[0] != "ok" or model[1].dtype.name not in ("float32", "int32", "bool"):
        return False
    for a in _arrays(case.args):
        if a.dtype == np.float64 or (a.dtype.kind in "iuf" and a.size and np.abs(a.astype(np.float64)).max() >= 2**31):
            return False
    return True


def run(t, case: Case) -> np.ndarray:
    return np.asarray(build(t, case.args)(**case.args))


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_openvino_model_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    # the CPU plugin's float Divide is not correctly rounded: a mean may be 1 ulp off
    ulp = 1 if t.source.canonical.reduction == "mean" else 0
    report = check_code(t, np.asarray, np.asarray, n=40, keep=keep, run=run, ulp=ulp)
    TOTAL.add(report)
    assert not report.failures, f"{script(t)}\n{report}"


def test_script_builds_from_opset15_calls():
    t = translate("torch.scatter_reduce", to=TARGET, dim=0, reduce="amax", include_self=False)
    code = t.code
    assert "import openvino.opset15 as ops" in code and "ops.scatter_elements_update(" in code
    assert "ops.parameter(" in code and "ov.Model(" in code and "compile_model" in code
    d = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    i = np.array([0, 1, 0, 1, 2, 1], np.int64)
    u = np.arange(1.0, 7.0, dtype=np.float32)
    out = build(t, {"input": d, "index": i, "src": u})(input=d, index=i, src=u)
    assert np.asarray(out).tolist() == [3.0, 6.0, 5.0, 4.0]  # docs/semantics.md#s5-2, amax include_self=False


def test_summary(capsys):
    with capsys.disabled():
        print(f"\nopenvino codegen: {TOTAL}")
