"""Paddle ``paddle.gather_nd(x, index)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec
from .._common import data_array
from .._record import Description, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import check_paddle_dtype, empty_like_shape, index_array, paddle_context, tuple_length
from ._describe import _INT

# CPU kernel registry of paddle 3.3.1 for gather_nd (measured): no float16, no bfloat16
_DTYPES = frozenset(
    {"bool", "int8", "uint8", "int16", "int32", "int64", "float32", "float64", "complex64", "complex128"}
)

divergence_table("paddle.gather_nd", r'''
[[divergence]]
case = "an indexed dim of x has size 0 while the output is non-empty"
when = "empty"
reference = "paddle 3.3.1 CPU"
theirs = "no error; the output holds uninitialised memory"
ours = "IndexOutOfRangeError (no index is valid on a dim of size 0)"
evidence = "probe: paddle.gather_nd(zeros((0, 3)), [[0]]) -> [[3.5e14, 3.1e-41, 0]]"
kind = "undefined"
not_reproducible = "uninitialised memory: no stable value to assert"
''')


def _describe() -> Description:
    c = canonical("gather_nd", data="x", indices="index")
    return Description("paddle.gather_nd", {}, ("x", "index"), c, layout={"index_dtypes": _INT})


@dialect_op(
    "paddle", "gather_nd", family="gather_nd", kind="gather", versions=("3.3.1",), differentiable=("x",),
    describe=_describe,
)
def gather_nd(x: Any, index: Any) -> Lowering:
    """Paddle gather_nd: slices of ``x`` addressed by index tuples on the last axis of ``index``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.gather_nd(x, index)`` on CPU.
    With ``k = index.shape[-1] <= rank(x)``:
    ``Y.shape = index.shape[:-1] + x.shape[k:]``. A 1-D ``index`` is ONE tuple;
    ``k = 0`` selects the whole ``x`` for every (empty) tuple; a 0-D index is
    rejected. Negative indices wrap once; outside ``[-s, s-1]`` raises. No
    ``batch_dims``. When the output has no element no index is checked.

    Equivalent loop::

        for i in ndindex(index.shape[:-1]):
            t = tuple(v + x.shape[j] if v < 0 else v for j, v in enumerate(index[i]))
            Y[i] = x[t]

    Differs from ONNX ``GatherND`` (``k >= 1``, int64 only, ``batch_dims``),
    ``tf.gather_nd`` (negative indices rejected) and MXNet ``gather_nd``
    (tuples on the first axis).

    >>> import gatherscatter as gs
    >>> x = [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]
    >>> gs.paddle.gather_nd(x, [[0, 1]]).tolist()
    [[3, 4]]
    >>> gs.paddle.gather_nd(x, [[1, -1, 0]]).tolist()
    [11]
    """
    ctx = paddle_context("gather_nd")
    d = data_array(ctx, x)
    check_paddle_dtype(ctx, d, _DTYPES)
    i = index_array(ctx, index)
    k = tuple_length(ctx, i, d.ndim, f"rank(x) = {d.ndim}", f"index shape {list(i.shape)}, x shape {list(d.shape)}")
    spec = IndexSpec(axis=0, depth=k, vector=True)
    empty = empty_like_shape(i.shape[:-1] + d.shape[k:], d.dtype)
    return Lowering("gather", d, i, spec, WRAPPING, ctx, result=empty)
