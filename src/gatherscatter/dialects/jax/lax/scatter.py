"""JAX ``jax.lax.scatter``, ``scatter_add``, ``scatter_mul``, ``scatter_max``, ``scatter_min``.

The five ops are XLA's general scatter with five combiners: each is one row of
:data:`_VARIANTS` (its name, its reduction and its docstring), registered by
:func:`_register`. The shared lowering and the divergences all five share are
in :mod:`gatherscatter.dialects.jax.lax._scatter`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ....core.policy import Reduction
from ..._record import Description
from ..._registry import DialectOp, Lowering, dialect_op, divergence
from .._common import GRAD, MODE_VALUES
from ._describe import _lax_scatter
from ._dnums import ScatterDimensionNumbers
from ._scatter import lax_scatter_divergences, lower_lax_scatter

__all__ = ["scatter", "scatter_add", "scatter_max", "scatter_min", "scatter_mul"]


#: the calls worth probing: the row (ScatterND k=1) configuration of docs/semantics.md#e21
_PROBE: tuple[dict[str, Any], ...] = (
    {
        "dimension_numbers": ScatterDimensionNumbers(
            update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
        )
    },
)


class _Variant(NamedTuple):
    """One ``lax.scatter*``: its name, the core reduction and the op's docstring."""

    name: str
    reduction: Reduction
    doc: str


def _register(v: _Variant) -> DialectOp:
    """Register ``jax.lax.<name>`` (and the divergences every lax scatter shares) from its table row."""
    qualname = f"jax.lax.{v.name}"
    lax_scatter_divergences(qualname)

    def describe(dimension_numbers: Any, mode: Any = None) -> Description:
        return _lax_scatter(qualname, v.reduction.value, dimension_numbers, mode)

    def lower(
        operand: Any,
        scatter_indices: Any,
        updates: Any,
        dimension_numbers: Any,
        mode: Any = None,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
    ) -> Lowering:
        return lower_lax_scatter(v.name, v.reduction, operand, scatter_indices, updates, dimension_numbers, mode)

    lower.__name__ = lower.__qualname__ = v.name
    lower.__doc__ = v.doc
    return dialect_op("jax", f"lax.{v.name}", family="general", kind="scatter", versions=("0.10",),
                      differentiable=("operand", "updates"), describe=describe, grad=GRAD, variants=_PROBE,
                      values={"mode": MODE_VALUES, "dimension_numbers": "dimension_numbers"})(lower)


_VARIANTS = [
    _Variant(
        "scatter",
        Reduction.NONE,
        """JAX ``lax.scatter``: XLA's general scatter with the overwrite combiner.

    Provenance: ``jax.lax.scatter`` (jax 0.10; batching dims since 0.4.31), XLA /
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
                    Y[start + batch(G) + W] = set(Y[...], updates[G, W])

    Differs from ``x.at[idx].set`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter([0.0, 0.0, 0.0, 0.0, 0.0], [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    [0.0, 7.0, 9.0, 0.0, 0.0]
    """,
    ),
    _Variant(
        "scatter_add",
        Reduction.ADD,
        """JAX ``lax.scatter_add``: XLA's general scatter with the add combiner.

    Provenance: ``jax.lax.scatter_add`` (jax 0.10; batching dims since 0.4.31), XLA /
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
                    Y[start + batch(G) + W] = add(Y[...], updates[G, W])

    Differs from ``x.at[idx].add`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter_add([0.0, 0.0, 0.0, 0.0, 0.0], [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    [0.0, 7.0, 17.0, 0.0, 0.0]
    """,
    ),
    _Variant(
        "scatter_max",
        Reduction.MAX,
        """JAX ``lax.scatter_max``: XLA's general scatter with the maximum combiner.

    Provenance: ``jax.lax.scatter_max`` (jax 0.10; batching dims since 0.4.31), XLA /
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
                    Y[start + batch(G) + W] = max(Y[...], updates[G, W])

    Differs from ``x.at[idx].max`` (wraps negative indices first) and from ONNX
    ``ScatterND`` (raises on out-of-range indices).

    >>> import gatherscatter as gs
    >>> dn = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
    >>> gs.jax.lax.scatter_max([1.0, 1.0, 1.0, 1.0, 1.0], [[1], [2], [2], [9]], [7.0, 8.0, 9.0, 5.0], dn).tolist()
    [1.0, 7.0, 9.0, 1.0, 1.0]
    """,
    ),
    _Variant(
        "scatter_min",
        Reduction.MIN,
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
    """,
    ),
    _Variant(
        "scatter_mul",
        Reduction.MUL,
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
    """,
    ),
]

scatter, scatter_add, scatter_max, scatter_min, scatter_mul = (_register(v) for v in _VARIANTS)

# the divergences of single variants
divergence(
    op="jax.lax.scatter",
    case="overlapping windows or duplicate indices",
    when=("duplicates",),
    reference="JAX documentation",
    theirs="updates may be applied in any order; XLA on CPU applies them in row-major order of the index "
    "(scatter) dims, window by window, so the last window wins",
    ours="the same order: scatter dims outer, window dims inner; the last update wins (duplicates='last')",
    evidence="docs/semantics.md#s7-2; tests/frameworks/test_jax.py (overlapping windows)",
    kind="undefined",
    not_reproducible="ours does what XLA on CPU does (the last window wins)",
)
divergence(
    op="jax.lax.scatter_max",
    case="complex operand",
    when=("dtype",),
    reference="JAX 0.10",
    theirs="complex numbers are ordered lexicographically (real part, then imaginary part), as XLA",
    ours="UnsupportedError: the gatherscatter core defines no ordering for complex numbers",
    evidence="tests/frameworks/test_jax.py::test_known_divergence_complex_minmax",
    kind="choice",
    example={"call": "jax.lax.scatter_max", "args": {"operand": [[0, 0]], "scatter_indices": [[0], [0]],
             "updates": [[1, 2], [2, 0]], "dimension_numbers": {"update_window_dims": [], "inserted_window_dims": [0],
             "scatter_dims_to_operand_dims": [0]}},
             "dtypes": {"operand": "complex128", "scatter_indices": "int64", "updates": "complex128"},
             "theirs": {"equals": [[2, 0]]}, "ours": {"raises": "UnsupportedError"}},
)
divergence(
    op="jax.lax.scatter_min",
    case="complex operand",
    when=("dtype",),
    reference="JAX 0.10",
    theirs="complex numbers are ordered lexicographically (real part, then imaginary part), as XLA",
    ours="UnsupportedError: the gatherscatter core defines no ordering for complex numbers",
    evidence="tests/frameworks/test_jax.py::test_known_divergence_complex_minmax",
    kind="choice",
    example={"call": "jax.lax.scatter_min", "args": {"operand": [[0, 0]], "scatter_indices": [[0], [0]],
             "updates": [[-1, 2], [-1, 0]], "dimension_numbers": {"update_window_dims": [], "inserted_window_dims": [0],
             "scatter_dims_to_operand_dims": [0]}},
             "dtypes": {"operand": "complex128", "scatter_indices": "int64", "updates": "complex128"},
             "theirs": {"equals": [[-1, 0]]}, "ours": {"raises": "UnsupportedError"}},
)
