"""OpenVINO ``GatherND`` (versions 5, 8)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import STRICT, WRAPPING
from ...core.shape import IndexSpec, prod, to_int
from ...errors import AxisError, ShapeError, UnsupportedError
from .._common import check_batch
from .._record import Description, Step, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import ANY_INT, nd_inputs, ov_context, ov_version, plugin_divergences
from ._describe import _INT, openvino_op

divergence_table("openvino.GatherND", r'''
[[divergence]]
case = "index outside [-s, s-1] (GatherND-8) or outside [0, s-1] (GatherND-5)"
when = "out_of_range"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = """
no check: returns uninitialised memory (1.4e-44, -6.2e34, ...) or reads the next row for an out-of-range column"""
ours = "IndexOutOfRangeError"
evidence = "docs/behavior-matrix.md#surprise-1 and docs/behavior-matrix.md#t6-3; DESIGN.md OpenVINO rules"
kind = "undefined"
not_reproducible = "uninitialised memory: no stable value to assert"

[[divergence]]
case = "negative index in [-s, -1]"
when = "negative"
reference = "OpenVINO 2026.4 CPU plugin and constant folding"
theirs = "wrap it (the GatherND-8 code path); the GatherND-5 spec requires [0, s-1]"
ours = "IndexOutOfRangeError (use version=8 for negative indices)"
evidence = "gather-nd-5.rst; docs/semantics.md#s4-3 ('spec [0, s-1]; observed CPU plugin wraps')"
kind = "spec"
versions = "5"
[divergence.example]
call = "openvino:GatherND"
opset = 5
args = { data = [1, 2, 3], indices = [[-1]] }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [3] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "batch dims of data and indices that differ but are broadcastable (one of them 1)"
when = "always"
reference = "OpenVINO specs of GatherND-5 and -8"
theirs = """
the spec calls them broadcastable ('either equal or one of them equals 1'); OpenVINO 2026.4 shape inference \
rejects them (DimType::merge fails) on every path"""
ours = "ShapeError: batch dims must be equal, as the runtime requires"
evidence = """
gather-nd-5.rst, gather-nd-8.rst; checked on OpenVINO 2026.4.1 (data (1,2,3) with indices (2,1,1) and data (2,2,3) \
with indices (1,1,1), batch_dims=1)"""
kind = "spec"
[divergence.example]
call = "openvino:GatherND"
opset = 8
args = { data = [[[1, 2, 3], [4, 5, 6]]], indices = [[[0]], [[1]]], batch_dims = 1 }
dtypes = { data = "float32", indices = "int64" }
theirs = { raises = "Exception" }
ours = { raises = "ShapeError" }

[[divergence]]
case = "indices.shape[-1] == 0 (empty index tuples)"
when = "empty"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "returns uninitialised memory"
ours = """
each empty tuple selects the whole data[batch] block, as the spec's shape formula and formula say (TF gather_nd \
does the same)"""
evidence = "checked on OpenVINO 2026.4.1 (data (2,2), indices (3,0)); docs/semantics.md#s4-2"
kind = "undefined"
not_reproducible = "uninitialised memory: no stable value to assert"
''')
plugin_divergences("openvino.GatherND")


def _describe(batch_dims: int = 0, version: int = 8) -> Description:
    op = "openvino.GatherND"
    b = check_int(op, "batch_dims", batch_dims)
    v = check_choice(op, "version", version, (5, 8))
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims must be >= 0 (got {b})")
    attrs = {"batch_dims": b, "version": v}
    layout: dict[str, Any] = {"index_dtypes": _INT + ("int16",), "rank": (b + 1, b + 2)}
    if v == 8:
        return Description(op, attrs, ("data", "indices"), canonical("gather_nd", batch_dims=b), layout=layout)
    if b <= 1:
        return Description(op, attrs, ("data", "indices"), canonical("gather_nd", batch_dims=b, negative="raise"),
                      layout=layout)
    c = canonical("gather_nd", batch_dims=b, negative="raise", out="y")
    post = [Step.adapt("merge_leading", "out", "y", count=b,
                       why="GatherND-5 flattens the batch dims into one leading dim (docs/semantics.md#pitfall-7)")]
    return Description(op, attrs, ("data", "indices"), c, post=post, layout=layout)


@openvino_op("GatherND", family="gather_nd", versions=(5, 8),
             adds={8: "batch dims kept in the output; negative indices"}, differentiable=("data",), describe=_describe,
             variants=({"version": 5}, {"version": 8}, {"batch_dims": 1}))
def GatherND(data: Any, indices: Any, batch_dims: int = 0, version: int = 8) -> Lowering:
    """OpenVINO GatherND: gather slices addressed by index tuples on the last axis of ``indices``.

    Versions: GatherND-5 (opset5 to opset7; batch dims flattened into one leading
    output dim), GatherND-8 (opset8 to opset17; batch dims kept; negative indices
    since OpenVINO 2025.3).

    With ``k = indices.shape[-1]`` and ``b = batch_dims`` (``0 <= b < min(r, q)``,
    ``k <= r - b``; ``data.shape[:b] == indices.shape[:b]``):
    GatherND-8 ``Y.shape = indices.shape[:-1] + data.shape[b+k:]``;
    GatherND-5 ``Y.shape = [prod(indices.shape[:b])] + indices.shape[b:-1] + data.shape[b+k:]``
    when ``b > 0``. Indices may have any integer type; GatherND-8 takes
    ``[-s, s-1]``, GatherND-5 ``[0, s-1]``; anything else raises (the CPU plugin
    reads garbage memory there).

    Equivalent loop::

        for i in ndindex(indices.shape[:-1]):
            t = tuple(x + s_j if x < 0 else x for j, x in enumerate(indices[i]))   # GatherND-8
            Y[i] = data[i[:b] + t]                          # GatherND-5 then reshapes the batch dims

    Differs from ONNX GatherND (int64 indices only, ``k >= 1``) and from
    ``tf.gather_nd`` (no negatives); the spec's "broadcastable" batch dims are
    rejected, as OpenVINO 2026.4 does.

    >>> import gatherscatter as gs
    >>> gs.openvino.GatherND([[1, 2], [3, 4]], [[0, 0], [1, 0]]).tolist()
    [1, 3]
    >>> data = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]
    >>> gs.openvino.GatherND(data, [[[[1]], [[0]], [[2]]], [[[0]], [[2]], [[2]]]], batch_dims=2, version=5).tolist()
    [[2], [5], [11], [13], [19], [23]]
    """
    v = ov_version("GatherND", version)
    ctx = ov_context("GatherND", v)
    b = to_int(ctx, "batch_dims", batch_dims)
    d, i = nd_inputs(ctx, data, indices, ANY_INT)
    r, q = d.ndim, i.ndim
    if not 0 <= b < min(r, q):
        raise AxisError(
            f"{ctx.label}: batch_dims must be in [0, min(rank(data), rank(indices))) = [0, {min(r, q)}); "
            f"got batch_dims={b} (data shape {list(d.shape)}, indices shape {list(i.shape)})"
        )
    k = i.shape[-1]
    if k + b > r:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] + batch_dims must not exceed rank(data) = {r}; got "
            f"indices.shape[-1] = {k} and batch_dims={b} (indices shape {list(i.shape)}, data shape "
            f"{list(d.shape)})"
        )
    check_batch(ctx, d, i, b, " (the spec calls them broadcastable, but OpenVINO rejects dims that differ)")
    spec = IndexSpec(axis=b, depth=k, batch=b, vector=True)
    if v == 5:
        post = None
        if b > 1:
            shape = (prod(i.shape[:b]), *i.shape[b:-1], *d.shape[b + k :])

            def post(out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
                return out.reshape(shape)

        return Lowering("gather", d, i, spec, STRICT, ctx, post=post)
    return Lowering("gather", d, i, spec, WRAPPING, ctx)
