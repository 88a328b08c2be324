"""ONNX ``TensorScatter`` (opset 24): the KV-cache update."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import STRICT, Policy
from ...core.shape import IndexSpec, as_index_array, as_updates, to_int
from ...errors import ArgumentError, AxisError, IndexOutOfRangeError, ShapeError, UnsupportedError
from .._common import COMPLEX, NUMERIC, STRINGS, check_data_dtype, data_array
from .._record import Description, Residual, Step, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT64, onnx_context, op_version
from ._describe import _opset, onnx_op

# all_tensor_types_ir12 (onnx/defs/tensor/defs.cc, TensorScatter-24), by their NumPy / ml_dtypes names
_T = (
    NUMERIC
    | COMPLEX
    | STRINGS
    | frozenset(
        {
            "bool",
            "bfloat16",
            "float8_e4m3fn",
            "float8_e4m3fnuz",
            "float8_e5m2",
            "float8_e5m2fnuz",
            "uint4",
            "int4",
            "float4_e2m1fn",
            "float8_e8m0fnu",
        }
    )
)
_MODES = ("linear", "circular")
_I64_MAX = 2**63 - 1
_CIRCULAR = Policy(bounds="wrap", negative="raise")

divergence_table("onnx.TensorScatter", __file__)


# ------------------------------------------------------------------------------------------------ the record

_NEGATIVE = Residual("negative", "raises IndexOutOfRangeError for a negative write index (as ONNX Runtime 1.32)",
                     "wraps it: the positions are (write_indices[b] + j) mod max_sequence_length, floor modulo (as "
                     "the spec's pseudocode and onnx.reference 1.23)")
_EMPTY = Residual("empty", "checks every write index even when nothing is written (sequence_length 0, or an empty "
                  "batch or head dim): a negative one raises, and in linear mode one past max_sequence_length",
                  "writes nothing, so checks nothing: returns past_cache")


def _describe(axis: int = -2, mode: str = "linear", opset: int | None = None) -> Description:
    """TensorScatter as ``scatter_along_axis`` of ``update`` into ``past_cache`` at the positions
    ``write_indices[b] + j`` (mod ``max_sequence_length`` when circular), one per element of ``update``.

    The ``positions`` adapter builds them (zeros for an absent ``write_indices``); negative positions raise and so
    do positions past the end (linear mode), as TensorScatter does. What the canonical call cannot say: a negative
    write index in circular mode (we raise, the positions wrap), and the checks TensorScatter makes when nothing
    is written (the residuals).
    """
    axis = check_int("onnx.TensorScatter", "axis", axis)
    check_choice("onnx.TensorScatter", "mode", mode, _MODES)
    if axis == 0:
        raise AxisError("translate onnx.TensorScatter: axis 0 is the batch axis; the sequence axis must be another")
    circular = mode == "circular"
    pre = [Step.adapt("positions", "pos", "write_indices", "update", "past_cache", axis=axis, circular=circular,
                      why="write positions write_indices[b] + j over update's shape"
                      + (" (mod max_sequence_length)" if circular else ""))]
    c = canonical("scatter_elements", data="past_cache", indices="pos", updates="update", axis=axis,
                  negative="raise", bounds="raise")
    residuals = ([_NEGATIVE] if circular else []) + [_EMPTY]
    return Description("onnx.TensorScatter", {"axis": axis, "mode": mode, **_opset(opset)},
                       ("past_cache", "update", "write_indices"), c, pre=pre, residuals=residuals,
                       sample=_sampler(axis, circular))


def _sampler(axis: int, circular: bool) -> Any:
    """Inputs for :func:`gatherscatter.translate.verify.verify` by case kind: in-range write indices ('plain',
    'duplicates': one write index for every batch, 'scalar': rank 2), a negative one ('negative'), one past the end
    or huge ('out_of_range'), sequence_length 0 or an empty dim with write indices out of range ('empty')."""
    need = axis + 1 if axis >= 0 else 1 - axis

    def sample(rng: np.random.Generator, kind: str) -> dict[str, Any]:
        rank = max(need, 2) if kind == "scalar" else int(rng.integers(max(need, 2), max(need, 3) + 1))
        a = axis % rank
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        smax = int(rng.integers(1, 5))
        slen = int(rng.integers(1, smax + 1))
        if kind == "empty":
            if rng.random() < 0.6:
                slen = 0
            else:
                shape[int(rng.choice([d for d in range(rank) if d != a]))] = 0
        dshape, ushape = list(shape), list(shape)
        dshape[a], ushape[a] = smax, slen
        batch = shape[0]
        hi = 3 * smax if circular else smax - slen
        w = rng.integers(0, hi + 1, size=batch).astype(np.int64)
        if kind == "duplicates":
            w[:] = w[0] if batch else 0
        elif kind == "negative" and batch:
            w[int(rng.integers(batch))] = -int(rng.integers(1, smax + 2))
        elif kind == "out_of_range" and batch:
            w[int(rng.integers(batch))] = [smax - slen + 1, smax + 2, 2**40, _I64_MAX][int(rng.integers(4))]
        elif kind == "empty" and batch:
            w[int(rng.integers(batch))] = [smax + 1, -1, 0][int(rng.integers(3))]
        dt = str(rng.choice(["float32", "float64", "int64", "int32"]))
        past = rng.integers(-9, 10, size=dshape).astype(dt)
        update = rng.integers(-9, 10, size=ushape).astype(dt)
        return {"past_cache": past, "update": update, "write_indices": w}

    return sample


_PROBE: tuple[dict[str, Any], ...] = tuple({"axis": a, "mode": m} for m in _MODES for a in (-2, 1))


@onnx_op("TensorScatter", family="scatter_axis", versions=(24,), differentiable=("past_cache", "update"),
         describe=_describe, values={"mode": _MODES}, variants=_PROBE)
def TensorScatter(
    past_cache: Any,
    update: Any,
    write_indices: Any = None,
    axis: int = -2,
    mode: str = "linear",
    opset: int | None = None,
) -> Lowering:
    """ONNX TensorScatter: write ``update`` into a copy of the cache ``past_cache`` at per-batch positions.

    Versions: TensorScatter-24 (added in opset 24; ``opset=None``: the newest).
    The KV-cache update of LLM attention: ``past_cache`` has shape
    ``(batch_size, D1, ..., max_sequence_length, ..., Dn)`` with the sequence
    dimension at ``axis`` (default -2; it cannot be 0, the batch axis), and
    ``update`` the same shape except ``sequence_length <= max_sequence_length``
    at ``axis``. ``write_indices`` (int64, shape ``[batch_size]``, zeros when
    absent) is where sample ``b``'s update starts. ``mode='linear'`` writes at
    ``write_indices[b] + j`` and needs ``0 <= write_indices[b] <=
    max_sequence_length - sequence_length`` (else :class:`IndexOutOfRangeError`;
    the spec leaves it undefined and ONNX Runtime raises); ``mode='circular'``
    writes at ``(write_indices[b] + j) mod max_sequence_length``. Negative
    write indices raise in both modes, as in ONNX Runtime. Every ONNX tensor
    type is accepted (float8, int4 and float4 as ml_dtypes arrays).

    Lowering: a scatter of whole slices along ``axis`` with one batch axis
    (``IndexSpec(axis=axis, batch=1)``), indices ``write_indices[b] + j`` of
    shape ``[batch_size, sequence_length]``; circular mode reduces
    ``write_indices`` modulo ``max_sequence_length`` first (so the sum cannot
    overflow) and wraps the rest with ``bounds='wrap'``.

    Equivalent loop (the spec's)::

        present = copy(past_cache)
        for prefix in ndindex(past_cache.shape[:axis]):
            b = prefix[0]
            for j in range(sequence_length):
                t = write_indices[b] + j
                if mode == 'circular':
                    t = t % max_sequence_length
                present[prefix + (t,)] = update[prefix + (j,)]

    Differs from onnx.reference 1.23 (Python negative indexing of negative
    write indices, ``axis % rank``, no check of ``write_indices``' shape) and
    from the spec's pseudocode for negative circular write indices (floor
    modulo there; an error here and in ONNX Runtime): see the divergence records.

    >>> import gatherscatter as gs
    >>> cache = [[[0], [0], [0], [0]], [[0], [0], [0], [0]]]
    >>> gs.onnx.TensorScatter(cache, [[[7], [8]], [[5], [6]]], [1, 2])[..., 0].tolist()
    [[0, 7, 8, 0], [0, 0, 5, 6]]
    >>> gs.onnx.TensorScatter(cache, [[[7], [8]], [[5], [6]]], [3, 0], mode="circular")[..., 0].tolist()
    [[8, 0, 0, 7], [5, 6, 0, 0]]
    """
    opset, version = op_version("TensorScatter", (24,), opset)
    ctx = onnx_context("TensorScatter", opset, version).with_(
        data="past_cache", indices="write_indices", updates="update"
    )
    if not isinstance(mode, str):
        raise ArgumentError(f"{ctx.label}: mode must be a string, 'linear' or 'circular' (got {mode!r})")
    if mode not in _MODES:
        raise UnsupportedError(f"{ctx.label}: unknown mode {mode!r}; TensorScatter accepts 'linear' or 'circular'")
    d = data_array(ctx, past_cache)
    check_data_dtype(ctx, d, _T)
    if d.ndim < 2:
        raise ShapeError(
            f"{ctx.label}: past_cache must have rank >= 2 (a batch axis and a sequence axis); "
            f"got rank {d.ndim} (shape {list(d.shape)})"
        )
    u = as_updates(ctx, update, d.dtype)
    r = d.ndim
    a = to_int(ctx, "axis", axis)
    if not (1 <= a <= r - 1 or -(r - 1) <= a <= -1):
        raise AxisError(
            f"{ctx.label}: axis {a} is not a sequence axis of past_cache of rank {r}: axis must be in "
            f"[1, {r - 1}] or [{-(r - 1)}, -1] (it cannot be 0, the batch axis"
            + (f"; {a} is axis 0 counted from the back" if a == -r else "")
            + ")"
        )
    a = a + r if a < 0 else a
    if u.ndim != r:
        raise ShapeError(
            f"{ctx.label}: update must have the rank of past_cache ({r}); got update shape {list(u.shape)} "
            f"and past_cache shape {list(d.shape)}"
        )
    for k in range(r):
        if k != a and u.shape[k] != d.shape[k]:
            raise ShapeError(
                f"{ctx.label}: update.shape[{k}] must equal past_cache.shape[{k}] on every axis except the "
                f"sequence axis {a}; got update shape {list(u.shape)} and past_cache shape {list(d.shape)}"
            )
    smax, slen = d.shape[a], u.shape[a]
    if slen > smax:
        raise ShapeError(
            f"{ctx.label}: update's sequence_length (update.shape[{a}] = {slen}) must be <= "
            f"max_sequence_length (past_cache.shape[{a}] = {smax})"
        )
    batch = d.shape[0]
    if write_indices is None:
        w = np.zeros(batch, np.int64)
    else:
        w = as_index_array(ctx, write_indices, "write_indices", INDEX_INT64)
        if w.shape != (batch,):
            raise ShapeError(
                f"{ctx.label}: write_indices must have shape [batch_size] = [{batch}] (past_cache.shape[0]); "
                f"got shape {list(w.shape)}"
            )
    _check_write_indices(ctx, w, mode, smax, slen)
    if mode == "circular" and smax > 0:
        start = w % smax
        policy = _CIRCULAR
    else:
        start = w
        policy = STRICT
    idx = start[:, None] + np.arange(slen, dtype=np.int64)
    return Lowering("scatter", d, idx, IndexSpec(axis=a, batch=1), policy, ctx, updates=u)


def _check_write_indices(ctx: OpContext, w: np.ndarray[Any, Any], mode: str, smax: int, slen: int) -> None:
    """Negative write indices raise; linear mode also needs ``w[b] + slen <= smax`` (``slen <= smax`` here)."""
    hi = smax - slen if mode == "linear" else _I64_MAX
    bad = (w < 0) | (w > hi)
    if not bad.any():
        return
    b = int(np.argmax(bad))
    value = int(w[b])
    if value < 0:
        rule = f"in [0, {hi}]" if mode == "linear" else f"in [0, {smax - 1}] or any larger value, taken mod {smax}"
        msg = (
            f"{ctx.label}: write_indices[{b}] = {value} is negative; a write index is a position in the "
            f"cache and must be >= 0 (mode={mode!r}: {rule})"
        )
    else:
        msg = (
            f"{ctx.label}: write_indices[{b}] = {value} is out of range for mode='linear': "
            f"write_indices[b] + sequence_length must be <= max_sequence_length ({value} + {slen} > {smax}); "
            f"valid range is [0, {hi}] (mode='circular' wraps around instead)"
        )
    raise IndexOutOfRangeError(msg, value=value, position=(b,), valid=(0, hi))
