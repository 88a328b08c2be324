"""Source code for a translation: the machinery every code target shares.

A :class:`CodeTarget` is one target's complete table: its ``import`` lines, the module prefix of its ops, the
helper functions its code may call, and an emitter per adapter and per op, mapping a step to a Python expression
(or to statements binding the step's output). :mod:`.codegen_python` and :mod:`.codegen_openvino` build theirs
(``Translation.code`` picks the module); this module imports neither. An op of the target without an emitter is
printed as a plain call ``<module>.<name>(<tensors in signature order>, <attrs>)``; the generated code defines
the helpers it calls, so it needs nothing but the framework.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..dialects._registry import get_op
from ..errors import UnsupportedError
from .ir import Step

__all__ = ["SHARED_HELPERS", "CodeTarget", "Emit", "adapter_emitters", "collect", "compile_function", "emit_step",
           "function_code", "helpers_for", "plain_call"]

Emit = Callable[[Step, dict[str, str], dict[str, Any]], "str | list[str]"]
"""An emitter: ``(step, tensor args, attrs) -> expression`` (or a list of statements binding ``step.out``)."""

#: attributes of our dialect signatures that are not the framework's (dropped from generated calls)
NOT_FRAMEWORK_ATTRS = frozenset({"opset", "version", "device", "duplicates", "bad_indices_policy"})


@dataclass
class CodeTarget:
    """One code target: imports, op module prefix, helper definitions, adapter and op emitters."""

    name: str
    header: str
    module: str
    helpers: dict[str, str]
    adapters: dict[str, Emit]
    ops: dict[str, Emit] = field(default_factory=dict)
    prologue: Callable[[list[str]], list[str]] | None = None  # statements run first (MXNet: inputs to NumPy)
    epilogue: Callable[[str], str] | None = None  # the return statement
    versioned: Callable[[Any], str] | None = None  # the header for a plan's version (Keras: its backend)


def collect(table: dict[str, Emit]) -> Callable[[str], Callable[[Emit], Emit]]:
    """A decorator factory adding emitters to ``table`` by name (``@em('cast')``)."""

    def em(name: str) -> Callable[[Emit], Emit]:
        def deco(fn: Emit) -> Emit:
            table[name] = fn
            return fn

        return deco

    return em


#: helper functions every Python-syntax target shares (plain Python and NumPy: no framework call)
SHARED_HELPERS: dict[str, str] = {
    "_identity": '''def _identity(dtype, reduction):
    """The neutral element of a scatter reduction in a dtype (what an include_self=False pre-fill writes)."""
    dt = np.dtype(dtype)
    if reduction in ("add", "sub", "mean"):
        return 0
    if reduction == "mul":
        return 1
    if dt.kind == "b":
        return reduction == "min"
    if dt.kind in "iu":
        return int(np.iinfo(dt).min if reduction == "max" else np.iinfo(dt).max)
    return float("-inf") if reduction == "max" else float("inf")
''',
    "_default_fill": '''def _default_fill(dtype):
    """JAX's fill value for out-of-range reads: NaN, iinfo.min (signed), iinfo.max (unsigned), True (bool)."""
    dt = np.dtype(dtype)
    if dt.kind in "fc":
        return float("nan")
    if dt.kind == "b":
        return True
    return int(np.iinfo(dt).min if dt.kind == "i" else np.iinfo(dt).max)
''',
}


def adapter_emitters(vocab: Any) -> dict[str, Emit]:
    """An emitter for every adapter of :mod:`.adapters`, traced through ``vocab`` (a source-text vocabulary)."""
    from .adapters import DEFS

    def traced(fn: Callable[..., Any]) -> Emit:
        return lambda step, a, k: str(fn(vocab, *a.values(), **k))

    return {name: traced(fn) for name, fn in DEFS.items()}


def plain_call(step: Step, args: dict[str, str], attrs: dict[str, Any], module: str, neutral: bool = False) -> str:
    """``module.name(t1, t2, ..., attr=value)`` with tensors in the op's signature order."""
    fn = get_op(step.name)
    params = list(inspect.signature(fn.lower).parameters)
    parts = [args[p] for p in params if p in args]
    drop = frozenset() if neutral else NOT_FRAMEWORK_ATTRS  # the neutral API has them
    parts += [f"{k}={v!r}" for k, v in attrs.items() if k not in drop]
    return f"{module}.{fn.info.name}({', '.join(parts)})"


def emit_step(target: CodeTarget, step: Step) -> list[str]:
    """The statements computing ``step`` in ``target``'s code (they bind ``step.out``)."""
    fn = (target.ops if step.kind == "op" else target.adapters).get(step.name)
    if fn is None and step.kind == "op" and get_op(step.name).info.framework == target.name:
        fn = partial(plain_call, module=target.module, neutral=target.name == "gatherscatter")
    if fn is None:
        raise UnsupportedError(f"codegen {target.name}: no emitter for {step.kind} {step.name}")
    code = fn(step, step.arg_map, step.attr_map)
    return [f"{step.out} = {code}"] if isinstance(code, str) else list(code)


def helpers_for(target: CodeTarget, body: str) -> list[str]:
    """Definitions of the helpers ``body`` calls (and the helpers those call), in a stable order."""
    table, text = target.helpers, body
    used: set[str] = set()
    while new := {n for n in table if n not in used and re.search(rf"\b{re.escape(n)}\(", text)}:
        used |= new
        text += "".join("\n" + table[n] for n in sorted(new))
    return [table[n] for n in sorted(used)]


def function_code(target: CodeTarget, inputs: Sequence[str], steps: Sequence[Step], output: str, doc: str = "",
                  name: str = "translated", prologue: list[str] | None = None, epilogue: str | None = None) -> str:
    """A complete module: imports, the helpers used, and ``def name(inputs): <steps>; return output`` (the
    target's prologue and return statement unless given)."""
    body: list[str] = []
    for step in steps:
        if step.why:
            body.append(f"# {step.why}")
        body += emit_step(target, step)
    if prologue is None:
        prologue = target.prologue(list(inputs)) if target.prologue else []
    if epilogue is None:
        epilogue = target.epilogue(output) if target.epilogue else f"return {output}"
    lines = [target.header, ""]
    for h in helpers_for(target, "\n".join(body)):
        lines += ["", h.rstrip("\n"), ""]
    lines += ["", f"def {name}({', '.join(inputs)}):"]
    if doc:
        lines.append(f'    """{doc}"""')
    lines += [f"    {line}" for line in prologue + body + [epilogue]]
    return "\n".join(lines) + "\n"


def compile_function(code: str, name: str = "translated") -> Callable[..., Any]:
    """Execute generated ``code`` (our own output) and return its function ``name`` (for tests and demos)."""
    namespace: dict[str, Any] = {}
    exec(compile(code, f"<gatherscatter.translate:{name}>", "exec"), namespace)
    return namespace[name]  # type: ignore[no-any-return]
