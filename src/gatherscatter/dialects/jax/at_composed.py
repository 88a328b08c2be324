"""JAX ``x.at[idx].divide/power/apply``, as functions: ``at_divide``, ``at_power``, ``at_apply``.

JAX builds these three from a scatter and an element-wise step
(``jax/_src/numpy/array_methods.py``), and so do we: each is a registered op
whose description is the core scatter plus that step. ``divide`` and
``power`` multiply ``values`` into ``ones_like(x)`` (``lax.scatter_mul``:
duplicates multiply, out-of-range updates are dropped, the product is cast to
``x``'s dtype), then the post adapter ``divide_inexact(x, product)`` or
``power(x, product)`` combines it with ``x``; ``apply`` counts the updates
landing on each position (a scatter-add of ones into int64 zeros), then
``apply_counted`` applies ``func`` that many times. ``func`` is an attribute:
any element-wise callable runs, and the named unary functions of
:data:`FUNCS` (NumPy ufunc names; ``func='negative'`` or ``np.negative``) are
the ones the description, translate, explain and the fuzzer can name.
``gs.vjp`` refuses all three (the element-wise step is not linear in the
scatter's result), saying so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Reduction
from ...errors import UnsupportedError
from .._common import POINTWISE, func_name, named_func
from .._record import Description, Residual, Step
from .._registry import Lowering, dialect_op, divergence_table
from ._at import at_context, at_divergences, lower_scatter
from ._common import FUNCS, GRAD, MODE_VALUES, applied, check_data, common_divergences, float_funcs
from ._describe import _at_scatter

__all__ = ["FUNCS", "at_apply", "at_divide", "at_power"]


_FUZZ_FUNC = {"npindex": True, "choices": {"func": ([np.negative, np.square, np.absolute, np.floor, "negative"],
                                                    [3, "nope", None])}}


def _describe_product(op: str, step: str, why: str) -> Any:
    def describe(form: str = "array", mode: Any = None, wrap_negative_indices: bool = True) -> Description:
        d = _at_scatter(op, "mul", form, mode, bool(wrap_negative_indices))
        d.pre.insert(0, Step.adapt("ones_like", "ones", "x", why="JAX multiplies values into ones_like(x)"))
        d.canonical = d.canonical.with_(data="ones", out="p")
        d.post = [Step.adapt(step, "out", "x", "p", why=why)]
        d.residuals = [r for r in d.residuals if r.when != "empty"] + [Residual(
            "empty", "returns x unchanged when the target is empty (the element-wise step still runs: an int x "
            "becomes float for divide)", "computes its own empty result or raises")]
        return d

    return describe


def _product_lowering(method: str, x: Any, idx: Any, values: Any, mode: Any, wrap: bool, fn: str,
                      what: str) -> Lowering:
    """``ones_like(x).at[idx].multiply(values)`` as the scatter, then ``fn(x, product)`` (the adapter's NumPy
    definition) as its post step."""
    ctx = at_context(method)
    d = check_data(ctx, x, "x")
    low = lower_scatter(ctx, Reduction.MUL, np.ones_like(d), idx, values, mode, wrap)
    cast = low.post

    def post(p: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        prod = cast(p) if cast is not None else p
        if fn == "power" and prod.dtype.kind == "i" and (prod < 0).any():
            pos = tuple(int(v) for v in np.argwhere(prod < 0)[0])
            raise UnsupportedError(
                f"{ctx.label}: integer power with a negative exponent {int(prod[pos])} at position "
                f"{list(pos)} of x is not supported (JAX returns an unspecified integer; NumPy raises)"
            )
        return POINTWISE[fn](d, prod)

    low.post, low.nonlinear = post, what
    if low.result is not None:
        low.result = post(low.result)
    return low


_DIVIDE_DOC = """JAX ``x.at[idx].divide(values)``: ``x`` divided by ``values`` at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].divide`` (jax 0.10, ``jax_enable_x64=True``):
    ``jnp.divide(x, ones_like(x).at[idx].multiply(values))``. Indexing, modes and
    the keywords as :func:`at_multiply`; duplicates divide in turn (by the
    product of their values, which is computed in ``x``'s dtype: an int ``x``
    divided by 2.5 twice is divided by ``int(6.25) = 6``). Integer ``x`` gives a
    float result (true division: float32 for 8- to 32-bit integers, float64 for
    64-bit ones, as JAX); complex quotients can differ from XLA's in the last
    places (a recorded divergence); a zero divisor gives inf or NaN; bool ``x``
    is refused (JAX: ``mul`` does not accept bool). Description: a multiply-scatter
    into ``ones_like(x)``, then the adapter ``divide_inexact(x, product)``.

    Equivalent loop::

        P = ones_like(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  P[k] *= values[j]
        Y = x / P

    Differs from NumPy's ``np.divide.at`` (divides in turn, ``x / v1 / v2``, and
    keeps ``x``'s dtype) and from MLX's ``at[].divide`` (multiplies by reciprocals).

    >>> import gatherscatter as gs
    >>> gs.jax.at_divide([8.0, 8.0, 8.0], ([0, 0, 2, 9],), [2.0, 2.0, 4.0, 5.0]).tolist()
    [2.0, 8.0, 2.0]
    """

_POWER_DOC = """JAX ``x.at[idx].power(values)``: ``x`` raised to ``values`` at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].power`` (jax 0.10, ``jax_enable_x64=True``):
    ``jnp.power(x, ones_like(x).at[idx].multiply(values))``. Indexing, modes and
    the keywords as :func:`at_multiply`; duplicates multiply their exponents
    (``x ** (v1 * v2)``, the product in ``x``'s dtype). Integer powers wrap; a
    negative integer exponent is refused (UnsupportedError: JAX returns an
    unspecified value); bool ``x`` is refused (JAX: ``mul`` does not accept bool).
    Floating powers use NumPy's ``power`` (float32 through float64), which can
    differ from XLA's ``pow`` in the last place (a recorded divergence).
    Description: a multiply-scatter into ``ones_like(x)``, then the adapter
    ``power(x, product)``.

    Equivalent loop::

        P = ones_like(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  P[k] *= values[j]
        Y = x ** P

    Differs from NumPy's ``np.power.at`` (raises in turn, ``(x ** v1) ** v2``, and
    raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> gs.jax.at_power([2, 2, 2], ([0, 0, 1],), [2, 3, 5]).tolist()
    [64, 32, 2]
    """


def _register_product(method: str, step: str, what: str, why: str, doc: str) -> Any:
    qualname = f"jax.at_{method}"
    at_divergences(qualname)

    def lower(x: Any, idx: Any, values: Any, mode: Any = None, *, indices_are_sorted: bool = False,
              unique_indices: bool = False, wrap_negative_indices: bool = True) -> Lowering:
        return _product_lowering(method, x, idx, values, mode, bool(wrap_negative_indices), step, what)

    lower.__name__ = lower.__qualname__ = f"at_{method}"
    lower.__doc__ = doc
    return dialect_op("jax", f"at_{method}", family="scatter_nd", kind="scatter", versions=("0.10",),
                      differentiable=("x", "values"), describe=_describe_product(qualname, step, why), grad=GRAD,
                      fuzz={"npindex": True}, values={"mode": MODE_VALUES})(lower)


at_divide = _register_product("divide", "divide_inexact", "x / product (a true division)",
                              "JAX divides x by the product (true division)", _DIVIDE_DOC)
at_power = _register_product("power", "power", "x ** product", "JAX raises x to the product", _POWER_DOC)


def _describe_apply(func: Any, form: str = "array", mode: Any = None,
                    wrap_negative_indices: bool = True) -> Description:
    op = "jax.at_apply"
    name = func_name(op, func, FUNCS)
    d = _at_scatter(op, "add", form, mode, bool(wrap_negative_indices))
    pre = [Step.adapt("zeros_like", "z", "x", why="JAX counts the updates landing on each position"),
           Step.adapt("cast", "counts0", "z", dtype="int64", why="the counts are integers"),
           d.pre[0],  # the index tuples
           Step.adapt("full_slices", "ones", "tuples", "counts0", value=1, why="one count per update")]
    c = d.canonical.with_(data="counts0", updates="ones", out="count", reduction="add", duplicates_specified=True)
    post = [Step.adapt("apply_counted", "out", "x", "count", func=name, why="func once per update landing there")]
    res = [r for r in d.residuals if r.when != "dtype"] + [Residual(
        "dtype", "raises when func returns another dtype than x's", "casts func's result back to x's dtype")]
    layout = dict(d.layout)
    layout["to_source"] = _drop_values(layout["to_source"])
    layout.update(float_funcs(name))
    return Description(op, {**d.attrs, "func": name}, ("x", "idx"), c, pre=pre, post=post, residuals=res,
                       layout=layout)


def _drop_values(mapper: Any) -> Any:
    def m(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        args: dict[str, Any] = mapper(canon, rng)
        args.pop("values", None)
        return args

    return m


common_divergences("jax.at_apply")


@dialect_op("jax", "at_apply", family="scatter_nd", kind="scatter", versions=("0.10",), differentiable=("x",),
            describe=_describe_apply, grad=GRAD, fuzz=_FUZZ_FUNC, values={"mode": MODE_VALUES, "func": FUNCS},
            variants=tuple({"func": f} for f in FUNCS[:3]))
def at_apply(x: Any, idx: Any, func: Any, mode: Any = None, *, indices_are_sorted: bool = False,
             unique_indices: bool = False, wrap_negative_indices: bool = True) -> Lowering:
    """JAX ``x.at[idx].apply(func)``: ``func`` applied to ``x`` at ``x[idx]``, once per update.

    Provenance: ``jax.numpy.ndarray.at[...].apply`` (``lax.scatter_apply``; jax 0.10,
    ``jax_enable_x64=True``). Indexing, modes and the keywords as :func:`at_set`:
    out-of-range positions are skipped (``'clip'`` clamps them); a position
    indexed ``n`` times gets ``func`` applied ``n`` times (unlike
    ``x.at[idx].set(func(x[idx]))``). ``func`` must be element-wise and return
    ``x``'s dtype; it is called with a 1-D NumPy array of the selected elements
    (JAX traces it on a scalar). ``func`` may also be the name of one of the
    unary functions of :data:`FUNCS` (``'negative'``: ``np.negative``), the ones
    the description names. Description: a scatter-add of ones into int64 zeros
    (the counts), then the adapter ``apply_counted(x, counts, func)``.

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] = func(Y[k])

    Differs from ``x.at[idx].set(func(x[idx]))`` (once per position) and from NumPy's
    unary ``ufunc.at`` (raises on out-of-range indices, casts back to ``x``'s dtype).

    >>> import gatherscatter as gs
    >>> gs.jax.at_apply([1.0, 2.0, 3.0], ([0, 0, 2, 7],), lambda v: v * 10).tolist()
    [100.0, 2.0, 30.0]
    """
    ctx = at_context("apply")
    d = check_data(ctx, x, "x")
    f = named_func(ctx, func, FUNCS)
    wrap = bool(wrap_negative_indices)
    low = lower_scatter(ctx, Reduction.ADD, np.zeros(d.shape, np.uint8), idx, 1, mode, wrap)  # the counts: as
    dt = np.min_scalar_type(int(np.prod(low.indices.shape[:-1], dtype=np.int64)))  # a position: once per tuple
    if dt != np.uint8:
        low = lower_scatter(ctx, Reduction.ADD, np.zeros(d.shape, dt), idx, 1, mode, wrap)
    return applied(ctx, low, d, f)


#: why these records have no strict example (tests/dialects/test_divergences_strict.py)
_UNREGISTERED = ("the difference is in the last places on some random inputs (or an unspecified JAX value), which no "
                 "single fixed example shows reliably; tests/dialects/jax/test_at_composed.py compares the ops with "
                 "jax (exactly, within the recorded 1 ulp for power, and the integer negative power strictly)")
_CALLABLE = ("func is a Python callable, which the TOML example format cannot hold; "
             "tests/dialects/jax/test_at_composed.py compares at_apply with jax")

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
for _m in ("divide", "power"):
    divergence_table(f"jax.at_{_m}", r'''
[[divergence]]
case = "gradients (gs.vjp) with unique_indices=True"
when = "always"
reference = "JAX 0.10 (x64, CPU)"
theirs = """
jax.vjp differentiates x.at[idx].divide/power when unique_indices=True (scatter_mul's rule); without it, \
NotImplementedError"""
ours = "gs.vjp refuses both (UnsupportedError: the element-wise step after the scatter is not linear)"
evidence = "tests/grad/test_jax.py (REFUSED: both refuse without unique_indices)"
kind = "choice"
not_reproducible = "a gradient, not a call result: the example format runs calls"
''')
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
''', not_reproducible=_CALLABLE)
