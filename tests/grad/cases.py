"""Generated float64 calls for every registered op, for the gradient tests.

``CASES[qualname]`` is a list of ``(case_id, make)``; ``make(rng)`` returns
``(args, kwargs)``. Values are drawn from [0.5, 1.5] so that max/min ties and
zero products do not occur by accident (those are hand-tested); overwrite
scatters of frameworks whose autograd gives every duplicate ``dY[t]`` (torch,
TensorFlow) use unique indices, since finite differences see only the winner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Args = tuple[tuple[Any, ...], dict[str, Any]]
Make = Callable[[np.random.Generator], Args]

CASES: dict[str, list[tuple[str, Make]]] = {}

SKIP: dict[str, str] = {}
"""Registered ops the gradient tests cannot drive, with the reason."""


def case(name: str, cid: str) -> Callable[[Make], Make]:
    def deco(make: Make) -> Make:
        CASES.setdefault(name, []).append((cid, make))
        return make

    return deco


def R(rng: np.random.Generator, *shape: int) -> np.ndarray[Any, Any]:
    return rng.uniform(0.5, 1.5, shape)


I = np.array  # noqa: E741 - short for index literals


def _add(name: str, cid: str, make: Make) -> None:
    CASES.setdefault(name, []).append((cid, make))


# ---------------------------------------------------------------- neutral API
_add("gatherscatter.take", "axis1-dups", lambda r: ((R(r, 3, 4), I([[1, 1], [3, 0]])), {"axis": 1}))
_add("gatherscatter.take", "clip", lambda r: ((R(r, 4), I([5, -1, 2])), {"bounds": "clip"}))
_add("gatherscatter.take", "fill", lambda r: ((R(r, 4), I([5, 1, 1])), {"bounds": "fill"}))
_add("gatherscatter.take", "batch", lambda r: ((R(r, 2, 3, 2), I([[2, 2], [0, 1]])), {"axis": 1, "batch_dims": 1}))
_add("gatherscatter.take_along_axis", "dups", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, 2]]), 1), {}))
_add("gatherscatter.gather_nd", "basic", lambda r: ((R(r, 3, 4), I([[0, 1], [2, 3], [0, 1]])), {}))
_add("gatherscatter.gather_nd", "slices", lambda r: ((R(r, 3, 4), I([[2], [0], [2]])), {}))
for _red in ("none", "add", "mul", "max", "min", "mean"):
    for _inc in (True, False):
        _add(
            "gatherscatter.scatter_along_axis",
            f"{_red}-self{_inc}",
            lambda r, red=_red, inc=_inc: (
                (R(r, 3, 4), I([[0, 2, 1, 0], [0, 1, 1, 2]]), R(r, 2, 4), 0),
                {"reduction": red, "include_self": inc},
            ),
        )
        _add(
            "gatherscatter.scatter_nd",
            f"{_red}-self{_inc}",
            lambda r, red=_red, inc=_inc: (
                (R(r, 4, 3), I([[1], [3], [1]]), R(r, 3, 3)),
                {"reduction": red, "include_self": inc},
            ),
        )
_add("gatherscatter.scatter_nd", "first", lambda r: ((R(r, 4), I([[1], [1], [2]]), R(r, 3)), {"duplicates": "first"}))
_add("gatherscatter.scatter_nd", "drop", lambda r: ((R(r, 4), I([[1], [7], [2]]), R(r, 3)), {"bounds": "drop"}))

# ---------------------------------------------------------------- ONNX
_add("onnx.Gather", "axis0", lambda r: ((R(r, 4, 3), I([[0, 2], [2, 3]])), {"axis": 0}))
_add("onnx.Gather", "axis1-neg", lambda r: ((R(r, 4, 3), I([1, -1, 1])), {"axis": 1}))
_add("onnx.GatherElements", "axis1", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, -1]])), {"axis": 1}))
_add("onnx.GatherND", "basic", lambda r: ((R(r, 3, 4), I([[0, 1], [2, 3], [0, 1]])), {}))
_add("onnx.GatherND", "batch", lambda r: ((R(r, 2, 3, 4), I([[[1], [1]], [[0], [2]]])), {"batch_dims": 1}))
for _red in ("none", "add", "mul", "max", "min"):
    _add(
        "onnx.ScatterElements",
        _red,
        lambda r, red=_red: ((R(r, 3, 4), I([[0, 2, 1, 0], [0, 1, 1, 2]]), R(r, 2, 4)), {"axis": 0, "reduction": red}),
    )
    _add(
        "onnx.ScatterND",
        _red,
        lambda r, red=_red: ((R(r, 4, 3), I([[1], [3], [1]]), R(r, 3, 3)), {"reduction": red}),
    )
_add("onnx.Scatter", "basic", lambda r: ((R(r, 3, 3), I([[1, 0, 2], [0, 2, 1]]), R(r, 2, 3)), {"axis": 0}))
_add("onnx.TensorScatter", "linear", lambda r: ((R(r, 2, 2, 5, 3), R(r, 2, 2, 2, 3), I([3, 0])), {}))
_add("onnx.TensorScatter", "circular", lambda r: ((R(r, 3, 4, 2), R(r, 3, 3, 2), I([2, 0, 9])), {"axis": 1, "mode": "circular"}))

# ---------------------------------------------------------------- OpenVINO
_add("openvino.Gather", "axis1", lambda r: ((R(r, 3, 4), I([[1, 1], [3, -4]]), 1), {}))
_add("openvino.Gather", "oob-zero", lambda r: ((R(r, 4), I([5, 1, 1]), 0), {}))
_add("openvino.Gather", "batch", lambda r: ((R(r, 2, 3, 2), I([[2, 2], [0, 1]]), 1), {"batch_dims": 1}))
_add("openvino.GatherElements", "axis0", lambda r: ((R(r, 3, 2), I([[2, 0], [2, 2]]), 0), {}))
_add("openvino.GatherND", "batch", lambda r: ((R(r, 2, 3, 4), I([[[1, 2]], [[0, 3]]])), {"batch_dims": 1}))
for _red in ("none", "sum", "prod", "max", "min", "mean"):
    for _inc in (True, False):
        _add(
            "openvino.ScatterElementsUpdate",
            f"{_red}-init{_inc}",
            lambda r, red=_red, inc=_inc: (
                (R(r, 3, 4), I([[0, 2, 1, 0], [0, 1, 1, 2]]), R(r, 2, 4), 0),
                {"reduction": red, "use_init_val": inc},
            ),
        )
for _red in ("none", "sum", "sub", "prod", "max", "min"):
    _add(
        "openvino.ScatterNDUpdate",
        _red,
        lambda r, red=_red: ((R(r, 4, 3), I([[1], [3], [1]]), R(r, 3, 3)), {"reduction": red}),
    )
_add("openvino.ScatterUpdate", "axis1", lambda r: ((R(r, 3, 4), I([2, 0, 2]), R(r, 3, 3), 1), {}))

# ---------------------------------------------------------------- torch
_add("torch.gather", "dim1", lambda r: ((R(r, 3, 4), 1, I([[0, 0], [3, 1], [2, 2]])), {}))
_add("torch.scatter", "src", lambda r: ((R(r, 3, 4), 1, I([[0, 3], [1, 2]]), R(r, 2, 3)), {}))
_add("torch.scatter", "value", lambda r: ((R(r, 3, 4), 1, I([[0, 3], [1, 1]])), {"value": 2.5}))
_add("torch.scatter_add", "src-bigger", lambda r: ((R(r, 3, 4), 0, I([[0, 2, 0], [0, 1, 1]]), R(r, 3, 4)), {}))
for _red in ("sum", "prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        _add(
            "torch.scatter_reduce",
            f"{_red}-self{_inc}",
            lambda r, red=_red, inc=_inc: (
                (R(r, 3, 4), 0, I([[0, 2, 1, 0], [0, 1, 1, 2]]), R(r, 2, 4), red),
                {"include_self": inc},
            ),
        )
    if _red != "sum":
        for _inc in (True, False):
            _add(
                "torch.index_reduce",
                f"{_red}-self{_inc}",
                lambda r, red=_red, inc=_inc: (
                    (R(r, 3, 2), 0, I([0, 2, 0, 0]), R(r, 4, 2), red),
                    {"include_self": inc},
                ),
            )
_add("torch.index_add", "alpha", lambda r: ((R(r, 3, 4), 1, I([0, 3, 0]), R(r, 3, 3)), {"alpha": -1.5}))
_add("torch.index_copy", "unique", lambda r: ((R(r, 4, 2), 0, I([3, 0]), R(r, 2, 2)), {}))
_add("torch.index_fill", "dim1", lambda r: ((R(r, 2, 4), 1, I([3, 0, 3]), 1.5), {}))
_add("torch.index_put", "accumulate", lambda r: ((R(r, 4, 2), (I([1, 3, 1]),), R(r, 3, 2)), {"accumulate": True}))
_add("torch.index_put", "set-unique", lambda r: ((R(r, 4, 2), (I([1, 3]), I([0, 1])), R(r, 2)), {}))
_add("torch.index_put", "broadcast", lambda r: ((R(r, 4, 2), (I([1, 3]),), R(r, 2)), {"accumulate": True}))
_add("torch.index_select", "dim1", lambda r: ((R(r, 3, 4), 1, I([3, 3, 0])), {}))
_add("torch.take", "basic", lambda r: ((R(r, 3, 4), I([[11, -1], [0, 5]])), {}))
_add("torch.take_along_dim", "dim1", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, 2]]), 1), {}))
_add("torch.take_along_dim", "flat", lambda r: ((R(r, 3, 4), I([5, 5, 0])), {}))

# ---------------------------------------------------------------- TensorFlow
_add("tensorflow.gather", "axis1", lambda r: ((R(r, 3, 4), I([[1, 1], [3, 0]])), {"axis": 1}))
_add("tensorflow.gather", "batch", lambda r: ((R(r, 2, 3, 2), I([[2, 2], [0, 1]])), {"axis": 1, "batch_dims": 1}))
_add("tensorflow.gather", "gpu-oob", lambda r: ((R(r, 4), I([5, 1, 1])), {"device": "gpu"}))
_add("tensorflow.gather_nd", "basic", lambda r: ((R(r, 3, 4), I([[0, 1], [2, 3], [0, 1]])), {}))
_add("tensorflow.gather_nd", "batch", lambda r: ((R(r, 2, 3, 4), I([[[1], [1]], [[0], [2]]])), {"batch_dims": 1}))
_add("tensorflow.scatter_nd", "dups", lambda r: ((I([[1], [3], [1]]), R(r, 3, 2), (4, 2)), {}))
for _op in ("add", "sub", "max", "min"):
    _add(
        f"tensorflow.tensor_scatter_nd_{_op}",
        "dups",
        lambda r: ((R(r, 4, 3), I([[1], [3], [1]]), R(r, 3, 3)), {}),
    )
_add("tensorflow.tensor_scatter_nd_update", "unique", lambda r: ((R(r, 4, 3), I([[1], [3]]), R(r, 2, 3)), {}))

# ---------------------------------------------------------------- JAX
_add("jax.take", "fill-oob", lambda r: ((R(r, 3, 4), I([[1, 5], [-1, 1]])), {"axis": 1}))
_add("jax.take", "clip", lambda r: ((R(r, 3, 4), I([1, 5, 1])), {"axis": 1, "mode": "clip"}))
_add("jax.take", "flat", lambda r: ((R(r, 3, 4), I([11, 0, 0])), {}))
_add("jax.take_along_axis", "axis1", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, -1]]), 1), {}))
_add("jax.at_get", "dups", lambda r: ((R(r, 3, 4), (I([0, 2, 2]),)), {}))
_add("jax.at_get", "slice", lambda r: ((R(r, 3, 4), (slice(None), I([1, 0, 1]))), {}))
_add("jax.at_get", "clip", lambda r: ((R(r, 4), (I([1, 7, 0]),)), {"mode": "clip"}))
for _op in ("set", "add", "subtract", "min", "max"):
    _add(f"jax.at_{_op}", "dups", lambda r: ((R(r, 4, 2), (I([1, 3, 1]),), R(r, 3, 2)), {}))
    _add(f"jax.at_{_op}", "bcast-drop", lambda r: ((R(r, 4, 2), (I([1, 9, 2]),), R(r, 2)), {}))
_add("jax.at_multiply", "unique", lambda r: ((R(r, 4, 2), (I([1, 3]),), R(r, 2, 2)), {}))
_add("jax.at_multiply", "clip", lambda r: ((R(r, 4), (I([1, 9]),), R(r, 2)), {"mode": "clip"}))


def _lax_gather(r: np.random.Generator) -> Args:
    import gatherscatter as gs

    lax = gs.jax.lax

    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return (R(r, 4, 3), I([[1], [3], [1]]), dn, (1, 3)), {}


def _lax_gather_window(r: np.random.Generator) -> Args:
    import gatherscatter as gs

    lax = gs.jax.lax

    dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(), start_index_map=(0,))
    return (R(r, 5), I([[4], [1]]), dn, (2,)), {"mode": "clip"}


_add("jax.lax.gather", "rows", _lax_gather)
_add("jax.lax.gather", "window-clip", _lax_gather_window)


def _lax_scatter(unique: bool) -> Make:
    def make(r: np.random.Generator) -> Args:
        import gatherscatter as gs

        lax = gs.jax.lax

        dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                         scatter_dims_to_operand_dims=(0,))
        idx = I([[1], [3]]) if unique else I([[1], [3], [1]])
        return (R(r, 4, 3), idx, R(r, len(idx), 3), dn), {}

    return make


for _op in ("scatter", "scatter_add", "scatter_sub", "scatter_max", "scatter_min"):
    _add(f"jax.lax.{_op}", "dups", _lax_scatter(False))
_add("jax.lax.scatter_mul", "unique", _lax_scatter(True))

# ---------------------------------------------------------------- NumPy
_add("numpy.take", "axis1", lambda r: ((R(r, 3, 4), I([[1, 1], [3, 0]])), {"axis": 1}))
_add("numpy.take", "clip", lambda r: ((R(r, 3, 4), I([13, -2, 1])), {"mode": "clip"}))
_add("numpy.take", "wrap", lambda r: ((R(r, 4), I([5, -6, 1])), {"mode": "wrap"}))
_add("numpy.take_along_axis", "axis1", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, -1]]), 1), {}))
_add("numpy.take_along_axis", "flat", lambda r: ((R(r, 3, 4), I([5, 5]), None), {}))
_add("numpy.put_along_axis", "dups", lambda r: ((R(r, 3, 4), I([[0, 0], [3, 1], [2, 2]]), R(r, 3, 2), 1), {}))
_add("numpy.put_along_axis", "bcast", lambda r: ((R(r, 3, 4), I([[0], [3], [2]]), R(r, 1), 1), {}))
_add("numpy.put", "cyclic-v", lambda r: ((R(r, 3, 4), I([0, 5, 7, 5]), R(r, 2)), {}))
_add("numpy.put", "clip", lambda r: ((R(r, 5), I([9, 1]), R(r, 2)), {"mode": "clip"}))
for _op in ("add", "subtract", "multiply", "maximum", "minimum"):
    _add(f"numpy.{_op}_at", "dups", lambda r: ((R(r, 5), I([0, 1, 2, 2, 0]), R(r, 5)), {}))
    _add(f"numpy.{_op}_at", "rows-bcast", lambda r: ((R(r, 3, 2), (slice(None), I([0, 0])), R(r, 2)), {}))

# ---------------------------------------------------------------- MXNet, Caffe2
_add("mxnet.take", "clip", lambda r: ((R(r, 4, 3), I([[5, 1], [1, 0]])), {}))
_add("mxnet.take", "wrap-axis1", lambda r: ((R(r, 2, 3), I([4, -1])), {"axis": 1, "mode": "wrap"}))
_add("mxnet.pick", "keepdims", lambda r: ((R(r, 3, 4), I([0, 3, 9])), {"axis": 1, "keepdims": True}))
_add("mxnet.pick", "axis0", lambda r: ((R(r, 3, 4), I([0, 2, 1, 1])), {"axis": 0}))
_add("mxnet.gather_nd", "basic", lambda r: ((R(r, 3, 4), I([[0, 2, 0], [1, 3, 1]])), {}))
_add("mxnet.scatter_nd", "basic", lambda r: ((R(r, 2, 2), I([[1, 0], [0, 1]]), (2, 2, 2)), {}))
_add("caffe2.Gather", "axis1", lambda r: ((R(r, 3, 4), I([[1, 1], [3, 0]])), {"axis": 1}))
_add("caffe2.Gather", "wrap", lambda r: ((R(r, 4, 2), I([-1, 1])), {"wrap_indices": True}))
_add("caffe2.BatchGather", "basic", lambda r: ((R(r, 3, 4), I([0, 2, 2])), {}))

# ---------------------------------------------------------------- Paddle
_add("paddle.gather", "axis1", lambda r: ((R(r, 3, 4), I([1, 1, 3])), {"axis": 1}))
_add("paddle.gather_nd", "basic", lambda r: ((R(r, 3, 4), I([[0, 1], [2, 3], [0, 1]])), {}))
_add("paddle.index_select", "axis1", lambda r: ((R(r, 3, 4), I([1, 1, 3])), {"axis": 1}))
_add("paddle.take", "wrap", lambda r: ((R(r, 3, 4), I([[13, 1], [-1, 1]])), {"mode": "wrap"}))
_add("paddle.take_along_axis", "bcast", lambda r: ((R(r, 3, 4), I([[0, 0]]), 1), {}))
for _red in ("assign", "add", "mul", "mean", "amax", "amin"):
    for _inc in (True, False):
        _add(
            "paddle.put_along_axis",
            f"{_red}-self{_inc}",
            lambda r, red=_red, inc=_inc: (
                (R(r, 3, 4), I([[0, 2, 1, 0], [0, 1, 1, 2]]), R(r, 2, 4), 0),
                {"reduce": red, "include_self": inc},
            ),
        )
_add("paddle.scatter", "overwrite", lambda r: ((R(r, 3, 2), I([2, 1, 0, 1]), R(r, 4, 2)), {}))
_add("paddle.scatter", "accumulate", lambda r: ((R(r, 3, 2), I([2, 1, 0, 1]), R(r, 4, 2)), {"overwrite": False}))
_add("paddle.scatter_nd_add", "dups", lambda r: ((R(r, 4, 3), I([[1], [3], [1]]), R(r, 3, 3)), {}))
_add("paddle.scatter_nd", "dups", lambda r: ((I([[1], [3], [1]]), R(r, 3, 2), (4, 2)), {}))

# ---------------------------------------------------------------- segment reductions, embeddings, TFLite, Keras, MLX
def F(rng: np.random.Generator, *shape: int) -> np.ndarray[Any, Any]:
    """float32 values (ops that compute in float32), stepped by 0.25 by the finite differences."""
    return R(rng, *shape).astype(np.float32)


def SEP(rng: np.random.Generator, *shape: int, dtype: Any = np.float64) -> np.ndarray[Any, Any]:
    """Distinct values at least 1 apart (max/min: no tie within a finite-difference step)."""
    n = int(np.prod(shape))
    return (rng.permutation(n) + 0.5 + 0.1 * rng.random(n)).reshape(shape).astype(dtype)


_SEG = I([0, 2, 0, 2, 3])  # segment 1 is empty
_FULL = I([0, 2, 0, 1, 2])  # every segment of 3 has a row (max/min: no infinite empty segment)
_SORTED = I([0, 0, 2, 2, 3])
for _r in ("sum", "prod", "max", "min", "mean"):
    _mk = SEP if _r in ("max", "min") else R
    _add(f"tensorflow.segment_{_r}", "sorted", lambda r, mk=_mk: ((mk(r, 5, 2), _SORTED), {}))
    _add(f"tensorflow.unsorted_segment_{_r}", "2d-ids",
         lambda r, mk=_mk: ((mk(r, 2, 3, 2), I([[0, 2, 0], [-1, 2, 1]]), 3), {}))
_add("tensorflow.unsorted_segment_sqrt_n", "basic", lambda r: ((R(r, 5, 2), _SEG, 4), {}))
for _r in ("sum", "prod", "max", "min"):
    _mk = SEP if _r in ("max", "min") else R
    # JAX: scatter_mul gradients need unique ids (after clipping too)
    _ids = I([0, 2, 1, -1, 7]) if _r == "prod" else I([0, 2, 0, 1, 7])
    _clip = I([1, 7, -1]) if _r == "prod" else I([0, 2, 0, 1, 7])
    _add(f"jax.segment_{_r}", "drop", lambda r, mk=_mk, ids=_ids: ((mk(r, 5, 2), ids), {"num_segments": 3}))
    _add(f"jax.segment_{_r}", "clip", lambda r, mk=_mk, ids=_clip: ((mk(r, ids.size, 2), ids), {"num_segments": 3,
                                                                                               "mode": "clip"}))
for _r in ("sum", "mean", "max", "min"):
    _add(f"paddle.segment_{_r}", "sorted", lambda r: ((SEP(r, 5, 2), _SORTED), {}))
for _r in ("sum", "mean", "max", "min", "prod"):
    _add("torch.segment_reduce", f"{_r}-lengths", lambda r, red=_r: ((SEP(r, 5, 2), red), {"lengths": I([2, 1, 2])}))
_add("torch.embedding", "dups", lambda r: ((I([[1, 0], [1, 3]]), R(r, 4, 3)), {}))
_add("torch.embedding", "padding_idx", lambda r: ((I([1, 0, 1]), R(r, 4, 3)), {"padding_idx": 1}))
for _m in ("sum", "mean", "max"):
    _add("torch.embedding_bag", f"{_m}-offsets", lambda r, m=_m: ((I([1, 0, 1, 3, 2]), SEP(r, 4, 3), I([0, 2, 2])),
                                                                  {"mode": m}))
# no per_sample_weights case: they scale the gathered rows (a product of two inputs), and gs.vjp differentiates
# lowerings that are linear movements of their inputs (it raises UnsupportedError there)
_add("tensorflow.embedding_lookup", "dups", lambda r: ((R(r, 4, 3), I([[1, 0], [1, 3]])), {}))
for _b in ("jax", "tensorflow", "torch", "numpy"):
    _mk = F if _b == "jax" else R
    _add("keras.take", f"{_b}-axis1", lambda r, b=_b, mk=_mk: ((mk(r, 3, 4), I([1, -1, 1])), {"axis": 1, "backend": b}))
    _add("keras.take_along_axis", f"{_b}", lambda r, b=_b, mk=_mk: ((mk(r, 3, 4), I([[0, 3], [1, 1], [2, 0]])),
                                                                     {"axis": 1, "backend": b}))
    _add("keras.scatter", f"{_b}-dups", lambda r, b=_b: ((I([[1], [3], [1]]), F(r, 3, 2), (4, 2)), {"backend": b}))
    _add("keras.scatter_update", f"{_b}", lambda r, b=_b, mk=_mk: ((mk(r, 4, 2), I([[1], [3]]), mk(r, 2, 2)),
                                                                    {"backend": b}))
    _add("keras.segment_sum", f"{_b}", lambda r, b=_b: ((F(r, 5, 2), _SEG, 4), {"backend": b}))
    _add("keras.segment_max", f"{_b}", lambda r, b=_b: ((SEP(r, 5, 2, dtype=np.float32), _FULL, 3), {"backend": b}))
for _n in ("GATHER", "GATHER_ND", "SCATTER_ND", "SEGMENT_SUM", "UNSORTED_SEGMENT_SUM", "UNSORTED_SEGMENT_PROD",
           "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_MIN"):
    SKIP[f"tflite.{_n}"] = ("TFLite takes no float64 data, and gs.vjp learns a lowering's linear map from float64 "
                            "probes (gatherscatter/grad/_probe.py): no gradient (the cases below run once it has one)")
_add("tflite.GATHER", "axis1", lambda r: ((F(r, 3, 4), I([1, 1, 3])), {"axis": 1}))
_add("tflite.GATHER_ND", "basic", lambda r: ((F(r, 3, 4), I([[0, 1], [2, 3], [0, 1]])), {}))
_add("tflite.SCATTER_ND", "dups", lambda r: ((I([[1], [3], [1]], np.int32), F(r, 3, 2), I([4, 2], np.int32)), {}))
_add("tflite.SEGMENT_SUM", "basic", lambda r: ((F(r, 5, 2), I([0, 0, 1, 2, 2], np.int32)), {}))
for _n in ("SUM", "PROD", "MAX", "MIN"):
    _add(f"tflite.UNSORTED_SEGMENT_{_n}", "basic",
         lambda r: ((SEP(r, 5, 2, dtype=np.float32), I([0, 2, 0, -1, 1], np.int32), 3), {}))
_add("mlx.take", "axis1", lambda r: ((F(r, 3, 4), I([1, -1, 1])), {"axis": 1}))
_add("mlx.take_along_axis", "axis1", lambda r: ((F(r, 3, 4), I([[0, 3], [1, 1], [2, 0]])), {"axis": 1}))
_add("mlx.put_along_axis", "axis1", lambda r: ((F(r, 3, 4), I([[0, 3], [1, 2], [2, 0]]), F(r, 3, 2)), {"axis": 1}))
for _n in ("add", "subtract", "multiply", "maximum", "minimum"):
    _add(f"mlx.at_{_n}", "dups", lambda r: ((SEP(r, 4, 2, dtype=np.float32), I([1, 3, -1]),
                                             SEP(r, 3, 2, dtype=np.float32)), {}))
# composed ops (session 7): mlx.at_divide is a multiply-scatter of reciprocals (differentiable in a only);
# numpy.ufunc_at with a core-reduction ufunc runs that op's scatter. The element-wise steps of the others are not
# linear: gs.vjp refuses them (tests/grad/test_jax.py compares the refusals with JAX)
_add("mlx.at_divide", "dups", lambda r: ((SEP(r, 4, 2, dtype=np.float32), I([1, 3, -1]),
                                          SEP(r, 3, 2, dtype=np.float32)), {}))
for _u in ("add", "multiply", "maximum"):
    _add("numpy.ufunc_at", _u, lambda r, u=_u: ((u, R(r, 4, 2), I([1, 3, 0]), R(r, 3, 2)), {}))
for _n in ("jax.at_divide", "jax.at_power", "jax.at_apply", "jax.lax.scatter_apply"):
    SKIP[_n] = ("the element-wise step after the scatter is not linear: gs.vjp refuses it, as JAX does without "
                "unique_indices=True (tests/grad/test_jax.py compares the refusals)")
