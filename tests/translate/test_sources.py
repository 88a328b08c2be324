"""Source descriptions: every registered op is read exactly as a canonical (neutral-API) call.

``translate(op, to="gatherscatter", **attrs).verify_source(n)`` runs the source
op (its dialect, verified against the real framework) and the description's own
program (``pre`` adapters, the canonical call, ``post`` adapters) on generated
inputs; a disagreement must be explained by a residual the source lists.
Expected values come from the source dialects and from hand-computed tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects._registry import get_op
from gatherscatter.errors import GatherScatterError, UnsupportedError
from gatherscatter.translate import translate

G = gs.jax.lax.GatherDimensionNumbers
S = gs.jax.lax.ScatterDimensionNumbers

# ------------------------------------------------------------------------------------------------ the grid

_LAX_GATHER = [
    (G(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 3)),  # rows (gather_nd k=1)
    (G(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1)),  # gather_nd k=2
    (G(offset_dims=(2, 3), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 2, 3)),  # index rank 3
    (G(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,),
       start_indices_batching_dims=(0,)), (1, 1, 2)),  # gather_nd with a batch dim
    (G(offset_dims=(0, 2), collapsed_slice_dims=(1,), start_index_map=(1,)), (2, 1, 3)),  # take along axis 1
    (G(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)), (2, 1)),  # take along the last axis
    (G(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,),
       start_indices_batching_dims=(0,)), (1, 1)),  # element-wise along axis 1
    (G(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,), operand_batching_dims=(1, 2),
       start_indices_batching_dims=(1, 2)), (1, 1, 1)),  # element-wise along axis 0
]
_LAX_SCATTER = [
    S((1,), (0,), (0,)),  # rows
    S((), (0, 1), (0, 1)),  # nd k=2
    S((), (0,), (0,)),  # elements of a vector
    S((2,), (1,), (1,), (0,), (0,)),  # nd with a batch dim
    S((0, 2), (1,), (1,)),  # rows along axis 1
    S((), (1,), (1,), (0,), (0,)),  # element-wise along axis 1
    S((), (0,), (0,), (1, 2), (1, 2)),  # element-wise along axis 0
]


def _grid() -> dict[str, list[dict[str, Any]]]:
    """Attribute values per op: every mode, reduction, device, version, and negative axes."""
    g: dict[str, list[dict[str, Any]]] = {}
    # ONNX
    g["onnx.Gather"] = [dict(axis=a, opset=o) for a in (0, -1, 1) for o in (1, 11, 13, None)]
    g["onnx.GatherElements"] = [dict(axis=a, opset=o) for a in (0, -1, 1) for o in (11, 13, None)]
    g["onnx.GatherND"] = [dict(batch_dims=0, opset=11)] + [dict(batch_dims=b, opset=o) for b in (0, 1, 2)
                                                           for o in (12, 13, None)]
    red = {11: ("none",), 13: ("none",), 16: ("none", "add", "mul"), 18: ("none", "add", "mul", "max", "min")}
    g["onnx.ScatterElements"] = [dict(axis=a, reduction=r, opset=o) for o, rs in red.items() for r in rs
                                 for a in (0, -1)]
    g["onnx.ScatterND"] = [dict(reduction=r, opset=o) for o, rs in red.items() for r in rs]
    g["onnx.Scatter"] = [dict(axis=a, opset=o) for a in (0, -1) for o in (9, 10)]
    # torch
    g["torch.gather"] = [dict(dim=d) for d in (0, 1, -1)]
    g["torch.take"] = [{}]
    g["torch.take_along_dim"] = [dict(dim=d) for d in (None, 0, 1, -1)]
    g["torch.index_select"] = [dict(dim=d) for d in (0, 1, -1)]
    g["torch.scatter"] = ([dict(dim=d, reduce=r) for d in (0, -1) for r in (None, "add", "multiply")]
                          + [dict(dim=d, value=v, reduce=r) for d in (1, -1) for v in (3, -1.5)
                             for r in (None, "add", "multiply")])
    g["torch.scatter_add"] = [dict(dim=d) for d in (0, -1)]
    g["torch.scatter_reduce"] = [dict(dim=d, reduce=r, include_self=s) for d in (0, -1)
                                 for r in ("sum", "prod", "mean", "amax", "amin", "max", "min") for s in (True, False)]
    g["torch.index_add"] = [dict(dim=d, alpha=a) for d in (0, 1, -1) for a in (1, 2, 0.5)]
    g["torch.index_copy"] = [dict(dim=d) for d in (0, 1, -1)]
    g["torch.index_fill"] = [dict(dim=d, value=v) for d in (0, -1) for v in (2, -1.5)]
    g["torch.index_reduce"] = [dict(dim=d, reduce=r, include_self=s) for d in (0, -1)
                               for r in ("prod", "mean", "amax", "amin") for s in (True, False)]
    g["torch.index_put"] = [dict(accumulate=a) for a in (False, True)]
    # TensorFlow
    gather = [(None, 0), (1, 0), (-1, 0), (1, 1), (2, 1), (None, 1), (0, 1)]
    g["tensorflow.gather"] = [dict(axis=a, batch_dims=b, device=d) for a, b in gather for d in ("cpu", "gpu", "xla")]
    g["tensorflow.gather_nd"] = [dict(batch_dims=b, device=d, bad_indices_policy=p) for b in (0, 1, 2)
                                 for d in ("cpu", "gpu", "xla") for p in ("", "IGNORE", "ERROR") if (d, p) != ("gpu",
                                                                                                              "ERROR")]
    for name in ("scatter_nd", "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "tensor_scatter_nd_max",
                 "tensor_scatter_nd_min"):
        g[f"tensorflow.{name}"] = [dict(device=d, bad_indices_policy=p) for d in ("cpu", "gpu", "xla")
                                   for p in ("", "IGNORE")]
    g["tensorflow.tensor_scatter_nd_update"] = [dict(device=d) for d in ("cpu", "gpu", "xla")]
    # NumPy
    g["numpy.take"] = [dict(axis=a, mode=m) for a in (None, 0, -1, 1) for m in ("raise", "wrap", "clip")]
    g["numpy.take_along_axis"] = [dict(axis=a) for a in (None, -1, 0, 1)]
    g["numpy.put"] = [dict(mode=m) for m in ("raise", "wrap", "clip")]
    g["numpy.put_along_axis"] = [dict(axis=a) for a in (None, -1, 0, 1)]
    for n in ("add", "subtract", "multiply", "maximum", "minimum"):
        g[f"numpy.{n}_at"] = [dict(form=f) for f in ("array", "tuple")]
    # JAX
    g["jax.take"] = [dict(axis=a, mode=m, fill_value=f) for a in (None, 0, -1, 1) for m in (None, "fill", "clip", "wrap")
                     for f in ((None, -1) if m in (None, "fill") else (None,))]
    g["jax.take_along_axis"] = [dict(axis=a, mode=m, fill_value=f, wrap_negative_indices=w) for a in (None, -1, 0)
                                for m in (None, "fill", "drop", "clip", "promise_in_bounds")
                                for f in ((None, 0) if m in (None, "fill", "drop") else (None,)) for w in (None, False)]
    g["jax.at_get"] = [dict(form=fo, mode=m, fill_value=f, wrap_negative_indices=w) for fo in ("array", "tuple")
                       for m in (None, "fill", "drop", "clip", "promise_in_bounds")
                       for f in ((None, 7) if m in ("fill", "drop") else (None,)) for w in (True, False)]
    for n in ("set", "add", "subtract", "multiply", "min", "max"):
        g[f"jax.at_{n}"] = [dict(form=fo, mode=m, wrap_negative_indices=w) for fo in ("array", "tuple")
                            for m in (None, "drop", "clip", "promise_in_bounds") for w in (True, False)]
    g["jax.lax.gather"] = [dict(dimension_numbers=dn, slice_sizes=ss, mode=m, fill_value=f) for dn, ss in _LAX_GATHER
                           for m in (None, "clip", "fill", "promise_in_bounds")
                           for f in ((None, -1) if m == "fill" else (None,))]
    for n in ("", "_add", "_sub", "_mul", "_max", "_min"):
        g[f"jax.lax.scatter{n}"] = [dict(dimension_numbers=dn, mode=m) for dn in _LAX_SCATTER
                                    for m in (None, "clip", "promise_in_bounds")]
    # Paddle
    g["paddle.gather"] = [dict(axis=a) for a in (None, 0, 1, -1)]
    g["paddle.index_select"] = [dict(axis=a) for a in (0, 1, -1)]
    g["paddle.gather_nd"] = [{}]
    g["paddle.take"] = [dict(mode=m) for m in ("raise", "wrap", "clip")]
    g["paddle.take_along_axis"] = [dict(axis=a, broadcast=b) for a in (0, 1, -1) for b in (True, False)]
    g["paddle.put_along_axis"] = [dict(axis=a, reduce=r, include_self=s, broadcast=b) for a in (0, -1)
                                  for r in ("assign", "add", "mul", "multiply", "mean", "amin", "amax")
                                  for s in (True, False) for b in (True, False)]
    g["paddle.scatter"] = [dict(overwrite=o) for o in (True, False)]
    g["paddle.scatter_nd_add"] = [{}]
    g["paddle.scatter_nd"] = [{}]
    # OpenVINO
    # the source op's own version is ``op_version`` (``version`` is the target's)
    g["openvino.Gather"] = [dict(axis=a, batch_dims=b, op_version=v) for v in (1, 7, 8)
                            for a, b in ((0, 0), (-1, 0), (1, 0), (1, 1), (2, 1)) if not (v == 1 and b)]
    g["openvino.GatherElements"] = [dict(axis=a) for a in (0, 1, -1)]
    g["openvino.GatherND"] = [dict(batch_dims=b, op_version=v) for b in (0, 1, 2, 3) for v in (5, 8)]
    g["openvino.ScatterElementsUpdate"] = (
        [dict(axis=a, op_version=3) for a in (0, -1)]
        + [dict(axis=a, reduction=r, use_init_val=u) for a in (0, -1)
           for r in ("none", "sum", "prod", "min", "max", "mean") for u in (True, False)])
    g["openvino.ScatterNDUpdate"] = [dict(op_version=3)] + [dict(reduction=r) for r in
                                                        ("none", "sum", "sub", "prod", "min", "max")]
    g["openvino.ScatterUpdate"] = [dict(axis=a) for a in (0, 1, -1, -2)]
    # MXNet
    g["mxnet.gather_nd"] = [{}]
    g["mxnet.scatter_nd"] = [{}]
    g["mxnet.take"] = [dict(axis=a, mode=m) for a in (0, -1, 1) for m in ("clip", "wrap", "raise")]
    g["mxnet.pick"] = [dict(axis=a, mode=m, keepdims=k) for a in (-1, 0, 1) for m in ("clip", "wrap")
                       for k in (False, True)]
    # Caffe2
    g["caffe2.Gather"] = [dict(axis=a, wrap_indices=w, match_outer=m) for a in (0, 1, -1, 2)
                          for w in (None, True, False) for m in (False, True) if not (m and a <= 0)]
    g["onnx.TensorScatter"] = [dict(axis=a, mode=m, opset=o) for m in ("linear", "circular") for a in (-2, 1, -1, 2)
                               for o in (None, 24)]
    g["caffe2.BatchGather"] = [dict(match_outer=m) for m in (False, True)]
    # segment reductions, embeddings, TFLite, Keras, MLX (issue 18)
    for r in ("sum", "prod", "max", "min"):
        g[f"tensorflow.unsorted_segment_{r}"] = [{}]
        g[f"jax.segment_{r}"] = [dict(mode=m) for m in (None, "clip", "drop")]
        g[f"tflite.UNSORTED_SEGMENT_{r.upper()}"] = [{}]
    for r in ("sum", "prod", "max", "min", "mean"):
        g[f"tensorflow.segment_{r}"] = [{}]
    for r in ("mean", "sqrt_n"):
        g[f"tensorflow.unsorted_segment_{r}"] = [{}]
    for r in ("sum", "mean", "max", "min"):
        g[f"paddle.segment_{r}"] = [{}]
    g["tflite.SEGMENT_SUM"] = [{}]
    g["tflite.GATHER"] = [dict(axis=a, batch_dims=b) for a, b in ((0, 0), (1, 0), (-1, 0), (1, 1), (2, 1))]
    g["tflite.GATHER_ND"] = [{}]
    g["tflite.SCATTER_ND"] = [{}]
    g["torch.embedding"] = [dict(padding_idx=p) for p in (None, 0, -1)]
    g["tensorflow.embedding_lookup"] = [{}]
    g["torch.embedding_bag"] = ([dict(mode=m, include_last_offset=last, padding_idx=p) for m in ("sum", "mean", "max")
                                 for last in (False, True) for p in (None, 0, -1)]
                                + [dict(mode=m, form="batch", padding_idx=p) for m in ("sum", "mean", "max")
                                   for p in (None, 1)]
                                + [dict(mode="sum", weighted=True, form=f, padding_idx=p) for f in ("offsets", "batch")
                                   for p in (None, -1)])
    g["torch.segment_reduce"] = ([dict(reduce=r, axis=a, form=f) for r in ("sum", "mean", "max", "amax", "min", "amin",
                                                                        "prod") for a in (0, 1)
                                  for f in ("lengths", "offsets")]
                                 + [dict(reduce=r, initial=i) for r in ("sum", "max", "min", "prod") for i in (2.5, -1)]
                                 + [dict(reduce=r, unsafe=True, form=f) for r in ("sum", "max")
                                    for f in ("lengths", "offsets")])
    g["mlx.take"] = [dict(axis=a) for a in (None, 0, 1, -1)]
    g["mlx.take_along_axis"] = [dict(axis=a) for a in (None, 0, 1, -1)]
    g["mlx.put_along_axis"] = [dict(axis=a) for a in (None, 0, 1, -1)]
    for n in ("add", "subtract", "multiply", "maximum", "minimum"):
        g[f"mlx.at_{n}"] = [{}]
    backends = ("jax", "tensorflow", "torch", "numpy")
    for n in ("take", "take_along_axis"):
        g[f"keras.{n}"] = [dict(axis=a, backend=b) for b in backends for a in (None, 0, 1, -1)]
    for n in ("scatter", "scatter_update"):
        g[f"keras.{n}"] = [dict(backend=b) for b in backends]
    for n in ("segment_sum", "segment_max"):
        g[f"keras.{n}"] = [dict(backend=b, sorted=s) for b in backends for s in (False, True)
                           if (b, s) != ("tensorflow", True)]
    # composed ops: a scatter and an element-wise step (session 7)
    for n in ("divide", "power"):
        g[f"jax.at_{n}"] = [dict(form=fo, mode=m, wrap_negative_indices=w) for fo in ("array", "tuple")
                            for m in (None, "drop", "clip", "promise_in_bounds") for w in (True, False)]
    funcs = ("negative", "absolute", "square", "exp", "sin", "floor", "sign", "sqrt")
    g["jax.at_apply"] = [dict(func=f, form=fo, mode=m) for f in funcs for fo in ("array", "tuple")
                         for m in (None, "clip")] + [dict(func="negative", wrap_negative_indices=False)]
    g["jax.lax.scatter_apply"] = [dict(dimension_numbers=dn, func=f, mode=m) for dn in _LAX_SCATTER
                                  for f in ("negative", "square", "floor") for m in (None, "clip")]
    g["mlx.at_divide"] = [{}]
    g["numpy.ufunc_at"] = [dict(ufunc=u, form=f) for u in ("add", "subtract", "multiply", "maximum", "minimum",
                                                           "negative", "absolute", "square", "sqrt", "logical_not",
                                                           "invert", "exp")
                           for f in ("array", "tuple")]
    # the neutral API
    fills = {"fill": -1}
    g["gatherscatter.take"] = ([dict(axis=-1, bounds=b, negative=n, fill_value=fills.get(b))
                                for b in ("raise", "wrap", "clip", "fill") for n in ("wrap", "raise", "bounds")]
                               + [dict(axis=None), dict(axis=2, batch_dims=1)])
    g["gatherscatter.take_along_axis"] = [dict(axis=1, bounds=b, negative=n, broadcast=True, fill_value=fills.get(b))
                                          for b in ("raise", "wrap", "clip", "fill") for n in ("wrap", "bounds")]
    g["gatherscatter.gather_nd"] = [dict(batch_dims=bd, bounds=b, index_axis=ia, fill_value=fills.get(b))
                                    for bd in (0, 1) for b in ("raise", "clip", "fill") for ia in (-1, 0)]
    g["gatherscatter.scatter_along_axis"] = [dict(axis=-1, reduction=r, bounds=b, include_self=s)
                                             for r in ("none", "add", "sub", "mul", "max", "min", "mean")
                                             for b in ("raise", "wrap", "clip", "drop") for s in (True, False)]
    g["gatherscatter.scatter_nd"] = [dict(batch_dims=bd, reduction=r, bounds=b, index_axis=ia, mean_rounding="trunc")
                                     for bd in (0, 1) for r in ("none", "add", "sub", "mul", "max", "min", "mean")
                                     for b in ("raise", "drop") for ia in (-1, 0)]
    return g


GRID = _grid()
ALL = [(op, attrs) for op, grid in GRID.items() for attrs in grid]


def _quick() -> list[tuple[str, dict[str, Any]]]:
    """Per op, enough grid entries that every value of every attribute appears at least once."""
    out: list[tuple[str, dict[str, Any]]] = []
    for op, grid in GRID.items():
        seen: set[tuple[str, str]] = set()
        for attrs in grid:
            keys = {(k, repr(v)) for k, v in attrs.items()}
            if not keys or not keys <= seen:
                out.append((op, attrs))
                seen |= keys
    return out


QUICK = _quick()


def _id(case: tuple[str, dict[str, Any]]) -> str:
    op, attrs = case
    parts = [f"{k}={v!r}" if not hasattr(v, "_fields") else f"{k}={tuple(v)}" for k, v in attrs.items()]
    return f"{op}({', '.join(parts)})"


def _check(op: str, attrs: dict[str, Any], n: int) -> None:
    t = translate(op, to="gatherscatter", **attrs)
    r = t.verify_source(n)
    assert r.ok, f"{op} {attrs}:\n{r}"
    assert r.total == n
    assert r.source_rejects <= n // 2, f"{op} {attrs}: the generator mostly hits the source's static rules\n{r}"
    computed = r.agree - r.both_raise + sum(r.explained.values())
    assert computed >= n // 4, f"{op} {attrs}: too few computed cases\n{r}"


# ------------------------------------------------------------------------------------------------ coverage


#: ops registered without a description (their describe raises "has no description yet", saying why): strict, so
#: that an op registered without one fails here. Every registered op describes itself today.
PENDING: list[str] = []


def test_every_registered_op_has_a_description_and_a_grid() -> None:
    names = sorted(op.info.qualname for op in gs.ops())
    pending = PENDING
    undescribed = []
    for q in names:
        try:
            get_op(q).record.describe()
        except gs.UnsupportedError as e:
            if "has no description yet" in str(e):
                undescribed.append(q)
        except Exception:  # a description that needs attributes exists
            continue
    assert undescribed == pending
    assert [q for q in names if q not in GRID and q not in pending] == []
    assert sorted(GRID) == [q for q in names if q not in pending]


def test_the_quick_grid_covers_every_attribute_value() -> None:
    for op, grid in GRID.items():
        want = {(k, repr(v)) for attrs in grid for k, v in attrs.items()}
        got = {(k, repr(v)) for o, attrs in QUICK if o == op for k, v in attrs.items()}
        assert want == got, op


@pytest.mark.parametrize("case", QUICK, ids=_id)
def test_description_is_exact(case: tuple[str, dict[str, Any]]) -> None:
    op, attrs = case
    _check(op, attrs, 42)


@pytest.mark.slow
@pytest.mark.parametrize("case", ALL, ids=_id)
def test_description_is_exact_full_grid(case: tuple[str, dict[str, Any]]) -> None:
    op, attrs = case
    _check(op, attrs, 240)


# ------------------------------------------------------------------------------------------------ residuals


@pytest.mark.parametrize(
    ("op", "attrs", "when"),
    [
        ("mxnet.gather_nd", {}, "float_index"),
        ("mxnet.take", dict(mode="raise"), "float_index"),
        ("tensorflow.tensor_scatter_nd_max", {}, "nonfinite"),
        ("openvino.ScatterElementsUpdate", dict(axis=0, reduction="min", use_init_val=False), "nonfinite"),
        ("tensorflow.gather", dict(axis=1, device="xla"), "empty"),
        ("paddle.scatter", {}, "empty"),
    ],
)
def test_residuals_are_exercised(op: str, attrs: dict[str, Any], when: str) -> None:
    """The inputs a residual names do occur, and then the source really differs from its canonical call."""
    r = translate(op, to="gatherscatter", **attrs).verify_source(240)
    assert r.ok
    assert any(key.startswith(f"differs when {_WHEN[when]}") for key in r.explained), str(r)


@pytest.mark.parametrize(
    ("op", "attrs", "dtypes"),
    [
        ("torch.scatter_add", dict(dim=0), ("float16",)),
        ("torch.scatter_reduce", dict(dim=-1, reduce="mean"), ("int8", "float16")),
        ("torch.index_add", dict(dim=0), ("float16",)),
        ("torch.scatter", dict(dim=1, value=1.5, reduce="multiply"), ("float16",)),
    ],
)
def test_dtype_residuals_are_exercised(op: str, attrs: dict[str, Any], dtypes: tuple[str, ...]) -> None:
    """torch's float16 accumulation and its mean count in the data dtype: listed, and they do occur."""
    t = translate(op, to="gatherscatter", **attrs)
    t.source.layout["data_dtypes"] = dtypes
    r = t.verify_source(240)
    assert r.ok, str(r)
    assert any(key.startswith(f"differs when {_WHEN['dtype']}") for key in r.explained), str(r)


