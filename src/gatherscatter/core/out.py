"""Caller-provided output arrays (``out=``): the rules, checked before any write.

An ``out`` array receives the result and is returned. It must be a
``numpy.ndarray`` of exactly the result's shape and dtype, C-contiguous,
writeable, and share no memory with any input, with one exception: a scatter
may write into ``data`` itself when the caller passes ``out=data`` (``out``
then covers exactly the memory of ``data``, same shape, strides and dtype).
That is an in-place update, the one way gatherscatter modifies an array the
caller passed, because the caller asked for it. Every broken rule raises
:class:`~gatherscatter.errors.ArgumentError` naming the rule; nothing has been
written when it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from ..errors import ArgumentError
from .context import OpContext
from .shape import dtype_name

__all__ = ["check_out", "check_out_inputs", "plan_accepts", "same_memory"]

_MAX_WORK = cast(Any, 1 << 16)  # bounded exact overlap test; beyond it, assume overlap (the stubs allow -1/0 only)


def same_memory(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    """Whether ``a`` and ``b`` are the same elements in the same layout (``out=data``)."""
    return (
        a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and a.shape == b.shape
        and a.strides == b.strides
        and a.dtype == b.dtype
    )


def _overlap(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    if a.size == 0 or b.size == 0 or not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=_MAX_WORK))
    except np.exceptions.TooHardError:
        return True


def check_out_inputs(
    ctx: OpContext,
    out: Any,
    inputs: Mapping[str, Any],
    inplace: str | None = None,
) -> bool:
    """Check ``out``'s type, layout and aliasing; True when it is ``inputs[inplace]`` itself.

    ``inputs`` maps argument names (as the caller knows them) to the values the
    caller passed (non-arrays cannot alias); ``inplace`` names the one input
    ``out`` may be exactly (a scatter's data), or None.
    """
    if not isinstance(out, np.ndarray):
        raise ArgumentError(f"{ctx.label}: out must be a numpy.ndarray (or None); got {type(out).__name__}")
    if not out.flags.writeable:
        raise ArgumentError(f"{ctx.label}: out must be writeable; got a read-only array")
    if not out.flags.c_contiguous:
        raise ArgumentError(f"{ctx.label}: out must be C-contiguous; got strides {list(out.strides)}")
    same = False
    for name, value in inputs.items():
        if not isinstance(value, np.ndarray) or not _overlap(out, value):
            continue
        if name == inplace and same_memory(out, value):
            same = True
            continue
        if name == inplace:
            raise ArgumentError(
                f"{ctx.label}: out overlaps {name} without being {name} itself; to update {name} in "
                f"place pass out={name} (the same array), otherwise pass a separate array"
            )
        extra = f" (only a scatter's data may be out, as out={inplace})" if inplace and name != inplace else ""
        raise ArgumentError(f"{ctx.label}: out must not share memory with {name}{extra}")
    return same


def check_out(
    ctx: OpContext,
    out: Any,
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    inputs: Mapping[str, Any],
    inplace: str | None = None,
) -> bool:
    """:func:`check_out_inputs`, then the result's ``shape`` and ``dtype``; True when in place."""
    same = check_out_inputs(ctx, out, inputs, inplace)
    if tuple(out.shape) != tuple(shape):
        raise ArgumentError(f"{ctx.label}: out must have the result's shape {list(shape)}; got {list(out.shape)}")
    if out.dtype != dtype:
        want, got = dtype_name(dtype), dtype_name(out.dtype)
        if want == got:  # same name, other byte order or unit
            want, got = dtype.str, out.dtype.str
        raise ArgumentError(f"{ctx.label}: out must have the result's dtype {want}; got {got}")
    return same


def plan_accepts(out: np.ndarray[Any, Any], data: np.ndarray[Any, Any], others: tuple[np.ndarray[Any, Any], ...],
                 inplace: bool) -> bool:
    """The rules of :func:`check_out_inputs` that a call plan (``core/plans.py``) checks on each call, its signature
    fixing ``out``'s type, dtype, shape and strides: ``out`` writeable and, ``inplace``, ``data`` itself, else
    sharing no memory with ``data`` or ``others``, in their quick, conservative form (the same object; memory
    bounds). False: the call takes the whole path, which applies the rules themselves."""
    if not out.flags.writeable:
        return False
    if inplace:
        return out is data
    return not any(np.may_share_memory(out, a) for a in (data, *others))
