"""Export a translation to ONNX with ``onnx.helper`` (checked with ``onnx.checker``).

The graph's inputs are the source op's value arguments, declared with the
ranks and element types of an example call (dims are symbolic, except the
index-tuple length of nd indices). Every step becomes ONNX nodes: op steps the
ONNX op itself, adapters small subgraphs (``Shape``/``Gather`` to read an axis
size at run time, ``Where`` to wrap negatives, ``ConstantOfShape`` for
identities ...). Requires the ``onnx`` package (an optional extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import UnsupportedError
from .ir import ADAPTERS, Step, identity_value

if TYPE_CHECKING:
    from . import Translation

__all__ = ["ONNX_ADAPTERS", "Builder", "build_model", "default_model", "script"]

Array = np.ndarray[Any, Any]


class Builder:
    """Nodes, initializers and fresh names of one graph; ``vals`` holds the example's values."""

    def __init__(self, opset: int) -> None:
        import onnx
        from onnx import helper, numpy_helper

        self.onnx, self.helper, self.numpy_helper = onnx, helper, numpy_helper
        self.opset = opset
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.vals: dict[str, Any] = {}
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

    # shape helpers -------------------------------------------------------------------------------

    def axis_size(self, data: str, axis: int, like: str) -> str:
        """``data.shape[axis]`` as a 0-d tensor of ``like``'s dtype."""
        shape = self.node("Shape", [data])
        s = self.node("Gather", [shape, self.const(axis, np.int64)], axis=0)
        return self.node("Cast", [s], to=self.elem_type(self.vals[like].dtype))

    def nd_sizes(self, data: str, b: int, k: int, like: str) -> str:
        """``data.shape[b:b+k]`` as a 1-d tensor of ``like``'s dtype."""
        shape = self.node("Shape", [data])
        s = self.node("Slice", [shape, self.const([b], np.int64), self.const([b + k], np.int64)])
        return self.node("Cast", [s], to=self.elem_type(self.vals[like].dtype))

    def sizes(self, args: dict[str, str], attrs: dict[str, Any]) -> str:
        i = args["i"]
        if attrs.get("axis") is not None:
            return self.axis_size(args["data"], attrs["axis"], i)
        k = int(np.asarray(self.vals[i]).shape[-1])
        return self.nd_sizes(args["data"], attrs.get("batch_dims") or 0, k, i)

    def fill_like(self, x: str, value: Any, dtype: Any) -> str:
        shape = self.node("Shape", [x])
        t = self.numpy_helper.from_array(np.asarray([value], dtype=dtype), self.fresh("v"))
        return self.node("ConstantOfShape", [shape], value=t)


OnnxEmit = Callable[[Builder, Step, dict[str, str], dict[str, Any]], str]
ONNX_ADAPTERS: dict[str, OnnxEmit] = {}


def _a(name: str) -> Callable[[OnnxEmit], OnnxEmit]:
    def deco(fn: OnnxEmit) -> OnnxEmit:
        ONNX_ADAPTERS[name] = fn
        return fn

    return deco


