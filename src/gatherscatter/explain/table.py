"""The seed documents' comparison tables, computed live for every op, version and family.

Each row is a *probe*: a small input (data, indices, updates, attributes) run through
every registered op of the family, at every version it has, when the table is made.
A cell says what happened: the result, labelled by comparing it with what each
candidate behaviour gives on the same input (candidates are computed here too, with
the neutral API and an explicit policy: ``wrap``, ``clip``, ``fill``, ``last wins``...),
or the error the op raised (class and shortened message), or why the op cannot take
the probe (``n/a: no batch_dims parameter``). No cell text is written by hand.

Ops whose index tuples lie on the *first* axis of ``indices`` (found by the
``index layout`` probe) get the later ND probes with their indices moved to that axis,
so that their other rows compare like with like; the column says so.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import api
from ..dialects._registry import DialectOp, ops
from .adapter import Binding, ProbeError, Roles, bind, parameters
from .lines import fmt_values
from .model import short_error

__all__ = ["FAMILY_TITLES", "Cell", "Column", "Row", "Table", "make_table", "table_json", "table_markdown"]

FAMILY_TITLES = {
    "gather": "Gather / Take (whole slices along one axis)",
    "gather_elements": "GatherElements / take_along_axis / torch.gather (one element per index)",
    "gather_nd": "GatherND / gather_nd (index tuples)",
    "scatter_elements": "ScatterElements / put_along_axis / torch.scatter (one element per index)",
    "scatter_nd": "ScatterND / scatter_nd / index_put (index tuples)",
    "scatter_axis": "Axis scatter (inverse Gather): ScatterUpdate / index_copy / index_add",
}

INDEX_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32")
_SHORT = {
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "float32": "f32",
}
# Parameters whose values select a behaviour: each value the op's record accepts (``dialect_op(values=...)``;
# booleans: True, False) gets its own result in bad-index rows.
VARIANT_PARAMS = ("mode", "device", "bad_indices_policy", "wrap_indices")
REDUCTION_PARAMS = ("reduction", "reduce")
REDUCTION_NAMES = ("none", "add", "sum", "sub", "mul", "multiply", "prod", "max", "amax", "min", "amin", "mean")
ACCUMULATE_PARAMS = ("accumulate", "overwrite")


def _f(x: Any) -> np.ndarray[Any, Any]:
    return np.asarray(x, dtype=np.float64)


def _i(x: Any) -> np.ndarray[Any, Any]:
    return np.asarray(x, dtype=np.int64)


Candidates = Callable[[], list[tuple[str, Any]]]


@dataclass(frozen=True)
class Probe:
    """One row: its inputs and the candidate behaviours its results are labelled with."""

    case: str
    roles: Roles
    candidates: Candidates = list
    kind: str = "result"  # result | default_axis | reductions | dtypes | layout
    variants: bool = False  # bad-index rows: one result per accepted mode/device value
    needs: tuple[str, ...] = ()  # attributes that must exist (else n/a)
    nd: bool = False  # indices hold tuples on the last axis (moved for first-axis ops)


@dataclass
class Cell:
    """One table cell: ``status`` is ``ok``, ``error``, ``n/a`` or ``other``."""

    status: str
    text: str
    value: Any = None


@dataclass
class Column:
    """One op (several versions when they agree on every row)."""

    op: str
    versions: list[str]
    version_kw: str | None
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        if not self.versions or self.version_kw is None:
            return self.op + (f" {self.versions[0]}" if self.versions and self.version_kw is None else "")
        kw = "opset" if self.version_kw == "opset" else "v"
        return f"{self.op} {kw} {', '.join(self.versions)}"


@dataclass
class Row:
    case: str
    cells: list[Cell]


@dataclass
class Table:
    family: str
    title: str
    columns: list[Column]
    rows: list[Row]
    skipped: list[tuple[str, str]]


# ------------------------------------------------------------------ candidates


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception:  # a candidate that does not apply is left out
        return None


def _cands(*pairs: tuple[str, Callable[[], Any]]) -> Candidates:
    def make() -> list[tuple[str, Any]]:
        out = []
        for label, fn in pairs:
            v = _try(fn)
            if v is not None:
                out.append((label, v))
        return out

    return make


def _bad_index_probes(*rows: tuple[str, Any], roles: Callable[[Any], Roles], cands: Callable[[Any], Candidates],
                      nd: bool = False) -> list[Probe]:
    """A family's bad-index rows: one :class:`Probe` per ``(case, index)``, one result per accepted mode."""
    return [Probe(case, roles(ix), cands(ix), variants=True, nd=nd) for case, ix in rows]


