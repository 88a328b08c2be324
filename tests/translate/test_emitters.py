"""Every adapter has a code emitter for every code target, and the emitted code computes the adapter.

The adapters' NumPy forms (``translate/adapters.py`` run with its NumPy vocabulary, or ``translate/ir.py``)
are their definitions. Each adapter gets a
small table of inputs here (edge shapes included: 0-d, empty, negative indices); the ONNX emitter's
graph is run in onnxruntime and the NumPy-syntax emitters' expressions are evaluated, and both must
reproduce the definition exactly (value, dtype, shape). A new adapter without a row in ``CASES``
fails :func:`test_every_adapter_has_input_cases`, so no emitter goes untested.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gatherscatter.translate import Translation
from gatherscatter.translate.codegen_python import ADAPTER_EMIT, HEADER, TARGETS
from gatherscatter.translate.ir import ADAPTERS, Program, Step
from gatherscatter.translate.model import Canonical, Source, TargetPlan

from .ort_util import same, show

i64, i32, f64, f32 = np.int64, np.int32, np.float64, np.float32
A = np.asarray


def _data(*shape: int, dtype: Any = f64) -> np.ndarray:
    return (np.arange(int(np.prod(shape))) - 3).reshape(shape).astype(dtype)


# name -> list of (positional value arguments, attrs)
CASES: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "moveaxis": [((_data(2, 3, 4),), {"source": 0, "destination": -1}),
                 ((_data(2, 3),), {"source": -1, "destination": 0}),
                 ((_data(2, 0, 4),), {"source": 2, "destination": 1})],
    "expand_dims": [((A([1, 2], i64),), {"axis": -1}), ((A(3.0),), {"axis": 0})],
    "flatten": [((_data(2, 3),), {}), ((A(5, i32),), {}), ((np.zeros((0, 3)),), {})],
    "cast": [((A([1.7, -1.7, 2.0], f32),), {"dtype": "int64"}), ((A([1, 2], i32),), {"dtype": "int64"})],
    "normalize_negative": [((A([-3, -1, 0, 2, -4], i64), _data(3, 2)), {"axis": 0}),
                           ((A([[-1, -2], [0, 1]], i32), _data(2, 3)), {"batch_dims": 0}),
                           ((A([[-1], [1]], i64), _data(2, 3)), {"batch_dims": 1})],
    "clip_index": [((A([-3, -1, 0, 2, 7], i64), _data(3, 2)), {"axis": 0}),
                   ((A([[-1, 5], [0, 1]], i64), _data(2, 3)), {"batch_dims": 0}),
                   ((A([1, 0], i64), _data(0, 2)), {"axis": 0})],
    "wrap_index": [((A([-4, -1, 0, 2, 7], i64), _data(3, 2)), {"axis": 0}),
                   ((A([[-1, 5], [4, 1]], i32), _data(2, 3)), {"batch_dims": 0}),
                   ((np.zeros((0,), i64), _data(0, 2)), {"axis": 0})],
    "valid_mask": [((A([-1, 0, 2, 3], i64), _data(3, 2)), {"axis": 0}),
                   ((A([[-1, 2], [1, 1], [2, 0]], i64), _data(2, 3)), {"batch_dims": 0}),
                   ((np.zeros((2, 0), i64), _data(2, 3)), {"batch_dims": 0})],
    "mask_result": [((_data(2, 3), A([True, False, True])), {"lead": 1, "value": -1.0}),
                    ((_data(3, 2, dtype=i32), A([False, True, True])), {"lead": 0, "value": None, "reduction": "max"}),
                    ((_data(2, 2), A([[True, False], [False, True]])), {"lead": 0, "value": np.nan})],
    "zeros": [((A([2, 3], i64), _data(1, dtype=f32)), {}), ((A([0, 2], i64), _data(1, dtype=i32)), {})],
    "slice_like": [((_data(3, 4), np.zeros((2, 2), i64)), {}), ((_data(3), np.zeros((0,), i64)), {})],
    "full_updates": [((np.zeros((2, 3), i64), _data(1, dtype=f32)), {"value": 2.5}),
                     ((np.zeros((0,), i64), _data(2, dtype=i64)), {"value": 7})],
    "zeros_like": [((_data(2, 3, dtype=i32),), {}), ((A(1.5),), {})],
    "ones_like": [((_data(2, 3),), {}), ((np.zeros((0, 2), f32),), {})],
    "identity_like": [((_data(2, 3),), {"reduction": r}) for r in ("add", "mul", "max", "min", "mean")]
    + [((_data(2, dtype=i32),), {"reduction": "max"}), ((_data(2, dtype=i64),), {"reduction": "min"})],
    "negative": [((_data(2, 3),), {}), ((A([np.iinfo(i32).min, 3], i32),), {})],
    "scale": [((_data(2, 3),), {"alpha": 2}), ((_data(3, dtype=i64),), {"alpha": -3})],
    "divide_counts": [((A([7.0, -7.0, 0.0]), A([2.0, 2.0, 0.0]), A([1.0, 1.0, 5.0])), {"rounding": "floor"}),
                      ((A([7, -7, 0, 9]), A([2, 2, 0, 3]), A([1, 1, 5, 4])), {"rounding": "floor"}),
                      ((A([7, -7, 0], i32), A([2, 2, 0], i32), A([1, 1, 5], i32)), {"rounding": "trunc"})],
    "coordinates": [((A([[2, 0, 1], [1, 1, 0]], i64),), {"axis": 1}), ((A([[2], [0]], i32),), {"axis": 0}),
                    ((A([1, 0, 2], i64),), {"axis": -1}), ((np.zeros((0, 2), i64),), {"axis": 0})],
    "stack_last": [(((A([0, 2, 1], i64), A([[1], [0]], i64)),), {}),
                   (((A([0, 1], i32), A([1, 1], i64)),), {}), (((A([3, 1], i64),),), {})],
    "unstack_last": [((A([[0, 1], [2, 3], [4, 5]], i64),), {}), ((A([[[1, 2, 3]]], i32),), {})],
    "broadcast_indices": [((A([[1], [0]], i64), _data(2, 3)), {"axis": 0}),
                          ((A([[1, 0]], i64), _data(3, 1)), {"axis": 1})],
    "broadcast_data": [((_data(1, 3), A([[0, 1, 2], [1, 1, 1]], i64)), {"axis": None}),
                       ((_data(3, 1), A([[1, 0], [0, 0]], i64)), {"axis": 0})],
    # target planners (B)
    "unflatten_index": [((_data(2, 6), A([[1, 0, 2], [0, 0, 1]], i64)), {"axis": 1}),
                        ((_data(1, 3), A(1, i64)), {"axis": 0})],
    "take_coordinates": [((A([[1, 0, 2], [2, 2, 0]], i64), _data(2, 3, 2)), {"axis": 1, "batch_dims": 1}),
                         ((A([2, 0], i64), _data(3, 2)), {"axis": 0}),
                         ((A([[0, 1]], i32), _data(2, 3, 2)), {"axis": 2, "batch_dims": 0}),
                         ((A(1, i64), _data(3, 2)), {"axis": -1})],
    "nd_coordinates": [((A([[1, 0], [0, 2]], i64), _data(2, 3, 2)), {}),
                       ((A([[1], [0]], i64), _data(2, 3, 2)), {"batch_dims": 1}),
                       ((A([[1, 0, 1]], i32), _data(2, 3, 2)), {})],
    "ravel_tuples": [((A([[1, 0], [0, 2], [1, 2], [2, 0], [-1, 0]], i64), _data(2, 3, 2)), {}),
                     ((A([[3], [0]], i32), _data(4, 2)), {})],
    "reshape_like": [((_data(6), np.zeros((2, 3), i64)), {}), ((np.zeros((0,)), np.zeros((0, 2), i64)), {})],
    "slice_to_index": [((_data(3, 4), np.zeros((2, 2), i64)), {"axis": 0}),
                       ((_data(3, 4, 2), np.zeros((1, 5, 1), i64)), {"axis": 1})],
    "select": [((A([1, 0, 2], i64), A([1.0, 2.0, 3.0]), A([-1.0, -2.0, -3.0])), {}),
               ((A([True, False]), A([1, 2], i32), A([3, 4], i32)), {})],
    "combine": [((A([1.0, np.nan, 3.0]), A([2.0, 1.0, -1.0])), {"reduction": r})
                for r in ("add", "sub", "mul", "max", "min")]
    + [((A([True, False, True]), A([True, True, False])), {"reduction": r}) for r in ("add", "mul", "sub")]
    + [((A([5, -2], i32), A([3, 9], i32)), {"reduction": "max"})],
    "shape_of": [((_data(2, 3),), {}), ((np.zeros((0, 4)),), {})],
    "cycle_to": [((A([1.0, 2.0]), np.zeros((2, 3), i64)), {}), ((A([[1, 2], [3, 4]], i32), np.zeros(3, i64)), {}),
                 ((A([1.0]), np.zeros((0,), i64)), {})],
    # sources (A)
    "squeeze": [((_data(2, 1, 3),), {"axis": 1}), ((_data(1),), {"axis": 0})],
    "broadcast_updates": [((A(5.0), A([[0, 1], [1, 0]], i64), _data(2, 3, 4)), {}),
                          ((_data(4), A([[1], [0], [1]], i64), _data(2, 4)), {}),
                          ((_data(1, 3), A([[1], [0]], i64), _data(2, 2, 3)), {"batch_dims": 1})],
    "full_slices": [((A([[0], [1]], i64), _data(2, 3)), {"value": -1.5}),
                    ((A([[0, 1]], i64), _data(2, 3, 2, dtype=i32)), {"value": 7})],
    "mask_fill_default": [((_data(2, 3), A([True, False])), {"lead": 0}),
                          ((_data(2, 3, dtype=i32), A([True, False, True])), {"lead": 1}),
                          ((_data(3, dtype=np.uint8), A([False, True, True])), {"lead": 0}),
                          ((_data(2, 3, 4, dtype=f32), A([True, False, True])), {"trail": 1})],
    "merge_leading": [((_data(2, 3, 4),), {"count": 2}), ((_data(2, 3),), {"count": 1}),
                      ((np.zeros((2, 0, 3)),), {"count": 3})],
    "moveaxis_block": [((_data(2, 3, 4, 5), np.zeros((3, 4), i64), _data(2, 6, 5)), {"axis": 1}),
                       ((_data(3, 2), A(1, i64), _data(4, 2)), {"axis": 0}),
                       ((_data(4, 2, 3), np.zeros((2, 3), i64), _data(4, 5)), {"axis": -1})],
    # onnx.TensorScatter's write positions: w[b] + j (mod s when circular; -1 wraps to s - 1)
    "positions": [((A([1, 0], i64), _data(2, 2, 3), _data(2, 4, 3)), {"axis": 1, "circular": False}),
                  ((A([3, -1, 9], i64), _data(3, 1, 2), _data(3, 1, 4)), {"axis": -1, "circular": True}),
                  ((A([2], i64), _data(1, 0, 2), _data(1, 3, 2)), {"axis": -2, "circular": True}),
                  ((np.zeros((0,), i64), _data(0, 2), _data(0, 3)), {"axis": 1, "circular": False})],
    # segment reductions: rows from sorted ids, the output canvas, TF's mean / sqrt_n from sums and counts
    "segment_count": [((A([0, 0, 2], i64),), {}), ((np.zeros((0,), i32),), {}), ((A([3], i32),), {})],
    "full_rows": [((A(3, i64), A([0, 1], i64), _data(2, 4)), {"value": 0}),
                  ((A(2, i32), np.zeros((2, 3), i64), _data(2, 3, 2, dtype=f32)), {"reduction": "max"}),
                  ((A(0, i64), A([0], i64), _data(1, 2, dtype=i32)), {"value": 1})],
    "with_ones": [((_data(2, 3),), {}), ((_data(3, dtype=i32),), {}), ((np.zeros((0, 2), f32),), {})],
    "mean_of_pairs": [((A([[7.0, 2.0], [0.0, 0.0], [-3.0, 3.0]]),), {}),
                      ((A([[7, 2], [-7, 2], [5, 0]], i32),), {}), ((A([[[7, 2]], [[1, 3]]], i64),), {}),
                      ((A([[3.0, 4.0], [1.0, 0.0]], f32),), {"sqrt": True})],
    # torch.segment_reduce: the segment of each row from lengths (rows past the last segment: len(lengths)) or
    # offsets (rows before the first offset: -1); hand-computed
    "segment_ids": [((A([2, 0, 1], i64), _data(4)), {"axis": 0}),
                    ((A([[1, 1], [0, 2]], i32), _data(2, 2, 3)), {"axis": 1}),
                    ((A([1, 1, 3], i64), _data(5, 2)), {"axis": 0, "offsets": True}),
                    ((np.zeros((0,), i64), _data(3)), {"axis": 0}),
                    ((A([0], i32), _data(0, 2)), {"axis": 0, "offsets": True})],
    # embedding_bag: the bag of each entry of a 2-D input is its row; padding_idx entries get -1
    "row_ids": [((_data(2, 3),), {}), ((np.zeros((3, 0), i32),), {}), ((_data(4, dtype=f32),), {})],
    "drop_index": [((A([0, 0, 1, 1], i64), A([2, 0, 2, 1], i64), _data(3, 2)), {"value": -1}),
                   ((A([[0, 0], [1, 1]], i64), A([[0, 1], [1, 1]], i32), _data(4, 2)), {"value": 1}),
                   ((np.zeros((0,), i64), np.zeros((0,), i64), _data(2, 2)), {"value": 0})],
    "slice_last": [((A([0, 2, 5], i64),), {"start": 1}), ((_data(2, 3, dtype=f32),), {"start": 2}),
                   ((A([4], i32),), {"start": 1})],
    # composed ops' element-wise steps (session 7): JAX's true division and power, MLX's reciprocals, ufunc counts
    "divide_inexact": [((_data(2, 3), A([2.0, -4.0, 0.5])), {}), ((_data(3, dtype=i32), A([2, 4, 3], i32)), {}),
                       ((_data(2, dtype=f32), A([3.0, 7.0], f32)), {})],
    "power": [((A([1.5, 2.0, 0.5]), A([2.0, 3.0, 0.5])), {}), ((A([2, 3, -1], i64), A([3, 0, 5], i64)), {}),
              ((A([1.5, 2.5], f32), A([2.0, 1.5], f32)), {})],
    "reciprocal_like": [((A([2.0, 4.0, 0.5]), _data(3, dtype=f32)), {}), ((A([2, 4, 1], i64), _data(3)), {}),
                        ((A([0.5, 2.0], f32), _data(2, dtype=i32)), {})],
    "apply_counted": [((_data(2, 3), A([[0, 1, 2], [3, 0, 1]], i64)), {"func": "negative"}),
                      ((A([0.5, 2.0, 3.0]), A([2, 1, 0], i64)), {"func": "square"}),
                      ((A([1.5, -2.0], f32), np.zeros(2, i64)), {"func": "absolute"})],
}  # fmt: skip

ARG_NAMES = "abcdefgh"
RESHAPES = ("merge_leading", "reshape_like", "unflatten_index", "flatten")


def _adapter_translation(name: str, args: tuple[Any, ...], attrs: dict[str, Any], opset: int) -> Translation:
    """A one-step translation ``out = adapter(a, b, ...)`` whose inputs are the adapter's arguments."""
    inputs = tuple(ARG_NAMES[: len(args)])
    steps = [Step.adapt(name, "out", *inputs, **attrs)]
    canonical = Canonical("gather", "a", "b", "out")
    src = Source(f"adapter.{name}", {}, inputs, canonical)
    plan = TargetPlan("onnx", steps)
    return Translation(src, "onnx", opset, plan, Program(inputs, steps))


