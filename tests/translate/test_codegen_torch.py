"""Generated PyTorch code, executed on real torch (CPU), computes what the SOURCE op computes.

``translate(..., to="torch").code`` is executed and ``translated(**args)`` called with torch
tensors built from generated cases (negative, duplicate, out-of-range, empty, 0-d); the
result must equal the source op's (value, dtype, shape) unless a listed residual divergence
covers the case, and the code may only call functions torch really has.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import REPRESENTATIVE, call_id, check_code, check_real_api, translations

torch = pytest.importorskip("torch")
TARGET = "torch"


def to(x: np.ndarray) -> object:
    return torch.from_numpy(np.array(x))


def back(y: object) -> np.ndarray:
    return y.numpy() if hasattr(y, "numpy") else np.asarray(y)


@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_torch_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=12)
    assert not report.failures, f"{t.code}\n{report}"


def test_code_uses_the_real_torch_api():
    for t in translations(TARGET, REPRESENTATIVE):
        check_real_api(t.code, "torch", torch)


def test_scatter_reduce_call_reads_like_torch():
    t = translate("gatherscatter.scatter_along_axis", to=TARGET, axis=0, reduction="mean", include_self=False)
    assert re.search(r"torch\.scatter_reduce\(data, 0, \w+, updates, reduce='mean', include_self=False\)", t.code)
    fn = compile_function(t.code)
    # docs/semantics.md#s5-2 worked example, include_self=False: [2, 4, 5, 4]
    out = fn(data=torch.tensor([1.0, 2.0, 3.0, 4.0]), indices=torch.tensor([0, 1, 0, 1, 2, 1]),
             updates=torch.arange(1.0, 7.0))
    assert out.tolist() == [2.0, 4.0, 5.0, 4.0]


def test_onnx_gather_elements_negative_indices_in_torch():
    # docs/semantics.md#e3 / docs/semantics.md#pitfall-2: the naive torch.gather raises on -1; the translation
    # normalises first
    t = translate("onnx.GatherElements", to=TARGET, axis=1)
    data, idx = torch.tensor([[1, 2, 3], [4, 5, 6]]), torch.tensor([[-1, 0], [1, -3]])
    with pytest.raises(RuntimeError):
        torch.gather(data, 1, idx)
    assert compile_function(t.code)(data=data, indices=idx).tolist() == [[3, 1], [5, 4]]