#: the out-of-range behaviours a gather's bad-index row is matched against (label, the neutral policy)
_GATHER_BAD: tuple[tuple[str, dict[str, Any]], ...] = (
    ("wraps once (-1 → last)", {"bounds": "raise", "negative": "wrap"}),
    ("clamp", {"bounds": "clip", "negative": "bounds"}),
    ("clamp (after wrapping negatives)", {"bounds": "clip"}),
    ("wrap (mod size)", {"bounds": "wrap", "negative": "bounds"}),
    ("zero-fill", {"bounds": "fill", "fill_value": 0}),
    ("NaN-fill", {"bounds": "fill", "fill_value": np.nan}),
)


def _gather_bad_cands(call: Callable[..., Any], *extra: tuple[str, Callable[[], Any]]) -> Candidates:
    """``call(**policy)`` under each of :data:`_GATHER_BAD`, then the family's ``extra`` candidates."""
    return _cands(*((label, functools.partial(call, **kw)) for label, kw in _GATHER_BAD), *extra)


def _gather_bad(data: Any, idx: Any, axis: int = 0) -> Candidates:
    return _gather_bad_cands(
        lambda **kw: api.take(data, idx, axis, **kw),
        ("zero-fill negatives", lambda: api.take(data, idx, axis, bounds="fill", negative="bounds", fill_value=0)),
    )


def _elements_bad(data: Any, idx: Any, axis: int) -> Candidates:
    return _gather_bad_cands(lambda **kw: api.take_along_axis(data, idx, axis, **kw))


def _nd_bad(data: Any, idx: Any) -> Candidates:
    def flat_offset() -> Any:
        # reads data.flat at the row-major offset of the tuple, whatever its components
        d = np.asarray(data)
        i = np.asarray(idx)
        off = np.zeros(i.shape[:-1], np.int64)
        for j in range(i.shape[-1]):
            off = off * d.shape[j] + i[..., j]
        block = d.reshape((-1, *d.shape[int(i.shape[-1]) :]))
        if ((off < 0) | (off >= block.shape[0])).any():
            return None
        return block[off]

    return _gather_bad_cands(lambda **kw: api.gather_nd(data, idx, **kw),
                             ("flat offset (reads the next row)", flat_offset))


def _scatter_bad(fn: Callable[..., Any]) -> Candidates:
    return _cands(
        ("wraps once (-1 → last)", lambda: fn(bounds="raise", negative="wrap")),
        ("ignored (dropped)", lambda: fn(bounds="drop", negative="wrap")),
        ("ignored (dropped, negatives too)", lambda: fn(bounds="drop", negative="bounds")),
        ("clamp", lambda: fn(bounds="clip", negative="bounds")),
        ("clamp (after wrapping negatives)", lambda: fn(bounds="clip")),
        ("wrap (mod size)", lambda: fn(bounds="wrap", negative="bounds")),
        ("zero data, then ok", lambda: fn(bounds="raise", zero=True)),
    )


def _dups(fn: Callable[..., Any]) -> Candidates:
    return _cands(
        ("last wins", lambda: fn(duplicates="last")),
        ("first wins", lambda: fn(duplicates="first")),
        ("summed", lambda: fn(reduction="add")),
        ("summed onto zeros", lambda: fn(reduction="add", zero=True)),
    )


def _along(data: Any, idx: Any, upd: Any, axis: int = 0) -> Callable[..., Any]:
    def fn(zero: bool = False, **kw: Any) -> Any:
        d = np.zeros_like(_f(data)) if zero else data
        return api.scatter_along_axis(d, idx, upd, axis, **kw)

    return fn


def _nd(data: Any, idx: Any, upd: Any) -> Callable[..., Any]:
    def fn(zero: bool = False, **kw: Any) -> Any:
        d = np.zeros_like(_f(data)) if zero else data
        return api.scatter_nd(d, idx, upd, **kw)

    return fn


def _rows_axis(data: Any, idx: Any, upd: Any, axis: int = 0) -> Callable[..., Any]:
    """Scatter whole slices along ``axis`` (the inverse of Gather), through scatter_nd."""

    def fn(zero: bool = False, **kw: Any) -> Any:
        d = np.moveaxis(np.zeros_like(_f(data)) if zero else _f(data), axis, 0)
        u = np.moveaxis(_f(upd), axis, 0)
        return np.moveaxis(api.scatter_nd(d, _i(idx)[:, None], u, **kw), 0, axis)

    return fn


# ------------------------------------------------------------------ probes per family