def _cases() -> list[tuple[str, int, tuple[Any, ...], dict[str, Any]]]:
    return [(name, n, args, attrs) for name in sorted(CASES) for n, (args, attrs) in enumerate(CASES[name])]


def test_every_adapter_has_input_cases():
    missing = sorted(set(ADAPTERS) - set(CASES))
    assert not missing, f"add rows to CASES for the new adapters {missing}"
    assert not set(CASES) - set(ADAPTERS), "CASES names an adapter that does not exist"


def _openvino_codegen() -> bool:
    from gatherscatter.translate import codegen_openvino

    return hasattr(codegen_openvino, "script")


CODE_TARGETS = sorted({"onnx", *HEADER, *ADAPTER_EMIT} | ({"openvino"} if _openvino_codegen() else set()))


@pytest.mark.parametrize("target", CODE_TARGETS)
def test_every_adapter_has_an_emitter_for_every_code_target(target):
    from gatherscatter.translate.onnx_export import ONNX_ADAPTERS

    if target == "openvino":
        from gatherscatter.translate.codegen_openvino import ADAPTER_EMIT as OV

        have = set(OV)
    else:
        have = set(ONNX_ADAPTERS) if target == "onnx" else set(ADAPTER_EMIT.get(target, {}))
    missing = sorted(set(ADAPTERS) - have)
    assert not missing, f"{target}: no emitter for {missing}"


