"""TensorFlow ``tf.gather_nd`` (op ``GatherNd``), TF 2.21, on CPU, GPU (documented) and XLA."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import IndexSpec, gather_shape, prod, to_int
from ...errors import AxisError, ShapeError, UnsupportedError
from .._record import Description, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import (
    DEVICES,
    GATHER_CLIP,
    GATHER_RAISE,
    GATHER_ZERO,
    POLICIES,
    gather_inputs,
    parse_bad_indices_policy,
    parse_device,
    shape_text,
    tf_context,
    tf_op,
)
from ._describe import _I16_I32_I64, _gather_kw, _mode

divergence_table("tensorflow.gather_nd", r'''
[[divergence]]
case = "negative or out-of-range index tuple"
when = "negative out_of_range"
reference = "TF 2.21 CPU / GPU / XLA"
theirs = """
bad_indices_policy ''/'DEFAULT': CPU raises, GPU returns 0; 'ERROR': CPU raises (GPU unsupported); 'IGNORE': 0 \
everywhere; XLA clamps every component into [0, s-1] unless 'IGNORE'"""
ours = "the same, selected by device= and bad_indices_policy="
evidence = """
docs/behavior-matrix.md#t6-3; docs/semantics.md#s4-3; tf.raw_ops.GatherNd docstring (bad_indices_policy)"""
kind = "device"
[divergence.example]
call = "tensorflow.gather_nd"
device = "xla"
args = { params = [10, 20, 30], indices = [[-1], [5]] }
dtypes = { params = "int32", indices = "int32" }
theirs = { equals = [10, 30] }
ours = "same"

[[divergence]]
case = "batch_dims > 0 with batch dims of params and indices that differ but have the same product"
when = "always"
reference = "TF 2.21 (tf.gather_nd Python wrapper)"
theirs = """
reshapes indices to params' batch size and silently pairs the wrong batches (params [2,3,4], indices [3,2,1], \
batch_dims=2 runs); other mismatches fail inside a Reshape"""
ours = "ShapeError: the first batch_dims dims of params and indices must be equal"
evidence = "observed, TF 2.21 eager and XLA; array_ops.batch_gather_nd"
kind = "undefined"
[divergence.example]
call = "tensorflow.gather_nd"
kwargs = { batch_dims = 2 }
dtypes = { params = "int32", indices = "int32" }
theirs = { equals = [[0, 4, 8], [12, 16, 20]] }
ours = { raises = "ShapeError" }
[divergence.example.args]
params = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]
indices = [[[0], [0]], [[0], [0]], [[0], [0]]]

[[divergence]]
case = "device='xla' with an empty params and at least one index tuple"
when = "device empty"
reference = "TF 2.21 XLA CPU"
theirs = """
zeros of a wrong shape (params [0,3], indices [4,1] gives shape [3]) or an XLA internal error (with \
bad_indices_policy='IGNORE')"""
ours = "zeros of the documented shape indices.shape[:-1] + params.shape[batch_dims+k:]"
evidence = "observed with tf.function(jit_compile=True), TF 2.21"
kind = "undefined"
[divergence.example]
call = "tensorflow.gather_nd"
device = "xla"
args = { params = [], indices = [[0], [0]] }
dtypes = { params = "float32", indices = "int32" }
theirs = { equals = 0 }
ours = { equals = [0, 0] }

