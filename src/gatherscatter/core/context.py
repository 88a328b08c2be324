"""Who is calling the core: the op, its version and the caller's vocabulary.

The core primitives format every error message with an :class:`OpContext`, so
that a message raised deep inside a primitive still names the framework op and
version and uses the framework's own argument names (``dim`` for torch,
``axis`` elsewhere; ``params`` for TensorFlow, ``input`` for torch ...).

Index-bound errors are worded here, once (:meth:`OpContext.index_error`), from
the context's fields: what varies between frameworks (``out of range`` or ``out
of bounds``, a closed ``[lo, hi]`` or TensorFlow's half-open ``[0, s)``, how a
position is printed, whether a whole index tuple is shown, the framework's own
phrase, the first or the last bad index) is a field, not a second bounds check
in the dialect.

>>> ctx = OpContext(op="tensorflow.gather", range_style="half_open", position_sep=",")
>>> str(ctx.index_error(value=3, position=(1, 0), size=3, axis=0))
'tensorflow.gather: indices[1,0] = 3 is not in [0, 3) (axis 0 of data has size 3)'
>>> np_ctx = OpContext(op="numpy.take", bounds_word="out of bounds")
>>> str(np_ctx.index_error(value=3, position=(1,), size=3, axis=0, lo=-3))
'numpy.take: indices[1] = 3 is out of bounds for axis 0 of data with size 3; valid range is [-3, 2]'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..errors import IndexOutOfRangeError

__all__ = ["NEUTRAL", "OpContext", "memo"]

_F = TypeVar("_F", bound=Callable[..., Any])
_PLAIN = frozenset({str, int, type(None)})


def memo(fn: _F) -> _F:
    """``fn`` with its results kept for arguments that are all ``str``, ``int`` or None, or tuples of them
    (exactly those types: ``True`` and ``1.0`` equal ``1`` but may be refused); other arguments call ``fn`` each
    time. Errors are not kept: a refused argument raises on every call.

    For a dialect's pure helpers run on every call (its :class:`OpContext`, its version check): building a
    frozen :class:`OpContext` took 1.9 µs and ONNX's opset check 2.4 µs of a 27 µs call; kept, 0.3-0.5 µs.
    At most 512 results are kept (a caller can pass any string).
    """
    kept = functools.lru_cache(maxsize=512)(fn)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        for v in (*args, *kwargs.values()):
            if type(v) not in _PLAIN and not (type(v) is tuple and all(type(x) in _PLAIN for x in v)):
                return fn(*args, **kwargs)
        return kept(*args, **kwargs)

    return call  # type: ignore[return-value]


@dataclass(frozen=True)
class OpContext:
    """Naming for messages: op, version and argument names as the caller knows them."""

    op: str = "gatherscatter"
    version: str = ""
    data: str = "data"
    indices: str = "indices"
    updates: str = "updates"
    axis: str = "axis"
    bounds_word: str = "out of range"
    """How a bad index is called: ``out of range`` (most) or ``out of bounds`` (NumPy)."""
    range_style: str = "closed"
    """``closed``: "indices[1] = 5 is out of range for axis 0 of data with size 3; valid range is [lo, hi]";
    ``half_open``: "indices[1] = 5 is not in [0, 3)" (TensorFlow); ``numpy``: NumPy's own IndexError
    words, "index 5 is out of bounds for axis 0 with size 3 (where)"."""
    position_sep: str = ", "
    """Between the coordinates of a position: ``indices[1, 0]`` or (TensorFlow) ``indices[1,0]``."""
    bounds_note: str = ""
    """The framework's own phrase, added to every index-bound message (what other devices do ...)."""
    tuple_shape: str = ""
    """Non-empty: a bad index tuple is shown whole, "does not index into <tuple_shape> [3,3]" (TensorFlow)."""
    negative_phrase: str = ""
    """Non-empty: how a refused negative index is called (``{size}`` is the axis size), instead of
    "is negative; <op> does not accept negative indices" (Caffe2: "out of DATA bounds (axis_dim=3): ...")."""
    report: str = "first"
    """Which bad index a message names, in row-major order of the indices: ``first`` or ``last``."""

    def __post_init__(self) -> None:
        if self.range_style not in ("closed", "half_open", "numpy") or self.report not in ("first", "last"):
            raise ValueError(f"OpContext: range_style must be closed|half_open|numpy, report first|last; got {self}")

    @property
    def label(self) -> str:
        """``'onnx.Gather (opset 13)'``: the op and version, for the start of a message."""
        return f"{self.op} ({self.version})" if self.version else self.op

    def with_(self, **changes: Any) -> OpContext:
        """A copy with some names changed."""
        return replace(self, **changes)

    def where(self, position: Sequence[int], name: str | None = None) -> str:
        """``indices[1, 0]`` (``indices`` alone for a 0-d array), in this context's style."""
        label = name or self.indices
        return f"{label}[{self.position_sep.join(str(int(p)) for p in position)}]" if len(position) else label

    def index_error(
        self,
        *,
        value: int,
        position: tuple[int, ...],
        size: int,
        axis: int,
        lo: int = 0,
        negative_rule: bool = False,
        index_tuple: Sequence[int] | None = None,
        component: int = 0,
        shape: Sequence[int] | None = None,
        name: str | None = None,
        target: str | None = None,
        subject: str | None = None,
        where: str | None = None,
    ) -> IndexOutOfRangeError:
        """The error for ``value`` at ``position`` of the indices: an index into ``axis`` of size ``size``.

        ``lo`` is the lowest valid index (``-size`` where negatives wrap);
        ``negative_rule``: the index is negative and the op takes no negative
        index. ``index_tuple`` (with ``component``, the bad entry's place in it,
        and ``shape``, the data's) is the whole tuple the index belongs to.
        ``target`` replaces "axis 0 of data with size 3" where an op indexes
        something else (a flattened array ...), ``subject`` "axis 0 of data" in
        the message for an empty axis; ``where`` replaces the position
        text where an op names it its own way.
        """
        where = where or self.where(position, name)
        valid = (lo, size - 1) if size > 0 else None
        note = self.bounds_note
        if self.range_style == "half_open":
            if index_tuple is not None and self.tuple_shape:
                dims = "[" + self.position_sep.join(str(int(n)) for n in (shape or ())) + "]"
                shown = ", ".join(str(int(v)) for v in index_tuple)
                msg = (
                    f"{self.label}: {self.where(position[:-1], name)} = [{shown}] "
                    f"does not index into {self.tuple_shape} {dims} (component {component} = {value} is not in "
                    f"[0, {size}){'; ' + note if note else ''})"
                )
            else:
                msg = (
                    f"{self.label}: {where} = {value} is not in [0, {size}) ({self.axis} {axis} of {self.data} has "
                    f"size {size}{'; ' + note if note else ''})"
                )
            return IndexOutOfRangeError(msg, value=value, position=position, valid=(0, size - 1) if size else None)
        tail = f"; {note}" if note else ""
        if self.range_style == "numpy":
            rest = "no index is valid" if size == 0 else f"valid range is [{lo}, {size - 1}]"
            msg = (
                f"{self.label}: index {value} is {self.bounds_word} for {self.axis} {axis} with size {size} "
                f"({where}); {rest}{tail}"
            )
            return IndexOutOfRangeError(msg, value=value, position=position, valid=valid)
        if size == 0:
            subject = subject or f"{self.axis} {axis} of {self.data}"
            msg = (
                f"{self.label}: {where} = {value} is {self.bounds_word}: {subject} has size 0, so no index is "
                f"valid{tail}"
            )
        elif negative_rule and self.negative_phrase:
            phrase = self.negative_phrase.format(size=size)
            msg = f"{self.label}: {where} = {value} is {phrase}; valid range is [0, {size - 1}]{tail}"
            valid = (0, size - 1)
        elif negative_rule:
            msg = (
                f"{self.label}: {where} = {value} is negative; {self.op} does not accept negative indices: each "
                f"index must be in [0, {size - 1}] for {self.axis} {axis} of {self.data} with size {size}{tail}"
            )
            valid = (0, size - 1)
        else:
            target = target or f"{self.axis} {axis} of {self.data} with size {size}"
            msg = (
                f"{self.label}: {where} = {value} is {self.bounds_word} for {target}; valid range is "
                f"[{lo}, {size - 1}]{tail}"
            )
        return IndexOutOfRangeError(msg, value=value, position=position, valid=valid)

    def index_rule_error(
        self,
        *,
        shown: str,
        position: tuple[int, ...],
        rule: str,
        value: int | None = None,
        name: str | None = None,
        valid: tuple[int, int] | None = None,
    ) -> IndexOutOfRangeError:
        """An index error whose rule is the op's own (``rule``: "is not a finite number; ..."), ``shown`` its value.

        ``valid``: the valid range, where the rule has one (a framework's own range words in ``rule``).
        """
        return IndexOutOfRangeError(f"{self.label}: {self.where(position, name)} = {shown} {rule}", value=value,
                                    position=position, valid=valid)


NEUTRAL = OpContext(op="gatherscatter")
