"""Index resolution: apply the negative and bounds policies, find bad indices.

:func:`resolve` turns an index array (scalar indices, or index tuples on the last
axis) into one int64 offset per index into the block of indexed data axes, plus
a validity mask for the ``fill``/``drop`` policies. Nothing here writes into the
caller's arrays. An error names the first offending index in row-major order of
``indices`` (or the last: ``OpContext.report``), its position, its value and the
valid range, worded by :meth:`~gatherscatter.core.context.OpContext.index_error`.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from .context import OpContext
from .policy import Bounds, Duplicates, Negative, Policy
from .shape import IndexSpec

__all__ = ["format_position", "numpy_checks", "raise_out_of_range", "resolve"]

_I64_MAX = np.iinfo(np.int64).max
_MASKING = (Bounds.FILL, Bounds.DROP)
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def format_position(name: str, pos: tuple[int, ...]) -> str:
    """``indices[1, 0]`` (or ``indices`` for a 0-d array)."""
    return f"{name}[{', '.join(str(p) for p in pos)}]" if pos else name


def raise_out_of_range(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    bad: np.ndarray[Any, Any],
    sizes: tuple[int, ...],
    axis: int,
    *,
    negative: Negative = Negative.WRAP,
    vector: bool = False,
    shape: tuple[int, ...] | None = None,
    name: str | None = None,
) -> NoReturn:
    """Raise :class:`IndexOutOfRangeError` for one True of ``bad`` (the shape of ``indices``).

    The first True in row-major order, or the last with ``ctx.report == 'last'``;
    worded by :meth:`OpContext.index_error`. ``sizes`` are the sizes of the
    indexed axes from ``axis`` on (with ``vector``, the last axis of ``indices``
    holds one component per size); ``negative`` says whether negatives wrap
    (the valid range then starts at ``-size``) or are refused. ``shape`` is the
    data's shape, for messages that show it. Dialects whose framework checks
    bounds for a reason of its own call this too, so the wording stays here.
    """
    flat = bad.reshape(-1)
    k = int(np.argmax(flat)) if ctx.report == "first" else flat.size - 1 - int(np.argmax(flat[::-1]))
    pos = tuple(int(p) for p in np.unravel_index(k, indices.shape)) if indices.ndim else ()
    value = int(indices.reshape(-1)[k]) if indices.ndim else int(indices)
    j = pos[-1] if vector else 0
    size = sizes[j]
    tup = [int(v) for v in indices[pos[:-1]]] if vector else None
    raise ctx.index_error(
        value=value, position=pos, size=size, axis=axis + j, lo=-size if negative is Negative.WRAP else 0,
        negative_rule=value < 0 and negative is Negative.RAISE, index_tuple=tup, component=j,
        shape=shape if shape is not None else sizes, name=name,
    )


def _raise_bad(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    bad_full: np.ndarray[Any, Any],
    spec: IndexSpec,
    sizes: tuple[int, ...],
    policy: Policy,
    shape: tuple[int, ...] | None,
) -> NoReturn:
    """Raise for a True of ``bad_full`` (same shape as ``indices``)."""
    raise_out_of_range(ctx, indices, bad_full, sizes, spec.axis, negative=policy.negative, vector=spec.vector,
                       shape=shape)


def _component(
    comp: np.ndarray[Any, Any], size: int, policy: Policy
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None, bool]:
    """Normalise one index component.

    Returns ``(index, bad, must_raise)``: ``index`` is int64 in ``[0, size)``
    wherever ``bad`` is False; ``bad`` (or None when nothing is bad) marks
    indices that are invalid under the policy; ``must_raise`` says whether any
    bad index is an error (as opposed to a ``fill``/``drop`` target).
    """
    bounds = policy.bounds
    if comp.size == 0:
        return comp.astype(np.int64), None, False
    if comp.dtype.kind == "u":
        # no negatives; uint64 may exceed int64, so decide in the unsigned domain
        hi_v = int(comp.max())
        if hi_v < size:
            return comp.astype(np.int64), None, False
        if size == 0:
            # no index is valid: an error unless the policy fills or drops
            return np.zeros(comp.shape, np.int64), np.ones(comp.shape, bool), bounds not in _MASKING
        if bounds is Bounds.WRAP:
            return (comp % np.array(size, comp.dtype)).astype(np.int64), None, False
        if bounds is Bounds.CLIP:
            return np.minimum(comp, np.array(size - 1, comp.dtype)).astype(np.int64), None, False
        bad = comp >= np.array(size, comp.dtype)
        return np.where(bad, 0, comp).astype(np.int64), bad, bounds is Bounds.RAISE
    # one pass decides the common case: viewed as unsigned, a negative index is at
    # least 2**(bits-1), so when size is not above that the maximum is below size
    # exactly when every index is in [0, size)
    if size <= 1 << (8 * comp.dtype.itemsize - 1) and int(comp.view(_UNSIGNED[comp.dtype.itemsize]).max()) < size:
        return (comp if comp.dtype == np.int64 else comp.astype(np.int64)), None, False
    c = comp if comp.dtype == np.int64 else comp.astype(np.int64)
    lo_v, hi_v = int(c.min()), int(c.max())
    if lo_v >= 0 and hi_v < size:
        return c, None, False
    neg_bad: np.ndarray[Any, Any] | None = None
    if lo_v < 0:
        if policy.negative is Negative.RAISE:
            neg_bad = c < 0
        elif policy.negative is Negative.WRAP:
            c = np.where(c < 0, c + size, c)
    out = (c < 0) | (c >= size)
    if neg_bad is not None:
        # the negative indices are errors; a positive index past the end is one only when bounds raise
        # (under wrap/clip/fill/drop it would be handled, so it must not be the one the error names)
        return c, (neg_bad | out) if bounds is Bounds.RAISE else neg_bad, True
    if not out.any():
        return c, None, False
    if size == 0:
        return np.zeros(c.shape, np.int64), out, bounds not in _MASKING
    if bounds is Bounds.WRAP:
        return np.mod(c, size), None, False
    if bounds is Bounds.CLIP:
        return np.clip(c, 0, size - 1), None, False
    return np.where(out, 0, c), out, bounds is Bounds.RAISE


def numpy_checks(policy: Policy, idx: np.ndarray[Any, Any]) -> bool:
    """Whether NumPy's own index check is this policy's: a negative index counts from the end and one outside
    ``[-n, n)`` raises (IndexError), for signed integer indices; duplicates are not an error.

    A fancy assignment and ``ufunc.at`` check each index inside their loop, so the NumPy path's scatter by rows
    (:mod:`gatherscatter.core.scatter`) needs no :func:`resolve` pass over the indices first (that pass is
    0.24-0.36x the best peer's whole call: benchmarks/README.md, session 18). ``np.take``'s checked mode is no
    such gain for the gathers: a ``take`` per row with ``mode="raise"`` took 1.4x the time of ``mode="wrap"``
    after the check pass.
    """
    return (
        policy.negative is Negative.WRAP
        and policy.bounds is Bounds.RAISE
        and policy.duplicates is not Duplicates.RAISE
        and idx.dtype.kind == "i"
    )


def resolve(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    sizes: tuple[int, ...],
    spec: IndexSpec,
    policy: Policy,
    shape: tuple[int, ...] | None = None,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    """Offsets into the indexed block ``sizes`` and a validity mask.

    Returns ``(lin, valid)``: ``lin`` has the shape of ``indices`` without the
    tuple axis and holds the row-major offset of each index (tuple) in the
    block of indexed axes; ``valid`` is None when every index is valid, else a
    bool mask (``False`` where ``fill``/``drop`` applies; those ``lin`` are 0).
    """
    if spec.vector:
        k = len(sizes)
        lead = indices.shape[:-1]
        if k == 0:
            return np.zeros(lead, np.int64), None
        # row-major offset by Horner's rule, in place: ((i0 * s1 + i1) * s2 + i2) ...
        # one int64 array of the offsets' size, never one per component
        lin: np.ndarray[Any, Any] | None = None
        bads: list[np.ndarray[Any, Any] | None] = []
        must_raise = False
        for j in range(k):
            idx, bad, mr = _component(indices[..., j], sizes[j], policy)
            bads.append(bad)
            must_raise = must_raise or (mr and bad is not None)
            if must_raise:
                continue  # the error is raised below; no need to finish the offsets
            if lin is None:
                lin = np.array(idx, dtype=np.int64, copy=True)
            else:
                lin *= sizes[j]
                lin += idx
        if must_raise:
            bad_full = np.stack([b if b is not None else np.zeros(lead, bool) for b in bads], axis=-1)
            _raise_bad(ctx, indices, bad_full, spec, sizes, policy, shape)
        assert lin is not None
        valid = None
        if any(b is not None for b in bads):
            anybad = np.zeros(lead, bool)
            for b in bads:
                if b is not None:
                    anybad |= b
            valid = ~anybad
        return lin, valid
    idx, bad, must_raise = _component(indices, sizes[0], policy)
    if bad is not None and must_raise:
        _raise_bad(ctx, indices, bad, spec, sizes, policy, shape)
    return idx, (None if bad is None else ~bad)