_D32 = _f([[1, 2], [3, 4], [5, 6]])
_V3 = _f([10, 20, 30])
_M23 = _f([[1, 2, 3], [4, 5, 6]])
_M33 = _f([[1, 2, 3], [4, 5, 6], [7, 8, 9]])


def _probes(family: str) -> list[Probe]:
    if family == "gather":
        return [
            Probe(
                "default axis (data 3x2, idx [1], axis omitted)",
                Roles(_D32, _i([1])),
                _cands(
                    ("axis 0", lambda: api.take(_D32, [1], 0)),
                    ("flattened", lambda: api.take(_D32, [1], None)),
                    ("last axis", lambda: api.take(_D32, [1], -1)),
                ),
                kind="default_axis",
            ),
            Probe(
                "negative axis (data 2x3, idx [2,0], axis=-1)",
                Roles(_M23, _i([2, 0]), attrs={"axis": -1}),
                _cands(("ok", lambda: api.take(_M23, [2, 0], 1))),
                needs=("axis",),
            ),
            *_bad_index_probes(
                ("negative index (data [10,20,30], idx [0,-1])", [0, -1]),
                ("out-of-range index (idx [0,3], size 3)", [0, 3]),
                ("out-of-range index (idx [0,-4], size 3)", [0, -4]),
                roles=lambda ix: Roles(_V3, _i(ix)),
                cands=lambda ix: _gather_bad(_V3, ix),
            ),
            Probe(
                "duplicate indices (idx [1,1])",
                Roles(_V3, _i([1, 1])),
                _cands(("allowed", lambda: api.take(_V3, [1, 1]))),
            ),
            Probe(
                "batch_dims=1 (data 2x3, idx [[0,2],[2,1]], axis=1)",
                Roles(_M23, _i([[0, 2], [2, 1]]), attrs={"axis": 1, "batch_dims": 1}),
                _cands(("ok", lambda: api.take(_M23, [[0, 2], [2, 1]], 1, batch_dims=1))),
                needs=("batch_dims",),
            ),
            Probe("index dtypes (idx [2,0])", Roles(_V3, _i([2, 0])), kind="dtypes"),
        ]
    if family == "gather_elements":
        d22 = _f([[1, 2], [3, 4]])
        i22 = [[0, 0], [1, 0]]
        return [
            Probe(
                "default axis (data [[1,2],[3,4]], idx [[0,0],[1,0]], axis omitted)",
                Roles(d22, _i(i22)),
                _cands(
                    ("axis 0", lambda: api.take_along_axis(d22, i22, 0)),
                    ("last axis", lambda: api.take_along_axis(d22, i22, -1)),
                    ("flattened", lambda: api.take(d22.reshape(-1), np.reshape(i22, -1), 0)),
                ),
                kind="default_axis",
            ),
            Probe(
                "negative axis (data 2x3, idx [[2,0],[1,1]], axis=-1)",
                Roles(_M23, _i([[2, 0], [1, 1]]), attrs={"axis": -1}),
                _cands(("ok", lambda: api.take_along_axis(_M23, [[2, 0], [1, 1]], 1))),
                needs=("axis",),
            ),
            *_bad_index_probes(
                ("negative index (data 2x3, idx [[0],[-1]], axis=1)", [[0], [-1]]),
                ("out-of-range index 3 (axis size 3)", [[0], [3]]),
                ("out-of-range index -4 (axis size 3)", [[0], [-4]]),
                roles=lambda ix: Roles(_M23, _i(ix), attrs={"axis": 1}),
                cands=lambda ix: _elements_bad(_M23, ix, 1),
            ),
            Probe(
                "indices smaller than data off the axis (data 3x3, idx [[0],[1]], axis=1)",
                Roles(_M33, _i([[0], [1]]), attrs={"axis": 1}),
                _cands(("ok, no broadcast", lambda: api.take_along_axis(_M33, [[0], [1]], 1))),
            ),
            Probe(
                "indices 1x2 on data 3x3 (idx [[2,0]], axis=1)",
                Roles(_M33, _i([[2, 0]]), attrs={"axis": 1}),
                _cands(
                    ("row-wise, no broadcast", lambda: api.take_along_axis(_M33, [[2, 0]], 1)),
                    ("broadcast to 3x2", lambda: api.take_along_axis(_M33, [[2, 0]], 1, broadcast=True)),
                ),
            ),
            Probe(
                "duplicate indices (idx [[1,1],[1,1]], axis=1)",
                Roles(_M23, _i([[1, 1], [1, 1]]), attrs={"axis": 1}),
                _cands(("allowed", lambda: api.take_along_axis(_M23, [[1, 1], [1, 1]], 1))),
            ),
            Probe(
                "index dtypes (idx [[2],[0]], axis=1)", Roles(_M23, _i([[2], [0]]), attrs={"axis": 1}), kind="dtypes"
            ),
        ]
    if family == "gather_nd":
        d22 = _f([[1, 2], [3, 4]])
        b3 = _f([[[0, 1], [2, 3]], [[4, 5], [6, 7]]])
        return [
            Probe(
                "index layout (seed example 2: data [[1,2],[3,4]], idx [[0,0],[1,1]])",
                Roles(d22, _i([[0, 0], [1, 1]])),
                _cands(
                    ("last axis (tuples are rows)", lambda: api.gather_nd(d22, [[0, 0], [1, 1]])),
                    ("first axis (tuples are columns)", lambda: api.gather_nd(d22, [[0, 0], [1, 1]], index_axis=0)),
                ),
                kind="layout",
            ),
            *_bad_index_probes(
                ("negative index (data 3x3, idx [[0,0],[-1,0]])", [[0, 0], [-1, 0]]),
                ("out-of-range row index 3 (idx [[0,0],[3,0]])", [[0, 0], [3, 0]]),
                ("out-of-range row index -4 (idx [[0,0],[-4,0]])", [[0, 0], [-4, 0]]),
                ("out-of-range column index (idx [[0,0],[0,3]])", [[0, 0], [0, 3]]),
                roles=lambda ix: Roles(_M33, _i(ix)),
                cands=lambda ix: _nd_bad(_M33, ix),
                nd=True,
            ),
            Probe(
                "partial index → slices (idx [[1]])",
                Roles(_M33, _i([[1]])),
                _cands(("slice", lambda: api.gather_nd(_M33, [[1]]))),
                nd=True,
            ),
            Probe(
                "duplicate indices (idx [[1,1],[1,1]])",
                Roles(_M33, _i([[1, 1], [1, 1]])),
                _cands(("allowed", lambda: api.gather_nd(_M33, [[1, 1], [1, 1]]))),
                nd=True,
            ),
            Probe(
                "batch_dims=1 (ONNX GatherND example 5)",
                Roles(b3, _i([[1], [0]]), attrs={"batch_dims": 1}),
                _cands(("ok", lambda: api.gather_nd(b3, [[1], [0]], batch_dims=1))),
                needs=("batch_dims",),
                nd=True,
            ),
            Probe("index dtypes (idx [[1,1],[0,2]])", Roles(_M33, _i([[1, 1], [0, 2]])), kind="dtypes", nd=True),
        ]
    if family == "scatter_elements":
        z22 = _f([[0, 0], [0, 0]])
        z4 = _f([0, 0, 0, 0])
        d3 = _f([1, 2, 3])
        return [
            Probe(
                "default axis (zeros 2x2, idx [[1,0]], upd [[5,6]], axis omitted)",
                Roles(z22, _i([[1, 0]]), _f([[5, 6]])),
                _cands(
                    ("axis 0", lambda: api.scatter_along_axis(z22, [[1, 0]], [[5, 6]], 0)),
                    ("last axis", lambda: api.scatter_along_axis(z22, [[1, 0]], [[5, 6]], -1)),
                ),
                kind="default_axis",
            ),
            Probe(
                "negative axis (zeros 2x2, idx [[1,0]], upd [[5,6]], axis=-1)",
                Roles(z22, _i([[1, 0]]), _f([[5, 6]]), attrs={"axis": -1}),
                _cands(
                    ("ok", lambda: api.scatter_along_axis(z22, [[1, 0]], [[5, 6]], 1)),
                    (
                        "ok, idx broadcast over both rows",
                        lambda: api.scatter_along_axis(z22, [[1, 0]], [[5, 6]], 1, broadcast=True),
                    ),
                ),
                needs=("axis",),
            ),
            *_bad_index_probes(
                ("negative index (data [1,2,3], idx [-1], upd [9])", [-1]),
                ("out-of-range index [3] (size 3)", [3]),
                ("out-of-range index [-4] (size 3)", [-4]),
                roles=lambda ix: Roles(d3, _i(ix), _f([9]), attrs={"axis": 0}),
                cands=lambda ix: _scatter_bad(_along(d3, ix, [9])),
            ),
            Probe(
                "duplicate indices, no reduction (zeros(4), idx [1,1,1], upd [10,20,30])",
                Roles(z4, _i([1, 1, 1]), _f([10, 20, 30]), attrs={"axis": 0}),
                _dups(_along(z4, [1, 1, 1], [10, 20, 30])),
            ),
            Probe(
                "locations not covered (data [1,2,3], idx [0], upd [9])",
                Roles(d3, _i([0]), _f([9]), attrs={"axis": 0}),
                _cands(
                    ("kept from data", lambda: api.scatter_along_axis(d3, [0], [9], 0)),
                    ("zero", lambda: api.scatter_along_axis(np.zeros(3), [0], [9], 0)),
                    ("kept from data (added)", lambda: api.scatter_along_axis(d3, [0], [9], 0, reduction="add")),
                ),
            ),
            Probe(
                "reductions → result[0] (data [5,5,5], idx [0,0], upd [2,3])",
                Roles(_f([5, 5, 5]), _i([0, 0]), _f([2, 3]), attrs={"axis": 0}),
                kind="reductions",
            ),
            Probe(
                "index dtypes (idx [2,0], upd [7,8])",
                Roles(d3, _i([2, 0]), _f([7, 8]), attrs={"axis": 0}),
                kind="dtypes",
            ),
        ]
    if family == "scatter_nd":
        z22 = _f([[0, 0], [0, 0]])
        z4 = _f([0, 0, 0, 0])
        d3 = _f([1, 2, 3])
        d22 = _f([[1, 2], [3, 4]])
        return [
            Probe(
                "index layout (zeros 2x2, idx [[0,1],[0,0]], upd [5,6])",
                Roles(z22, _i([[0, 1], [0, 0]]), _f([5, 6])),
                _cands(
                    ("last axis (tuples are rows)", lambda: api.scatter_nd(z22, [[0, 1], [0, 0]], [5, 6])),
                    (
                        "first axis (tuples are columns)",
                        lambda: api.scatter_nd(z22, [[0, 1], [0, 0]], [5, 6], index_axis=0),
                    ),
                ),
                kind="layout",
            ),
            *_bad_index_probes(
                ("negative index (data [1,2,3], idx [[-1]], upd [9])", [[-1]]),
                ("out-of-range index [[3]] (size 3)", [[3]]),
                ("out-of-range index [[-4]] (size 3)", [[-4]]),
                roles=lambda ix: Roles(d3, _i(ix), _f([9])),
                cands=lambda ix: _scatter_bad(_nd(d3, ix, [9])),
                nd=True,
            ),
            Probe(
                "duplicate indices, no reduction (zeros(4), idx [[1],[1],[1]], upd [10,20,30])",
                Roles(z4, _i([[1], [1], [1]]), _f([10, 20, 30])),
                _dups(_nd(z4, [[1], [1], [1]], [10, 20, 30])),
                nd=True,
            ),
            Probe(
                "locations not covered (data [1,2,3], idx [[0]], upd [9])",
                Roles(d3, _i([[0]]), _f([9])),
                _cands(
                    ("kept from data", lambda: api.scatter_nd(d3, [[0]], [9])),
                    ("zero", lambda: api.scatter_nd(np.zeros(3), [[0]], [9])),
                    ("kept from data (added)", lambda: api.scatter_nd(d3, [[0]], [9], reduction="add")),
                ),
                nd=True,
            ),
            Probe(
                "slice update (data 2x2, idx [[1]], upd [[7,8]])",
                Roles(d22, _i([[1]]), _f([[7, 8]])),
                _cands(
                    ("row update", lambda: api.scatter_nd(d22, [[1]], [[7, 8]])),
                    ("row update onto zeros", lambda: api.scatter_nd(np.zeros((2, 2)), [[1]], [[7, 8]])),
                ),
                nd=True,
            ),
            Probe(
                "reductions → result[0] (data [5,5,5], idx [[0],[0]], upd [2,3])",
                Roles(_f([5, 5, 5]), _i([[0], [0]]), _f([2, 3])),
                kind="reductions",
                nd=True,
            ),
            Probe(
                "index dtypes (idx [[2],[0]], upd [7,8])",
                Roles(d3, _i([[2], [0]]), _f([7, 8])),
                kind="dtypes",
                nd=True,
            ),
        ]
    if family == "scatter_axis":
        z22 = _f([[0, 0], [0, 0]])
        z23 = _f([[0, 0, 0], [0, 0, 0]])
        z32 = _f([[0, 0], [0, 0], [0, 0]])
        d32 = _f([[1, 1], [2, 2], [3, 3]])
        return [
            Probe(
                "default axis (zeros 2x2, idx [1], upd [[5,6]], axis omitted)",
                Roles(z22, _i([1]), _f([[5, 6]])),
                _cands(("axis 0", lambda: _rows_axis(z22, [1], [[5, 6]], 0)())),
                kind="default_axis",
            ),
            Probe(
                "negative axis (zeros 2x3, idx [1], upd [[5],[6]], axis=-1)",
                Roles(z23, _i([1]), _f([[5], [6]]), attrs={"axis": -1}),
                _cands(("ok", lambda: _rows_axis(z23, [1], [[5], [6]], 1)())),
                needs=("axis",),
            ),
            *_bad_index_probes(
                ("negative index (data 3x2, idx [-1], upd [[9,9]])", [-1]),
                ("out-of-range index [3] (size 3)", [3]),
                ("out-of-range index [-4] (size 3)", [-4]),
                roles=lambda ix: Roles(d32, _i(ix), _f([[9, 9]]), attrs={"axis": 0}),
                cands=lambda ix: _scatter_bad(_rows_axis(d32, ix, [[9, 9]])),
            ),
            Probe(
                "duplicate indices (zeros 3x2, idx [1,1], upd rows 10, 20)",
                Roles(z32, _i([1, 1]), _f([[10, 10], [20, 20]]), attrs={"axis": 0}),
                _dups(_rows_axis(z32, [1, 1], [[10, 10], [20, 20]])),
            ),
            Probe(
                "locations not covered (data 3x2, idx [0], upd [[9,9]])",
                Roles(d32, _i([0]), _f([[9, 9]]), attrs={"axis": 0}),
                _cands(
                    ("kept from data", lambda: _rows_axis(d32, [0], [[9, 9]])()),
                    ("zero", lambda: _rows_axis(d32, [0], [[9, 9]])(zero=True)),
                    ("kept from data (added)", lambda: _rows_axis(d32, [0], [[9, 9]])(reduction="add")),
                ),
            ),
            Probe(
                "reductions → result[0, 0] (data 3x2 of 5, idx [0,0], upd rows 2, 3)",
                Roles(_f([[5, 5], [5, 5], [5, 5]]), _i([0, 0]), _f([[2, 2], [3, 3]]), attrs={"axis": 0}),
                kind="reductions",
            ),
            Probe(
                "index dtypes (idx [2,0])",
                Roles(d32, _i([2, 0]), _f([[7, 7], [8, 8]]), attrs={"axis": 0}),
                kind="dtypes",
            ),
        ]
    raise ValueError(f"no probes for family {family!r}")