[[divergence]]
case = "device='xla' with bad_indices_policy='IGNORE' and slices of rank >= 2, k = 0 or no index tuple"
when = "device empty"
reference = "TF 2.21 XLA CPU"
theirs = """
fails to compile ('Indices rank must be equal to output rank (with channel dimension) or 1 less'); with k = 0 it \
can abort the whole process"""
ours = "the documented result: 0 for the slices of bad index tuples"
evidence = """
observed with tf.function(jit_compile=True), TF 2.21: gather_nd(arange(24.).reshape(2, 3, 4), [[1]], \
bad_indices_policy='IGNORE')"""
kind = "undefined"
[divergence.example]
call = "tensorflow.gather_nd"
device = "xla"
args = { params = [[[1, 1], [1, 1]]], indices = [[0], [5]] }
kwargs = { bad_indices_policy = "IGNORE" }
dtypes = { params = "float32", indices = "int32" }
theirs = { raises = "InvalidArgumentError" }
ours = { equals = [[[1, 1], [1, 1]], [[0, 0], [0, 0]]] }
''')



def _describe(batch_dims: int = 0, device: str = "cpu", bad_indices_policy: str = "") -> Description:
    op = "tensorflow.gather_nd"
    b = check_int(op, "batch_dims", batch_dims)
    mode = _mode(op, device, bad_indices_policy)
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims must be >= 0 (got {b})")
    kw, res = _gather_kw(mode, "params is empty")
    c = canonical("gather_nd", data="params", batch_dims=b, **kw)
    attrs: dict[str, Any] = {"batch_dims": b, "device": device}
    if bad_indices_policy:
        attrs["bad_indices_policy"] = bad_indices_policy
    return Description(op, attrs, ("params", "indices"), c, residuals=res,
                  layout={"index_dtypes": _I16_I32_I64, "rank": (b + 1, b + 2)})



def _cve_seeds() -> list[tuple[str, dict[str, Any], str]]:
    """Known crash inputs of the TensorFlow op (CVEs): every one must be an error here (the fuzzer's seeds)."""
    f32 = np.float32
    return [
        ("CVE-2021-37687 negative index in GatherNd",
         {"params": np.arange(6, dtype=f32).reshape(2, 3), "indices": np.array([[-1, 0]], np.int64)}, "error"),
        ("CVE-2021-37687 -2**63 in GatherNd",
         {"params": np.arange(6, dtype=f32).reshape(2, 3), "indices": np.array([[-(2**63), 0]], np.int64)}, "error"),
        ("CVE-2021-37654 batch_dims > rank",
         {"params": np.ones((2, 2), f32), "indices": np.zeros((2, 1), np.int64), "batch_dims": 3}, "error"),
        ("CVE-2021-29589 empty params, non-empty indices",
         {"params": np.zeros((0, 3), f32), "indices": np.zeros((2, 1), np.int64)}, "error"),
    ]


@tf_op("gather_nd", family="gather_nd", kind="gather", differentiable=("params",), describe=_describe,
       fuzz={"seeds": _cve_seeds}, variants=({}, {"batch_dims": 1}, {"device": "gpu"}),
       values={"device": DEVICES, "bad_indices_policy": POLICIES})
def gather_nd(
    params: Any, indices: Any, batch_dims: int = 0, device: str = "cpu", *, bad_indices_policy: str = ""
) -> Lowering:
    """TensorFlow ``tf.gather_nd`` (op ``GatherNd``): gather slices addressed by index tuples.

    Provenance: ``tf.gather_nd(params, indices, batch_dims=0, name=None,
    bad_indices_policy='')``, TensorFlow 2.21 (eager CPU and XLA CPU observed).

    The index tuples lie on the last axis of ``indices`` (``k = indices.shape[-1]``,
    ``0 <= k <= rank(params) - batch_dims``; ``k = 0`` selects whole slices).
    ``Y.shape = indices.shape[:-1] + params.shape[batch_dims + k:]``; the first
    ``batch_dims`` dims of ``params`` and ``indices`` are shared
    (``0 <= batch_dims < min(rank(params), rank(indices))``). Indices are
    int16, int32 or int64. ``params`` may hold strings (not under XLA).

    Bad indices: ``bad_indices_policy`` ``''``/``'DEFAULT'`` raise on CPU and
    give 0 on GPU, ``'ERROR'`` raises (CPU only), ``'IGNORE'`` gives 0 for the
    whole slice on every device. ``device='xla'`` clamps every component into
    ``[0, s-1]`` (``-1`` reads 0) unless the policy is ``'IGNORE'``. On CPU and
    GPU an empty ``params`` with at least one index tuple is an error.

    Data may also be float8 (``ml_dtypes`` ``float8_e5m2`` /
    ``float8_e4m3fn``) on ``'cpu'``, which TF's CPU kernel takes.

    Equivalent loop (``b = batch_dims``)::

        for β, i in ndindex(I.shape[:b], I.shape[b:-1]):
            Y[β + i] = params[β + tuple(I[β + i])]            # a slice when k < rank - b

    Differs from ONNX ``GatherND`` (negative indices wrap there, ``k >= 1``)
    and from MXNet ``gather_nd`` (tuples on the first axis).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.gather_nd([["a", "b"], ["c", "d"]], [[0, 0], [1, 1]]).tolist()
    ['a', 'd']
    >>> gs.tensorflow.gather_nd([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[1], [0]], batch_dims=1).tolist()
    [[2, 3], [4, 5]]
    >>> gs.tensorflow.gather_nd([1, 2, 3], [[0], [5]], bad_indices_policy="IGNORE").tolist()
    [1, 0]
    """
    dev = parse_device("gather_nd", device)
    ctx = tf_context(
        "gather_nd", dev, tuple_shape="param shape",
        note="device='gpu' returns 0, device='xla' clamps; bad_indices_policy='IGNORE' zeroes them on every device",
    )
    mode = parse_bad_indices_policy(ctx, bad_indices_policy, dev)
    p, i = gather_inputs(ctx, params, indices, dev)
    b = to_int(ctx, "batch_dims", batch_dims)
    r, q = p.ndim, i.ndim
    if b < 0:
        raise AxisError(f"{ctx.label}: tf.gather_nd does not allow negative batch_dims (got {b})")
    if b > 0:
        if b >= q:
            raise AxisError(f"{ctx.label}: Argument `batch_dims` = {b} must be less than rank(`indices`) = {q}")
        if b >= r:
            raise AxisError(f"{ctx.label}: Argument `batch_dims` = {b} must be less than rank(`params`) = {r}")
    if r < 1:
        raise ShapeError(f"{ctx.label}: params must be at least a vector; got a 0-d array")
    if q < 1:
        raise ShapeError(f"{ctx.label}: indices must be at least a vector; got a 0-d array")
    k = i.shape[-1]
    if b + k > r:
        raise ShapeError(
            f"{ctx.label}: index innermost dimension length must be <= params rank; saw: {k} vs. {r - b} "
            f"(indices shape {list(i.shape)}, params shape {list(p.shape)}, batch_dims={b})"
        )
    if tuple(i.shape[:b]) != tuple(p.shape[:b]):
        raise ShapeError(
            f"{ctx.label}: the first batch_dims={b} dims of params and indices must be equal; got params "
            f"shape {list(p.shape)} and indices shape {list(i.shape)}"
        )
    spec = IndexSpec(axis=b, depth=k, batch=b, vector=True)
    if prod(i.shape[:-1]) > 0 and p.size == 0:
        if dev != "xla":
            raise ShapeError(
                f"{ctx.label}: Requested more than 0 entries, but params is empty. Params shape: "
                f"{shape_text(p.shape)} (indices shape {list(i.shape)})"
            )
        out = np.zeros(gather_shape(p.shape, i.shape, spec), p.dtype)
        return Lowering("gather", p, i, spec, GATHER_ZERO, ctx, result=out)
    if mode == "raise":
        return Lowering("gather", p, i, spec, GATHER_RAISE, ctx)  # the core words TF's error from ctx
    if mode == "ignore" or dev == "gpu":
        return Lowering("gather", p, i, spec, GATHER_ZERO, ctx)
    return Lowering("gather", p, i, spec, GATHER_CLIP, ctx)
