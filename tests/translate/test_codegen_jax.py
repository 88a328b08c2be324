"""Generated JAX code, executed on real JAX (x64, CPU), computes what the SOURCE op computes.

JAX compiles every new shape, so the generated function runs under ``jax.jit`` (one XLA
program per case) and the default suite takes a subset of the representative calls; the
bounds *modes* (``mode='fill'``, ``'clip'``, ``'drop'``) are
checked on hand-computed cases. JAX narrows int64 indices to int32 when an axis fits
(2**40 acts as 0): the jax target lists it as a residual, and such cases count as explained.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import NEUTRAL, REPRESENTATIVE, call_id, check_code, check_real_api, convert, translations

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = pytest.importorskip("jax.numpy")
TARGET = "jax"

SUBSET = NEUTRAL[::7] + [c for c in REPRESENTATIVE if not c[0].startswith("gatherscatter.")][::4]


def to(x: np.ndarray) -> object:
    return jnp.asarray(x)


def back(y: object) -> np.ndarray:
    return np.asarray(y)


_COMPILED: dict[str, object] = {}


def run_jitted(t: object, case: object) -> object:
    """``jax.jit(translated)`` (shape arguments static): one XLA program per case instead of one per op."""
    code = t.code  # type: ignore[attr-defined]
    fn = _COMPILED[code] if code in _COMPILED else _COMPILED.setdefault(code, compile_function(code))
    args = case.args  # type: ignore[attr-defined]
    static = [k for k, v in args.items() if isinstance(v, tuple) and all(isinstance(x, (int, np.integer)) for x in v)]
    return jax.jit(fn, static_argnames=static)(**convert(args, to))


@pytest.mark.parametrize(("op", "attrs"), SUBSET, ids=[call_id(o, a) for o, a in SUBSET])
def test_generated_jax_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=6, run=run_jitted)
    assert not report.failures, f"{t.code}\n{report}"


@pytest.mark.slow
@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_jax_code_matches_the_source_all(op, attrs):
    """Every representative call, more cases (opt-in: -m slow)."""
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=18, run=run_jitted)
    assert not report.failures, f"{t.code}\n{report}"


def test_code_uses_the_real_jax_api():
    for t in translations(TARGET, REPRESENTATIVE):
        check_real_api(t.code, "jnp", jnp)


def test_native_modes_on_hand_computed_cases():
    x = jnp.asarray([10.0, 20.0, 30.0])
    # NumPy's clip mode (-1 -> 0) is jnp.take's clip
    t = translate("numpy.take", to=TARGET, axis=0, mode="clip")
    assert "mode='clip'" in t.code
    assert compile_function(t.code)(a=x, indices=jnp.asarray([-1, 1, 5])).tolist() == [10.0, 20.0, 30.0]
    # a neutral fill with its value
    t = translate("gatherscatter.take", to=TARGET, axis=0, bounds="fill", fill_value=-1)
    assert compile_function(t.code)(data=x, indices=jnp.asarray([-1, 3, -4])).tolist() == [30.0, -1.0, -1.0]
    # a dropping scatter: .at[].add(mode='drop')
    t = translate("gatherscatter.scatter_nd", to=TARGET, reduction="add", bounds="drop")
    assert ".at[" in t.code and "mode='drop'" in t.code
    out = compile_function(t.code)(data=x, indices=jnp.asarray([[0], [7], [0]]), updates=jnp.asarray([1.0, 2.0, 3.0]))
    assert out.tolist() == [14.0, 20.0, 30.0]
