"""A conformance kit for ONNX runtimes: gather/scatter edge cases in the backend-test layout.

:func:`export` writes, for every ONNX gather/scatter op gatherscatter has and every
version of it (one opset each), single-node test cases in the layout of ONNX's own
backend tests::

    DIR/manifest.json
    DIR/<case>/model.onnx
    DIR/<case>/test_data_set_0/input_0.pb, input_1.pb, ...   (onnx.numpy_helper TensorProtos)
    DIR/<case>/test_data_set_0/output_0.pb                   (defined cases only)
    DIR/<case>/test_data_set_0/allowed_<label>.pb            (implementation-defined cases)

The cases cover negative and out-of-range indices, int64 extremes, duplicates with
every reduction the version has, empty and 0-d tensors, ``batch_dims``, every index
dtype, NaN under max/min, bool reductions, attributes an opset does not have, and
a few large shapes. The manifest classifies each case:

* ``defined``: the ONNX spec fixes the result; ``output_0.pb`` holds it, computed by
  ``gs.onnx`` (whose ops are tested against hand-computed tables and loop oracles);
* ``must-raise``: the spec makes it an error (out of range, a type or attribute the
  op version does not have): a runtime must refuse the model or fail the run;
* ``implementation-defined``: the spec leaves it open (duplicates without a
  reduction, NaN under max/min, reductions of bool); ``allowed`` lists every
  outcome a runtime may give (``raise`` among them when refusing is allowed).

:func:`run` runs a kit on a runtime (``onnxruntime``, ``openvino``, the stock
``reference`` evaluator, or ``gatherscatter``: the reference evaluator with
:func:`~gatherscatter.onnxtools.reference_ops.reference_ops`) in a worker process
(a runtime that crashes on a case is recorded as ``crash``, and the run goes on)
and reports every case whose outcome the manifest does not allow.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     kit = export(d, ops=["GatherElements"], opsets=[13])
...     kinds = sorted({c["kind"] for c in kit["cases"]})
>>> kinds
['defined', 'must-raise']
"""

from __future__ import annotations

import inspect
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp
from ..errors import GatherScatterError
from .reference_ops import index_input, onnx_ops

__all__ = [
    "DEFAULT_DTYPES",
    "KINDS",
    "RUNTIMES",
    "Case",
    "CaseResult",
    "KitError",
    "RunReport",
    "cases",
    "export",
    "run",
    "tensor_scatter_spec",
]

Array = np.ndarray[Any, Any]
KINDS = ("defined", "must-raise", "implementation-defined")
RUNTIMES = ("onnxruntime", "openvino", "reference", "gatherscatter")
DEFAULT_DTYPES = ("float32", "float16", "float64", "int8", "int32", "int64", "uint8", "bool")
FORMAT = "gatherscatter-conformance/1"
_MIN_OPSET = 9  # the oldest opset onnxruntime and OpenVINO load; Gather-1 is still in force there


class KitError(GatherScatterError, ValueError):
    """A conformance kit that cannot be written or read (bad directory, manifest, option)."""


@dataclass
class Case:
    """One single-node test case.

    ``inputs``: the node's inputs in ONNX order (None: an omitted optional input);
    ``expected``: the defined output; ``allowed``: label -> outcome (an array, or
    None for "raising is allowed") for implementation-defined cases.
    """

    name: str
    op: str
    opset: int
    op_version: int
    attrs: dict[str, Any]
    inputs: list[Array]
    kind: str
    why: str
    tags: tuple[str, ...] = ()
    expected: Array | None = None
    allowed: dict[str, Array | None] = field(default_factory=dict)
    repeat: int = 1


# ---------------------------------------------------------------------------------------------- cases


def _versions(op: DialectOp) -> list[int]:
    return [int(v) for v in op.info.versions]


def _opset_of(op: DialectOp, version: int) -> int:
    """The opset a case of ``version`` is written at: the version's own, at least 9."""
    return max(version, _MIN_OPSET)


def _has_param(op: DialectOp, name: str) -> bool:
    return name in inspect.signature(op).parameters


def _classify(op: DialectOp, opset: int, inputs: list[Array], attrs: dict[str, Any]) -> tuple[str, Array | None, str]:
    """``defined`` with our output, or ``must-raise`` with our error message."""
    from .reference_ops import call_node

    try:
        return "defined", call_node(op, inputs, attrs, opset), ""
    except GatherScatterError as exc:
        return "must-raise", None, " ".join(str(exc).split())


