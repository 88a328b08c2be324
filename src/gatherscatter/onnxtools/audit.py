"""A portability audit of an ONNX model's gather/scatter nodes.

:func:`audit` lists every gather/scatter node of a model (name, op, opset and op
version, attributes, input shapes and dtypes where shape inference knows them) and
what could make its result differ between runtimes:

* **statically**, from the node alone: attributes or dtypes a runtime treats
  differently (max/min at opset 16, unknown reduction strings, bool reductions,
  index dtypes outside the type constraint, ``batch_dims`` before opset 12, int64 /
  float64 data), and what *could* happen with some inputs (duplicates without a
  reduction, NaN under max/min, out-of-range indices);
* with **sample inputs** (``inputs=``), from the concrete values that reach each
  node: the model is run by onnxruntime with the nodes' inputs exposed as extra
  graph outputs (or, when onnxruntime fails, by ``onnx.reference`` with
  gatherscatter's ops, up to the failing node), and every index is checked: out of
  range, negative, duplicate targets whose updates differ (an order-dependent
  result), NaN under max/min. Constant indices (initializers, ``Constant`` nodes)
  are checked the same way without inputs.

Each finding names the node, the condition, the positions and what each runtime
does (from :data:`~gatherscatter.onnxtools.behaviour.BEHAVIOUR`, measured) next to
what the ONNX spec says. A finding *changes a result* (level ``error``) when its
condition certainly holds and a selected runtime's result differs from the spec's,
the result depends on an order ONNX leaves unspecified, or the spec makes the inputs
an error (an out-of-range index); :attr:`AuditReport.exit_status` is then 1.

>>> from onnx import TensorProto, helper
>>> node = helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], reduction="max", name="s")
>>> graph = helper.make_graph([node], "g",
...     [helper.make_tensor_value_info(n, t, [4]) for n, t in
...      [("x", TensorProto.FLOAT), ("i", TensorProto.INT64), ("u", TensorProto.FLOAT)]],
...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
>>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
>>> report = audit(model, runtimes=["onnxruntime"])
>>> [(f.condition, f.level) for f in report.nodes[0].findings][:1]
[('minmax_opset16', 'error')]
>>> report.exit_status
1
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp
from ..errors import GatherScatterError
from .behaviour import CONDITIONS, RUNTIME_LABELS, behaviour
from .reference_ops import ONNX_DOMAINS, index_input, op_for

__all__ = ["DEFAULT_RUNTIMES", "AuditError", "AuditReport", "Finding", "NodeReport", "audit", "check_feeds",
           "load_inputs", "load_model"]

Array = np.ndarray[Any, Any]
DEFAULT_RUNTIMES = ("onnxruntime", "openvino", "reference")
_LEVELS = ("error", "warning", "info")
_MAX_POSITIONS = 5


class AuditError(GatherScatterError, ValueError):
    """An unreadable model or sample-input file, or inputs that do not fit the model."""


@dataclass
class Finding:
    """One reason a node's result could differ between runtimes.

    ``level``: ``error`` (changes a result: the condition holds and a runtime differs,
    or the result is order-dependent), ``warning`` (could change a result for some
    inputs), ``info``. ``origin``: ``static`` (the node's attributes/types),
    ``constant`` (constant indices) or ``inputs`` (the sample inputs).
    """

    node: str
    condition: str
    level: str
    message: str
    origin: str
    positions: list[str] = field(default_factory=list)
    count: int = 0
    runtimes: dict[str, str] = field(default_factory=dict)

    @property
    def changes_result(self) -> bool:
        return self.level == "error"

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "changes_result": self.changes_result}


@dataclass
class NodeReport:
    """One gather/scatter node: what it is and what was found."""

    name: str
    op: str
    domain: str
    opset: int
    op_version: int
    attrs: dict[str, Any]
    inputs: list[dict[str, Any]]
    graph: str = "main"
    findings: list[Finding] = field(default_factory=list)
    reached: bool | None = None  # with sample inputs: whether the run reached the node

    @property
    def label(self) -> str:
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())
        return f"{self.name} {self.op} (opset {self.opset}, {self.op}-{self.op_version}){' ' + attrs if attrs else ''}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "op": self.op,
            "domain": self.domain,
            "opset": self.opset,
            "op_version": self.op_version,
            "attrs": self.attrs,
            "inputs": self.inputs,
            "graph": self.graph,
            "reached": self.reached,
            "findings": [f.as_dict() for f in self.findings],
        }


@dataclass
class AuditReport:
    """The audit of one model."""

    model: str
    opset: int
    runtimes: list[str]
    inputs: str | None
    nodes: list[NodeReport]
    run_error: str | None = None
    run_by: str | None = None

    @property
    def findings(self) -> list[Finding]:
        return [f for n in self.nodes for f in n.findings]

    @property
    def exit_status(self) -> int:
        """1 when a finding changes a result, else 0."""
        return 1 if any(f.changes_result for f in self.findings) else 0

    def counts(self) -> dict[str, int]:
        return {lvl: sum(f.level == lvl for f in self.findings) for lvl in _LEVELS}

    def as_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "opset": self.opset,
            "runtimes": {r: RUNTIME_LABELS.get(r, r) for r in self.runtimes},
            "inputs": self.inputs,
            "run_by": self.run_by,
            "run_error": self.run_error,
            "counts": self.counts(),
            "exit_status": self.exit_status,
            "nodes": [n.as_dict() for n in self.nodes],
        }

    def _summary(self) -> str:
        c = self.counts()
        return (
            f"{len(self.nodes)} gather/scatter node(s): {c['error']} finding(s) that change a result, "
            f"{c['warning']} warning(s), {c['info']} note(s)"
        )

    def text(self) -> str:
        """Plain text, one block per node."""
        lines = [f"{self.model}: ai.onnx opset {self.opset}; runtimes: {', '.join(self.runtimes)}"]
        if self.inputs:
            lines.append(f"sample inputs: {self.inputs} (run by {self.run_by})")
        if self.run_error:
            lines.append(f"the run stopped: {self.run_error}")
        for n in self.nodes:
            lines.append("")
            lines.append(f"node {n.label}")
            if n.graph != "main":
                lines.append(f"  in subgraph {n.graph}")
            lines.append("  inputs: " + ", ".join(_fmt_input(i) for i in n.inputs))
            if n.reached is False:
                lines.append("  not reached by the sample run")
            for f in n.findings:
                lines.append(f"  {f.level.upper():7} {f.condition} [{f.origin}]: {f.message}")
                if f.positions:
                    more = f" (and {f.count - len(f.positions)} more)" if f.count > len(f.positions) else ""
                    lines.append(f"          at {'; '.join(f.positions)}{more}")
                for rt, does in f.runtimes.items():
                    lines.append(f"          {rt}: {does}")
        lines.append("")
        lines.append(self._summary())
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        """A Markdown page: a table of nodes, then the findings."""
        out = [f"# Audit of `{self.model}`", "", f"ai.onnx opset {self.opset}; runtimes: "
               + ", ".join(f"{r} ({RUNTIME_LABELS.get(r, r)})" for r in self.runtimes)]
        if self.inputs:
            out += ["", f"Sample inputs: `{self.inputs}` (run by {self.run_by})."]
        if self.run_error:
            out += ["", f"The run stopped: {self.run_error}"]
        out += ["", "| node | op | version | attributes | inputs | findings |", "|---|---|---|---|---|---|"]
        for n in self.nodes:
            c = {lvl: sum(f.level == lvl for f in n.findings) for lvl in _LEVELS}
            attrs = ", ".join(f"{k}={v!r}" for k, v in n.attrs.items())
            out.append(
                f"| `{n.name}` | {n.op} | {n.op}-{n.op_version} (opset {n.opset}) | {attrs} | "
                f"{', '.join(_fmt_input(i) for i in n.inputs)} | {c['error']} error, {c['warning']} warning, "
                f"{c['info']} info |"
            )
        for n in self.nodes:
            if not n.findings:
                continue
            out += ["", f"## `{n.name}` ({n.op})", ""]
            for f in n.findings:
                out.append(f"- **{f.level}** `{f.condition}` ({f.origin}): {f.message}")
                if f.positions:
                    out.append(f"  at {'; '.join(f.positions)}" + (f" (of {f.count})" if f.count else ""))
                for rt, does in f.runtimes.items():
                    out.append(f"  - {rt}: {does}")
        out += ["", self._summary(), ""]
        return "\n".join(out)


def _fmt_input(i: dict[str, Any]) -> str:
    shape = i.get("shape")
    dims = "?" if shape is None else "[" + ", ".join(str(d) for d in shape) + "]"
    return f"{i['role']} {i.get('dtype') or '?'}{dims}" + (" (constant)" if i.get("constant") else "")


# ---------------------------------------------------------------------------------------------- loading


def load_model(model: Any) -> Any:
    """An ``onnx.ModelProto`` from a path or a ModelProto; :class:`AuditError` when unreadable."""
    import onnx

    if isinstance(model, onnx.ModelProto):
        return model
    path = Path(os.fspath(model))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise AuditError(f"cannot read model {path}: {exc.strerror or exc}") from None
    try:
        proto = onnx.load_model_from_string(data)
    except Exception as exc:  # protobuf's DecodeError and friends
        raise AuditError(f"{path} is not an ONNX model ({type(exc).__name__}: {exc})") from None
    if not proto.graph.node and not proto.graph.input:
        raise AuditError(f"{path} is not an ONNX model (no graph)")
    if any(t.HasField("data_location") and t.data_location == onnx.TensorProto.EXTERNAL
           for t in proto.graph.initializer):
        try:
            onnx.load_external_data_for_model(proto, str(path.parent))
        except Exception as exc:
            raise AuditError(f"{path}: cannot load its external data ({exc})") from None
    return proto


def load_inputs(path: str | os.PathLike[str], model: Any) -> dict[str, Array]:
    """Sample inputs from an ``.npz`` file, checked against the model's inputs."""
    p = Path(os.fspath(path))
    try:
        with np.load(p, allow_pickle=False) as z:
            feeds = {k: np.asarray(z[k]) for k in z.files}
    except OSError as exc:
        raise AuditError(f"cannot read inputs {p}: {exc.strerror or exc}") from None
    except (ValueError, EOFError) as exc:
        raise AuditError(f"{p} is not a NumPy .npz file of arrays ({exc})") from None
    return check_feeds(feeds, model, str(p))


def check_feeds(feeds: dict[str, Array], model: Any, label: str = "inputs") -> dict[str, Array]:
    """``feeds`` checked against the model's inputs: names and dtypes (:class:`AuditError` otherwise)."""
    p = label
    init = {t.name for t in model.graph.initializer}
    needed = [i.name for i in model.graph.input if i.name not in init]
    missing = [n for n in needed if n not in feeds]
    if missing:
        raise AuditError(
            f"{p}: no array for model input(s) {', '.join(missing)}; the file has: {', '.join(feeds) or 'nothing'}"
        )
    extra = [k for k in feeds if k not in needed and k not in init]
    if extra:
        raise AuditError(f"{p}: {', '.join(extra)} are not inputs of the model (inputs: {', '.join(needed)})")
    from onnx import helper

    for i in model.graph.input:
        if i.name not in feeds or not i.type.HasField("tensor_type"):
            continue
        want = helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type)
        got = feeds[i.name].dtype
        if got != want:
            raise AuditError(f"{p}: input {i.name} has dtype {got}; the model declares {np.dtype(want).name}")
    return feeds


