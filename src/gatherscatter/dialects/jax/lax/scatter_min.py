"""JAX ``jax.lax.scatter_min``."""

from __future__ import annotations

from typing import Any

from ....core.policy import Reduction
from ..._record import Description
from ..._registry import Lowering, dialect_op, divergence
from ._describe import _lax_scatter
from ._scatter import lax_scatter_divergences, lower_lax_scatter

lax_scatter_divergences("jax.lax.scatter_min")
divergence(
    op="jax.lax.scatter_min",
    case="complex operand",
    reference="JAX 0.10",
    theirs="complex numbers are ordered lexicographically (real part, then imaginary part), as XLA",
    ours="UnsupportedError: the gatherscatter core defines no ordering for complex numbers",
    evidence="tests/frameworks/test_jax.py::test_known_divergence_complex_minmax",
    kind="choice",
)


def _describe(dimension_numbers: Any, mode: Any = None) -> Description:
    return _lax_scatter("jax.lax.scatter_min", "min", dimension_numbers, mode)


@dialect_op(
    "jax",
    "lax.scatter_min",
    family="general",
    kind="scatter",
    versions=("0.10",),
    differentiable=("operand", "updates"),
    describe=_describe,
)
def scatter_min(
    operand: Any,
    scatter_indices: Any,
    updates: Any,
    dimension_numbers: Any,
    mode: Any = None,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
) -> Lowering:
    """JAX ``lax.scatter_min``: XLA's general scatter with the minimum combiner.

    Provenance: ``jax.lax.scatter_min`` (jax 0.10; batching dims since 0.4.31), XLA /
    StableHLO ``scatter`` with ``index_vector_dim`` = the last axis of
    ``scatter_indices``; ``jax_enable_x64=True``. ``dimension_numbers`` is a
    :class:`ScatterDimensionNumbers` (JAX's own, or a tuple of its fields).
    ``updates`` arrays must have the operand's dtype (lists take it).

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
                    Y[start + batch(G) + W] = min(Y[...], updates[G, W])

    Differs from ``x.at[idx].min`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter_min([1.0, 1.0, 1.0, 1.0, 1.0], [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    return lower_lax_scatter("scatter_min", Reduction.MIN, operand, scatter_indices, updates, dimension_numbers, mode)
