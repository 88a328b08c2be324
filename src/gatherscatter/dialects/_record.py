"""The op record: what one framework op is, stated once, as data, in the op's own file.

Every registered op (:func:`~gatherscatter.dialects._registry.dialect_op`)
carries an :class:`OpRecord`: its arguments and their roles (:class:`Arg`),
its attributes with defaults and accepted values (:class:`Attr`), its versions
and what each adds (:class:`Version`), the variants worth probing, its
gradient conventions (:class:`GradConventions`) and ``describe(**attrs)``, a
data-independent function returning the op's canonical form as a
:class:`Description`:

* ``pre``: layout adapters applied to the op's arguments (:class:`Step`;
  MXNet's index tuples moved from the first axis, ``torch.take``'s flatten);
* ``canonical``: one primitive call (:class:`Canonical`: the family, the
  index spec, and every :class:`~gatherscatter.core.policy.Policy` field
  explicit);
* ``post``: adapters applied to the primitive's result;
* ``before``: canonical calls that run first, in order, each binding its ``out`` (``torch.embedding_bag``
  gathers the rows of its bags, then reduces them per bag: a sequence of primitives); empty for most ops;
* ``residuals``: what the op does that the canonical form does not say
  (:class:`Residual`, conditioned on the :data:`WHEN` vocabulary that the
  divergence records share).

This module is pure data: it imports NumPy and :mod:`gatherscatter.errors`
only. The adapters' NumPy implementations live in
:mod:`gatherscatter.translate.ir` (which checks it implements exactly
:data:`ADAPTER_PARAMS`); translate, explain, grad and the fuzzer read records,
never op names.

>>> c = canonical("gather_elements", data="input", indices="index", axis=1, negative="raise")
>>> c.step().describe()
"out = gatherscatter.take_along_axis(data=input, indices=index, negative='raise', bounds='raise', axis=1)"
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import ArgumentError, UnsupportedError

__all__ = [
    "ADAPTER_PARAMS",
    "NEUTRAL",
    "OPEN_DOMAINS",
    "ROLE_NAMES",
    "WHEN",
    "Arg",
    "Attr",
    "Canonical",
    "Description",
    "GradConventions",
    "LazyTable",
    "Mapper",
    "OpRecord",
    "Residual",
    "Source",
    "Step",
    "Version",
    "broadcastable",
    "canonical",
    "check_bool",
    "check_choice",
    "check_int",
    "moved_axis_args",
    "named",
    "real_ids",
    "tuple_index_args",
]

Array = np.ndarray[Any, Any]
Mapper = Callable[[dict[str, Any], np.random.Generator], dict[str, Any]]

#: the usual parameter names of each value role, read ONLY where no description states the roles: ops whose
#: record has no description yet (segment, embedding ...), and calls whose attributes the description refuses
#: (``explain``'s probe of TensorScatter with ``axis=0``); otherwise :meth:`Description.arg_roles`
ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "data": ("data", "params", "input", "inputs", "a", "arr", "x", "operand", "tensor", "self", "past_cache"),
    "indices": ("indices", "index", "ind", "idx", "indexes", "start_indices", "scatter_indices", "write_indices"),
    "updates": ("updates", "src", "values", "v", "b", "source", "update"),
    "ids": ("segment_ids", "ids"),  # the index parameter of segment and embedding ops
}

#: the input features a residual divergence (and a divergence record) is conditioned on
WHEN = {
    "negative": "an index is negative",
    "out_of_range": "an index is out of range",
    "duplicates": "indices repeat (several updates target one position)",
    "dtype": "the data or index dtype is outside the common set",
    "float_index": "indices are floating point",
    "empty": "an input is empty",
    "nonfinite": "a floating-point input holds NaN or an infinity",
    "scalar": "an index is 0-d or a single index tuple (a 0-d result is possible)",
    "device": "the op runs on another device or compiler",
    "version": "another version of the framework or of the op runs",
    "invalid": "an argument breaks the op's own rules (an axis, a shape or an attribute it refuses)",
    "always": "always",
}

#: the neutral op of each canonical family
NEUTRAL = {
    "gather": "gatherscatter.take",
    "gather_elements": "gatherscatter.take_along_axis",
    "gather_nd": "gatherscatter.gather_nd",
    "scatter_elements": "gatherscatter.scatter_along_axis",
    "scatter_nd": "gatherscatter.scatter_nd",
}

#: every adapter a description or a translation may use, with its positional value parameters
#: (the NumPy implementations: :data:`gatherscatter.translate.ir.ADAPTERS`)
ADAPTER_PARAMS: dict[str, tuple[str, ...]] = {
    "moveaxis": ("x",),
    "expand_dims": ("x",),
    "flatten": ("x",),
    "cast": ("x",),
    "normalize_negative": ("i", "data"),
    "clip_index": ("i", "data"),
    "wrap_index": ("i", "data"),
    "valid_mask": ("i", "data"),
    "mask_result": ("y", "mask"),
    "zeros": ("shape", "like"),
    "slice_like": ("x", "like"),
    "full_updates": ("i", "data"),
    "zeros_like": ("x",),
    "ones_like": ("x",),
    "identity_like": ("x",),
    "negative": ("x",),
    "scale": ("x",),
    "divide_counts": ("total", "count", "data"),
    "coordinates": ("i",),
    "stack_last": ("seq",),
    "unstack_last": ("i",),
    "broadcast_indices": ("i", "data"),
    "broadcast_data": ("x", "i"),
    "unflatten_index": ("y", "i"),
    "take_coordinates": ("i", "data"),
    "nd_coordinates": ("i", "data"),
    "ravel_tuples": ("i", "data"),
    "slice_to_index": ("x", "i"),
    "select": ("mask", "x", "y"),
    "combine": ("x", "y"),
    "shape_of": ("x",),
    "squeeze": ("x",),
    "broadcast_updates": ("u", "i", "data"),
    "full_slices": ("i", "data"),
    "mask_fill_default": ("y", "mask"),
    "reshape_like": ("x", "like"),
    "cycle_to": ("v", "i"),
    "merge_leading": ("x",),
    "moveaxis_block": ("x", "i", "data"),
    "positions": ("w", "u", "data"),
    "segment_count": ("i",),
    "full_rows": ("n", "i", "data"),
    "with_ones": ("x",),
    "mean_of_pairs": ("y",),
    "slice_last": ("x",),
    "segment_ids": ("s", "data"),
    "row_ids": ("x",),
    "drop_index": ("ids", "i", "data"),
    # the element-wise step after (or before) the scatter of a composed op
    "divide_inexact": ("x", "y"),
    "power": ("x", "y"),
    "reciprocal_like": ("x", "like"),
    "apply_counted": ("x", "count"),
}


# ------------------------------------------------------------------------------------------------ steps


@dataclass(frozen=True)
class Step:
    """One step: ``out = op(**args, **attrs)`` or ``out = adapter(*args, **attrs)``.

    ``args`` maps the callee's tensor parameter names to value names (an
    adapter's parameters are positional: ``x``, ``i``, ``data`` ...);
    ``attrs`` are fixed, non-tensor arguments; ``why`` says in one line why
    the step is there (shown in plans).
    """

    kind: str  # "op" | "adapter"
    name: str  # op qualname ("onnx.GatherND") or adapter name ("moveaxis")
    out: str
    args: tuple[tuple[str, str], ...]
    attrs: tuple[tuple[str, Any], ...] = ()
    why: str = ""

    @staticmethod
    def op(name: str, out: str, args: Mapping[str, str], why: str = "", **attrs: Any) -> Step:
        """An op call step."""
        return Step("op", name, out, tuple(args.items()), tuple(attrs.items()), why)

    @staticmethod
    def adapt(name: str, out: str, *args: str, why: str = "", **attrs: Any) -> Step:
        """An adapter step (``name`` must be in :data:`ADAPTER_PARAMS`)."""
        if name not in ADAPTER_PARAMS:
            raise UnsupportedError(f"unknown adapter {name!r}")
        params = ADAPTER_PARAMS[name]
        if len(args) != len(params):
            raise ArgumentError(f"adapter {name} takes {len(params)} values {params}; got {len(args)}")
        return Step("adapter", name, out, tuple(zip(params, args, strict=True)), tuple(attrs.items()), why)

    @property
    def arg_map(self) -> dict[str, str]:
        return dict(self.args)

    @property
    def attr_map(self) -> dict[str, Any]:
        return dict(self.attrs)

    def describe(self) -> str:
        """``out = name(arg=value, ..., attr=literal)`` for plans."""
        parts = [f"{k}={v}" if self.kind == "op" else v for k, v in self.args]
        parts += [f"{k}={v!r}" for k, v in self.attrs]
        return f"{self.out} = {self.name}({', '.join(parts)})"


# ------------------------------------------------------------------------------------------------ residuals


@dataclass(frozen=True)
class Residual:
    """A difference the canonical form (or a translation) keeps: under which inputs, and what each side does."""

    when: str
    source: str
    target: str
    note: str = ""

    def __post_init__(self) -> None:
        if self.when not in WHEN:
            raise ValueError(f"unknown residual condition {self.when!r}")

    def __str__(self) -> str:
        cond = "always differs" if self.when == "always" else f"differs when {WHEN[self.when]}"
        text = f"{cond}: source {self.source}, target {self.target}"
        return f"{text} ({self.note})" if self.note else text


# ------------------------------------------------------------------------------------------------ canonical call


@dataclass(frozen=True)
class Canonical:
    """One neutral-API call with every policy explicit: the primitive a description stands for.

    ``data``/``indices``/``updates``/``out`` are value names in the program.
    Index tuples (nd families) are always on the LAST axis of ``indices``.
    ``duplicates_specified`` is False when the source leaves the order of
    duplicate overwrites unspecified (ONNX ScatterND, TF); our dialects then
    apply ``duplicates`` (last) as a documented choice.
    """

    family: str
    data: str
    indices: str
    out: str
    updates: str | None = None
    axis: int | None = 0
    batch_dims: int = 0
    broadcast: bool = False
    negative: str = "wrap"
    bounds: str = "raise"
    fill_value: Any = None
    reduction: str = "none"
    include_self: bool = True
    duplicates: str = "last"
    duplicates_specified: bool = True
    mean_rounding: str = "floor"
    index_dtype: str = "int"  # "int" (any integer dtype the source accepts) or "float" (MXNet)

    @property
    def is_scatter(self) -> bool:
        return self.family.startswith("scatter")

    @property
    def neutral_op(self) -> str:
        return NEUTRAL[self.family]

    def with_(self, **changes: Any) -> Canonical:
        return replace(self, **changes)

    def step(self) -> Step:
        """The neutral-API call this canonical form stands for."""
        args = {"data": self.data, "indices": self.indices}
        if self.updates is not None:
            args["updates"] = self.updates
        attrs: dict[str, Any] = {"negative": self.negative, "bounds": self.bounds}
        if self.family in ("gather", "gather_elements", "scatter_elements"):
            attrs["axis"] = self.axis
        if self.family in ("gather", "gather_nd", "scatter_nd") and self.batch_dims:
            attrs["batch_dims"] = self.batch_dims
        if self.family in ("gather_elements", "scatter_elements") and self.broadcast:
            attrs["broadcast"] = True
        if not self.is_scatter:
            if self.bounds == "fill":
                attrs["fill_value"] = self.fill_value
        else:
            attrs["reduction"] = self.reduction
            if not self.include_self:
                attrs["include_self"] = False
            if self.reduction == "none":
                attrs["duplicates"] = self.duplicates
            if self.reduction == "mean":
                attrs["mean_rounding"] = self.mean_rounding
        return Step.op(self.neutral_op, self.out, args, why="the canonical (neutral) call", **attrs)

    def describe(self) -> str:
        return self.step().describe()


def canonical(family: str, *, data: str = "data", indices: str = "indices", updates: str | None = None,
              **kw: Any) -> Canonical:
    """A :class:`Canonical` whose output is ``'out'``, or ``'y'`` when a post step follows (pass ``out=``)."""
    out = kw.pop("out", "out")
    return Canonical(family=family, data=data, indices=indices, updates=updates, out=out, **kw)


# ------------------------------------------------------------------------------------------------ description


@dataclass
class Description:
    """An op call described exactly: ``pre`` adapters, the canonical call, ``post`` adapters.

    ``inputs`` are the op's value parameters (tensors, and shape arguments such
    as ``tf.scatter_nd``'s ``shape``); ``attrs`` its fixed keyword arguments.
    ``residuals`` are differences inherent to the op that no canonical call
    reproduces (MXNet's float-index rounding, torch's float16 accumulation
    ...). ``layout`` tunes the generic input generator (its keys are listed in
    :mod:`gatherscatter.translate.verify`); ``sample`` replaces it. ``before``: canonical calls run
    first (a gather whose result the main call reduces); a consumer that reads one primitive refuses them.
    """

    op: str
    attrs: dict[str, Any]
    inputs: tuple[str, ...]
    canonical: Canonical
    pre: list[Step] = field(default_factory=list)
    post: list[Step] = field(default_factory=list)
    residuals: list[Residual] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)
    layout: dict[str, Any] = field(default_factory=dict)
    sample: Callable[..., dict[str, Any]] | None = None
    before: list[Canonical] = field(default_factory=list)

    def steps(self) -> list[Step]:
        """The description as one program: the ``before`` calls, ``pre``, the canonical call, ``post``."""
        return [c.step() for c in self.before] + self.pre + [self.canonical.step()] + self.post

    def arg_roles(self) -> dict[str, str]:
        """The role of each value input: ``data``, ``indices``, ``updates`` (the canonical slot it feeds), or
        what :attr:`roles` names (``shape`` ...). Read from the steps: an input that is a canonical slot
        has that role; otherwise the slot reached through the first argument of the adapters it feeds."""
        slots = {self.canonical.data: "data", self.canonical.indices: "indices"}
        if self.canonical.updates is not None:
            slots[self.canonical.updates] = "updates"
        named = {v: k for k, v in self.roles.items()}  # roles maps a canonical role to the input playing it
        main: dict[str, str] = {}  # value -> the value it is the main (first) argument of
        for step in self.pre:
            if step.args:
                main.setdefault(step.args[0][1], step.out)
        out: dict[str, str] = {}
        for name in self.inputs:
            if name in named and named[name] in ("data", "indices", "updates"):
                # the canonical data built from this input (tf.scatter_nd's zeros of ``shape``): a shape
                # (an input naming the data role that is also the updates: the tensor a sorted segment op reduces)
                out[name] = "shape" if named[name] == "data" and name not in (self.canonical.data,
                                                                              self.canonical.updates) else named[name]
                continue
            v, seen = name, set()
            while v not in slots and v in main and v not in seen:
                seen.add(v)
                v = main[v]
            out[name] = slots.get(v, "other")
        return out


#: the name translate has always used for a description
Source = Description


# ------------------------------------------------------------------------------------------------ the record

#: the infinite domains an attribute may declare instead of its values (``dialect_op(values={name: domain})``)
OPEN_DOMAINS = ("int", "number", "array", "shape", "dimension_numbers")


@dataclass(frozen=True)
class Arg:
    """One positional argument of an op: its name and role (``data``, ``indices``, ``updates``, ``shape``,
    ``value``, ``index_tuple``, ``dim`` ...)."""

    name: str
    role: str


@dataclass(frozen=True)
class Attr:
    """One attribute: its default (``required`` when it has none), and the values worth probing.

    ``values``: the accepted values when they are finitely many; ``domain``: else the open domain it takes
    (one of :data:`OPEN_DOMAINS`); an attribute annotated ``bool``, ``int`` or ``float`` says it by its type.
    """

    name: str
    default: Any = None
    required: bool = False
    values: tuple[Any, ...] = ()
    aliases: Mapping[Any, Any] = field(default_factory=dict)
    since: str | None = None
    domain: str = ""


@dataclass(frozen=True)
class Version:
    """One version of an op (an ONNX opset, an OpenVINO opset ...) and what it adds."""

    name: str
    adds: str = ""


@dataclass(frozen=True)
class GradConventions:
    """How the framework's autograd treats what the mathematics leaves open (read by :mod:`gatherscatter.grad`).

    ``duplicates``: an overwrite scatter's cotangent for duplicate updates
    (``'all'``: every duplicate gets it, as torch and TensorFlow do;
    ``'winner'``: only the applied one, as JAX does and the mathematics says);
    ``ties``: max/min reductions (``'split'``: evenly among the tied values;
    ``'torch'``: as ``'split'``, but the initial value is counted whenever it
    equals the result, even with ``include_self=False``). ``restrictions``:
    the framework's autograd has no derivative there (``'no_reduce'``: a
    ``reduce=`` argument; ``'src_is_index_shaped'``: ``src.shape`` must equal
    ``index.shape``; ``'unique_indices'``: only when called with
    ``unique_indices=True``). ``autograd``: whose autograd these conventions reproduce
    (None: the mathematically correct convention, the defaults).
    """

    autograd: str | None = None
    duplicates: str = "winner"
    ties: str = "split"
    restrictions: tuple[str, ...] = ()


@dataclass
class OpRecord:
    """Everything one op states about itself (see the module docstring).

    ``describe`` is the op's description function; the attributes default to
    what its signature says (every keyword parameter, with its default).
    ``variants``: attribute sets worth probing (translate's coverage matrix).
    ``versions``: every version of the op with what it adds (``dialect_op(adds=...)``).
    ``values``: accepted values of attributes, or name maps (``dialect_op(values={'reduce': _REDUCE})``),
    or the name of an open domain (:data:`OPEN_DOMAINS`: ``values={'num_segments': 'int'}``).
    ``fuzz``: what the argument generator of :mod:`gatherscatter.fuzz` must know
    beyond the family and the parameter names: ``flat`` (indices address the
    flattened data), ``axis_none`` (``axis=None`` flattens), ``fixed_axis``,
    ``min_rank``, ``index_shape`` (``'vector'``, ``'vector_or_scalar'``,
    ``'matrix'``, ``'any'``), ``negative`` (False: no valid negative
    indices), ``float_index`` (probability of float indices), ``index_axis``
    (0: index tuples on the first axis), ``drops_axis`` (the index has no
    ``axis`` dim), ``npindex`` (NumPy index expressions), ``tuple_index`` (a
    tuple of index arrays), ``nonempty_tuples``, ``scalar_updates`` and
    ``distinct_targets`` (probabilities), ``valid_versions``, ``choices``
    (``{keyword: (valid, invalid)}``) and ``seeds`` (a function returning
    ``[(name, kwargs, 'error')]``: known crash inputs, such as CVEs).
    """

    describe: Callable[..., Description]
    args: tuple[Arg, ...] = ()
    attrs: tuple[Attr, ...] = ()
    versions: tuple[Version, ...] = ()
    variants: tuple[Mapping[str, Any], ...] = ()
    grad: GradConventions = field(default_factory=GradConventions)
    fuzz: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.attrs:
            self.attrs = tuple(self._attr(p) for p in inspect.signature(self.describe).parameters.values()
                               if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

    def _attr(self, p: inspect.Parameter) -> Attr:
        """An attribute from the description's signature and ``values`` (a name map such as torch's
        ``{'amax': Reduction.MAX, ...}``: its keys are the accepted values, its values what each means)."""
        vals = self.values.get(p.name, ())
        domain, vals = (vals, ()) if isinstance(vals, str) else ("", vals)  # an open domain: OPEN_DOMAINS
        aliases = {k: getattr(v, "value", v) for k, v in vals.items()} if isinstance(vals, Mapping) else {}
        return Attr(p.name, None if p.default is p.empty else p.default, required=p.default is p.empty,
                    values=tuple(vals), aliases=aliases, domain=domain)

    @property
    def arg_roles(self) -> dict[str, str]:
        """Each value argument's role (``data``, ``indices``, ``updates``, ``shape`` ...), read from the
        description of the op's first probed variant (or its defaults): see :meth:`Description.arg_roles`."""
        if self.args:
            return {a.name: a.role for a in self.args}
        return self.describe(**(dict(self.variants[0]) if self.variants else {})).arg_roles()

    def attr(self, name: str) -> Attr:
        for a in self.attrs:
            if a.name == name:
                return a
        raise KeyError(name)