@pytest.mark.parametrize("opset", [18, 11])  # 11: every attribute-form node (Unsqueeze, Squeeze ...)
@pytest.mark.parametrize(("name", "n", "args", "attrs"), _cases(), ids=[f"{c[0]}-{c[1]}" for c in _cases()])
def test_onnx_emitter_computes_the_adapter(name, n, args, attrs, opset):
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from .ort_util import session

    expected = ADAPTERS[name].run(*args, **attrs)
    if opset < 14 and name in RESHAPES and 0 in np.shape(expected):
        pytest.skip("Reshape to a shape with a 0 needs allowzero (opset 14): before, 0 means 'copy the dim'")
    t = _adapter_translation(name, args, attrs, opset)
    example = dict(zip(t.source.inputs, args, strict=True))
    model = t.to_onnx(**example)
    assert [o.version for o in model.opset_import] == [opset]
    feeds = {}
    for k, v in example.items():
        if isinstance(v, tuple):
            feeds.update({f"{k}_{j}": np.asarray(x) for j, x in enumerate(v)})
        else:
            feeds[k] = np.asarray(v)
    names = {i.name for i in model.graph.input}
    got = session(model).run(None, {k: v for k, v in feeds.items() if k in names})
    if isinstance(expected, tuple) and name != "shape_of":
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert same(g, e), f"{show(g)} != {show(e)}"
    else:
        exp = np.asarray(expected, dtype=np.int64) if name == "shape_of" else expected
        assert same(got[0], exp), f"{show(got[0])} != {show(exp)}"


