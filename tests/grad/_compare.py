"""Shared helpers for comparing gs.vjp with a real framework's autograd."""

from __future__ import annotations

import inspect
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

import gatherscatter as gs

from .cases import CASES, Make


def variants(name: str, extra: list[tuple[str, Make]] | None = None) -> Iterator[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Every case of ``name`` with random values, and again with values in {0, 1, 2} (ties, zeros)."""
    for cid, make in CASES.get(name, []) + (extra or []):
        for seed in range(2):
            rng = np.random.default_rng(zlib.crc32(f"{name}-{cid}".encode()) + seed)
            args, kwargs = make(rng)
            yield f"{cid}-rand{seed}", args, kwargs
            yield f"{cid}-ties{seed}", *tie_values(name, args, kwargs, rng)


def tie_values(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any], rng: np.random.Generator
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The same call with every differentiable array drawn from {0, 1, 2}."""
    op = gs.get_op(name)
    sig = inspect.signature(op.lower)
    b = sig.bind(*args, **kwargs)
    for n in op.info.differentiable:
        v = b.arguments.get(n)
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            b.arguments[n] = rng.integers(0, 3, v.shape).astype(np.float64)
    return tuple(b.args), dict(b.kwargs)


def ours(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], ct: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
    out, pb = gs.vjp(name, *args, **kwargs)
    return out, pb.named(ct)