@_a("moveaxis")
def _moveaxis(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    r = np.asarray(b.vals[a["x"]]).ndim
    perm = list(np.moveaxis(np.arange(r), k["source"], k["destination"]))
    return b.node("Transpose", [a["x"]], s.out, perm=[int(p) for p in perm])


@_a("expand_dims")
def _expand_dims(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Unsqueeze", [a["x"], b.const([k["axis"]], np.int64)], s.out)


@_a("flatten")
def _flatten(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Reshape", [a["x"], b.const([-1], np.int64)], s.out)


@_a("cast")
def _cast(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Cast", [a["x"]], s.out, to=b.elem_type(k["dtype"]))


@_a("normalize_negative")
def _normalize_negative(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    i = a["i"]
    size = b.sizes(a, k)
    zero = b.const(0, b.vals[i].dtype)
    neg = b.node("Less", [i, zero])
    return b.node("Where", [neg, b.node("Add", [i, size]), i], s.out)


@_a("clip_index")
def _clip_index(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    i = a["i"]
    dt = b.vals[i].dtype
    top = b.node("Max", [b.node("Sub", [b.sizes(a, k), b.const(1, dt)]), b.const(0, dt)])
    return b.node("Max", [b.node("Min", [i, top]), b.const(0, dt)], s.out)


@_a("wrap_index")
def _wrap_index(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Mod", [a["i"], b.sizes(a, k)], s.out, fmod=0)


@_a("valid_mask")
def _valid_mask(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    i = a["i"]
    ok = b.node("And", [b.node("GreaterOrEqual", [i, b.const(0, b.vals[i].dtype)]),
                        b.node("Less", [i, b.sizes(a, k)])])
    if k.get("axis") is not None:
        return b.node("Identity", [ok], s.out)
    as_int = b.node("Cast", [ok], to=b.elem_type(np.int64))
    low = b.node("ReduceMin", [as_int, b.const([-1], np.int64)], keepdims=0)
    return b.node("Cast", [low], s.out, to=b.elem_type(np.bool_))


@_a("mask_result")
def _mask_result(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    y, m = a["y"], a["mask"]
    yv, mv = np.asarray(b.vals[y]), np.asarray(b.vals[m])
    axes = list(range(k["lead"])) + list(range(k["lead"] + mv.ndim, yv.ndim))
    mm = b.node("Unsqueeze", [m, b.const(axes, np.int64)]) if axes else m
    v = k.get("value")
    if v is None and k.get("reduction"):
        v = identity_value(k["reduction"], yv.dtype)
    return b.node("Where", [mm, y, b.const(v, yv.dtype)], s.out)


@_a("zeros")
def _zeros(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    t = b.numpy_helper.from_array(np.zeros(1, np.asarray(b.vals[a["like"]]).dtype), b.fresh("v"))
    return b.node("ConstantOfShape", [a["shape"]], s.out, value=t)


def _fill(value_of: Callable[[np.dtype[Any]], Any]) -> OnnxEmit:
    def emit(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        x = a["x"]
        dt = np.asarray(b.vals[x]).dtype
        out = b.fill_like(x, value_of(dt) if k.get("reduction") is None else identity_value(k["reduction"], dt), dt)
        return b.node("Identity", [out], s.out)

    return emit


ONNX_ADAPTERS["zeros_like"] = _fill(lambda dt: 0)
ONNX_ADAPTERS["ones_like"] = _fill(lambda dt: 1)
ONNX_ADAPTERS["identity_like"] = _fill(lambda dt: 0)


@_a("negative")
def _negative(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Neg", [a["x"]], s.out)


@_a("scale")
def _scale(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Mul", [a["x"], b.const(k["alpha"], np.asarray(b.vals[a["x"]]).dtype)], s.out)


@_a("divide_counts")
def _divide_counts(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    t, c, d = a["total"], a["count"], a["data"]
    dt = np.asarray(b.vals[t]).dtype
    none = b.node("Equal", [c, b.const(0, dt)])
    safe = b.node("Where", [none, b.const(1, dt), c])
    if dt.kind in "iu" and k.get("rounding", "floor") == "floor":
        rem = b.node("Mod", [t, safe], fmod=0)  # Python-style remainder: floor division is exact
        q = b.node("Div", [b.node("Sub", [t, rem]), safe])
    else:
        q = b.node("Div", [t, safe])
    return b.node("Where", [none, d, q], s.out)


@_a("slice_like")
def _slice_like(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    r = np.asarray(b.vals[a["like"]]).ndim
    ends = b.node("Shape", [a["like"]])
    return b.node("Slice", [a["x"], b.const([0] * r, np.int64), ends], s.out)


@_a("full_updates")
def _full_updates(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    dt = np.asarray(b.vals[a["data"]]).dtype
    return b.node("Identity", [b.fill_like(a["i"], k["value"], dt)], s.out)


def _broadcast(b: Builder, x: str, ref: str, axis: int | None, keep: str) -> str:
    """Expand ``x`` to ``ref``'s shape, keeping ``keep``'s size on ``axis``."""
    if axis is None:
        return b.node("Expand", [x, b.node("Shape", [ref])])
    r = np.asarray(b.vals[ref]).ndim
    ax = axis % r
    sr, sk = b.node("Shape", [ref]), b.node("Shape", [keep])
    parts = [b.node("Slice", [sr, b.const([0], np.int64), b.const([ax], np.int64)]),
             b.node("Slice", [sk, b.const([ax], np.int64), b.const([ax + 1], np.int64)]),
             b.node("Slice", [sr, b.const([ax + 1], np.int64), b.const([r], np.int64)])]
    return b.node("Expand", [x, b.node("Concat", parts, axis=0)])


@_a("broadcast_indices")
def _broadcast_indices(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Identity", [_broadcast(b, a["i"], a["data"], k["axis"], a["i"])], s.out)


@_a("broadcast_data")
def _broadcast_data(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    return b.node("Identity", [_broadcast(b, a["x"], a["i"], k["axis"], a["x"])], s.out)


_ONNX_ATTRS = {"axis", "batch_dims", "reduction"}


def _op(b: Builder, s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
    if not s.name.startswith("onnx."):
        raise UnsupportedError(f"onnx export: step {s.name} is not an ONNX op")
    name = s.name.split(".", 1)[1]
    order = ["data", "indices", "updates"]
    attrs = {key: v for key, v in k.items() if key in _ONNX_ATTRS and not (key == "reduction" and v == "none")}
    return b.node(name, [a[p] for p in order if p in a], s.out, **attrs)


def _as_array(v: Any) -> Array:
    return np.asarray(v)


def build_model(t: Translation, example: dict[str, Any]) -> Any:
    """The ONNX model of ``t`` for an example call (its ranks, dtypes and index-tuple lengths)."""
    if t.target != "onnx":
        raise UnsupportedError(f"onnx export: the translation targets {t.target}, not onnx")
    opset = max([int(dict(s.attrs).get("opset") or 18) for s in t.steps if s.kind == "op"] + [13])
    b = Builder(opset)
    from ..dialects._registry import get_op
    from .ir import ADAPTERS as _AD  # noqa: F401  (the NumPy definitions evaluate the example)

    inputs = []
    for name in t.source.inputs:
        v = _as_array(example[name])
        b.vals[name] = v
        dims: list[Any] = [f"{name}_d{j}" for j in range(v.ndim)]
        if v.ndim and name in _nd_index_inputs(t):
            dims[-1] = int(v.shape[-1])
        inputs.append(b.helper.make_tensor_value_info(name, b.elem_type(v.dtype), dims))
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
    out = t.program.output
    ov = _as_array(b.vals[out])
    outputs = [b.helper.make_tensor_value_info(out, b.elem_type(ov.dtype), [f"out_d{j}" for j in range(ov.ndim)])]
    graph = b.helper.make_graph(b.nodes, "translated", inputs, outputs, b.inits)
    model = b.helper.make_model(graph, opset_imports=[b.helper.make_opsetid("", opset)],
                                producer_name="gatherscatter.translate")
    model.ir_version = min(model.ir_version, 10)
    b.onnx.checker.check_model(model, full_check=True)
    return model


def _nd_index_inputs(t: Translation) -> set[str]:
    c = t.source.canonical
    if c.family not in ("gather_nd", "scatter_nd"):
        return set()
    return {n for n in t.source.inputs if n in ("indices", "index", "idx") or n == c.indices}


def default_example(t: Translation) -> dict[str, Any]:
    """The first in-range generated case for ``t``'s source that the source op accepts."""
    from .verify import sample_cases

    for case in sample_cases(t.source, n=24, seed=0):
        if case.kind != "plain":
            continue
        try:
            t.run_source(**case.args)
        except Exception:
            continue
        return case.args
    raise UnsupportedError(f"onnx export: no example input found for {t.source.op}")


def default_model(t: Translation) -> Any:
    """:func:`build_model` for :func:`default_example`."""
    return build_model(t, default_example(t))


def script(t: Translation) -> str:
    """A Python script that rebuilds ``t``'s ONNX graph with onnx.helper (for the default example's ranks)."""
    model = default_model(t)
    from onnx import helper

    lines = ["import numpy as np", "import onnx", "from onnx import TensorProto, helper, numpy_helper", "",
             "nodes = ["]
    for n in model.graph.node:
        attrs = ", ".join(f"{a.name}={helper.get_attribute_value(a)!r}" for a in n.attribute
                          if a.type != a.TENSOR)
        tensor = [a for a in n.attribute if a.type == a.TENSOR]
        if tensor:
            v = __import__("onnx").numpy_helper.to_array(tensor[0].t)
            attrs = (attrs + ", " if attrs else "") + \
                f"value=numpy_helper.from_array(np.array({v.tolist()!r}, dtype=np.{v.dtype}))"
        lines.append(f"    helper.make_node({n.op_type!r}, {list(n.input)!r}, {list(n.output)!r}"
                     + (f", {attrs}" if attrs else "") + "),")
    lines.append("]")
    lines.append("inits = [")
    for init in model.graph.initializer:
        v = __import__("onnx").numpy_helper.to_array(init)
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
