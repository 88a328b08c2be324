"""gs.vjp of the composed ``jax.at_divide`` / ``jax.at_power`` (a multiply-scatter into ones, then ``x / p`` or
``x ** p``): hand-computed gradients, and ``jax.vjp`` of ``x.at[idx].divide/power(v, unique_indices=True)``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

I = np.array  # noqa: E741 - short for index literals
X = [2.0, 3.0, 5.0, 7.0]
ONES = [1.0, 1.0, 1.0, 1.0]
L2, L3, L4, L5 = math.log(2.0), math.log(3.0), math.log(4.0), math.log(5.0)

# (id, method, x, idx, values, keywords, cotangent, out, dx, dvalues): derivatives by hand,
# d(x / p) = ct / p and -ct * x / p**2; d(x ** p) = ct * p * x**(p - 1) (even where p == 0) and ct * log(x) * x**p
# (log(1) where x == 0), as JAX's div and pow rules; p is the product of the values landing on each position
HAND: list[tuple[Any, ...]] = [
    ("div", "divide", X, (I([0, 2]),), [2.0, 4.0], {}, ONES,
     [1.0, 3.0, 1.25, 7.0], [0.5, 1.0, 0.25, 1.0], [-0.5, -0.3125]),
    ("div negative", "divide", X, (I([3, -4]),), [2.0, 4.0], {}, [1.0, 2.0, 3.0, 4.0],
     [0.5, 3.0, 5.0, 3.5], [0.25, 2.0, 3.0, 2.0], [-7.0, -0.125]),
    ("div dropped", "divide", X, (I([1, 9]),), [2.0, 5.0], {}, ONES,
     [2.0, 1.5, 5.0, 7.0], [1.0, 0.5, 1.0, 1.0], [-0.75, 0.0]),
    ("div clip", "divide", X, (I([1, 9]),), [2.0, 5.0], {"mode": "clip"}, ONES,
     [2.0, 1.5, 5.0, 1.4], [1.0, 0.5, 1.0, 0.2], [-0.75, -0.28]),
    ("div no wrap", "divide", X, (I([-1, 1]),), [2.0, 4.0], {"wrap_negative_indices": False}, ONES,
     [2.0, 0.75, 5.0, 7.0], [1.0, 0.25, 1.0, 1.0], [0.0, -0.1875]),
    ("pow", "power", X, (I([0, 2]),), [3.0, 2.0], {}, ONES,
     [8.0, 3.0, 25.0, 7.0], [12.0, 1.0, 10.0, 1.0], [8 * L2, 25 * L5]),
    ("pow zeros", "power", [0.0, 0.0, 4.0, 7.0], (I([0, 1, 2]),), [0.0, 2.0, 0.5], {}, ONES,
     [1.0, 0.0, 2.0, 7.0], [math.nan, 0.0, 0.25, 1.0], [0.0, 0.0, 2 * L4]),  # 0 * 0 ** -1: NaN, as JAX
    ("pow rows", "power", [[1.0, 2.0], [3.0, 4.0]], (I([1]),), [[2.0, 0.5]], {}, [[1.0, 1.0], [1.0, 1.0]],
     [[1.0, 2.0], [9.0, 2.0]], [[1.0, 1.0], [6.0, 0.25]], [[9 * L3, 2 * L4]]),
    ("pow dropped", "power", X, (I([-9, 1]),), [2.0, 2.0], {}, [1.0, 2.0, 1.0, 1.0],
     [2.0, 9.0, 5.0, 7.0], [1.0, 12.0, 1.0, 1.0], [0.0, 18 * L3]),
]


@pytest.mark.parametrize(("method", "x", "idx", "v", "kw", "ct", "out", "dx", "dv"), [c[1:] for c in HAND],
                         ids=[c[0] for c in HAND])
def test_hand(method: str, x: Any, idx: Any, v: Any, kw: dict[str, Any], ct: Any, out: Any, dx: Any, dv: Any) -> None:
    xa, va = np.array(x), np.array(v)
    got, pb = gs.vjp(getattr(gs.jax, f"at_{method}"), xa, idx, va, unique_indices=True, **kw)
    np.testing.assert_allclose(got, out, rtol=1e-15)
    gx, _, gv = pb(np.array(ct))
    np.testing.assert_allclose(gx, dx, rtol=1e-15)
    np.testing.assert_allclose(gv, dv, rtol=1e-15)
    assert xa.tolist() == x and va.tolist() == v  # inputs untouched


@pytest.mark.parametrize("method", ["divide", "power"])
def test_refused_without_unique_indices(method: str) -> None:
    op = getattr(gs.jax, f"at_{method}")
    with pytest.raises(gs.UnsupportedError, match="unique_indices=True"):
        gs.vjp(op, np.ones(3), (I([0, 2]),), np.ones(2))  # JAX: NotImplementedError, even for distinct indices
    with pytest.raises(gs.UnsupportedError, match="twice"):  # the promise broken: see test_broken_promise
        gs.vjp(op, np.ones(3), (I([0, 0]),), np.ones(2), unique_indices=True)
    with pytest.raises(gs.UnsupportedError, match="promise_in_bounds"):
        gs.vjp(op, np.ones(3), (I([0, 5]),), np.ones(2), unique_indices=True, mode="promise_in_bounds")


def test_apply_still_refused() -> None:
    with pytest.raises(gs.UnsupportedError, match="no gradient"):
        gs.vjp(gs.jax.at_apply, np.ones(3), (I([0, 2]),), "sin", unique_indices=True)


# ---- against jax.vjp --------------------------------------------------------------------------------------

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

#: (x shape, idx, values shape, fine under promise_in_bounds, unique under 'clip'); negatives wrap, 7/-9 are out;
#: every form hits distinct positions with and without wrap_negative_indices
FORMS: list[tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...], bool, bool]] = [
    ((5,), (I([1, 4, -3]),), (3,), True, True),  # no wrap: -3 drops, or clamps to 0
    ((5,), (I([1, 7, -9]),), (3,), False, False),  # clip: 7 -> 4 and -9 -> 0, distinct from 1
    ((5,), (I([2, 7]),), (2,), False, False),  # clip: 7 -> 4
    ((3, 4), (I([2, 0]),), (2, 4), True, True),  # whole rows
    ((3, 4), (I([0, 2, -1]), I([1, 3, 0])), (3,), True, True),
    ((3, 4), (I([[2], [-3]]), I([[1, -1]])), (2, 2), True, True),  # broadcast index arrays: rows 2, 0; cols 1, 3
]
MODES = [None, "clip", "drop", "fill", "promise_in_bounds"]
SEEDS = 2


def _draw(rng: np.random.Generator, shape: tuple[int, ...], method: str, ties: bool, dtype: Any) -> np.ndarray[Any, Any]:
    if ties:
        a = rng.integers(0, 3, shape).astype(np.float64)  # zeros: 0 ** 0, x / 0, log(0)
    elif method == "power":
        a = rng.uniform(0.25, 2.5, shape)
    else:
        a = rng.normal(size=shape) * 3
    return np.asarray(a, dtype)


def _compare(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], dtype: Any, what: str) -> None:
    assert a.dtype == b.dtype, what
    tol = (2e-5, 1e-6) if dtype == np.float32 else (1e-12, 1e-300)
    scale = np.nanmax(np.abs(np.where(np.isfinite(b), b, 0.0)), initial=1.0)
    np.testing.assert_allclose(a, b, rtol=tol[0], atol=tol[1] * scale, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("method", ["divide", "power"])
def test_against_jax_vjp(method: str, dtype: Any, mode: str | None) -> None:
    op = getattr(gs.jax, f"at_{method}")
    rng = np.random.default_rng(list(MODES).index(mode) * 4 + (method == "power") * 2 + (dtype == np.float32))
    n = 0
    for xs, idx, vs, in_bounds, clip_unique in FORMS:
        if (mode == "promise_in_bounds" and not in_bounds) or (mode == "clip" and not clip_unique):
            continue
        for wrap in (True, False):
            for ties in (False, True):
                for _ in range(SEEDS):
                    x, v = _draw(rng, xs, method, ties, dtype), _draw(rng, vs, method, ties, dtype)
                    kw: dict[str, Any] = {"mode": mode, "unique_indices": True, "wrap_negative_indices": wrap}
                    if not wrap and mode == "promise_in_bounds" and any((np.asarray(i) < 0).any() for i in idx):
                        continue  # a negative index is out of range then: refused (see the test above)
                    with np.errstate(all="ignore"):
                        out, pb = gs.vjp(op, x, idx, v, **kw)
                    ct = np.asarray(rng.normal(size=out.shape), dtype)
                    with np.errstate(all="ignore"):
                        gx, _, gv = pb(ct)

                    def f(x: Any, v: Any, kw: dict[str, Any] = kw, idx: Any = idx) -> Any:
                        return getattr(x.at[tuple(jnp.asarray(i) for i in idx)], method)(v, **kw)

                    j_out, j_pb = jax.vjp(f, jnp.asarray(x), jnp.asarray(v))
                    jx, jv = (np.asarray(g) for g in j_pb(jnp.asarray(ct)))
                    what = f"{method} {xs} {idx} ties={ties} wrap={wrap}"
                    _compare(out, np.asarray(j_out), dtype, what + " out")
                    _compare(gx, jx, dtype, what + " dx")
                    _compare(gv, jv, dtype, what + " dvalues")
                    n += 1
    assert n >= 16


def test_broken_promise() -> None:
    """Duplicates under unique_indices=True: JAX computes the value right (3 / (2 * 3)) but gives each duplicate
    the gradient of a lone update, -x / p**2 (its scatter_mul rule assumes distinct indices), where the
    product's derivative is -x / p**2 times the other duplicates' product; gs.vjp refuses (a recorded divergence)."""
    x, v = np.array([2.0, 3.0, 5.0, 7.0]), np.array([2.0, 3.0, 4.0])

    def f(x: Any, v: Any) -> Any:
        return x.at[jnp.array([1, 1, 2])].divide(v, unique_indices=True)

    out, pb = jax.vjp(f, jnp.asarray(x), jnp.asarray(v))
    assert np.asarray(out).tolist() == [2.0, 0.5, 1.25, 7.0]
    np.testing.assert_allclose(np.asarray(pb(jnp.ones(4))[1]), [-3 / 36, -3 / 36, -5 / 16], rtol=1e-15)
    with pytest.raises(gs.UnsupportedError, match="twice"):
        gs.vjp(gs.jax.at_divide, x, (I([1, 1, 2]),), v, unique_indices=True)