# ------------------------------------------------------------------------------------------------ lazy tables


class LazyTable(dict[str, Any]):
    """A ``dict`` filled from the op records on first use (the records load with the dialects, after this module).

    ``LazyTable(fill)`` calls ``fill()`` (returning a dict) the first time it is read.
    """

    def __init__(self, fill: Callable[[], dict[str, Any]]) -> None:
        super().__init__()
        self._fill_from = fill

    def _fill(self) -> None:
        if not dict.__len__(self):
            self.update(self._fill_from())

    def __getitem__(self, key: str) -> Any:
        self._fill()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def __iter__(self) -> Any:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)


# ------------------------------------------------------------------------------------------------ attribute checks


def check_choice(op: str, name: str, value: Any, choices: tuple[Any, ...]) -> Any:
    """``value`` if it is one of ``choices``; an UnsupportedError naming them otherwise."""
    if (isinstance(value, bool) and not any(isinstance(c, bool) for c in choices)) or value not in choices:
        raise UnsupportedError(f"translate {op}: {name}={value!r} is not accepted; expected one of {choices!r}")
    return value


def check_int(op: str, name: str, value: Any, *, optional: bool = False) -> Any:
    """An int attribute (or None when ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ArgumentError(f"translate {op}: {name} must be an int (got {value!r})")
    return int(value)


def check_bool(op: str, name: str, value: Any) -> bool:
    """A bool attribute."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"translate {op}: {name} must be a bool (got {value!r})")
    return bool(value)


