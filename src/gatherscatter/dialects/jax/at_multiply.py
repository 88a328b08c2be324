"""JAX ``x.at[idx].multiply(values)`` (function form ``at_multiply``)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op
from ._at import at_context, at_divergences, lower_scatter
from ._describe import _at_scatter

at_divergences("jax.at_multiply")


def _describe(form: str = "array", mode: Any = None) -> Description:
    return _at_scatter("jax.at_multiply", "mul", form, mode)


@dialect_op(
    "jax",
    "at_multiply",
    family="scatter_nd",
    kind="scatter",
    versions=("0.10",),
    differentiable=("x", "values"),
    describe=_describe,
)
def at_multiply(x: Any, idx: Any, values: Any, mode: Any = None) -> Lowering:
    """JAX ``x.at[idx].multiply(values)``: a copy of ``x`` multiplied by ``values`` at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].multiply`` (``lax.scatter_mul``;
    jax 0.10), with ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].multiply(values)``
    calls this.

    Indexing and modes as :func:`at_set`; duplicates multiply in turn; integer
    products wrap. Runs in the promoted dtype and casts back (an int ``x`` times
    1.5 is truncated); a bool result dtype is refused (JAX: ``mul`` does not
    accept bool).

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] *= values[j]

    Differs from NumPy ``np.multiply.at`` (raises on out-of-range).

    >>> import gatherscatter as gs
    >>> gs.jax.at_multiply([5, 5, 5, 5], ([0, 0, 2],), [2, 4, 7]).tolist()
    [40, 5, 35, 5]
    """
    return lower_scatter(at_context("multiply"), Reduction.MUL, x, idx, values, mode)
