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

How it works (the canonical call, the target's plan, the proof): ``docs/translation.md``
(:mod:`.coverage` generates it).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp, divergences, get_op
from ..dialects.onnx._common import NEWEST_OPSET
from ..errors import ArgumentError, UnsupportedError
from .ir import ADAPTERS, Program, Step
from .model import WHEN, Canonical, Residual, Source, TargetPlan
from .onnx_export import build_model, default_model
from .plan import Names
from .targets import TARGETS, plan_target
from .verify import VerifyReport, verify

__all__ = ["ADAPTERS", "Canonical", "Residual", "Step", "Translation", "VerifyReport", "translate"]


#: the module generating each target's code (``generate(t) -> str``); the other targets' is codegen_python
CODE_MODULES = {"onnx": "onnx_export", "openvino": "codegen_openvino", "tflite": "targets.tflite"}


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
    def planned_residuals(self) -> list[Residual]:
        """The residuals of the description and the target plan (what :meth:`verify` may explain a difference
        with: both sides run through gatherscatter's dialects)."""
        return list(dict.fromkeys(self.source.residuals + self.plan.residuals))

    @property
    def residuals(self) -> list[Residual]:
        """What stays different (structured): the source's own quirks, the target's gaps, and the source op's
        recorded divergences from its real framework (:func:`source_divergences`)."""
        return list(dict.fromkeys(self.planned_residuals + source_divergences(self.op, self.source)))

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
        module = importlib.import_module(f"{__name__}.{CODE_MODULES.get(self.target, 'codegen_python')}")
        return str(module.generate(self))

    @property
    def verdict(self) -> str:
        """One line on exactness, true to the divergences listed with it: ``exact: yes`` only when there are none.

        >>> import gatherscatter as gs
        >>> gs.translate("torch.gather", to="onnx", dim=0).verdict
        'exact: except when an index is negative (see the divergences)'
        >>> gs.translate(gs.scatter_nd, to="numpy", reduction="add").verdict
        'exact: yes'
        """
        if not self.exact:
            return "exact: no (the closest translation; see the divergences)"
        if not self.residuals:
            return "exact: yes"
        conds = list(dict.fromkeys(WHEN[r.when] for r in self.residuals))
        return f"exact: except when {' or when '.join(conds)} (see the divergences)"

    @property
    def onnx_model(self) -> Any:
        """The translation as an ``onnx.ModelProto`` (``to='onnx'``) for float32 data and updates and int64
        indices (where the source op takes them), every dim symbolic except an index-tuple length the graph
        depends on. Other dtypes or ranks: :meth:`to_onnx`. Needs the ``onnx`` extra."""
        return default_model(self)

    def to_onnx(self, *, dtypes: dict[str, Any] | None = None, **example: Any) -> Any:
        """An ``onnx.ModelProto`` for the caller's call: ``to_onnx(**example)`` takes the ranks and dtypes of
        ``example`` (every source argument, as arrays); ``to_onnx(dtypes={'data': 'int32'})`` the default
        example with those inputs in those dtypes. Needs the ``onnx`` extra.

        >>> import numpy as np, gatherscatter as gs
        >>> t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="sum")
        >>> [i.type.tensor_type.elem_type for i in t.to_onnx(dtypes={"input": "int32", "src": "int32"}).graph.input]
        [6, 7, 6]
        """
        if dtypes is not None and example:
            raise ArgumentError(f"to_onnx of {self.source.op}: give an example call or dtypes=, not both")
        return build_model(self, example) if example else default_model(self, dtypes)

    def run(self, **args: Any) -> np.ndarray[Any, Any]:
        """Run the translated program (through gatherscatter's dialects) on the source op's arguments."""
        if set(args) != set(self.source.inputs):
            raise ArgumentError(f"translation of {self.source.op}: takes {', '.join(self.source.inputs)}; "
                                f"got {', '.join(sorted(args))}")
        return self.program.run(args)

    def run_source(self, **args: Any) -> np.ndarray[Any, Any]:
        """Run the source op itself with its attributes."""
        return self.op(**args, **self.source.attrs)

    def verify(self, n: int = 200, seed: int = 0) -> VerifyReport:
        """Run source and translation on ``n`` generated cases (negative, duplicate, out-of-range, empty, 0-d)."""
        return verify(self.run_source, self.program, self.source, self.planned_residuals, n=n, seed=seed)

    def verify_source(self, n: int = 200, seed: int = 0) -> VerifyReport:
        """Check the source description itself: the source op against its canonical program."""
        canon = Program(self.source.inputs, self.source.steps())
        return verify(self.run_source, canon, self.source, self.source.residuals, n=n, seed=seed)

    def plan_text(self) -> str:
        """The plan: source call, canonical call, steps with their reasons, divergences."""
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.source.attrs.items())
        lines = [f"{self.source.op}({', '.join(self.source.inputs)}{', ' if attrs else ''}{attrs})"
                 f"  ->  {self.target}" + (f" (version {self.version})" if self.version is not None else ""),
                 *[f"  first:   {c.describe()}" for c in self.source.before],
                 f"  meaning: {self.source.canonical.describe()}", "  steps:"]
        lines += [f"    {s.describe()}" + (f"    # {s.why}" if s.why else "") for s in self.steps]
        lines.append("  divergences:" if self.residuals else "  divergences: none (exact)")
        lines += [f"    - {d}" for d in self.divergences]
        return "\n".join(lines)

    __str__ = plan_text


