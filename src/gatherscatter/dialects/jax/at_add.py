"""JAX ``x.at[idx].add(values)`` (function form ``at_add``)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op
from ._at import at_context, at_divergences, lower_scatter
from ._describe import _at_scatter

at_divergences("jax.at_add")


def _describe(form: str = "array", mode: Any = None) -> Description:
    return _at_scatter("jax.at_add", "add", form, mode)


@dialect_op(
    "jax",
    "at_add",
    family="scatter_nd",
    kind="scatter",
    versions=("0.10",),
    differentiable=("x", "values"),
    describe=_describe,
)
def at_add(x: Any, idx: Any, values: Any, mode: Any = None) -> Lowering:
    """JAX ``x.at[idx].add(values)``: a copy of ``x`` with ``values`` added at ``x[idx]``.

    Provenance: ``jax.numpy.ndarray.at[...].add`` (``lax.scatter_add``; jax 0.10),
    with ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].add(values)`` calls this.

    Indexing and modes as :func:`at_set` (out-of-range updates dropped by
    default, ``'clip'`` clamps). Every update is applied: duplicates accumulate
    (unlike NumPy's buffered ``x[idx] += v``), in row-major order. Runs in the
    promoted dtype and casts back; a bool result dtype is refused (JAX: ``add``
    does not accept bool).

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] += values[j]

    Differs from NumPy ``x[idx] += v`` (duplicates added once) and
    ``np.add.at`` (raises on out-of-range).

    >>> import gatherscatter as gs
    >>> gs.jax.at_add([1.0, 1.0, 1.0, 1.0], ([1, 1, 2],), [10.0, 20.0, 30.0]).tolist()
    [1.0, 31.0, 31.0, 1.0]
    >>> gs.jax.at([1, 2, 3])[([0, 3],)].add(10).tolist()
    [11, 2, 3]
    """
    return lower_scatter(at_context("add"), Reduction.ADD, x, idx, values, mode)
