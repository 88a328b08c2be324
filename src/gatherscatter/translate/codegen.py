"""Source code for a translation: one emitter per (target, step) pair.

Python targets (numpy, torch, tensorflow, jax, paddle, mxnet) get a function
``translated(<source inputs>)`` whose body is one line per step (a few lines
for NumPy's in-place functions, which run on a copy); OpenVINO gets a
function building an ``ov.Model`` from opset calls (:mod:`.codegen_openvino`);
ONNX gets a script that builds the graph with ``onnx.helper`` (the same graph
as :meth:`Translation.to_onnx`).

Emitters are registered per target with :func:`emitter`: ``ADAPTER_EMIT[target][name]``
and ``OP_EMIT[target][qualname]`` map a step to a Python expression (or to a
list of statements that bind the step's output); a step whose op belongs to
the target but has no specific emitter is printed as a plain call
``<module>.<name>(<tensors in signature order>, <attrs>)``. Adapters too long
for one readable expression call small helper functions written in the
target's own API (``HELPERS[target][name]``); the generated code defines the
helpers it uses, so it needs nothing but the framework.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dialects._registry import get_op
from ..errors import UnsupportedError
from .ir import Step

if TYPE_CHECKING:
    from . import Translation

__all__ = [
    "ADAPTER_EMIT",
    "HEADER",
    "HELPERS",
    "HELPER_CALLS",
    "MODULE",
    "OP_EMIT",
    "compile_function",
    "emitter",
    "function_code",
    "generate",
    "plain_call",
    "register_helper_calls",
]

Emit = Callable[[Step, dict[str, str], dict[str, Any]], "str | list[str]"]
"""An emitter: ``(step, tensor args, attrs) -> expression`` (or a list of statements binding ``step.out``)."""

#: ``import`` lines of each Python target
HEADER: dict[str, str] = {
    "numpy": "import numpy as np",
    "gatherscatter": "import numpy as np\nimport gatherscatter as gs",
    "torch": "import torch",
}
#: the module prefix of a target's ops in generated code
MODULE: dict[str, str] = {"numpy": "np", "gatherscatter": "gs", "torch": "torch"}
#: helper functions (name -> definition) a target's emitted code may call
HELPERS: dict[str, dict[str, str]] = {}
#: attributes of our dialect signatures that are not the framework's (dropped from generated calls)
NOT_FRAMEWORK_ATTRS = frozenset({"opset", "version", "device", "duplicates", "bad_indices_policy"})

ADAPTER_EMIT: dict[str, dict[str, Emit]] = {}
OP_EMIT: dict[str, dict[str, Emit]] = {}


def emitter(target: str, name: str, *, op: bool = False) -> Callable[[Emit], Emit]:
    """Register the emitter of adapter (or op, ``op=True``) ``name`` for ``target``."""

    def deco(fn: Emit) -> Emit:
        (OP_EMIT if op else ADAPTER_EMIT).setdefault(target, {})[name] = fn
        return fn

    return deco


#: adapters written as a call of a generated helper function of the same name, with the same
#: arguments in every target (each target's ``HELPERS`` defines the function in its own API)
HELPER_CALLS: dict[str, Callable[[dict[str, str], dict[str, Any]], str]] = {
    "divide_counts": lambda a, k: f"_divide_counts({a['total']}, {a['count']}, {a['data']}, "
    f"{k.get('rounding', 'floor')!r})",
    "slice_like": lambda a, k: f"_slice_like({a['x']}, {a['like']})",
    "coordinates": lambda a, k: f"_coordinates({a['i']}, {k['axis']})",
    "stack_last": lambda a, k: f"_stack_last({a['seq']})",
    "unflatten_index": lambda a, k: f"_unflatten_index({a['y']}, {a['i']}, {k['axis']})",
    "take_coordinates": lambda a, k: f"_take_coordinates({a['i']}, {a['data']}, {k['axis']}, "
    f"{k.get('batch_dims') or 0})",
    "nd_coordinates": lambda a, k: f"_nd_coordinates({a['i']}, {a['data']}, {k.get('batch_dims') or 0})",
    "ravel_tuples": lambda a, k: f"_ravel_tuples({a['i']}, {a['data']})",
    "slice_to_index": lambda a, k: f"_slice_to_index({a['x']}, {a['i']}, {k['axis']})",
    "combine": lambda a, k: f"_combine({a['x']}, {a['y']}, {k['reduction']!r})",
    "cycle_to": lambda a, k: f"_cycle_to({a['v']}, {a['i']})",
    "merge_leading": lambda a, k: f"_merge_leading({a['x']}, {k['count']})",
    "moveaxis_block": lambda a, k: f"_moveaxis_block({a['x']}, {a['i']}, {a['data']}, {k['axis']})",
    "positions": lambda a, k: f"_positions({a['w']}, {a['u']}, {a['data']}, {k['axis']}, "
    f"{bool(k.get('circular', False))!r})",
}


def register_helper_calls(target: str) -> None:
    """Register the :data:`HELPER_CALLS` emitters for ``target``."""
    for name, call in HELPER_CALLS.items():

        def emit(step: Step, a: dict[str, str], k: dict[str, Any], call: Any = call) -> str:
            return str(call(a, k))

        emitter(target, name)(emit)


def plain_call(step: Step, args: dict[str, str], attrs: dict[str, Any], module: str, name: str | None = None) -> str:
    """``module.name(t1, t2, ..., attr=value)`` with tensors in the op's signature order."""
    fn = get_op(step.name)
    params = list(inspect.signature(fn.lower).parameters)
    parts = [args[p] for p in params if p in args]
    drop = frozenset() if module == MODULE.get("gatherscatter") else NOT_FRAMEWORK_ATTRS  # the neutral API has them
    parts += [f"{k}={v!r}" for k, v in attrs.items() if k not in drop]
    return f"{module}.{name or fn.info.name}({', '.join(parts)})"


