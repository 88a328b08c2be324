"""The shared lowering of ``keras.ops.scatter`` and ``scatter_update`` (index tuples on the last axis)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy
from ...core.shape import IndexSpec
from ...errors import IndexShapeError, ShapeError
from .._record import Canonical, canonical
from .._registry import Lowering
from ._backend import index_policy


def lower_scatter(
    ctx: OpContext, base: np.ndarray[Any, Any], idx: np.ndarray[Any, Any], upd: np.ndarray[Any, Any], backend: str,
    reduction: str,
) -> Lowering:
    """Scatter ``upd`` at the index tuples of ``idx`` into ``base`` with the backend's index rules."""
    if idx.ndim < 1 or not 1 <= idx.shape[-1] <= base.ndim:
        too_many = idx.ndim >= 1 and idx.shape[-1] > base.ndim  # jax / torch / numpy: IndexError 'too many indices'
        raise (IndexShapeError if too_many else ShapeError)(
            f"{ctx.label}: indices must hold index tuples of 1 to {base.ndim} components on their last axis "
            f"(got indices shape {list(idx.shape)} for a target of shape {list(base.shape)})"
        )
    k = idx.shape[-1]
    want = idx.shape[:-1] + base.shape[k:]
    if upd.shape != want:
        raise ShapeError(f"{ctx.label}: {ctx.updates} must have shape {list(want)} (got {list(upd.shape)})")
    if backend == "jax":
        policy = Policy(bounds="drop", negative="wrap", reduction=reduction)
    elif backend == "tensorflow":
        policy = Policy(bounds="raise", negative="raise", reduction=reduction)
    else:
        policy = Policy(bounds="raise", negative="wrap", reduction=reduction)
    return Lowering("scatter", base, idx, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=upd)


def scatter_canonical(op: str, backend: str, reduction: str, data: str, updates: str) -> Canonical:
    """The nd scatter of ``scatter``/``scatter_update`` on ``backend`` (index rules: :data:`INDEX_RULES`)."""
    return canonical("scatter_nd", data=data, updates=updates, reduction=reduction, **index_policy(op, backend))
