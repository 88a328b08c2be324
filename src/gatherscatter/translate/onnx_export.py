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
Every step becomes ONNX nodes: op steps the ONNX op itself, adapters small
subgraphs (``Shape``/``Gather`` to read an axis size at run time, ``Where`` to
wrap negatives, ``ConstantOfShape`` for identities, ``Range``/``Expand``/
``Concat`` for coordinate grids (docs/semantics.md#e4) ...). Every adapter of
:data:`~gatherscatter.translate.ir.ADAPTERS` has an emitter in
:data:`ONNX_ADAPTERS`: those of :mod:`.adapters` traced through its ONNX vocabulary,
the others written here. The model's opset is the one the plan's ops were
planned for (``version=``, default 18), and nodes take that opset's form:
``Unsqueeze``/``Squeeze``/``ReduceMin`` axes as attributes before 13/18, no
``GreaterOrEqual`` or integer ``Max`` before 12, ``Reshape(allowzero=1)`` from
14 (before, a reshape to a shape holding a 0 copies the input's dim: empty
results of the reshaping adapters need opset >= 14). Requires the ``onnx``
package: ``pip install "gatherscatter[onnx]"`` (without it, a ModuleNotFoundError says so).

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
        onnx = require_onnx()
        from onnx import helper, numpy_helper

        self.onnx, self.helper, self.numpy_helper = onnx, helper, numpy_helper
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
        arr = np.asarray(value, dtype=dtype)
        name = self.fresh(hint)
        self.inits.append(self.numpy_helper.from_array(arr, name))
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


_ONNX_ATTRS = {"axis", "batch_dims", "reduction"}
_ONNX_DEFAULTS: dict[str, Any] = {"batch_dims": 0, "reduction": "none"}


def _op(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    if not s.name.startswith("onnx."):
        raise UnsupportedError(f"onnx export: step {s.name} is not an ONNX op")
    name = s.name.split(".", 1)[1]
    order = ["data", "indices", "updates"]
    # defaults are left out (GatherND has no batch_dims attribute before opset 12, nor reduction before 16)
    attrs = {key: v for key, v in k.items() if key in _ONNX_ATTRS and v != _ONNX_DEFAULTS.get(key)}
    return b.node(name, [a[p] for p in order if p in a], s.out, **attrs)


def build_model(t: Translation, example: dict[str, Any]) -> Any:
    """The ONNX model of ``t`` for an example call (its ranks, dtypes and index-tuple lengths)."""
    if t.target != "onnx":
        raise UnsupportedError(f"onnx export: the translation targets {t.target}, not onnx")
    opset = _opset(t)
    b = Builder(opset)
    from ..dialects._registry import get_op
    from .ir import ADAPTERS as _AD  # noqa: F401  (the NumPy definitions evaluate the example)

    missing = [n for n in t.source.inputs if n not in example]
    unknown = [n for n in example if n not in t.source.inputs]
    if missing or unknown:
        raise ArgumentError(f"onnx export of {t.source.op}: the example takes {', '.join(t.source.inputs)}; "
                            f"got {', '.join(example) or 'nothing'}")
    seqs = _tuple_inputs(t, example)
    for name in t.source.inputs:
        if name in seqs:  # a sequence of index arrays (torch.index_put's indices): one graph input each
            parts = [np.asarray(x) for x in example[name]]
            b.vals[name] = tuple(parts)
            b.tuples[name] = [f"{name}_{j}" for j in range(len(parts))]
            for j, v in enumerate(parts):
                b.vals[f"{name}_{j}"] = v
            continue
        v = np.asarray(example[name])
        if isinstance(example[name], (tuple, list)) and v.size == 0:
            v = v.astype(np.int64)  # an empty shape argument
        b.vals[name] = v
    for step in t.steps:
        args = step.arg_map
        vals = {p: b.vals[v] for p, v in args.items()}
        if step.kind == "op":
            b.vals[step.out] = get_op(step.name)(**vals, **step.attr_map)
            _op(b, step, args, step.attr_map)
        else:
            b.vals[step.out] = ADAPTERS[step.name].run(*vals.values(), **step.attr_map)
            emit = ONNX_ADAPTERS.get(step.name)
            if emit is None:
                raise UnsupportedError(f"onnx export: adapter {step.name} has no ONNX form yet")
            emit(b, step, args, step.attr_map)
    inputs = []
    for name in t.source.inputs:
        if name in seqs:
            for j, v in enumerate(b.vals[name]):
                dims: list[Any] = [f"{name}_{j}_d{d}" for d in range(v.ndim)]
                inputs.append(b.helper.make_tensor_value_info(f"{name}_{j}", b.elem_type(v.dtype), dims))
            continue
        v = b.vals[name]
        dims = [f"{name}_d{j}" for j in range(v.ndim)]
        # the index-tuple length k is fixed when the graph depends on it: an nd gather's output rank does
        if v.ndim and name in nd_index_inputs(t) and (b.static_tuple_len or t.source.canonical.family == "gather_nd"):
            ax = int(t.source.layout.get("index_axis", -1)) % v.ndim
            dims[ax] = int(v.shape[ax])
        inputs.append(b.helper.make_tensor_value_info(name, b.elem_type(v.dtype), dims))
    out = t.program.output
    outputs = []
    for name, value in _outputs(b, out):
        ov = np.asarray(value)
        if isinstance(value, tuple) and ov.size == 0:
            ov = ov.astype(np.int64)  # an empty shape
        dims = [f"{name}_d{j}" for j in range(ov.ndim)]
        outputs.append(b.helper.make_tensor_value_info(name, b.elem_type(ov.dtype), dims))
    graph = b.helper.make_graph(b.nodes, "translated", inputs, outputs, b.inits)
    model = b.helper.make_model(graph, opset_imports=[b.helper.make_opsetid("", opset)],
                                producer_name="gatherscatter.translate")
    model.ir_version = min(model.ir_version, 10)
    b.onnx.checker.check_model(model, full_check=True)
    return model


def _outputs(b: Builder, out: str) -> list[tuple[str, Any]]:
    """The graph outputs: the program's output, or each component of a tuple-valued one."""
    if out in b.tuples:
        return list(zip(b.tuples[out], b.vals[out], strict=True))
    return [(out, b.vals[out])]


def _opset(t: Translation) -> int:
    """The model's opset: the one the plan's ONNX ops were planned for (default 18)."""
    opsets = [int(s.attr_map["opset"]) for s in t.steps if s.kind == "op" and s.attr_map.get("opset")]
    if opsets:
        return max(opsets)
    return int(t.version) if t.version is not None else 18


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

    dtypes = dict(dtypes or {})
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
    found = []
    for case in sample_cases(t.source, n=48, seed=0):
        if case.kind != "plain":
            continue
        try:
            t.run_source(**case.args)
        except Exception:
            continue
        found.append(case.args)
    if found:
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
    raise UnsupportedError(f"onnx export: no example input found for {t.source.op}")


def _tuple_length(t: Translation, args: dict[str, Any]) -> int:
    """The index-tuple length of an nd source call (0 for the other families)."""
    for name in nd_index_inputs(t):
        v = args.get(name)
        if isinstance(v, np.ndarray) and v.ndim:
            return int(v.shape[int(t.source.layout.get("index_axis", -1)) % v.ndim])
    return 0


def _try_dtypes(t: Translation, args: dict[str, Any], dtypes: dict[str, np.dtype[Any]]) -> dict[str, Any] | None:
    """``args`` with each named array in its dtype when the source op and the translation accept them; else None."""
    if not dtypes or any(not isinstance(args[n], np.ndarray) for n in dtypes):
        return None
    with np.errstate(all="ignore"):
        new = {**args, **{n: args[n].astype(d) for n, d in dtypes.items()}}
    try:
        t.run_source(**new)
        t.run(**new)
    except Exception:
        return None
    return new


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

    def literal(v: Any) -> Any:
        return v.decode() if isinstance(v, bytes) else v

    lines = ["import numpy as np", "import onnx", "from onnx import TensorProto, helper, numpy_helper", "",
             "nodes = ["]
    for n in model.graph.node:
        attrs = ", ".join(f"{a.name}={literal(helper.get_attribute_value(a))!r}" for a in n.attribute
                          if a.type != a.TENSOR)
        tensor = [a for a in n.attribute if a.type == a.TENSOR]
        if tensor:
            v = numpy_helper.to_array(tensor[0].t)
            attrs = (attrs + ", " if attrs else "") + \
                f"value=numpy_helper.from_array(np.array({v.tolist()!r}, dtype=np.{v.dtype}))"
        lines.append(f"    helper.make_node({n.op_type!r}, {list(n.input)!r}, {list(n.output)!r}"
                     + (f", {attrs}" if attrs else "") + "),")
    lines.append("]")
    lines.append("inits = [")
    for init in model.graph.initializer:
        v = numpy_helper.to_array(init)
        lines.append(f"    numpy_helper.from_array(np.array({v.tolist()!r}, dtype=np.{v.dtype}), {init.name!r}),")
    lines.append("]")

    def vi(x: Any) -> str:
        tt = x.type.tensor_type
        dims = [d.dim_param or d.dim_value for d in tt.shape.dim]
        return f"helper.make_tensor_value_info({x.name!r}, {tt.elem_type}, {dims!r})"

    lines.append("inputs = [" + ", ".join(vi(x) for x in model.graph.input) + "]")
    lines.append("outputs = [" + ", ".join(vi(x) for x in model.graph.output) + "]")
    opset = model.opset_import[0].version
    lines += ["graph = helper.make_graph(nodes, 'translated', inputs, outputs, inits)",
              f"model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', {opset})])",
              f"model.ir_version = {model.ir_version}",
              "onnx.checker.check_model(model, full_check=True)"]
    return "\n".join(lines) + "\n"


generate = script  # the ONNX code of a translation
