"""JAX ``x.at[idx].min(values)`` (function form ``at_min``)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op, divergence
from ._at import at_context, at_divergences, lower_scatter
from ._describe import _at_scatter

at_divergences("jax.at_min")
divergence(
    op="jax.at_min",
    case="complex x or values",
    reference="JAX 0.10",
    theirs="complex numbers are ordered lexicographically (real part, then imaginary part), as XLA's min",
    ours="UnsupportedError: the gatherscatter core defines no ordering for complex numbers",
    evidence="jax.lax.scatter_min on complex128 (tests/frameworks/test_jax.py::test_known_divergence_complex_minmax)",
    kind="choice",
)


def _describe(form: str = "array", mode: Any = None) -> Description:
    return _at_scatter("jax.at_min", "min", form, mode)


@dialect_op(
    "jax",
    "at_min",
    family="scatter_nd",
    kind="scatter",
    versions=("0.10",),
    differentiable=("x", "values"),
    describe=_describe,
)
def at_min(x: Any, idx: Any, values: Any, mode: Any = None) -> Lowering:
    """JAX ``x.at[idx].min(values)``: a copy of ``x`` where ``x[idx]`` keeps the smaller of itself and ``values``.

    Provenance: ``jax.numpy.ndarray.at[...].min`` (``lax.scatter_min``; jax 0.10), with
    ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].min(values)`` calls this.

    Indexing and modes as :func:`at_set`; duplicates all take part (the
    minimum over ``x`` and every update); NaN propagates; booleans use
    AND. Runs in the promoted dtype and casts back.

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] = min(Y[k], values[j])

    Differs from NumPy ``np.minimum.at`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> gs.jax.at_min([5, 5, 5, 5], ([0, 0, 2],), [2, 4, 7]).tolist()
    [2, 5, 5, 5]
    """
    return lower_scatter(at_context("min"), Reduction.MIN, x, idx, values, mode)