TABLE_FAMILIES = tuple(FAMILY_TITLES)


# ------------------------------------------------------------------ running probes


def _short(exc: BaseException, op: DialectOp, limit: int = 110) -> str:
    return short_error(exc, limit, op=op.info.qualname)


def _same(a: Any, b: Any) -> bool:
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return False
    try:
        return bool(np.array_equal(x.astype(np.float64), y.astype(np.float64), equal_nan=True))
    except (TypeError, ValueError):
        return bool(np.array_equal(x, y))


def _run(b: Binding) -> tuple[Any, BaseException | None]:
    try:
        return b.call(), None
    except Exception as exc:  # every failure is a cell: class and message
        return None, exc


def _label(result: Any, cands: list[tuple[str, Any]]) -> tuple[str, str]:
    for label, val in cands:
        if _same(result, val):
            return "ok", f"{label} {fmt_values(result, 40)}"
    return "other", f"other {fmt_values(result, 40)}"


def _outcome(op: DialectOp, b: Binding, cands: list[tuple[str, Any]]) -> Cell:
    res, exc = _run(b)
    if exc is not None:
        return Cell("error", "ERR " + _short(exc, op), None)
    status, text = _label(res, cands)
    return Cell(status, text, np.asarray(res).tolist())


def _variant_values(op: DialectOp, roles: Roles, version: Any) -> list[tuple[str, Any]]:
    """Behaviour-selecting parameters of ``op`` and the values its record lists (a boolean's: True, False)."""
    params = parameters(op)
    out: list[tuple[str, Any]] = []
    for name in VARIANT_PARAMS:
        if name not in params or name in roles.attrs:
            continue
        default = params[name].default
        listed = op.record.values.get(name)
        boolean = isinstance(default, bool) or "bool" in str(params[name].annotation)
        values = (True, False) if listed is None and boolean else listed
        if values is None or isinstance(values, str):
            continue
        for v in values:
            if v == default:
                continue
            try:
                bind(op, Roles(roles.data, roles.indices, roles.updates, {**roles.attrs, name: v}), version=version)
            except ProbeError:
                continue
            out.append((name, v))
    return out


