"""The op registry, the lowering record, and known-divergence records.

Every framework op lives in one small file and registers itself explicitly with
:func:`dialect_op`, which takes the op's *lowering* function (framework
arguments -> :class:`Lowering`) and returns the public function users call.
The lowering is kept on the public function (``gs.onnx.Gather.lower``) so that
gradients, explanations and translations reuse exactly what the op runs.

Known divergences (where we knowingly differ from a framework, an oracle or a
spec, and why) are data: :func:`divergence` records them with their evidence;
the compatibility page, strict xfails and the translator read them from here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

import numpy as np

from ..backends.dask import has_dask_array
from ..backends.dask import run_op as run_dask
from ..core.context import OpContext
from ..core.gather import gather, owned
from ..core.out import check_out
from ..core.policy import Policy
from ..core.scatter import scatter
from ..core.shape import IndexSpec
from ..errors import ShapeError, UnsupportedError

__all__ = [
    "FAMILIES",
    "DialectOp",
    "Divergence",
    "Lowering",
    "OpInfo",
    "dialect_op",
    "divergence",
    "divergences",
    "get_op",
    "ops",
]

FAMILIES = (
    "gather",
    "gather_elements",
    "gather_nd",
    "scatter_elements",
    "scatter_nd",
    "scatter_axis",
    "general",
)


@dataclass
class Lowering:
    """One framework call, lowered onto a core primitive.

    ``primitive`` is ``"gather"`` or ``"scatter"``; ``data``, ``indices`` (and
    ``updates``) are the arrays the primitive sees (possibly views the dialect
    reshaped or transposed: never written to); ``post`` adapts the primitive's
    result to the framework's output (a reshape, an axis move, a dtype the
    framework returns) and must be linear in the result; ``result`` short-cuts
    ops that need no primitive call (for example an empty tensor); ``out``
    (the neutral API's ``out=``) receives the result of :meth:`run` (rules in
    :mod:`gatherscatter.core.out`; a scatter may be given its own ``data``).
    """

    primitive: Literal["gather", "scatter"]
    data: np.ndarray[Any, Any]
    indices: np.ndarray[Any, Any]
    spec: IndexSpec
    policy: Policy
    ctx: OpContext
    updates: np.ndarray[Any, Any] | None = None
    post: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]] | None = None
    result: np.ndarray[Any, Any] | None = None
    out: np.ndarray[Any, Any] | None = None

    def run_primitive(self, out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
        """The primitive's own output, before ``post`` (written into ``out`` when given)."""
        if self.primitive == "gather":
            return gather(self.data, self.indices, self.spec, self.policy, self.ctx, out=out)
        return scatter(self.data, self.indices, self.updates, self.spec, self.policy, self.ctx, out=out)

    def run(self) -> np.ndarray[Any, Any]:
        """The framework op's output: a new array, never a view of an input (or ``self.out``)."""
        if self.out is not None and self.result is None and self.post is None:
            return self.run_primitive(self.out)
        if self.result is not None:
            res = self.result
        else:
            res = self.run_primitive()
            if self.post is not None:
                res = owned(self.post(res), *self._inputs())
        if self.out is None:
            return res
        names = (self.ctx.data, self.ctx.indices, self.ctx.updates)
        check_out(self.ctx, self.out, res.shape, res.dtype, dict(zip(names, self._inputs(), strict=False)))
        np.copyto(self.out, res)
        return self.out

    def _inputs(self) -> list[np.ndarray[Any, Any]]:
        return [x for x in (self.data, self.indices, self.updates) if x is not None]


@dataclass(frozen=True)
class OpInfo:
    """What the registry knows of one framework op."""

    framework: str
    name: str
    family: str
    kind: Literal["gather", "scatter"]
    versions: tuple[str, ...]
    version_kw: str | None
    differentiable: tuple[str, ...]
    summary: str

    @property
    def qualname(self) -> str:
        """``'onnx.Gather'``."""
        return f"{self.framework}.{self.name}"


class DialectOp(Protocol):
    """A public framework op: callable, with its registry entry and lowering."""

    info: OpInfo
    lower: Callable[..., Lowering]
    __name__: str
    __doc__: str | None

    def __call__(self, *args: Any, **kwargs: Any) -> np.ndarray[Any, Any]: ...


_OPS: dict[str, DialectOp] = {}


