"""Framework dialects: one package per framework, one small file per op.

Each op keeps its framework's name, parameters and defaults, registers itself
with its versions (:func:`~gatherscatter.dialects._registry.dialect_op`) and
lowers onto a core primitive. No dialect imports its framework.
"""

from . import caffe2, jax, keras, mlx, mxnet, numpy, onnx, openvino, paddle, tensorflow, tflite, torch

__all__ = [
    "caffe2", "jax", "keras", "mlx", "mxnet", "numpy", "onnx", "openvino", "paddle", "tensorflow", "tflite", "torch",
]
