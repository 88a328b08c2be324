"""Keras 3 ``keras.ops.take_along_axis``, per backend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import MODULO, WRAPPING, Policy, fill
from ...core.shape import IndexSpec
from ...errors import ShapeError, ShapeRuntimeError
from .._common import along_axis
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ..jax._common import default_fill
from ._backend import BACKENDS, KERAS_VERSION, backend_inputs, gather_description, torch_scalar_x

divergence_table("keras.take_along_axis", __file__)


def _describe(axis: int | None = None, backend: str = "tensorflow") -> Description:
    axis = check_int("keras.take_along_axis", "axis", axis, optional=True)
    pre: list[Step] = []
    layout: dict[str, Any] = {"full_index": True}
    data = "x"
    idx = "indices"
    if axis is None:
        if backend == "torch":  # wraps a negative index by x.shape[0] (a Keras bug), then reads the flattened x
            pre.append(Step.adapt("normalize_negative", "i0", "indices", "x", axis=0,
                                  why="the torch backend wraps negatives by x.shape[0], not x.size"))
            idx = "i0"
        pre.append(Step.adapt("flatten", "flat", "x", why="axis=None works on the flattened x (1-d indices)"))
        data = "flat"
        layout["rank"] = (1, 1)
    base = canonical("gather_elements", data=data, indices=idx, axis=0 if axis is None else axis)
    return gather_description("take_along_axis", backend, {"axis": axis, "backend": backend}, base, pre,
                              ("x", "indices"), **layout)


@dialect_op("keras", "take_along_axis", family="gather_elements", kind="gather", versions=(KERAS_VERSION,),
            differentiable=("x",), describe=_describe, values={"backend": BACKENDS, "axis": "int"},
            fuzz={"axis_none": True},
            variants=tuple({"axis": a, "backend": b} for b in BACKENDS for a in (None, 1)))
def take_along_axis(x: Any, indices: Any, axis: Any = None, *, backend: str = "tensorflow") -> Lowering:
    """Keras 3 ``keras.ops.take_along_axis``: ``out[..., j, ...] = x[..., indices[..., j, ...], ...]`` along ``axis``.

    Provenance: ``keras.ops.take_along_axis(x, indices, axis=None)``, Keras 3.15.1
    CPU; ``axis=None`` flattens ``x`` (``indices`` must then be 1-D). ``indices``
    has ``x``'s rank and shape except along ``axis``. Per ``backend=``: ``'jax'``
    wraps negatives once and fills out-of-range reads (NaN / integer minimum; 32-bit
    dtypes); ``'tensorflow'`` and ``'numpy'`` wrap negatives once and raise out of
    range; ``'torch'`` takes every index modulo the axis size (``axis=None``: a negative
    index is first wrapped by ``x.shape[0]``, not ``x.size``, a Keras bug reproduced), and
    raises an ``IndexError`` for a 0-d ``x`` (it reads ``x.shape[0]``).

    Lowering: core ``gather`` with ``IndexSpec(axis=a, batch=a, elementwise=True)``.

    Equivalent loop::

        for j in ndindex(indices.shape):
            k = indices[j]                      # wrapped / taken modulo / checked per backend
            out[j] = x[j[:axis] + (k,) + j[axis+1:]]

    Differs from ``numpy.take_along_axis`` only in the torch backend's modulo and
    the jax backend's fill and 32-bit dtypes.

    Python lists, tuples and scalars: jax, tensorflow and torch convert them (ints int32,
    floats float32, bools bool: ``PYTHON_RULES`` in ``dialects/keras/_backend.py``); float and
    bool index lists are cast to int64 by tensorflow and torch, refused by jax (TypeError); float
    index ARRAYS too (truncated toward 0; NaN, infinities and values past int64 read as the int64
    minimum: ``ARRAY_FLOAT_INDICES``), refused by jax (TypeError) and numpy (IndexError); the
    numpy backend refuses any Python ``x`` or ``indices`` (AttributeError: ``np.take_along_axis``
    reads ``.ndim`` / ``.dtype``), here an :class:`~gatherscatter.errors.ArgumentAttributeError`.

    >>> import gatherscatter as gs
    >>> gs.keras.take_along_axis([[1.0, 2.0, 3.0]], [[5, -1]], axis=1, backend="torch").tolist()
    [[3.0, 3.0]]
    """
    b, ctx, d, i = backend_inputs("take_along_axis", backend, x, indices, data="x", indices="indices")
    if b == "torch":
        torch_scalar_x(ctx, x, d)
    if b == "torch" and axis is None and d.ndim:  # Keras: indices + x.shape[0] where negative, then the flat x
        i = np.where(i < 0, i + d.shape[0], i)
    d, a = along_axis(ctx, d, i, axis)
    if i.ndim != d.ndim or any(i.shape[k] != d.shape[k] for k in range(d.ndim) if k != a):
        raise (ShapeRuntimeError if b == "torch" else ShapeError)(  # torch.take_along_dim: RuntimeError
            f"{ctx.label}: indices must have x's rank and shape except along axis {a}; got x shape "
            f"{list(d.shape)} and indices shape {list(i.shape)}"
        )
    if b == "jax":
        policy = Policy(bounds=fill(default_fill(d.dtype)), negative="wrap")
    elif b == "torch":
        policy = MODULO
    else:
        policy = WRAPPING
    return Lowering("gather", d, i, IndexSpec(axis=a, batch=a, elementwise=True), policy, ctx)