def _accepts(op: DialectOp, roles: Roles, version: Any, name: str, value: Any, sane: Roles) -> bool:
    try:
        b = bind(op, Roles(sane.data, sane.indices, sane.updates, {**sane.attrs, name: value}), version=version)
    except ProbeError:
        return False
    _, exc = _run(b)
    return exc is None


def _cell(op: DialectOp, probe: Probe, version: Any, cands: list[tuple[str, Any]], sane: Roles) -> Cell:
    roles = probe.roles
    params = parameters(op)
    for need in probe.needs:
        names = ("axis", "dim") if need == "axis" else (need,)
        if not any(n in params for n in names):
            return Cell("n/a", f"n/a: no {need} parameter")
    if probe.kind == "default_axis":
        axis_p = next((n for n in ("axis", "dim") if n in params), None)
        if axis_p is not None and params[axis_p].default is params[axis_p].empty:
            return Cell("n/a", f"no default: {axis_p} is required")
    axis_p = next((n for n in ("axis", "dim") if n in params), None)
    if (
        probe.kind != "default_axis"
        and axis_p is not None
        and params[axis_p].default is params[axis_p].empty
        and not any(n in roles.attrs for n in ("axis", "dim"))
    ):
        # the probe's axis is 0 (1-D data, or rows): say it to ops that require an axis
        roles = Roles(roles.data, roles.indices, roles.updates, {**roles.attrs, "axis": 0})
        probe = Probe(probe.case, roles, probe.candidates, probe.kind, probe.variants, probe.needs, probe.nd)
        sane = Roles(sane.data, sane.indices, sane.updates, {"axis": 0, **sane.attrs})
    if probe.kind == "reductions":
        return _reductions(op, probe, version)
    if probe.kind == "dtypes":
        return _dtypes(op, probe, version)
    try:
        b = bind(op, roles, version=version)
    except ProbeError as exc:
        return Cell("n/a", f"n/a: {exc}")
    cell = _outcome(op, b, cands)
    if not probe.variants:
        return cell
    parts = [f"default: {cell.text}"]
    for name, value in _variant_values(op, sane, version):
        if not _accepts(op, roles, version, name, value, sane):
            continue
        vb = bind(op, Roles(roles.data, roles.indices, roles.updates, {**roles.attrs, name: value}), version=version)
        vc = _outcome(op, vb, cands)
        parts.append(f"{name}={value}: {vc.text}")
    if len(parts) == 1:
        return cell
    return Cell(cell.status, "; ".join(parts), cell.value)