# ---------------------------------------------------------------------------------------------- graph walk


def _walk(graph: Any, path: str = "main") -> Iterator[tuple[Any, str]]:
    from onnx import AttributeProto

    for node in graph.node:
        yield node, path
        for a in node.attribute:
            if a.type == AttributeProto.GRAPH:
                yield from _walk(a.g, f"{path}/{node.name or node.op_type}.{a.name}")
            elif a.type == AttributeProto.GRAPHS:
                for k, g in enumerate(a.graphs):
                    yield from _walk(g, f"{path}/{node.name or node.op_type}.{a.name}[{k}]")


def _constants(model: Any) -> dict[str, Array]:
    from onnx import numpy_helper

    out: dict[str, Array] = {}
    for t in model.graph.initializer:
        try:
            out[t.name] = numpy_helper.to_array(t)
        except Exception:  # external data not loaded or exotic types: not a constant we can use
            continue
    for node in model.graph.node:
        if node.op_type == "Constant" and node.domain in ONNX_DOMAINS:
            for a in node.attribute:
                if a.name == "value":
                    out[node.output[0]] = numpy_helper.to_array(a.t)
    return out


def _types(model: Any) -> dict[str, tuple[str | None, list[Any] | None]]:
    import onnx
    from onnx import helper

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # shape inference fails on some valid models: fall back to the declared types
        inferred = model
    g = inferred.graph
    out: dict[str, tuple[str | None, list[Any] | None]] = {}
    for vi in [*g.input, *g.value_info, *g.output]:
        if not vi.type.HasField("tensor_type"):
            continue
        tt = vi.type.tensor_type
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type)).name if tt.elem_type else None
        shape = None
        if tt.HasField("shape"):
            shape = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tt.shape.dim]
        out[vi.name] = (dtype, shape)
    for t in g.initializer:
        out[t.name] = (np.dtype(helper.tensor_dtype_to_np_dtype(t.data_type)).name, list(t.dims))
    return out