_WHEN = {
    "dtype": "the data or index dtype is outside the common set",
    "float_index": "indices are floating point",
    "nonfinite": "a floating-point input holds NaN or an infinity",
    "empty": "an input is empty",
}


# ------------------------------------------------------------------------------------------------ hand-checked


def _canon(op: str, **attrs: Any) -> dict[str, Any]:
    c = translate(op, to="gatherscatter", **attrs).source.canonical
    return {k: getattr(c, k) for k in ("family", "axis", "batch_dims", "negative", "bounds", "fill_value",
                                       "reduction", "include_self", "duplicates_specified", "broadcast")}


@pytest.mark.parametrize(
    ("op", "attrs", "expected"),
    [
        ("torch.gather", dict(dim=1), dict(family="gather_elements", axis=1, negative="raise", bounds="raise")),
        ("torch.take_along_dim", dict(dim=-1), dict(family="gather_elements", broadcast=True, negative="bounds",
                                                    bounds="wrap")),
        ("torch.scatter", dict(dim=0, reduce="multiply"), dict(family="scatter_elements", reduction="mul",
                                                              negative="raise", duplicates_specified=False)),
        ("torch.scatter_reduce", dict(dim=0, reduce="amax", include_self=False),
         dict(reduction="max", include_self=False, negative="raise")),
        ("torch.index_fill", dict(dim=1, value=0), dict(family="scatter_nd", negative="wrap", reduction="none")),
        ("torch.index_put", dict(accumulate=True), dict(family="scatter_nd", reduction="add", negative="wrap")),
        ("onnx.ScatterND", dict(reduction="none"), dict(family="scatter_nd", negative="wrap",
                                                        duplicates_specified=False)),
        ("tensorflow.gather", dict(axis=1, device="gpu"), dict(family="gather", negative="bounds", bounds="fill",
                                                               fill_value=0)),
        ("tensorflow.gather", dict(axis=1, device="xla"), dict(negative="bounds", bounds="clip")),
        ("tensorflow.gather", dict(axis=0, batch_dims=1), dict(axis=0, batch_dims=0, negative="raise")),
        ("tensorflow.gather", dict(batch_dims=1), dict(axis=1, batch_dims=1)),
        ("tensorflow.scatter_nd", dict(device="xla"), dict(reduction="add", negative="bounds", bounds="drop")),
        ("tensorflow.gather_nd", dict(device="xla", bad_indices_policy="IGNORE"), dict(bounds="fill", fill_value=0)),
        ("numpy.take", dict(mode="clip"), dict(negative="bounds", bounds="clip")),
        ("numpy.take", dict(mode="raise"), dict(negative="wrap", bounds="raise")),
        ("numpy.put_along_axis", dict(axis=1), dict(family="scatter_elements", broadcast=True, negative="wrap")),
        ("mxnet.take", {}, dict(family="gather", axis=0, negative="bounds", bounds="clip")),
        ("paddle.scatter", dict(overwrite=False), dict(family="scatter_nd", reduction="add", include_self=False)),
        ("paddle.put_along_axis", dict(axis=0, reduce="amin", include_self=False),
         dict(reduction="min", include_self=False, broadcast=True)),
        ("openvino.Gather", dict(axis=0, op_version=8), dict(negative="wrap", bounds="fill", fill_value=0)),
        ("openvino.Gather", dict(axis=0, op_version=7), dict(negative="raise", bounds="raise")),
        ("openvino.ScatterElementsUpdate", dict(axis=0, reduction="mean", use_init_val=False),
         dict(reduction="mean", include_self=False)),
        ("caffe2.Gather", dict(axis=0), dict(negative="wrap")),
        ("caffe2.Gather", dict(axis=-2), dict(negative="raise")),
        ("caffe2.BatchGather", {}, dict(axis=1, negative="raise")),
        ("jax.take", dict(mode="clip"), dict(negative="bounds", bounds="clip")),
        ("jax.take", dict(fill_value=0), dict(negative="wrap", bounds="fill", fill_value=0)),
        ("jax.take_along_axis", dict(axis=0, mode="promise_in_bounds"), dict(negative="bounds", bounds="clip")),
        ("jax.at_get", {}, dict(family="gather", negative="wrap", bounds="clip")),
        ("jax.at_set", dict(form="tuple"), dict(family="scatter_nd", negative="wrap", bounds="drop")),
        ("jax.at_add", dict(mode="clip"), dict(reduction="add", bounds="clip")),
        ("jax.lax.gather", dict(dimension_numbers=_LAX_GATHER[4][0], slice_sizes=_LAX_GATHER[4][1]),
         dict(family="gather", axis=1, negative="bounds", bounds="clip")),
        ("jax.lax.scatter_max", dict(dimension_numbers=_LAX_SCATTER[5]),
         dict(family="scatter_elements", axis=1, reduction="max", negative="bounds", bounds="drop")),
    ],
)
def test_canonical_attrs(op: str, attrs: dict[str, Any], expected: dict[str, Any]) -> None:
    got = _canon(op, **attrs)
    assert {k: got[k] for k in expected} == expected


