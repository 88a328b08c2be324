"""The translation IR: a straight-line program of op calls and small adapters.

A :class:`Program` is a list of :class:`Step` objects over named values. The
program's inputs are the *source* op's tensor arguments (``input``, ``index``,
``src`` for ``torch.scatter_reduce``); every step binds one new name; the
last step's name is the output.

Two kinds of steps:

``op``
    a call of a registered op (``onnx.ScatterND``, ``torch.gather``, the
    neutral ``gatherscatter.scatter_nd``) with tensor arguments taken from
    named values and the rest fixed as attributes;
``adapter``
    one of a closed set of small tensor functions (move an axis, cast,
    normalise negatives, clip, zeros, ...), each written once in :mod:`.adapters`
    against a vocabulary of array primitives that every target implements (NumPy
    here, for :meth:`Program.run`; Python source per framework; OpenVINO calls;
    ONNX nodes). So the same program runs here, prints as source code, and
    exports as an ONNX graph.

Running a program evaluates op steps through gatherscatter's own dialects,
which are verified against the real frameworks: ``Program.run`` is therefore a
faithful model of the translated code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ..dialects._record import ADAPTER_PARAMS, Step
from .adapters import DEFS, NUMPY, default_fill_value, identity_value

__all__ = ["ADAPTERS", "Adapter", "Program", "Step", "default_fill_value", "identity_value"]

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Adapter:
    """A small tensor function with a NumPy implementation (the definition)."""

    name: str
    params: tuple[str, ...]
    run: Callable[..., Any]
    doc: str


#: every adapter, written once in translate/adapters.py and run here with NumPy
ADAPTERS: dict[str, Adapter] = {
    name: Adapter(name, ADAPTER_PARAMS[name], partial(fn, NUMPY), (fn.__doc__ or "").strip())
    for name, fn in DEFS.items()}


@dataclass
class Program:
    """Steps over named values; ``inputs`` are the source op's tensor parameters."""

    inputs: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)

    @property
    def output(self) -> str:
        return self.steps[-1].out if self.steps else self.inputs[0]

    def run(self, env: Mapping[str, Any]) -> Array:
        """Evaluate with gatherscatter's dialects (op steps) and NumPy (adapters)."""
        from ..dialects._registry import get_op

        values: dict[str, Any] = dict(env)
        for step in self.steps:
            args = {k: values[v] for k, v in step.args}
            if step.kind == "op":
                values[step.out] = get_op(step.name)(**args, **step.attr_map)
            else:
                values[step.out] = ADAPTERS[step.name].run(*args.values(), **step.attr_map)
        return np.asarray(values[self.output])

    def ops(self) -> list[str]:
        """The op qualnames called, in order."""
        return [s.name for s in self.steps if s.kind == "op"]
