"""Keras 3 ``keras.ops.scatter_update``, per backend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import as_updates
from ...errors import ArgumentAttributeError, IndexShapeError, ShapeError, UnsupportedError
from .._common import data_array
from .._record import Description, Residual, check_choice
from .._registry import Lowering, dialect_op, divergence_table
from ..tensorflow._scatter import check_scatter_shapes
from ._backend import (
    BACKENDS,
    KERAS_VERSION,
    SHAPE_ERRORS,
    backend_inputs,
    cast_updates,
    is_python,
    jax32,
    keras_description,
)
from ._scatter import lower_scatter, scatter_canonical

divergence_table("keras.scatter_update", __file__)

#: ``reduction=`` (Keras 3.15: ``None`` or one of these, case-insensitive: Keras lowers the string) -> the core's
REDUCTIONS: dict[str | None, str] = {None: "none", "add": "add", "max": "max", "min": "min", "mul": "mul"}

_TF_NAN = Residual("nonfinite", "a NaN update leaves the value unchanged under reduction='max'/'min' "
                   "(backend='tensorflow': tf.tensor_scatter_nd_max/min keep the value unless the update compares "
                   "greater/less)", "NaN propagates (as on the other backends)")


def _describe(backend: str = "tensorflow", reduction: str | None = None) -> Description:
    # exact for 2-D indices (and 1-D ones where the backend takes them); 3-D and more are reordered by each
    # backend's transpose before the scatter (see the op's docstring), which the canonical form does not say
    r = REDUCTIONS[check_choice("keras.scatter_update", "reduction", reduction, tuple(REDUCTIONS))]
    c = scatter_canonical("scatter_update", backend, r, "inputs", "updates")
    nan = backend == "tensorflow" and r in ("max", "min")
    return keras_description("scatter_update", {"backend": backend, "reduction": reduction},
                             ("inputs", "indices", "updates"), c, narrow=backend == "jax",
                             residuals=(_TF_NAN,) if nan else (), index_dtypes=("int32", "int64"),
                             index_ndim=(1, 1) if backend in ("torch", "tensorflow") else (0, 1))


def parse_reduction(ctx: Any, reduction: Any) -> str:
    """Keras' own check (``keras.ops.scatter_update``): ``None`` or a string whose lower case is one of
    :data:`REDUCTIONS`; anything else raises ValueError (a value without ``.lower()``: AttributeError)."""
    if reduction is None:
        return "none"
    if not isinstance(reduction, (str, bytes, bytearray)):
        raise ArgumentAttributeError(f"{ctx.label}: reduction={reduction!r} is not a string: Keras calls "
                                     "reduction.lower() (AttributeError)")
    r = reduction.lower()
    if not isinstance(r, str) or r not in REDUCTIONS:  # bytes have .lower(): then Keras' ValueError
        raise UnsupportedError(f"{ctx.label}: Invalid reduction: {reduction!r}; supported values are: None, "
                                    "'add', 'max', 'min', 'mul' (any case)")
    return REDUCTIONS[r]


@dialect_op("keras", "scatter_update", family="scatter_nd", kind="scatter", versions=(KERAS_VERSION,),
            differentiable=("inputs", "updates"), describe=_describe,
            values={"backend": BACKENDS, "reduction": tuple(REDUCTIONS)},
            variants=tuple({"backend": b, "reduction": r} for b in BACKENDS for r in REDUCTIONS))
def scatter_update(inputs: Any, indices: Any, updates: Any, reduction: Any = None, *,
                   backend: str = "tensorflow") -> Lowering:
    """Keras 3 ``keras.ops.scatter_update``: a copy of ``inputs`` with ``updates`` written at the index tuples.

    Provenance: ``keras.ops.scatter_update(inputs, indices, updates)``, Keras 3.15.1
    CPU. Index tuples on the last axis of ``indices``; a duplicated tuple keeps the
    last update on every backend (CPU). Per ``backend=``: ``'jax'`` (``.at[].set``,
    32-bit dtypes) wraps negatives once and drops out-of-range tuples;
    ``'tensorflow'`` (``tf.tensor_scatter_nd_update``) raises for negative and
    out-of-range ones, and for indices of fewer than 2 axes (TF's CPU rule);
    ``'torch'`` and ``'numpy'`` wrap negatives once and raise out of range.
    3-D and more indices: the torch backend (``outputs[tuple(indices.transpose(0,
    1))]``) reads the components on axis 1 of ``indices``, and 0-D or 1-D indices
    raise an ``IndexError`` there (here an :class:`~gatherscatter.errors.IndexShapeError`);
    the jax and numpy backends (``tuple(transpose(indices))``) reverse the order of
    the leading axes. Both reproduced. The numpy backend writes into ``inputs``
    itself; gatherscatter returns a new array (a recorded divergence).

    ``reduction=`` (Keras 3.15; default ``None``): ``None`` writes (a duplicated tuple
    keeps the last update); ``'add'``, ``'max'``, ``'min'``, ``'mul'`` (any case: Keras
    lowers it) combine every update with the current value, duplicates included
    (jax ``.at[].add/max/min/multiply``; tensorflow ``tf.tensor_scatter_nd_add/max/min``
    and, for ``'mul'``, a loop of ``gather_nd`` / ``tensor_scatter_nd_update``; torch
    ``index_put_(accumulate=True)`` and a Python loop; numpy ``np.add/maximum/minimum/
    multiply.at``), with the same index rules as ``None``. NaN propagates through
    ``'max'``/``'min'`` except on tensorflow, where a NaN update leaves the value
    unchanged. Other strings raise ValueError (here an
    :class:`~gatherscatter.errors.UnsupportedError`), other types AttributeError.
    The torch backend's ``'max'``/``'min'``/``'mul'`` loop reads ``updates[i]`` per row
    of 2-D indices; 3-D indices there are refused (:class:`~gatherscatter.errors.UnsupportedError`).

    Lowering: core ``scatter`` with ``IndexSpec(axis=0, depth=k, vector=True)``,
    the reduction, duplicates ``last``.

    Equivalent loop::

        out = copy(inputs)
        for i in ndindex(indices.shape[:-1]):
            t = tuple(indices[i])                      # bad tuples: per backend
            out[t] = updates[i] if reduction is None else op(out[t], updates[i])

    Differs from ``keras.ops.scatter`` (sums into zeros).

    Python lists, tuples and scalars: ``inputs`` and ``indices`` are converted (ints int32, floats
    float32, bools bool: ``PYTHON_RULES`` in ``dialects/keras/_backend.py``; torch reads
    ``indices`` straight as int64, floats truncated; the numpy backend reads ``indices`` with
    ``np.array`` and refuses Python ``inputs``: TypeError). Python ``updates`` take the inputs'
    dtype as each backend casts: floats truncated toward 0 (jax saturates, torch and numpy raise
    past the range), refused for integer inputs by tensorflow (TypeError), which wraps ints past
    the range; a scalar is broadcast (not by tensorflow).

    >>> import gatherscatter as gs
    >>> gs.keras.scatter_update([0.0, 0.0, 0.0], [[1], [1], [5]], [5.0, 7.0, 9.0], backend="jax").tolist()
    [0.0, 7.0, 0.0]
    >>> gs.keras.scatter_update([1.0, 2.0, 3.0], [[1], [1]], [5.0, 7.0], reduction="mul", backend="torch").tolist()
    [1.0, 70.0, 3.0]
    """
    b, ctx, d, i = backend_inputs("scatter_update", backend, inputs, indices, data="inputs", indices="indices",
                                  updates="updates")
    r = parse_reduction(ctx, reduction)
    if b == "torch" and r in ("max", "min", "mul") and i.ndim > 2:
        raise UnsupportedError(f"{ctx.label}: reduction={reduction!r} with indices of {i.ndim} dimensions: the torch "
                               "backend's loop reads updates[i] per row of 2-D indices (not reproduced)")
    if b == "torch":  # Keras: torch.transpose(indices, 0, 1), then one index tensor per component
        if i.ndim < 2:
            raise IndexShapeError(
                f"{ctx.label}: indices must have at least 2 dimensions: the torch backend transposes their axes 0 "
                f"and 1 (torch: 'Dimension out of range'); got indices of shape {list(i.shape)}"
            )
        i = np.moveaxis(i, 1, -1)
    elif b in ("jax", "numpy") and i.ndim > 2:  # Keras: tuple(transpose(indices)), every axis reversed
        i = np.transpose(i, (*range(i.ndim - 2, -1, -1), i.ndim - 1))
    if b == "jax" and hasattr(updates, "dtype"):
        updates = jax32(data_array(ctx, updates, "updates"))
    if is_python(inputs) and d.ndim == 0 and b in ("jax", "torch"):
        raise IndexShapeError(f"{ctx.label}: inputs {inputs!r} is a Python scalar (0-d): the {b} backend indexes "
                              "it with the index tuples ('too many indices')")
    if is_python(updates) or (is_python(inputs) and hasattr(updates, "dtype")):
        # Python updates, or array updates into Python inputs: each backend casts them to the inputs' dtype
        if is_python(updates):
            u = cast_updates(ctx, b, updates, d.dtype, "updates")
        else:  # an array: converted to the inputs' dtype (floats truncated toward 0)
            with np.errstate(all="ignore"):
                u = np.asarray(updates).astype(d.dtype)
    else:
        u = as_updates(ctx, updates, d.dtype)
    k = i.shape[-1] if i.ndim else 0
    want = i.shape[:-1] + d.shape[k:]
    # assignment, .at[] and ufunc.at broadcast the updates (not tensorflow; not torch's per-row reduction loop)
    if b != "tensorflow" and u.shape != want and i.ndim and 1 <= k <= d.ndim and not (
            b == "torch" and r in ("max", "min", "mul")):
        try:
            u = np.broadcast_to(u, want)
        except ValueError:
            raise SHAPE_ERRORS[b](f"{ctx.label}: updates of shape {list(u.shape)} do not broadcast to the "
                                  f"indexed shape {list(want)}") from None
    if b == "tensorflow":  # tf.tensor_scatter_nd_update's CPU shape rules (2-D indices or more, 1-D updates or more)
        if u.ndim < 1:
            raise ShapeError(f"{ctx.label}: Updates shape must have rank at least one (the tensorflow backend); "
                             "got a 0-d updates")
        check_scatter_shapes(ctx, i, u, tuple(d.shape), "cpu", what="inputs")
    if b == "tensorflow" and r in ("max", "min") and u.dtype.kind == "f" and u.size:
        # tf.tensor_scatter_nd_max/min keep the value when the update is NaN: the reduction's neutral element
        u = np.where(np.isnan(u), np.array(-np.inf if r == "max" else np.inf, u.dtype), u)
    return lower_scatter(ctx, d, i, u, b, r)
