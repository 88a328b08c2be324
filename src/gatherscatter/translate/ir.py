"""The translation IR: a straight-line program of op calls and small adapters.

A :class:`Program` is a list of :class:`Step` objects over named values. The
program's inputs are the *source* op's tensor arguments (``input``, ``index``,
``src`` for ``torch.scatter_reduce``); every step binds one new name; the
last step's name is the output. A step is an ``op`` (a call of a registered op
with tensor arguments taken from named values and the rest fixed as
attributes) or an ``adapter`` (one of the small tensor functions of
:mod:`.adapters`, written once against a vocabulary every target implements).

Running a program evaluates op steps through gatherscatter's own dialects,
which are verified against the real frameworks, and adapters with NumPy:
``Program.run`` is therefore a faithful model of the translated code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ..dialects._record import Step
from .adapters import DEFS, NUMPY

__all__ = ["ADAPTERS", "Adapter", "Program", "Step"]


@dataclass(frozen=True)
class Adapter:
    """A small tensor function with its NumPy implementation (the definition)."""

    name: str
    run: Callable[..., Any]


#: every adapter, written once in translate/adapters.py and run here with NumPy
ADAPTERS: dict[str, Adapter] = {name: Adapter(name, partial(fn, NUMPY)) for name, fn in DEFS.items()}


@dataclass
class Program:
    """Steps over named values; ``inputs`` are the source op's tensor parameters."""

    inputs: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)

    @property
    def output(self) -> str:
        return self.steps[-1].out if self.steps else self.inputs[0]

    def run(self, env: Mapping[str, Any]) -> np.ndarray[Any, Any]:
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
