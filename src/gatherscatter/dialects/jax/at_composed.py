"""JAX ``x.at[idx].divide/power/apply``, as functions: ``at_divide``, ``at_power``, ``at_apply``.

JAX builds these three from a scatter and an element-wise step
(``jax/_src/numpy/array_methods.py``), and so do we, from the registered ops'
lowering: ``divide`` and ``power`` multiply ``values`` into ``ones_like(x)``
(``lax.scatter_mul``: duplicates multiply, out-of-range updates are dropped,
the product is cast to ``x``'s dtype) and then compute ``x / product`` or
``x ** product``; ``apply`` applies ``func`` once per update landing on a
position. They are plain functions, not registered ops: the final division,
power or ``func`` has no canonical gather/scatter form, so ``translate``,
``explain`` and ``gs.vjp`` do not see them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Reduction
from ...errors import UnsupportedError
from .._registry import divergence_table
from ._at import at_context, lower_scatter
from ._common import apply_counted, check_data

__all__ = ["at_apply", "at_divide", "at_power"]


def _product(method: str, x: Any, idx: Any, values: Any, mode: Any, wrap: bool) -> tuple[Any, Any]:
    """``x`` as JAX reads it, and ``ones_like(x).at[idx].multiply(values)`` (what JAX divides or raises by)."""
    ctx = at_context(method)
    d = check_data(ctx, x, "x")
    return d, lower_scatter(ctx, Reduction.MUL, np.ones_like(d), idx, values, mode, wrap).run()


def _inexact(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """JAX's ``true_divide`` operand (``dtypes.to_inexact_dtype``): 8- to 32-bit integers become float32,
    64-bit ones float64."""
    if a.dtype.kind not in "iu":
        return a
    return a.astype(np.float32 if a.dtype.itemsize <= 4 else np.float64)


def at_divide(x: Any, idx: Any, values: Any, mode: Any = None, *, indices_are_sorted: bool = False,
              unique_indices: bool = False, wrap_negative_indices: bool = True) -> np.ndarray[Any, Any]:
    """JAX ``x.at[idx].divide(values)``: ``x`` divided by ``values`` at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].divide`` (jax 0.10, ``jax_enable_x64=True``):
    ``jnp.divide(x, ones_like(x).at[idx].multiply(values))``. Indexing, modes and
    the keywords as :func:`at_multiply`; duplicates divide in turn (by the
    product of their values, which is computed in ``x``'s dtype: an int ``x``
    divided by 2.5 twice is divided by ``int(6.25) = 6``). Integer ``x`` gives a
    float result (true division: float32 for 8- to 32-bit integers, float64 for
    64-bit ones, as JAX); complex quotients can differ from XLA's in the last
    places (a recorded divergence); a zero divisor gives inf or NaN; bool ``x``
    is refused (JAX: ``mul`` does not accept bool).

    Equivalent loop::

        P = ones_like(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  P[k] *= values[j]
        Y = x / P

    >>> import gatherscatter as gs
    >>> gs.jax.at_divide([8.0, 8.0, 8.0], ([0, 0, 2, 9],), [2.0, 2.0, 4.0, 5.0]).tolist()
    [2.0, 8.0, 2.0]
    """
    d, p = _product("divide", x, idx, values, mode, bool(wrap_negative_indices))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.asarray(np.true_divide(_inexact(d), _inexact(p)))


def at_power(x: Any, idx: Any, values: Any, mode: Any = None, *, indices_are_sorted: bool = False,
             unique_indices: bool = False, wrap_negative_indices: bool = True) -> np.ndarray[Any, Any]:
    """JAX ``x.at[idx].power(values)``: ``x`` raised to ``values`` at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].power`` (jax 0.10, ``jax_enable_x64=True``):
    ``jnp.power(x, ones_like(x).at[idx].multiply(values))``. Indexing, modes and
    the keywords as :func:`at_multiply`; duplicates multiply their exponents
    (``x ** (v1 * v2)``, the product in ``x``'s dtype). Integer powers wrap; a
    negative integer exponent is refused (UnsupportedError: JAX returns an
    unspecified value); bool ``x`` is refused (JAX: ``mul`` does not accept bool).
    Floating powers use NumPy's ``power`` (float32 through float64), which can
    differ from XLA's ``pow`` in the last place (a recorded divergence).

    Equivalent loop::

        P = ones_like(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  P[k] *= values[j]
        Y = x ** P

    >>> import gatherscatter as gs
    >>> gs.jax.at_power([2, 2, 2], ([0, 0, 1],), [2, 3, 5]).tolist()
    [64, 32, 2]
    """
    d, p = _product("power", x, idx, values, mode, bool(wrap_negative_indices))
    if p.dtype.kind == "i" and (p < 0).any():
        pos = tuple(int(v) for v in np.argwhere(p < 0)[0])
        raise UnsupportedError(
            f"{at_context('power').label}: integer power with a negative exponent {int(p[pos])} at position "
            f"{list(pos)} of x is not supported (JAX returns an unspecified integer; NumPy raises)"
        )
    with np.errstate(all="ignore"):
        if d.dtype == np.float32:  # XLA's float32 pow is (almost always) the float64 power rounded once
            return np.asarray(np.power(d.astype(np.float64), p.astype(np.float64)), np.float32)
        return np.asarray(np.power(d, p), d.dtype)


def at_apply(x: Any, idx: Any, func: Any, mode: Any = None, *, indices_are_sorted: bool = False,
             unique_indices: bool = False, wrap_negative_indices: bool = True) -> np.ndarray[Any, Any]:
    """JAX ``x.at[idx].apply(func)``: ``func`` applied to ``x`` at ``x[idx]``, once per update.

    Provenance: ``jax.numpy.ndarray.at[...].apply`` (``lax.scatter_apply``; jax 0.10,
    ``jax_enable_x64=True``). Indexing, modes and the keywords as :func:`at_set`:
    out-of-range positions are skipped (``'clip'`` clamps them); a position
    indexed ``n`` times gets ``func`` applied ``n`` times (unlike
    ``x.at[idx].set(func(x[idx]))``). ``func`` must be element-wise and return
    ``x``'s dtype; it is called with a 1-D NumPy array of the selected elements
    (JAX traces it on a scalar).

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] = func(Y[k])

    >>> import gatherscatter as gs
    >>> gs.jax.at_apply([1.0, 2.0, 3.0], ([0, 0, 2, 7],), lambda v: v * 10).tolist()
    [100.0, 2.0, 30.0]
    """
    ctx = at_context("apply")
    d = check_data(ctx, x, "x")
    counts = lower_scatter(ctx, Reduction.ADD, np.zeros(d.shape, np.int64), idx, 1, mode,
                           bool(wrap_negative_indices)).run()
    return apply_counted(ctx, d, counts, func)


#: why these records have no strict example (tests/dialects/test_divergences_strict.py)
_UNREGISTERED = ("at_divide/at_power/at_apply are plain functions, not registered ops, so the strict test cannot call "
                 "ours by name; tests/dialects/jax/test_at_composed.py compares them with jax (exactly, within the "
                 "recorded 1 ulp for power, and the integer negative power strictly)")

divergence_table("jax.at_power", r'''
[[divergence]]
case = "integer x with a negative exponent"
when = "invalid"
reference = "JAX 0.10 (x64, CPU)"
theirs = "an unspecified integer (jnp.power(7, -1) is 2898552624600762295, 2 ** -2 is 2**62)"
ours = "UnsupportedError naming the exponent and its position"
evidence = "jax.numpy.power on int64 (tests/dialects/jax/test_at_composed.py::test_integer_negative_power)"
kind = "undefined"

[[divergence]]
case = "floating-point or complex x with a non-trivial exponent"
when = "dtype"
reference = "JAX 0.10 (x64, CPU)"
theirs = """
XLA's pow, which is not correctly rounded: on random float64 inputs about 5% of results differ from the C \
library's pow by one unit in the last place (float32: 0.1% from the float64 power rounded once; complex128: most \
results, by up to 1.9e-15 relative)"""
ours = """
NumPy's power (float32 computed in float64 and rounded once): real results at most one unit in the last place from \
JAX's value"""
evidence = "tests/dialects/jax/test_at_composed.py::test_at_against_jax (power compared to 1 ulp)"
kind = "choice"
''', not_reproducible=_UNREGISTERED)
divergence_table("jax.at_divide", r'''
[[divergence]]
case = "complex x"
when = "dtype"
reference = "JAX 0.10 (x64, CPU)"
theirs = """
XLA's complex division, whose rounding differs from NumPy's in the last places: on random complex128 inputs about \
60% of quotients differ, by at most 3 units of 2**-52 relative"""
ours = "NumPy's complex true_divide"
evidence = "jnp.divide vs numpy.true_divide on 20,000 random complex128 pairs (max relative difference 5.6e-16)"
kind = "choice"
''', not_reproducible=_UNREGISTERED)
divergence_table("jax.at_apply", r'''
[[divergence]]
case = "func that is not element-wise, or traced differently"
when = "always"
reference = "JAX 0.10"
theirs = "func is traced once on a 0-d scalar of x's dtype and runs inside XLA's scatter, once per update"
ours = """
func is called with a 1-D NumPy array of the selected elements, once per round of duplicates; an element-wise func \
gives the same values"""
evidence = "jax/_src/lax/slicing.py scatter_apply; tests/dialects/jax/test_at_composed.py"
kind = "choice"
''', not_reproducible=_UNREGISTERED)