def _reductions(op: DialectOp, probe: Probe, version: Any) -> Cell:
    params = parameters(op)
    roles = probe.roles
    red_p = next((n for n in REDUCTION_PARAMS if n in params), None)
    acc_p = next((n for n in ACCUMULATE_PARAMS if n in params), None)
    parts: list[str] = []
    trials: list[tuple[str, Any]] = []
    if red_p is not None:
        trials += [(red_p, name) for name in REDUCTION_NAMES]
    if acc_p is not None:
        trials += [(acc_p, True), (acc_p, False)]
    if not trials:
        try:
            b = bind(op, roles, version=version)
        except ProbeError as why:
            return Cell("n/a", f"n/a: {why}")
        res, failed = _run(b)
        if failed is not None:
            return Cell("error", "ERR " + _short(failed, op))
        return Cell("ok", f"no reduction parameter: always → {fmt_values(np.asarray(res).reshape(-1)[0])}")
    for name, value in trials:
        try:
            b = bind(op, Roles(roles.data, roles.indices, roles.updates, {**roles.attrs, name: value}), version=version)
        except ProbeError:
            continue
        res, failed = _run(b)
        if failed is None and res is not None:
            shown = value if isinstance(value, str) else f"{name}={value}"
            parts.append(f"{shown}→{fmt_values(np.asarray(res).reshape(-1)[0])}")
    if not parts:
        return Cell("n/a", "no reduction accepted")
    return Cell("ok", " ".join(parts))