# ------------------------------------------------------------------------------------------------ layout mappers
# A mapper turns the canonical arrays the generic generator drew (``canon['data']``, ``['indices']``,
# ``['updates']`` ...; see :mod:`gatherscatter.translate.verify`) into the op's own arguments: the inverse of the
# description's ``pre`` adapters (``layout['to_source']``).


def broadcastable(rng: np.random.Generator, u: Array, p: float) -> Array:
    """With probability ``p``, ``u`` with some leading dims dropped and some dims cut to size 1
    (the result still broadcasts to ``u.shape``)."""
    if not u.ndim or rng.random() >= p:
        return u
    drop = int(rng.integers(0, u.ndim + 1))
    v = u[(0,) * drop] if all(n for n in u.shape[:drop]) else u
    sl = tuple(slice(0, 1) if (n > 1 and rng.random() < 0.4) else slice(None) for n in v.shape)
    return np.ascontiguousarray(v[sl])


def named(**roles: str) -> Mapper:
    """Arguments named after the canonical roles: ``named(input='data', index='indices')``; ``'shape'``
    passes the data shape as a tuple."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        return {k: tuple(canon["data"].shape) if r == "shape" else canon[r] for k, r in roles.items()}

    return mapper


def moved_axis_args(dim: int, data: str, index: str, updates: str | None = None) -> Mapper:
    """Ops of the ``scatter_axis``/``index_*`` kind: the canonical call is an nd scatter with one-component
    tuples into ``moveaxis(data, dim, 0)``; the op sees data and updates with the axis at ``dim`` (the
    updates' index dims there) and the index without its trailing tuple axis."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        d, i, u = canon["data"], canon["indices"], canon["updates"]
        rank = d.ndim
        args = {data: np.ascontiguousarray(np.moveaxis(d, 0, dim)), index: i[..., 0]}
        if updates is not None and u is not None:
            # u has shape i.shape[:-1] + d.shape[1:]; the index dims go where the axis was
            q = i.ndim - 1
            dd = dim % rank
            perm = list(range(q, q + dd)) + list(range(q)) + list(range(q + dd, u.ndim))
            args[updates] = np.ascontiguousarray(np.transpose(u, perm))
        return args

    return mapper


def real_ids(canon: dict[str, Any], ids: Array, n: int) -> None:
    """Make the case features (:func:`gatherscatter.translate.verify.sample_cases`: negative, out-of-range,
    duplicate indices) read ``ids``, the row ids a mapper's arguments really produce (segments from lengths,
    bags from offsets), over ``n`` rows, instead of the canonical draw the mapper replaced."""
    inside = ids[(ids >= 0) & (ids < n)]
    canon.update(indices=ids[..., None], sizes=np.asarray([n]), duplicates=inside.size > len(set(inside.tolist())))


#: what ops indexed NumPy style (``x[idx]``) do with a bool index array, which translations leave out
BOOL_MASK = Residual("dtype", "reads a bool index array as a mask (its nonzero positions)",
                     "reads integer index arrays only")


def index_form(op: str, form: Any, data: str) -> str:
    """The index form a translation of ``data[idx]`` covers: ``'array'`` or ``'tuple'`` (else UnsupportedError).

    >>> index_form("numpy.add_at", "tuple", "a")
    'tuple'
    """
    if form not in ("array", "tuple"):
        raise UnsupportedError(
            f"translate {op}: index form {form!r} is not translated; covered: 'array' (one integer array, "
            f"{data}[I]) and 'tuple' (a tuple of integer arrays, {data}[I0, I1, ...]); slices, Ellipsis, None and "
            "boolean masks select by position, which no canonical gather/scatter call expresses"
        )
    return str(form)


def tuple_index_args(data: str, index: str, updates: str | None = None, *, as_array: bool = False,
                     broadcast: float = 0.0) -> Mapper:
    """Ops indexed NumPy style, ``x[idx]``: ``idx`` is a tuple of index arrays (one per tuple component),
    or one array (``as_array``: the canonical tuples have one component); ``updates`` may broadcast."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        i = canon["indices"]
        idx: Any = i[..., 0] if as_array else tuple(np.ascontiguousarray(i[..., j]) for j in range(i.shape[-1]))
        args = {data: canon["data"], index: idx}
        if updates is not None:
            args[updates] = broadcastable(rng, canon["updates"], broadcast)
        return args

    return mapper
