"""Running an exported translation in onnxruntime (CPU, one thread), and comparing results exactly."""

from __future__ import annotations

from typing import Any

import numpy as np


def session(model: Any) -> Any:
    """An onnxruntime CPU session with one intra-op and one inter-op thread."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def feeds(model: Any, inputs: tuple[str, ...], args: dict[str, Any]) -> dict[str, np.ndarray]:
    """The source op's arguments as graph feeds (a sequence argument ``x`` feeds ``x_0``, ``x_1`` ...)."""
    names = {i.name for i in model.graph.input}
    out: dict[str, np.ndarray] = {}
    for n in inputs:
        v = args[n]
        if n not in names and f"{n}_0" in names:
            for j, x in enumerate(v):
                out[f"{n}_{j}"] = np.asarray(x)
        elif n in names:
            out[n] = np.asarray(v)
    return out


def run_onnx(model: Any, inputs: tuple[str, ...], args: dict[str, Any]) -> np.ndarray:
    """Run ``model`` in onnxruntime on the source op's arguments; the single output."""
    return np.asarray(session(model).run(None, feeds(model, inputs, args))[0])


def same(x: Any, y: Any) -> bool:
    """Equal value, dtype and shape (NaN equals NaN)."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))


def show(x: Any) -> str:
    x = np.asarray(x)
    return f"{x.dtype}{list(x.shape)} {x.tolist()!r}"