def source_divergences(op: DialectOp, source: Source) -> list[Residual]:
    """The recorded divergences of ``op`` from its real framework (``divergences(op)``, each with ``when=``) that
    apply to this source call, as residuals: those of the call's op version (``versions``), with a condition on
    the inputs (not ``always``: those name arguments a call opts into) the description does not already state.

    >>> import gatherscatter as gs
    >>> t = gs.translate("jax.take", to="onnx", axis=0)
    >>> any("int32" in r.source for r in source_divergences(t.op, t.source))
    True
    """
    version = _op_version(op, source.attrs)
    stated = {r.when for r in source.residuals}
    applies = [d for d in divergences(op) if d.when and d.when[0] not in ("always", *stated)
               and (d.versions == "all" or version in [v.strip() for v in d.versions.split(",")])]
    return list(dict.fromkeys(d.residual() for d in applies))


def _op_version(op: DialectOp, attrs: dict[str, Any]) -> str | None:
    """The version of ``op`` a call with ``attrs`` runs (ONNX: the newest op version at its opset; the default:
    the newest), as the registry spells it."""
    kw, versions = op.info.version_kw, [str(v) for v in op.info.versions]
    if not kw or not versions:
        return None
    asked = attrs.get(kw)
    if asked is None:
        default = inspect.signature(op).parameters.get(kw)
        asked = None if default is None else default.default
    if asked is None or not all(v.isdigit() for v in versions):
        return versions[-1] if asked is None else str(asked)
    known = [v for v in versions if int(v) <= int(asked)]
    return known[-1] if known else versions[0]