def _opset(model: Any, domain: str) -> int:
    for o in model.opset_import:
        if o.domain == domain or (o.domain in ONNX_DOMAINS and domain in ONNX_DOMAINS):
            return int(o.version)
    raise AuditError(f"the model imports no opset for domain {domain!r}")


def _version_in_force(op: DialectOp, opset: int) -> int:
    known = [int(v) for v in op.info.versions if int(v) <= opset]
    return max(known) if known else int(op.info.versions[0])


def _roles(op: DialectOp, op_type: str, opset: int, n: int) -> list[str]:
    import onnx.defs

    try:
        return [p.name for p in onnx.defs.get_schema(op_type, opset).inputs][:n]
    except Exception:
        return [f"input{k}" for k in range(n)]


def _attrs(node: Any) -> dict[str, Any]:
    from onnx import helper

    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        out[a.name] = v.decode() if isinstance(v, bytes) else v
    return out


# ---------------------------------------------------------------------------------------------- findings


def _runtimes_say(runtimes: Sequence[str], condition: str, family: str) -> tuple[dict[str, str], bool]:
    """What each runtime does under ``condition`` (from the table) and whether one of them differs."""
    said: dict[str, str] = {}
    differs = False
    for rt in runtimes:
        b = behaviour(rt, condition, family)
        if b is None:
            said[rt] = "not measured"
            continue
        said[rt] = b.does + (" (differs from the spec)" if b.differs else "")
        differs = differs or b.differs
    return said, differs


