"""PyTorch ``torch.gather`` (2.13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import STRICT
from ...core.shape import IndexSpec, as_array, as_index_array
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, canonical, check_int
from .._registry import Lowering
from ._common import INDEX_INT32_INT64, TENSOR_DTYPES, check_dtype, norm_dim, torch_context
from ._describe import _INT, torch_op


def elementwise_rank_check(ctx: Any, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], name: str = "index") -> None:
    """torch's rank rule for gather/scatter: equal ranks, a 0-d tensor counting as 1-d."""
    if max(i.ndim, 1) != max(d.ndim, 1):
        raise ShapeError(
            f"{ctx.label}: {name} must have the same number of dimensions as input ({d.ndim}; a 0-d tensor "
            f"counts as 1-d); got {name} shape {list(i.shape)} and input shape {list(d.shape)}"
        )


def _describe(dim: int) -> Description:
    dim = check_int("torch.gather", "dim", dim)
    c = canonical("gather_elements", data="input", indices="index", axis=dim, negative="raise")
    return Description("torch.gather", {"dim": dim}, ("input", "index"), c, layout={"index_dtypes": _INT})


@torch_op(
    "gather", family="gather_elements", kind="gather", differentiable=("input",), describe=_describe,
    variants=({"dim": 1},),
)
def gather(input: Any, dim: int, index: Any) -> Lowering:
    """torch.gather: one element of ``input`` per ``index`` entry, along ``dim``.

    Provenance: ``torch.gather(input, dim, index, *, sparse_grad=False)``, torch
    2.13 CPU (int32 indices since 2.8). ``out.shape == index.shape``; ``index``
    has the rank of ``input`` and may be smaller than ``input`` on every dim
    except ``dim`` (no broadcasting); along ``dim`` it may be longer. Indices are
    int32 or int64 and must lie in ``[0, s-1]``: torch rejects negative indices
    (``IndexOutOfRangeError`` here). An empty ``index`` returns an empty result
    without any other check (even of dtypes), as torch does. A 0-d ``input`` or ``index`` counts as
    1-d of size 1.

    Equivalent loop::

        for j in ndindex(index.shape):
            out[j] = input[j[:dim] + (index[j],) + j[dim+1:]]      # 0 <= index[j] < s

    Differs from ``torch.take_along_dim`` (broadcasts, wraps out-of-range indices)
    and ``np.take_along_axis`` (broadcasts, negative indices wrap); same as ONNX
    ``GatherElements`` apart from negative indices.

    >>> import gatherscatter as gs
    >>> gs.torch.gather([[1, 2], [3, 4]], 1, [[0, 0], [1, 0]]).tolist()
    [[1, 1], [4, 3]]
    """
    ctx = torch_context("gather")
    d = data_array(ctx, input)
    a = norm_dim(ctx, dim, d.ndim)
    i0 = as_array(ctx, index, "index")
    if i0.size == 0:  # torch returns at once: no dtype or shape checks
        check_dtype(ctx, d, TENSOR_DTYPES)
        return Lowering("gather", d, i0, IndexSpec(axis=0), STRICT, ctx, result=np.empty(i0.shape, d.dtype))
    check_dtype(ctx, d)
    i = as_index_array(ctx, index, "index", INDEX_INT32_INT64)
    elementwise_rank_check(ctx, d, i)
    d1 = d.reshape(1) if d.ndim == 0 else d
    i1 = i.reshape(1) if i.ndim == 0 else i
    post = (lambda y: y.reshape(())) if i.ndim == 0 else None
    return Lowering("gather", d1, i1, IndexSpec(axis=a, batch=a, elementwise=True), STRICT, ctx, post=post)
