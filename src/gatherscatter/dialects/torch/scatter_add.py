"""PyTorch ``torch.scatter_add`` (2.13)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Reduction
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering
from ._common import torch_context
from ._describe import _HALF, _INT, torch_op
from .scatter import lower_elementwise_scatter


def _describe(dim: int) -> Description:
    dim = check_int("torch.scatter_add", "dim", dim)
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction="add",
                  negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    return Description("torch.scatter_add", {"dim": dim}, ("input", "index", "src"), c, pre=pre, residuals=[_HALF],
                  layout={"index_dtypes": _INT, "smaller_index": True, "larger_updates": True})


@torch_op(
    "scatter_add", family="scatter_elements", kind="scatter", differentiable=("input", "src"), describe=_describe,
    variants=({"dim": 0},),
)
def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Lowering:
    """torch.scatter_add: add every ``src`` element into a copy of ``input`` along ``dim``.

    Provenance: ``torch.scatter_add`` / ``Tensor.scatter_add_(dim, index, src)``,
    torch 2.13 CPU (int32 indices since 2.8). The shape rules of
    :func:`scatter`: ``index`` has the rank of ``input``, ``index.shape[d] <=
    src.shape[d]`` everywhere and ``<= input.shape[d]`` except along ``dim``;
    ``src.dtype == input.dtype``; negative indices raise. Duplicates accumulate
    in row-major order of ``index`` (torch CPU's order); float16/bfloat16 sums
    accumulate in float32 and round once; bool adds are logical or.

    Equivalent loop::

        out = copy(input)
        for j in ndindex(index.shape):
            out[j[:dim] + (index[j],) + j[dim+1:]] += src[j]

    Differs from ONNX ``ScatterElements(reduction='add')`` (negative indices wrap,
    ``updates`` has exactly the indices' shape) and ``torch.index_add`` (whole
    slices, 1-D index).

    >>> import gatherscatter as gs
    >>> gs.torch.scatter_add([1, 1, 1, 1], 0, [1, 1, 2], [10, 20, 30]).tolist()
    [1, 31, 31, 1]
    """
    ctx = torch_context("scatter_add")
    return lower_elementwise_scatter(ctx, input, dim, index, src=src, reduction=Reduction.ADD)
