"""One or more generated calls for EVERY registered op, at a chosen size.

``CASES[qualname]`` is a list of ``(case_id, make)``; ``make(rng, s)`` returns
``(args, kwargs)`` for a call whose output has about ``s * s`` elements
(``s`` is a side length: 1024 gives outputs of about 4 MB in float32). The
memory test runs them large; the thread test runs them small. Data is float32
(int32 where the op's framework takes no float32 there) and indices are int64,
with duplicates unless the op forbids them.

A test checks that every registered op has at least one case here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

import gatherscatter as gs

Args = tuple[tuple[Any, ...], dict[str, Any]]
Make = Callable[[np.random.Generator, int], Args]

CASES: dict[str, list[tuple[str, Make]]] = {}

F = np.float32


def _add(name: str, cid: str, make: Make) -> None:
    CASES.setdefault(name, []).append((cid, make))


def D(r: np.random.Generator, *shape: int, dtype: Any = None) -> np.ndarray[Any, Any]:
    """Data of ``dtype`` (default: the module's :data:`F`, which a test may switch)."""
    return r.integers(-100, 100, shape).astype(F if dtype is None else dtype)


def ix(r: np.random.Generator, hi: int, *shape: int) -> np.ndarray[Any, Any]:
    """int64 indices in ``[0, hi)`` (duplicates likely)."""
    return r.integers(0, hi, shape, dtype=np.int64)


def perm(r: np.random.Generator, n: int, *shape: int) -> np.ndarray[Any, Any]:
    """Distinct int64 indices in ``[0, n)``, ``prod(shape) <= n`` of them."""
    k = int(np.prod(shape)) if shape else 1
    return r.permutation(n)[:k].reshape(shape).astype(np.int64)


def nd_perm(r: np.random.Generator, s: int, m: int) -> np.ndarray[Any, Any]:
    """``m`` distinct index pairs into an ``(s, s)`` array, shape ``(m, 2)``."""
    flat = perm(r, s * s, m)
    return np.stack([flat // s, flat % s], axis=-1)


# ---------------------------------------------------------------- gathers (whole slices)
def _gather_cases(name: str, call: Callable[[Any, Any, int], Args]) -> None:
    """Row gather (axis 0), column gather (axis 1, P = s) and a flat 1-D gather."""
    _add(name, "axis0", lambda r, s: call(D(r, s, s), ix(r, s, s), 0))
    _add(name, "axis1", lambda r, s: call(D(r, s, s), ix(r, s, s), 1))


_gather_cases("onnx.Gather", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("openvino.Gather", lambda d, i, a: ((d, i, a), {}))
_gather_cases("tensorflow.gather", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("jax.take", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("numpy.take", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("mxnet.take", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("caffe2.Gather", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("paddle.gather", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("paddle.index_select", lambda d, i, a: ((d, i), {"axis": a}))
_gather_cases("torch.index_select", lambda d, i, a: ((d, a, i), {}))
_gather_cases("gatherscatter.take", lambda d, i, a: ((d, i), {"axis": a}))
_add("tensorflow.gather", "batch1", lambda r, s: ((D(r, s, s), ix(r, s, s, s // 4)), {"axis": 1, "batch_dims": 1}))
_add("openvino.Gather", "batch1", lambda r, s: ((D(r, s, s), ix(r, s, s, s // 4), 1), {"batch_dims": 1}))
_add("gatherscatter.take", "fill", lambda r, s: ((D(r, s, s), ix(r, s + 8, s)), {"axis": 1, "bounds": "fill"}))
_add("jax.take", "fill", lambda r, s: ((D(r, s, s), ix(r, s + 8, s)), {"axis": 1, "mode": "fill"}))
_add("caffe2.BatchGather", "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s)), {}))
for _n in ("torch.take", "paddle.take"):
    _add(_n, "flat", lambda r, s: ((D(r, s, s), ix(r, s * s, s, s)), {}))
_add("numpy.take", "flat", lambda r, s: ((D(r, s, s), ix(r, s * s, s * s)), {"axis": None}))
_add("jax.take", "flat", lambda r, s: ((D(r, s, s), ix(r, s * s, s * s)), {}))

# ---------------------------------------------------------------- gathers (elementwise)
for _n, _call in [
    ("onnx.GatherElements", lambda d, i, a: ((d, i), {"axis": a})),
    ("openvino.GatherElements", lambda d, i, a: ((d, i, a), {})),
    ("torch.gather", lambda d, i, a: ((d, a, i), {})),
    ("torch.take_along_dim", lambda d, i, a: ((d, i), {"dim": a})),
    ("jax.take_along_axis", lambda d, i, a: ((d, i, a), {})),
    ("numpy.take_along_axis", lambda d, i, a: ((d, i, a), {})),
    ("paddle.take_along_axis", lambda d, i, a: ((d, i, a), {})),
    ("gatherscatter.take_along_axis", lambda d, i, a: ((d, i, a), {})),
]:
    _add(_n, "axis0", lambda r, s, c=_call: c(D(r, s, s), ix(r, s, s, s), 0))
    _add(_n, "axis1", lambda r, s, c=_call: c(D(r, s, s), ix(r, s, s, s), 1))
_add("mxnet.pick", "axis1", lambda r, s: ((D(r, s * s, 2), ix(r, 2, s * s)), {"axis": 1}))
_add("mxnet.pick", "axis0", lambda r, s: ((D(r, 4, s * s), ix(r, 4, s * s)), {"axis": 0}))
_add("torch.take_along_dim", "flat", lambda r, s: ((D(r, s, s), ix(r, s * s, s * s)), {}))
_add("jax.take_along_axis", "fill", lambda r, s: ((D(r, s, s), ix(r, s + 8, s, s), 1), {"mode": "fill"}))

# ---------------------------------------------------------------- gathers (index tuples)
for _n in ("onnx.GatherND", "openvino.GatherND", "tensorflow.gather_nd", "paddle.gather_nd", "gatherscatter.gather_nd"):
    _add(_n, "elements", lambda r, s: ((D(r, s, s), ix(r, s, s * s, 2)), {}))
    _add(_n, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s, 1)), {}))
_add("onnx.GatherND", "batch1", lambda r, s: ((D(r, s, s, 4), ix(r, s, s, s, 1)), {"batch_dims": 1}))
_add("mxnet.gather_nd", "elements", lambda r, s: ((D(r, s, s), ix(r, s, 2, s * s)), {}))
_add("mxnet.gather_nd", "rows", lambda r, s: ((D(r, s, s), ix(r, s, 1, s)), {}))
_add("jax.at_get", "elements", lambda r, s: ((D(r, s, s), (ix(r, s, s * s), ix(r, s, s * s))), {}))
_add("jax.at_get", "rows", lambda r, s: ((D(r, s, s), (ix(r, s, s),)), {}))
_add("jax.at_get", "cols", lambda r, s: ((D(r, s, s), (slice(None), ix(r, s, s))), {}))


def _lax_gather_elements(r: np.random.Generator, s: int) -> Args:
    dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    return (D(r, s, s), ix(r, s, s * s, 2), dn, (1, 1)), {}


def _lax_gather_rows(r: np.random.Generator, s: int) -> Args:
    dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return (D(r, s, s), ix(r, s, s, 1), dn, (1, s)), {}


def _lax_gather_windows(r: np.random.Generator, s: int) -> Args:
    # s/4 windows of 4 x s (clipped starts): a sliding-window gather
    dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
    return (D(r, s, s), ix(r, s, s // 4, 2), dn, (4, s)), {"mode": "clip"}


_add("jax.lax.gather", "elements", _lax_gather_elements)
_add("jax.lax.gather", "rows", _lax_gather_rows)
_add("jax.lax.gather", "windows", _lax_gather_windows)

# ---------------------------------------------------------------- scatters (elementwise)
for _n, _call in [
    ("onnx.ScatterElements", lambda d, i, u, a, red: ((d, i, u), {"axis": a, "reduction": red})),
    ("openvino.ScatterElementsUpdate", lambda d, i, u, a, red: ((d, i, u, a), {"reduction": {"add": "sum"}.get(red, red)})),
    ("torch.scatter_reduce", lambda d, i, u, a, red: ((d, a, i, u), {"reduce": {"add": "sum"}.get(red, "amax")})),
    ("paddle.put_along_axis", lambda d, i, u, a, red: ((d, i, u, a), {"reduce": {"none": "assign"}.get(red, red)})),
    ("gatherscatter.scatter_along_axis", lambda d, i, u, a, red: ((d, i, u, a), {"reduction": red})),
]:
    for _red in ("none", "add"):
        _add(_n, f"axis0-{_red}", lambda r, s, c=_call, red=_red: c(D(r, s, s), ix(r, s, s, s), D(r, s, s), 0, red))
        _add(_n, f"axis1-{_red}", lambda r, s, c=_call, red=_red: c(D(r, s, s), ix(r, s, s, s), D(r, s, s), 1, red))
_add("onnx.Scatter", "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s, s), D(r, s, s)), {"axis": 1}))
_add("torch.scatter", "axis1", lambda r, s: ((D(r, s, s), 1, ix(r, s, s, s), D(r, s, s)), {}))
_add("torch.scatter", "value", lambda r, s: ((D(r, s, s), 0, ix(r, s, s, s)), {"value": 2.0}))
_add("torch.scatter_add", "axis0", lambda r, s: ((D(r, s, s), 0, ix(r, s, s, s), D(r, s, s)), {}))
_add("torch.scatter_add", "axis1", lambda r, s: ((D(r, s, s), 1, ix(r, s, s, s), D(r, s, s)), {}))
_add("torch.scatter_reduce", "mean-noself", lambda r, s: ((D(r, s, s), 1, ix(r, s, s, s), D(r, s, s), "mean"), {"include_self": False}))
_add("numpy.put_along_axis", "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s, s), D(r, s, s), 1), {}))
_add("numpy.put_along_axis", "axis0", lambda r, s: ((D(r, s, s), ix(r, s, s, s), D(r, s, s), 0), {}))
_add("gatherscatter.scatter_along_axis", "drop", lambda r, s: ((D(r, s, s), ix(r, s + 8, s, s), D(r, s, s), 1), {"bounds": "drop"}))

# ---------------------------------------------------------------- scatters (index tuples)
_ND_OPS: list[tuple[str, Callable[[Any, Any, Any], Args]]] = [
    ("onnx.ScatterND", lambda d, i, u: ((d, i, u), {})),
    ("openvino.ScatterNDUpdate", lambda d, i, u: ((d, i, u), {})),
    ("tensorflow.tensor_scatter_nd_update", lambda d, i, u: ((d, i, u), {})),
    ("tensorflow.tensor_scatter_nd_add", lambda d, i, u: ((d, i, u), {})),
    ("tensorflow.tensor_scatter_nd_sub", lambda d, i, u: ((d, i, u), {})),
    ("tensorflow.tensor_scatter_nd_max", lambda d, i, u: ((d, i, u), {})),
    ("tensorflow.tensor_scatter_nd_min", lambda d, i, u: ((d, i, u), {})),
    ("paddle.scatter_nd_add", lambda d, i, u: ((d, i, u), {})),
    ("gatherscatter.scatter_nd", lambda d, i, u: ((d, i, u), {})),
]
for _n, _call in _ND_OPS:
    _add(_n, "elements", lambda r, s, c=_call: c(D(r, s, s), ix(r, s, s * s // 2, 2), D(r, s * s // 2)))
    _add(_n, "rows", lambda r, s, c=_call: c(D(r, s, s), ix(r, s, s, 1), D(r, s, s)))
_add("onnx.ScatterND", "add", lambda r, s: ((D(r, s, s), ix(r, s, s * s // 2, 2), D(r, s * s // 2)), {"reduction": "add"}))
_add("openvino.ScatterNDUpdate", "sum", lambda r, s: ((D(r, s, s), ix(r, s, s * s // 2, 2), D(r, s * s // 2)), {"reduction": "sum"}))
_add("gatherscatter.scatter_nd", "mean", lambda r, s: ((D(r, s, s), ix(r, s, s * s // 2, 2), D(r, s * s // 2)), {"reduction": "mean"}))
_add("gatherscatter.scatter_nd", "raise", lambda r, s: ((D(r, s, s), nd_perm(r, s, s * s // 2), D(r, s * s // 2)), {"duplicates": "raise"}))
_add("tensorflow.scatter_nd", "elements", lambda r, s: ((ix(r, s, s * s // 2, 2), D(r, s * s // 2), [s, s]), {}))
_add("tensorflow.scatter_nd", "rows", lambda r, s: ((ix(r, s, s, 1), D(r, s, s), [s, s]), {}))
_add("paddle.scatter_nd", "elements", lambda r, s: ((ix(r, s, s * s // 2, 2), D(r, s * s // 2), [s, s]), {}))
_add("mxnet.scatter_nd", "elements", lambda r, s: ((D(r, s * s // 2), nd_perm(r, s, s * s // 2).T.copy(), (s, s)), {}))
_add("mxnet.scatter_nd", "rows", lambda r, s: ((D(r, s, s), perm(r, s, 1, s), (s, s)), {}))
for _n in ("jax.at_set", "jax.at_add", "jax.at_subtract", "jax.at_multiply", "jax.at_min", "jax.at_max"):
    _add(_n, "elements", lambda r, s: ((D(r, s, s), (ix(r, s, s * s // 2), ix(r, s, s * s // 2)), D(r, s * s // 2)), {}))
    _add(_n, "rows", lambda r, s: ((D(r, s, s), (ix(r, s, s),), D(r, s, s)), {}))
_add("jax.at_set", "cols", lambda r, s: ((D(r, s, s), (slice(None), ix(r, s, s)), D(r, s, s)), {}))
# composed ops (session 7): the scatter, then the element-wise step (values near 1: no overflow in power)
for _n in ("jax.at_divide", "jax.at_power"):
    _add(_n, "elements", lambda r, s: ((D(r, s, s), (ix(r, s, s * s // 2), ix(r, s, s * s // 2)),
                                        np.ones(s * s // 2, F)), {}))
_add("jax.at_apply", "rows", lambda r, s: ((D(r, s, s), (ix(r, s, s),), "negative"), {}))
_add("numpy.ufunc_at", "rows-add", lambda r, s: (("add", D(r, s, s), ix(r, s, s), D(r, s, s)), {}))
_add("numpy.ufunc_at", "rows-negative", lambda r, s: (("negative", D(r, s, s), ix(r, s, s)), {}))
_add("torch.index_put", "elements", lambda r, s: ((D(r, s, s), (ix(r, s, s * s // 2), ix(r, s, s * s // 2)), D(r, s * s // 2)), {}))
_add("torch.index_put", "accumulate", lambda r, s: ((D(r, s, s), (ix(r, s, s * s // 2), ix(r, s, s * s // 2)), D(r, s * s // 2)), {"accumulate": True}))
_add("torch.index_put", "rows", lambda r, s: ((D(r, s, s), (ix(r, s, s),), D(r, s, s)), {}))


def _lax_scatter(kind: str) -> Make:
    def make(r: np.random.Generator, s: int) -> Args:
        if kind == "elements":
            dn = gs.jax.lax.ScatterDimensionNumbers(
                update_window_dims=(), inserted_window_dims=(0, 1), scatter_dims_to_operand_dims=(0, 1)
            )
            return (D(r, s, s), ix(r, s, s * s // 2, 2), D(r, s * s // 2), dn), {}
        dn = gs.jax.lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
        return (D(r, s, s), ix(r, s, s, 1), D(r, s, s), dn), {}

    return make


for _n in ("jax.lax.scatter", "jax.lax.scatter_add", "jax.lax.scatter_sub", "jax.lax.scatter_mul", "jax.lax.scatter_min",
           "jax.lax.scatter_max"):
    _add(_n, "elements", _lax_scatter("elements"))
    _add(_n, "rows", _lax_scatter("rows"))
_add("jax.lax.scatter_apply", "rows", lambda r, s: (
    (D(r, s, s), ix(r, s, s, 1), "negative",
     gs.jax.lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))), {"update_shape": (s, s)}))

# ---------------------------------------------------------------- scatters (whole slices along an axis)
for _n, _call in [
    ("torch.index_add", lambda d, a, i, u: ((d, a, i, u), {})),
    ("torch.index_copy", lambda d, a, i, u: ((d, a, i, u), {})),
    ("torch.index_reduce", lambda d, a, i, u: ((d, a, i, u, "amax"), {})),
    ("openvino.ScatterUpdate", lambda d, a, i, u: ((d, i, u, a), {})),
]:
    _add(_n, "dim0", lambda r, s, c=_call: c(D(r, s, s), 0, ix(r, s, s), D(r, s, s)))
    _add(_n, "dim1", lambda r, s, c=_call: c(D(r, s, s), 1, ix(r, s, s), D(r, s, s)))
_add("torch.index_reduce", "mean-noself", lambda r, s: ((D(r, s, s), 1, ix(r, s, s), D(r, s, s), "mean"), {"include_self": False}))
_add("torch.index_fill", "dim0", lambda r, s: ((D(r, s, s), 0, ix(r, s, s // 2), -1.0), {}))
_add("torch.index_fill", "dim1", lambda r, s: ((D(r, s, s), 1, ix(r, s, s // 2), -1.0), {}))
# KV-cache update: 2 caches of (s/2 x s), a quarter of each sequence written (circular: wrapping around)
_add("onnx.TensorScatter", "linear", lambda r, s: ((D(r, 2, s // 2, s), D(r, 2, s // 4, s), np.array([0, s // 4])), {}))
_add("onnx.TensorScatter", "circular", lambda r, s: ((D(r, 2, s // 2, s), D(r, 2, s // 4, s), np.array([s // 2 - 1, 7])), {"mode": "circular"}))
_add("paddle.scatter", "overwrite", lambda r, s: ((D(r, s, s), perm(r, s, s), D(r, s, s)), {}))
_add("paddle.scatter", "add", lambda r, s: ((D(r, s, s), ix(r, s, s), D(r, s, s)), {"overwrite": False}))
_add("numpy.put", "flat", lambda r, s: ((D(r, s, s), ix(r, s * s, s * s // 2), D(r, s * s // 2)), {}))
for _n in ("numpy.add_at", "numpy.subtract_at", "numpy.multiply_at", "numpy.minimum_at", "numpy.maximum_at"):
    _add(_n, "elements", lambda r, s: ((D(r, s, s), (ix(r, s, s * s // 2), ix(r, s, s * s // 2)), D(r, s * s // 2)), {}))
    _add(_n, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s), D(r, s, s)), {}))
_add("numpy.add_at", "cols", lambda r, s: ((D(r, s, s), (slice(None), ix(r, s, s)), D(r, s, s)), {}))


# ---------------------------------------------------------------- segment reductions (issue 18)
# every op taking (data, segment_ids[, num_segments]), found through the registry: s rows of s values into s segments
def _segment_case(op: Any) -> Make:
    params = list(inspect.signature(op).parameters)
    with_n = "num_segments" in params

    idt = np.int32 if op.info.framework == "tflite" else np.int64  # TFLite takes int32 ids only

    def make(r: np.random.Generator, s: int) -> Args:
        ids = np.arange(s, dtype=idt)  # one row per segment: valid for the sorted ops and TFLite's consecutive ids
        return ((D(r, s, s), ids, s) if with_n else (D(r, s, s), ids)), {}

    return make


for _op in gs.ops():
    _params = list(inspect.signature(_op).parameters)
    if _params[:2] == ["data", "segment_ids"]:
        _add(_op.info.qualname, "rows", _segment_case(_op))
    elif _params[:2] == ["data", "reduce"] and "lengths" in _params:  # lengths-based (torch.segment_reduce)
        _add(_op.info.qualname, "rows", lambda r, s: ((D(r, s, s), "sum"), {"lengths": np.full(s, 1, np.int64)}))
    elif _params[:2] == ["params", "ids"]:  # tf.nn.embedding_lookup
        _add(_op.info.qualname, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s)), {}))
    elif _params[:2] == ["input", "weight"]:  # embeddings: s rows of s values looked up s * s times / in s bags
        if "offsets" in _params:
            _add(_op.info.qualname, "bags", lambda r, s: ((ix(r, s, s), D(r, s, s), np.arange(0, s, 2)), {}))
        else:
            _add(_op.info.qualname, "rows", lambda r, s: ((ix(r, s, s), D(r, s, s)), {}))


# TFLite builtins (issue 18): float32 data and int32 indices, which is all TFLite takes; found by name in the registry
def _tflite_cases() -> None:
    for op in gs.ops("tflite"):
        params = list(inspect.signature(op).parameters)
        if params[:2] == ["params", "indices"] and op.info.family == "gather":
            _add(op.info.qualname, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s).astype(np.int32)), {}))
        elif params[:2] == ["params", "indices"]:
            _add(op.info.qualname, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s, 1).astype(np.int32)), {}))
        elif params[:2] == ["indices", "updates"]:
            _add(op.info.qualname, "rows",
                 lambda r, s: ((ix(r, s, s, 1).astype(np.int32), D(r, s, s, dtype=np.float32), [s, s]), {}))


_tflite_cases()


# Keras 3 (issue 18): each op with its default backend, found in the registry by signature
def _keras_cases() -> None:
    for op in gs.ops("keras"):
        params = list(inspect.signature(op).parameters)
        if params[:2] == ["x", "indices"] and op.info.family == "gather":
            _add(op.info.qualname, "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s)), {"axis": 1}))
        elif params[:2] == ["x", "indices"]:
            _add(op.info.qualname, "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s, s)), {"axis": 1}))
        elif params[:2] == ["indices", "values"]:
            _add(op.info.qualname, "rows", lambda r, s: ((perm(r, s, s, 1), D(r, s, s), (s, s)), {}))
        elif params[:2] == ["inputs", "indices"]:
            _add(op.info.qualname, "rows", lambda r, s: ((D(r, s, s), perm(r, s, s, 1), D(r, s, s)), {}))


_keras_cases()


# MLX (issue 18): found in the registry by signature and family
def _mlx_cases() -> None:
    for op in gs.ops("mlx"):
        params = list(inspect.signature(op).parameters)
        if op.info.family == "gather":
            _add(op.info.qualname, "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s)), {"axis": 1}))
        elif op.info.family == "gather_elements":
            _add(op.info.qualname, "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s, s)), {"axis": 1}))
        elif op.info.family == "scatter_elements":
            _add(op.info.qualname, "axis1", lambda r, s: ((D(r, s, s), ix(r, s, s, s), D(r, s, s)), {"axis": 1}))
        elif params[:3] == ["a", "indices", "values"]:
            _add(op.info.qualname, "rows", lambda r, s: ((D(r, s, s), ix(r, s, s), D(r, s, s)), {}))


_mlx_cases()
