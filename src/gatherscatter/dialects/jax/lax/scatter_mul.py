"""JAX ``jax.lax.scatter_mul``."""

from __future__ import annotations

from typing import Any

from ....core.policy import Reduction
from ..._record import Description
from ..._registry import Lowering, dialect_op
from ._describe import _lax_scatter
from ._scatter import lax_scatter_divergences, lower_lax_scatter

lax_scatter_divergences("jax.lax.scatter_mul")


def _describe(dimension_numbers: Any, mode: Any = None) -> Description:
    return _lax_scatter("jax.lax.scatter_mul", "mul", dimension_numbers, mode)


@dialect_op(
    "jax",
    "lax.scatter_mul",
    family="general",
    kind="scatter",
    versions=("0.10",),
    differentiable=("operand", "updates"),
    describe=_describe,
)
def scatter_mul(
    operand: Any,
    scatter_indices: Any,
    updates: Any,
    dimension_numbers: Any,
    mode: Any = None,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
) -> Lowering:
    """JAX ``lax.scatter_mul``: XLA's general scatter with the multiply combiner.

    Provenance: ``jax.lax.scatter_mul`` (jax 0.10; batching dims since 0.4.31), XLA /
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
                    Y[start + batch(G) + W] = mul(Y[...], updates[G, W])

    Differs from ``x.at[idx].mul`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter_mul([1.0, 1.0, 1.0, 1.0, 1.0], [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    [1.0, 7.0, 72.0, 1.0, 1.0]
    """
    return lower_lax_scatter("scatter_mul", Reduction.MUL, operand, scatter_indices, updates, dimension_numbers, mode)
