"""The one place where the web explorer calls the library: op facts, explain, compare, table, translate.

Every function here takes plain JSON values (what :mod:`.api` parsed from a request) and
returns plain JSON values (what the page draws); bad input raises :class:`RequestError`
carrying an HTTP status and the library's own typed error message. Nothing here knows
an op by name: what an op is comes from its record and the registry, read through the
library's own readers:

* arguments and their roles: ``op.record.arg_roles``; whether the indices are a sequence of
  index arrays: :func:`gatherscatter.explain.facts.facts` (``index_form``); types and
  defaults: the op's signature (``inspect.signature(op.lower)``);
* attributes' accepted values: ``op.record.attrs`` (``values``, the keys of name maps such as
  torch's ``reduce``); versions and what each adds: ``op.record.versions``; the values a
  translation starts from: ``op.record.variants[0]``;
* one call explained: :func:`gatherscatter.explain.adapter.bind_call` +
  :func:`gatherscatter.explain` (``gs.explain``), drawn by :func:`gatherscatter.explain.svg.svg_text`
  and :func:`gatherscatter.explain.text.explanation_lines` (as ``gatherscatter explain``);
* :func:`gatherscatter.explain.report.compare`, by family or over a list of ops of any
  families (as ``gatherscatter compare FAMILY`` / ``gatherscatter compare OP OP ...``);
* :func:`gatherscatter.explain.table.make_table` / ``table_json`` (as ``gatherscatter table``);
* :func:`gatherscatter.translate` (as ``gatherscatter translate``).

The accepted values of every attribute are the op record's (``dialect_op(values=...)``): a
finite list, or an open domain (an axis, a number, an array) for which the page offers a free
field; booleans are True/False.

>>> facts = op_facts("onnx.ScatterND")
>>> [(a["name"], a["role"]) for a in facts["args"]]
[('data', 'data'), ('indices', 'indices'), ('updates', 'updates')]
>>> [(a["name"], a["default"], a["choices"]) for a in facts["attrs"] if a["name"] == "reduction"]
[('reduction', 'none', ['none', 'add', 'mul', 'max', 'min'])]
>>> explain("onnx.Gather", {"data": [10, 20, 30], "indices": [2, 0]})["output"]["value"]
[30, 10]
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

__all__ = [
    "DTYPES",
    "MAX_COMPARE",
    "MAX_ELEMENTS",
    "MAX_RANK",
    "MAX_VERIFY",
    "RequestError",
    "compare",
    "explain",
    "op_facts",
    "op_list",
    "run",
    "seeds",
    "table",
    "targets",
    "translate",
]

MAX_ELEMENTS = 1_000_000
"""Most numbers one request may hold, over all its arrays (and most cells a result may have)."""
MAX_RANK = 16
"""Highest rank of an array in a request."""
MAX_VERIFY = 2000
"""Most generated cases one translate request may verify."""
MAX_COMPARE = 64
"""Most ops one cross-family compare request may name."""
MAX_VALUES = 20_000
"""Results with more cells are returned as shape and dtype only (the picture is not drawn either)."""
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64")
"""Array dtypes a request may ask for (JSON numbers are int64 or float64 otherwise)."""

Json = Any


class RequestError(Exception):
    """Bad input: ``status`` (4xx), ``kind`` (the library's error class or a request problem), ``message``."""

    def __init__(self, status: int, kind: str, message: str, extra: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.extra = dict(extra or {})

    def payload(self) -> dict[str, Any]:
        return {"error": {"type": self.kind, "message": self.message}, **self.extra}


def _library_error(exc: BaseException, status: int = 422) -> RequestError:
    return RequestError(status, type(exc).__name__, " ".join(str(exc).split()))


# ------------------------------------------------------------------ JSON values <-> arrays


def _count(value: Any, limit: int) -> tuple[int, int]:
    """Numbers in a nested JSON list and its depth, without recursion; stops past ``limit``."""
    n, depth = 0, 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, list):
            depth = max(depth, d + 1)
            if depth > MAX_RANK:
                return n, depth
            stack.extend((x, d + 1) for x in v)
        else:
            n += 1
            if n > limit:
                return n, depth
    return n, depth


class _Budget:
    """The element count of one request, checked as each array is read."""

    def __init__(self) -> None:
        self.used = 0

    def take(self, name: str, value: Any) -> None:
        n, depth = _count(value, MAX_ELEMENTS - self.used)
        if depth > MAX_RANK:
            raise RequestError(422, "ShapeError", f"{name} is nested deeper than {MAX_RANK} levels (the most ranks "
                                                  "the explorer takes)")
        self.used += n
        if self.used > MAX_ELEMENTS:
            raise RequestError(413, "TooLarge", f"the request holds more than {MAX_ELEMENTS:,} numbers (at {name}); "
                                                "the explorer is for small examples")


def to_array(name: str, value: Any, dtype: str | None = None, *, budget: _Budget | None = None,
             index: bool = False) -> np.ndarray[Any, Any]:
    """A JSON number or nested list as an array; :class:`RequestError` naming ``name`` otherwise."""
    if isinstance(value, (str, dict)) or value is None:
        raise RequestError(422, "ArgumentError", f"{name} must be a number or a (nested) list of numbers; "
                                                 f"got {type(value).__name__} {_short(value)}")
    (budget or _Budget()).take(name, value)
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        raise RequestError(422, "ShapeError", f"{name} is not a rectangular array (rows of different lengths): "
                                              f"{_short(value)}") from None
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise RequestError(422, "ArgumentError", f"{name} must hold numbers or booleans only: {_short(value)}")
    if index and arr.size == 0 and dtype is None:
        arr = arr.astype(np.int64)
    if dtype is not None:
        if dtype not in DTYPES:
            raise RequestError(422, "DTypeError", f"dtype of {name} must be one of {', '.join(DTYPES)}; got {dtype!r}")
        with np.errstate(all="ignore"):
            cast = arr.astype(dtype)
            back = cast.astype(arr.dtype) if arr.dtype.kind != "b" else cast.astype(bool)
        same = np.array_equal(back, arr, equal_nan=arr.dtype.kind == "f")
        if not same and not (dtype.startswith("float") and arr.dtype.kind in "iuf"):
            bad = np.argwhere(back != arr)
            pos = tuple(int(x) for x in bad[0]) if bad.size else ()
            raise RequestError(422, "DTypeError", f"{name}{list(pos)} = {arr[pos]!r} cannot be held exactly by "
                                                  f"{dtype}")
        arr = cast
    return arr


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def jsonable(x: Any) -> Json:
    """An array or scalar as JSON: nested lists; NaN and infinities as the strings ``"nan"``, ``"inf"``."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "fc":
            return _finite(x.tolist())
        return x.tolist() if x.dtype.kind in "biu" else [str(v) for v in x.ravel().tolist()]
    if isinstance(x, np.generic):
        return jsonable(np.asarray(x))
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if x is None or isinstance(x, (bool, int, str)):
        return x
    return str(x)


def _finite(v: Any) -> Any:
    if isinstance(v, list):
        return [_finite(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, complex):
        return str(v)
    return v


def _array_json(arr: np.ndarray[Any, Any] | None) -> Json:
    if arr is None:
        return None
    out: dict[str, Any] = {"shape": list(arr.shape), "dtype": str(arr.dtype)}
    if arr.size <= MAX_VALUES:
        out["value"] = jsonable(arr)
    else:
        out["value"] = None
        out["note"] = f"{arr.size:,} cells: values not sent (more than {MAX_VALUES:,})"
    return out


# ------------------------------------------------------------------ ops and their facts


def _get_op(name: Any) -> Any:
    from ..dialects._registry import get_op
    from ..errors import UnsupportedError

    if not isinstance(name, str) or not name:
        raise RequestError(422, "ArgumentError", f"op must be a name FRAMEWORK.OP (see /api/ops); got {_short(name)}")
    try:
        return get_op(name)
    except UnsupportedError as exc:
        raise RequestError(404, "UnsupportedError", f"unknown op {name!r}; /api/ops lists every op") from exc


def op_list() -> list[dict[str, Any]]:
    """Every registered op (``gatherscatter list``): name, framework, family, kind, versions, summary."""
    from ..dialects._registry import ops

    return [
        {
            "op": op.info.qualname,
            "framework": op.info.framework,
            "name": op.info.name,
            "family": op.info.family,
            "kind": op.info.kind,
            "versions": list(op.info.versions),
            "version_kw": op.info.version_kw,
            "summary": op.info.summary,
        }
        for op in ops()
    ]


TENSOR_ROLES = ("data", "indices", "updates", "shape")
"""Argument roles the page edits as arrays (the op record's other roles are attributes)."""


def _listed(op: Any, name: str) -> list[Any] | None:
    """The accepted values of one attribute as its op record lists them (``dialect_op(values=...)``: a tuple,
    or a name map whose keys are the values); None when the record declares an open domain or nothing."""
    vals = op.record.values.get(name)
    if vals is None or isinstance(vals, str):
        return None
    return list(vals)


def _kind(annotation: Any) -> tuple[str, bool]:
    """``(type, nullable)`` of a parameter annotation string: int, bool, str or json."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    parts = {p.strip() for p in text.split("|")}
    nullable = "None" in parts
    for kind in ("bool", "int", "str"):
        if kind in parts:
            return kind, nullable
    return "json", True


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


@functools.cache
def _base_attrs(qualname: str) -> tuple[tuple[str, Any], ...] | None:
    """The op's required attributes at its first probed variant (``op.record.variants``), when its record
    describes the op with them and the page can hold them (JSON values); None otherwise."""
    from ..errors import GatherScatterError

    rec = _get_op(qualname).record
    required = {a.name for a in rec.attrs if a.required}
    base = {k: v for k, v in (dict(rec.variants[0]) if rec.variants else {}).items() if k in required}
    if required - set(base) or not all(_plain(v) for v in base.values()):
        return None
    try:
        rec.describe(**base)
    except (GatherScatterError, TypeError, ValueError):  # no description yet (listed as pending)
        return None
    return tuple(base.items())


def _choices(op: Any, name: str, kind: str, default: Any, nullable: bool, required: bool = False) -> list[Any]:
    """Accepted values of one attribute: the op record's (:func:`_listed`), with None when the parameter
    may be None; booleans are True/False; an open domain (an axis, a number ...) has none."""
    listed = _listed(op, name)
    if listed:
        vals = listed
        if (nullable or (default is None and not required)) and None not in vals:
            vals.append(None)
    elif kind == "bool":
        vals = [True, False] + ([None] if nullable or default is None else [])
    else:
        return []
    if vals and default is not None and default not in vals:
        vals.insert(0, default)
    return vals


def _arg_roles(op: Any) -> tuple[dict[str, str], bool]:
    """The op's tensor parameters with their roles (``op.record.arg_roles``), and whether its indices are a
    sequence of index arrays (:func:`gatherscatter.explain.facts.facts`)."""
    from ..errors import GatherScatterError
    from ..explain.facts import facts

    try:
        f = facts(op)
    except GatherScatterError:
        f = None
    try:
        roles = {n: r for n, r in op.record.arg_roles.items() if r in TENSOR_ROLES}
    except GatherScatterError:  # no description yet: explain's facts name the tensors
        named = () if f is None else (("data", f.data), ("indices", f.indices), ("updates", f.updates),
                                      ("shape", f.shape))
        roles = {n: r for r, n in named if n is not None}
    return roles, f is not None and f.index_form == "sequence"


@functools.cache
def _facts(qualname: str) -> dict[str, Any]:
    op = _get_op(qualname)
    info, rec = op.info, op.record
    params = inspect.signature(op.lower).parameters
    roles, sequence = _arg_roles(op)
    described = inspect.signature(rec.describe).parameters
    args: list[dict[str, Any]] = []
    attrs: list[dict[str, Any]] = []
    for name, p in params.items():
        if name in (info.version_kw, "out"):
            continue
        required = p.default is inspect.Parameter.empty
        default = None if required else p.default
        if name in roles:
            role = roles[name]
            args.append({"name": name, "role": role, "required": required,
                         "form": "tuple" if role == "indices" and sequence else "array"})
            continue
        kind, nullable = _kind(p.annotation)
        if kind == "json" and name in described:  # the record is more precise (openvino's axis: int)
            kind, nullable = _kind(described[name].annotation)
        listed = _listed(op, name) or []
        if kind == "json" and listed and all(isinstance(v, str) for v in listed):  # jax's mode: Any = None
            kind, nullable = "str", True
        attrs.append({"name": name, "type": kind, "required": required, "default": jsonable(default),
                      "nullable": nullable, "choices": jsonable(_choices(op, name, kind, default, nullable, required)),
                      "keyword_only": p.kind is p.KEYWORD_ONLY})
    versions: list[Any] = [int(v) if v.isdigit() else v for v in info.versions]
    return {
        "op": qualname,
        "framework": info.framework,
        "name": info.name,
        "family": info.family,
        "kind": info.kind,
        "summary": info.summary,
        "versions": versions if info.version_kw else list(info.versions),
        "version_kw": info.version_kw,
        "version_notes": {v.name: v.adds for v in rec.versions if v.adds},
        "args": args,
        "attrs": attrs,
        "translatable": _base_attrs(qualname) is not None,
        "doc": inspect.getdoc(op.lower) or "",
    }


def op_facts(name: Any) -> dict[str, Any]:
    """One op's arguments (with roles), attributes (type, default, accepted values) and versions."""
    return _facts(_get_op(name).info.qualname)


# ------------------------------------------------------------------ one call


def _call_kwargs(op: Any, args: Any, dtypes: Any, version: Any) -> dict[str, Any]:
    """The op's keyword arguments from the request's ``args`` (by the op's own parameter names)."""
    facts = _facts(op.info.qualname)
    q = op.info.qualname
    if not isinstance(args, dict):
        raise RequestError(422, "ArgumentError", f"args must be an object of {q}'s arguments by name; "
                                                 f"got {_short(args)}")
    if dtypes is None:
        dtypes = {}
    if not isinstance(dtypes, dict) or not all(isinstance(v, str) for v in dtypes.values()):
        raise RequestError(422, "ArgumentError", "dtypes must be an object such as {\"indices\": \"int32\"}")
    names = [a["name"] for a in facts["args"]] + [a["name"] for a in facts["attrs"]]
    unknown = [k for k in list(args) + list(dtypes) if k not in names]
    if unknown:
        raise RequestError(422, "ArgumentError", f"{q} has no argument {unknown[0]!r}; its arguments are: "
                                                 f"{', '.join(names)}")
    budget = _Budget()
    kwargs: dict[str, Any] = {}
    for a in facts["args"]:
        name = a["name"]
        value = args.get(name)
        if value is None:
            if a["required"]:
                raise RequestError(422, "ArgumentError", f"{q}: {name} is required")
            continue
        if a["role"] == "shape":
            shape = to_array(name, value, budget=budget)
            if shape.ndim != 1 or shape.dtype.kind not in "iu":
                raise RequestError(422, "ShapeError", f"{q}: {name} must be a list of integers; got {_short(value)}")
            if int(np.prod(np.maximum(shape, 0), dtype=np.float64)) > MAX_ELEMENTS:
                raise RequestError(413, "TooLarge", f"{q}: {name} = {shape.tolist()} has more than "
                                                    f"{MAX_ELEMENTS:,} cells")
            kwargs[name] = [int(s) for s in shape]
        elif a["form"] == "tuple":
            if not isinstance(value, list):
                raise RequestError(422, "ArgumentError",
                                   f"{q}: {name} is a list of index arrays, e.g. [[0, 1], [1, 0]]")
            kwargs[name] = tuple(to_array(f"{name}[{j}]", v, dtypes.get(name), budget=budget, index=True)
                                 for j, v in enumerate(value))
        else:
            kwargs[name] = to_array(name, value, dtypes.get(name), budget=budget, index=a["role"] == "indices")
    for a in facts["attrs"]:
        name = a["name"]
        if name not in args:
            continue
        kwargs[name] = _attr_value(q, a, args[name])
    if version is not None:
        vkw = facts["version_kw"]
        if vkw is None:
            raise RequestError(422, "UnsupportedError", f"{q} has one version only: no version to select")
        if version not in facts["versions"] and not (vkw == "opset" and isinstance(version, int)):
            raise RequestError(422, "UnsupportedError", f"{q} has versions {facts['versions']}; got {version!r}")
        kwargs[vkw] = version
    return kwargs


def _attr_value(q: str, a: dict[str, Any], value: Any) -> Any:
    name, kind = a["name"], a["type"]
    if value is None:
        if a["nullable"] or a["default"] is None:
            return None
        raise RequestError(422, "ArgumentError", f"{q}: {name} cannot be null")
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise RequestError(422, "ArgumentError", f"{q}: {name} must be an integer; got {_short(value)}")
    if kind == "bool" and not isinstance(value, bool):
        raise RequestError(422, "ArgumentError", f"{q}: {name} must be true or false; got {_short(value)}")
    if kind == "str" and not isinstance(value, str):
        raise RequestError(422, "ArgumentError", f"{q}: {name} must be a string; got {_short(value)}")
    if kind == "json" and isinstance(value, (list, dict)):
        n, depth = _count(value, 10_000)
        if n > 10_000 or depth > MAX_RANK:
            raise RequestError(413, "TooLarge", f"{q}: {name} is too large")
        return _tuples(value)  # JSON has no tuples: lists stand for them (jax.lax dimension numbers)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**62:
        raise RequestError(422, "ArgumentError", f"{q}: {name} = {value} is too large")
    return value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _binding(op: Any, kwargs: dict[str, Any]) -> Any:
    """The explain adapter's binding of the call; None when the adapter cannot map the op's arguments."""
    from ..explain.adapter import ProbeError, bind_call

    try:
        return bind_call(op, (), kwargs)
    except TypeError as exc:
        raise RequestError(422, "ArgumentError", f"{op.info.qualname}: {exc}") from None
    except ProbeError:
        return None


def _output_size(op: Any, kwargs: dict[str, Any]) -> int | None:
    """Cells of the op's output, from its lowering (None when the op refuses the call)."""
    from ..core.shape import gather_shape
    from ..errors import GatherScatterError

    try:
        low = op.lower(**kwargs)
    except (GatherScatterError, ValueError, TypeError, IndexError, MemoryError):
        return None
    if low.result is not None:
        return int(low.result.size)
    if low.primitive == "gather":
        shape = gather_shape(tuple(low.data.shape), tuple(low.indices.shape), low.spec)
        return int(np.prod(shape, dtype=np.float64))
    return int(low.data.size)


def explain(op: Any, args: Any, dtypes: Any = None, version: Any = None, width: int = 100) -> dict[str, Any]:
    """One call explained: the picture (SVG), the text, the output, the policy, the bad indices.

    When the op itself refuses the call, :class:`RequestError` (422) carries its error
    and the explanation of the inputs (``"explanation"``) so that the page still draws them.
    """
    from ..explain.api import explain as _explain
    from ..explain.lines import plain
    from ..explain.svg import svg_text
    from ..explain.text import explanation_lines, too_large

    dop = _get_op(op)
    kwargs = _call_kwargs(dop, args, dtypes, version)
    _check_output_size(dop, kwargs)
    binding = _binding(dop, kwargs)
    if binding is None:
        return _result_only(dop, kwargs, "the explanation model cannot map its arguments")
    try:
        exp = _explain(binding)
    except MemoryError:
        raise RequestError(413, "TooLarge", f"{dop.info.qualname}: this call needs more memory than the explorer "
                                            "allows") from None
    except Exception as exc:  # the explanation model cannot follow this op: its result without a picture
        return _result_only(dop, kwargs, f"{type(exc).__name__} in the explanation model")
    reason = too_large(exp)
    body: dict[str, Any] = {
        "op": exp.op,
        "label": exp.label,
        "kind": exp.kind,
        "family": exp.family,
        "attrs": jsonable(exp.attrs),
        "policy": exp.policy,
        "output": _array_json(exp.output),
        "inputs": {n: _array_json(a) for n, a in (("data", exp.data), ("indices", exp.indices),
                                                   ("updates", exp.updates)) if a is not None},
        "shape_formula": exp.shape_formula,
        "bad": [{"position": list(b.position), "value": b.value, "size": b.size, "axis": b.axis,
                 "outcome": b.outcome, "negative_only": b.negative_only} for b in exp.bad],
        "collisions": [{"output": list(o), "updates": [list(u) for u in ups]}
                       for o, ups in sorted(exp.collisions().items())],
        "notes": exp.notes,
        "names": dict(exp.names),
        "steps": [{"call": c, "why": w} for c, w in exp.steps],
        "post_steps": [{"call": c, "why": w} for c, w in exp.post_steps],
        "index_axis": exp.index_axis,
        "loop": exp.loop,
        "text": plain(explanation_lines(exp, width, loop=False)),
        "svg": svg_text(exp) if reason is None else None,
        "picture_note": reason,
        "error": None,
    }
    if exp.error is not None:
        kind, _, message = exp.error.partition(": ")
        raise RequestError(422, kind or "GatherScatterError", message or exp.error, {"explanation": body})
    return body


def _check_output_size(op: Any, kwargs: dict[str, Any]) -> None:
    size = _output_size(op, kwargs)
    if size is not None and size > MAX_ELEMENTS:
        raise RequestError(413, "TooLarge", f"{op.info.qualname}: the output would have {size:,} cells (more than "
                                            f"{MAX_ELEMENTS:,})")


def _result_only(op: Any, kwargs: dict[str, Any], why: str) -> dict[str, Any]:
    """The op's result when the explanation model cannot draw the call (no picture; the reason in the notes)."""
    from ..errors import GatherScatterError
    from ..explain.lines import fmt_values

    info = op.info
    try:
        out = op(**kwargs)
    except GatherScatterError as exc:
        raise _library_error(exc) from None
    arrays = {a["name"] for a in _facts(info.qualname)["args"]}
    attrs = {k: v for k, v in kwargs.items() if k not in arrays}
    note = f"the picture of {info.qualname} cannot be drawn yet ({why}); its result is shown"
    return {
        "op": info.qualname, "label": info.qualname, "kind": info.kind, "family": info.family,
        "attrs": jsonable(attrs), "policy": "", "output": _array_json(out), "inputs": {},
        "shape_formula": [], "bad": [], "collisions": [], "notes": [note], "names": {}, "steps": [],
        "post_steps": [], "index_axis": None, "loop": "",
        "text": f"{info.qualname}\n\n-> {fmt_values(out)}\n\nnote: {note}\n", "svg": None,
        "picture_note": note, "error": None,
    }


# ------------------------------------------------------------------ compare, table, translate


def _roles_of(op: Any, kwargs: dict[str, Any]) -> Any:
    """The neutral :class:`~gatherscatter.explain.adapter.Roles` of one call (what ``compare`` runs), read
    from the explain adapter's binding of the call (the op's facts: which argument plays which role)."""
    from ..explain.adapter import AXIS_NAMES, Roles

    q = op.info.qualname
    b = _binding(op, kwargs)
    if b is None:
        raise RequestError(422, "UnsupportedError", f"{q}: its arguments cannot be read by role, so it cannot "
                                                    "be compared")
    try:
        indices = b.indices_array if b.indices_param in kwargs else None
    except ValueError:
        shapes = ", ".join(str(list(np.shape(v))) for v in kwargs[b.indices_param])
        why = f"the index arrays of {b.indices_param} could not be broadcast together (shapes {shapes})"
        raise RequestError(422, "ShapeError", f"{q}: {why}") from None
    data = kwargs.get(b.data_param) if b.data_param else None
    if data is None and b.shape_param is not None:
        data = np.zeros(kwargs[b.shape_param])
    updates = kwargs.get(b.updates_param) if b.updates_param else None
    attrs: dict[str, Any] = {}
    for name, value in b.attrs.items():
        if name in AXIS_NAMES and value is not None:
            attrs["axis"] = value
        elif name == "batch_dims" and value:
            attrs[name] = value
        elif name == "value" and updates is None and value is not None:
            updates = np.asarray([value])
    return Roles(data, indices, updates, attrs)


def _diff(ref: np.ndarray[Any, Any], value: np.ndarray[Any, Any]) -> list[list[int]] | None:
    if ref.shape != value.shape:
        return None
    with np.errstate(invalid="ignore"):
        same = ref == value
        if ref.dtype.kind == "f" and value.dtype.kind == "f":
            same |= np.isnan(ref) & np.isnan(value)
    return [[int(x) for x in p] for p in np.argwhere(~np.asarray(same))[:200]]


def _op_list(first: Any, names: Any) -> list[Any]:
    """``first`` and the ops named in ``names`` (each once, in order), for a cross-family comparison."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RequestError(422, "ArgumentError", f"ops must be a list of op names FRAMEWORK.OP; got {_short(names)}")
    if len(names) > MAX_COMPARE:
        raise RequestError(413, "TooLarge", f"ops lists {len(names)} ops; the explorer compares at most "
                                            f"{MAX_COMPARE} at once")
    out = [first]
    for name in names:
        op = _get_op(name)
        if all(op.info.qualname != o.info.qualname for o in out):
            out.append(op)
    return out


def compare(op: Any, args: Any, dtypes: Any = None, version: Any = None, ops: Any = None) -> dict[str, Any]:
    """The same inputs through every op of ``op``'s family, grouped by result (``gatherscatter compare``).

    With ``ops`` (a list of op names, of any families), through ``op`` and those ops instead
    (``gatherscatter compare torch.gather onnx.Gather ...``). The inputs are read by role (data,
    indices, updates) and the shared attributes (axis, batch_dims) are passed on; each other op
    runs with its own defaults (an attribute an op does not have is left out, and said so).
    """
    from ..explain.lines import tag
    from ..explain.report import compare as _compare

    dop = _get_op(op)
    op_list = None if ops is None else _op_list(dop, ops)
    kwargs = _call_kwargs(dop, args, dtypes, version)
    _check_output_size(dop, kwargs)  # the family's ops give outputs of about this size
    roles = _roles_of(dop, kwargs)
    if roles.indices is None:
        raise RequestError(422, "ArgumentError", f"{dop.info.qualname}: indices are required to compare")
    try:
        if op_list is None:
            cmp = _compare(dop.info.family, roles)
        else:
            cmp = _compare(", ".join(o.info.qualname for o in op_list), roles, op_list=op_list)
    except MemoryError:
        raise RequestError(413, "TooLarge", "these inputs need more memory than the explorer allows") from None
    ref = cmp.groups[0][0] if cmp.groups else None
    groups = []
    for n, (value, members) in enumerate(cmp.groups):
        groups.append({
            "tag": tag(n),
            "value": _array_json(value),
            "differs_from_A": None if ref is None or n == 0 else _diff(ref, value),
            "ops": [{"op": m.op, "label": m.label, "notes": list(m.notes)} for m in members],
        })
    return {
        "family": cmp.family,
        "op": dop.info.qualname,
        "ops": None if op_list is None else [o.info.qualname for o in op_list],
        "roles": {"data": _array_json(None if roles.data is None else np.asarray(roles.data)),
                  "indices": _array_json(np.asarray(roles.indices)),
                  "updates": _array_json(None if roles.updates is None else np.asarray(roles.updates)),
                  "attrs": jsonable(dict(roles.attrs))},
        "groups": groups,
        "errors": [{"op": r.op, "label": r.label, "error": r.error} for r in cmp.results if r.error],
        "not_applicable": [{"op": r.op, "reason": r.na} for r in cmp.results if r.na],
        "agree": cmp.agree,
        "ran": sum(1 for r in cmp.results if not r.na),
    }


@functools.lru_cache(maxsize=16)
def _table(family: str) -> dict[str, Any]:
    from ..explain.table import make_table, table_json

    return jsonable(table_json(make_table(family)))  # type: ignore[no-any-return]


def table(family: Any) -> dict[str, Any]:
    """The live comparison table of one family (``gatherscatter table --family F --format json``)."""
    from ..explain.table import FAMILY_TITLES

    if family not in FAMILY_TITLES:
        raise RequestError(422, "UnsupportedError", f"family must be one of {', '.join(FAMILY_TITLES)}; "
                                                    f"got {_short(family)}")
    return _table(family)


def targets() -> list[str]:
    """The frameworks ``translate`` can write for."""
    from ..translate import frameworks

    return frameworks()


def translate(op: Any, to: Any, attrs: Any = None, version: Any = None, verify: Any = None) -> dict[str, Any]:
    """The translation of one call into ``to``: plan, code, divergences; with ``verify=N``, N generated cases.

    ``attrs`` are the op's attributes as the page holds them; those the translation does not take
    (``duplicates``, the op's version keyword ...) are dropped and listed in ``"ignored"``.
    """
    from .. import translate as _translate
    from ..errors import GatherScatterError

    dop = _get_op(op)
    q = dop.info.qualname
    if _base_attrs(q) is None and not attrs:
        raise RequestError(422, "UnsupportedError", f"translate: no description of {q} the explorer can use "
                                                    "(its attributes cannot be given here)")
    if to not in targets():
        raise RequestError(422, "UnsupportedError", f"to must be one of {', '.join(targets())}; got {_short(to)}")
    if attrs is None:
        attrs = {}
    if not isinstance(attrs, dict):
        raise RequestError(422, "ArgumentError", f"attrs must be an object; got {_short(attrs)}")
    if verify is not None and (isinstance(verify, bool) or not isinstance(verify, int) or not 1 <= verify
                               <= MAX_VERIFY):
        raise RequestError(422, "ArgumentError", f"verify must be a number of cases from 1 to {MAX_VERIFY}; "
                                                 f"got {_short(verify)}")
    facts = _facts(q)
    known = {a["name"]: a for a in facts["attrs"]}
    dparams = {a.name for a in dop.record.attrs}
    used: dict[str, Any] = {}
    ignored = []
    for k, v in attrs.items():
        if k in dparams:
            used[k] = _attr_value(q, known[k], v) if k in known else v
        else:
            ignored.append(k)
    for k, v in (_base_attrs(q) or ()):
        used.setdefault(k, v)
    op_version = used.pop("version", None)  # the source op's own version: translate() calls it op_version
    try:
        t = _translate(dop, to=to, version=version, op_version=op_version, **used)
    except GatherScatterError as exc:
        raise _library_error(exc) from None
    body: dict[str, Any] = {
        "source": t.source.op,
        "attrs": jsonable(t.source.attrs),
        "ignored": ignored,
        "target": t.target,
        "version": jsonable(t.version),
        "meaning": t.source.canonical.describe(),
        "steps": [{"out": s.out, "kind": s.kind, "name": s.name, "args": jsonable(s.arg_map),
                   "attrs": jsonable(s.attr_map), "why": s.why, "text": s.describe()} for s in t.steps],
        "ops": t.ops,
        "exact": t.exact,
        "divergences": t.divergences,
        "residuals": [{"when": r.when, "source": r.source, "target": r.target, "note": r.note} for r in t.residuals],
        "plan": t.plan_text(),
        "code": None,
        "code_error": None,
        "verify": None,
    }
    try:
        body["code"] = t.code
    except ImportError as exc:
        body["code_error"] = f"code not generated: {to} code needs the {exc.name or 'onnx'} package"
    except GatherScatterError as exc:
        body["code_error"] = f"code not generated: {' '.join(str(exc).split())}"
    if verify is not None:
        report = t.verify(n=verify)
        body["verify"] = {
            "total": report.total,
            "agree": report.agree,
            "both_raise": report.both_raise,
            "source_rejects": report.source_rejects,
            "explained": dict(report.explained),
            "failures": [str(m) for m in report.failures][:20],
            "ok": report.ok,
            "text": str(report),
        }
    return body


# ------------------------------------------------------------------ seeds


def seeds() -> list[dict[str, Any]]:
    """The tour's seed examples as op + arguments by name (what the page's tour menu loads)."""
    from ..explain.seeds import SEED_EXAMPLES
    from ..explain.tour import resolve

    out = []
    for ex in SEED_EXAMPLES:
        op, kwargs, swapped = resolve(ex)
        bound = inspect.signature(op.lower).bind(*ex.args, **kwargs)
        args = dict(bound.arguments)
        version = args.pop(op.info.version_kw, None) if op.info.version_kw else None
        out.append({"title": ex.title, "source": ex.source, "note": ex.note, "op": op.info.qualname,
                    "args": jsonable(args), "version": version, "replaced": swapped,
                    "expected": jsonable(ex.expected)})
    return out


# ------------------------------------------------------------------ dispatch (what a worker runs)

_JOBS: dict[str, Callable[..., Any]] = {
    "ops": op_list,
    "op": op_facts,
    "seeds": seeds,
    "explain": explain,
    "compare": compare,
    "table": table,
    "targets": targets,
    "translate": translate,
}


def run(job: str, kwargs: dict[str, Any]) -> tuple[int, Any]:
    """Run one job by name: ``(200, body)``, or ``(status, error body)``; never raises."""
    from ..errors import GatherScatterError

    try:
        return 200, _JOBS[job](**kwargs)
    except RequestError as exc:
        return exc.status, exc.payload()
    except GatherScatterError as exc:
        return 422, _library_error(exc).payload()
    except (MemoryError, OverflowError) as exc:
        return 413, RequestError(413, "TooLarge", f"this request needs more than the explorer allows "
                                                  f"({type(exc).__name__})").payload()
    except RecursionError:
        return 400, RequestError(400, "BadRequest", "the request is nested too deeply").payload()
    except Exception as exc:  # a library defect: reported as such, never a traceback
        return 422, RequestError(422, "UnexpectedError", f"{type(exc).__name__}: {' '.join(str(exc).split())} "
                                                         "(please report this input)").payload()
