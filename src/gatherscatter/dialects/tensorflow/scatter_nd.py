"""TensorFlow ``tf.scatter_nd`` (op ``ScatterNd``), TF 2.21, on CPU, GPU (documented) and XLA."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import IndexSpec, as_array, check_allocatable, to_int
from ...errors import DTypeError, ShapeError
from .._common import data_array
from .._record import Description, Step, canonical
from .._registry import Lowering, divergence_table
from ._common import (
    DATA_ALL,
    DEVICES,
    INDEX_I32_I64,
    POLICIES,
    check_data,
    check_int_overflow,
    index_array,
    is_string,
    parse_bad_indices_policy,
    parse_device,
    tf_context,
    tf_op,
    valid_empty_output,
)
from ._describe import _I32_I64, _mode, _scatter_kw
from ._scatter import check_bad_tuples, check_scatter_shapes, string_sum_result, zeros_like_updates

divergence_table("tensorflow.scatter_nd", r'''
[[divergence]]
case = "negative or out-of-range index tuple"
when = "negative out_of_range"
reference = "TF 2.21 CPU / GPU / XLA"
theirs = """
bad_indices_policy ''/'DEFAULT': CPU raises, GPU drops the update; 'ERROR': CPU raises (GPU unsupported); \
'IGNORE': drops everywhere; XLA always drops"""
ours = "the same, selected by device= and bad_indices_policy="
evidence = """
docs/behavior-matrix.md#t6-5 and docs/behavior-matrix.md#t6-10 ('tf.scatter_nd OOB idx [[3]] XLA jit: [0,0,0]'); \
docs/semantics.md#s6-2"""
kind = "device"
[divergence.example]
call = "tensorflow.scatter_nd"
device = "xla"
args = { indices = [[3], [-1], [1]], updates = [5, 6, 7], shape = [3] }
dtypes = { indices = "int32", updates = "int32" }
theirs = { equals = [0, 7, 0] }
ours = "same"

[[divergence]]
case = "Python lists as updates"
when = "dtype"
reference = "TF 2.21 tf.convert_to_tensor"
theirs = "a list of ints becomes int32, a list of floats float32"
ours = "np.asarray: int64 / float64 (every gatherscatter op reads inputs with NumPy)"
evidence = "tf.convert_to_tensor defaults"
kind = "choice"
[divergence.example]
call = "tensorflow.scatter_nd"
args = { indices = [[0]], updates = [5], shape = [2] }
dtypes = { indices = "int32" }
theirs = { dtype = "int32" }
ours = { dtype = "int64" }