def _spec_says(condition: str) -> str:
    return {
        "negative": "counts from the end (i + s)",
        "out_of_range": "an error",
        "duplicates": "unspecified (the order of the updates is not defined)",
        "duplicates_threads": "the sum/product of every update",
        "nan_minmax": "not said",
        "bool_reduction": "not defined (the type constraint admits bool)",
        "minmax_opset16": "invalid: max/min were added in opset 18",
        "unknown_reduction": "invalid: the reduction must be none, add, mul (16), max, min (18)",
        "index_dtype": "invalid: outside the type constraint",
        "batch_dims_opset11": "invalid: batch_dims was added in opset 12",
        "wide_data": "exact for every type",
        "empty": "an empty result",
        "narrow_indices": "defined (indices may be smaller on non-axis dimensions)",
        "long_axis": "defined",
        "rank0_data": "invalid: data must have rank >= 1",
        "write_index": "linear mode requires write_indices + sequence_length <= max_sequence_length; the "
        "pseudocode counts a negative write index from the end (linear) or takes it floor modulo (circular)",
        "op_missing": "a valid op",
        "int64_extreme_index": "exact: an index is an int64 value (out of range: an error; TensorScatter circular: "
        "(write_indices[b] + j) mod max_sequence_length, computed without overflow)",
    }.get(condition, "")


class _Node:
    def __init__(self, report: NodeReport, op: DialectOp, runtimes: Sequence[str]) -> None:
        self.r = report
        self.op = op
        self.family = op.info.family
        self.runtimes = runtimes

    def add(self, condition: str, origin: str, message: str, *, certain: bool, order_dependent: bool = False,
            invalid: bool = False, positions: list[str] | None = None, count: int = 0) -> None:
        """Record a finding; ``invalid``: the spec makes these inputs an error (no runtime can give its result)."""
        said, differs = _runtimes_say(self.runtimes, condition, self.family)
        said = {"ONNX spec": _spec_says(condition), **said}
        if certain and (differs or order_dependent or invalid):
            level = "error"
        elif differs or order_dependent:
            level = "warning"
        else:
            level = "info"
        self.r.findings.append(Finding(self.r.name, condition, level, message, origin, positions or [], count, said))