def _fam_gather(dt: np.dtype[Any], version: int) -> Iterator[tuple[str, list[Array], dict[str, Any], tuple[str, ...]]]:
    d = _data((3, 4), dt)
    i64 = np.int64
    yield "basic", [d, np.array([[0, 2], [1, 0]], i64)], {}, ()
    yield "axis1", [d, np.array([3, 0, 1], i64)], {"axis": 1}, ()
    yield "negative", [d, np.array([-1, -3, 0], i64)], {}, ("negative",)
    yield "negative_axis", [d, np.array([1, 0], i64)], {"axis": -1}, ("negative",)
    yield "out_of_range", [d, np.array([0, 3], i64)], {}, ("out_of_range",)
    yield "out_of_range_negative", [d, np.array([-4], i64)], {}, ("out_of_range", "negative")
    yield "int64_max", [d, np.array([np.iinfo(i64).max], i64)], {}, ("out_of_range", "int64_extremes")
    yield "int64_min", [d, np.array([np.iinfo(i64).min], i64)], {}, ("out_of_range", "int64_extremes")
    yield "scalar_index", [d, np.array(2, i64)], {}, ("scalar",)
    yield "empty_indices", [d, np.zeros((0,), i64)], {}, ("empty",)
    yield "empty_data", [_data((3, 0), dt), np.array([2, 0], i64)], {}, ("empty",)
    yield "scalar_data", [_data((), dt), np.array(0, i64)], {}, ("scalar",)


def _fam_gather_elements(dt: np.dtype[Any], version: int) -> Iterator[Any]:
    d = _data((3, 3), dt)
    i64 = np.int64
    yield "basic", [d, np.array([[1, 2, 0], [2, 0, 0]], i64)], {"axis": 0}, ()
    yield "axis1", [d, np.array([[0, 0], [1, 0], [2, 2]], i64)], {"axis": 1}, ()
    yield "negative", [d, np.array([[-1, -2, 0], [-3, 1, 2], [0, -1, -1]], i64)], {"axis": 1}, ("negative",)
    full = np.array([[0, 1, 2], [2, 1, 0], [1, 1, 1]], i64)  # indices of data's shape (no narrow-index path)
    yield "out_of_range", [d, _put(full, (0, 1), 3)], {"axis": 1}, ("out_of_range",)
    yield "out_of_range_negative", [d, _put(full, (2, 0), -4)], {"axis": 1}, ("out_of_range", "negative")
    yield "int64_min", [d, _put(full, (1, 2), np.iinfo(i64).min)], {"axis": 0}, ("out_of_range", "int64_extremes")
    yield "narrow_indices", [d, np.array([[2], [0]], i64)], {"axis": 1}, ()
    yield "long_axis", [_data((2, 100), dt), np.array([[99, 0, 64], [65, 1, 98]], i64)], {"axis": 1}, ()
    yield "empty_indices", [d, np.zeros((0, 3), i64)], {"axis": 0}, ("empty",)
    yield "scalar_data", [_data((), dt), np.array(0, i64)], {"axis": 0}, ("scalar",)


def _fam_gather_nd(dt: np.dtype[Any], version: int) -> Iterator[Any]:
    d = _data((2, 3, 2), dt)
    i64 = np.int64
    yield "basic", [d, np.array([[0, 1, 1], [1, 2, 0]], i64)], {}, ()
    yield "slices", [d, np.array([[1, 0], [0, 2]], i64)], {}, ()
    yield "single_tuple", [d, np.array([1, 2], i64)], {}, ("scalar",)
    yield "negative", [d, np.array([[-1, -3], [0, -1]], i64)], {}, ("negative",)
    yield "out_of_range", [d, np.array([[0, 3]], i64)], {}, ("out_of_range",)
    yield "out_of_range_negative", [d, np.array([[-3, 0]], i64)], {}, ("out_of_range", "negative")
    yield "int64_max", [d, np.array([[np.iinfo(i64).max, 0]], i64)], {}, ("out_of_range", "int64_extremes")
    yield "batch_dims1", [d, np.array([[2], [0]], i64)], {"batch_dims": 1}, ("batch_dims",)
    yield "batch_dims2", [d, np.array([[[1], [0], [1]], [[0], [0], [1]]], i64)], {"batch_dims": 2}, ("batch_dims",)
    yield "empty_indices", [d, np.zeros((0, 2), i64)], {}, ("empty",)


