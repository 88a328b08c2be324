"""Finite differences in float64 (central, element by element), independent of gatherscatter.grad.

A float32 argument stays float32 (ops that only take float32: TFLite, MLX, Keras' jax backend) and is
stepped by ``H32 = 0.25``: exact for what is linear in each single element (gathers, sums, products), the
rounding of ``x +- H32`` costing ~1e-7 relative."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

import gatherscatter as gs

H32 = 0.25


def objective(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], ct: np.ndarray[Any, Any]) -> float:
    out = np.asarray(op(*args, **kwargs), np.float64)
    return float(np.sum(np.where(np.isnan(out), 0.0, out) * ct))


def fd_grads(
    op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], ct: np.ndarray[Any, Any], h: float = 1e-6
) -> dict[str, np.ndarray[Any, Any]]:
    """Numerical gradient of ``sum(op(...) * ct)`` for every differentiable array argument."""
    dop = gs.get_op(op)
    sig = inspect.signature(dop.lower)
    res = {}
    for name in dop.info.differentiable:
        bound = sig.bind(*args, **kwargs)
        if bound.arguments.get(name) is None:
            continue
        given = np.asarray(bound.arguments[name])
        x = np.array(given, np.float32 if given.dtype == np.float32 else np.float64)
        step = H32 if x.dtype == np.float32 else h
        g = np.zeros(x.shape)
        for e in np.ndindex(*x.shape):
            vals = []
            for s in (step, -step):
                xp = x.copy()
                xp[e] += s
                b = sig.bind(*args, **kwargs)
                b.arguments[name] = xp
                vals.append(objective(dop, b.args, b.kwargs, ct))
            g[e] = (vals[0] - vals[1]) / (2 * step)
        res[name] = g
    return res
