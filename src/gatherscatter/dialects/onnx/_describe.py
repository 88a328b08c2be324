"""The shared parts of the onnx ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: ONNX Gather, GatherElements, GatherND, ScatterElements, ScatterND, Scatter (every opset).

From opset 11 on every op wraps negative indices once and raises out of range
(ONNX says "error"; ONNX Runtime's CPU kernels raise); the opset-1..10 ops
are read the way ONNX Runtime runs them (negative indices wrap, see the
dialect's divergence records). Duplicate overwrites are unspecified
(``duplicates_specified=False``). GatherND/ScatterND take int64 indices only.
"""

from __future__ import annotations

from typing import Any

from .._record import check_int
from .._registry import registrar

onnx_op = registrar("onnx", version_kw="opset")
"""Registers an ONNX op: every ONNX op takes its opset as ``opset=``."""

_INT = ("int32", "int64")


_I64 = ("int64",)


_REDUCTIONS = ("none", "add", "mul", "max", "min")


def _opset(opset: Any) -> dict[str, Any]:
    return {"opset": check_int("onnx", "opset", opset, optional=True)}
