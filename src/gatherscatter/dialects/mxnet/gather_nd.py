"""MXNet ``gather_nd`` (MXNet 1.9.1): index tuples on the FIRST axis of ``indices``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import WRAPPING
from ...core.shape import IndexSpec
from ...errors import ShapeError
from .._record import Description, Step, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import DATA, INDEX, check_index_tuples, mx_array, mx_context, raise_bad, truncate
from ._describe import _CAST, _FLOAT, _INDEX

divergence_table("mxnet.gather_nd", r'''
[[divergence]]
case = "NaN float index"
when = "float_index nonfinite"
reference = "MXNet 1.9.1 CPU"
theirs = "passes the bound check (comparisons with NaN are false) and reads garbage memory"
ours = "IndexOutOfRangeError"
evidence = "measured: gather_nd([10,20,30], [[nan]]) -> [4.6e-44]"
kind = "undefined"
not_reproducible = "reads memory outside the array: no stable outcome"

[[divergence]]
case = "float indices"
when = "float_index"
reference = "docs/semantics.md#pitfall-20 (converters cast MXNet indices to int64)"
theirs = "a Cast to int64 first truncates, so 2.4 reads row 2 and -0.5 reads row 0"
ours = """
as MXNet 1.9.1: the bound check runs on the float (2.4 is out of bounds for size 3), then (index + s) is rounded \
in the index dtype and truncated, so -0.5 reads row s-1"""
evidence = """
docs/behavior-matrix.md#t6-10; measured gather_nd([10,20,30], [[-0.5]]) -> [30]; indexing_op.h gather_nd"""
kind = "spec"
[divergence.example]
call = "mxnet.nd.gather_nd"
args = { data = [10, 20, 30], indices = [[-0.5]] }
dtypes = { data = "float32", indices = "float32" }
theirs = { equals = [30] }
ours = "same"
''')


def _resolve(ctx: Any, i: np.ndarray[Any, Any], sizes: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """MXNet's gather_nd index arithmetic: check ``-s <= x <= s-1``, then ``int(x + s) % s``."""
    m = len(sizes)
    s = np.array(sizes, np.int64).reshape((m,) + (1,) * (i.ndim - 1))
    bad = (i < -s) | (i > s - 1)
    if bad.any():
        # MXNet reports the first axis holding a bad index, and on it the last bad index
        row = int(np.argmax(bad.reshape(m, -1).any(axis=1)))
        last = int(np.flatnonzero(bad[row].reshape(-1))[-1])
        pos = (row, *(int(p) for p in np.unravel_index(last, i.shape[1:])))
        raise_bad(ctx, i, pos, f"is out of bounds for axis {row} with size {sizes[row]}; valid range is "
                  f"[{-sizes[row]}, {sizes[row] - 1}]")
    if i.dtype.kind != "f":
        return truncate(ctx, i, "indices") % s
    truncate(ctx, i, "indices")  # NaN / inf raise
    with np.errstate(all="ignore"):
        if i.dtype == np.float16:
            shifted = (i.astype(np.float32) + s.astype(np.float32)).astype(np.float16)
        else:
            shifted = i + s.astype(i.dtype)
    return np.trunc(shifted.astype(np.float64)).astype(np.int64) % s


def _describe() -> Description:
    c = canonical("gather_nd", indices="idx_int")
    pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1,
                      why="MXNet keeps index tuples on the first axis; everyone else on the last "
                          "(docs/semantics.md#e6)"),
           Step.adapt("cast", "idx_int", "idx", dtype="int64", why=_CAST)]
    return Description("mxnet.gather_nd", {}, ("data", "indices"), c, pre=pre, residuals=[_FLOAT],
                  layout={"index_axis": 0, "index_dtypes": _INDEX, "fractional": 0.3, "index_ndim": (1, 2)})


@dialect_op(
    "mxnet", "gather_nd", family="gather_nd", kind="gather", versions=("1.9.1",), differentiable=("data",),
    describe=_describe, fuzz={"index_axis": 0, "float_index": 0.3},
)
def gather_nd(data: Any, indices: Any) -> Lowering:
    """MXNet gather_nd: slices of ``data`` addressed by index tuples on the FIRST axis of ``indices``.

    Provenance: ``mxnet.nd.gather_nd(data, indices)``, MXNet 1.9.1
    (``src/operator/tensor/indexing_op.{h,cc}``); the bound check and negative
    wrap date from apache/mxnet#17208 (2020; older builds read invalid memory,
    apache/mxnet#11551).

    ``indices`` has shape ``(M, Y_0, ..., Y_{K-1})`` with ``M <= rank(data)``
    and at least 2 dims; ``indices[:, y]`` is one index tuple and
    ``Y.shape = indices.shape[1:] + data.shape[M:]`` (NumPy ``data[tuple(indices)]``).
    Each component must satisfy ``-s <= x <= s-1`` *before* truncation (so a
    float 2.4 is out of bounds for size 3); the element read is
    ``int(x + s) % s`` with ``x + s`` rounded in the index dtype (-0.5 reads
    ``s-1``). Out-of-range indices raise, naming the first axis holding one.

    Equivalent loop::

        for y in ndindex(indices.shape[1:]):
            t = tuple(int(indices[j][y] + s_j) % s_j for j in range(M))   # after the bound check
            Y[y] = data[t]

    Differs from ``onnx.GatherND`` / ``tf.gather_nd`` (tuples on the LAST axis;
    docs/semantics.md#e6: ``GatherND(data, moveaxis(indices, 0, -1))``).

    >>> import gatherscatter as gs
    >>> gs.mxnet.gather_nd([[0, 1], [2, 3]], [[1, 1, 0], [0, 1, 0]]).tolist()
    [2, 3, 0]
    >>> gs.mxnet.gather_nd([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[0, 1], [1, 0]]).tolist()
    [[3, 4], [5, 6]]
    """
    ctx = mx_context("gather_nd")
    d = mx_array(ctx, data, "data", DATA)
    i = mx_array(ctx, indices, "indices", INDEX)
    check_index_tuples(ctx, i)
    m = i.shape[0]
    if m > d.ndim:
        raise ShapeError(
            f"{ctx.label}: Number of indices exceeds data dimension: indices.shape[0] = {m} > rank(data) = {d.ndim}"
        )
    idx = np.moveaxis(_resolve(ctx, i, d.shape[:m]), 0, -1)
    return Lowering("gather", d, idx, IndexSpec(axis=0, depth=m, vector=True), WRAPPING, ctx)