def dialect_op(
    framework: str,
    name: str,
    *,
    family: str,
    kind: Literal["gather", "scatter"],
    versions: tuple[int | str, ...] = (),
    version_kw: str | None = None,
    differentiable: tuple[str, ...] = (),
) -> Callable[[Callable[..., Lowering]], DialectOp]:
    """Register a lowering function as the framework op ``framework.name``.

    The returned public function has the lowering's signature and docstring and
    returns ``lower(...).run()``.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown op family {family!r}")

    def deco(lower: Callable[..., Lowering]) -> DialectOp:
        @functools.wraps(lower)
        def public(*args: Any, **kwargs: Any) -> np.ndarray[Any, Any]:
            if has_dask_array(args, kwargs):  # a lazy Dask result (the dask extra)
                return cast(np.ndarray[Any, Any], run_dask(lower, info.qualname, args, kwargs))
            try:
                return lower(*args, **kwargs).run()
            except MemoryError as exc:
                # a MemoryError is never the answer (DESIGN.md): an output (or a view's copy) too large for
                # this machine is a shape the caller can fix
                raise ShapeError(
                    f"{info.qualname}: this call needs an array that cannot be allocated ({exc}); "
                    f"the output (or a copy of an input) is too large"
                ) from None

        doc = (lower.__doc__ or "").strip()
        info = OpInfo(
            framework=framework,
            name=name,
            family=family,
            kind=kind,
            versions=tuple(str(v) for v in versions),
            version_kw=version_kw,
            differentiable=differentiable,
            summary=doc.splitlines()[0] if doc else "",
        )
        op = cast(DialectOp, public)
        op.info = info
        op.lower = lower
        op.__name__ = name
        public.__qualname__ = name
        if info.qualname in _OPS:
            raise ValueError(f"op {info.qualname} registered twice")
        _OPS[info.qualname] = op
        return op

    return deco


def get_op(op: str | Callable[..., Any]) -> DialectOp:
    """The registered op for ``'onnx.Gather'`` or for the function itself."""
    if isinstance(op, str):
        _load_all()
        try:
            return _OPS[op]
        except KeyError:
            raise UnsupportedError(f"unknown op {op!r}; see gatherscatter list for the ops") from None
    info = getattr(op, "info", None)
    if isinstance(info, OpInfo):
        return cast(DialectOp, op)
    raise UnsupportedError(f"{op!r} is not a gatherscatter framework op")


def ops(framework: str | None = None, family: str | None = None) -> list[DialectOp]:
    """Registered ops, optionally of one framework and/or family, in registration order."""
    _load_all()
    return [
        op
        for op in _OPS.values()
        if (framework is None or op.info.framework == framework) and (family is None or op.info.family == family)
    ]


def _load_all() -> None:
    from .. import dialects  # noqa: F401  (imports every dialect module)


@dataclass(frozen=True)
class Divergence:
    """A known, deliberate difference between gatherscatter and a framework, oracle or spec.

    ``op``: our op (``'onnx.GatherElements'``); ``versions``: which of its versions;
    ``case``: the input class (``'index outside [-s, s-1]'``); ``reference``: who
    differs (``'onnx.reference 1.23'``, ``'ONNX spec'``, ``'ORT CPU'``);
    ``theirs`` / ``ours``: what each does; ``evidence``: links, issue numbers or
    the behaviour-matrix section that shows it; ``kind``: ``undefined`` (the
    framework's behaviour is undefined/crashes), ``oracle`` (a reference
    implementation is wrong or lenient), ``spec`` (spec text vs runtime),
    ``device`` (depends on device/compiler), ``choice`` (we chose one of
    several documented behaviours).
    """

    op: str
    case: str
    reference: str
    theirs: str
    ours: str
    evidence: str
    kind: str = "choice"
    versions: str = "all"
    tags: tuple[str, ...] = field(default=())


_DIVERGENCES: list[Divergence] = []


def divergence(**fields: Any) -> Divergence:
    """Record a known divergence (see :class:`Divergence`) and return it."""
    rec = Divergence(**fields)
    _DIVERGENCES.append(rec)
    return rec


def divergences(op: str | None = None) -> list[Divergence]:
    """Known divergences, optionally for one op (``'onnx.GatherElements'``)."""
    _load_all()
    return [d for d in _DIVERGENCES if op is None or d.op == op]
