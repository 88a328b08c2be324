"""TensorFlow ``tf.gather`` (op ``GatherV2``), TF 2.21, on CPU, GPU (documented) and XLA."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import IndexSpec, gather_shape, prod, to_int
from ...errors import AxisError, ShapeError, UnsupportedError
from .._record import Description, Residual, canonical, check_int
from .._registry import Lowering, divergence_table
from ._common import (
    DEVICES,
    GATHER_CLIP,
    GATHER_RAISE,
    GATHER_ZERO,
    gather_inputs,
    parse_device,
    tf_context,
    tf_op,
)
from ._describe import _I16_I32_I64, _gather_kw, _mode

divergence_table("tensorflow.gather", r'''
[[divergence]]
case = "negative or out-of-range index"
when = "negative out_of_range"
reference = "TF 2.21 CPU / GPU / XLA"
theirs = "CPU raises, GPU returns 0, XLA (jit_compile) clamps into [0, s-1] so -1 reads element 0"
ours = "device='cpu' (default) raises IndexOutOfRangeError; device='gpu' returns 0; device='xla' clamps"
evidence = """
docs/behavior-matrix.md#surprise-3 and docs/behavior-matrix.md#t6-1; docs/semantics.md#s2-3, \
docs/semantics.md#pitfall-4; tensorflow/tensorflow#3638, #12608"""
kind = "device"
[divergence.example]
call = "tensorflow.gather"
device = "xla"
args = { params = [10, 20, 30], indices = [-1] }
dtypes = { params = "int32", indices = "int32" }
theirs = { equals = [10] }
ours = "same"

[[divergence]]
case = "device='xla', batch_dims > 0 and int64 indices holding negative values"
when = "device negative"
reference = "TF 2.21 XLA CPU"
theirs = "a negative index reads the LAST element (s-1), not element 0 as with int16/int32 indices or batch_dims=0"
ours = """
reproduced: negative int64 indices become s-1 before clamping (Python int lists are read as int64; TF reads them \
as int32 and clamps -1 to 0)"""
evidence = """
observed with tf.function(jit_compile=True), TF 2.21: gather(arange(24).reshape(2,3,4), int64 [[-1,0],[1,2]], \
axis=2, batch_dims=1)[0,:,0] = [3,7,11]; int32 gives [0,4,8]"""
kind = "device"
[divergence.example]
call = "tensorflow.gather"
device = "xla"
args = { params = [[[0, 1, 2, 3], [4, 5, 6, 7]]], indices = [[-1, 0]] }
kwargs = { axis = 2, batch_dims = 1 }
dtypes = { params = "int32", indices = "int64" }
theirs = { equals = [[[3, 0], [7, 4]]] }
ours = "same"

[[divergence]]
case = "device='xla' and an indexed axis of size 0 with non-empty indices"
when = "device empty"
reference = "TF 2.21 XLA CPU"
theirs = """
a zero tensor of the WRONG shape (params.shape without the axis, e.g. [3] for params [0,3] and indices [4]); the \
GatherV2 api_def says TPU returns zeros when a params dim is 0"""
ours = """
zeros of the documented output shape params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]"""
evidence = "observed with tf.function(jit_compile=True), TF 2.21; api_def_GatherV2"
kind = "undefined"
[divergence.example]
call = "tensorflow.gather"
device = "xla"
args = { params = [], indices = [0, 0] }
dtypes = { params = "float32", indices = "int32" }
theirs = { equals = 0 }
ours = { equals = [0, 0] }

[[divergence]]
case = "device='xla' with batch dims of params and indices that differ"
when = "device"
reference = "TF 2.21 XLA CPU"
theirs = """
no check: params [3,4], indices [[0],[1]], axis=1, batch_dims=1 returns [[0],[5]] (eager CPU raises \
'params.shape[0]: 3 should be equal to indices.shape[0]: 2')"""
ours = "ShapeError on every device, as eager CPU"
evidence = "observed with tf.function(jit_compile=True), TF 2.21"
kind = "undefined"
[divergence.example]
call = "tensorflow.gather"
device = "xla"
args = { params = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], indices = [[0], [1]] }
kwargs = { axis = 1, batch_dims = 1 }
dtypes = { params = "int32", indices = "int32" }
theirs = { equals = [[0], [5]] }
ours = { raises = "ShapeError" }