def _fam_scatter(kind: str) -> Callable[..., Iterator[Any]]:
    def gen(dt: np.dtype[Any], version: int) -> Iterator[Any]:
        i64 = np.int64
        elem = kind == "scatter_elements"
        d = _data((3, 3), dt)
        if elem:
            ok = [d, np.array([[1, 0, 2]], i64), _data((1, 3), dt, 50)]
            neg = [d, np.array([[-1, 0, -3]], i64), _data((1, 3), dt, 50)]
            oor = [d, np.array([[1, 3, 0]], i64), _data((1, 3), dt, 50)]
            dup = [d, np.array([[1, 1, 0], [1, 2, 0]], i64), _data((2, 3), dt, 50)]
            emp = [d, np.zeros((0, 3), i64), _data((0, 3), dt, 50)]
            ext = [d, np.array([[np.iinfo(i64).min, 0, 0]], i64), _data((1, 3), dt, 50)]
        else:
            ok = [d, np.array([[2], [0]], i64), _data((2, 3), dt, 50)]
            neg = [d, np.array([[-1], [-3]], i64), _data((2, 3), dt, 50)]
            oor = [d, np.array([[3]], i64), _data((1, 3), dt, 50)]
            dup = [d, np.array([[1], [1], [2]], i64), _data((3, 3), dt, 50)]
            emp = [d, np.zeros((0, 1), i64), _data((0, 3), dt, 50)]
            ext = [d, np.array([[np.iinfo(i64).max]], i64), _data((1, 3), dt, 50)]
        yield "basic", ok, {}, ()
        yield "negative", neg, {}, ("negative",)
        yield "out_of_range", oor, {}, ("out_of_range",)
        yield "int64_extreme", ext, {}, ("out_of_range", "int64_extremes")
        yield "empty_indices", emp, {}, ("empty",)
        yield "duplicates_none", dup, {}, ("duplicates",)
        if version >= 16:
            for red in ("add", "mul", "max", "min"):
                yield f"duplicates_{red}", dup, {"reduction": red}, ("duplicates", "reduction")
            yield "unknown_reduction", ok, {"reduction": "sum"}, ("reduction",)
        if elem:
            yield "axis1", [d, np.array([[2, 0], [1, 1]], i64), _data((2, 2), dt, 50)], {"axis": 1}, ()
            yield "scalar_data", [_data((), dt), np.array(0, i64), _data((), dt, 50)], {}, ("scalar",)
    return gen


def _fam_tensor_scatter(dt: np.dtype[Any], version: int) -> Iterator[Any]:
    """TensorScatter: a cache [batch 2, max_sequence_length 4, 3] (sequence axis -2) and an update of 2 positions."""
    i64 = np.int64
    big = np.iinfo(i64).max
    c, u = _data((2, 4, 3), dt), _data((2, 2, 3), dt, 50)
    c4, u4 = _data((2, 4, 3, 2), dt), _data((2, 2, 3, 2), dt, 50)
    w = np.array([1, 2], i64)
    circ = {"mode": "circular"}
    yield "basic", [c, u, w], {}, ()
    yield "no_write_indices", [c, u], {}, ()
    yield "circular_wrap", [c, u, np.array([3, 0], i64)], circ, ("circular",)
    yield "circular_full", [c, _data((2, 4, 3), dt, 50), np.array([2, 1], i64)], circ, ("circular",)
    yield "circular_large_index", [c, u, np.array([2**40 + 3, 9], i64)], circ, ("circular",)
    # max_sequence_length 5: (2**63 - 1 + 1) mod 5 = 3, but an int64 sum wraps to -2**63, and -2**63 mod 5 = 2
    yield "circular_int64_max", [_data((2, 5, 3), dt), u, np.array([big, 0], i64)], circ, (
        "circular", "int64_extremes")
    yield "axis1_rank4", [c4, u4, w], {"axis": 1}, ()
    yield "negative_axis", [c4, u4, w], {"axis": -3}, ("negative",)
    yield "axis_last", [_data((2, 3, 4), dt), _data((2, 3, 2), dt, 50), w], {"axis": -1}, ()
    yield "out_of_range", [c, u, np.array([3, 0], i64)], {}, ("out_of_range",)
    yield "int64_max", [c, u, np.array([0, big], i64)], {}, ("out_of_range", "int64_extremes")
    yield "negative_write_index", [c, u, np.array([-1, 0], i64)], {}, ("negative",)
    yield "negative_write_index_circular", [c, u, np.array([0, -1], i64)], circ, ("negative", "circular")
    yield "empty_update", [c, _data((2, 0, 3), dt, 50), w], {}, ("empty",)
    yield "empty_update_out_of_range", [c, _data((2, 0, 3), dt, 50), np.array([5, 0], i64)], {}, (
        "empty", "out_of_range")
    yield "empty_batch", [_data((0, 4, 3), dt), _data((0, 2, 3), dt, 50), np.zeros(0, i64)], {}, ("empty",)
    yield "axis0", [c, u, w], {"axis": 0}, ("axis",)
    yield "axis_out_of_range", [c, u, w], {"axis": 3}, ("axis",)
    yield "write_indices_shape", [c, u, np.array([0, 1, 2], i64)], {}, ("shape",)
    yield "update_too_long", [c, _data((2, 5, 3), dt, 50), np.array([0, 0], i64)], circ, ("shape",)
    yield "unknown_mode", [c, u, w], {"mode": "ring"}, ()


def tensor_scatter_spec(past_cache: Array, update: Array, write_indices: Array | None = None, axis: int = -2,
                        mode: str = "linear") -> Array:
    """TensorScatter-24's pseudocode from the ONNX spec, line for line, with Python's indexing and ``%``.

    An oracle independent of ``gs.onnx.TensorScatter``: a negative position counts from
    the end (Python indexing), a negative circular write index is taken floor modulo,
    a position past the end raises ``IndexError``, and nothing is checked where nothing
    is written.

    >>> tensor_scatter_spec(np.zeros((1, 3), int), np.array([[7, 8]]), np.array([2]), axis=1, mode="circular")
    array([[8, 0, 7]])
    """
    present: Array = past_cache.copy()
    max_sequence_length = past_cache.shape[axis]
    for prefix_idx in np.ndindex(past_cache.shape[:axis]):
        batch_idx = prefix_idx[0]
        for sequence_idx in range(update.shape[axis]):
            cache_sequence_idx = (0 if write_indices is None else int(write_indices[batch_idx])) + sequence_idx
            if mode == "circular":
                cache_sequence_idx = cache_sequence_idx % max_sequence_length
            present[prefix_idx + (cache_sequence_idx,)] = update[prefix_idx + (sequence_idx,)]
    return present


