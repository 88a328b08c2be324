"""MXNet ``scatter_nd`` (MXNet 1.9.1): index tuples on the FIRST axis, zeros elsewhere."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ...core.policy import STRICT
from ...core.shape import IndexSpec, check_allocatable
from ...errors import ArgumentError, ShapeError, UnsupportedError
from .._record import Description, Step, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import DATA, INDEX, check_index_tuples, first_bad, mx_array, mx_context, raise_bad, truncate
from ._describe import _CAST, _INDEX

divergence_table("mxnet.scatter_nd", r'''
[[divergence]]
case = "negative index"
when = "negative"
reference = "MXNet 1.9.1 CPU"
theirs = """
no bound check: the write lands before the buffer; the process crashes (SIGSEGV/SIGABRT) or a later call hangs"""
ours = "IndexOutOfRangeError"
evidence = """
docs/behavior-matrix.md#t6-5 and docs/behavior-matrix.md#surprise-7; docs/semantics.md#s6-6; measured \
scatter_nd([9], [[-1]], (3,)) exit 134"""
kind = "undefined"
not_reproducible = "the process crashes (SIGSEGV, SIGABRT) or a later call hangs"

[[divergence]]
case = "index >= axis size"
when = "out_of_range"
reference = "MXNet 1.9.1 CPU"
theirs = """
no bound check: the flat offset is written even when out of range; past the end of the output it seems 'ignored' \
(heap corruption), inside it lands in another row ((1, 4) on shape (3, 4) writes (2, 0))"""
ours = "IndexOutOfRangeError"
evidence = """
docs/behavior-matrix.md#t6-5 ('ignored [0,0,0]' for [[3]]); measured scatter_nd([9], [[1],[4]], (3,4)) writes [2, \
0]"""
kind = "undefined"
[divergence.example]
call = "mxnet.nd.scatter_nd"
args = { data = [5], indices = [[1], [4]], shape = [3, 4] }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [[0, 0, 0, 0], [0, 0, 0, 0], [5, 0, 0, 0]] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "duplicate index tuples"
when = "duplicates"
reference = "MXNet 1.9.1 docs"
theirs = """
'the result will be non-deterministic and the gradient of scatter_nd will not be correct!!'; CPU: last wins"""
ours = "duplicates='last' (row-major order of the index tuples)"
evidence = "apache/mxnet#11899; docs/behavior-matrix.md#t6-5 and docs/behavior-matrix.md#t6-9 (5/5 last-wins)"
kind = "undefined"
[divergence.example]
call = "mxnet.nd.scatter_nd"
args = { data = [1, 2], indices = [[0, 0]], shape = [2] }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [2, 0] }
ours = "same"
''')


def _shape(ctx: Any, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)):
        shape = (shape,)
    try:
        out = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise ArgumentError(f"{ctx.label}: shape must be a tuple of ints (got {shape!r})") from None
    if not out:
        raise UnsupportedError(f"{ctx.label}: shape () is 0-d; MXNet 1.9 cannot express 0-d arrays")
    if any(n < 0 for n in out):
        raise ShapeError(f"{ctx.label}: shape {list(out)} has a negative dim")
    if any(n == 0 for n in out):
        raise UnsupportedError(
            f"{ctx.label}: shape {list(out)} is empty; MXNet 1.9 cannot express empty arrays (a 0 dim means "
            f"'unknown'; scatter_nd aborts the process)"
        )
    return out


def _describe() -> Description:
    """MXNet checks nothing (a negative index crashes it, one >= s writes out of bounds): both raise here."""
    pre = [Step.adapt("zeros", "zeros", "shape", "data", why="the output starts from zeros(shape)"),
           Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1,
                      why="MXNet keeps index tuples on the first axis (docs/semantics.md#e6)"),
           Step.adapt("cast", "idx_int", "idx", dtype="int64", why=_CAST)]
    c = canonical("scatter_nd", data="zeros", indices="idx_int", updates="data", negative="raise",
                  duplicates_specified=False)
    return Description("mxnet.scatter_nd", {}, ("data", "indices", "shape"), c, pre=pre,
                  roles={"updates": "data", "data": "shape"},
                  layout={"index_axis": 0, "index_dtypes": _INDEX, "fractional": 0.3, "index_ndim": (1, 2)})


@dialect_op(
    "mxnet", "scatter_nd", family="scatter_nd", kind="scatter", versions=("1.9.1",), differentiable=("data",),
    describe=_describe, fuzz={"index_axis": 0},
)
def scatter_nd(data: Any, indices: Any, shape: Any) -> Lowering:
    """MXNet scatter_nd: a zero array of ``shape`` with ``data`` written at index tuples on the FIRST axis.

    Provenance: ``mxnet.nd.scatter_nd(data, indices, shape)``, MXNet 1.9.1
    (``src/operator/tensor/indexing_op.{h,cc}``). Note the names: ``data`` is
    the *updates*; the output is created from ``shape``.

    ``indices`` has shape ``(M, Y...)`` (at least 2 dims, ``M <= len(shape)``)
    and ``data.shape == indices.shape[1:] + shape[M:]``. Float indices are
    truncated toward zero (2.4 writes row 2, -0.5 writes row 0). MXNet checks
    nothing: a negative index crashes it and an index ``>= s`` writes out of
    bounds or into another row, so both raise here. Duplicate tuples: the last
    in row-major order wins (MXNet documents the result as non-deterministic).
    Untouched positions are 0 (False for bool).

    Equivalent loop::

        Y = zeros(shape, data.dtype)
        for y in ndindex(indices.shape[1:]):
            t = tuple(int(trunc(indices[j][y])) for j in range(M))     # must be in [0, s_j - 1]
            Y[t] = data[y]

    Differs from ``tf.scatter_nd`` (tuples on the LAST axis, duplicates summed)
    and ``onnx.ScatterND`` (updates into existing data; docs/semantics.md#e6).

    >>> import gatherscatter as gs
    >>> gs.mxnet.scatter_nd([2.0, 3.0], [[1, 1], [0, 1]], (2, 2)).tolist()
    [[0.0, 0.0], [2.0, 3.0]]
    >>> gs.mxnet.scatter_nd([[[1, 1], [2, 2]]], [[[0, 1]], [[1, 0]]], (2, 2, 2)).tolist()
    [[[0, 0], [1, 1]], [[2, 2], [0, 0]]]
    """
    ctx = mx_context("scatter_nd", data="output", updates="data")
    u = mx_array(ctx, data, "data", DATA)
    i = mx_array(ctx, indices, "indices", INDEX | {"bool"})
    out_shape = _shape(ctx, shape)
    check_allocatable(ctx, out_shape, u.dtype, "shape")  # NumPy's limit: refuse before allocating
    check_index_tuples(ctx, i)
    m = i.shape[0]
    if m > len(out_shape):
        raise ShapeError(
            f"{ctx.label}: Number of indices exceeds output dimension: indices.shape[0] = {m} > len(shape) = "
            f"{len(out_shape)}"
        )
    expected = i.shape[1:] + out_shape[m:]
    if u.shape != expected:
        raise ShapeError(
            f"{ctx.label}: Invalid data, indices, and output shape combination: data must have shape "
            f"indices.shape[1:] + shape[{m}:] = {list(expected)}; got data {list(u.shape)}, indices "
            f"{list(i.shape)}, shape {list(out_shape)}"
        )
    t = truncate(ctx, i, "indices")
    s = np.array(out_shape[:m], np.int64).reshape((m,) + (1,) * (i.ndim - 1))
    neg = t < 0
    if neg.any():
        raise_bad(ctx, i, first_bad(neg), "is negative; MXNet 1.9.1 scatter_nd does not check its indices and "
                  "crashes on negative ones (each must be in [0, s-1] after truncation)")
    big = t >= s
    if big.any():
        pos = first_bad(big)
        raise_bad(ctx, i, pos, f"is out of range for axis {pos[0]} of the output with size {out_shape[pos[0]]}; "
                  f"MXNet 1.9.1 scatter_nd does not check and writes out of bounds or into another row")
    zeros = np.broadcast_to(np.zeros((), u.dtype), out_shape)  # read-only view: the scatter copies it once
    return Lowering(
        "scatter", zeros, np.moveaxis(t, 0, -1), IndexSpec(axis=0, depth=m, vector=True), STRICT, ctx, updates=u,
    )