[[divergence]]
case = "device='gpu'"
when = "device"
reference = "TF GPU kernels"
theirs = "documented: 'On GPU, if an out of bound index is found, a 0 is stored in the corresponding output value'"
ours = "zero fill for negative and out-of-range indices; never checked on a real GPU here"
evidence = "tf.gather docstring; docs/semantics.md#s2-3"
kind = "device"
not_reproducible = "needs a GPU"
''')


def _describe(axis: int | None = None, batch_dims: int = 0, device: str = "cpu") -> Description:
    op = "tensorflow.gather"
    axis = check_int(op, "axis", axis, optional=True)
    b = check_int(op, "batch_dims", batch_dims)
    mode = _mode(op, device, "")
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims={b} counts from the end of indices, whose rank a "
                               "translation does not know; give the non-negative batch_dims")
    a = b if axis is None else axis
    if a == 0:
        b = 0  # tf.gather drops batch_dims when axis is the constant 0
    if a < 0 and b:
        raise UnsupportedError(f"translate {op}: a negative axis ({a}) with batch_dims={b} needs the rank of params "
                               "to check batch_dims <= axis; give the non-negative axis")
    kw, res = _gather_kw(mode, "the indexed axis has size 0")
    if mode == "xla" and b > 0:
        res.append(Residual("negative", "reads element s-1 for a negative int64 index when batch_dims > 0 (XLA)",
                            "clamps it to element 0"))
    c = canonical("gather", data="params", axis=a, batch_dims=b, **kw)
    return Description(op, {"axis": axis, "batch_dims": batch_dims, "device": device}, ("params", "indices"), c,
                  residuals=res, layout={"index_dtypes": _I16_I32_I64})


_PROBE: tuple[dict[str, Any], ...] = ({"axis": 1}, {"axis": 1, "batch_dims": 1}, {"axis": 2, "batch_dims": 1},
    {"axis": 0, "device": "gpu"}, {"axis": 0, "device": "xla"})



def _cve_seeds() -> list[tuple[str, dict[str, Any], str]]:
    """Known crash inputs of the TensorFlow op (CVEs): every one must be an error here (the fuzzer's seeds)."""
    f32 = np.float32
    return [
        ("CVE-2021-37654 batch_dims > rank (gather)",
         {"params": np.ones((2, 2), f32), "indices": np.zeros((2, 1), np.int64), "batch_dims": 5}, "error"),
        ("CVE-2021-29589 empty params (gather)",
         {"params": np.zeros((0,), f32), "indices": np.array([0], np.int64)}, "error"),
        ("negative index on CPU", {"params": np.arange(3, dtype=f32), "indices": np.array([-1])}, "error"),
    ]


@tf_op("gather", family="gather", kind="gather", differentiable=("params",), describe=_describe,
       fuzz={"negative": False, "seeds": _cve_seeds}, variants=_PROBE, values={"device": DEVICES})
def gather(
    params: Any, indices: Any, axis: int | None = None, batch_dims: int | None = 0, device: str = "cpu"
) -> Lowering:
    """TensorFlow ``tf.gather`` (op ``GatherV2``): take slices of ``params`` along ``axis``.

    Provenance: ``tf.gather(params, indices, validate_indices=None, axis=None,
    batch_dims=0, name=None)``, TensorFlow 2.21, reproduced on eager CPU and
    XLA CPU; ``validate_indices`` (a deprecated no-op) and ``name`` are not taken.

    ``axis=None`` means ``axis = batch_dims`` exactly as TF passes it on, so a
    negative ``batch_dims`` becomes a negative *axis*, counted from the end of
    ``params``; ``batch_dims < 0`` itself counts from the end of ``indices``.
    An ``axis`` equal to 0 makes TF's Python wrapper drop ``batch_dims``
    altogether (it calls ``GatherV2`` without it): reproduced. Otherwise
    ``batch_dims <= axis``, ``batch_dims <= rank(indices)`` and the first
    ``batch_dims`` dims of ``params`` and ``indices`` are equal.
    ``Y.shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]``;
    a 0-d index drops the axis. Indices are int16, int32 or int64;
    ``batch_dims=None`` reads as 0, as TF's wrapper does. Data may also be
    float8 (``ml_dtypes`` ``float8_e5m2`` / ``float8_e4m3fn``) on ``'cpu'``,
    which TF's CPU kernel takes.

    ``device``: ``'cpu'`` raises on an index outside ``[0, s)`` (TF's
    ``indices[1] = -1 is not in [0, 3)``), ``'gpu'`` returns 0 there
    (documented), ``'xla'`` clamps into ``[0, s-1]`` (``-1`` reads element 0;
    with ``batch_dims > 0`` and int64 indices a negative index reads element
    ``s-1``, as XLA does).

    Equivalent loop (``b = batch_dims``)::

        for β, p, i, r in ndindex(I.shape[:b], params.shape[b:axis], I.shape[b:], params.shape[axis+1:]):
            Y[β + p + i + r] = params[β + p + (I[β + i],) + r]

    Differs from ONNX ``Gather`` (negative indices wrap there, no
    ``batch_dims``) and from ``np.take`` (``axis=None`` flattens there).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.gather([[0, 0, 1, 0, 2], [3, 0, 0, 0, 4], [0, 5, 0, 6, 0]],
    ...                      [[2, 4], [0, 4], [1, 3]], axis=1, batch_dims=1).tolist()
    [[1, 2], [3, 4], [5, 6]]
    >>> gs.tensorflow.gather([10, 20, 30], [0, -1, 3], device="xla").tolist()
    [10, 10, 30]
    """
    dev = parse_device("gather", device)
    ctx = tf_context("gather", dev)
    p, i = gather_inputs(ctx, params, indices, dev)
    b = 0 if batch_dims is None else to_int(ctx, "batch_dims", batch_dims)  # TF reads None as 0
    a = b if axis is None else to_int(ctx, "axis", axis)
    if a == 0:
        b = 0  # tf.gather calls GatherV2 without batch_dims when axis is the constant 0
    r, q = p.ndim, i.ndim
    if r < 1:
        raise ShapeError(f"{ctx.label}: params must be at least 1 dimensional; got a 0-d array")
    if b > r:
        raise AxisError(
            f"{ctx.label}: params must have at least {b} (batch_dims) dimensions but it has shape {list(p.shape)}"
        )
    need = -a if a < 0 else a + 1
    if r < need:
        raise AxisError(
            f"{ctx.label}: axis {a} is out of range for params of rank {r}: axis must be in [{-r}, {r - 1}] "
            f"(TF: 'Shape must be at least rank {need} but is rank {r}')"
        )
    if a < 0:
        a += r
    if b != 0:
        if not -q <= b <= q:
            raise AxisError(
                f"{ctx.label}: Expected batch_dims in the range [{-q}, {q}], but got {b} (indices has rank {q})"
            )
        if b < 0:
            b += q
        if b >= r:
            raise AxisError(f"{ctx.label}: batch_dims ({b}) must be less than rank(params) ({r}).")
        if a < b:
            raise AxisError(f"{ctx.label}: batch_dims ({b}) must be less than or equal to axis ({a}).")
        for d in range(b):
            if p.shape[d] != i.shape[d]:
                raise ShapeError(
                    f"{ctx.label}: params.shape[{d}]: {p.shape[d]} should be equal to indices.shape[{d}]: "
                    f"{i.shape[d]} (the first batch_dims={b} dims are shared)"
                )
    spec = IndexSpec(axis=a, batch=b)
    s = p.shape[a]
    if dev == "cpu":
        if prod(gather_shape(p.shape, i.shape, spec)) == 0:
            # TF's CPU kernel returns an empty output without looking at the indices
            return Lowering("gather", p, i, spec, GATHER_ZERO, ctx)
        return Lowering("gather", p, i, spec, GATHER_RAISE, ctx)  # the core words TF's error from ctx
    if dev == "gpu":
        return Lowering("gather", p, i, spec, GATHER_ZERO, ctx)
    if s == 0 and i.size > 0:
        # XLA returns zeros (of a wrong shape, see the divergence above)
        out = np.zeros(gather_shape(p.shape, i.shape, spec), p.dtype)
        return Lowering("gather", p, i, spec, GATHER_ZERO, ctx, result=out)
    if b > 0 and i.dtype == np.int64 and i.size and int(i.min()) < 0:
        i = np.where(i < 0, np.int64(s - 1), i)
    return Lowering("gather", p, i, spec, GATHER_CLIP, ctx)
