"""The error types of gatherscatter.

Every error the library raises is a :class:`GatherScatterError` and also the
matching builtin exception, so code written against NumPy-style exceptions keeps
working::

    GatherScatterError
    ├── IndexOutOfRangeError  (IndexError)   an index outside the valid range
    ├── ShapeError            (ValueError)   shapes or ranks that break an op's rule
    │   ├── AxisError                        an axis / dim / batch_dims out of range
    │   │   └── AxisIndexError        (+IndexError)     NumPy's AxisError is a ValueError and an IndexError
    │   ├── IndexShapeError       (+IndexError)     index shapes refused with IndexError (NumPy indexing)
    │   └── ShapeRuntimeError     (+RuntimeError)   shapes refused with RuntimeError (torch)
    ├── DTypeError            (TypeError)    a data or index dtype the op does not take
    │   ├── IndexDTypeError       (+IndexError)     an index dtype the framework refuses with IndexError
    │   ├── DTypeValueError       (+ValueError)     a value that cannot be converted (NumPy: ValueError)
    │   ├── DTypeOverflowError    (+OverflowError)  a value too large for the dtype (NumPy: OverflowError)
    │   └── DTypeRuntimeError     (+RuntimeError)   a value refused with RuntimeError (torch: an int past int32)
    ├── ArgumentError         (TypeError)    an argument of the wrong Python type
    │   ├── ArgumentValueError    (+ValueError)     an argument missing or refused with ValueError
    │   ├── ArgumentAttributeError (+AttributeError) a Python list or scalar where the framework reads .shape/.dtype
    │   └── IndexArgumentError    (+IndexError)     an index object refused with IndexError
    ├── DuplicateIndexError   (ValueError)   duplicates where the policy forbids them
    └── UnsupportedError      (ValueError)   an attribute, value or version the op does not have

The ``(+...)`` classes also derive from a second builtin: the one the real
framework raises for that case (NumPy raises IndexError for a float index array
in ``take_along_axis`` and ValueError for ``np.add.at(a, idx)`` without ``b``),
so that code catching the framework's exception catches ours.

Messages name the framework op and its version, the argument, the rule that was
broken, the offending value and (for indices) its position, in the caller's
vocabulary (``dim`` for torch, ``axis`` elsewhere).
"""

from __future__ import annotations

__all__ = [
    "ArgumentAttributeError",
    "ArgumentError",
    "ArgumentValueError",
    "AxisError",
    "AxisIndexError",
    "DTypeError",
    "DTypeOverflowError",
    "DTypeRuntimeError",
    "DTypeValueError",
    "DuplicateIndexError",
    "GatherScatterError",
    "IndexArgumentError",
    "IndexDTypeError",
    "IndexOutOfRangeError",
    "IndexShapeError",
    "ShapeError",
    "ShapeRuntimeError",
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


class IndexDTypeError(DTypeError, IndexError):
    """An index dtype the framework refuses with IndexError (also a :class:`DTypeError`).

    NumPy: ``np.take_along_axis(a, np.array([0.0]), 0)`` -> ``IndexError: arrays used as indices must be of
    integer (or boolean) type``.
    """


class ArgumentValueError(ArgumentError, ValueError):
    """An argument missing, or of a value the framework refuses with ValueError (also an :class:`ArgumentError`).

    NumPy: ``np.add.at(np.zeros(3), [0])`` -> ``ValueError: second operand needed for ufunc``.
    """


class IndexArgumentError(ArgumentError, IndexError):
    """An index object the framework refuses with IndexError (NumPy: ``a[1.0]``, two ellipses)."""


class IndexShapeError(ShapeError, IndexError):
    """Index shapes the framework refuses with IndexError (NumPy: too many indices, arrays that do not broadcast,
    a boolean mask of the wrong length)."""


class DTypeValueError(DTypeError, ValueError):
    """A value that cannot be converted to the dtype, refused with ValueError (NumPy: ``np.take(a, 'x')``)."""


class DTypeOverflowError(DTypeError, OverflowError):
    """A Python value too large for the dtype, refused with OverflowError (NumPy: ``np.put(int8_a, 0, [300])``)."""


class AxisIndexError(AxisError, IndexError):
    """An axis out of range where the framework's error is also an IndexError (``numpy.exceptions.AxisError``)."""


class DTypeRuntimeError(DTypeError, RuntimeError):
    """A value refused with RuntimeError (torch: ``torch.as_tensor([2**40], dtype=torch.int32)`` -> ``RuntimeError:
    value cannot be converted to type int32 without overflow``)."""


class ArgumentAttributeError(ArgumentError, AttributeError):
    """A Python list, tuple or scalar where the framework reads an array attribute, refused with AttributeError
    (Keras: ``keras.ops.segment_sum([1.0], [0])`` -> ``'list' object has no attribute 'shape'``)."""


class ShapeRuntimeError(ShapeError, RuntimeError):
    """Shapes refused with RuntimeError (torch: ``torch.take_along_dim`` with indices of another rank, a value
    tensor that does not broadcast to the indexing result)."""
