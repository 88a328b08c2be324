"""Generated ``jax.lax`` code (``lax.gather`` / ``lax.scatter*`` with dimension numbers), executed on real JAX
(x64, CPU), computes what the SOURCE op computes.

Every source reaches the one general form (element coordinates, raveled to offsets into the flattened data,
fixed dimension numbers). As in the jax suite, the generated function runs under ``jax.jit`` (one XLA program per
case); the default suite takes a subset of the representative calls, ``-m slow`` all of them.
"""

from __future__ import annotations

import pytest

from gatherscatter.translate import translate
from gatherscatter.translate.codegen import compile_function

from .codegen_util import NEUTRAL, REPRESENTATIVE, call_id, check_code, translations

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from .test_codegen_jax import back, run_jitted, to  # noqa: E402  (real JAX, x64, one XLA program per case)

TARGET = "lax"
SUBSET = NEUTRAL[3::7] + [c for c in REPRESENTATIVE if not c[0].startswith("gatherscatter.")][2::4]


@pytest.mark.parametrize(("op", "attrs"), SUBSET, ids=[call_id(o, a) for o, a in SUBSET])
def test_generated_lax_code_matches_the_source(op, attrs):
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    assert {o.rsplit(".", 1)[0] for o in t.ops} == {"jax.lax"}, t.ops  # every call is a lax gather/scatter
    report = check_code(t, to, back, n=6, run=run_jitted)
    assert not report.failures, f"{t.code}\n{report}"


@pytest.mark.slow
@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_generated_lax_code_matches_the_source_all(op, attrs):
    """Every representative call, more cases (opt-in: -m slow)."""
    (t,) = translations(TARGET, [(op, attrs)]) or [None]
    if t is None:
        pytest.skip("no translation")
    report = check_code(t, to, back, n=18, run=run_jitted)
    assert not report.failures, f"{t.code}\n{report}"


def test_every_family_reaches_lax_with_fixed_dimension_numbers():
    # hand-computed: torch.gather(dim=1) reads x[r, i[r, c]]; the code calls lax.gather with one collapsed dim
    t = translate("torch.gather", to=TARGET, dim=1)
    assert "lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))" in t.code
    x = jnp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    out = compile_function(t.code)(input=x, index=jnp.asarray([[2, 0], [1, 1]]))
    assert out.tolist() == [[3.0, 1.0], [5.0, 5.0]]
    # tf.scatter_nd adds duplicate updates into zeros: lax.scatter_add, drop mode
    t = translate("tensorflow.scatter_nd", to=TARGET)
    assert t.ops == ["jax.lax.scatter_add"] and "mode='drop'" in t.code
    out = compile_function(t.code)(indices=jnp.asarray([[1], [3], [1]]), updates=jnp.asarray([1.0, 2.0, 3.0]),
                                   shape=(4,))
    assert out.tolist() == [0.0, 4.0, 0.0, 2.0]
    # NumPy's clip mode clamps each component (-1 -> 0, 5 -> 2) before the lax gather
    t = translate("numpy.take", to=TARGET, axis=0, mode="clip")
    out = compile_function(t.code)(a=jnp.asarray([10.0, 20.0, 30.0]), indices=jnp.asarray([-1, 1, 5]))
    assert out.tolist() == [10.0, 20.0, 30.0]
