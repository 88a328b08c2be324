"""PyTorch ``torch.index_select`` (2.13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import STRICT
from ...core.shape import IndexSpec
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering
from ._common import DATA_DTYPES, INDEX_INT32_INT64, TENSOR_DTYPES, check_dtype, index_and_dim, torch_context
from ._describe import _INT, torch_op


def _describe(dim: int) -> Description:
    dim = check_int("torch.index_select", "dim", dim)
    c = canonical("gather", data="input", indices="index1", axis=dim, negative="raise")
    pre = [Step.adapt("flatten", "index1", "index", why="a 0-d index keeps a size-1 dim "
                                                        "(docs/semantics.md#pitfall-13)")]
    return Description("torch.index_select", {"dim": dim}, ("input", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 1)})


@torch_op(
    "index_select", family="gather", kind="gather", differentiable=("input",), describe=_describe,
    fuzz={"index_shape": "vector_or_scalar"}, variants=({"dim": 1},),
)
def index_select(input: Any, dim: int, index: Any) -> Lowering:
    """torch.index_select: whole slices of ``input`` along ``dim``.

    Provenance: ``torch.index_select(input, dim, index)``, torch 2.13 CPU.
    ``index`` is int32 or int64 and 0-d or 1-d; the result has ``input``'s rank:
    ``input.shape[:dim] + (len(index),) + input.shape[dim+1:]``. A 0-d ``index``
    **keeps** a size-1 dim (unlike ONNX/NumPy/TF scalar indices). Indices must be
    in ``[0, s-1]``: negative indices raise. A 0-d ``input`` takes exactly one
    index (``0``) and returns a 0-d result. Data dtypes: torch copies raw slices
    of rank >= 2 inputs (uint16/32/64 work there) but has no rank-1 kernel for
    uint16/32/64; both are reproduced.

    Equivalent loop::

        for p in ndindex(input.shape[:dim]), k in range(len(index)), r in ndindex(input.shape[dim+1:]):
            out[p + (k,) + r] = input[p + (index[k],) + r]     # 0 <= index[k] < s

    Differs from ONNX ``Gather`` / ``np.take`` (any index rank, a scalar index
    drops the axis, negative indices wrap).

    >>> import gatherscatter as gs
    >>> gs.torch.index_select([[1, 2, 3], [4, 5, 6]], 1, [2, 0]).tolist()
    [[3, 1], [6, 4]]
    >>> gs.torch.index_select([[1, 2, 3], [4, 5, 6]], 1, 2).tolist()
    [[3], [6]]
    """
    ctx = torch_context("index_select")
    d = data_array(ctx, input)
    # rank >= 2 copies raw bytes (any tensor dtype); rank <= 1 dispatches on the dtype
    check_dtype(ctx, d, TENSOR_DTYPES if d.ndim >= 2 else DATA_DTYPES)
    i, a = index_and_dim(ctx, d, index, dim, INDEX_INT32_INT64)
    i1 = i.reshape(-1)
    if d.ndim == 0:
        if i1.size != 1:
            raise ShapeError(
                f"{ctx.label}: index into a 0-d input must hold exactly 1 value; got {i1.size} value(s)"
            )
        return Lowering("gather", d.reshape(1), i1, IndexSpec(axis=0), STRICT, ctx, post=lambda y: y.reshape(()))
    return Lowering("gather", d, i1, IndexSpec(axis=a), STRICT, ctx)