def translate(op: Any, to: str, *, version: Any = None, op_version: Any = None, **attrs: Any) -> Translation:
    """Translate ``op`` (``'mxnet.gather_nd'`` or ``gs.mxnet.gather_nd``) called with ``attrs`` into ``to``.

    ``to`` is a framework (``onnx``, ``torch``, ``tensorflow``, ``tflite``, ``jax``,
    ``lax`` (``jax.lax.gather``/``scatter*`` with dimension numbers, the general
    form), ``numpy``, ``paddle``, ``openvino``, ``mxnet``, ``caffe2``, ``keras``, ``mlx``,
    or ``gatherscatter`` for the neutral API); ``version`` picks the target's
    version where it matters (an ONNX opset, default the newest; a Keras backend, default 'tensorflow').
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
    version = _check_version(op, to, version)
    _check_attrs(op, attrs)
    o = get_op(op)
    try:  # the canonical form the op states in its own record (dialects/_record.py)
        src = o.record.describe(**attrs)
    except TypeError as e:
        raise ArgumentError(f"translate {o.info.qualname}: {e}") from None
    names = Names()
    plan = plan_target(to, src.canonical, names, version)
    src = getattr(importlib.import_module(f"{__name__}.targets.{TARGETS[to]}"), "settle", lambda d: d)(src)  # TFLite
    first: list[Step] = []
    for c in src.before:  # canonical calls that run first (a gather feeding the main call), planned alike
        p = plan_target(to, c, names, version)
        first += p.steps
        plan.residuals += [r for r in p.residuals if r not in plan.residuals]
        plan.exact = plan.exact and p.exact
    program = Program(src.inputs, _drop_repeated_casts(first + src.pre + plan.steps + src.post))
    return Translation(src, to, version, plan, program)


def _drop_repeated_casts(steps: list[Step]) -> list[Step]:
    """Drop a ``cast`` of a value a ``cast`` to the same dtype produced (the source's layout adapters and the
    target planner may both cast indices to int64); later steps read the first cast's value."""
    casts: dict[str, Any] = {}  # the value each cast produced -> its dtype
    rename: dict[str, str] = {}
    out: list[Step] = []
    for step in steps:
        step = replace(step, args=tuple((k, rename.get(v, v)) for k, v in step.args))
        if step.kind == "adapter" and step.name == "cast":
            x, dtype = step.arg_map["x"], step.attr_map.get("dtype")
            if x in casts and casts[x] == dtype:
                rename[step.out] = x
                continue
            casts[step.out] = dtype
        out.append(step)
    if steps and steps[-1].out in rename:  # the output was a dropped cast: the first cast binds its name
        first = rename[steps[-1].out]
        out = [replace(s, out=steps[-1].out) if s.out == first else
               replace(s, args=tuple((k, steps[-1].out if v == first else v) for k, v in s.args)) for s in out]
    return out


#: targets with versions: what their version names (ONNX/OpenVINO opsets, Keras backends)
_TARGET_VERSIONS = {"onnx": "opset", "openvino": "opset", "keras": "backend"}


def _known_versions(to: str) -> tuple[int, int, int]:
    """``(oldest, newest, default)`` opset of a versioned target (OpenVINO 2026.4 knows opset1 to opset17:
    dialects/openvino/_common.py)."""
    default = importlib.import_module(f"{__name__}.targets.{to}").DEFAULT_OPSET
    return 1, NEWEST_OPSET if to == "onnx" else 17, int(default)


def _check_version(op: Any, to: str, version: Any) -> Any:
    """The target ``version`` as an int (ONNX/OpenVINO opsets), or UnsupportedError naming what is known.

    >>> import gatherscatter as gs
    >>> gs.translate("torch.gather", to="onnx", dim=0, version="abc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gatherscatter.errors.UnsupportedError: translate torch.gather to onnx: version='abc' is not an opset number; ...
    """
    if version is None:
        return None
    qual = get_op(op).info.qualname
    kind = _TARGET_VERSIONS.get(to)
    if kind is None:
        if to not in frameworks():
            return version  # plan_target names the unknown target
        raise UnsupportedError(f"translate {qual} to {to}: the {to} target has no versions to choose; "
                               f"version= applies to {', '.join(sorted(_TARGET_VERSIONS))} (got {version!r})")
    if kind == "backend":  # Keras: the KERAS_BACKEND the code runs under (keras.ops differ by backend)
        from ..dialects.keras import BACKENDS

        if version not in BACKENDS:
            raise UnsupportedError(f"translate {qual} to keras: version={version!r} is not a Keras backend; "
                                   f"expected one of {', '.join(BACKENDS)} (default 'tensorflow', Keras' own)")
        return version
    lo, hi, default = _known_versions(to)
    known = f"{to} opsets are {lo} to {hi} (the default is the newest planned for, {default})"
    try:
        n = int(version) if isinstance(version, (int, np.integer, str)) and not isinstance(version, bool) else None
    except ValueError:
        n = None
    if n is None or not lo <= n <= hi:
        raise UnsupportedError(f"translate {qual} to {to}: " + (f"version={version!r} is not an opset number; "
                               if n is None else f"opset {n} is not one gatherscatter knows; ") + known)
    return n


def _check_attrs(op: Any, attrs: dict[str, Any]) -> None:
    """Unknown or missing attributes: an ArgumentError naming them and the op's attributes."""
    o = get_op(op)
    qual, params = o.info.qualname, inspect.signature(o.record.describe).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return  # an op without a description (describe() says so) or taking any attribute
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
    return sorted(TARGETS)