def _static(n: _Node, attrs: dict[str, Any], dtypes: list[str | None], shapes: list[Any], const_idx: bool,
            version: int) -> None:
    op = n.op
    kind = op.info.kind
    missing = [rt for rt in n.runtimes if getattr(behaviour(rt, "op_missing", n.family), "differs", False)]
    if missing:
        n.add("op_missing", "static", f"{n.r.op} is not implemented by {', '.join(missing)}", certain=True)
    red = attrs.get("reduction", "none")
    k_idx = index_input(op)
    idx_dtype = dtypes[k_idx] if len(dtypes) > k_idx else None
    data_dtype = dtypes[0] if dtypes else None
    if isinstance(red, str) and red not in ("none", "add", "mul", "max", "min"):
        n.add("unknown_reduction", "static", f"reduction={red!r} is not an ONNX reduction", certain=True)
    elif red in ("max", "min") and version < 18:
        n.add("minmax_opset16", "static", f"reduction={red!r} in a {n.r.op}-{version} node (opset {n.r.opset})",
              certain=True)
    if "batch_dims" in attrs and attrs["batch_dims"] and version < 12 and n.family == "gather_nd":
        n.add("batch_dims_opset11", "static", f"batch_dims={attrs['batch_dims']} at opset {n.r.opset}", certain=True)
    if idx_dtype is not None:
        try:
            _try_dtype(op, n.r.opset, idx_dtype, data_dtype, attrs)
        except GatherScatterError as exc:
            n.add("index_dtype", "static", " ".join(str(exc).split()), certain=True)
    if data_dtype == "bool" and red != "none":
        n.add("bool_reduction", "static", f"reduction={red!r} on bool data", certain=True)
    if data_dtype in ("int64", "float64"):
        n.add("wide_data", "static", f"{data_dtype} data: exact only where the runtime keeps {data_dtype}",
              certain=False)
    if n.family == "gather_elements" and len(shapes) > 1 and shapes[0] and shapes[1]:
        axis = int(attrs.get("axis", 0)) % max(1, len(shapes[0]))
        d, i = shapes[0], shapes[1]
        if any(isinstance(a, int) and isinstance(b, int) and b < a for k, (a, b) in enumerate(zip(d, i, strict=False))
               if k != axis):
            n.add("narrow_indices", "static", f"indices {i} smaller than data {d} off axis {axis}", certain=True)
        if isinstance(d[axis], int) and d[axis] > 64:
            n.add("long_axis", "static", f"gathered axis of length {d[axis]}", certain=True)
    if const_idx:
        return  # the concrete indices are checked below
    if n.family == "scatter_axis":  # TensorScatter: distinct positions, no reduction
        n.add("write_index", "static", "write_indices are computed at run time: a negative one, or in linear mode "
              "one past max_sequence_length - sequence_length, is possible", certain=False)
        return
    n.add("out_of_range", "static", "indices are computed at run time: an out-of-range index is possible",
          certain=False)
    if kind == "scatter" and red == "none":
        n.add("duplicates", "static", "duplicate targets without a reduction are possible (order-dependent result)",
              certain=False, order_dependent=True)
    if kind == "scatter" and red in ("add", "mul"):
        n.add("duplicates_threads", "static", f"reduction={red!r} with duplicate targets: a multi-threaded runtime "
              "may race", certain=False)
    if red in ("max", "min") and data_dtype is not None and data_dtype.startswith(("float", "bfloat")):
        n.add("nan_minmax", "static", f"reduction={red!r} on {data_dtype} data: a NaN is handled differently",
              certain=False)


def _try_dtype(op: DialectOp, opset: int, idx_dtype: str, data_dtype: str | None, attrs: dict[str, Any]) -> None:
    """Run the op on a tiny input of the node's dtypes to see whether the schema admits the index dtype."""
    from .reference_ops import call_node

    if idx_dtype not in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        return
    # one-element inputs of every family: ranks do not matter for the dtype check, which comes first
    probe = np.zeros(1, dtype=idx_dtype)
    if op.info.family in ("gather_nd", "scatter_nd"):
        probe = np.zeros((1, 1), dtype=idx_dtype)
    from ..errors import DTypeError

    data = np.zeros((1,), dtype=data_dtype if data_dtype not in (None, "bool") else "float32")
    inputs: list[Array] = [data, probe] + ([np.zeros((1,), data.dtype)] if op.info.kind == "scatter" else [])
    if op.info.family == "scatter_axis":
        inputs = [data.reshape(1, 1, 1), data.reshape(1, 1, 1), probe]  # past_cache, update, write_indices
    keep = {k: v for k, v in attrs.items() if k not in ("axis", "batch_dims")}
    try:
        call_node(op, inputs, keep, opset)
    except DTypeError:
        raise
    except GatherScatterError:
        return


def _pos(p: Sequence[Any]) -> str:
    return "indices[" + ", ".join(str(int(x)) for x in p) + "]"


