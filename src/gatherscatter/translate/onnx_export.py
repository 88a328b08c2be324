"""Export a translation to ONNX with ``onnx.helper`` (checked with ``onnx.checker``).

The graph's inputs are the source op's value arguments, declared with the
ranks and element types of an example call: :meth:`Translation.to_onnx`'s
arrays, or for :attr:`Translation.onnx_model` a default example (float32
data and updates and int64 indices where the source op takes them; other
dtypes with ``to_onnx(dtypes={...})``; nd gathers get full index tuples).
Every dim is symbolic, except the index-tuple length of nd indices where the
graph depends on it (an nd gather's output rank; an adapter that handles each
tuple component); a sequence argument (``torch.index_put``'s
``indices``) becomes one input per array, ``indices_0``, ``indices_1`` ...
Every step becomes ONNX nodes: op steps the ONNX op itself, adapters the
subgraphs of :mod:`.adapters` traced through its ONNX vocabulary (:data:`ONNX_ADAPTERS`;
opset quirks live there). The model's opset is the one the plan's ops were
planned for (``version=``, default 18). Requires the ``onnx`` package:
``pip install "gatherscatter[onnx]"`` (without it, a ModuleNotFoundError says so).

>>> import numpy as np, gatherscatter as gs
>>> t = gs.translate("mxnet.gather_nd", to="onnx")
>>> m = t.to_onnx(data=np.zeros((2, 3), np.float32), indices=np.zeros((2, 4), np.float32))
>>> [n.op_type for n in m.graph.node]
['Transpose', 'Cast', 'GatherND']
>>> [(i.name, [d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim]) for i in m.graph.input]
[('data', ['data_d0', 'data_d1']), ('indices', [2, 'indices_d1'])]
>>> [i.type.tensor_type.elem_type for i in t.onnx_model.graph.input]  # float32 data, int64 indices by default
[1, 7]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dialects._registry import get_op
from ..errors import ArgumentError, UnsupportedError
from .adapters import DEFS, OnnxVocab
from .ir import ADAPTERS, Step

if TYPE_CHECKING:
    from . import Translation

__all__ = ["EXTRA", "ONNX_ADAPTERS", "Builder", "build_model", "default_example", "default_model", "script"]

EXTRA = "onnx"
"""The optional extra that installs what ONNX export needs (``pip install "gatherscatter[onnx]"``)."""


class Builder:
    """Nodes, initializers and fresh names of one graph; ``vals`` holds the example's values."""

    def __init__(self, opset: int) -> None:
        self.onnx = require_onnx()
        self.helper, self.numpy_helper = self.onnx.helper, self.onnx.numpy_helper
        self.opset = opset
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.vals: dict[str, Any] = {}
        self.tuples: dict[str, list[str]] = {}  # tuple-valued names -> one graph value per component
        self.static_tuple_len = False  # a step's ONNX form depends on the index-tuple length k
        self._n = 0

    def fresh(self, hint: str) -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def node(self, op: str, inputs: list[str], out: str | None = None, **attrs: Any) -> str:
        out = out or self.fresh(op.lower())
        self.nodes.append(self.helper.make_node(op, inputs, [out], **attrs))
        return out

    def const(self, value: Any, dtype: Any = None, hint: str = "c") -> str:
        name = self.fresh(hint)
        self.inits.append(self.numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def elem_type(self, dtype: Any) -> int:
        return int(self.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))


OnnxEmit = Callable[[Builder, Step, dict[str, str], dict[str, Any]], str]