def _astype(dtype: Any) -> Callable[[Array], Array]:
    return lambda a: a.astype(dtype)


def _retype(op: DialectOp, inputs: list[Array], *, data: Callable[[Array], Array] | None = None,
            index: Callable[[Array], Array] | None = None) -> list[Array]:
    """``inputs`` with ``data`` applied to the data-typed ones (data, updates) and ``index`` to the indices."""
    k = index_input(op)
    out = []
    for n, a in enumerate(inputs):
        f = index if n == k else data
        out.append(a if f is None else f(a))
    return out


def _put(a: Array, pos: tuple[int, ...], value: int) -> Array:
    out: Array = a.copy()
    out[pos] = value
    return out


def _data(shape: tuple[int, ...], dt: np.dtype[Any], start: int = 1) -> Array:
    n = int(np.prod(shape, dtype=np.int64))
    vals = np.arange(start, start + n).reshape(shape)
    out: Array = (vals % 2 == 1).astype(dt) if dt == np.bool_ else vals.astype(dt)
    return out


_FAMILIES: dict[str, Callable[..., Iterator[Any]]] = {
    "gather": _fam_gather,
    "gather_elements": _fam_gather_elements,
    "gather_nd": _fam_gather_nd,
    "scatter_elements": _fam_scatter("scatter_elements"),
    "scatter_nd": _fam_scatter("scatter_nd"),
    "scatter_axis": _fam_tensor_scatter,
}


def _special(op: DialectOp, version: int) -> Iterator[tuple[str, list[Array], dict[str, Any], tuple[str, ...], str]]:
    """Cases beyond the family table: index dtypes, reductions on bool, NaN, opset features, large shapes."""
    fam = op.info.family
    f32 = np.dtype("float32")
    i64 = np.int64
    scatter = op.info.kind == "scatter"
    base = next(iter(_FAMILIES[fam](f32, version)))
    inputs = base[1]
    wide: dict[str, Callable[[Array], Array]] = {
        "int64_data_extremes": lambda a: (np.iinfo(np.int64).max - np.arange(a.size, dtype=np.int64)).reshape(a.shape),
        "float64_data_precision": lambda a: (1.0 + np.arange(1, a.size + 1) * 2.0**-40).reshape(a.shape),
    }
    for wname, fill in wide.items():
        yield wname, _retype(op, inputs, data=fill), base[2], ("dtype",), ""
    for idt in ("int32", "int16", "uint8", "uint64"):
        yield f"indices_{idt}", _retype(op, inputs, index=_astype(idt)), base[2], ("index_dtype",), ""
    if fam == "scatter_axis":
        # TensorScatter's type constraint is every tensor type: the ones the default sweep leaves out
        import ml_dtypes

        for extra in ("int16", "uint16", "uint32", "uint64", "complex64", "complex128", "bfloat16", "float8_e4m3fn"):
            dt = np.dtype(getattr(ml_dtypes, extra, extra))
            yield f"dtype_{extra}", _retype(op, inputs, data=_astype(dt)), base[2], ("dtype",), ""
        yield "dtype_string", _retype(op, inputs, data=lambda a: a.astype(str).astype(object)), base[2], (
            "dtype",), ""
    if scatter and _has_param(op, "reduction") and version >= 16:
        data_b = np.array([[True, False, False]] * 2)
        upd_b = np.array([[True, True, False]])
        idx = np.array([[1, 0, 1]], i64) if fam == "scatter_elements" else np.array([[1]], i64)
        for red in ("add", "mul", "max", "min"):
            if version < 18 and red in ("max", "min"):
                continue
            yield f"bool_{red}", [data_b, idx, upd_b], {"reduction": red}, ("reduction", "dtype"), "bool"
    if scatter and _has_param(op, "reduction") and version >= 18:
        nan = np.float32("nan")
        data_n = np.array([[1.0, nan, 3.0]], np.float32)
        upd_n = np.array([[nan, 5.0, 2.0]], np.float32)
        idx = np.array([[0, 1, 2]], i64) if fam == "scatter_elements" else np.array([[0]], i64)
        axis = {"axis": 1} if fam == "scatter_elements" else {}
        for red in ("max", "min"):
            yield f"nan_{red}", [data_n, idx, upd_n], {"reduction": red, **axis}, ("nonfinite", "reduction"), "nan"
    if fam == "gather_nd" and version < 12:
        yield "batch_dims_before_opset12", [_data((2, 3), f32), np.array([[2], [0]], i64)], {"batch_dims": 1}, (
            "batch_dims",
            "opset",
        ), ""
    yield from _large(op, version)


