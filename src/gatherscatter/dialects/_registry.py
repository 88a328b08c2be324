"""The op registry: each op's record, its lowering, and its known-divergence records.

Every framework op lives in one small file and registers itself explicitly with
:func:`dialect_op`, which takes the op's *lowering* function (framework
arguments -> :class:`Lowering`) and its *record*
(:class:`~gatherscatter.dialects._record.OpRecord`, built from
``describe=``: the op's canonical form without data), and returns the public
function users call. Both stay on the public function (``gs.onnx.Gather.lower``,
``gs.onnx.Gather.record``) so that gradients, explanations, translations and
the fuzzer read what the op is from the op itself, never from a list keyed by
its name.

Adding an op is one file (plus its tests and oracle)::

    # dialects/onnx/my_op.py
    def _describe(axis: int = 0) -> Description:         # data-independent: what the op is
        c = canonical("gather", axis=check_int("onnx.MyOp", "axis", axis))
        return Description("onnx.MyOp", {"axis": axis}, ("data", "indices"), c)

    @dialect_op("onnx", "MyOp", family="gather", versions=(13,), version_kw="opset",
                differentiable=("data",), describe=_describe)
    def MyOp(data, indices, axis=0):                      # the call: validate, lower onto the primitive
        ...
        return Lowering("gather", d, i, IndexSpec(axis=a), Policy(negative="wrap"), ctx)

and one import line in the framework's ``__init__`` (its public name). The kind
(gather or scatter) follows from the family (a ``general`` op states it); what
every op of a framework shares is said once by its :func:`registrar`
(``onnx_op = registrar("onnx", version_kw="opset")`` in ``dialects/onnx/_describe.py``:
``@onnx_op("MyOp", family="gather", ...)``). The op
then appears in ``gs.ops()``, the CLI, translate (as a source), the fuzzer,
``gs.vjp`` and the generated docs. Optional record fields, all data in the op's
file: ``variants=`` (attribute sets worth probing: translate's coverage matrix),
``grad=`` (its framework's autograd conventions: ``GRAD`` of the framework's
``_common.py``), ``fuzz=`` (what the fuzzer's generator must know beyond the
family and parameter names; keys in :class:`~gatherscatter.dialects._record.OpRecord`).
Its known divergences are data in a TOML file next to it with the same stem,
``dialects/onnx/my_op.toml`` (``[[divergence]]`` tables: ``case``, ``when``, ``reference``,
``theirs``, ``ours``, ``evidence``, ``kind`` and an ``example``; see :class:`Divergence`),
loaded by one line in the op file: ``divergence_table("onnx.MyOp", __file__)``.

Why the call is *checked against* its description rather than built from
it: the lowering validates the framework's rules and prepares the arrays
(views, moved axes, wrapped indices) on the hot path, where running the
description's adapter program would copy arrays and lose the framework's
exact error messages. The description is the statement of meaning; the test
``tests/dialects/test_record.py`` runs, for every op and every probed variant,
real calls on generated inputs and asserts that the :class:`Lowering` each
produces has the primitive, the index-spec form and every policy field the
description states (the few ops that encode the same meaning differently are
listed there with the reason, strictly), while ``tests/translate/test_sources.py``
asserts the outputs are those of the description's program.

Known divergences (where we knowingly differ from a framework, an oracle or a
spec, and why) are data: each op file's sidecar ``<op>.toml``, read by
:func:`divergence_table` (a file with several tables, such as a family's file
or a shared ``_common.py``, names a section per call:
``divergence_table("numpy.add_at", __file__, "add_at")``); records computed by
code are made with :func:`divergence`. The compatibility page, the strict
divergence tests and the translator read them from here.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, cast

import numpy as np

from ..core import plans
from ..core.context import OpContext
from ..core.dask import has_dask_array
from ..core.dask import run_op as run_dask
from ..core.gather import gather, owned
from ..core.out import check_out
from ..core.policy import Policy
from ..core.scatter import scatter
from ..core.shape import IndexSpec
from ..errors import ShapeError, UnsupportedError
from ._record import WHEN, Description, GradConventions, OpRecord, Residual, Version

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
    "qn",
    "registrar",
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

#: the kind each family implies (a ``general`` op says its kind)
_FAMILY_KIND: dict[str, Literal["gather", "scatter"]] = {
    "gather": "gather",
    "gather_elements": "gather",
    "gather_nd": "gather",
    "scatter_elements": "scatter",
    "scatter_nd": "scatter",
    "scatter_axis": "scatter",
}


@dataclass
class Lowering:
    """One framework call, lowered onto a core primitive.

    ``primitive`` is ``"gather"`` or ``"scatter"``; ``data``, ``indices`` (and
    ``updates``) are the arrays the primitive sees (possibly views the dialect
    reshaped or transposed: never written to); ``post`` adapts the primitive's
    result to the framework's output (a reshape, an axis move, a dtype the
    framework returns) and must be linear in the result, unless ``nonlinear`` says what it computes
    (a composed op's element-wise step: ``x / p``; ``gs.vjp`` then needs ``post_vjp``, the step's pullback
    ``post_vjp(p, cotangent) -> (cotangent of p, {parameter: cotangent})`` for the primitive output ``p`` and
    the cotangent of the output, the dict holding the gradients of the call's arguments the step reads
    directly, by parameter name, in their shapes); ``result`` short-cuts
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
    nonlinear: str = ""  # what a ``post`` that is NOT linear in the result computes (gs.vjp refuses it, saying so)
    post_vjp: Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]],
                       tuple[np.ndarray[Any, Any], dict[str, np.ndarray[Any, Any]]]] | None = None

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
    """A public framework op: callable, with its registry entry, its record and its lowering."""

    info: OpInfo
    record: OpRecord
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
    kind: Literal["gather", "scatter"] | None = None,
    versions: tuple[int | str, ...] = (),
    version_kw: str | None = None,
    differentiable: tuple[str, ...] = (),
    describe: Callable[..., Description] | None = None,
    record: OpRecord | None = None,
    grad: GradConventions | None = None,
    variants: tuple[dict[str, Any], ...] = (),
    fuzz: dict[str, Any] | None = None,
    adds: dict[int | str, str] | None = None,
    values: dict[str, Any] | None = None,
) -> Callable[[Callable[..., Lowering]], DialectOp]:
    """Register a lowering function as the framework op ``framework.name``.

    The returned public function has the lowering's signature and docstring and
    returns ``lower(...).run()``. ``kind`` follows from ``family`` (a ``general``
    op states it).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown op family {family!r}")
    implied = _FAMILY_KIND.get(family)
    if kind is None and implied is None:
        raise ValueError(f"{framework}.{name}: a {family!r} op states its kind ('gather' or 'scatter')")
    if kind is not None and implied is not None and kind != implied:
        raise ValueError(f"{framework}.{name}: family {family!r} is a {implied} family, not {kind!r}")
    op_kind: Literal["gather", "scatter"] = kind or cast(Literal["gather", "scatter"], implied)

    def deco(lower: Callable[..., Lowering]) -> DialectOp:
        @functools.wraps(lower)
        def public(*args: Any, **kwargs: Any) -> np.ndarray[Any, Any]:
            key = plans.signature(public, args, kwargs)  # None for a Dask array (or any non-NumPy argument)
            try:
                if key is None:
                    if has_dask_array(args, kwargs):  # a lazy Dask result (the dask extra)
                        return cast(np.ndarray[Any, Any], run_dask(lower, info.qualname, args, kwargs))
                elif (kept := plans.get(key)) is not None:  # this signature's call plan (core/plans.py)
                    res = plans.answer(kept, args, kwargs)
                    if res is not None:
                        return res
                elif (rec := plans.record(key)) is not None:
                    try:
                        res = lower(*args, **kwargs).run()
                    finally:
                        plans.stop()
                    plans.recorded(rec, key, args, kwargs, res)
                    return res
                return lower(*args, **kwargs).run()  # the whole path
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
            kind=op_kind,
            versions=tuple(str(v) for v in versions),
            version_kw=version_kw,
            differentiable=differentiable,
            summary=doc.splitlines()[0] if doc else "",
        )
        op = cast(DialectOp, public)
        op.info = info
        rec = record
        if rec is None:
            said = {str(k): v for k, v in (adds or {}).items()}
            rec = OpRecord(describe or _undescribed(info.qualname), variants=variants, grad=grad or GradConventions(),
                           fuzz=fuzz or {}, versions=tuple(Version(v, said.get(v, "")) for v in info.versions),
                           values=values or {})
        op.record = rec
        op.lower = lower
        op.__name__ = name
        public.__qualname__ = name
        if info.qualname in _OPS:
            raise ValueError(f"op {info.qualname} registered twice")
        _OPS[info.qualname] = op
        return op

    return deco


Registrar = Callable[[Callable[..., Lowering]], DialectOp]


def registrar(framework: str, *, version_kw: str | None = None) -> Callable[..., Registrar]:
    """:func:`dialect_op` for the ops of one framework, with what all of them share said once.

    >>> onnx_op = registrar("onnx", version_kw="opset")  # then: @onnx_op("Gather", family="gather", ...)
    >>> onnx_op.__name__
    'onnx_op'
    """

    def register(name: str, **record: Any) -> Registrar:
        return dialect_op(framework, name, version_kw=version_kw, **record)

    register.__name__ = register.__qualname__ = f"{framework}_op"
    register.__doc__ = f"Register the op ``{framework}.<name>`` (its version keyword: {version_kw!r}); see dialect_op."
    return register


def _undescribed(qualname: str) -> Callable[..., Description]:
    """The description of an op registered without one: every reader is told (tests/dialects/test_record.py
    requires a description for every op)."""

    def describe(**attrs: Any) -> Description:
        raise UnsupportedError(f"{qualname} has no description yet (dialect_op(describe=...)); it cannot be translated")

    return describe


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


def qn(op: DialectOp) -> str:
    """An op's registered name (``qn(gs.torch.gather) == 'torch.gather'``): name ops by their function, so that
    a misspelt op is an AttributeError at import, not a silent miss."""
    return op.info.qualname


def ops(framework: str | None = None, family: str | None = None) -> list[DialectOp]:
    """Registered ops, optionally of one framework and/or family, in registration order.

    A ``list`` of the op functions that prints as a table (:class:`~._oplist.OpList`).
    """
    from ._oplist import OpList

    _load_all()
    return OpList(
        op
        for op in _OPS.values()
        if (framework is None or op.info.framework == framework) and (family is None or op.info.family == family)
    )


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
    several documented behaviours). ``when``: the machine-readable condition,
    the input features under which the difference shows (keys of
    :data:`~gatherscatter.dialects._record.WHEN`, the vocabulary of
    translate's residuals: ``negative``, ``out_of_range``, ``duplicates``,
    ``dtype``, ``float_index``, ``empty``, ``nonfinite``, ``scalar``,
    ``device``, ``version``, ``always``); any one of them suffices.

    ``example``: a reproducible input on which the difference shows, as plain
    TOML-encodable values (``tests/dialects/test_divergences_strict.py`` runs
    it on the real framework and on ours and asserts both outcomes, strictly):
    ``call`` (the framework callable: a dotted path such as
    ``'numpy.add.at'``, ``'jax.numpy.ndarray.at.add'`` for ``x.at[idx].add``,
    ``'onnxruntime:ScatterND'`` / ``'onnx.reference:ScatterND'`` for one
    ONNX node, ``'openvino:Gather'`` for one OpenVINO node on the CPU plugin,
    ``'tflite:tensorflow.gather'`` for that TF call converted to a one-op
    TFLite model, ``'mxnet.nd.take'`` run in MXNet's own venv), ``args`` (positional arguments by name, in order: nested
    lists, numbers, strings), ``kwargs`` (keyword attributes, given to both
    sides), ``dtypes`` (the dtype of each argument that is an array;
    ``'tuple:int64'``: a tuple of arrays; ``'ndarray:float32'``: an array the
    framework gets as a NumPy array, not converted; an argument without one is passed
    as written, a Python list included), ``opset`` (ONNX; OpenVINO: the op's version), ``x64`` (JAX:
    false runs under JAX's 32-bit default), ``device`` (TensorFlow: ``'xla'`` compiles the call with
    ``jit_compile``, and ours gets ``device='xla'``), ``backend`` (Keras: the
    backend the call runs on, given to ours as ``backend=``), ``inplace`` (the framework
    writes into its first argument: both outcomes are that argument after the call), and the two
    outcomes ``theirs`` and ``ours``: ``{'raises': 'ErrorClass'}``,
    ``{'warns': 'WarningClass'}`` (a result, with that warning),
    ``{'dtype': 'int32'}`` or ``{'equals': nested list}`` (the result, exactly; complex values as
    [real, imag] pairs; ``'nan'`` for a NaN, in arguments too); ``ours = "same"``
    when ours reproduces the framework's quirk (the record's difference is
    with another device, backend or the documentation).
    ``not_reproducible``: why no example can show it on this machine (a GPU,
    a process crash, spec text as the reference ...).
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
    when: tuple[str, ...] = ()
    example: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    not_reproducible: str = ""

    def __post_init__(self) -> None:
        unknown = [w for w in self.when if w not in WHEN]
        if unknown:
            raise ValueError(f"divergence of {self.op}: unknown condition(s) {unknown}; expected keys of WHEN")
        if self.example and self.not_reproducible:
            raise ValueError(f"divergence of {self.op}: an example and not_reproducible exclude each other")
        extra = set(self.example) - _EXAMPLE_KEYS
        if extra or (self.example and not {"call", "args", "theirs", "ours"} <= set(self.example)):
            raise ValueError(f"divergence of {self.op}: example keys {sorted(self.example)}; "
                             f"expected call, args, theirs, ours and optionally {sorted(_EXAMPLE_KEYS)}")

    def residual(self) -> Residual:
        """This record as a translation residual (its first condition; what each side does)."""
        return Residual(self.when[0] if self.when else "always", self.theirs, self.ours, self.case)


_EXAMPLE_KEYS = {"call", "args", "kwargs", "dtypes", "opset", "x64", "device", "backend", "inplace", "theirs", "ours"}
_DIVERGENCES: list[Divergence] = []


def divergence(**fields: Any) -> Divergence:
    """Record a known divergence (see :class:`Divergence`) and return it."""
    rec = Divergence(**fields)
    _DIVERGENCES.append(rec)
    return rec


def divergence_table(op: str, source: str, section: str = "divergence", /, **computed: Any) -> list[Divergence]:
    """Record the known divergences of ``op``, written as TOML in the op file's sidecar ``<op file>.toml``.

    An op file states its divergences once, as data, in the TOML file next to it
    with the same stem (``dialects/onnx/gather.py`` -> ``dialects/onnx/gather.toml``)
    and loads them at import with ``divergence_table("onnx.Gather", __file__)``.
    Each ``[[divergence]]`` table holds :class:`Divergence`'s fields but ``op``
    (given once): ``case``, ``when`` (space-separated keys of
    :data:`~gatherscatter.dialects._record.WHEN`), ``reference``, ``theirs``,
    ``ours``, ``evidence``, ``kind``, and optionally ``versions``, ``tags``,
    ``not_reproducible`` and an ``[divergence.example]`` sub-table (in a table
    shared by a family of ops, ``{name}`` in its ``call`` is each op's name and
    ``per_op.<name>`` the keys that differ for one op). The standard
    library's TOML reader parses it; long texts wrap with TOML's line-ending
    backslash.

    ``section``: a Python file with several calls (a family's file, a shared
    ``_common.py``) gives each its own array of tables in the one sidecar,
    ``[[add_at]]`` ... ``[add_at.example]``, read by
    ``divergence_table("numpy.add_at", __file__, "add_at")``; the default
    section is ``divergence``. ``computed``: fields built by code (an
    ``example`` made from the op's plain call), given to every record of the
    section; records built wholly by code use :func:`divergence`.

    ``source`` may also be the TOML text itself (it contains a newline): the
    form op files used before the sidecars, read the same way. A missing or
    malformed sidecar, a missing section or a record with unknown fields is a
    ``ValueError`` naming the file, at import.

    >>> recs = divergence_table("onnx.Gather", '''
    ... [[divergence]]
    ... case = "an example record"
    ... when = "negative out_of_range"
    ... reference = "a runtime"
    ... theirs = "wraps"
    ... ours = "raises"
    ... evidence = "a test"
    ... ''')
    >>> recs[0].when, recs[0].kind
    (('negative', 'out_of_range'), 'choice')
    >>> _ = _DIVERGENCES.pop()  # (the example is not a real record)
    >>> divergence_table("onnx.Gather", "/nowhere/gather.py")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: divergences of onnx.Gather: cannot read /nowhere/gather.toml, the known divergences of gather.py (...)
    """
    try:
        if "\n" in source:
            where, doc = "TOML text", _parse_toml("TOML text", source)
        else:
            path = Path(source).with_suffix(".toml")
            where, doc = str(path), _sidecar(path)
            _SIDECAR_READS.setdefault(path, set()).add(section)
    except ValueError as exc:
        raise ValueError(f"divergences of {op}: {exc}") from exc
    entries = doc.get(section)
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError(f"divergences of {op}: {where} has no [[{section}]] array of tables "
                         f"(its top-level keys: {sorted(doc)})")
    out = []
    for i, entry in enumerate(copy.deepcopy(entries)):
        for key in ("when", "tags"):
            if key in entry:
                entry[key] = tuple(entry[key].split())
        if "example" in entry:
            entry["example"] = _family_example(op, entry["example"])
        try:
            rec = Divergence(op=op, **entry, **computed)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            raise ValueError(f"divergences of {op}: {where}, [[{section}]] table {i + 1}: {exc}") from exc
        _DIVERGENCES.append(rec)
        out.append(rec)
    return out


#: the sections of each sidecar that op files read (tests/dialects/test_divergence_sidecars.py: none is left unread)
_SIDECAR_READS: dict[Path, set[str]] = {}


@functools.cache
def _sidecar(path: Path) -> dict[str, Any]:
    """The parsed sidecar ``path`` (read once; callers copy what they keep)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {path}, the known divergences of {path.with_suffix('.py').name} "
                         f"({exc.strerror or exc})") from exc
    return _parse_toml(str(path), text)


def _parse_toml(where: str, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{where} is not valid TOML ({exc})") from exc


def _family_example(op: str, example: dict[str, Any]) -> dict[str, Any]:
    """A table shared by a family, made the example of ``op``: ``{name}`` in ``call`` is the op's name after
    its framework (``'tensorflow.{name}'``), and ``per_op.<name>`` holds the keys that differ for that op."""
    name = op.split(".", 1)[1]
    ex = {**example, **example.get("per_op", {}).get(name, {})}
    ex.pop("per_op", None)
    ex["call"] = ex["call"].replace("{name}", name)
    return ex


def divergences(op: str | Callable[..., Any] | None = None) -> list[Divergence]:
    """Known divergences, optionally for one op (``'onnx.GatherElements'`` or the op itself).

    An unknown op is an :class:`~gatherscatter.errors.UnsupportedError` (not an empty list).
    """
    _load_all()
    name = None if op is None else get_op(op).info.qualname
    return [d for d in _DIVERGENCES if name is None or d.op == name]