def _dynamic(n: _Node, inputs: list[Array | None], attrs: dict[str, Any], origin: str) -> None:
    """Check the concrete indices (and data/updates) that reach the node."""
    from .reference_ops import call_node

    op = n.op
    args = list(inputs)
    while args and args[-1] is None:
        args.pop()
    kwargs = dict(attrs)
    if op.info.version_kw is not None:
        kwargs[op.info.version_kw] = n.r.opset
    if n.family == "scatter_axis":
        _dynamic_write_indices(n, args, kwargs, origin)
        return
    try:
        low = op.lower(*args, **kwargs)
    except GatherScatterError as exc:
        n.add("rank0_data" if any(a is not None and np.ndim(a) == 0 for a in args[:1]) else "out_of_range", origin,
              "the ONNX op refuses these inputs: " + " ".join(str(exc).split()), certain=True, invalid=True)
        return
    if low.result is not None:
        return
    spec = low.spec
    idx = np.asarray(low.indices)
    data = np.asarray(low.data)
    if idx.size == 0:
        n.add("empty", origin, f"empty indices (shape {list(idx.shape)})", certain=True)
        return
    sizes = data.shape[spec.axis: spec.axis + spec.depth] if spec.vector else (data.shape[spec.axis],)
    comps = [idx[..., j] for j in range(idx.shape[-1])] if spec.vector else [idx]
    neg_pos: list[tuple[int, ...]] = []
    bad_pos: list[str] = []
    n_bad = n_neg = 0
    wrapped = []
    for j, (c, s) in enumerate(zip(comps, sizes, strict=False)):
        c = c.astype(np.int64, copy=False) if c.dtype.kind in "iu" and c.dtype != np.uint64 else c
        bad = (c < -s) | (c >= s)
        neg = (c < 0) & ~bad
        n_bad += int(bad.sum())
        n_neg += int(neg.sum())
        for p in np.argwhere(bad)[:_MAX_POSITIONS]:
            full = (*p, j) if spec.vector else tuple(p)
            bad_pos.append(f"{_pos(full)} = {int(c[tuple(p)])} (axis size {s})")
        for p in np.argwhere(neg)[:_MAX_POSITIONS]:
            neg_pos.append((*p, j) if spec.vector else tuple(p))
        wrapped.append(np.where(c < 0, c + s, c))
    if n_bad:
        n.add("out_of_range", origin, f"{n_bad} index value(s) outside [-s, s-1]", certain=True, invalid=True,
              positions=bad_pos[:_MAX_POSITIONS], count=n_bad)
    if n_neg:
        n.add("negative", origin, f"{n_neg} negative index value(s) (valid: they count from the end)", certain=True,
              positions=[_pos(p) for p in neg_pos[:_MAX_POSITIONS]], count=n_neg)
    if n_bad:
        return
    try:
        call_node(op, args, attrs, n.r.opset)
    except GatherScatterError as exc:
        n.add("out_of_range", origin, "the ONNX op refuses these inputs: " + " ".join(str(exc).split()),
              certain=True, invalid=True)
        return
    if op.info.kind != "scatter" or low.updates is None:
        return
    red = str(attrs.get("reduction", "none"))
    lead = wrapped[0].shape
    lin = np.zeros(lead, np.int64)
    for w, s in zip(wrapped, sizes, strict=False):
        lin = lin * s + w
    key: Array
    if spec.elementwise:
        coords: list[Array] = list(np.indices(lead))
        coords[spec.axis] = wrapped[0]
        key = np.asarray(np.ravel_multi_index(tuple(coords), data.shape))
    elif spec.batch:
        bkey = np.ravel_multi_index(tuple(np.indices(lead)[: spec.batch]), data.shape[: spec.batch])
        key = np.asarray(bkey) * int(np.prod(sizes)) + lin
    else:
        key = lin
    flat = key.ravel()
    order = np.argsort(flat, kind="stable")
    sk = flat[order]
    same = sk[1:] == sk[:-1]
    upd = np.asarray(low.updates)
    if red == "none" and same.any():
        if upd.shape[: len(lead)] == lead:
            u = upd.reshape(flat.size, -1)
            a, b = order[:-1][same], order[1:][same]
            differ = np.any((u[a] != u[b]) & ~((u[a] != u[a]) & (u[b] != u[b])), axis=1)
            later = b[differ]
        else:
            later = order[1:][same]
        if later.size:
            where = [_pos(np.unravel_index(int(k), lead)) for k in later[:_MAX_POSITIONS]]
            n.add("duplicates", origin, f"{later.size} update(s) hit a target another update already wrote, with a "
                  "different value: the result depends on the order", certain=True, order_dependent=True,
                  positions=where, count=int(later.size))
    if red in ("add", "mul") and same.any() and n.family == "scatter_nd":
        n.add("duplicates_threads", origin, f"{int(same.sum())} duplicate target(s) under reduction={red!r}",
              certain=True, count=int(same.sum()))
    if red in ("max", "min") and data.dtype.kind == "f":
        nan_u = int(np.isnan(upd).sum())
        nan_d = int(np.isnan(data).sum())
        if nan_u or nan_d:
            n.add("nan_minmax", origin, f"NaN under reduction={red!r}: {nan_u} in updates, {nan_d} in data",
                  certain=True, count=nan_u + nan_d)
    if data.dtype in (np.int64, np.float64):
        if data.dtype == np.int64:
            big = int(((data > np.iinfo(np.int32).max) | (data < np.iinfo(np.int32).min)).sum())
        else:
            big = int((data.astype(np.float32).astype(np.float64) != data).sum())
        if big:
            n.add("wide_data", origin, f"{big} {data.dtype.name} data value(s) not representable in "
                  f"{'int32' if data.dtype == np.int64 else 'float32'}", certain=True, count=big)