def _large(op: DialectOp, version: int) -> Iterator[Any]:
    if version != _versions(op)[-1]:
        return  # large shapes once per op, at its newest version
    rng = np.random.default_rng(17)
    fam = op.info.family
    i64 = np.int64
    if fam == "gather":
        yield "large", [rng.random((20000, 32), np.float32), rng.integers(-20000, 20000, 50000, i64)], {}, (
            "large", "negative"), ""
    elif fam == "gather_elements":
        yield "large", [rng.random((512, 512), np.float32), rng.integers(0, 512, (512, 512), i64)], {"axis": 1}, (
            "large",), ""
    elif fam == "gather_nd":
        yield "large", [rng.random((1024, 1024), np.float32), rng.integers(0, 1024, (200000, 2), i64)], {}, (
            "large",), ""
    elif fam == "scatter_elements" and version >= 16:
        idx = np.repeat(rng.integers(0, 1000, (200000, 1), i64), 16, axis=1)
        yield "large_add", [np.zeros((1000, 16), np.float32), idx, np.ones((200000, 16), np.float32)], {
            "reduction": "add"}, ("large", "duplicates", "reduction"), ""
    elif fam == "scatter_axis":
        # a KV cache of 4 x 8 heads x 1024 positions x 64, 256 new positions, wrapping around
        yield "large_circular", [
            rng.random((4, 8, 1024, 64), np.float32),
            rng.random((4, 8, 256, 64), np.float32),
            np.array([900, 0, 1023, 2**33 + 7], i64),
        ], {"mode": "circular"}, ("large", "circular"), ""
    elif fam == "scatter_nd" and version >= 16:
        # the size at which onnxruntime 1.32's 2-thread ScatterND add race shows (docs/behavior-matrix.md#perf-8)
        yield "large_add", [
            np.zeros((62500, 64), np.float32),
            rng.integers(0, 62500, (125000, 1), i64),
            np.ones((125000, 64), np.float32),
        ], {"reduction": "add"}, ("large", "duplicates", "reduction"), ""
        yield "large_add_elements", [
            np.zeros((256, 256), np.float32),
            rng.integers(0, 256, (400000, 2), i64),
            np.ones((400000,), np.float32),
        ], {"reduction": "add"}, ("large", "duplicates", "reduction"), ""


def _impl_defined(op: DialectOp, opset: int, inputs: list[Array], attrs: dict[str, Any], tags: tuple[str, ...],
                  special: str) -> tuple[dict[str, Array | None], str] | None:
    """The allowed outcomes when ONNX leaves the result open (None: the case is not one of those)."""
    from .reference_ops import call_node

    red = attrs.get("reduction", "none")
    if "duplicates" in tags and red == "none" and _has_param(op, "duplicates"):
        allowed: dict[str, Array | None] = {
            "last-wins": call_node(op, inputs, {**attrs, "duplicates": "last"}, opset),
            "first-wins": call_node(op, inputs, {**attrs, "duplicates": "first"}, opset),
        }
        return allowed, "duplicate targets without a reduction: ONNX leaves the order of the updates unspecified"
    if special == "bool":
        try:
            res = call_node(op, inputs, attrs, opset)
        except GatherScatterError:
            return None
        return (
            {"logical": res, "raise": None},
            f"reduction={red!r} on bool data: the type constraint admits bool but ONNX does not define the "
            f"arithmetic (gatherscatter: add=OR, mul=AND, max=OR, min=AND); refusing is allowed",
        )
    if special == "nan":
        call_node(op, inputs, attrs, opset)  # a valid call (raises otherwise)
        data, upd = inputs[0], inputs[2]
        # each position: data op update with one operand NaN; the result is the NaN or the other operand
        out = []
        for pick_nan_in_data in (True, False):
            for pick_nan_in_upd in (True, False):
                r = data.copy()
                r[0, 0] = np.nan if pick_nan_in_upd else data[0, 0]
                r[0, 1] = np.nan if pick_nan_in_data else upd[0, 1]
                r[0, 2] = (np.maximum if red == "max" else np.minimum)(data[0, 2], upd[0, 2])
                out.append(r)
        labels = ("propagate", "drop-nan-update", "drop-nan-data", "ignore-nan")
        return (
            dict(zip(labels, out, strict=True)),
            f"NaN under reduction={red!r}: ONNX does not say whether max/min propagate NaN",
        )
    if op.info.family == "scatter_axis" and attrs.get("mode", "linear") in ("linear", "circular"):
        return _tensor_scatter_open(op, opset, inputs, attrs)
    if "negative" in tags and op.info.family == "gather" and int(opset) < 11:
        try:
            res = call_node(op, inputs, attrs, opset)
        except GatherScatterError:
            return None
        return {"wrap": res, "raise": None}, "negative index at Gather-1: the spec says only 'within bounds'"
    return None


