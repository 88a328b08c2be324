"""PyTorch ``torch.index_add`` (2.13), and the source checks shared with ``index_reduce``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, dtype_name
from ...errors import ShapeError, UnsupportedError
from .._common import data_array
from .._record import Description, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, TENSOR_DTYPES, check_dtype, index_and_dim, src_array, to_scalar, torch_context
from ._describe import _EMPTY_UNCHECKED, _HALF, _INT, _index_axis_source, torch_op

divergence_table("torch.index_add", r'''
[[divergence]]
case = "alpha other than 1, -1 or a power of two on floating input of rank >= 2"
when = "device"
reference = "torch 2.13 CPU (vectorised add kernel)"
theirs = """
computes input + alpha * source with a fused multiply-add where the CPU has one (so the result depends on the \
instruction set); rank <= 1 multiplies, rounds, then adds"""
ours = """
multiplies source by alpha in the data dtype, rounds, then adds (may differ from torch by 1 ulp; float16/bfloat16: \
torch computes a + alpha * b in float32 and rounds once)"""
evidence = """
torch 2.13.0 CPU runs on an AVX-512 machine (float32 rank 2 matches a float64 fma; rank 1 matches \
multiply-then-add)"""
kind = "device"
not_reproducible = "a last-bit difference that depends on the CPU's fused multiply-add (instruction set)"
''')

_POLICY = Policy(bounds="raise", negative="raise", reduction=Reduction.ADD)


def lower_index_func(
    ctx: OpContext, input: Any, dim: Any, index: Any, source: Any
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], int]:
    """Checks of ``index_add_``/``index_reduce_``; returns ``(input, index, source, dim)`` in 1-d-at-least form.

    ``index`` is 0-d or 1-d (int32/int64); ``source`` has the rank of ``input``
    and its shape except along ``dim``, where it has ``len(index)`` entries.
    """
    d = data_array(ctx, input)
    i, a = index_and_dim(ctx, d, index, dim, INDEX_INT32_INT64)
    s = src_array(ctx, source, d.dtype, "source")
    same = s.ndim == d.ndim and all(s.shape[k] == d.shape[k] for k in range(d.ndim) if k != a)
    if not same:
        raise ShapeError(
            f"{ctx.label}: source shape must match input shape except along dim {a}; got input shape "
            f"{list(d.shape)} and source shape {list(s.shape)}"
        )
    n = s.shape[a] if s.ndim else 1
    if i.size != n:
        raise ShapeError(
            f"{ctx.label}: the number of indices ({i.size}) must equal source.shape[{a}] ({n})"
        )
    if d.ndim == 0:
        return d.reshape(1), i.reshape(-1), s.reshape(1), 0
    return d, i.reshape(-1), s, a


def _describe(dim: int, alpha: Any = 1) -> Description:
    dim = check_int("torch.index_add", "dim", dim)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, complex)):
        raise UnsupportedError(f"translate torch.index_add: alpha must be a number (got {alpha!r})")
    return _index_axis_source("torch.index_add", dim, {"dim": dim, "alpha": alpha}, reduction="add",
                              negative="raise", index_dtypes=_INT, alpha=alpha, residuals=[_HALF, _EMPTY_UNCHECKED])


@torch_op(
    "index_add", family="scatter_axis", kind="scatter", differentiable=("input", "source"), describe=_describe,
    variants=({"dim": 0, "alpha": 2},), values={"alpha": "number"},
)
def index_add(input: Any, dim: int, index: Any, source: Any, alpha: Any = 1) -> Lowering:
    """torch.index_add: add ``alpha * source`` slices into a copy of ``input`` at ``index`` along ``dim``.

    Provenance: ``torch.index_add(input, dim, index, source, *, alpha=1)`` /
    ``Tensor.index_add_``, torch 2.13 CPU. ``index`` is 0-d or 1-d, int32 or
    int64, in ``[0, s-1]`` (negative indices raise). ``source`` has ``input``'s
    dtype and rank, and its shape except along ``dim`` where it has
    ``len(index)`` entries. ``alpha`` is converted to the dtype with torch's
    overflow check (a float alpha truncates on integer input; any non-zero alpha
    is True on bool, where adding is or). Duplicates accumulate in index order.
    As in torch, an empty ``input`` or ``index`` of rank >= 2 is returned without
    index checks; float16/bfloat16 sums accumulate in float32 where torch routes
    the call through ``scatter_add_`` (rank >= 2, ``dim`` first or last, int64
    index, ``alpha == 1``) and in the dtype otherwise.

    Equivalent loop::

        out = copy(input)
        for k in range(len(index)):
            out[(:,) * dim + (index[k],)] += alpha * source[(:,) * dim + (k,)]

    Differs from ``torch.scatter_add`` (one element per index entry) and ONNX
    ``ScatterND(reduction='add')`` (index tuples, axis 0 only).

    >>> import gatherscatter as gs
    >>> gs.torch.index_add([[1, 1], [1, 1], [1, 1]], 0, [0, 2, 0], [[1, 2], [3, 4], [5, 6]]).tolist()
    [[7, 9], [1, 1], [4, 5]]
    >>> gs.torch.index_add([1.0, 1.0], 0, [1], [2.0], alpha=0.5).tolist()
    [1.0, 2.0]
    """
    ctx = torch_context("index_add", updates="source")
    d0 = data_array(ctx, input)
    check_dtype(ctx, d0, TENSOR_DTYPES)
    d, i, s, a = lower_index_func(ctx, d0, dim, index, source)
    spec = IndexSpec(axis=a)
    if d0.ndim >= 2 and (d0.size == 0 or i.size == 0):
        # torch returns before dispatching on the dtype: no index or dtype checks
        return Lowering("scatter", d, i, spec, _POLICY, ctx, updates=s, result=np.array(d0, copy=True))
    check_dtype(ctx, d0)
    al = to_scalar(ctx, alpha, d.dtype, "alpha")
    shape0, dtype = d0.shape, d.dtype
    restore = (lambda y: y.reshape(shape0)) if d0.ndim == 0 else None
    # rank >= 2, dim first or last, int64 index and alpha == 1: torch runs scatter_add_ (float32 sums for
    # float16/bfloat16); otherwise one add per index entry in the dtype
    via_scatter_add = (
        d0.ndim >= 2 and a in (0, d0.ndim - 1) and i.dtype == np.int64
        and not isinstance(alpha, (bool, np.bool_)) and bool(al == 1)
    )
    if via_scatter_add and dtype_name(dtype) in ("float16", "bfloat16"):
        return Lowering("scatter", d, i, spec, _POLICY.with_(accumulate="float32"), ctx, updates=s)
    u = s
    if not bool(al == 1) or dtype.kind == "b":
        with np.errstate(all="ignore"):
            u = np.logical_and(s, al) if dtype.kind == "b" else np.multiply(s, al)
    return Lowering("scatter", d, i, spec, _POLICY, ctx, updates=u, post=restore)