[[divergence]]
case = "device='xla', k = 0 (empty index tuples) and an output of exactly one element"
when = "device empty"
reference = "TF 2.21 XLA CPU"
theirs = """
only the LAST update is applied (scatter_nd(zeros((3, 0)), [[[-5]], [[2]], [[7]]], [1, 1]) gives [[7]], not \
[[4]]); with more output elements, or k >= 1, every update is"""
ours = "every update is applied, as the op is documented (and as XLA does for larger outputs)"
evidence = "observed with tf.function(jit_compile=True), TF 2.21"
kind = "undefined"
[divergence.example]
call = "tensorflow.scatter_nd"
device = "xla"
args = { indices = [[], [], []], updates = [[[-5]], [[2]], [[7]]], shape = [1, 1] }
dtypes = { indices = "int32", updates = "int32" }
theirs = { equals = [[7]] }
ours = { equals = [[4]] }
''')



def _parse_shape(ctx: Any, shape: Any) -> np.ndarray[Any, Any]:
    s = as_array(ctx, shape, "shape")
    if s.size == 0 and s.dtype.kind == "f" and not isinstance(shape, np.ndarray):
        s = s.astype(np.int64)
    if s.dtype.kind not in "iu":
        raise DTypeError(
            f"{ctx.label}: shape must hold integers (TF converts it with the indices dtype); got dtype "
            f"{s.dtype} ({shape!r})"
        )
    return s


def _describe(device: str = "cpu", bad_indices_policy: str = "") -> Description:
    op = "tensorflow.scatter_nd"
    mode = _mode(op, device, bad_indices_policy)
    c = canonical("scatter_nd", data="zeros", indices="indices", updates="updates", reduction="add",
                  **_scatter_kw(mode))
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="tf.scatter_nd adds into a zero tensor "
                                                                "(docs/semantics.md#e5)")]
    attrs: dict[str, Any] = {"device": device}
    if bad_indices_policy:
        attrs["bad_indices_policy"] = bad_indices_policy
    return Description(op, attrs, ("indices", "updates", "shape"), c, pre=pre, roles={"data": "shape"},
                  layout={"index_dtypes": _I32_I64, "index_ndim": (1, 2)})



def _cve_seeds() -> list[tuple[str, dict[str, Any], str]]:
    """Known crash inputs of the TensorFlow op (CVEs): every one must be an error here (the fuzzer's seeds)."""
    f32 = np.float32
    return [
        ("CVE-2022-35939 ScatterNd out-of-range write",
         {"indices": np.array([[5]], np.int64), "updates": np.ones(1, f32), "shape": [3]}, "error"),
        ("CVE-2022-35939 ScatterNd 2**63-1",
         {"indices": np.array([[2**63 - 1]], np.int64), "updates": np.ones(1, f32), "shape": [3]}, "error"),
        ("CVE-2021-37655 indices/updates prefix mismatch",
         {"indices": np.zeros((3, 1), np.int64), "updates": np.ones((2,), f32), "shape": [4]}, "error"),
        ("shape product overflows int64",
         {"indices": np.zeros((1, 2), np.int64), "updates": np.ones(1, f32), "shape": [2**62, 2**62]}, "error"),
    ]


@tf_op("scatter_nd", family="scatter_nd", kind="scatter", differentiable=("updates",), describe=_describe,
       fuzz={"nonempty_tuples": True, "seeds": _cve_seeds}, values={"device": DEVICES, "bad_indices_policy": POLICIES},
       variants=({}, {"device": "gpu"}))
def scatter_nd(
    indices: Any, updates: Any, shape: Any, device: str = "cpu", *, bad_indices_policy: str = ""
) -> Lowering:
    """TensorFlow ``tf.scatter_nd`` (op ``ScatterNd``): sum ``updates`` into zeros of ``shape``.

    Provenance: ``tf.scatter_nd(indices, updates, shape, bad_indices_policy='',
    name=None)``, TensorFlow 2.21 (eager CPU and XLA CPU observed). It is
    ``tf.tensor_scatter_nd_add(tf.zeros(shape, updates.dtype), indices, updates)``:
    duplicate index tuples are **summed** (booleans are OR-ed, strings are
    concatenated in row-major order of the updates, as TF does).

    ``indices`` has the index tuples on its last axis (``k = indices.shape[-1]
    <= len(shape)``) and at least 2 axes on CPU/GPU;
    ``updates.shape == indices.shape[:-1] + shape[k:]``. Indices are int32 or
    int64; the output dtype is the updates' dtype. On CPU/GPU ``k = 0`` or an
    empty output with non-empty updates is an error; XLA accepts ``k = 0``
    (every update is added to the whole output).

    Bad indices: ``bad_indices_policy`` ``''``/``'DEFAULT'`` raise on CPU and
    drop on GPU, ``'ERROR'`` raises (CPU only), ``'IGNORE'`` drops everywhere;
    ``device='xla'`` always drops.

    Equivalent loop::

        Y = zeros(shape, updates.dtype)
        for i in ndindex(indices.shape[:-1]):                 # row-major order
            Y[tuple(indices[i])] += updates[i]

    Differs from ONNX ``ScatterND`` (no zeros start, duplicates unspecified
    without ``reduction='add'``; tf2onnx drops the reduction: docs/semantics.md#e5)
    and from MXNet ``scatter_nd`` (last write wins there).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8]).tolist()
    [0, 11, 0, 10, 9, 0, 0, 12]
    >>> gs.tensorflow.scatter_nd([[1], [1], [1]], [10, 20, 30], [4]).tolist()
    [0, 60, 0, 0]
    """
    dev = parse_device("scatter_nd", device)
    ctx = tf_context("scatter_nd", dev, data="output")
    mode = parse_bad_indices_policy(ctx, bad_indices_policy, dev)
    i = index_array(ctx, indices, INDEX_I32_I64, dev)
    u = data_array(ctx, updates, "updates")
    check_data(ctx, u, DATA_ALL, dev, name="updates")
    s = _parse_shape(ctx, shape)
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: Indices shape must have rank at least one. Found: a 0-d array")
    if u.ndim < 1:
        raise ShapeError(f"{ctx.label}: Updates shape must have rank at least one. Found: a 0-d array")
    dims = tuple(to_int(ctx, "shape", int(v)) for v in s.reshape(-1))
    for d in dims:
        if d < 0:
            raise ShapeError(f"{ctx.label}: shape {dims}: Dimension {d} must be >= 0")
    if dev != "xla" and not valid_empty_output(len(dims), i.size, u.size):
        raise ShapeError(
            f"{ctx.label}: Indices and updates specified for empty output shape (indices shape "
            f"{list(i.shape)}, updates shape {list(u.shape)}, shape {list(dims)}; TF on CPU needs both "
            f"empty or both non-empty)"
        )
    if s.ndim != 1:
        raise ShapeError(f"{ctx.label}: Shape must be a vector; got shape {s.tolist()!r}")
    if not dims:
        raise ShapeError(f"{ctx.label}: Output must be at least 1-D, got shape: []")
    check_int_overflow(ctx, dims, "shape")
    check_allocatable(ctx, dims, u.dtype, "shape")  # more bytes than NumPy can describe: TF runs out of memory
    check_scatter_shapes(ctx, i, u, dims, dev, what="shape")
    spec = IndexSpec(axis=0, depth=i.shape[-1], vector=True)
    out = zeros_like_updates(u, dims)
    policy = check_bad_tuples(ctx, i, dims, mode, "add")
    if is_string(u):
        res = string_sum_result(out, i, u, dims, policy)
        if res is not None:
            return Lowering("scatter", out, i, spec, policy.with_(reduction="none"), ctx, updates=u, result=res)
        policy = policy.with_(reduction="none")
    return Lowering("scatter", out, i, spec, policy, ctx, updates=u)
