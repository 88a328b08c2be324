"""Helpers shared by the source descriptions: attribute checks and ``layout['to_source']`` mappers.

A mapper turns the canonical arrays the generic generator drew
(``canon['data']``, ``['indices']``, ``['updates']`` ...; see
:mod:`gatherscatter.translate.verify`) into the source op's own arguments: the
inverse of the description's ``pre`` adapters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...errors import ArgumentError, UnsupportedError
from ..verify import broadcastable

__all__ = [
    "Mapper",
    "check_bool",
    "check_choice",
    "check_int",
    "moved_axis_args",
    "named",
    "tuple_index_args",
]

Array = np.ndarray[Any, Any]
Mapper = Callable[[dict[str, Any], np.random.Generator], dict[str, Any]]


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


def named(**roles: str) -> Mapper:
    """Arguments named after the canonical roles: ``named(input='data', index='indices')``; ``'shape'``
    passes the data shape as a tuple."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        return {k: tuple(canon["data"].shape) if r == "shape" else canon[r] for k, r in roles.items()}

    return mapper


def moved_axis_args(dim: int, data: str, index: str, updates: str | None = None) -> Mapper:
    """Sources of the ``scatter_axis``/``index_*`` kind: the canonical call is an nd scatter with one-component
    tuples into ``moveaxis(data, dim, 0)``; the source sees data and updates with the axis at ``dim`` (the
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


def tuple_index_args(data: str, index: str, updates: str | None = None, *, as_array: bool = False,
                     broadcast: float = 0.0) -> Mapper:
    """Sources indexed NumPy style, ``x[idx]``: ``idx`` is a tuple of index arrays (one per tuple component),
    or one array (``as_array``: the canonical tuples have one component); ``updates`` may broadcast."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        i = canon["indices"]
        idx: Any = i[..., 0] if as_array else tuple(np.ascontiguousarray(i[..., j]) for j in range(i.shape[-1]))
        args = {data: canon["data"], index: idx}
        if updates is not None:
            args[updates] = broadcastable(rng, canon["updates"], broadcast)
        return args

    return mapper
