"""ONNX versioning, data types and attribute checks shared by the ONNX ops.

``opset=N`` selects the op version in force at opset ``N`` (the newest
``since_version <= N``); ``opset=None`` means :data:`NEWEST_OPSET`. Types come
from the ONNX schemas (``onnx.defs.get_schema``): every op takes all IR-4
tensor types, bfloat16 from the op's version 13.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.policy import Reduction, parse_enum
from ...core.shape import as_index_array, dtype_name, to_int
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._common import COMPLEX, NUMERIC, STRINGS, data_array

__all__ = [
    "INDEX_INT32_INT64",
    "INDEX_INT64",
    "NEWEST_OPSET",
    "check_data",
    "data_and_indices",
    "onnx_context",
    "op_version",
    "parse_reduction",
]

NEWEST_OPSET = 28
"""The newest ai.onnx opset gatherscatter knows (onnx 1.23); the classic ops last changed at 18, TensorScatter is 24."""

INDEX_INT32_INT64 = frozenset({"int32", "int64"})
INDEX_INT64 = frozenset({"int64"})

_T = NUMERIC | COMPLEX | STRINGS | frozenset({"bool"})
_T13 = _T | frozenset({"bfloat16"})

_REDUCTIONS_SINCE = {"none": 0, "add": 16, "mul": 16, "max": 18, "min": 18}


@memo
def op_version(name: str, versions: tuple[int, ...], opset: Any, *, removed_at: int | None = None) -> tuple[int, int]:
    """``(opset, op_version)`` in force for ``opset`` (None: the newest)."""
    if opset is None:
        opset = NEWEST_OPSET
    opset = to_int(OpContext(op=f"onnx.{name}"), "opset", opset)
    if opset < 1 or opset > NEWEST_OPSET:
        raise UnsupportedError(
            f"onnx.{name}: opset {opset} is not an ai.onnx opset gatherscatter knows (1 to {NEWEST_OPSET})"
        )
    if removed_at is not None and opset >= removed_at:
        raise UnsupportedError(
            f"onnx.{name}: {name} was deprecated and removed at opset {removed_at} (opset {opset} "
            f"requested); use onnx.ScatterElements, which has the same semantics"
        )
    known = [v for v in versions if v <= opset]
    if not known:
        raise UnsupportedError(
            f"onnx.{name}: {name} does not exist before opset {versions[0]} (opset {opset} requested)"
        )
    return opset, max(known)


@memo
def onnx_context(name: str, opset: int, version: int) -> OpContext:
    """Message naming: ``onnx.Gather (opset 13, Gather-13)``."""
    return OpContext(op=f"onnx.{name}", version=f"opset {opset}, {name}-{version}")


def check_data(ctx: OpContext, arr: np.ndarray[Any, Any], version: int, *, name: str = "data") -> None:
    """ONNX type constraint T (bfloat16 from version 13) and rank >= 1."""
    got = dtype_name(arr.dtype)
    allowed = _T13 if version >= 13 else _T
    if got not in allowed:
        if got == "bfloat16":
            raise DTypeError(f"{ctx.label}: {name} dtype bfloat16 needs version 13 of this op (opset >= 13)")
        raise DTypeError(
            f"{ctx.label}: {name} dtype {got} is not an ONNX tensor type of this op; expected one of: "
            f"{', '.join(sorted(allowed))}"
        )
    if arr.ndim < 1:
        raise ShapeError(f"{ctx.label}: {name} must have rank r >= 1; got a 0-d array")


def data_and_indices(ctx: OpContext, version: int, data: Any, indices: Any,
                     index_dtypes: frozenset[str]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``data`` (:func:`check_data`) and then ``indices`` (of ``index_dtypes``), as every classic ONNX op reads them."""
    d = data_array(ctx, data)
    check_data(ctx, d, version)
    return d, as_index_array(ctx, indices, "indices", index_dtypes)


def parse_reduction(ctx: OpContext, name: str, reduction: Any, version: int) -> Reduction:
    """The ``reduction`` attribute, checked against the op version.

    Unknown strings are refused: ONNX Runtime and onnx.reference silently run any
    unknown string as 'none' (docs/behavior-matrix.md#surprise-2); we do not.
    """
    if not isinstance(reduction, str):
        raise ArgumentError(f"{ctx.label}: reduction must be a string (got {reduction!r})")
    since = _REDUCTIONS_SINCE.get(reduction)
    if since is None:
        hint = ""
        if reduction in ("mean", "sum", "prod", "amax", "amin", "multiply", "sub"):
            hint = " (ONNX names: add, mul, max, min; there is no 'mean' or 'sub' in ONNX, onnx/onnx#5100)"
        raise UnsupportedError(
            f"{ctx.label}: unknown reduction {reduction!r}; {name} accepts none, add, mul (opset 16) "
            f"and max, min (opset 18){hint}. ONNX runtimes silently run unknown strings as 'none'; "
            f"gatherscatter refuses them"
        )
    if version < since:
        if version < 16:
            raise UnsupportedError(
                f"{ctx.label}: the reduction attribute was added in opset 16 ({name}-16); "
                f"reduction={reduction!r} needs opset >= {since}"
            )
        raise UnsupportedError(
            f"{ctx.label}: reduction={reduction!r} was added in opset {since} ({name}-{since}); "
            f"{name}-{version} accepts none, add, mul"
        )
    return parse_enum(Reduction, reduction)