def _dtypes(op: DialectOp, probe: Probe, version: Any) -> Cell:
    ok: list[str] = []
    bad: list[str] = []
    first = ""
    roles = probe.roles
    for dt in INDEX_DTYPES:
        idx = np.asarray(roles.indices).astype(dt)
        try:
            b = bind(op, Roles(roles.data, idx, roles.updates, roles.attrs), version=version)
        except ProbeError as why:
            return Cell("n/a", f"n/a: {why}")
        _, failed = _run(b)
        if failed is None:
            ok.append(_SHORT[dt])
        else:
            bad.append(_SHORT[dt])
            if not first:
                first = f" (e.g. {_SHORT[dt]}: {_short(failed, op, 80)})"
    text = "ok: " + (" ".join(ok) or "none")
    if bad:
        text += "; rejected: " + " ".join(bad) + first
    return Cell("ok" if ok else "error", text)


def _version_values(op: DialectOp) -> list[Any]:
    if op.info.version_kw is None or not op.info.versions:
        return [None]
    return [int(v) if v.isdigit() else v for v in op.info.versions]


def _transpose_nd(roles: Roles) -> Roles:
    idx = np.asarray(roles.indices)
    if idx.ndim < 2:
        return roles
    return Roles(roles.data, np.moveaxis(idx, -1, 0), roles.updates, roles.attrs)


