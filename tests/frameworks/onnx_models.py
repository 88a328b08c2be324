"""Run one ONNX node in onnxruntime or onnx.reference (test helper)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx import helper

INPUTS = {
    "Gather": ["data", "indices"],
    "GatherElements": ["data", "indices"],
    "GatherND": ["data", "indices"],
    "ScatterElements": ["data", "indices", "updates"],
    "ScatterND": ["data", "indices", "updates"],
    "Scatter": ["data", "indices", "updates"],
}


def make_model(op_type: str, opset: int, arrays: list[np.ndarray[Any, Any]], **attrs: Any) -> onnx.ModelProto:
    names = INPUTS[op_type]
    node = helper.make_node(op_type, names, ["y"], **attrs)
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), [None] * a.ndim)
        for n, a in zip(names, arrays, strict=False)
    ]
    out_type = helper.np_dtype_to_tensor_dtype(arrays[0].dtype)
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info("y", out_type, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def run_ort(op_type: str, opset: int, arrays: list[np.ndarray[Any, Any]], **attrs: Any) -> np.ndarray[Any, Any]:
    import onnxruntime as ort

    model = make_model(op_type, opset, arrays, **attrs)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1  # ScatterND add is racy with 2 threads (docs/behavior-matrix.md#perf-8)
    so.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, dict(zip(INPUTS[op_type], arrays, strict=True)))[0]


def run_ref(op_type: str, opset: int, arrays: list[np.ndarray[Any, Any]], **attrs: Any) -> np.ndarray[Any, Any]:
    from onnx.reference import ReferenceEvaluator

    model = make_model(op_type, opset, arrays, **attrs)
    return ReferenceEvaluator(model).run(None, dict(zip(INPUTS[op_type], arrays, strict=True)))[0]