def test_adapters_of_hand_checked_descriptions() -> None:
    t = translate("jax.take", to="gatherscatter", axis=1)
    assert [s.name for s in t.steps] == ["normalize_negative", "valid_mask", "gatherscatter.take", "mask_fill_default"]
    t = translate("openvino.GatherND", to="gatherscatter", batch_dims=2, op_version=5)
    assert t.steps[-1].name == "merge_leading"
    t = translate("torch.index_add", to="gatherscatter", dim=1, alpha=2)
    assert [s.name for s in t.source.pre] == ["moveaxis", "flatten", "expand_dims", "scale", "moveaxis"]
    assert t.steps[-1].describe() == "out = moveaxis(y, source=0, destination=1)"
    t = translate("mxnet.gather_nd", to="gatherscatter")
    assert [s.name for s in t.source.pre] == ["moveaxis", "cast"]


_F = float("nan")


@pytest.mark.parametrize(
    ("op", "attrs", "args", "expected"),
    [
        # paddle docs: overwrite=False zeroes the targeted rows, then sums (docs/semantics.md#e19,
        # docs/semantics.md#pitfall-10)
        ("paddle.scatter", dict(overwrite=False),
         dict(x=np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]), index=np.array([2, 1, 0, 1]),
              updates=np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])),
         [[3.0, 3.0], [6.0, 6.0], [1.0, 1.0]]),
        ("torch.index_add", dict(dim=0),
         dict(input=np.ones((3, 2), np.int64), index=np.array([0, 2, 0]), source=np.array([[1, 2], [3, 4], [5, 6]])),
         [[7, 9], [1, 1], [4, 5]]),
        ("torch.index_fill", dict(dim=1, value=-1.0),
         dict(input=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), index=np.array([0, -1])),
         [[-1.0, 2.0, -1.0], [-1.0, 5.0, -1.0]]),
        ("torch.index_put", dict(accumulate=True),
         dict(input=np.zeros(3), indices=(np.array([-1, -1, 2]),), values=np.array([1.0, 2.0, 4.0])),
         [0.0, 0.0, 7.0]),
        ("mxnet.gather_nd", {}, dict(data=np.array([[0, 1], [2, 3]]), indices=np.array([[1.0, 1.0, 0.0],
                                                                                         [0.0, 1.0, 0.0]])),
         [2, 3, 0]),
        ("mxnet.pick", dict(axis=1, mode="wrap"),
         dict(data=np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), index=np.array([2.0, -1.0, -2.0])),
         [1.0, 4.0, 5.0]),
        ("jax.take", {}, dict(a=np.array([10.0, 20.0, 30.0]), indices=np.array([0, -1, 3])), [10.0, 30.0, _F]),
        ("jax.take", dict(mode="clip"), dict(a=np.array([10, 20, 30]), indices=np.array([-1, 5])), [10, 30]),
        ("jax.take", {}, dict(a=np.array([10, 20, 30], np.int32), indices=np.array([3])), [-(2**31)]),
        ("jax.at_set", dict(form="tuple"),
         dict(x=np.array([1.0, 2.0, 3.0]), idx=(np.array([0, -1, 7]),), values=np.array([10.0, 20.0, 30.0])),
         [10.0, 2.0, 20.0]),
        ("numpy.put", dict(mode="clip"), dict(a=np.array([0, 1, 2, 3, 4]), ind=np.array([1, 22]),
                                               v=np.array([-5, -7])), [0, -5, 2, 3, -7]),
        ("numpy.put", {}, dict(a=np.zeros(5, np.int64), ind=np.array([0, 1, 2, 3]), v=np.array([1, 2])),
         [1, 2, 1, 2, 0]),
        ("paddle.take", {}, dict(x=np.array([[0, 1, 2], [3, 4, 5]]), index=np.array([[0, 5], [-1, -7]])),
         [[0, 5], [5, 5]]),
        ("tensorflow.scatter_nd", {}, dict(indices=np.array([[1], [1], [1]]), updates=np.array([10, 20, 30]),
                                           shape=(4,)), [0, 60, 0, 0]),
        ("openvino.Gather", dict(axis=0), dict(data=np.array([1, 2, 3, 4, 5]), indices=np.array([3, 10, -20])),
         [4, 0, 0]),
        ("openvino.ScatterUpdate", dict(axis=1),
         dict(data=np.zeros((2, 3)), indices=np.array([[2], [0]]), updates=np.array([[[1.0], [2.0]], [[3.0], [4.0]]])),
         [[2.0, 0.0, 1.0], [4.0, 0.0, 3.0]]),
    ],
)
def test_hand_computed_values(op: str, attrs: dict[str, Any], args: dict[str, Any], expected: Any) -> None:
    """The description's own program (pre, canonical call, post) on typed-in inputs, against typed-in values
    (and the source op itself agrees)."""
    t = translate(op, to="gatherscatter", **attrs)
    from gatherscatter.translate.ir import Program

    program = Program(t.source.inputs, t.source.pre + [t.source.canonical.step()] + t.source.post)
    got = program.run(args)
    np.testing.assert_array_equal(got, np.asarray(expected, dtype=got.dtype))
    np.testing.assert_array_equal(t.run_source(**args), got)


