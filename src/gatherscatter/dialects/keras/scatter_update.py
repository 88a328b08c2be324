"""Keras 3 ``keras.ops.scatter_update``, per backend."""

from __future__ import annotations

from typing import Any

from ...core.shape import as_updates
from .._common import data_array
from .._record import Description
from .._registry import Lowering, dialect_op
from ._backend import BACKENDS, KERAS_VERSION, backend_inputs, jax32, keras_description
from ._scatter import lower_scatter, scatter_canonical


def _describe(backend: str = "tensorflow") -> Description:
    c = scatter_canonical("scatter_update", backend, "none", "inputs", "updates")
    return keras_description("scatter_update", {"backend": backend}, ("inputs", "indices", "updates"), c,
                             narrow=backend == "jax", index_ndim=(1, 2), index_dtypes=("int32", "int64"))


@dialect_op("keras", "scatter_update", family="scatter_nd", kind="scatter", versions=(KERAS_VERSION,),
            differentiable=("inputs", "updates"), describe=_describe, values={"backend": BACKENDS},
            variants=tuple({"backend": b} for b in BACKENDS))
def scatter_update(inputs: Any, indices: Any, updates: Any, *, backend: str = "tensorflow") -> Lowering:
    """Keras 3 ``keras.ops.scatter_update``: a copy of ``inputs`` with ``updates`` written at the index tuples.

    Provenance: ``keras.ops.scatter_update(inputs, indices, updates)``, Keras 3.15.1
    CPU. Index tuples on the last axis of ``indices``; a duplicated tuple keeps the
    last update on every backend (CPU). Per ``backend=``: ``'jax'`` (``.at[].set``,
    32-bit dtypes) wraps negatives once and drops out-of-range tuples;
    ``'tensorflow'`` (``tf.tensor_scatter_nd_update``) raises for negative and
    out-of-range ones; ``'torch'`` and ``'numpy'`` wrap negatives once and raise
    out of range.

    Lowering: core ``scatter`` with ``IndexSpec(axis=0, depth=k, vector=True)``,
    no reduction, duplicates ``last``.

    Equivalent loop::

        out = copy(inputs)
        for i in ndindex(indices.shape[:-1]):
            out[tuple(indices[i])] = updates[i]        # bad tuples: per backend

    Differs from ``keras.ops.scatter`` (sums into zeros).

    >>> import gatherscatter as gs
    >>> gs.keras.scatter_update([0.0, 0.0, 0.0], [[1], [1], [5]], [5.0, 7.0, 9.0], backend="jax").tolist()
    [0.0, 7.0, 0.0]
    """
    b, ctx, d, i = backend_inputs("scatter_update", backend, inputs, indices, data="inputs", indices="indices",
                                  updates="updates")
    if b == "jax" and hasattr(updates, "dtype"):
        updates = jax32(data_array(ctx, updates, "updates"))
    u = as_updates(ctx, updates, d.dtype)
    return lower_scatter(ctx, d, i, u, b, "none")