def make_table(
    family: str,
    *,
    frameworks: Sequence[str] | None = None,
    op_names: Sequence[str] | None = None,
) -> Table:
    """Run every probe of ``family`` through every op (optionally of some frameworks only)."""
    probes = _probes(family)
    cands = [p.candidates() for p in probes]
    sane = probes[-1].roles  # the dtype probe is in range for every family
    columns: list[Column] = []
    rows: list[list[Cell]] = [[] for _ in probes]
    skipped: list[tuple[str, str]] = []
    for op in ops(family=family):
        info = op.info
        if frameworks and info.framework not in frameworks:
            continue
        if op_names and info.qualname not in op_names:
            continue
        per_version: list[tuple[str, list[Cell], list[str]]] = []
        for v in _version_values(op):
            cells: list[Cell] = []
            notes: list[str] = []
            first_axis = False
            for probe, cand in zip(probes, cands, strict=True):
                p = probe
                if first_axis and probe.nd:
                    p = Probe(
                        probe.case,
                        _transpose_nd(probe.roles),
                        probe.candidates,
                        probe.kind,
                        probe.variants,
                        probe.needs,
                    )
                c = _cell(op, p, v, cand, sane if not first_axis else _transpose_nd(sane))
                if probe.kind == "layout" and c.text.startswith("first axis"):
                    first_axis = True
                    notes.append("indices moved to its layout (tuples on the first axis) after the layout row")
                cells.append(c)
            with contextlib.suppress(ProbeError):
                notes.extend(bind(op, sane, version=v).notes)
            per_version.append(("" if v is None else str(v), cells, notes))
        if all(c.status == "n/a" for _, cells, _ in per_version for c in cells):
            reasons = sorted({c.text.removeprefix("n/a: ") for _, cells, _ in per_version for c in cells})
            skipped.append((info.qualname, "; ".join(reasons)))
            continue
        # merge consecutive versions that agree on every row
        groups: list[tuple[list[str], list[Cell], list[str]]] = []
        for v, cells, notes in per_version:
            if groups and [c.text for c in groups[-1][1]] == [c.text for c in cells]:
                groups[-1][0].append(v)
            else:
                groups.append(([v] if v else ([info.versions[0]] if info.versions else []), cells, notes))
        for versions, cells, notes in groups:
            columns.append(Column(info.qualname, versions, info.version_kw, notes))
            for n, c in enumerate(cells):
                rows[n].append(c)
    return Table(
        family,
        FAMILY_TITLES[family],
        columns,
        [Row(p.case, r) for p, r in zip(probes, rows, strict=True)],
        skipped,
    )


# ------------------------------------------------------------------ renderers


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def table_markdown(t: Table) -> str:
    """The table as GitHub markdown: one row per probe, one column per op (and versions)."""
    head = ["case", *[c.label for c in t.columns]]
    out = [f"### {t.title}", ""]
    out.append("| " + " | ".join(_md_escape(h) for h in head) + " |")
    out.append("|" + "---|" * len(head))
    for r in t.rows:
        out.append("| " + " | ".join(_md_escape(x) for x in [r.case, *[c.text for c in r.cells]]) + " |")
    notes = [f"{c.label}: {n}" for c in t.columns for n in c.notes]
    if notes or t.skipped:
        out.append("")
    for n in notes:
        out.append(f"- {_md_escape(n)}")
    for op, why in t.skipped:
        out.append(f"- skipped {op}: cannot take a neutral probe ({_md_escape(why)})")
    return "\n".join(out) + "\n"


def table_json(t: Table) -> dict[str, Any]:
    """The table as plain data (for ``--format json``)."""
    return {
        "family": t.family,
        "title": t.title,
        "columns": [
            {"op": c.op, "versions": c.versions, "version_kw": c.version_kw, "label": c.label, "notes": c.notes}
            for c in t.columns
        ],
        "rows": [
            {"case": r.case, "cells": [{"status": c.status, "text": c.text, "value": c.value} for c in r.cells]}
            for r in t.rows
        ],
        "skipped": [{"op": op, "reason": why} for op, why in t.skipped],
    }
