"""The error types of gatherscatter.

Every error the library raises is a :class:`GatherScatterError` and also the
matching builtin exception, so code written against NumPy-style exceptions keeps
working::

    GatherScatterError
    ├── IndexOutOfRangeError  (IndexError)   an index outside the valid range
    ├── ShapeError            (ValueError)   shapes or ranks that break an op's rule
    │   └── AxisError                        an axis / dim / batch_dims out of range
    ├── DTypeError            (TypeError)    a data or index dtype the op does not take
    ├── ArgumentError         (TypeError)    an argument of the wrong Python type
    ├── DuplicateIndexError   (ValueError)   duplicates where the policy forbids them
    └── UnsupportedError      (ValueError)   an attribute, value or version the op does not have

Messages name the framework op and its version, the argument, the rule that was
broken, the offending value and (for indices) its position, in the caller's
vocabulary (``dim`` for torch, ``axis`` elsewhere).
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "AxisError",
    "DTypeError",
    "DuplicateIndexError",
    "GatherScatterError",
    "IndexOutOfRangeError",
    "ShapeError",
    "UnsupportedError",
]


class GatherScatterError(Exception):
    """Base class of every error raised by gatherscatter."""


class IndexOutOfRangeError(GatherScatterError, IndexError):
    """An index lies outside the range the op and its policy accept.

    Attributes ``value`` (the offending index), ``position`` (its position in the
    index argument, a tuple) and ``valid`` (the inclusive valid range) are set
    when known.
    """

    def __init__(
        self,
        message: str,
        *,
        value: int | None = None,
        position: tuple[int, ...] | None = None,
        valid: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.value = value
        self.position = position
        self.valid = valid


class ShapeError(GatherScatterError, ValueError):
    """Shapes or ranks of the arguments break a rule of the op."""


class AxisError(ShapeError):
    """An axis, dim or batch_dims value lies outside its valid range."""


class DTypeError(GatherScatterError, TypeError):
    """A data or index dtype that the op (at this version) does not accept."""


class ArgumentError(GatherScatterError, TypeError):
    """An argument of the wrong Python type (for example a float axis)."""


class DuplicateIndexError(GatherScatterError, ValueError):
    """Duplicate scatter targets where the duplicates policy is ``raise``."""


class UnsupportedError(GatherScatterError, ValueError):
    """An attribute, attribute value, op or version the framework does not have."""