def _tensor_scatter_open(op: DialectOp, opset: int, inputs: list[Array], attrs: dict[str, Any]
                         ) -> tuple[dict[str, Array | None], str] | None:
    """Where TensorScatter's pseudocode gives a result but the write index is one onnxruntime (and we) refuse."""
    from ..errors import IndexOutOfRangeError
    from .reference_ops import call_node

    try:
        call_node(op, inputs, attrs, opset)
        return None
    except IndexOutOfRangeError:
        pass
    except GatherScatterError:
        return None  # an axis, shape or dtype error: must raise
    try:
        spec = tensor_scatter_spec(inputs[0], inputs[1], inputs[2] if len(inputs) > 2 else None, **attrs)
    except IndexError:
        return None  # the pseudocode indexes past the end too: must raise
    w = inputs[2]
    why = ("a negative write index: the spec's pseudocode counts it from the end (linear) or takes it floor modulo "
           "(circular), but a write index is a position in the cache; refusing is allowed (onnxruntime refuses)"
           if (w < 0).any() else
           "linear mode requires write_indices + sequence_length <= max_sequence_length, but nothing is written "
           "(sequence_length 0): returning past_cache or refusing")
    return {"spec-pseudocode": spec, "raise": None}, why


def cases(
    ops: Sequence[str] | None = None,
    opsets: Sequence[int] | None = None,
    dtypes: Sequence[str] | None = None,
    *,
    large: bool = True,
) -> Iterator[Case]:
    """Every case of the kit (see the module docstring), op by op, version by version."""
    known = onnx_ops()
    names = list(known) if ops is None else list(ops)
    for name in names:
        if name not in known:
            raise KitError(f"unknown ONNX op {name!r}; gatherscatter has: {', '.join(known)}")
    dts = [np.dtype(_dtype(t)) for t in (dtypes if dtypes is not None else DEFAULT_DTYPES)]
    for name in names:
        op = known[name]
        fam = _FAMILIES.get(op.info.family)
        if fam is None:
            continue  # an op family the kit has no cases for yet (reference ops and the audit still cover it)
        for version in _versions(op):
            opset = _opset_of(op, version)
            if opsets is not None and opset not in opsets and version not in opsets:
                continue
            prefix = f"{name}_{version}"
            plain: list[tuple[str, list[Array], dict[str, Any], tuple[str, ...], str]] = [
                (n, i, a, t, "") for n, i, a, t in fam(np.dtype("float32"), version)
            ]
            base = plain[0]
            for dt in dts:
                if dt == np.float32:
                    continue
                inputs = _retype(op, base[1], data=_astype(dt))
                plain.append((f"dtype_{dt.name}", inputs, base[2], ("dtype",), ""))
            for c in [*plain, *_special(op, version)]:
                cname, inputs, attrs, tags, special = c
                if not large and "large" in tags:
                    continue
                yield _case(op, f"{prefix}_{cname}", version, opset, inputs, attrs, tags, special)


def _dtype(name: str) -> str:
    try:
        return str(np.dtype(name).name)
    except TypeError:
        raise KitError(f"unknown dtype {name!r}; use NumPy names such as float32, int64, bool") from None


def _case(op: DialectOp, name: str, version: int, opset: int, inputs: list[Array], attrs: dict[str, Any],
          tags: tuple[str, ...], special: str) -> Case:
    impl = _impl_defined(op, opset, inputs, attrs, tags, special)
    if impl is not None:
        allowed, why = impl
        return Case(name, op.info.name, opset, version, attrs, inputs, "implementation-defined", why, tags,
                    allowed=allowed)
    kind, expected, why = _classify(op, opset, inputs, attrs)
    if kind == "defined":
        why = "the ONNX spec defines the result"
    # a racy kernel can pass one run and fail the next: large reductions with duplicates run 5 times
    repeat = 5 if {"large", "duplicates"} <= set(tags) else 1
    return Case(name, op.info.name, opset, version, attrs, inputs, kind, why, tags, expected=expected, repeat=repeat)


# ---------------------------------------------------------------------------------------------- export


def _model(case: Case) -> Any:
    import onnx.defs
    from onnx import helper

    schema = onnx.defs.get_schema(case.op, case.opset)
    names = [p.name for p in schema.inputs][: len(case.inputs)]
    node = helper.make_node(case.op, names, ["output"], name=case.name, **case.attrs)
    vi = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
        for n, a in zip(names, case.inputs, strict=True)
    ]
    out = case.expected if case.expected is not None else case.inputs[0]
    y = helper.make_tensor_value_info("output", helper.np_dtype_to_tensor_dtype(out.dtype), None)
    graph = helper.make_graph([node], case.name, vi, [y])
    opsets = [helper.make_opsetid("", case.opset)]
    return helper.make_model(
        graph, opset_imports=opsets, ir_version=helper.find_min_ir_version_for(opsets), producer_name="gatherscatter"
    )


def _save_tensor(path: Path, arr: Array, name: str) -> None:
    from onnx import numpy_helper

    path.write_bytes(numpy_helper.from_array(np.array(arr, order="C"), name).SerializeToString())


