"""Paddle ``paddle.gather(x, index, axis=None)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec, normalize_axis
from ...errors import ShapeError
from .._record import Description, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import empty_like_shape, paddle_context, x_and_index
from ._describe import _INT

# CPU kernel registry of paddle 3.3.1 (measured): no float16 kernel on CPU
_DTYPES = frozenset(
    {"bool", "int8", "uint8", "int16", "int32", "int64", "bfloat16", "float32", "float64", "complex64", "complex128"}
)

divergence_table("paddle.gather", r'''
[[divergence]]
case = "float16 x"
when = "dtype"
reference = "paddle 3.3.1 GPU"
theirs = "GPU has a float16 kernel (the docstring lists 'float16 (only for GPU)'); CPU raises NotFound"
ours = "DTypeError, as paddle on CPU: the missing CPU kernel is documented, so it is a rule of the CPU op"
evidence = """
docs/behavior-matrix.md#surprise-11 and docs/behavior-matrix.md#t6-1 data dtypes; paddle.gather docstring (3.3.1)"""
kind = "device"
not_reproducible = "needs a GPU (on CPU paddle raises, as ours does)"

[[divergence]]
case = "axis < -rank(x) (e.g. axis=-3 on a 2-D x)"
when = "always"
reference = "paddle 3.3.1 CPU"
theirs = "not checked (only axis >= rank is): returns uninitialised memory of a wrongly shaped output"
ours = "AxisError: axis must be in [-rank, rank-1] (the range paddle's own message states)"
evidence = "probe: paddle.gather(3x2 x, [1], axis=-3) -> shape (1, 3, 2) of garbage; axis=2 raises OutOfRange"
kind = "undefined"
not_reproducible = "paddle reads memory it does not own: the call can crash the process (it did in a test run)"

[[divergence]]
case = "x.shape[axis] == 0 with a non-empty index and a non-empty output"
when = "empty"
reference = "paddle 3.3.1 CPU"
theirs = "no error; the output holds uninitialised memory"
ours = "IndexOutOfRangeError (no index is valid on an axis of size 0)"
evidence = "probe: paddle.gather(zeros((0, 2)), [0]) -> (1, 2) of garbage"
kind = "undefined"
not_reproducible = "uninitialised memory: no stable value to assert"
''')


def _describe(axis: int | None = None) -> Description:
    axis = check_int("paddle.gather", "axis", axis, optional=True)
    c = canonical("gather", data="x", indices="index", axis=0 if axis is None else axis)
    return Description("paddle.gather", {"axis": axis}, ("x", "index"), c,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 1)})


@dialect_op(
    "paddle", "gather", family="gather", kind="gather", versions=("3.3.1",), differentiable=("x",),
    describe=_describe, fuzz={"index_shape": "vector_or_scalar"}, variants=({}, {"axis": 1}),
)
def gather(x: Any, index: Any, axis: int | None = None) -> Lowering:
    """Paddle gather: whole slices of ``x`` along ``axis`` (``None`` means 0).

    Provenance: PaddlePaddle 3.3.1 ``paddle.gather(x, index, axis=None)`` on CPU
    (the original signature; Paddle 3.x also overloads ``paddle.gather(input,
    dim, index)`` as torch-style ``take_along_axis``, which is not this op).

    ``index`` is int32/int64 and 1-D, 0-D (drops ``axis``) or 2-D with last
    dim 1 (read as 1-D). ``Y.shape = x.shape[:axis] + index.shape + x.shape[axis+1:]``.
    Negative indices wrap once; outside ``[-s, s-1]`` raises. When the output
    has no element no index is checked (as Paddle). ``x`` dtypes: the CPU
    kernels of 3.3.1 (no float16).

    Equivalent loop::

        for p in ndindex(x.shape[:axis]), i in ndindex(index.shape), r in ndindex(x.shape[axis+1:]):
            k = index[i]; k = k + s if k < 0 else k
            Y[p + i + r] = x[p + (k,) + r]

    Differs from ``torch.gather`` / the overloaded ``paddle.gather(input, dim,
    index)`` (element-wise: that is ``take_along_axis``), from ``tf.gather``
    (rejects negative indices on CPU) and from ONNX ``Gather`` (any index rank).

    >>> import gatherscatter as gs
    >>> gs.paddle.gather([[1, 2], [3, 4], [5, 6]], [1, 2]).tolist()
    [[3, 4], [5, 6]]
    >>> gs.paddle.gather([[1, 2], [3, 4], [5, 6]], -1, axis=1).tolist()
    [2, 4, 6]
    """
    ctx = paddle_context("gather")
    d, i = x_and_index(ctx, x, index, _DTYPES)
    a = 0 if axis is None else normalize_axis(ctx, axis, d.ndim)
    if i.ndim == 2 and i.shape[1] in (0, 1):
        i = i.reshape(-1)
    elif i.ndim > 1:
        raise ShapeError(
            f"{ctx.label}: index must be 0-D or 1-D (or 2-D with last dim 1); got index shape {list(i.shape)}"
        )
    spec = IndexSpec(axis=a)
    empty = empty_like_shape(d.shape[:a] + i.shape + d.shape[a + 1 :], d.dtype)
    return Lowering("gather", d, i, spec, WRAPPING, ctx, result=empty)