def _dynamic_write_indices(n: _Node, args: list[Any], kwargs: dict[str, Any], origin: str) -> None:
    """TensorScatter: the write indices that reach the node (negative, past the end, int64 overflow)."""
    from ..errors import IndexOutOfRangeError

    try:
        n.op.lower(*args, **kwargs)
    except IndexOutOfRangeError as exc:
        pos = [f"write_indices[{exc.position[0]}] = {exc.value}"] if exc.position else []
        n.add("write_index", origin, "the ONNX op refuses these inputs: " + " ".join(str(exc).split()),
              certain=True, invalid=True, positions=pos)
        return
    except GatherScatterError as exc:
        n.add("out_of_range", origin, "the ONNX op refuses these inputs: " + " ".join(str(exc).split()),
              certain=True, invalid=True)
        return
    w = args[2] if len(args) > 2 and args[2] is not None else None
    axis = int(kwargs.get("axis", -2))
    if w is None or kwargs.get("mode", "linear") != "circular":
        return
    w = np.asarray(w, np.int64)
    last = np.iinfo(np.int64).max - max(0, np.shape(args[1])[axis] - 1)
    over = np.flatnonzero(w > last)
    if over.size:
        n.add("int64_extreme_index", origin, f"{over.size} write index(es) where write_indices[b] + j overflows "
              "int64 before the modulo", certain=True, count=int(over.size),
              positions=[f"write_indices[{int(b)}] = {int(w[b])}" for b in over[:_MAX_POSITIONS]])


# ---------------------------------------------------------------------------------------------- running


def _collect(model: Any, feeds: dict[str, Array], wanted: list[str]) -> tuple[dict[str, Array], str | None, str]:
    """Values of ``wanted`` tensors: onnxruntime with extra outputs; else onnx.reference + our ops, recording."""
    import onnx
    from onnx import helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    outs = {o.name for o in m.graph.output}
    extra = [w for w in wanted if w not in outs and w not in feeds]
    for w in extra:
        m.graph.output.append(helper.make_empty_tensor_value_info(w))
    names = [o.name for o in m.graph.output]
    try:
        from .runners import run_model

        values = run_model("onnxruntime", m, feeds)
        got = dict(zip(names, values, strict=True))
        return {**feeds, **got}, None, "onnxruntime"
    except ImportError:
        ort_error = "onnxruntime is not installed"
    except Exception as exc:
        ort_error = f"onnxruntime: {' '.join(str(exc).split())[:300]}"
    return _record(model, feeds, ort_error)


def _record(model: Any, feeds: dict[str, Array], ort_error: str) -> tuple[dict[str, Array], str | None, str]:
    from onnx.reference import ReferenceEvaluator

    from .reference_ops import reference_ops

    seen: dict[str, Array] = {}

    def recording(cls: type[Any]) -> type[Any]:
        base_run = cls._run

        def _run(self: Any, *inputs: Any, **kw: Any) -> Any:
            for name, value in zip(self.onnx_node.input, inputs, strict=False):
                if name and value is not None:
                    seen[name] = value
            return base_run(self, *inputs, **kw)

        return type(cls.__name__, (cls,), {"_run": _run})

    ops = [recording(c) for c in reference_ops()]
    try:
        ReferenceEvaluator(model, new_ops=ops).run(None, feeds)
        stopped = None
    except Exception as exc:
        stopped = f"{ort_error}; onnx.reference with gatherscatter's ops: {type(exc).__name__}: " + " ".join(
            str(exc).split()
        )[:300]
    by = "onnx.reference with gatherscatter's ops " + (
        "(onnxruntime failed)" if stopped else f"({ort_error[:160]})"
    )
    return {**feeds, **seen}, stopped, by


# ---------------------------------------------------------------------------------------------- audit


