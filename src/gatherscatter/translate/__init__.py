"""Translate a gather/scatter call between frameworks, and prove it by running both sides.

>>> import gatherscatter as gs
>>> t = gs.translate("mxnet.gather_nd", to="onnx")
>>> t.ops
['onnx.GatherND']
>>> print(t.steps[0].describe())
idx = moveaxis(indices, source=0, destination=-1)
>>> t.run(data=[[0, 1], [2, 3]], indices=[[1, 1, 0], [0, 1, 0]]).tolist()
[2, 3, 0]
>>> t.verify(n=60).ok
True

How it works: the source call is described exactly as one call of the neutral
API with every policy explicit (its *canonical* form, see
:mod:`.model`); the target's planner computes that call with its own ops plus
small adapters (:mod:`.plan`); what no adapter can reproduce is listed in
``t.divergences``. ``t.verify()`` runs the source op and the translated
program through gatherscatter's dialects (each verified against its real
framework) on generated inputs, edge cases included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp, get_op
from ..errors import ArgumentError
from .ir import ADAPTERS, Program, Step
from .model import Canonical, Residual, Source, TargetPlan
from .plan import Names
from .sources import describe
from .targets import TARGETS, plan_target
from .verify import VerifyReport, verify

__all__ = ["ADAPTERS", "Canonical", "Residual", "Step", "Translation", "VerifyReport", "translate"]


@dataclass
class Translation:
    """A planned translation of one source call into a target framework."""

    source: Source
    target: str
    version: Any
    plan: TargetPlan
    program: Program

    @property
    def op(self) -> DialectOp:
        """The source op."""
        return get_op(self.source.op)

    @property
    def steps(self) -> list[Step]:
        """Every step, source layout adapters included, in order."""
        return self.program.steps

    @property
    def ops(self) -> list[str]:
        """The target ops called, in order."""
        return self.program.ops()

    @property
    def residuals(self) -> list[Residual]:
        """What stays different (structured): the source's own quirks and the target's gaps."""
        seen: list[Residual] = []
        for r in self.source.residuals + self.plan.residuals:
            if r not in seen:
                seen.append(r)
        return seen

    @property
    def divergences(self) -> list[str]:
        """The residual divergences, one sentence each."""
        return [str(r) for r in self.residuals]

    @property
    def exact(self) -> bool:
        """True when the translation agrees with the source on every input the source accepts
        with the common dtypes, in-range indices and no duplicate overwrites left unspecified."""
        return self.plan.exact and not any(r.when == "always" for r in self.residuals)

    @property
    def code(self) -> str:
        """Source code for the target (Python for Python frameworks; an onnx.helper script for ONNX)."""
        from .codegen import generate

        return generate(self)

    @property
    def onnx_model(self) -> Any:
        """The translation as an ``onnx.ModelProto`` (``to='onnx'``), for a default example's ranks and dtypes."""
        from .onnx_export import default_model

        return default_model(self)

    def to_onnx(self, **example: Any) -> Any:
        """An ``onnx.ModelProto`` whose inputs have the ranks and dtypes of ``example`` (the source's arguments)."""
        from .onnx_export import build_model

        return build_model(self, example)

    def run(self, **args: Any) -> np.ndarray[Any, Any]:
        """Run the translated program (through gatherscatter's dialects) on the source op's arguments."""
        unknown = set(args) - set(self.source.inputs)
        missing = set(self.source.inputs) - set(args)
        if unknown or missing:
            raise ArgumentError(f"translation of {self.source.op}: takes {', '.join(self.source.inputs)}; "
                                f"got {', '.join(sorted(args))}")
        return self.program.run(args)

    def run_source(self, **args: Any) -> np.ndarray[Any, Any]:
        """Run the source op itself with its attributes."""
        return self.op(**args, **self.source.attrs)

    def verify(self, n: int = 200, seed: int = 0) -> VerifyReport:
        """Run source and translation on ``n`` generated cases (negative, duplicate, out-of-range, empty, 0-d)."""
        return verify(self.run_source, self.program, self.source, self.residuals, n=n, seed=seed)

    def verify_source(self, n: int = 200, seed: int = 0) -> VerifyReport:
        """Check the source description itself: the source op against its canonical program."""
        canon = Program(self.source.inputs, self.source.pre + [self.source.canonical.step()] + self.source.post)
        return verify(self.run_source, canon, self.source, self.source.residuals, n=n, seed=seed)

    def plan_text(self) -> str:
        """The plan: source call, canonical call, steps with their reasons, divergences."""
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.source.attrs.items())
        lines = [f"{self.source.op}({', '.join(self.source.inputs)}{', ' if attrs else ''}{attrs})"
                 f"  ->  {self.target}" + (f" (version {self.version})" if self.version is not None else ""),
                 f"  meaning: {self.source.canonical.describe()}", "  steps:"]
        for s in self.steps:
            lines.append(f"    {s.describe()}" + (f"    # {s.why}" if s.why else ""))
        lines.append("  divergences:" if self.residuals else "  divergences: none (exact)")
        lines += [f"    - {d}" for d in self.divergences]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.plan_text()


def translate(op: Any, to: str, *, version: Any = None, **attrs: Any) -> Translation:
    """Translate ``op`` (``'mxnet.gather_nd'`` or ``gs.mxnet.gather_nd``) called with ``attrs`` into ``to``.

    ``to`` is a framework (``onnx``, ``torch``, ``tensorflow``, ``jax``,
    ``numpy``, ``paddle``, ``openvino``, ``mxnet``, ``caffe2``, or
    ``gatherscatter`` for the neutral API); ``version`` picks the target's
    version where it matters (an ONNX opset; default: the newest).
    ``attrs`` are the source op's non-tensor arguments (``axis``, ``dim``,
    ``reduce``, ``include_self``, ``batch_dims``, ``mode`` ...).
    """
    src = describe(op, attrs)
    names = Names()
    plan = plan_target(to, src.canonical, names, version)
    program = Program(src.inputs, src.pre + plan.steps + src.post)
    return Translation(src, to, version, plan, program)


def frameworks() -> list[str]:
    """The target frameworks with a planner."""
    from .targets import _load

    _load()
    return sorted(TARGETS)
