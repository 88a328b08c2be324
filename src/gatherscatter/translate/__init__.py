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

import inspect
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


def translate(op: Any, to: str, *, version: Any = None, op_version: Any = None, **attrs: Any) -> Translation:
    """Translate ``op`` (``'mxnet.gather_nd'`` or ``gs.mxnet.gather_nd``) called with ``attrs`` into ``to``.

    ``to`` is a framework (``onnx``, ``torch``, ``tensorflow``, ``jax``,
    ``numpy``, ``paddle``, ``openvino``, ``mxnet``, ``caffe2``, or
    ``gatherscatter`` for the neutral API); ``version`` picks the target's
    version where it matters (an ONNX opset; default: the newest).
    ``attrs`` are the source op's non-tensor arguments (``axis``, ``dim``,
    ``reduce``, ``include_self``, ``batch_dims``, ``mode`` ...); the source
    op's own version (OpenVINO ``version=8``) is ``op_version`` since
    ``version`` is the target's (ONNX sources take ``opset=``).

    >>> import gatherscatter as gs
    >>> t = gs.translate("tensorflow.scatter_nd", to="onnx")
    >>> t.ops
    ['onnx.ScatterND']
    >>> [s.name for s in t.steps]
    ['zeros', 'cast', 'onnx.ScatterND']
    >>> t.steps[-1].attr_map["reduction"]
    'add'
    >>> gs.translate(gs.torch.gather, to="onnx", dim=0).divergences
    ['differs when an index is negative: source raises, target wraps it once (i + s)']
    >>> gs.translate("torch.gather", to="onnx", axis=0)
    Traceback (most recent call last):
    ...
    gatherscatter.errors.ArgumentError: translate torch.gather: unknown attribute 'axis'; its attributes are: dim
    """
    if op_version is not None:
        attrs = {**attrs, "version": op_version}
    _check_attrs(op, attrs)
    src = describe(op, attrs)
    names = Names()
    plan = plan_target(to, src.canonical, names, version)
    program = Program(src.inputs, _drop_repeated_casts(src.pre + plan.steps + src.post))
    return Translation(src, to, version, plan, program)


def _drop_repeated_casts(steps: list[Step]) -> list[Step]:
    """Drop a ``cast`` of a value a ``cast`` to the same dtype produced (the source's layout adapters and the
    target planner may both cast indices to int64); later steps read the first cast's value."""
    from dataclasses import replace

    produced: dict[str, Step] = {}
    rename: dict[str, str] = {}
    out: list[Step] = []
    for step in steps:
        step = replace(step, args=tuple((k, rename.get(v, v)) for k, v in step.args))
        if step.kind == "adapter" and step.name == "cast":
            prev = produced.get(step.arg_map["x"])
            if prev is not None and prev.kind == "adapter" and prev.name == "cast" and \
                    prev.attr_map.get("dtype") == step.attr_map.get("dtype"):
                rename[step.out] = step.arg_map["x"]
                continue
        produced[step.out] = step
        out.append(step)
    if steps and steps[-1].out in rename:  # the output was a dropped cast: the first cast binds its name
        first = rename[steps[-1].out]
        out = [replace(s, out=steps[-1].out) if s.out == first else
               replace(s, args=tuple((k, steps[-1].out if v == first else v) for k, v in s.args)) for s in out]
    return out


def _check_attrs(op: Any, attrs: dict[str, Any]) -> None:
    """Unknown or missing attributes: an ArgumentError naming them and the op's attributes."""
    from .sources import SOURCES, _load

    _load()
    qual = get_op(op).info.qualname
    fn = SOURCES.get(qual)
    if fn is None:
        return  # describe() says there is no description
    params = inspect.signature(fn).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    known = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    listed = ", ".join(known) if known else "none"
    unknown = [k for k in attrs if k not in known]
    if unknown:
        raise ArgumentError(f"translate {qual}: unknown attribute {', '.join(map(repr, unknown))}; "
                            f"its attributes are: {listed}")
    missing = [n for n in known if params[n].default is inspect.Parameter.empty and n not in attrs]
    if missing:
        raise ArgumentError(f"translate {qual}: attribute {', '.join(map(repr, missing))} is required "
                            f"(its attributes are: {listed})")


def frameworks() -> list[str]:
    """The target frameworks with a planner."""
    from .targets import _load

    _load()
    return sorted(TARGETS)