def emit_step(target: str, step: Step) -> list[str]:
    """The statements computing ``step`` in ``target``'s code (they bind ``step.out``)."""
    _load()
    args, attrs = step.arg_map, step.attr_map
    code: str | list[str]
    if step.kind == "op":
        fn = OP_EMIT.get(target, {}).get(step.name)
        if fn is not None:
            code = fn(step, args, attrs)
        else:
            fw = step.name.rsplit(".", 1)[0] if step.name.startswith("jax.lax.") else step.name.split(".", 1)[0]
            if fw != target and not (target == "gatherscatter" and fw == "gatherscatter"):
                raise UnsupportedError(f"codegen {target}: no emitter for op {step.name}")
            if fw not in MODULE:
                raise UnsupportedError(f"codegen {target}: no emitter for op {step.name}")
            code = plain_call(step, args, attrs, MODULE[fw])
    else:
        afn = ADAPTER_EMIT.get(target, {}).get(step.name)
        if afn is None:
            raise UnsupportedError(f"codegen {target}: no emitter for adapter {step.name}")
        code = afn(step, args, attrs)
    return [f"{step.out} = {code}"] if isinstance(code, str) else list(code)


def helpers_for(target: str, body: str) -> list[str]:
    """Definitions of the helpers ``body`` calls (and the helpers those call), in a stable order."""
    table = HELPERS.get(target, {})
    used: list[str] = []
    text = body
    changed = True
    while changed:
        changed = False
        for name in sorted(table):
            if name not in used and re.search(rf"\b{re.escape(name)}\(", text):
                used.append(name)
                text += "\n" + table[name]
                changed = True
    return [table[n] for n in sorted(used)]


def function_code(target: str, inputs: Sequence[str], steps: Sequence[Step], output: str, doc: str = "",
                  name: str = "translated") -> str:
    """A complete module: imports, the helpers used, and ``def name(inputs): <steps>; return output``."""
    _load()
    if target not in HEADER:
        raise UnsupportedError(f"codegen: no Python code generator for target {target!r}")
    body: list[str] = []
    for step in steps:
        if step.why:
            body.append(f"# {step.why}")
        body += emit_step(target, step)
    prologue = PROLOGUE[target](list(inputs)) if target in PROLOGUE else []
    epilogue = EPILOGUE[target](output) if target in EPILOGUE else f"return {output}"
    text = "\n".join(body)
    lines = [HEADER[target], ""]
    for h in helpers_for(target, text):
        lines += ["", h.rstrip("\n"), ""]
    lines += ["", f"def {name}({', '.join(inputs)}):"]
    if doc:
        lines.append(f'    """{doc}"""')
    lines += [f"    {line}" for line in prologue + body + [epilogue]]
    return "\n".join(lines) + "\n"


#: statements run first in a target's function (MXNet: inputs to host NumPy arrays)
PROLOGUE: dict[str, Callable[[list[str]], list[str]]] = {}
#: the return statement of a target's function
EPILOGUE: dict[str, Callable[[str], str]] = {}


def generate(t: Translation) -> str:
    """The code of translation ``t`` for its target."""
    _load()
    if t.target == "onnx":
        from .onnx_export import script

        return script(t)
    if t.target == "openvino":
        from .codegen_openvino import script as ov_script

        return str(ov_script(t))
    if t.target not in HEADER:
        raise UnsupportedError(f"codegen: no code generator for target {t.target!r}")
    attrs = ", ".join(f"{k}={v!r}" for k, v in t.source.attrs.items())
    doc = f"{t.source.op}({attrs}) in {t.target}, generated by gatherscatter.translate."
    return function_code(t.target, t.source.inputs, t.steps, t.program.output, doc)


def _load() -> None:
    from . import codegen_openvino, codegen_python  # noqa: F401


def compile_function(code: str, name: str = "translated") -> Callable[..., Any]:
    """Execute generated ``code`` (our own output) and return its function ``name`` (for tests and demos)."""
    namespace: dict[str, Any] = {}
    exec(compile(code, f"<gatherscatter.translate:{name}>", "exec"), namespace)
    return namespace[name]  # type: ignore[no-any-return]
