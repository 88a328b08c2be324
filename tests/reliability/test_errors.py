"""Error quality: every error class, on a sample of ops of every framework and the neutral API.

Each row is one call that must fail, the error class it must raise, and the
parts its message must hold (DESIGN.md: "a message that names the framework op
and version, the argument, the rule, the offending value and its position"):

``label``    the op and its version as the message starts (``onnx.Gather (opset 28, Gather-13)``);
``arg``      the argument, in the framework's own vocabulary (``dim``/``index`` for torch ...);
``rule``     a fragment of the rule that was broken (``valid range is [-3, 2]``, ``must be``);
``value``    the offending value as the message shows it;
``where``    the position of the offending index (index and duplicate errors), else None.

The table covers, per framework, at least two ops for every class that the
framework's ops can raise; ``test_table_covers_every_class`` checks the coverage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

A = np.array
F2 = np.arange(6.0).reshape(2, 3)  # a 2x3 float64 matrix
F3 = np.arange(3.0)
I2 = A([[0, 1], [1, 0]])


@dataclass(frozen=True)
class Row:
    op: str
    error: type[gs.GatherScatterError]
    call: Callable[[], Any]
    label: str
    arg: str
    rule: str
    value: str
    where: str | None = None


IOOR, SHAPE, AXIS, DTYPE = gs.IndexOutOfRangeError, gs.ShapeError, gs.AxisError, gs.DTypeError
ARG, DUP, UNSUP = gs.ArgumentError, gs.DuplicateIndexError, gs.UnsupportedError

ROWS: list[Row] = [
    # ------------------------------------------------------------------ ONNX
    Row("onnx.Gather", IOOR, lambda: gs.onnx.Gather(F3, [0, 5]), "onnx.Gather (opset 28, Gather-13)", "indices", "valid range is [-3, 2]", "= 5", "indices[1]"),
    Row("onnx.ScatterND", IOOR, lambda: gs.onnx.ScatterND(F3, [[1], [-7]], [1.0, 2.0]), "onnx.ScatterND (opset 28, ScatterND-18)", "indices", "valid range is [-3, 2]", "= -7", "indices[1, 0]"),
    Row("onnx.ScatterElements", SHAPE, lambda: gs.onnx.ScatterElements(F2, I2, F2), "onnx.ScatterElements (opset 28, ScatterElements-18)", "updates", "must have", "[2, 3]"),
    Row("onnx.GatherND", SHAPE, lambda: gs.onnx.GatherND(F2, [[0, 0, 0]]), "onnx.GatherND (opset 28, GatherND-13)", "indices", "must", "3"),
    Row("onnx.Gather", AXIS, lambda: gs.onnx.Gather(F2, [0], axis=2), "onnx.Gather (opset 28, Gather-13)", "axis", "must be in [-2, 1]", "2"),
    Row("onnx.GatherElements", AXIS, lambda: gs.onnx.GatherElements(F2, I2, axis=-3), "onnx.GatherElements (opset 28, GatherElements-13)", "axis", "must be in [-2, 1]", "-3"),
    Row("onnx.Gather", DTYPE, lambda: gs.onnx.Gather(F3, A([0.0])), "onnx.Gather (opset 28, Gather-13)", "indices", "integer dtype", "float64"),
    Row("onnx.GatherND", DTYPE, lambda: gs.onnx.GatherND(F2, A([[0, 1]], np.int32)), "onnx.GatherND (opset 28, GatherND-13)", "indices", "int64", "int32"),
    Row("onnx.Gather", ARG, lambda: gs.onnx.Gather(F2, [0], axis=1.5), "onnx.Gather (opset 28, Gather-13)", "axis", "must be an int", "1.5"),
    Row("onnx.ScatterElements", ARG, lambda: gs.onnx.ScatterElements(F2, I2, F2[:, :2], axis="1"), "onnx.ScatterElements (opset 28, ScatterElements-18)", "axis", "must be an int", "'1'"),
    Row("onnx.ScatterND", DUP, lambda: gs.onnx.ScatterND(F3, [[1], [1]], [1.0, 2.0], duplicates="raise"), "onnx.ScatterND (opset 28, ScatterND-18)", "indices", "duplicate", "[1]", "indices[0] and indices[1]"),
    Row("onnx.ScatterElements", DUP, lambda: gs.onnx.ScatterElements(F3, [2, 2], [1.0, 2.0], duplicates="raise"), "onnx.ScatterElements (opset 28, ScatterElements-18)", "indices", "duplicate", "[2]", "indices[0] and indices[1]"),
    Row("onnx.ScatterND", UNSUP, lambda: gs.onnx.ScatterND(F3, [[1]], [1.0], reduction="mean"), "onnx.ScatterND (opset 28, ScatterND-18)", "reduction", "ScatterND accepts none, add, mul", "'mean'"),
    Row("onnx.ScatterElements", UNSUP, lambda: gs.onnx.ScatterElements(F3, [1], [1.0], reduction="max", opset=13), "onnx.ScatterElements (opset 13, ScatterElements-13)", "reduction", "opset", "'max'"),
    # ------------------------------------------------------------------ TensorFlow
    Row("tensorflow.gather", IOOR, lambda: gs.tensorflow.gather(F3, [0, 3]), "tensorflow.gather (TF 2.21, device='cpu')", "indices", "not in [0, 3)", "= 3", "indices[1]"),
    Row("tensorflow.tensor_scatter_nd_add", IOOR, lambda: gs.tensorflow.tensor_scatter_nd_add(F3, [[0], [-1]], [1.0, 1.0]), "tensorflow.tensor_scatter_nd_add (TF 2.21, device='cpu')", "indices", "not in [0, 3)", "-1", "indices[1]"),
    Row("tensorflow.gather_nd", SHAPE, lambda: gs.tensorflow.gather_nd(F2, [[0, 0, 0]]), "tensorflow.gather_nd (TF 2.21, device='cpu')", "indices", "must", "3"),
    Row("tensorflow.scatter_nd", SHAPE, lambda: gs.tensorflow.scatter_nd([[0], [1]], [1.0, 2.0, 3.0], [3]), "tensorflow.scatter_nd (TF 2.21, device='cpu')", "updates", "must", "[3]"),
    Row("tensorflow.gather", AXIS, lambda: gs.tensorflow.gather(F2, [0], axis=2), "tensorflow.gather (TF 2.21, device='cpu')", "axis", "must be in [-2, 1]", "2"),
    Row("tensorflow.gather_nd", AXIS, lambda: gs.tensorflow.gather_nd(F2, [[0]], batch_dims=3), "tensorflow.gather_nd (TF 2.21, device='cpu')", "batch_dims", "must", "3"),
    Row("tensorflow.gather", DTYPE, lambda: gs.tensorflow.gather(F3, A([0], np.uint8)), "tensorflow.gather (TF 2.21, device='cpu')", "indices", "int16, int32, int64", "uint8"),
    Row("tensorflow.tensor_scatter_nd_update", DTYPE, lambda: gs.tensorflow.tensor_scatter_nd_update(F3, A([[0.0]]), [1.0]), "tensorflow.tensor_scatter_nd_update (TF 2.21, device='cpu')", "indices", "integer dtype", "float64"),
    Row("tensorflow.gather", ARG, lambda: gs.tensorflow.gather(F3, [0], axis=0.5), "tensorflow.gather (TF 2.21, device='cpu')", "axis", "must be an int", "0.5"),
    Row("tensorflow.gather_nd", ARG, lambda: gs.tensorflow.gather_nd(F2, [[0]], batch_dims=True), "tensorflow.gather_nd (TF 2.21, device='cpu')", "batch_dims", "must be an int", "True"),
    Row("tensorflow.gather", UNSUP, lambda: gs.tensorflow.gather(F3, [0], device="tpu"), "tensorflow.gather", "device", "one of", "'tpu'"),
    Row("tensorflow.scatter_nd", UNSUP, lambda: gs.tensorflow.scatter_nd([[0]], [1.0], [3], bad_indices_policy="WRAP"), "tensorflow.scatter_nd (TF 2.21, device='cpu')", "bad_indices_policy", "one of", "'WRAP'"),
    # ------------------------------------------------------------------ PyTorch
    Row("torch.gather", IOOR, lambda: gs.torch.gather(F2, 1, [[0, 3]]), "torch.gather (2.13)", "index", "valid range is [0, 2]", "= 3", "index[0, 1]"),
    Row("torch.index_select", IOOR, lambda: gs.torch.index_select(F2, 0, [1, -1]), "torch.index_select (2.13)", "index", "must be in [0, 1]", "= -1", "index[1]"),
    Row("torch.scatter_add", SHAPE, lambda: gs.torch.scatter_add(F2, 1, [[0, 1, 2, 0]], F2), "torch.scatter_add (2.13)", "index", "must", "4"),
    Row("torch.index_put", SHAPE, lambda: gs.torch.index_put(F3, ([0, 1],), [1.0, 2.0, 3.0]), "torch.index_put (2.13)", "values", "shape", "[3]"),
    Row("torch.gather", AXIS, lambda: gs.torch.gather(F2, 2, [[0]]), "torch.gather (2.13)", "dim", "[-2, 1]", "2"),
    Row("torch.index_add", AXIS, lambda: gs.torch.index_add(F2, -3, [0], F2[:1]), "torch.index_add (2.13)", "dim", "[-2, 1]", "-3"),
    Row("torch.gather", DTYPE, lambda: gs.torch.gather(F2, 1, A([[0.0]])), "torch.gather (2.13)", "index", "integer dtype", "float64"),
    Row("torch.take", DTYPE, lambda: gs.torch.take(F3, A([0], np.int32)), "torch.take (2.13)", "index", "int64", "int32"),
    Row("torch.gather", ARG, lambda: gs.torch.gather(F2, 1.0, [[0]]), "torch.gather (2.13)", "dim", "must be an int", "1.0"),
    Row("torch.index_select", ARG, lambda: gs.torch.index_select(F2, "0", [0]), "torch.index_select (2.13)", "dim", "must be an int", "'0'"),
    Row("torch.index_copy", DUP, lambda: gs.torch.index_copy(F2, 0, [1, 1], np.ones((2, 3)), duplicates="raise"), "torch.index_copy (2.13)", "index", "duplicate", "[1, 0]", "index[0] and index[1]"),
    Row("torch.scatter", DUP, lambda: gs.torch.scatter(F3, 0, [2, 2], [1.0, 2.0], duplicates="raise"), "torch.scatter (2.13)", "index", "duplicate", "[2]", "index[0] and index[1]"),
    Row("torch.scatter_reduce", UNSUP, lambda: gs.torch.scatter_reduce(F3, 0, [1], [1.0], "median"), "torch.scatter_reduce (2.13)", "reduce", "must be either", "'median'"),
    Row("torch.index_reduce", UNSUP, lambda: gs.torch.index_reduce(F2, 0, [1], F2[:1], "sum"), "torch.index_reduce (2.13)", "reduce", "one of", "'sum'"),
    # ------------------------------------------------------------------ JAX
    Row("jax.take", IOOR, lambda: gs.jax.take(np.zeros((3, 0)), [[0]], axis=1), "jax.numpy.take (jax 0.10)", "indices", "empty axis", "= 0", "indices[0, 0]"),
    Row("jax.at_get", IOOR, lambda: gs.jax.at_get(np.zeros((0, 3)), (0,)), "jax x.at[idx].get (jax 0.10)", "idx", "out of bounds for axis 0 with size 0", "index 0"),
    Row("jax.take_along_axis", SHAPE, lambda: gs.jax.take_along_axis(F2, A([0, 1]), axis=1), "jax.numpy.take_along_axis (jax 0.10)", "indices", "same number of dimensions", "1 vs. 2"),
    Row("jax.lax.scatter_add", SHAPE, lambda: gs.jax.lax.scatter_add(F3, [[0]], [1.0, 2.0], gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))), "jax.lax.scatter_add (jax 0.10)", "updates", "must be equal", "has size 2"),
    Row("jax.take", AXIS, lambda: gs.jax.take(F2, [0], axis=2), "jax.numpy.take (jax 0.10)", "axis", "[-2, 1]", "2"),
    Row("jax.take_along_axis", AXIS, lambda: gs.jax.take_along_axis(F2, I2, axis=-3), "jax.numpy.take_along_axis (jax 0.10)", "axis", "[-2, 1]", "-3"),
    Row("jax.take", DTYPE, lambda: gs.jax.take(F3, A([0.0])), "jax.numpy.take (jax 0.10)", "indices", "integer", "float64"),
    Row("jax.at_set", DTYPE, lambda: gs.jax.at_set(F3, (A([0.5]),), 1.0), "jax x.at[idx].set (jax 0.10)", "index", "integer", "float64"),
    Row("jax.take", ARG, lambda: gs.jax.take(F2, [0], axis=1.5), "jax.numpy.take (jax 0.10)", "axis", "must be an int", "1.5"),
    Row("jax.lax.gather", ARG, lambda: gs.jax.lax.gather(F3, [[0]], "dn", (1,)), "jax.lax.gather (jax 0.10)", "dimension_numbers", "must be a GatherDimensionNumbers", "'dn'"),
    Row("jax.take", UNSUP, lambda: gs.jax.take(F3, [0], mode="wrap-around"), "jax.numpy.take (jax 0.10)", "mode", "one of", "'wrap-around'"),
    Row("jax.at_add", UNSUP, lambda: gs.jax.at_add(F3, (A([0]),), 1.0, mode="bounce"), "jax x.at[idx].add (jax 0.10)", "mode", "one of", '"bounce"'),
    # ------------------------------------------------------------------ NumPy
    Row("numpy.take", IOOR, lambda: gs.numpy.take(F3, [0, 3]), "numpy.take (numpy 2.4)", "indices", "valid range is [-3, 2]", "= 3", "indices[1]"),
    Row("numpy.add_at", IOOR, lambda: gs.numpy.add_at(F3, [0, -4], 1.0), "numpy.add.at (numpy 2.4)", "indices", "valid range is [-3, 2]", "-4", "[1]"),
    Row("numpy.put_along_axis", SHAPE, lambda: gs.numpy.put_along_axis(F2, A([0, 1]), 1.0, axis=1), "numpy.put_along_axis (numpy 2.4)", "indices", "same number of dimensions", "indices shape [2]"),
    Row("numpy.add_at", SHAPE, lambda: gs.numpy.add_at(F3, [0, 1], [1.0, 2.0, 3.0]), "numpy.add.at (numpy 2.4)", "b", "broadcast", "[3]"),
    Row("numpy.take", AXIS, lambda: gs.numpy.take(F2, [0], axis=2), "numpy.take (numpy 2.4)", "axis", "[-2, 1]", "2"),
    Row("numpy.take_along_axis", AXIS, lambda: gs.numpy.take_along_axis(F2, I2, axis=-3), "numpy.take_along_axis (numpy 2.4)", "axis", "[-2, 1]", "-3"),
    Row("numpy.take", DTYPE, lambda: gs.numpy.take(F3, A([0.0])), "numpy.take (numpy 2.4)", "indices", "integer", "float64"),
    Row("numpy.take_along_axis", DTYPE, lambda: gs.numpy.take_along_axis(F2, A([[0.0]]), axis=1), "numpy.take_along_axis (numpy 2.4)", "indices", "integer", "float64"),
    Row("numpy.take", ARG, lambda: gs.numpy.take(F2, [0], axis=1.0), "numpy.take (numpy 2.4)", "axis", "must be an int", "1.0"),
    Row("numpy.add_at", ARG, lambda: gs.numpy.add_at(F3, [0], None), "numpy.add.at (numpy 2.4)", "b", "second operand", "None"),
    Row("numpy.take", ARG, lambda: gs.numpy.take(F3, [0], mode="fill"), "numpy.take (numpy 2.4)", "mode", "must be one of", "'fill'"),
    Row("numpy.maximum_at", UNSUP, lambda: gs.numpy.maximum_at(F3.astype(complex), [0], 1j), "numpy.maximum.at (numpy 2.4)", "complex a", "not supported", "complex"),
    Row("numpy.add_at", UNSUP, lambda: gs.numpy.add_at(A(["a", "b"]), [0], "c"), "numpy.add.at (numpy 2.4)", "operands", "not supported", "str"),
    # ------------------------------------------------------------------ MXNet
    Row("mxnet.take", IOOR, lambda: gs.mxnet.take(F3, [0, 3], mode="raise"), "mxnet.take (MXNet 1.9.1)", "indices", "range", "3", "indices[1]"),
    Row("mxnet.gather_nd", IOOR, lambda: gs.mxnet.gather_nd(F3, [[0, 5]]), "mxnet.gather_nd (MXNet 1.9.1)", "indices", "range", "5", "indices[0, 1]"),
    Row("mxnet.pick", SHAPE, lambda: gs.mxnet.gather_nd(F3, [[0, 1], [0, 1]]), "mxnet.gather_nd (MXNet 1.9.1)", "indices", "exceeds data dimension", "indices.shape[0] = 2"),
    Row("mxnet.scatter_nd", SHAPE, lambda: gs.mxnet.scatter_nd([1.0, 2.0], [[0, 1, 2]], (3,)), "mxnet.scatter_nd (MXNet 1.9.1)", "data", "shape", "[2]"),
    Row("mxnet.take", AXIS, lambda: gs.mxnet.take(F2, [0], axis=2), "mxnet.take (MXNet 1.9.1)", "axis", "[-2, 1]", "2"),
    Row("mxnet.pick", AXIS, lambda: gs.mxnet.pick(F2, [0, 1], axis=-3), "mxnet.pick (MXNet 1.9.1)", "axis", "[-2, 1]", "-3"),
    Row("mxnet.take", DTYPE, lambda: gs.mxnet.take(A(["a", "b"]), [0]), "mxnet.take (MXNet 1.9.1)", "a", "dtype", "str"),
    Row("mxnet.gather_nd", DTYPE, lambda: gs.mxnet.gather_nd(F3, A([[0]], np.complex64)), "mxnet.gather_nd (MXNet 1.9.1)", "indices", "dtype", "complex64"),
    Row("mxnet.take", ARG, lambda: gs.mxnet.take(F2, [0], axis=0.5), "mxnet.take (MXNet 1.9.1)", "axis", "must be an int", "0.5"),
    Row("mxnet.pick", ARG, lambda: gs.mxnet.pick(F2, [0, 1], axis=0, keepdims="yes"), "mxnet.pick (MXNet 1.9.1)", "keepdims", "must be a bool", "'yes'"),
    Row("mxnet.scatter_nd", ARG, lambda: gs.mxnet.scatter_nd([1.0], [[0]], (3.5,)), "mxnet.scatter_nd (MXNet 1.9.1)", "shape", "must be a tuple of ints", "3.5"),
    Row("mxnet.take", UNSUP, lambda: gs.mxnet.take(F3, [0], mode="fill"), "mxnet.take (MXNet 1.9.1)", "(mode)", "valid values are", "'fill'"),
    Row("mxnet.pick", UNSUP, lambda: gs.mxnet.pick(F2, [0, 1], mode="raise"), "mxnet.pick (MXNet 1.9.1)", "(mode)", "valid values are", "'raise'"),
    # ------------------------------------------------------------------ Caffe2
    Row("caffe2.Gather", IOOR, lambda: gs.caffe2.Gather(F3, [0, 3]), "caffe2.Gather (caffe2, final source)", "INDICES", "valid range is [-3, 2]", "= 3", "INDICES[1]"),
    Row("caffe2.BatchGather", IOOR, lambda: gs.caffe2.BatchGather(F2, [0, 3]), "caffe2.BatchGather (caffe2, final source)", "INDICES", "valid range is [0, 2]", "= 3", "INDICES[1]"),
    Row("caffe2.Gather", SHAPE, lambda: gs.caffe2.Gather(F2, A([[0], [1], [0]]), axis=1, match_outer=True), "caffe2.Gather (caffe2, final source)", "INDICES", "same outer dims as DATA", "INDICES shape [3, 1]"),
    Row("caffe2.BatchGather", SHAPE, lambda: gs.caffe2.BatchGather(F3, [0]), "caffe2.BatchGather (caffe2, final source)", "DATA", "at least 2-D", "[3]"),
    Row("caffe2.Gather", AXIS, lambda: gs.caffe2.Gather(F2, [0], axis=2), "caffe2.Gather (caffe2, final source)", "axis", "[-2, 1]", "2"),
    Row("caffe2.Gather", DTYPE, lambda: gs.caffe2.Gather(F3, A([0.0])), "caffe2.Gather (caffe2, final source)", "INDICES", "int32, int64", "float64"),
    Row("caffe2.BatchGather", DTYPE, lambda: gs.caffe2.BatchGather(F2, A([0], np.int16)), "caffe2.BatchGather (caffe2, final source)", "INDICES", "int32, int64", "int16"),
    Row("caffe2.Gather", ARG, lambda: gs.caffe2.Gather(F2, [0], axis=0.5), "caffe2.Gather (caffe2, final source)", "axis", "must be an int", "0.5"),
    Row("caffe2.Gather", AXIS, lambda: gs.caffe2.Gather(F2, A([[0]]), axis=0, match_outer=True), "caffe2.Gather (caffe2, final source)", "axis", "at least 1", "got axis 0"),
    Row("caffe2.BatchGather", ARG, lambda: gs.caffe2.BatchGather(F2, [0], match_outer="x"), "caffe2.BatchGather (caffe2, final source)", "match_outer", "must be a bool", "'x'"),
    # ------------------------------------------------------------------ OpenVINO
    Row("openvino.GatherElements", IOOR, lambda: gs.openvino.GatherElements(F2, [[0, 3], [0, 0]], 1), "openvino.GatherElements (GatherElements-6)", "indices", "valid range is [0, 2]", "= 3", "indices[0, 1]"),
    Row("openvino.ScatterUpdate", IOOR, lambda: gs.openvino.ScatterUpdate(F3, [0, 4], [1.0, 2.0], 0), "openvino.ScatterUpdate (ScatterUpdate-3)", "indices", "valid range is [0, 2]", "= 4", "indices[1]"),
    Row("openvino.ScatterNDUpdate", SHAPE, lambda: gs.openvino.ScatterNDUpdate(F3, [[0]], [1.0, 2.0]), "openvino.ScatterNDUpdate (ScatterNDUpdate-15)", "updates", "shape", "[2]"),
    Row("openvino.GatherND", SHAPE, lambda: gs.openvino.GatherND(F2, [[0, 0, 0]]), "openvino.GatherND (GatherND-8)", "indices", "must", "3"),
    Row("openvino.Gather", AXIS, lambda: gs.openvino.Gather(F2, [0], 2), "openvino.Gather (Gather-8)", "axis", "[-2, 1]", "2"),
    Row("openvino.ScatterElementsUpdate", AXIS, lambda: gs.openvino.ScatterElementsUpdate(F2, I2, F2[:, :2], -3), "openvino.ScatterElementsUpdate (ScatterElementsUpdate-12)", "axis", "[-2, 1]", "-3"),
    Row("openvino.GatherElements", DTYPE, lambda: gs.openvino.GatherElements(F2, A([[0]], np.int16), 1), "openvino.GatherElements (GatherElements-6)", "indices", "int32, int64", "int16"),
    Row("openvino.Gather", DTYPE, lambda: gs.openvino.Gather(F3, A([0.0]), 0), "openvino.Gather (Gather-8)", "indices", "integer dtype", "float64"),
    Row("openvino.Gather", ARG, lambda: gs.openvino.Gather(F2, [0], 0.5), "openvino.Gather (Gather-8)", "axis", "must be an int", "0.5"),
    Row("openvino.ScatterUpdate", ARG, lambda: gs.openvino.ScatterUpdate(F3, [0], [1.0], "0"), "openvino.ScatterUpdate (ScatterUpdate-3)", "axis", "must be an int", "'0'"),
    Row("openvino.ScatterNDUpdate", DUP, lambda: gs.openvino.ScatterNDUpdate(F3, [[1], [1]], [1.0, 2.0], duplicates="raise"), "openvino.ScatterNDUpdate (ScatterNDUpdate-15)", "indices", "duplicate", "[1]", "indices[0] and indices[1]"),
    Row("openvino.ScatterUpdate", DUP, lambda: gs.openvino.ScatterUpdate(F3, [2, 2], [1.0, 2.0], 0, duplicates="raise"), "openvino.ScatterUpdate (ScatterUpdate-3)", "indices", "duplicate", "[2]", "indices[0] and indices[1]"),
    Row("openvino.Gather", UNSUP, lambda: gs.openvino.Gather(F3, [0], 0, version=9), "openvino.Gather", "version", "one of", "9"),
    Row("openvino.ScatterElementsUpdate", UNSUP, lambda: gs.openvino.ScatterElementsUpdate(F3, [0], [1.0], 0, reduction="mul"), "openvino.ScatterElementsUpdate (ScatterElementsUpdate-12)", "reduction", "one of", "'mul'"),
    # ------------------------------------------------------------------ Paddle
    Row("paddle.gather", IOOR, lambda: gs.paddle.gather(F3, [0, 3]), "paddle.gather (paddle 3.3.1)", "index", "valid range is [-3, 2]", "= 3", "index[1]"),
    Row("paddle.scatter_nd_add", IOOR, lambda: gs.paddle.scatter_nd_add(F3, [[0], [-4]], [1.0, 1.0]), "paddle.scatter_nd_add (paddle 3.3.1)", "index", "valid range is [-3, 2]", "-4", "index[1, 0]"),
    Row("paddle.scatter", SHAPE, lambda: gs.paddle.scatter(F2, [0], np.ones((1, 2))), "paddle.scatter (paddle 3.3.1)", "updates", "must have the rank of x", "updates shape [1, 2]"),
    Row("paddle.gather_nd", SHAPE, lambda: gs.paddle.gather_nd(F2, [[0, 0, 0]]), "paddle.gather_nd (paddle 3.3.1)", "index", "must", "3"),
    Row("paddle.gather", AXIS, lambda: gs.paddle.gather(F2, [0], axis=2), "paddle.gather (paddle 3.3.1)", "axis", "[-2, 1]", "2"),
    Row("paddle.take_along_axis", AXIS, lambda: gs.paddle.take_along_axis(F2, I2, axis=-3), "paddle.take_along_axis (paddle 3.3.1)", "axis", "[-2, 1]", "-3"),
    Row("paddle.gather", DTYPE, lambda: gs.paddle.gather(F3, A([0], np.int16)), "paddle.gather (paddle 3.3.1)", "index", "int32, int64", "int16"),
    Row("paddle.index_select", DTYPE, lambda: gs.paddle.index_select(F3.astype(np.int8), [0]), "paddle.index_select (paddle 3.3.1)", "x", "expected one of", "int8"),
    Row("paddle.gather", ARG, lambda: gs.paddle.gather(F2, [0], axis=0.5), "paddle.gather (paddle 3.3.1)", "axis", "must be an int", "0.5"),
    Row("paddle.put_along_axis", ARG, lambda: gs.paddle.put_along_axis(F2, I2, 1.0, axis="1"), "paddle.put_along_axis (paddle 3.3.1)", "axis", "must be an int", "'1'"),
    Row("paddle.put_along_axis", UNSUP, lambda: gs.paddle.put_along_axis(F2, I2, 1.0, axis=1, reduce="max"), "paddle.put_along_axis (paddle 3.3.1)", "reduce", "only support reduce op", "'max'"),
    Row("paddle.take", UNSUP, lambda: gs.paddle.take(F3, [0], mode="fill"), "paddle.take (paddle 3.3.1)", "'mode'", "should be 'raise', 'wrap', 'clip'", "'fill'"),
    # ------------------------------------------------------------------ the neutral API
    Row("gatherscatter.take", IOOR, lambda: gs.take(F3, [0, 3]), "gatherscatter.take", "indices", "valid range is [-3, 2]", "= 3", "indices[1]"),
    Row("gatherscatter.scatter_nd", IOOR, lambda: gs.scatter_nd(F3, [[0], [-4]], [1.0, 1.0]), "gatherscatter.scatter_nd", "indices", "valid range is [-3, 2]", "-4", "indices[1, 0]"),
    Row("gatherscatter.scatter_along_axis", SHAPE, lambda: gs.scatter_along_axis(F2, I2, F2, 1), "gatherscatter.scatter_along_axis", "updates", "must have the shape of indices", "[2, 3]"),
    Row("gatherscatter.gather_nd", SHAPE, lambda: gs.gather_nd(F2, [[0, 0, 0]]), "gatherscatter.gather_nd", "indices", "need data of rank >= 3", "indices shape [1, 3]"),
    Row("gatherscatter.take", AXIS, lambda: gs.take(F2, [0], axis=2), "gatherscatter.take", "axis", "must be in [-2, 1]", "2"),
    Row("gatherscatter.take_along_axis", AXIS, lambda: gs.take_along_axis(F2, I2, -3), "gatherscatter.take_along_axis", "axis", "must be in [-2, 1]", "-3"),
    Row("gatherscatter.take", DTYPE, lambda: gs.take(F3, A([0.0])), "gatherscatter.take", "indices", "integer dtype", "float64"),
    Row("gatherscatter.scatter_nd", DTYPE, lambda: gs.scatter_nd(F3, [[0]], A([1], np.int64)), "gatherscatter.scatter_nd", "updates", "must equal", "int64"),
    Row("gatherscatter.take", ARG, lambda: gs.take(F2, [0], axis=0.5), "gatherscatter.take", "axis", "must be an int", "0.5"),
    Row("gatherscatter.gather_nd", ARG, lambda: gs.gather_nd(F2, [[0]], batch_dims="0"), "gatherscatter.gather_nd", "batch_dims", "must be an int", "'0'"),
    Row("gatherscatter.scatter_nd", DUP, lambda: gs.scatter_nd(F3, [[1], [1]], [1.0, 2.0], duplicates="raise"), "gatherscatter.scatter_nd", "indices", "duplicate", "[1]", "indices[0] and indices[1]"),
    Row("gatherscatter.scatter_along_axis", DUP, lambda: gs.scatter_along_axis(F3, [2, 2], [1.0, 2.0], 0, duplicates="raise"), "gatherscatter.scatter_along_axis", "indices", "duplicate", "[2]", "indices[0] and indices[1]"),
    Row("gatherscatter.scatter_nd", UNSUP, lambda: gs.scatter_nd(F3, [[1]], [1.0], reduction="median"), "gatherscatter.scatter_nd", "reduction", "one of", "'median'"),
    Row("gatherscatter.take", UNSUP, lambda: gs.take(F3, [1], bounds="drop"), "gatherscatter.take", "bounds", "gathers", "'drop'"),
]

FRAMEWORKS = ("onnx", "tensorflow", "torch", "jax", "numpy", "mxnet", "caffe2", "openvino", "paddle", "gatherscatter")
CLASSES = (IOOR, SHAPE, AXIS, DTYPE, ARG, DUP, UNSUP)
NOT_RAISED: dict[tuple[str, type[gs.GatherScatterError]], str] = {
    (fw, DUP): "no op of this framework has a duplicates='raise' policy"
    for fw in ("tensorflow", "jax", "numpy", "mxnet", "caffe2", "paddle")
}
"""Framework/class pairs the table cannot cover, and why."""
NOT_RAISED[("caffe2", UNSUP)] = "caffe2 ops take no string attribute or version that could be unsupported"
ONE_OP: dict[tuple[str, type[gs.GatherScatterError]], str] = {
    ("caffe2", AXIS): "caffe2.BatchGather has no axis argument",
}
"""Framework/class pairs with a single op that can raise the class (caffe2 has two ops)."""


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.op}-{r.error.__name__}" for r in ROWS])
def test_message_names_op_version_argument_rule_value_position(row: Row) -> None:
    with pytest.raises(row.error) as info:
        row.call()
    assert type(info.value) is row.error or row.error is not gs.ShapeError, (
        f"{row.op}: expected exactly {row.error.__name__}, got {type(info.value).__name__}"
    )
    msg = str(info.value)
    assert msg.startswith(row.label), f"op and version: {msg!r} should start with {row.label!r}"
    for part, text in (("argument", row.arg), ("rule", row.rule), ("value", row.value)):
        assert text in msg, f"{part} {text!r} missing from {msg!r}"
    if row.where is not None:
        assert row.where in msg, f"position {row.where!r} missing from {msg!r}"
    if row.error is IOOR:
        assert info.value.position is not None and info.value.value is not None, "IndexOutOfRangeError attributes"


def test_table_covers_every_class() -> None:
    for fw in FRAMEWORKS:
        for cls in CLASSES:
            ops = {r.op for r in ROWS if r.op.split(".")[0] == fw and r.error is cls}
            if (fw, cls) in NOT_RAISED:
                assert not ops, f"{fw} {cls.__name__}: listed as impossible but covered by {ops}"
                continue
            need = 1 if (fw, cls) in ONE_OP else 2
            assert len(ops) >= need, f"{fw}: {cls.__name__} covered by {sorted(ops)}; need {need} ops"