# ------------------------------------------------------------------------------------------------ rejected


@pytest.mark.parametrize(
    ("op", "attrs", "fragment"),
    [
        ("jax.at_set", dict(form="slice"), "index form 'slice'"),
        ("jax.at_get", dict(form="mask"), "index form 'mask'"),
        ("numpy.add_at", dict(form="ellipsis"), "index form 'ellipsis'"),
        ("jax.take", dict(mode="raise"), "mode='raise'"),
        ("jax.take_along_axis", dict(axis=0, mode="one_hot"), "one_hot"),
        ("jax.lax.gather", dict(dimension_numbers=G((1,), (), (0,)), slice_sizes=(2,)), "not a canonical"),
        ("jax.lax.scatter", dict(dimension_numbers=S((0,), (), (0,))), "not a canonical"),
        ("tensorflow.gather", dict(axis=1, batch_dims=-1), "batch_dims=-1"),
        ("tensorflow.gather_nd", dict(device="gpu", bad_indices_policy="ERROR"), "ERROR"),
        ("tensorflow.gather", dict(device="tpu"), "device='tpu'"),
        ("caffe2.Gather", dict(axis=0, match_outer=True), "match_outer"),
        ("openvino.ScatterElementsUpdate", dict(axis=0, reduction="sum", op_version=3), "reduction='sum'"),
        ("openvino.ScatterElementsUpdate", dict(axis=0, use_init_val=False, op_version=3), "use_init_val"),
        ("torch.scatter_reduce", dict(dim=0, reduce="median"), "reduce='median'"),
        ("paddle.put_along_axis", dict(axis=0, reduce="max"), "reduce='max'"),
        ("numpy.take", dict(mode="fill"), "mode='fill'"),
    ],
)
def test_rejected_attrs(op: str, attrs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(UnsupportedError, match=None) as info:
        translate(op, to="gatherscatter", **attrs)
    assert fragment in str(info.value)
    assert isinstance(info.value, GatherScatterError)
