"""gatherscatter's ops inside onnx.reference.ReferenceEvaluator: hand-computed values, typed errors, versions.

Expected values are written by hand from the ONNX spec, or come from onnxruntime on
inputs where it is correct (no duplicates under a reduction, single thread).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import gatherscatter as gs  # noqa: E402
from gatherscatter.dialects._registry import ops  # noqa: E402
from gatherscatter.onnxtools.reference_ops import reference_ops  # noqa: E402

NAMES = {"Gather": ["data", "indices"], "GatherElements": ["data", "indices"], "GatherND": ["data", "indices"]}


def one_node(op: str, opset: int, arrays: list[np.ndarray], **attrs: Any) -> onnx.ModelProto:
    names = [f"in{k}" for k in range(len(arrays))]
    node = helper.make_node(op, names, ["y"], name="n", **attrs)
    vi = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
          for n, a in zip(names, arrays, strict=True)]
    out = helper.np_dtype_to_tensor_dtype(arrays[0].dtype)
    graph = helper.make_graph([node], "g", vi, [helper.make_tensor_value_info("y", out, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def run_ours(op: str, opset: int, arrays: list[np.ndarray], **attrs: Any) -> np.ndarray:
    model = one_node(op, opset, arrays, **attrs)
    feeds = {f"in{k}": a for k, a in enumerate(arrays)}
    return ReferenceEvaluator(model, new_ops=reference_ops()).run(None, feeds)[0]


F = np.float32
I64 = np.int64

# (op, opset, inputs, attrs, expected) -- expected computed by hand from the spec
HAND = [
    ("Gather", 13, [np.array([[1, 2], [3, 4], [5, 6]], F), np.array([2, -1, 0], I64)], {}, [[5, 6], [5, 6], [1, 2]]),
    ("Gather", 11, [np.array([[1, 2, 3], [4, 5, 6]], F), np.array([[2], [0]], np.int32)], {"axis": 1},
     [[[3], [1]], [[6], [4]]]),
    ("Gather", 9, [np.array([10, 20, 30], F), np.array(1, I64)], {}, 20),
    ("GatherElements", 13, [np.array([[1, 2], [3, 4]], F), np.array([[0, 0], [1, 0]], I64)], {"axis": 1},
     [[1, 1], [4, 3]]),
    ("GatherElements", 11, [np.arange(1, 101, dtype=F).reshape(1, 100), np.array([[99, 64, 0]], I64)], {"axis": 1},
     [[100, 65, 1]]),
    ("GatherND", 12, [np.array([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], F), np.array([[1], [0]], I64)],
     {"batch_dims": 1}, [[2, 3], [4, 5]]),
    ("GatherND", 11, [np.array([[0, 1], [2, 3]], F), np.array([[-1, 0], [0, 1]], I64)], {}, [2, 1]),
    ("ScatterElements", 18, [np.zeros((1, 4), F), np.array([[1, 1, 3]], I64), np.array([[1, 2, 5]], F)],
     {"axis": 1, "reduction": "add"}, [[0, 3, 0, 5]]),
    ("ScatterElements", 18, [np.array([[5, 5, 5]], F), np.array([[0, 0, 2]], I64), np.array([[7, 9, 1]], F)],
     {"axis": 1, "reduction": "min"}, [[5, 5, 1]]),
    ("ScatterElements", 11, [np.zeros((2, 2), F), np.array([[-1, 0]], I64), np.array([[8, 9]], F)], {},
     [[0, 9], [8, 0]]),
    ("Scatter", 9, [np.zeros((3,), F), np.array([2, 0], I64), np.array([4, 6], F)], {}, [6, 0, 4]),
    ("ScatterND", 16, [np.array([1, 2, 3, 4], F), np.array([[1], [1], [-1]], I64), np.array([10, 20, 30], F)],
     {"reduction": "mul"}, [1, 400, 3, 120]),
    ("ScatterND", 13, [np.zeros((2, 2), F), np.array([[1]], I64), np.array([[7, 8]], F)], {}, [[0, 0], [7, 8]]),
]


@pytest.mark.parametrize(("op", "opset", "arrays", "attrs", "expected"), HAND, ids=[f"{h[0]}-{h[1]}" for h in HAND])
def test_hand_computed(op: str, opset: int, arrays: list[np.ndarray], attrs: dict[str, Any], expected: Any) -> None:
    got = run_ours(op, opset, arrays, **attrs)
    assert got.dtype == arrays[0].dtype
    np.testing.assert_array_equal(got, np.array(expected, dtype=arrays[0].dtype))


def test_one_class_per_registered_onnx_op_named_as_the_onnx_op() -> None:
    classes = reference_ops()
    assert [c.__name__ for c in classes] == [op.info.name for op in ops(framework="onnx")]
    assert all(c.op_domain == "" for c in classes)
    assert gs.onnx.reference_ops() == classes


def test_tensorscatter_appears_when_gs_onnx_has_it() -> None:
    names = {c.__name__ for c in reference_ops()}
    assert ("TensorScatter" in names) == (getattr(gs.onnx, "TensorScatter", None) is not None)


def test_out_of_range_raises_the_typed_error_where_the_stock_evaluator_wraps() -> None:
    arrays = [np.array([[1, 2], [3, 4]], F), np.array([[0, 2], [1, 0]], I64)]
    model = one_node("GatherElements", 13, arrays, axis=1)
    feeds = {"in0": arrays[0], "in1": arrays[1]}
    assert ReferenceEvaluator(model).run(None, feeds)[0].tolist() == [[1, 1], [4, 3]]  # stock: 2 wraps to 0
    with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[0, 1\] = 2 is out of range") as info:
        ReferenceEvaluator(model, new_ops=reference_ops()).run(None, feeds)
    assert info.value.position == (0, 1)
    if hasattr(info.value, "__notes__"):
        assert "in ONNX node 'n' (GatherElements)" in info.value.__notes__


def test_dtype_errors_keep_their_type_through_the_evaluator() -> None:
    # OpRun.run turns every TypeError into a generic one; ours come out as DTypeError
    arrays = [np.zeros((2, 2), F), np.array([[0]], np.int32)]
    with pytest.raises(gs.DTypeError, match="indices dtype int32"):
        run_ours("GatherND", 13, arrays)


@pytest.mark.parametrize(("opset", "ok"), [(16, False), (17, False), (18, True)])
def test_the_models_opset_selects_the_op_version(opset: int, ok: bool) -> None:
    arrays = [np.zeros((3,), F), np.array([0, 0], I64), np.array([2, 5], F)]
    if ok:
        assert run_ours("ScatterElements", opset, arrays, reduction="max").tolist() == [5, 0, 0]
    else:
        with pytest.raises(gs.UnsupportedError, match="added in opset 18"):
            run_ours("ScatterElements", opset, arrays, reduction="max")


def test_unknown_reduction_raises_instead_of_running_as_none() -> None:
    arrays = [np.zeros((3,), F), np.array([0], I64), np.array([2], F)]
    with pytest.raises(gs.UnsupportedError, match="unknown reduction 'sum'"):
        run_ours("ScatterElements", 18, arrays, reduction="sum")


def test_a_whole_graph_with_other_ops() -> None:
    # y = ScatterND(Add(x, x), Gather(idx_table, sel), upd): the other nodes run on the stock evaluator
    nodes = [
        helper.make_node("Add", ["x", "x"], ["x2"]),
        helper.make_node("Gather", ["table", "sel"], ["idx"], axis=0),
        helper.make_node("ScatterND", ["x2", "idx", "upd"], ["y"], reduction="add"),
    ]
    vi = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
        helper.make_tensor_value_info("table", TensorProto.INT64, [3, 1]),
        helper.make_tensor_value_info("sel", TensorProto.INT64, [2]),
        helper.make_tensor_value_info("upd", TensorProto.FLOAT, [2]),
    ]
    graph = helper.make_graph(nodes, "g", vi, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    feeds = {"x": np.array([1, 2, 3, 4], F), "table": np.array([[3], [0], [-1]], I64), "sel": np.array([2, 0], I64),
             "upd": np.array([10, 100], F)}
    got = ReferenceEvaluator(model, new_ops=reference_ops()).run(None, feeds)[0]
    assert got.tolist() == [2, 4, 6, 118]  # both updates land on index 3 (-1 and 3): 8 + 10 + 100


@pytest.mark.parametrize("seed", range(4))
def test_same_as_onnxruntime_on_random_valid_inputs(seed: int) -> None:
    ort = pytest.importorskip("onnxruntime")
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((5, 6, 4)).astype(F)
    cases = [
        ("Gather", 13, [data, rng.integers(-6, 6, (3, 2))], {"axis": 1}),
        ("GatherElements", 13, [data, rng.integers(-4, 4, (5, 6, 7))], {"axis": 2}),
        ("GatherND", 13, [data, rng.integers(-5, 5, (3, 2, 1))], {"batch_dims": 0}),
        ("GatherND", 13, [data, rng.integers(-6, 6, (5, 2, 1))], {"batch_dims": 1}),
        ("ScatterElements", 18, [data, rng.integers(-6, 6, (5, 9, 4)), rng.standard_normal((5, 9, 4)).astype(F)],
         {"axis": 1, "reduction": "max"}),
        ("ScatterND", 18, [data, rng.permutation(5)[:3].reshape(3, 1), rng.standard_normal((3, 6, 4)).astype(F)], {}),
    ]
    for op, opset, arrays, attrs in cases:
        arrays = [np.asarray(a) for a in arrays]
        model = one_node(op, opset, arrays, **attrs)
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        want = sess.run(None, {f"in{k}": a for k, a in enumerate(arrays)})[0]
        np.testing.assert_array_equal(run_ours(op, opset, arrays, **attrs), want, err_msg=op)
