"""Brute-force embeddings, written from the PyTorch / TensorFlow docs (no gatherscatter import)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def embedding(indices: Any, weight: Any) -> np.ndarray[Any, Any]:
    """``out[j] = weight[indices[j]]`` by a loop over every index position."""
    w = np.asarray(weight)
    i = np.asarray(indices)
    out = np.empty(i.shape + w.shape[1:], w.dtype)
    for j in np.ndindex(*i.shape):
        out[j] = w[int(i[j])]
    return out


def renorm(indices: Any, weight: Any, max_norm: float) -> np.ndarray[Any, Any]:
    """torch's in-place max_norm rule (2-norm) applied to a copy, in float64 arithmetic."""
    w = np.array(weight, dtype=np.float64)
    for r in sorted({int(x) for x in np.asarray(indices).reshape(-1)}):
        norm = math.sqrt(sum(float(v) ** 2 for v in w[r]))
        if norm > max_norm:
            w[r] = w[r] * (max_norm / (norm + 1e-7))
    return w


def embedding_bag(
    indices: Any, weight: Any, bags: list[list[int]], mode: str, psw: Any = None, padding_idx: int | None = None
) -> np.ndarray[Any, Any]:
    """``bags[b]`` lists the positions (into flat ``indices``) of bag ``b``; empty bags are 0."""
    w = np.asarray(weight, dtype=np.float64)
    flat = np.asarray(indices).reshape(-1)
    p = None if psw is None else np.asarray(psw, dtype=np.float64).reshape(-1)
    out = np.zeros((len(bags), w.shape[1]))
    for b, positions in enumerate(bags):
        rows = [w[int(flat[j])] * (1.0 if p is None else p[j]) for j in positions if int(flat[j]) != padding_idx]
        if not rows:
            continue
        if mode == "max":
            out[b] = np.max(rows, axis=0)
        else:
            s = np.sum(rows, axis=0)
            out[b] = s / len(rows) if mode == "mean" else s
    return out
