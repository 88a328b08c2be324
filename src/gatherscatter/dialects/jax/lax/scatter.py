"""JAX ``jax.lax.scatter``, ``scatter_add``, ``scatter_sub``, ``scatter_mul``, ``scatter_max``, ``scatter_min``
and ``scatter_apply``.

The six registered ops are XLA's general scatter with six combiners: each is one
row of :data:`_VARIANTS` (its name, its reduction and its docstring fields),
registered by :func:`_register`; ``scatter_apply`` (registered too) is a counting
``scatter_add`` and then ``func`` (the adapter ``apply_counted``). The shared lowering and the
divergences they all share are in :mod:`gatherscatter.dialects.jax.lax._scatter`.
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from ....core.policy import Reduction
from ....core.shape import as_array
from ....errors import ArgumentError, ShapeError
from ..._common import func_name, named_func
from ..._record import Arg, Description, Residual, Step, named
from ..._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._common import FUNCS, GRAD, MODE_VALUES, applied, check_data, float_funcs, jax_context
from ._describe import _lax_scatter
from ._dnums import ScatterDimensionNumbers
from ._scatter import lax_scatter_divergences, lower_lax_scatter

__all__ = ["scatter", "scatter_add", "scatter_apply", "scatter_max", "scatter_min", "scatter_mul", "scatter_sub"]


#: the calls worth probing: the row (ScatterND k=1) configuration of docs/semantics.md#e21
_PROBE: tuple[dict[str, Any], ...] = (
    {
        "dimension_numbers": ScatterDimensionNumbers(
            update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
        )
    },
)


class _Variant(NamedTuple):
    """One ``lax.scatter*``: its name, the core reduction and the parts of its docstring."""

    name: str
    reduction: Reduction
    combiner: str  # "add" ... in the docstring's title and loop
    at_method: str  # the x.at[idx] method it differs from
    example: tuple[str, str]  # (operand, result) of the doctest (one per op)


_DOC = """JAX ``lax.{name}``: XLA's general scatter with the {title} combiner.

    Provenance: ``jax.lax.{name}`` (jax 0.10; batching dims since 0.4.31), XLA /
    StableHLO ``scatter`` with ``index_vector_dim`` = the last axis of
    ``scatter_indices``; ``jax_enable_x64=True``. ``dimension_numbers`` is a
    :class:`ScatterDimensionNumbers` (JAX's own, or a tuple of its fields).
    ``updates`` arrays must have the operand's dtype (lists take it).
    ``indices_are_sorted`` / ``unique_indices`` are accepted and ignored (promises).

    Each update element at ``U`` lands at ``start(scatter_indices[U[scatter dims]])
    + batch + U[update_window_dims]``. Modes: ``None`` / ``'fill'`` / ``'drop'`` /
    ``'promise_in_bounds'``: a window with any element out of range is dropped
    whole (XLA on CPU); ``'clip'``: the start is clamped so the window fits.
    Negative indices are out of range (no wrapping). Updates are applied with
    the scatter dims outer and the window dims inner (XLA's CPU order).

    Equivalent loop::

        Y = copy(operand)
        for G in ndindex(batch shape of scatter_indices):      # outer: scatter dims
            start = scatter_indices[G]                          # clip: clamp so the window fits
            if window in range:
                for W in ndindex(window shape):                 # inner: window dims
                    Y[start + batch(G) + W] = {combiner}(Y[...], updates[G, W])

    Differs from ``x.at[idx].{at_method}`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.{name}({operand}, [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    {result}
    """

_TITLE = {"set": "overwrite", "add": "add", "sub": "subtract", "max": "maximum", "min": "minimum", "mul": "multiply"}


def _register(v: _Variant) -> DialectOp:
    """Register ``jax.lax.<name>`` (and the divergences every lax scatter shares) from its table row."""
    qualname = f"jax.lax.{v.name}"
    lax_scatter_divergences(qualname)

    def describe(dimension_numbers: Any, mode: Any = None) -> Description:
        return _lax_scatter(qualname, v.reduction.value, dimension_numbers, mode)

    def lower(operand: Any, scatter_indices: Any, updates: Any, dimension_numbers: Any, mode: Any = None, *,
              indices_are_sorted: bool = False, unique_indices: bool = False) -> Lowering:
        return lower_lax_scatter(v.name, v.reduction, operand, scatter_indices, updates, dimension_numbers, mode)

    lower.__name__ = lower.__qualname__ = v.name
    operand, result = v.example
    lower.__doc__ = _DOC.format(name=v.name, title=_TITLE[v.combiner], combiner=v.combiner, at_method=v.at_method,
                                operand=operand, result=result)
    return dialect_op("jax", f"lax.{v.name}", family="general", kind="scatter", versions=("0.10",),
                      differentiable=("operand", "updates"), describe=describe, grad=GRAD, variants=_PROBE,
                      values={"mode": MODE_VALUES, "dimension_numbers": "dimension_numbers"})(lower)


_ZEROS, _ONES = "[0.0, 0.0, 0.0, 0.0, 0.0]", "[1.0, 1.0, 1.0, 1.0, 1.0]"
_VARIANTS = [
    _Variant("scatter", Reduction.NONE, "set", "set", (_ZEROS, "[0.0, 7.0, 9.0, 0.0, 0.0]")),
    _Variant("scatter_add", Reduction.ADD, "add", "add", (_ZEROS, "[0.0, 7.0, 17.0, 0.0, 0.0]")),
    _Variant("scatter_max", Reduction.MAX, "max", "max", (_ONES, "[1.0, 7.0, 9.0, 1.0, 1.0]")),
    _Variant("scatter_min", Reduction.MIN, "min", "min", (_ONES, "[1.0, 1.0, 1.0, 1.0, 1.0]")),
    _Variant("scatter_mul", Reduction.MUL, "mul", "multiply", (_ONES, "[1.0, 7.0, 72.0, 1.0, 1.0]")),
    _Variant("scatter_sub", Reduction.SUB, "sub", "subtract", (_ZEROS, "[0.0, -7.0, -17.0, 0.0, 0.0]")),
]

scatter, scatter_add, scatter_max, scatter_min, scatter_mul, scatter_sub = (_register(v) for v in _VARIANTS)


def _describe_apply(dimension_numbers: Any, func: Any, mode: Any = None) -> Description:
    """The lax scatter-add of ones into int64 zeros (the counts: the updates are ``ones(update_shape)``), then
    ``apply_counted(operand, counts, func)``."""
    op = "jax.lax.scatter_apply"
    name = func_name(op, func, FUNCS)
    d = _lax_scatter(op, Reduction.ADD.value, dimension_numbers, mode)
    ren = {"operand": "counts0"}
    c = d.canonical
    last = d.post[-1].out if d.post else c.out

    def fix(step: Step) -> Step:
        out = "count" if step.out == last else step.out
        return replace(step, out=out, args=tuple((k, ren.get(v, v)) for k, v in step.args))

    pre = [Step.adapt("zeros_like", "z", "operand", why="XLA counts the updates landing on each position"),
           Step.adapt("cast", "counts0", "z", dtype="int64", why="the counts are integers"),
           Step.adapt("zeros", "u0", "update_shape", "counts0", why="the placeholder updates of update_shape"),
           Step.adapt("ones_like", "updates", "u0", why="one count per update"),
           *(fix(s) for s in d.pre)]
    c = c.with_(data=ren.get(c.data, c.data), out="count" if c.out == last else c.out, duplicates_specified=True)
    post = [*(fix(s) for s in d.post),
            Step.adapt("apply_counted", "out", "operand", "count", func=name, why="func once per update landing")]
    inner = d.layout.get("to_source") or named(operand="data", scatter_indices="indices", updates="updates")

    def to_source(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        args = inner(canon, rng)
        args["update_shape"] = tuple(np.shape(args.pop("updates")))
        return args

    res = [*d.residuals, Residual("dtype", "raises when func returns another dtype than the operand's",
                                  "casts func's result back to the operand's dtype")]
    return Description(op, {**d.attrs, "func": name}, ("operand", "scatter_indices", "update_shape"), c, pre=pre,
                       post=post, residuals=res, layout={**d.layout, "to_source": to_source, **float_funcs(name)})


lax_scatter_divergences("jax.lax.scatter_apply")


@dialect_op("jax", "lax.scatter_apply", family="general", kind="scatter", versions=("0.10",),
            differentiable=("operand",), describe=_describe_apply, grad=GRAD,
            variants=tuple({**_PROBE[0], "func": f} for f in FUNCS[:3]),
            values={"mode": MODE_VALUES, "dimension_numbers": "dimension_numbers", "func": FUNCS},
            fuzz={"choices": {"func": ([np.negative, np.square, "negative"], [3, "nope", None])}})
def scatter_apply(operand: Any, scatter_indices: Any, func: Any, dimension_numbers: Any, *, update_shape: Any = (),
                  indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None) -> Lowering:
    """JAX ``lax.scatter_apply``: ``func`` applied to ``operand`` where the scatter lands, once per update.

    Provenance: ``jax.lax.scatter_apply`` (jax 0.10, ``jax_enable_x64=True``): a
    scatter of placeholder updates of shape ``update_shape`` whose combiner is
    ``func`` of the existing value. Positions, windows, modes and errors as
    :func:`scatter_add` (messages about ``updates`` refer to ``update_shape``);
    a position reached ``n`` times gets ``func`` applied ``n`` times. ``func``
    must be element-wise and return the operand's dtype; it is called with a
    1-D NumPy array of the selected elements (JAX traces it on a scalar); the
    name of one of the unary functions of :data:`~gatherscatter.dialects.jax._common.FUNCS`
    (``'negative'``) stands for that NumPy ufunc, and only those are described
    (translate, explain, the fuzzer). Description: the scatter-add of
    ``ones(update_shape)`` into int64 zeros (the counts), then the adapter
    ``apply_counted(operand, counts, func)``; ``gs.vjp`` refuses it (not linear).

    Equivalent loop::

        Y = copy(operand)
        for each update position U (as scatter_add) landing in range at k:
            Y[k] = func(Y[k])

    Differs from ``x.at[idx].apply(func)`` (wraps negative indices first) and from
    the other ``lax.scatter*`` (no updates: ``update_shape`` says their shape).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter_apply([1.0, 2.0, 3.0], [[1], [1], [7]], lambda v: v * 10, dn, update_shape=(3,)).tolist()
    [1.0, 200.0, 3.0]
    """
    ctx = jax_context("jax.lax.scatter_apply", data="operand", indices="scatter_indices")
    d = check_data(ctx, operand, "operand")
    f = named_func(ctx, func, FUNCS)
    try:
        shape = tuple(operator.index(n) for n in update_shape)
    except TypeError:
        raise ArgumentError(f"{ctx.label}: update_shape must be a sequence of ints; got {update_shape!r}") from None
    if any(n < 0 for n in shape):
        raise ShapeError(f"{ctx.label}: update_shape must not have negative sizes; got {list(shape)}")
    # the counts: a position is reached at most once per index tuple (its window covers it once)
    ind = as_array(ctx, scatter_indices, "scatter_indices")  # (a ragged list: the typed error lower_* gives)
    dt = np.min_scalar_type(int(np.prod(ind.shape[:-1], dtype=np.int64)))
    ones = np.broadcast_to(np.ones((), dt), shape)
    low = lower_lax_scatter("scatter_apply", Reduction.ADD, np.zeros(d.shape, dt), scatter_indices, ones,
                            dimension_numbers, mode)
    return applied(ctx, low, d, f)


scatter_apply.record.args = (Arg("operand", "data"), Arg("scatter_indices", "indices"), Arg("update_shape", "shape"))


# the divergences of single variants
divergence_table("jax.lax.scatter", r'''
[[divergence]]
case = "overlapping windows or duplicate indices"
when = "duplicates"
reference = "JAX documentation"
theirs = """
updates may be applied in any order; XLA on CPU applies them in row-major order of the index (scatter) dims, \
window by window, so the last window wins"""
ours = "the same order: scatter dims outer, window dims inner; the last update wins (duplicates='last')"
evidence = "docs/semantics.md#s7-2; tests/frameworks/test_jax.py (overlapping windows)"
kind = "undefined"
not_reproducible = "ours does what XLA on CPU does (the last window wins)"
''')
divergence_table("jax.lax.scatter_max", r'''
[[divergence]]
case = "complex operand"
when = "dtype"
reference = "JAX 0.10"
theirs = "complex numbers are ordered lexicographically (real part, then imaginary part), as XLA"
ours = "UnsupportedError: the gatherscatter core defines no ordering for complex numbers"
evidence = "tests/frameworks/test_jax.py::test_known_divergence_complex_minmax"
kind = "choice"
[divergence.example]
call = "jax.lax.scatter_max"
dtypes = { operand = "complex128", scatter_indices = "int64", updates = "complex128" }
theirs = { equals = [[2, 0]] }
ours = { raises = "UnsupportedError" }
[divergence.example.args]
operand = [[0, 0]]
scatter_indices = [[0], [0]]
updates = [[1, 2], [2, 0]]
dimension_numbers = { update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0] }
''')
divergence_table("jax.lax.scatter_min", r'''
[[divergence]]
case = "complex operand"
when = "dtype"
reference = "JAX 0.10"
theirs = "complex numbers are ordered lexicographically (real part, then imaginary part), as XLA"
ours = "UnsupportedError: the gatherscatter core defines no ordering for complex numbers"
evidence = "tests/frameworks/test_jax.py::test_known_divergence_complex_minmax"
kind = "choice"
[divergence.example]
call = "jax.lax.scatter_min"
dtypes = { operand = "complex128", scatter_indices = "int64", updates = "complex128" }
theirs = { equals = [[-1, 0]] }
ours = { raises = "UnsupportedError" }
[divergence.example.args]
operand = [[0, 0]]
scatter_indices = [[0], [0]]
updates = [[-1, 2], [-1, 0]]
dimension_numbers = { update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0] }
''')
