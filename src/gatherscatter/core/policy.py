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
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ArgumentError, UnsupportedError

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


def parse_enum(kind: type[enum.Enum], value: Any, *, what: str | None = None) -> Any:
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
        choices = ", ".join(m.value for m in kind)  # type: ignore[attr-defined]
        raise UnsupportedError(f"unknown {label} {value!r}; expected one of: {choices}") from None


@dataclass(frozen=True)
class Policy:
    """Every framework-dependent choice of one gather or scatter call.

    Strings are accepted for every field and parsed on construction;
    ``bounds=fill(v)`` sets ``bounds='fill'`` and ``fill_value=v``.
    """

    bounds: Bounds = Bounds.RAISE
    negative: Negative = Negative.WRAP
    duplicates: Duplicates = Duplicates.LAST
    reduction: Reduction = Reduction.NONE
    include_self: bool = True
    mean_rounding: MeanRounding = MeanRounding.FLOOR
    fill_value: Any = field(default=None, compare=True)

    def __post_init__(self) -> None:
        bounds: Any = self.bounds
        if isinstance(bounds, Fill):
            object.__setattr__(self, "fill_value", bounds.value)
            bounds = Bounds.FILL
        object.__setattr__(self, "bounds", parse_enum(Bounds, bounds))
        object.__setattr__(self, "negative", parse_enum(Negative, self.negative))
        object.__setattr__(self, "duplicates", parse_enum(Duplicates, self.duplicates))
        object.__setattr__(self, "reduction", parse_enum(Reduction, self.reduction))
        object.__setattr__(self, "mean_rounding", parse_enum(MeanRounding, self.mean_rounding))
        if not isinstance(self.include_self, (bool,)):
            import numpy as np

            if isinstance(self.include_self, np.bool_):
                object.__setattr__(self, "include_self", bool(self.include_self))
            else:
                raise ArgumentError(
                    f"include_self must be a bool (got {self.include_self!r} of type "
                    f"{type(self.include_self).__name__})"
                )

    def with_(self, **changes: Any) -> Policy:
        """A copy of this policy with some fields changed (strings parsed)."""
        return replace(self, **changes)

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
