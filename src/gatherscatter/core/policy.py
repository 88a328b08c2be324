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
    "Bounds",
    "Duplicates",
    "Fill",
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
}


def parse_enum(kind: type[E], value: Any, *, what: str | None = None) -> E:
    """Parse ``value`` (a member or its string) as a member of ``kind``.

    Unknown strings raise :class:`UnsupportedError` naming the value and the
    accepted ones; non-strings raise :class:`ArgumentError`.
    """
    if isinstance(value, kind):
        return value
    label = what or _ENUM_NAMES.get(kind, kind.__name__)
    if not isinstance(value, str):
        raise ArgumentError(f"{label} must be a string (got {value!r} of type {type(value).__name__})")
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(m.value) for m in kind)
        raise UnsupportedError(f"unknown {label} {value!r}; expected one of: {choices}") from None


@dataclass(frozen=True, init=False)
class Policy:
    """Every framework-dependent choice of one gather or scatter call.

    Strings are accepted for every field and parsed on construction;
    ``bounds=fill(v)`` sets ``bounds='fill'`` and ``fill_value=v``.
    """

    bounds: Bounds
    negative: Negative
    duplicates: Duplicates
    reduction: Reduction
    include_self: bool
    mean_rounding: MeanRounding
    fill_value: Any

    def __init__(
        self,
        bounds: Bounds | Fill | str = Bounds.RAISE,
        negative: Negative | str = Negative.WRAP,
        duplicates: Duplicates | str = Duplicates.LAST,
        reduction: Reduction | str = Reduction.NONE,
        include_self: bool = True,
        mean_rounding: MeanRounding | str = MeanRounding.FLOOR,
        fill_value: Any = None,
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
        return ", ".join(parts)