def _load_tensor(path: Path) -> Array:
    from onnx import TensorProto, numpy_helper

    t = TensorProto()
    t.ParseFromString(path.read_bytes())
    return np.asarray(numpy_helper.to_array(t))


def export(
    directory: str | os.PathLike[str],
    *,
    ops: Sequence[str] | None = None,
    opsets: Sequence[int] | None = None,
    dtypes: Sequence[str] | None = None,
    large: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Write the kit into ``directory`` (created; must be empty or absent); return the manifest."""
    import onnx

    from .. import __version__

    root = Path(directory)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise KitError(f"{root}: the kit directory must be empty or absent")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KitError(f"cannot create {root}: {exc.strerror}") from None
    entries = []
    # an op the installed onnx has no schema for (TensorScatter needs onnx >= 1.19) is left out
    todo = [c for c in cases(ops, opsets, dtypes, large=large) if onnx.defs.has(c.op, c.opset)]
    for n, case in enumerate(todo):
        if progress is not None:
            progress(n, len(todo), case.name)
        cdir = root / case.name
        data = cdir / "test_data_set_0"
        data.mkdir(parents=True)
        (cdir / "model.onnx").write_bytes(_model(case).SerializeToString())
        schema = onnx.defs.get_schema(case.op, case.opset)
        names = [p.name for p in schema.inputs]
        for k, arr in enumerate(case.inputs):
            _save_tensor(data / f"input_{k}.pb", arr, names[k])
        entry: dict[str, Any] = {
            "name": case.name,
            "op": case.op,
            "opset": case.opset,
            "op_version": case.op_version,
            "attrs": case.attrs,
            "inputs": [{"name": names[k], "dtype": a.dtype.name, "shape": list(a.shape)} for k, a in
                       enumerate(case.inputs)],
            "kind": case.kind,
            "why": case.why,
            "tags": list(case.tags),
            "repeat": case.repeat,
        }
        if case.expected is not None:
            _save_tensor(data / "output_0.pb", case.expected, "output")
            entry["expected"] = "test_data_set_0/output_0.pb"
        if case.allowed:
            entry["allowed"] = []
            for label, allowed_arr in case.allowed.items():
                if allowed_arr is None:
                    entry["allowed"].append({"label": label, "outcome": "raise"})
                else:
                    fname = f"test_data_set_0/allowed_{label}.pb"
                    _save_tensor(cdir / fname, allowed_arr, "output")
                    entry["allowed"].append({"label": label, "outcome": "output", "file": fname})
        entries.append(entry)
    manifest = {
        "format": FORMAT,
        "generator": f"gatherscatter {__version__}",
        "onnx": onnx.__version__,
        "layout": "ONNX backend-test layout: <case>/model.onnx, <case>/test_data_set_0/input_N.pb, output_0.pb",
        "kinds": {
            "defined": "the ONNX spec fixes the result: output_0.pb",
            "must-raise": "the ONNX spec makes it an error: the runtime must refuse the model or fail the run",
            "implementation-defined": "the spec leaves it open: any outcome in 'allowed' is conforming",
        },
        "cases": entries,
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


# ---------------------------------------------------------------------------------------------- run


@dataclass
class CaseResult:
    """What a runtime did on one case, and whether the manifest allows it."""

    name: str
    kind: str
    status: str  # pass | diverge | skipped
    outcome: str  # output | raise | crash | timeout
    detail: str = ""
    actual: Any = None
    expected: Any = None
    tags: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tags": list(self.tags)}


@dataclass
class RunReport:
    """A kit run: every case's result, with the runtime and its version."""

    runtime: str
    version: str
    options: dict[str, Any]
    results: list[CaseResult]

    @property
    def divergences(self) -> list[CaseResult]:
        """The cases whose outcome the manifest does not allow."""
        return [r for r in self.results if r.status == "diverge"]

    def counts(self) -> dict[str, int]:
        """``{'pass': n, 'diverge': m, ...}``."""
        c: dict[str, int] = {}
        for r in self.results:
            c[r.status] = c.get(r.status, 0) + 1
        return c

    def as_dict(self) -> dict[str, Any]:
        return {
            "runtime": self.runtime,
            "version": self.version,
            "options": self.options,
            "counts": self.counts(),
            "divergences": [r.as_dict() for r in self.divergences],
            "results": [r.as_dict() for r in self.results],
        }

    def text(self) -> str:
        """One line per divergence, then the counts."""
        lines = [f"conformance run: {self.runtime} {self.version} {self.options}".rstrip()]
        for r in self.divergences:
            lines.append(f"DIVERGE {r.name} [{r.kind}] {r.detail}")
        counts = ", ".join(f"{v} {k}" for k, v in sorted(self.counts().items()))
        lines.append(f"{len(self.results)} cases: {counts}")
        return "\n".join(lines) + "\n"


def _read_manifest(root: Path) -> dict[str, Any]:
    path = root / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KitError(f"{root}: no manifest.json (write a kit with `gatherscatter conformance export DIR`)") from None
    except (OSError, ValueError) as exc:
        raise KitError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(
        manifest.get("cases"), list
    ):
        raise KitError(f"{path}: not a gatherscatter conformance manifest (format {FORMAT!r})")
    return manifest


def _summary(arr: Array) -> Any:
    if arr.size <= 24:
        return {"dtype": arr.dtype.name, "shape": list(arr.shape), "values": arr.tolist()}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape)}


