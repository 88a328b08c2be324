"""OpenVINO versions, element types and argument checks shared by the OpenVINO ops.

Every op takes ``version=`` (the op's own version number, e.g. ``Gather-8``),
defaulting to the newest one, which is the version listed by every operation
set up to opset17 (OpenVINO 2026.4). Messages read
``openvino.Gather (Gather-8): ...`` and use the OpenVINO input names
(``data``, ``indices``, ``updates``, ``axis``, ``batch_dims``).

The rule for indices outside a spec's range: when the spec says what happens
(Gather-8 fills zeros; ScatterElementsUpdate-3 raises) we do that; when it only
says where indices must lie (``[0, s-1]`` in GatherElements-6, GatherND-5,
ScatterNDUpdate-3, Gather-1/7) we raise, even where the CPU plugin is lenient,
and record the plugin's behaviour as a known divergence (DESIGN.md: follow the
spec and the plugin's documented behaviour, not its accidents).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.policy import Reduction
from ...core.shape import as_index_array, as_updates, dtype_name, normalize_axis, to_int
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._common import INTS, NUMERIC, UINTS, data_array
from .._registry import divergence_table

__all__ = [
    "ANY_INT",
    "ELEMENT_TYPES",
    "GATHER_TYPES",
    "INT32_INT64",
    "axis_input",
    "axis_scatter_inputs",
    "check_data",
    "check_indices_rank",
    "check_rank",
    "nd_inputs",
    "ov_context",
    "ov_version",
    "parse_reduction",
    "plugin_divergences",
    "reductions",
]

ANY_INT = INTS | UINTS
"""Index element types of Gather, GatherND, ScatterElementsUpdate and ScatterUpdate."""

INT32_INT64 = frozenset({"int32", "int64"})
"""Index element types of GatherElements-6 and ScatterNDUpdate-3/15."""

ELEMENT_TYPES = NUMERIC | frozenset({"bool", "bfloat16"})
"""Data types the CPU plugin runs for these ops (no complex, no string)."""

GATHER_TYPES = ELEMENT_TYPES | frozenset({"str", "bytes"})
"""Gather also moves string tensors (OpenVINO ``string`` element type)."""

_OPSETS = {
    "Gather": {1: "opset1 to opset6", 7: "opset7", 8: "opset8 to opset17"},
    "GatherElements": {6: "opset6 to opset17"},
    "GatherND": {5: "opset5 to opset7", 8: "opset8 to opset17"},
    "ScatterElementsUpdate": {3: "opset3 to opset11", 12: "opset12 to opset17"},
    "ScatterNDUpdate": {3: "opset4 to opset14", 15: "opset15 to opset17"},
    "ScatterUpdate": {3: "opset3 to opset17"},
}


@memo
def ov_version(name: str, version: Any) -> int:
    """The op version asked for (``None``: the newest), checked against the versions the op has."""
    known = _OPSETS[name]
    if version is None:
        return max(known)
    v = to_int(OpContext(op=f"openvino.{name}"), "version", version)
    if v not in known:
        listed = "; ".join(f"{name}-{k} ({where})" for k, where in known.items())
        raise UnsupportedError(
            f"openvino.{name}: there is no {name}-{v}; version must be one of {sorted(known)} "
            f"(the op's own version, not the opset number): {listed}"
        )
    return v


@memo
def ov_context(name: str, version: int) -> OpContext:
    """Message naming: ``openvino.Gather (Gather-8)``."""
    return OpContext(op=f"openvino.{name}", version=f"{name}-{version}")


def check_data(ctx: OpContext, arr: np.ndarray[Any, Any], allowed: frozenset[str], *, name: str = "data") -> None:
    """Reject element types OpenVINO does not run for this op."""
    got = dtype_name(arr.dtype)
    if got in allowed:
        return
    if arr.dtype.kind == "c":
        why = "OpenVINO has no complex element type ('Unsupported data type: complex64')"
    elif got in ("str", "bytes", "object"):
        why = "the CPU plugin runs no string tensors for this op (only Gather moves strings)"
    else:
        why = "not an OpenVINO element type"
    raise DTypeError(
        f"{ctx.label}: {name} dtype {got} is not accepted ({why}); expected one of: {', '.join(sorted(allowed))}"
    )


def check_rank(ctx: OpContext, arr: np.ndarray[Any, Any], name: str, rank: int = 1) -> None:
    """``arr`` must have rank >= ``rank``."""
    if arr.ndim < rank:
        raise ShapeError(f"{ctx.label}: {name} must have rank >= {rank}; got rank {arr.ndim} (shape {list(arr.shape)})")


def axis_input(ctx: OpContext, axis: Any, rank: int) -> int:
    """The ``axis`` *input* (a scalar or a 1-D tensor with one element), normalised.

    OpenVINO passes ``axis`` of Gather, ScatterElementsUpdate and ScatterUpdate as a
    tensor of any integer type; an ``int``, a 0-d array or a 1-element 1-D array
    are accepted here.
    """
    if isinstance(axis, (list, tuple, np.ndarray)) or hasattr(axis, "__array__"):
        arr = np.asarray(axis)
        if arr.dtype.kind not in "iu":
            raise ArgumentError(
                f"{ctx.label}: axis must have an integer element type; got {dtype_name(arr.dtype)} ({axis!r})"
            )
        if arr.ndim > 1 or arr.size != 1:
            raise ShapeError(
                f"{ctx.label}: axis must be a scalar or a 1-D tensor with one element; got shape {list(arr.shape)}"
            )
        axis = int(arr.reshape(()))
    return normalize_axis(ctx, axis, rank)


def axis_scatter_inputs(
    ctx: OpContext, data: Any, indices: Any, updates: Any, axis: Any
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], int]:
    """The inputs of ScatterUpdate and ScatterElementsUpdate, checked in their order: ``data`` (an element
    type of :data:`ELEMENT_TYPES`), ``indices`` (any integer type), ``updates`` (read as data's type), the
    ``axis`` input (:func:`axis_input`)."""
    d = data_array(ctx, data)
    check_data(ctx, d, ELEMENT_TYPES)
    i = as_index_array(ctx, indices, "indices", ANY_INT)
    u = as_updates(ctx, updates, d.dtype)
    return d, i, u, axis_input(ctx, axis, d.ndim)


def nd_inputs(
    ctx: OpContext, data: Any, indices: Any, index_types: frozenset[str]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """GatherND and ScatterNDUpdate: ``data`` (of :data:`ELEMENT_TYPES`) and ``indices`` (of ``index_types``),
    each of rank >= 1, checked in that order."""
    d = data_array(ctx, data)
    check_data(ctx, d, ELEMENT_TYPES)
    check_rank(ctx, d, "data")
    i = as_index_array(ctx, indices, "indices", index_types)
    check_rank(ctx, i, "indices")
    return d, i

def check_indices_rank(ctx: OpContext, indices: np.ndarray[Any, Any], data: np.ndarray[Any, Any]) -> None:
    """GatherElements and ScatterElementsUpdate: ``indices`` has the rank of ``data``."""
    if indices.ndim != data.ndim:
        raise ShapeError(
            f"{ctx.label}: indices must have the rank of data ({data.ndim}); got indices shape "
            f"{list(indices.shape)} and data shape {list(data.shape)}"
        )


#: every OpenVINO reduction name (ScatterElementsUpdate-12, ScatterNDUpdate-15) and the core reduction it is
REDUCTIONS = {
    "none": Reduction.NONE,
    "sum": Reduction.ADD,
    "sub": Reduction.SUB,
    "prod": Reduction.MUL,
    "min": Reduction.MIN,
    "max": Reduction.MAX,
    "mean": Reduction.MEAN,
}


def reductions(*names: str) -> dict[str, Reduction]:
    """The reductions one op version accepts, by name, in the order given (for its record and its errors)."""
    return {name: REDUCTIONS[name] for name in names}


def parse_reduction(ctx: OpContext, reduction: Any, names: dict[str, Reduction], version: int, since: int) -> Reduction:
    """The ``reduction`` attribute by its OpenVINO name (case-insensitive, as OpenVINO parses it).

    ``names`` maps the OpenVINO names accepted from version ``since`` (which introduced the attribute) to core
    reductions; an older ``version`` accepts only ``'none'``, and its error says where the attribute was added.
    """
    added = ""
    if version < since:
        names = {"none": Reduction.NONE}
        added = f"reduction was added in {ctx.op.removeprefix('openvino.')}-{since}"
    if reduction is None:
        return Reduction.NONE
    if not isinstance(reduction, str):
        raise ArgumentError(
            f"{ctx.label}: reduction must be a string (got {reduction!r} of type {type(reduction).__name__})"
        )
    key = reduction.lower()
    if key in names:
        return names[key]
    if len(names) == 1:
        raise UnsupportedError(
            f"{ctx.label}: this version has no reduction attribute (only 'none'); got reduction={reduction!r}. {added}"
        )
    raise UnsupportedError(
        f"{ctx.label}: unknown reduction {reduction!r}; expected one of: {', '.join(names)} "
        f"(OpenVINO: '{reduction}' is not a member of enum Reduction)"
    )


def _demotion_example(op: str) -> dict[str, Any]:
    """float64 data that float32 rounds, moved by the op's plain call (the value or update at position 0)."""
    name, gather = op.split(".")[1], op.split(".")[1].startswith("Gather")
    x = 1 + 2.0**-40
    args: dict[str, Any] = {"data": [x] if gather else [0.0], "indices": [[0]] if "ND" in name else [0]}
    if not gather:
        args["updates"] = [x]
    if name not in ("GatherND", "ScatterNDUpdate"):
        args["axis"] = 0
    version = {"Gather": 8, "GatherElements": 6, "GatherND": 8, "ScatterElementsUpdate": 12}.get(name, 3)
    return {"call": f"openvino:{name}", "opset": 15 if name == "ScatterNDUpdate" else version, "args": args,
            "dtypes": {"data": "float64", "indices": "int64", **({} if gather else {"updates": "float64"})},
            "theirs": {"equals": [1.0]}, "ours": {"equals": [x]}}


def plugin_divergences(op: str, *, unchecked_one_thread: bool = False) -> None:
    """Record that the CPU plugin computes f64 in f32 and i64 in i32 while we keep the dtype.

    With ``unchecked_one_thread``, first that the op's one-thread CPU kernel checks no index.
    """
    if unchecked_one_thread:
        divergence_table(op, __file__, "index_outside_the_valid")
    divergence_table(op, __file__, "float64_or_int64_data", example=_demotion_example(op))