def audit(
    model: Any,
    inputs: dict[str, Array] | str | os.PathLike[str] | None = None,
    *,
    runtimes: Sequence[str] = DEFAULT_RUNTIMES,
    progress: Callable[[int, int, str], None] | None = None,
) -> AuditReport:
    """Audit ``model`` (a path or ``onnx.ModelProto``); ``inputs``: sample inputs (a dict or an .npz path)."""
    for rt in runtimes:
        if rt not in RUNTIME_LABELS:
            raise AuditError(f"unknown runtime {rt!r}; choose from {', '.join(RUNTIME_LABELS)}")
    name = str(model) if isinstance(model, (str, os.PathLike)) else (model.graph.name or "model")
    proto = load_model(model)
    feeds: dict[str, Array] | None = None
    inputs_label = None
    if isinstance(inputs, (str, os.PathLike)):
        feeds = load_inputs(inputs, proto)
        inputs_label = str(inputs)
    elif inputs is not None:
        feeds = check_feeds({k: np.asarray(v) for k, v in inputs.items()}, proto, "inputs")
        inputs_label = "given arrays"
    consts = _constants(proto)
    types = _types(proto)
    found = [(node, path, op_for(node.op_type, node.domain)) for node, path in _walk(proto.graph)]
    nodes = [(node, path, op) for node, path, op in found if op is not None]
    main_opset = _opset(proto, "")
    report = AuditReport(name, main_opset, list(runtimes), inputs_label, [])
    checkers = []
    for k, (node, path, op) in enumerate(nodes):
        assert op is not None
        opset = _opset(proto, node.domain)
        version = _version_in_force(op, opset)
        attrs = _attrs(node)
        roles = _roles(op, node.op_type, opset, len(node.input))
        infos = []
        for role, iname in zip(roles, node.input, strict=False):
            dtype, shape = types.get(iname, (None, None))
            if iname in consts:
                dtype, shape = consts[iname].dtype.name, list(consts[iname].shape)
            infos.append({"role": role, "name": iname, "dtype": dtype, "shape": shape, "constant": iname in consts})
        nr = NodeReport(node.name or f"{node.op_type}_{k}", node.op_type, node.domain, opset, version, attrs, infos,
                        path)
        checker = _Node(nr, op, runtimes)
        k_idx = index_input(op)
        const_idx = len(node.input) > k_idx and node.input[k_idx] in consts
        try:
            _static(checker, attrs, [i["dtype"] for i in infos], [i["shape"] for i in infos], const_idx, version)
            if const_idx and all(not i or i in consts for i in node.input):
                _dynamic(checker, [consts[i] if i else None for i in node.input], attrs, "constant")
            elif const_idx and k_idx == 1:
                _dynamic_indices_only(checker, consts[node.input[1]], infos, attrs)
        except Exception as exc:  # an op whose inputs the checks do not understand: say so, audit the rest
            _not_analysed(checker, exc)
        report.nodes.append(nr)
        checkers.append((checker, node, path, attrs))
    if feeds is not None:
        wanted = sorted({i for _, node, path, _ in checkers if path == "main" for i in node.input if i})
        values, stopped, by = _collect(proto, feeds, wanted)
        report.run_error = stopped
        report.run_by = by
        for k, (checker, node, path, attrs) in enumerate(checkers):
            if progress is not None:
                progress(k, len(checkers), checker.r.name)
            if path != "main":
                continue
            ins = [values.get(i) if i else None for i in node.input]
            reached = all(v is not None for i, v in zip(node.input, ins, strict=True) if i)
            checker.r.reached = reached
            if reached:
                checker.r.findings = [f for f in checker.r.findings if f.origin != "static" or f.level == "error"
                                      or f.condition not in _DYNAMIC_CONDITIONS]
                try:
                    _dynamic(checker, ins, attrs, "inputs")
                except Exception as exc:
                    _not_analysed(checker, exc)
    for nr in report.nodes:
        nr.findings.sort(key=lambda f: _LEVELS.index(f.level))
    return report


def _not_analysed(n: _Node, exc: Exception) -> None:
    msg = f"not analysed ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    n.r.findings.append(Finding(n.r.name, "not_analysed", "warning", msg, "static"))


#: static "possible" findings that the sample run replaces with what actually happened
_DYNAMIC_CONDITIONS = frozenset({"out_of_range", "duplicates", "duplicates_threads", "nan_minmax", "wide_data",
                                 "write_index"})


def _dynamic_indices_only(n: _Node, idx: Array, infos: list[dict[str, Any]], attrs: dict[str, Any]) -> None:
    """Constant indices with data of known shape: bounds checks without running the model."""
    shape = infos[0].get("shape")
    if not shape or not all(isinstance(d, int) for d in shape):
        return
    data = np.zeros(shape, dtype=np.float32)
    ins: list[Array | None] = [data, idx]
    if n.op.info.kind == "scatter":
        upd_info = infos[2] if len(infos) > 2 else {}
        ushape = upd_info.get("shape")
        if not ushape or not all(isinstance(d, int) for d in ushape):
            return
        ins.append(np.arange(int(np.prod(ushape)), dtype=np.float32).reshape(ushape))  # distinct: duplicates differ
    _dynamic(n, ins, attrs, "constant")


assert set(_DYNAMIC_CONDITIONS) <= set(CONDITIONS)
