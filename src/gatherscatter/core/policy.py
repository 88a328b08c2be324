"""Policies: every behaviour that differs between frameworks, as a named value.

A :class:`Policy` bundles the choices a gather or scatter has to make:

``bounds``
    what an index outside ``[0, s-1]`` (after negative handling) does:
    ``raise`` (error), ``wrap`` (``i mod s``, NumPy ``mode='wrap'``), ``clip``
    (clamp to ``[0, s-1]``), ``fill`` (a gather returns ``fill_value`` for that
    element or slice; see :func:`fill`), ``drop`` (a scatter ignores that update).
``negative``
    ``wrap`` (``i + s`` once, Python style, for ``-s <= i < 0``), ``raise``
    (any negative index is an error, as in ``torch.gather``), or ``bounds``
    (negative indices are handled by the bounds mode, as in NumPy
    ``mode='clip'`` where ``-1`` becomes ``0``).
``duplicates``
    for scatters without a reduction: ``last`` (updates applied in row-major
    order of the update index space; what every sequential CPU kernel does),
    ``first`` or ``raise``.
``reduction``
    ``none | add | sub | mul | max | min | mean``, with ``include_self``
    (torch ``include_self``, OpenVINO ``use_init_val``) and ``mean_rounding``
    for integer means (``floor`` as torch and Paddle, ``trunc`` toward zero).
``accumulate``
    where ``add | sub | mul | mean`` accumulate on float16/bfloat16 data: ``data``
    (every step rounds to the data dtype) or ``float32`` (the targeted values and
    their updates are widened to float32, reduced there and rounded to the data
    dtype once, as torch's CPU kernels do). Other dtypes always use ``data``.
``mean_count``
    the divisor of ``mean``: ``exact`` (the number of contributions, ``+1`` with
    ``include_self``; integers divide exactly, floats by the count in their dtype),
    ``rounded`` (that count converted once to the data dtype: integers wrap, so
    int8 holds 200 as -56; 16-bit floats round) or ``stepwise`` (kept in the data
    dtype and grown by one per contribution: integers wrap, float16 stops at 2048
    and bfloat16 at 256); the two in-dtype counts divide by 1 where they are 0, as
    torch keeps its count tensor.
``identity``
    where max/min start without ``include_self``: ``inf`` (max from -inf, min from
    +inf: the neutral element) or ``finite`` (the dtype's ``lowest()`` / ``max()``,
    as OpenVINO ``use_init_val=False``: an all -inf max gives ``lowest()``).
    Integers and bools start from their extremes either way.

Strings are parsed once, here; unknown values are rejected by name::

    >>> Policy(bounds="clip").bounds
    <Bounds.CLIP: 'clip'>
    >>> Policy(bounds="clamp")
    Traceback (most recent call last):
    ...
    gatherscatter.errors.UnsupportedError: unknown bounds policy 'clamp'; expected one of: raise, wrap, clip, fill, drop
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ..errors import ArgumentError, UnsupportedError

E = TypeVar("E", bound=enum.Enum)

__all__ = [
    "CLIP",
    "MODULO",
    "STRICT",
    "WRAPPING",
    "Accumulate",
    "Bounds",
    "Duplicates",
    "Fill",
    "Identity",
    "MeanCount",
    "MeanRounding",
    "Negative",
    "Policy",
    "Reduction",
    "fill",
    "parse_enum",
]


class Bounds(str, enum.Enum):
    """What an out-of-range index does."""

    RAISE = "raise"
    WRAP = "wrap"
    CLIP = "clip"
    FILL = "fill"
    DROP = "drop"


class Negative(str, enum.Enum):
    """How negative indices are read."""

    WRAP = "wrap"
    RAISE = "raise"
    BOUNDS = "bounds"


class Duplicates(str, enum.Enum):
    """Which update wins when a scatter without reduction hits one position twice."""

    LAST = "last"
    FIRST = "first"
    RAISE = "raise"


class Reduction(str, enum.Enum):
    """How a scatter combines the existing value with the updates landing on it."""

    NONE = "none"
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    MAX = "max"
    MIN = "min"
    MEAN = "mean"


class MeanRounding(str, enum.Enum):
    """How an integer ``mean`` reduction rounds (floating means divide exactly)."""

    FLOOR = "floor"
    TRUNC = "trunc"


class Accumulate(str, enum.Enum):
    """Where sums, differences, products and means of float16/bfloat16 data accumulate."""

    DATA = "data"
    FLOAT32 = "float32"


class MeanCount(str, enum.Enum):
    """What a ``mean`` reduction divides by."""

    EXACT = "exact"
    ROUNDED = "rounded"
    STEPWISE = "stepwise"


class Identity(str, enum.Enum):
    """Where max/min start on floating data without ``include_self``."""

    INF = "inf"
    FINITE = "finite"


@dataclass(frozen=True)
class Fill:
    """The ``fill`` bounds policy with its value (``None``: zero of the dtype)."""

    value: Any = None


def fill(value: Any = None) -> Fill:
    """Bounds policy: out-of-range gathers return ``value`` (default zero).

    >>> fill(0)
    Fill(value=0)
    """
    return Fill(value)


_ENUM_NAMES = {
    Bounds: "bounds policy",
    Negative: "negative-index policy",
    Duplicates: "duplicates policy",
    Reduction: "reduction",
    MeanRounding: "mean rounding",
    Accumulate: "accumulation policy",
    MeanCount: "mean count policy",
    Identity: "max/min identity",
}


_PARSED: dict[tuple[type[enum.Enum], str], enum.Enum] = {}
"""Strings already parsed, per enum (a policy parses up to 9 on every call: 0.9 µs each through ``kind(value)``)."""


def parse_enum(kind: type[E], value: Any, *, what: str | None = None) -> E:
    """Parse ``value`` (a member or its string) as a member of ``kind``.

    Unknown strings raise :class:`UnsupportedError` naming the value and the
    accepted ones; non-strings raise :class:`ArgumentError`.
    """
    if isinstance(value, kind):
        return value
    if type(value) is str:
        member = _PARSED.get((kind, value))
        if member is not None:
            return member  # type: ignore[return-value]
    label = what or _ENUM_NAMES.get(kind, kind.__name__)
    if not isinstance(value, str):
        raise ArgumentError(f"{label} must be a string (got {value!r} of type {type(value).__name__})")
    try:
        member = kind(value)
        if type(value) is str:
            _PARSED[(kind, value)] = member
        return member
    except ValueError:
        choices = ", ".join(str(m.value) for m in kind)
        raise UnsupportedError(f"unknown {label} {value!r}; expected one of: {choices}") from None


@dataclass(frozen=True, init=False)
class Policy:
    """Every framework-dependent choice of one gather or scatter call.

    Strings are accepted for every field and parsed on construction;
    ``bounds=fill(v)`` sets ``bounds='fill'`` and ``fill_value=v``.

    >>> Policy(reduction="add", accumulate="float32").describe()
    'bounds=raise, negative=wrap, reduction=add, include_self=True, accumulate=float32'
    >>> Policy(mean_count="approx")
    Traceback (most recent call last):
    ...
    gatherscatter.errors.UnsupportedError: unknown mean count policy 'approx'; expected one of: exact, rounded, stepwise
    """

    bounds: Bounds
    negative: Negative
    duplicates: Duplicates
    reduction: Reduction
    include_self: bool
    mean_rounding: MeanRounding
    fill_value: Any
    accumulate: Accumulate
    mean_count: MeanCount
    identity: Identity

    def __init__(
        self,
        bounds: Bounds | Fill | str = Bounds.RAISE,
        negative: Negative | str = Negative.WRAP,
        duplicates: Duplicates | str = Duplicates.LAST,
        reduction: Reduction | str = Reduction.NONE,
        include_self: bool = True,
        mean_rounding: MeanRounding | str = MeanRounding.FLOOR,
        fill_value: Any = None,
        accumulate: Accumulate | str = Accumulate.DATA,
        mean_count: MeanCount | str = MeanCount.EXACT,
        identity: Identity | str = Identity.INF,
    ) -> None:
        if isinstance(bounds, Fill):
            fill_value = bounds.value
            bounds = Bounds.FILL
        if isinstance(include_self, np.bool_):
            include_self = bool(include_self)
        if not isinstance(include_self, bool):
            raise ArgumentError(
                f"include_self must be a bool (got {include_self!r} of type {type(include_self).__name__})"
            )
        setattr_ = object.__setattr__
        setattr_(self, "bounds", parse_enum(Bounds, bounds))
        setattr_(self, "negative", parse_enum(Negative, negative))
        setattr_(self, "duplicates", parse_enum(Duplicates, duplicates))
        setattr_(self, "reduction", parse_enum(Reduction, reduction))
        setattr_(self, "include_self", include_self)
        setattr_(self, "mean_rounding", parse_enum(MeanRounding, mean_rounding))
        setattr_(self, "fill_value", fill_value)
        setattr_(self, "accumulate", parse_enum(Accumulate, accumulate))
        setattr_(self, "mean_count", parse_enum(MeanCount, mean_count))
        setattr_(self, "identity", parse_enum(Identity, identity))

    def with_(self, **changes: Any) -> Policy:
        """A copy of this policy with some fields changed (strings parsed)."""
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        fields.update(changes)
        return Policy(**fields)

    def describe(self) -> str:
        """One line naming every field, for messages and explanations."""
        parts = [f"bounds={self.bounds.value}"]
        if self.bounds is Bounds.FILL:
            parts[-1] += f"({self.fill_value!r})"
        parts.append(f"negative={self.negative.value}")
        parts.append(f"reduction={self.reduction.value}")
        if self.reduction is Reduction.NONE:
            parts.append(f"duplicates={self.duplicates.value}")
        else:
            parts.append(f"include_self={self.include_self}")
        if self.reduction is Reduction.MEAN:
            parts.append(f"mean_rounding={self.mean_rounding.value}")
        # the newer fields only when they differ from their defaults (the common case reads as before)
        if self.accumulate is not Accumulate.DATA and self.reduction in _ACCUMULATING:
            parts.append(f"accumulate={self.accumulate.value}")
        if self.mean_count is not MeanCount.EXACT and self.reduction is Reduction.MEAN:
            parts.append(f"mean_count={self.mean_count.value}")
        if self.identity is not Identity.INF and self.reduction in _MAX_MIN and not self.include_self:
            parts.append(f"identity={self.identity.value}")
        return ", ".join(parts)


_ACCUMULATING = (Reduction.ADD, Reduction.SUB, Reduction.MUL, Reduction.MEAN)
_MAX_MIN = (Reduction.MAX, Reduction.MIN)

#: the two policies most gathers use, named once: an index outside ``[-s, s-1]`` raises and a negative one wraps
#: (``-1`` is the last; ONNX ``Gather``, ``paddle.gather``) ...
WRAPPING = Policy()
#: ... or any index outside ``[0, s-1]`` raises, negatives included (``torch.gather``, OpenVINO ``GatherElements``)
STRICT = Policy(bounds="raise", negative="raise")
#: NumPy's ``mode='wrap'`` and ``mode='clip'``, which ``mode`` arguments elsewhere follow (``mxnet.take``,
#: ``paddle.take``): every index, negatives included, is taken modulo s, or clamped into ``[0, s-1]``
MODULO = Policy(bounds="wrap", negative="bounds")
CLIP = Policy(bounds="clip", negative="bounds")