def _traced(fn: Callable[..., Any]) -> OnnxEmit:
    """The ONNX emitter of an adapter written once in :mod:`.adapters`."""

    def emit(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        v = OnnxVocab(b)
        return v.bind(fn(v, *[v.input(name) for name in a.values()], **k), s.out)

    return emit


ONNX_ADAPTERS: dict[str, OnnxEmit] = {name: _traced(fn) for name, fn in DEFS.items()}


#: the ONNX ops' attributes with their defaults, which are left out (GatherND has no batch_dims attribute before
#: opset 12, nor reduction before 16)
_ONNX_ATTRS: dict[str, Any] = {"axis": None, "batch_dims": 0, "reduction": "none"}


def _op(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    if not s.name.startswith("onnx."):
        raise UnsupportedError(f"onnx export: step {s.name} is not an ONNX op")
    attrs = {key: v for key, v in k.items() if key in _ONNX_ATTRS and v != _ONNX_ATTRS[key]}
    return b.node(s.name.split(".", 1)[1], [a[p] for p in ("data", "indices", "updates") if p in a], s.out, **attrs)


#: the element types some onnxruntime CPU kernels lack, and the type they are computed in (exact for a select, and
#: for a max/min: of bool, or/and)
_WIDER = {"bool": "uint8", "int16": "int32", "uint16": "int32"}
#: those kernels (op type, and its reduction): the operands cast to the wider type (the result is cast back)
_ORT_GAPS = {"Where": (1, 2),
             **{f"{op} {r}": (0, 2) for op in ("ScatterND", "ScatterElements") for r in ("max", "min")}}


def _widen(b: Builder, model: Any) -> None:
    """Compute each node onnxruntime's CPU kernels lack for its element type (:data:`_ORT_GAPS`) in a wider one."""
    g = b.onnx.shape_inference.infer_shapes(model).graph
    types = {v.name: v.type.tensor_type.elem_type for v in [*g.value_info, *g.output]}
    wider = {b.elem_type(k): b.elem_type(v) for k, v in _WIDER.items()}
    nodes: list[Any] = []
    for n in model.graph.node:
        kind = " ".join([n.op_type, *[a.s.decode() for a in n.attribute if a.name == "reduction"]])
        t = types.get(n.output[0])
        if kind not in _ORT_GAPS or t not in wider:
            nodes.append(n)
            continue
        wide = b.onnx.NodeProto()
        wide.CopyFrom(n)
        wide.output[0] = b.fresh("wide")
        for j in _ORT_GAPS[kind]:
            nodes.append(b.helper.make_node("Cast", [n.input[j]], [b.fresh("wide")], to=wider[t]))
            wide.input[j] = nodes[-1].output[0]
        nodes += [wide, b.helper.make_node("Cast", [wide.output[0]], [n.output[0]], to=t)]
    del model.graph.node[:]
    model.graph.node.extend(nodes)


def build_model(t: Translation, example: dict[str, Any]) -> Any:
    """The ONNX model of ``t`` for an example call (its ranks, dtypes and index-tuple lengths)."""
    if t.target != "onnx":
        raise UnsupportedError(f"onnx export: the translation targets {t.target}, not onnx")
    b = Builder(_opset(t))
    if set(example) != set(t.source.inputs):
        raise ArgumentError(f"onnx export of {t.source.op}: the example takes {', '.join(t.source.inputs)}; "
                            f"got {', '.join(example) or 'nothing'}")
    seqs = _tuple_inputs(t, example)
    graph_inputs: list[tuple[str, Any]] = []  # (graph input, its example value)
    for name in t.source.inputs:
        if name in seqs:  # a sequence of index arrays (torch.index_put's indices): one graph input each
            b.vals[name] = tuple(np.asarray(x) for x in example[name])
            b.tuples[name] = [f"{name}_{j}" for j in range(len(b.vals[name]))]
            b.vals.update(zip(b.tuples[name], b.vals[name], strict=True))
            graph_inputs += zip(b.tuples[name], b.vals[name], strict=True)
        else:
            b.vals[name] = _array(example[name])
            graph_inputs.append((name, b.vals[name]))
    for step in t.steps:
        vals = {p: b.vals[v] for p, v in step.args}
        if step.kind == "op":
            b.vals[step.out] = get_op(step.name)(**vals, **step.attr_map)
            _op(b, step, step.arg_map, step.attr_map)
        else:
            b.vals[step.out] = ADAPTERS[step.name].run(*vals.values(), **step.attr_map)
            ONNX_ADAPTERS[step.name](b, step, step.arg_map, step.attr_map)
    # the index-tuple length k is fixed when the graph depends on it: an nd gather's output rank does
    fixed = nd_index_inputs(t) if b.static_tuple_len or t.source.canonical.family == "gather_nd" else set()
    inputs = [_value_info(b, n, v, _tuple_axis(t, v) if n in fixed else None) for n, v in graph_inputs]
    outputs = [_value_info(b, n, v) for n, v in _outputs(b, t.program.output)]
    graph = b.helper.make_graph(b.nodes, "translated", inputs, outputs, b.inits)
    model = b.helper.make_model(graph, opset_imports=[b.helper.make_opsetid("", b.opset)],
                                producer_name="gatherscatter.translate")
    model.ir_version = min(model.ir_version, 10)
    _widen(b, model)
    b.onnx.checker.check_model(model, full_check=True)
    return model


def _array(value: Any) -> Any:
    """``value`` as an array (an empty shape tuple: int64)."""
    v = np.asarray(value)
    return v.astype(np.int64) if isinstance(value, (tuple, list)) and v.size == 0 else v


def _value_info(b: Builder, name: str, value: Any, fixed: int | None = None) -> Any:
    """A graph input or output of ``value``'s element type and rank: dims ``<name>_d0`` ..., dim ``fixed`` static."""
    v = _array(value)
    dims = [int(n) if d == fixed else f"{name}_d{d}" for d, n in enumerate(v.shape)]
    return b.helper.make_tensor_value_info(name, b.elem_type(v.dtype), dims)


def _outputs(b: Builder, out: str) -> list[tuple[str, Any]]:
    """The graph outputs: the program's output, or each component of a tuple-valued one."""
    if out in b.tuples:
        return list(zip(b.tuples[out], b.vals[out], strict=True))
    return [(out, b.vals[out])]


def _opset(t: Translation) -> int:
    """The model's opset: the one the plan's ONNX ops were planned for (default 18)."""
    opsets = [int(s.attr_map["opset"]) for s in t.steps if s.kind == "op" and s.attr_map.get("opset")]
    return max(opsets, default=int(t.version) if t.version is not None else 18)


def _tuple_inputs(t: Translation, example: dict[str, Any]) -> set[str]:
    """Source inputs that are sequences of index arrays (read by a ``stack_last`` step)."""
    names = {s.arg_map["seq"] for s in t.steps if s.kind == "adapter" and s.name == "stack_last"}
    return {n for n in t.source.inputs if n in names and isinstance(example.get(n), (tuple, list))}


def nd_index_inputs(t: Translation) -> set[str]:
    c = t.source.canonical
    if c.family not in ("gather_nd", "scatter_nd"):
        return set()
    return {n for n in t.source.inputs if n in ("indices", "index", "idx") or n == c.indices}


def default_example(t: Translation, dtypes: dict[str, Any] | None = None) -> dict[str, Any]:
    """An example call of ``t``'s source: the first in-range generated case the source op accepts, its data
    and updates (the op's differentiable arguments) in float32 and its other arrays (indices) in int64
    where the source op takes them, and the inputs named in ``dtypes`` in those dtypes (data and updates
    share one: naming one names both)."""
    from .verify import sample_cases

    dtypes = dtypes or {}
    unknown = [n for n in dtypes if n not in t.source.inputs]
    if unknown:
        raise ArgumentError(f"onnx export of {t.source.op}: dtypes names {', '.join(map(repr, unknown))}; "
                            f"its inputs are {', '.join(t.source.inputs)}")
    try:
        wanted = {n: np.dtype(d) for n, d in dtypes.items()}
    except TypeError as exc:
        raise ArgumentError(f"onnx export of {t.source.op}: dtypes must map inputs to NumPy dtypes ({exc})") from None
    floats = [n for n in t.source.inputs if n in t.op.info.differentiable]
    named = [wanted[n] for n in floats if n in wanted]
    if named:
        wanted = {**dict.fromkeys(floats, named[0]), **wanted}
    found = [c.args for c in sample_cases(t.source, n=48, seed=0) if c.kind == "plain" and _runs(t, c.args, False)]
    if not found:
        raise UnsupportedError(f"onnx export: no example input found for {t.source.op}")
    args = max(found, key=lambda a: _tuple_length(t, a))  # the first with full index tuples, if any
    # preferred dtypes, kept where the source op (and the translation) accept them
    groups: list[dict[str, np.dtype[Any]]] = [{n: np.dtype(np.float32) for n in floats if n not in wanted}]
    groups += [{n: np.dtype(np.int64)} for n in t.source.inputs if n not in floats and n not in wanted]
    for group in groups:
        args = _try_dtypes(t, args, group) or args
    if wanted:
        cast = _try_dtypes(t, args, wanted)
        if cast is None:
            raise UnsupportedError(f"onnx export of {t.source.op}: the source op does not take "
                                   f"{', '.join(f'{n} of dtype {d}' for n, d in wanted.items())}")
        args = cast
    return args


def _tuple_axis(t: Translation, v: Any) -> int:
    """The axis of ``v`` (an nd index input) holding the index tuples."""
    return int(t.source.layout.get("index_axis", -1)) % max(int(v.ndim), 1)


def _tuple_length(t: Translation, args: dict[str, Any]) -> int:
    """The index-tuple length of an nd source call (0 for the other families)."""
    for name in nd_index_inputs(t):
        v = args.get(name)
        if isinstance(v, np.ndarray) and v.ndim:
            return int(v.shape[_tuple_axis(t, v)])
    return 0


def _runs(t: Translation, args: dict[str, Any], translated: bool = True) -> bool:
    """Whether the source op (and the translation, when ``translated``) accept ``args``."""
    try:
        t.run_source(**args)
        if translated:
            t.run(**args)
    except Exception:
        return False
    return True


def _try_dtypes(t: Translation, args: dict[str, Any], dtypes: dict[str, np.dtype[Any]]) -> dict[str, Any] | None:
    """``args`` with each named array in its dtype when the source op and the translation accept them; else None."""
    if not dtypes or any(not isinstance(args[n], np.ndarray) for n in dtypes):
        return None
    with np.errstate(all="ignore"):
        new = {**args, **{n: args[n].astype(d) for n, d in dtypes.items()}}
    return new if _runs(t, new) else None


def default_model(t: Translation, dtypes: dict[str, Any] | None = None) -> Any:
    """:func:`build_model` for :func:`default_example`."""
    return build_model(t, default_example(t, dtypes))


def require_onnx() -> Any:
    """The ``onnx`` module, or a ModuleNotFoundError naming the extra that installs it."""
    try:
        import onnx
    except ImportError:
        raise ModuleNotFoundError(
            f"ONNX export (t.onnx_model, t.to_onnx(), t.code for to='onnx') needs the onnx package, which is not "
            f"installed: pip install \"gatherscatter[{EXTRA}]\"", name="onnx"
        ) from None
    return onnx


def script(t: Translation) -> str:
    """A Python script that rebuilds ``t``'s ONNX graph with onnx.helper (for the default example's ranks)."""
    model = default_model(t)
    from onnx import helper, numpy_helper

    def array(proto: Any) -> str:
        v = numpy_helper.to_array(proto)
        return f"numpy_helper.from_array(np.array({v.tolist()!r}, dtype=np.{v.dtype})"

    def attr(a: Any) -> str:
        if a.type == a.TENSOR:
            return f"{a.name}={array(a.t)})"
        v = helper.get_attribute_value(a)
        return f"{a.name}={v.decode() if isinstance(v, bytes) else v!r}"

    def node(n: Any) -> str:
        parts = [repr(n.op_type), repr(list(n.input)), repr(list(n.output))]
        parts += [attr(a) for a in sorted(n.attribute, key=lambda a: a.type == a.TENSOR)]  # tensor attributes last
        return f"    helper.make_node({', '.join(parts)}),"

    def vi(x: Any) -> str:
        dims = [d.dim_param or d.dim_value for d in x.type.tensor_type.shape.dim]
        return f"helper.make_tensor_value_info({x.name!r}, {x.type.tensor_type.elem_type}, {dims!r})"

    opset = model.opset_import[0].version
    lines = ["import numpy as np", "import onnx", "from onnx import TensorProto, helper, numpy_helper", "",
             "nodes = [", *[node(n) for n in model.graph.node], "]",
             "inits = [", *[f"    {array(i)}, {i.name!r})," for i in model.graph.initializer], "]",
             "inputs = [" + ", ".join(vi(x) for x in model.graph.input) + "]",
             "outputs = [" + ", ".join(vi(x) for x in model.graph.output) + "]",
             "graph = helper.make_graph(nodes, 'translated', inputs, outputs, inits)",
             f"model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', {opset})])",
             f"model.ir_version = {model.ir_version}", "onnx.checker.check_model(model, full_check=True)"]
    return "\n".join(lines) + "\n"


generate = script  # the ONNX code of a translation