PY_TARGETS = sorted(HEADER)


def _to_framework(target: str, v: Any) -> Any:
    """A value in the target framework's array type (tuples stay tuples)."""
    if isinstance(v, tuple):
        return tuple(_to_framework(target, x) for x in v)
    v = np.asarray(v)
    if target == "torch":
        import torch

        return torch.as_tensor(v.copy())
    if target == "jax":
        import jax.numpy as jnp

        return jnp.asarray(v)
    if target == "tensorflow":
        import tensorflow as tf

        return tf.constant(v)
    return v


def _from_framework(v: Any) -> Any:
    if isinstance(v, (tuple, list)) and not all(isinstance(x, (int, np.integer)) for x in v):
        return tuple(_from_framework(x) for x in v)
    if hasattr(v, "numpy"):
        return np.asarray(v.numpy())
    return np.asarray(v)


FRAMEWORK_MODULE = {"torch": "torch", "jax": "jax", "tensorflow": "tensorflow", "paddle": "paddle", "mxnet": "mxnet"}


def _python_cases() -> list[Any]:
    """Every case for NumPy and the neutral target; torch and JAX (slower to start) every case too when
    ``-m slow``, else the first two cases of each adapter."""
    out = []
    for target in [t for t in PY_TARGETS if t in ("numpy", "gatherscatter", "torch", "jax")]:
        for name, n, args, attrs in _cases():
            marks = [pytest.mark.slow] if target in ("torch", "jax") and n >= 2 else []
            out.append(pytest.param(target, name, n, args, attrs, marks=marks, id=f"{target}-{name}-{n}"))
    return out


