"""Keras 3 ``keras.ops.scatter``, per backend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.shape import as_array, as_index_array, check_allocatable
from ...errors import ArgumentError, IndexShapeError, ShapeError
from .._common import data_array
from .._record import Description, Step
from .._registry import Lowering, dialect_op, divergence_table
from ..tensorflow._scatter import check_scatter_shapes
from ._backend import (
    BACKENDS,
    KERAS_VERSION,
    is_python,
    jax32,
    keras_context,
    keras_description,
    parse_backend,
    python_arg,
)
from ._scatter import lower_scatter, scatter_canonical

divergence_table("keras.scatter", __file__)


def _check_shape_type(ctx: OpContext, backend: str, shape: Any) -> None:
    """What each backend takes as ``shape``: an int is a 1-D shape for jax only (``jnp.zeros(4)``); torch and
    numpy slice it (TypeError), TF wants a vector; torch's ``torch.zeros`` refuses a NumPy array (TypeError)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool) and backend != "jax":
        if backend == "tensorflow":
            raise ShapeError(f"{ctx.label}: Shape must be a vector (the tensorflow backend); got shape={shape!r}")
        raise ArgumentError(f"{ctx.label}: shape must be a tuple or list: the {backend} backend slices it "
                            f"(shape[k:]: 'int' object is not subscriptable); got shape={shape!r}")
    if backend == "torch" and isinstance(shape, np.ndarray):
        raise ArgumentError(f"{ctx.label}: shape must be a tuple or list of ints: torch.zeros refuses a NumPy array "
                            f"(the torch backend); got {shape!r}")


def _describe(backend: str = "tensorflow") -> Description:
    c = scatter_canonical("scatter", backend, "add", "zeros", "values")
    pre = [Step.adapt("zeros", "zeros", "shape", "values", why="keras.ops.scatter adds into zeros of shape")]
    return keras_description("scatter", {"backend": backend}, ("indices", "values", "shape"), c, pre=pre,
                             roles={"data": "shape"}, narrow=backend in ("jax", "numpy"), rank=(1, 3),
                             index_ndim=(2, 2) if backend == "tensorflow" else (1, 2),
                             index_dtypes=("int32", "int64"))


@dialect_op("keras", "scatter", family="scatter_nd", kind="scatter", versions=(KERAS_VERSION,),
            differentiable=("values",), describe=_describe, values={"shape": "shape", "backend": BACKENDS},
            variants=tuple({"backend": b} for b in BACKENDS))
def scatter(indices: Any, values: Any, shape: Any, *, backend: str = "tensorflow") -> Lowering:
    """Keras 3 ``keras.ops.scatter``: zeros of ``shape`` with ``values`` added at the index tuples of ``indices``.

    Provenance: ``keras.ops.scatter(indices, values, shape)``, Keras 3.15.1 CPU. The
    index tuples lie on the last axis of ``indices``; duplicates are summed on every
    backend. Per ``backend=``: ``'jax'`` (``zeros.at[idx].add``, 32-bit dtypes) wraps
    negative components once and drops out-of-range tuples; ``'tensorflow'``
    (``tf.scatter_nd``) raises for negative and out-of-range ones and for indices of
    fewer than 2 axes; ``'torch'`` and
    ``'numpy'`` wrap negatives once and raise out of range; the numpy backend also
    makes 64-bit values 32-bit (its ``convert_to_tensor``).

    Lowering: core ``scatter`` with ``IndexSpec(axis=0, depth=k, vector=True)``,
    reduction add, into zeros.

    Equivalent loop::

        out = zeros(shape, values.dtype)
        for i in ndindex(indices.shape[:-1]):
            out[tuple(indices[i])] += values[i]        # bad tuples: per backend

    Differs from ``tf.scatter_nd`` only in the jax/torch/numpy backends' index rules.

    Python lists, tuples and scalars: tensorflow, torch and numpy convert ``indices`` and
    ``values`` (ints int32, floats float32, bools bool: ``PYTHON_RULES`` in
    ``dialects/keras/_backend.py``); the jax backend refuses Python ``values`` (AttributeError:
    it reads ``values.dtype``) and ``indices`` (TypeError: ``jnp.moveaxis``). A Python scalar
    ``values`` is broadcast by numpy, raises on torch for more than one index tuple. An int
    ``shape`` is taken by jax only.

    >>> import gatherscatter as gs
    >>> gs.keras.scatter([[1], [1], [-1]], [1.0, 2.0, 3.0], (4,), backend="numpy").tolist()
    [0.0, 3.0, 0.0, 3.0]
    """
    b = parse_backend("scatter", backend)
    ctx = keras_context("scatter", b, data="output", indices="indices", updates="values")
    py_values = is_python(values)
    values = python_arg(ctx, "scatter", b, "values", values)
    indices = python_arg(ctx, "scatter", b, "indices", indices)
    i = as_index_array(ctx, indices, "indices")
    v = data_array(ctx, values, "values")
    if b == "jax":
        i, v = jax32(i), jax32(v)
    elif b == "numpy":  # the numpy backend's convert_to_tensor turns float64/int64 values into float32/int32
        v = jax32(v)
    _check_shape_type(ctx, b, shape)
    s = as_array(ctx, shape, "shape").reshape(-1)
    if s.dtype.kind not in "iu" and s.size:
        raise ArgumentError(f"{ctx.label}: shape must hold integers (got {shape!r})")
    dims = tuple(int(n) for n in s)
    if any(n < 0 for n in dims) or not dims:
        raise ShapeError(f"{ctx.label}: shape must be a non-empty tuple of sizes >= 0 (got {dims})")
    if b == "tensorflow":  # tf.scatter_nd's CPU shape rules (2-D indices or more, 1-D values or more)
        if v.ndim < 1:
            raise ShapeError(f"{ctx.label}: Updates shape must have rank at least one (the tensorflow backend); "
                             "got a 0-d values")
        check_scatter_shapes(ctx, i, v, dims, "cpu", what="output")
    if py_values and b == "torch" and v.size == 0 and i.size:
        raise IndexShapeError(f"{ctx.label}: values is an empty Python list: the torch backend reads values[0] "
                              "(torch: 'index 0 is out of bounds for dimension 0 with size 0')")
    if py_values and v.ndim == 0 and b in ("numpy", "torch") and i.ndim >= 1 and 1 <= i.shape[-1] <= len(dims):
        # a Python scalar: the numpy backend's reshape(values, [-1, ...]) then ufunc.at broadcast it; torch's loop
        # reads values[k] of the one-element reshape for each index tuple k
        if b == "torch" and int(np.prod(i.shape[:-1])) > 1:
            raise IndexShapeError(f"{ctx.label}: values {values!r} is a Python scalar and indices hold "
                                  f"{int(np.prod(i.shape[:-1]))} tuples: the torch backend reads values[k] for each "
                                  "(torch: 'index 1 is out of bounds for dimension 0 with size 1')")
        v = np.broadcast_to(v, i.shape[:-1] + dims[i.shape[-1]:])
    check_allocatable(ctx, dims, v.dtype)
    base = np.broadcast_to(np.zeros((), v.dtype), dims)
    return lower_scatter(ctx, base, i, v, b, "add")