def _same(a: Array, b: Array) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind in "fc":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def _difference(actual: Array, expected: Array) -> str:
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype.name}, expected {expected.dtype.name}"
    bad = ~((actual == expected) | ((actual != actual) & (expected != expected)))
    pos = np.argwhere(bad)
    first = ", ".join(
        f"at {tuple(int(x) for x in p)}: {actual[tuple(p)].item()!r} vs {expected[tuple(p)].item()!r}"
        for p in pos[:3]
    )
    return f"{len(pos)} of {actual.size} values differ ({first}{', ...' if len(pos) > 3 else ''})"


def _judge(entry: dict[str, Any], case_dir: Path, outcome: str, value: Any) -> CaseResult:
    kind = entry["kind"]
    name = entry["name"]
    tags = tuple(entry.get("tags", ()))
    if kind == "must-raise":
        if outcome == "raise":
            return CaseResult(name, kind, "pass", outcome, "", tags=tags)
        actual = _summary(value) if outcome == "output" else None
        shown = f" {actual['values']}" if actual and "values" in actual else ""
        return CaseResult(name, kind, "diverge", outcome,
                          f"must raise ({entry['why']}); runtime gave {outcome}{shown}", actual, tags=tags)
    if kind == "defined":
        expected = _load_tensor(case_dir / entry["expected"])
        if outcome == "output" and _same(value, expected):
            return CaseResult(name, kind, "pass", outcome, tags=tags)
        if outcome == "output":
            detail = _difference(value, expected)
            return CaseResult(name, kind, "diverge", outcome, detail, _summary(value), _summary(expected), tags)
        return CaseResult(name, kind, "diverge", outcome, f"defined result expected; runtime: {outcome}: {value}",
                          expected=_summary(expected), tags=tags)
    allowed = entry.get("allowed", [])
    for a in allowed:
        if a["outcome"] == "raise" and outcome == "raise":
            return CaseResult(name, kind, "pass", outcome, a["label"], tags=tags)
        if a["outcome"] == "output" and outcome == "output" and _same(value, _load_tensor(case_dir / a["file"])):
            return CaseResult(name, kind, "pass", outcome, a["label"], tags=tags)
    labels = ", ".join(a["label"] for a in allowed)
    shown = _summary(value) if outcome == "output" else value
    got = f" {shown['values']}" if isinstance(shown, dict) and "values" in shown else f": {shown}"
    return CaseResult(name, kind, "diverge", outcome,
                      f"outcome not among the allowed ({labels}); runtime: {outcome}{got}", shown, tags=tags)


def run(
    directory: str | os.PathLike[str],
    runtime: str,
    *,
    threads: int | None = None,
    only: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    isolate: bool = True,
    timeout: float | None = 120.0,
) -> RunReport:
    """Run the kit in ``directory`` on ``runtime``; return every case's result.

    ``threads``: onnxruntime's ``intra_op_num_threads`` / OpenVINO's
    ``INFERENCE_NUM_THREADS`` (None: the runtime's default). ``only``: a regular
    expression on case names. ``isolate``: run in a worker process, so that a
    runtime crash is recorded as ``crash`` instead of ending the run; ``timeout``:
    seconds per case before the worker is stopped and the case recorded as ``timeout``.
    """
    if runtime not in RUNTIMES:
        raise KitError(f"unknown runtime {runtime!r}; choose one of {', '.join(RUNTIMES)}")
    root = Path(directory)
    manifest = _read_manifest(root)
    entries = manifest["cases"]
    if only:
        try:
            pat = re.compile(only)
        except re.error as exc:
            raise KitError(f"--only: bad regular expression {only!r} ({exc})") from None
        entries = [e for e in entries if pat.search(e["name"])]
    from . import runners

    version = runners.runtime_version(runtime)
    results = []
    with runners.Executor(runtime, threads, isolate=isolate, timeout=timeout) as ex:
        for n, entry in enumerate(entries):
            if progress is not None:
                progress(n, len(entries), entry["name"])
            case_dir = root / entry["name"]
            repeat = int(entry.get("repeat", 1))
            outcome, value = ex.run_case(str(case_dir), len(entry["inputs"]), repeat)
            if outcome != "output":
                results.append(_judge(entry, case_dir, outcome, value))
                continue
            judged = [_judge(entry, case_dir, outcome, v) for v in value]
            bad = [(k, r) for k, r in enumerate(judged) if r.status != "pass"]
            if bad and repeat > 1:
                k, r = bad[0]
                r.detail = f"{len(bad)} of {repeat} runs diverge; run {k + 1}: {r.detail}"
            results.append(bad[0][1] if bad else judged[0])
    return RunReport(runtime, version, {"threads": threads, "timeout": timeout}, results)

