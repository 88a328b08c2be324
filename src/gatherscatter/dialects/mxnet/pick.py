"""MXNet ``pick`` (MXNet 1.9.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import CLIP, MODULO
from ...core.shape import IndexSpec, normalize_axis
from ...errors import ArgumentError, ShapeError, UnsupportedError
from .._record import Description, Step, canonical, check_bool, check_choice, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import DATA, INDEX, mx_array, mx_context, truncate
from ._describe import _CAST, _INDEX, _INT32, _MODES, _pick_args

_POLICIES = {"clip": CLIP, "wrap": MODULO}

divergence_table("mxnet.pick", r'''
[[divergence]]
case = "index outside the int32 range (int64 indices, or floats beyond +-2**31)"
when = "out_of_range"
reference = "MXNet 1.9.1 CPU"
theirs = "casts the index to int32 first (2**32+1 reads 1, 2**31 reads as -2**31 and clips to 0)"
ours = "IndexOutOfRangeError naming the value: the narrowed index would silently read another element"
evidence = "measured: pick([10,20,30], int64 [2**32+1], mode='clip') -> [20]; mode='wrap', 2**31 -> [20]"
kind = "undefined"
[divergence.example]
call = "mxnet.nd.pick"
args = { data = [[1, 2, 3]], index = [4294967297] }
dtypes = { data = "float32", index = "int64" }
theirs = { equals = [2] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "NaN or infinite float index"
when = "float_index nonfinite"
reference = "MXNet 1.9.1 CPU"
theirs = "undefined cast (x86: reads element 0 in both modes)"
ours = "IndexOutOfRangeError"
evidence = "measured: pick([[1,2],[3,4],[5,6]], [nan,0,0], 1) -> [1,3,5]"
kind = "undefined"
[divergence.example]
call = "mxnet.nd.pick"
args = { data = [[1, 2, 3]], index = ["nan"] }
dtypes = { data = "float32", index = "float32" }
theirs = { equals = [1] }
ours = { raises = "IndexOutOfRangeError" }
''')


def _describe(axis: int = -1, mode: str = "clip", keepdims: bool = False) -> Description:
    """``index`` has ``data``'s shape without ``axis`` (data of rank >= 2; MXNet also takes the axis kept)."""
    op = "mxnet.pick"
    axis = check_int(op, "axis", axis)
    neg, bounds = _MODES[check_choice(op, "mode", mode, ("clip", "wrap"))]
    keepdims = check_bool(op, "keepdims", keepdims)
    pre = [Step.adapt("cast", "idx0", "index", dtype="int64", why=_CAST),
           Step.adapt("expand_dims", "idx", "idx0", axis=axis, why="one index per 1-d slice along axis")]
    c = canonical("gather_elements", data="data", indices="idx", axis=axis, negative=neg, bounds=bounds,
                  out="out" if keepdims else "y")
    post = [] if keepdims else [Step.adapt("squeeze", "out", "y", axis=axis, why="keepdims=False drops the axis")]
    need = axis + 1 if axis >= 0 else -axis
    return Description(op, {"axis": axis, "mode": mode, "keepdims": keepdims}, ("data", "index"), c, pre=pre, post=post,
                  residuals=[_INT32],
                  layout={"index_dtypes": _INDEX, "fractional": 0.3, "full_index": True, "axis_len": 1,
                          "rank": (max(need, 2), max(need, 2) + 1), "to_source": _pick_args(axis)})


@dialect_op(
    "mxnet", "pick", family="gather_elements", kind="gather", versions=("1.9.1",), differentiable=("data",),
    describe=_describe, fuzz={"drops_axis": True}, variants=({}, {"mode": "wrap"}), values={"mode": ("clip", "wrap")},
)
def pick(data: Any, index: Any, axis: int = -1, mode: str = "clip", keepdims: bool = False) -> Lowering:
    """MXNet pick: one element of each 1-d slice of ``data`` along ``axis``.

    Provenance: ``mxnet.nd.pick(data, index, axis=-1, mode='clip',
    keepdims=False)``, MXNet 1.9.1 (``src/operator/tensor/broadcast_reduce_op_index.cc``).

    ``index`` has the shape of ``data`` without ``axis`` (or with ``axis`` of
    size 1); the output has that shape, or keeps ``axis`` with size 1 when
    ``keepdims``. A 1-d ``data`` takes a length-1 ``index`` and returns shape
    ``(1,)`` (MXNet has no 0-d arrays). Float indices are truncated to int32;
    ``'clip'`` (default) clamps to ``[0, s-1]`` so ``-1`` reads element 0,
    ``'wrap'`` takes ``i mod s``; there is no ``'raise'`` and no
    ``axis=None``. Data: float16/32/64, uint8, int8, int32, int64 (no bool).

    Equivalent loop::

        for j in ndindex(index.shape):                         # index with the axis kept (size 1)
            k = int32(trunc(index[j]))
            k = min(max(k, 0), s - 1) if mode == 'clip' else k % s
            Y[j] = data[j[:axis] + (k,) + j[axis+1:]]

    Differs from ``onnx.GatherElements`` / ``torch.gather`` (one index per
    output element, negatives wrap or raise) and ``numpy.take_along_axis``
    (raises out of range).

    >>> import gatherscatter as gs
    >>> x = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    >>> gs.mxnet.pick(x, [0, 1], 0).tolist()
    [1.0, 4.0]
    >>> gs.mxnet.pick(x, [0, 1, 0], 1).tolist()
    [1.0, 4.0, 5.0]
    >>> gs.mxnet.pick(x, [1, 0, 2], axis=1, keepdims=True).tolist()
    [[2.0], [3.0], [6.0]]
    >>> gs.mxnet.pick(x, [2, -1, -2], 1, mode="wrap").tolist()
    [1.0, 4.0, 5.0]
    """
    ctx = mx_context("pick", indices="index")
    if axis is None:
        raise UnsupportedError(f"{ctx.label}: axis=None is not supported by pick yet. Must specify an axis.")
    if not isinstance(mode, str):
        raise ArgumentError(f"{ctx.label}: mode must be a string (got {mode!r})")
    if mode not in _POLICIES:
        raise UnsupportedError(f"{ctx.label}: Invalid Input: {mode!r}, valid values are: {{'clip', 'wrap'}} (mode)")
    if not isinstance(keepdims, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: keepdims must be a bool (got {keepdims!r})")
    d = mx_array(ctx, data, "data", DATA - {"bool"})
    i = mx_array(ctx, index, "index", INDEX)
    a = normalize_axis(ctx, axis, d.ndim)
    kept = d.shape[:a] + (1,) + d.shape[a + 1 :]
    dropped = (d.shape[:a] + d.shape[a + 1 :]) or (1,)
    if i.shape not in (dropped, kept):
        raise ShapeError(
            f"{ctx.label}: Shape inconsistent, Provided = {list(i.shape)}, inferred shape={list(dropped)}: index "
            f"must have the shape of data {list(d.shape)} without axis {a}"
        )
    idx = truncate(ctx, i, "index", bits=32, what="int32").reshape(kept)
    out_shape = kept if keepdims else dropped
    return Lowering(
        "gather", d, idx, IndexSpec(axis=a, batch=a, elementwise=True), _POLICIES[mode], ctx,
        post=lambda y: y.reshape(out_shape),
    )
