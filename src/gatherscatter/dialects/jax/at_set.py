"""JAX ``x.at[idx].set(values)`` (function form ``at_set``)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op, divergence
from ._at import at_context, at_divergences, lower_scatter
from ._describe import _at_scatter

at_divergences("jax.at_set")
divergence(
    op="jax.at_set",
    case="duplicate indices",
    reference="JAX documentation",
    theirs="implementation-defined and may be nondeterministic; CPU applies updates in row-major order "
    "(last wins, 20/20 runs)",
    ours="the last update in row-major order of the indexed result wins (duplicates='last')",
    evidence="behavior-matrix 6.5 and 6.9; semantics.md §5.3, §6.5",
    kind="undefined",
)
divergence(
    op="jax.at_set",
    case="values whose dtype cannot be cast safely to x's dtype",
    reference="JAX 0.10",
    theirs="FutureWarning 'scatter inputs have incompatible types' (an error in a future JAX), then the result",
    ours="the same result, without a warning",
    evidence="jax/_src/ops/scatter.py _scatter_impl",
    kind="choice",
)


def _describe(form: str = "array", mode: Any = None) -> Description:
    return _at_scatter("jax.at_set", "none", form, mode)


@dialect_op(
    "jax",
    "at_set",
    family="scatter_nd",
    kind="scatter",
    versions=("0.10",),
    differentiable=("x", "values"),
    describe=_describe,
)
def at_set(x: Any, idx: Any, values: Any, mode: Any = None) -> Lowering:
    """JAX ``x.at[idx].set(values)``: a copy of ``x`` with ``x[idx] = values``.

    Provenance: ``jax.numpy.ndarray.at[...].set`` (jax 0.10), with
    ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].set(values)`` calls this.

    ``idx`` is read as in :func:`at_get`; ``values`` broadcast to the shape of
    ``x[idx]``. Negative indices wrap once. Out-of-range updates are dropped
    (``mode=None``, ``'fill'``, ``'drop'``, ``'promise_in_bounds'``); ``'clip'``
    clamps them into range. Duplicates: the last update in row-major order wins
    (JAX: implementation-defined; CPU last). The write happens in the promoted
    dtype of ``x`` and ``values`` (JAX's lattice; Python scalars are weak) and is
    cast back to ``x``'s dtype (float -> int truncates and saturates, NaN -> 0).
    An empty target returns ``x`` unchanged.

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):                 # row-major
            k = wrap_negative(coords(j))
            if all(0 <= k_d < s_d):  Y[k] = values[j]    # 'clip': Y[clamp(k)] = values[j]

    Differs from NumPy ``x[idx] = v`` (raises on out-of-range) and from
    ``torch.index_put`` (raises).

    >>> import gatherscatter as gs
    >>> gs.jax.at_set([1.0, 2.0, 3.0], ([0, -1, 7],), [10.0, 20.0, 30.0]).tolist()
    [10.0, 2.0, 20.0]
    >>> gs.jax.at([1, 2, 3])[([1, 1],)].set([5, 6]).tolist()
    [1, 6, 3]
    >>> gs.jax.at([1, 2, 3])[5].set(9, mode="clip").tolist()
    [1, 2, 9]
    """
    return lower_scatter(at_context("set"), Reduction.NONE, x, idx, values, mode)
