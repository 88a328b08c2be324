"""The two VJP rules: one for the gather primitive, one for the scatter primitive.

Both start from the same *element map*: for every element of the gather output
(or of the scatter updates), the flat position of the data element it reads
(or lands on), ``-1`` when the index was filled (gather) or dropped (scatter).
The map is computed by the core gather itself, run on ``arange``-coded int64
data with the lowering's own spec and policy (``drop`` read as ``fill(-1)``),
so that wrap, clip, negative indices, batch dims and slices are exactly the
forward's.

* gather ``Y = G_I(D)``:   ``dD = bincount(pos, dY)`` (a scatter-add; duplicates sum,
  filled elements get nothing, clipped elements feed the clamped position).
* scatter ``Y = S_I^f(D, U)``: ``dU_j`` is ``dY`` gathered at ``pos_j`` with the
  reduction's weight; ``dD = dY`` with targeted positions re-weighted
  (see the table in :mod:`gatherscatter.grad`).

Framework conventions that differ (overwrite duplicates, max/min ties) come in
as a :class:`Convention`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.gather import gather
from ..core.policy import Bounds, Duplicates, Reduction
from ..errors import UnsupportedError

__all__ = ["Convention", "element_positions", "gather_vjp", "scatter_vjp"]

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Convention:
    """How one framework's autograd differentiates where the maths leaves a choice.

    ``overwrite``: ``'winner'`` (only the update that survives a duplicate
    overwrite gets gradient: JAX, and the mathematically correct answer) or
    ``'all'`` (every duplicate gets ``dY[t]``: torch, TensorFlow).
    ``ties``: ``'split'`` (max/min ties split evenly between the initial value,
    if it counts, and the tied updates) or ``'torch'`` (as ``'split'``, but the
    initial value is counted in the split whenever it equals the result, even
    with ``include_self=False``, where it then receives nothing: torch's
    ``scatter_reduce_backward``/``index_reduce_backward``).
    """

    name: str
    overwrite: Literal["winner", "all"] = "winner"
    ties: Literal["split", "torch"] = "split"


MATH = Convention("math")


def element_positions(low: Any) -> Array:
    """Flat data position of every gather-output / update element (``-1``: filled or dropped)."""
    data = low.data
    policy = low.policy
    if policy.bounds in (Bounds.FILL, Bounds.DROP):
        policy = policy.with_(bounds="fill", fill_value=-1, reduction="none")
    else:
        policy = policy.with_(reduction="none")
    codes = np.arange(int(np.prod(data.shape, dtype=np.int64)), dtype=np.int64).reshape(data.shape)
    pos: Array = gather(codes, low.indices, low.spec, policy, low.ctx)
    return pos


def gather_vjp(low: Any, cot: Array) -> Array:
    """``dD`` for the gather lowering ``low`` and the primitive-output cotangent ``cot``."""
    pos = element_positions(low).reshape(-1)
    g = np.asarray(cot, np.float64).reshape(-1)
    ok = pos >= 0
    n = int(np.prod(low.data.shape, dtype=np.int64))
    dD: Array = np.bincount(pos[ok], weights=g[ok], minlength=n).reshape(low.data.shape)
    return dD


def _winners(t: Array, j: Array, duplicates: Duplicates) -> Array:
    """Mask over ``j`` (valid update elements, row-major) of the updates that survive."""
    mask = np.zeros(j.size, bool)
    if t.size == 0:
        return mask
    if duplicates is Duplicates.FIRST:
        _, first = np.unique(t, return_index=True)
        mask[first] = True
    else:  # LAST (RAISE has no duplicates)
        _, first_rev = np.unique(t[::-1], return_index=True)
        mask[t.size - 1 - first_rev] = True
    return mask


def scatter_vjp(low: Any, prim_out: Array, cot: Array, conv: Convention = MATH) -> tuple[Array, Array]:
    """``(dD, dU)`` for the scatter lowering ``low`` with primitive output ``prim_out``."""
    policy = low.policy
    red = policy.reduction
    inc = policy.include_self
    dshape, ushape = low.data.shape, low.updates.shape
    D = np.asarray(low.data, np.float64).reshape(-1)
    U = np.asarray(low.updates, np.float64).reshape(-1)
    Y = np.asarray(prim_out, np.float64).reshape(-1)
    g = np.asarray(cot, np.float64).reshape(-1)
    pos = element_positions(low).reshape(-1)
    j = np.flatnonzero(pos >= 0)
    t = pos[j]
    n = D.size
    targeted = np.zeros(n, bool)
    targeted[t] = True
    count = np.bincount(t, minlength=n).astype(np.float64)
    dD = g.copy()
    dU = np.zeros(U.size, np.float64)
    gt = g[t]
    if red is Reduction.NONE:
        dD[targeted] = 0.0
        if conv.overwrite == "all":
            dU[j] = gt
        else:
            dU[j] = np.where(_winners(t, j, policy.duplicates), gt, 0.0)
    elif red in (Reduction.ADD, Reduction.SUB):
        if not inc:
            dD[targeted] = 0.0
        dU[j] = gt if red is Reduction.ADD else -gt
    elif red is Reduction.MEAN:
        denom = count + (1.0 if inc else 0.0)
        if inc:
            dD[targeted] = g[targeted] / denom[targeted]
        else:
            dD[targeted] = 0.0
        dU[j] = gt / denom[t]
    elif red is Reduction.MUL:
        u = U[j]
        zeros = np.bincount(t, weights=(u == 0).astype(np.float64), minlength=n)
        nonzero_prod = np.ones(n, np.float64)
        if inc:
            zeros = zeros + ((D == 0) & targeted)
            nonzero_prod = np.where(targeted & (D != 0), D, 1.0)
        np.multiply.at(nonzero_prod, t, np.where(u != 0, u, 1.0))
        z, p = zeros[t], nonzero_prod[t]
        with np.errstate(all="ignore"):
            others = np.where(u != 0, np.where(z == 0, p / np.where(u != 0, u, 1.0), 0.0), np.where(z == 1, p, 0.0))
        dU[j] = gt * others
        if inc:
            prod_u = np.ones(n, np.float64)
            np.multiply.at(prod_u, t, u)
            dD[targeted] = g[targeted] * prod_u[targeted]
        else:
            dD[targeted] = 0.0
    elif red in (Reduction.MAX, Reduction.MIN):
        is_u = U[j] == Y[t]
        is_x = (D == Y) & targeted
        counted_x = is_x if (inc or conv.ties == "torch") else np.zeros(n, bool)
        c = np.bincount(t, weights=is_u.astype(np.float64), minlength=n) + counted_x
        safe = np.where(c > 0, c, 1.0)
        dU[j] = np.where(is_u, gt / safe[t], 0.0)
        if inc:
            dD[targeted] = np.where(is_x[targeted], g[targeted] / safe[targeted], 0.0)
        else:
            dD[targeted] = 0.0
    else:  # pragma: no cover - every Reduction member is handled above
        raise UnsupportedError(f"no gradient rule for reduction {red.value!r}")
    return dD.reshape(dshape), dU.reshape(ushape)
