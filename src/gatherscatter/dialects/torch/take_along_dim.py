"""PyTorch ``torch.take_along_dim`` (2.13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import MODULO, STRICT
from ...core.shape import IndexSpec, as_array, as_index_array, broadcast_along
from ...errors import AxisError, ShapeError
from .._common import data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, INDEX_INT64, TENSOR_DTYPES, check_dtype, flat_gather, norm_dim, torch_context
from ._describe import _I64, _INT, _unflatten, torch_op

divergence_table("torch.take_along_dim", r'''
[[divergence]]
case = "dim=None on a non-contiguous input"
when = "always"
reference = "torch 2.13 CPU"
theirs = "RuntimeError 'view size is not compatible with input tensor's size and stride' (it calls .view(-1))"
ours = "reads the flattened input (without copying it)"
evidence = "torch 2.13.0 CPU runs: torch.take_along_dim(torch.ones(3, 4).t(), torch.tensor([0]))"
kind = "undefined"
not_reproducible = "needs a non-contiguous tensor (the example format states values and dtypes, not layouts)"

[[divergence]]
case = "index outside [0, s-1] (negative or too large)"
when = "negative out_of_range"
reference = """
docs/semantics.md#s3-2 / docs/semantics.md#s11-1 (take_along_dim: negatives wrap once, out of range raises)"""
theirs = "spec tables say WRAP-NEG + RAISE for every dim"
ours = """
as torch 2.13 CPU measured: with a dim every index wraps modulo s (3 -> 0, -4 -> 2, 100 -> 1 on s = 3; s = 0 \
raises); with dim=None negative and out-of-range indices raise (it is a flat gather)"""
evidence = """
torch 2.13.0 CPU runs (this dialect's tests/frameworks/test_torch.py); docs/behavior-matrix.md#t6-2 'out of bounds \
idx 3: wrap [[1],[4]]'"""
kind = "spec"
not_reproducible = "the reference is the spec tables; ours does what torch 2.13 CPU does"
''')


def _describe(dim: int | None = None) -> Description:
    dim = check_int("torch.take_along_dim", "dim", dim, optional=True)
    if dim is None:
        c = canonical("gather", data="flat", indices="flat_index", axis=0, negative="raise")
        pre = [Step.adapt("flatten", "flat", "input", why="dim=None reads the flattened input"),
               Step.adapt("flatten", "flat_index", "indices", why="... with the flattened indices (1-d result)")]
        return Description("torch.take_along_dim", {"dim": None}, ("input", "indices"), c, pre=pre,
                      layout={"index_dtypes": _INT, "to_source": _unflatten("input", "indices")})
    c = canonical("gather_elements", data="input", indices="indices", axis=dim, broadcast=True,
                  negative="bounds", bounds="wrap")
    return Description("torch.take_along_dim", {"dim": dim}, ("input", "indices"), c, layout={"index_dtypes": _I64})


@torch_op(
    "take_along_dim", family="gather_elements", kind="gather", differentiable=("input",), describe=_describe,
    fuzz={"axis_none": True},
)
def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> Lowering:
    """torch.take_along_dim: one element per index along ``dim``, broadcasting like NumPy.

    Provenance: ``torch.take_along_dim(input, indices, dim=None)``, torch 2.13 CPU
    (measured; the docs do not state the index rules).

    * ``dim`` given: ``indices`` must be int64 with the rank of ``input``; the two
      are broadcast against each other on every dim but ``dim``; **every index
      wraps modulo** ``s = input.shape[dim]`` (``-1`` is the last, ``3`` on
      ``s = 3`` is the first); ``s == 0`` raises for a non-empty ``indices``. A
      0-d ``input`` raises (it has no dim).
    * ``dim=None``: ``input`` and ``indices`` are flattened and the result is 1-D
      (``indices.size`` elements); int32 or int64; it is ``torch.gather`` on the
      flat input, so negative or out-of-range indices raise.

    Equivalent loop (``dim`` given, after broadcasting)::

        for j in ndindex(indices.shape):
            out[j] = input[j[:dim] + (indices[j] mod s,) + j[dim+1:]]

    Differs from ``torch.gather`` (no broadcasting, negatives raise) and
    ``np.take_along_axis`` (raises out of range, ``axis=-1`` default).

    >>> import gatherscatter as gs
    >>> gs.torch.take_along_dim([[10, 30, 20], [60, 40, 50]], [[0, 2], [1, -1]], dim=1).tolist()
    [[10, 20], [40, 50]]
    >>> gs.torch.take_along_dim([[10, 30, 20], [60, 40, 50]], [[5, 0]]).tolist()
    [50, 10]
    """
    ctx = torch_context("take_along_dim", indices="indices")
    d = data_array(ctx, input)
    if dim is None:
        fctx = ctx.with_(data="input (flattened)")
        if as_array(ctx, indices, "indices").size == 0:  # a flat torch.gather: returns at once
            check_dtype(ctx, d, TENSOR_DTYPES)
            return Lowering("gather", d.reshape(-1), np.zeros(0, np.int64), IndexSpec(axis=0), STRICT, fctx,
                            result=np.empty(0, d.dtype))
        check_dtype(ctx, d)
        i = as_index_array(ctx, indices, "indices", INDEX_INT32_INT64)
        return flat_gather(fctx, d, i.reshape(-1), negative=False)
    i = as_index_array(ctx, indices, "indices", INDEX_INT64)
    check_dtype(ctx, d, TENSOR_DTYPES)
    if d.ndim == 0:
        raise AxisError(f"{ctx.label}: dim {dim!r} given but input is 0-d and has no dimensions")
    if i.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: input and indices must have the same number of dimensions; got input shape "
            f"{list(d.shape)} and indices shape {list(i.shape)}"
        )
    a = norm_dim(ctx, dim, d.ndim)
    db, ib = broadcast_along(ctx, d, i, a, names=("input", "indices"), dim="dim",
                             note=f"every dim but dim {a} must be equal or 1")
    if ib.size:  # torch's gather skips an empty index, dtype checks included
        check_dtype(ctx, d)
    return Lowering("gather", db, ib, IndexSpec(axis=a, batch=a, elementwise=True), MODULO, ctx)