@pytest.mark.parametrize(("target", "name", "n", "args", "attrs"), _python_cases())
def test_python_emitter_computes_the_adapter(target, name, n, args, attrs):
    """The emitted code, run in the target framework (NumPy, torch, JAX where installed), is the adapter."""
    from gatherscatter.translate.codegen import compile_function, function_code

    if target in FRAMEWORK_MODULE:
        pytest.importorskip(FRAMEWORK_MODULE[target])
    if target == "jax":
        import jax

        jax.config.update("jax_enable_x64", True)
    if name not in ADAPTER_EMIT.get(target, {}):
        pytest.skip(f"no {target} emitter for {name} (test_every_adapter_has_an_emitter_for_every_code_target fails)")
    expected = ADAPTERS[name].run(*args, **attrs)
    inputs = tuple(ARG_NAMES[: len(args)])
    step = Step.adapt(name, "out", *inputs, **attrs)
    code = function_code(TARGETS[target], inputs, [step], "out")
    fn = compile_function(code)
    got = _from_framework(fn(*[_to_framework(target, a) for a in args]))
    if isinstance(expected, tuple) and name != "shape_of":
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert same(g, e), f"{code}\n{show(g)} != {show(e)}"
    else:
        exp = np.asarray(expected, dtype=np.int64) if name == "shape_of" else np.asarray(expected)
        assert same(np.asarray(got, dtype=exp.dtype) if name == "shape_of" else got, exp), \
            f"{code}\n{show(got)} != {show(exp)}"


def test_adapters_written_once_are_not_redefined_by_a_target():
    """Every adapter is written once, in ``translate/adapters.py``, and runs (NumPy) and emits (every code target)
    from that one definition: no target table overrides it with a hand-written emitter."""
    from gatherscatter.translate.adapters import DEFS
    from gatherscatter.translate.onnx_export import ONNX_ADAPTERS

    tables = {"onnx": ONNX_ADAPTERS, **ADAPTER_EMIT}
    if _openvino_codegen():
        from gatherscatter.translate.codegen_openvino import ADAPTER_EMIT as OV

        tables["openvino"] = OV
    assert set(DEFS) == set(ADAPTERS), sorted(set(ADAPTERS) ^ set(DEFS))
    for name, fn in DEFS.items():
        assert ADAPTERS[name].run.func is fn, name
        for target, table in tables.items():
            assert "traced" in table[name].__qualname__, f"{target} redefines {name}"
