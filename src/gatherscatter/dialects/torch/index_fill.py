"""PyTorch ``torch.index_fill`` (2.13)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import WRAPPING
from ...core.shape import dtype_name
from ...errors import DTypeError, UnsupportedError
from .._common import data_array
from .._record import Description, check_int
from .._registry import Lowering
from ._common import INDEX_INT64, check_dtype, index_and_dim, to_scalar, torch_context
from ._describe import _EMPTY_UNCHECKED, _I64, _index_axis_source, torch_op
from .index_copy import index_slices


def _describe(dim: int, value: Any) -> Description:
    dim = check_int("torch.index_fill", "dim", dim)
    if isinstance(value, (list, tuple)) or np.ndim(value):
        raise UnsupportedError(f"translate torch.index_fill: value must be a number (got {value!r})")
    return _index_axis_source("torch.index_fill", dim, {"dim": dim, "value": value}, reduction="none",
                              negative="wrap", index_dtypes=_I64, source_input=None, value=value,
                              residuals=[_EMPTY_UNCHECKED])


@torch_op(
    "index_fill", family="scatter_axis", kind="scatter", differentiable=("input",), describe=_describe,
    variants=({"dim": 1, "value": -1.0},), values={"value": "number"},
)
def index_fill(input: Any, dim: int, index: Any, value: Any) -> Lowering:
    """torch.index_fill: set whole slices of a copy of ``input`` at ``index`` along ``dim`` to ``value``.

    Provenance: ``torch.index_fill(input, dim, index, value)`` /
    ``Tensor.index_fill_``, torch 2.13 CPU. ``index`` is int64 only, 0-d or 1-d;
    unlike ``index_copy``/``index_add``, **negative indices wrap** once; outside
    ``[-s, s-1]`` raises. ``value`` is a number or a 0-d array, converted to
    ``input``'s dtype with torch's overflow check (a complex value does not
    convert to a real dtype, even with a zero imaginary part). As in torch, an ``input`` whose slices (its shape
    without ``dim``) are empty is returned without index checks.

    Equivalent loop::

        out = copy(input)
        for k in index:
            out[(:,) * dim + (k + s if k < 0 else k,)] = value

    Differs from ``torch.index_copy`` (copies source slices, negatives raise)
    and ``torch.scatter(value=)`` (one element per index entry).

    >>> import gatherscatter as gs
    >>> gs.torch.index_fill([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], 1, [0, -1], -1.0).tolist()
    [[-1.0, 2.0, -1.0], [-1.0, 5.0, -1.0]]
    """
    ctx = torch_context("index_fill")
    d = data_array(ctx, input)
    check_dtype(ctx, d)
    i, a = index_and_dim(ctx, d, index, dim, INDEX_INT64)
    is_complex = isinstance(value, complex) or (
        isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype.kind == "c"
    )
    if d.dtype.kind != "c" and is_complex:
        raise DTypeError(
            f"{ctx.label}: value {value!r} is complex; index_fill does not convert a complex number to "
            f"{dtype_name(d.dtype)} input (even with a zero imaginary part)"
        )
    v = to_scalar(ctx, value, d.dtype, "value")
    return index_slices(ctx, d, i, a, WRAPPING, lambda shape: np.broadcast_to(v, shape))
