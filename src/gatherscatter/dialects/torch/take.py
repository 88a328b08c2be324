"""PyTorch ``torch.take`` (2.13)."""

from __future__ import annotations

from typing import Any

from ...core.shape import as_index_array
from .._common import data_array
from .._record import Description, Step, canonical
from .._registry import Lowering
from ._common import DATA_DTYPES, INDEX_INT64, TENSOR_DTYPES, check_dtype, flat_gather, torch_context
from ._describe import _I64, _unflatten, torch_op


def _describe() -> Description:
    c = canonical("gather", data="flat", indices="index", axis=0)
    pre = [Step.adapt("flatten", "flat", "input", why="torch.take reads the flattened input")]
    return Description("torch.take", {}, ("input", "index"), c, pre=pre,
                  layout={"index_dtypes": _I64, "to_source": _unflatten("input", "index")})


@torch_op(
    "take", family="gather", kind="gather", differentiable=("input",), describe=_describe, fuzz={"flat": True},
)
def take(input: Any, index: Any) -> Lowering:
    """torch.take: elements of the flattened ``input`` at ``index``; ``out.shape == index.shape``.

    Provenance: ``torch.take(input, index)``, torch 2.13 CPU. ``index`` must be
    int64 (int32 raises in torch). Negative indices wrap once (``-1`` is the last
    element); outside ``[-n, n-1]`` raises (``n = input.size``). A 0-d ``index``
    gives a 0-d result; an empty ``input`` raises unless ``index`` is empty too.

    Equivalent loop::

        flat = input.reshape(-1); n = flat.size
        for j in ndindex(index.shape):
            k = index[j]; out[j] = flat[k + n if k < 0 else k]       # -n <= k < n

    Differs from ``torch.index_select`` (one dim, 1-D index, negatives raise)
    and ``np.take`` (``axis=``, ``mode=``).

    >>> import gatherscatter as gs
    >>> gs.torch.take([[4, 3, 5], [6, 7, 8]], [0, 2, 5, -1]).tolist()
    [4, 5, 8, 8]
    """
    ctx = torch_context("take", data="input (flattened)")
    d = data_array(ctx, input)
    i = as_index_array(ctx, index, "index", INDEX_INT64)
    check_dtype(ctx, d, DATA_DTYPES if i.size else TENSOR_DTYPES, name="input")  # torch skips empty takes
    return flat_gather(ctx, d, i, negative=True)
