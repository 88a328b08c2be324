"""Source descriptions: every registered op, read as a canonical call.

One module per framework registers, with :func:`source`, a function taking
the op's fixed keyword arguments (``axis=1``, ``reduce='mean'`` ...) and
returning a :class:`~gatherscatter.translate.model.Source`. The description
must be exact: ``verify`` checks the source op against its canonical program
on generated inputs before it checks any target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dialects._registry import get_op
from ...errors import ArgumentError, UnsupportedError
from ..model import Canonical, Source

__all__ = ["SOURCES", "canonical", "describe", "source"]

Describer = Callable[..., Source]
SOURCES: dict[str, Describer] = {}


def source(qualname: str) -> Callable[[Describer], Describer]:
    """Register the description of ``qualname``."""

    def deco(fn: Describer) -> Describer:
        SOURCES[qualname] = fn
        return fn

    return deco


def describe(op: Any, attrs: dict[str, Any]) -> Source:
    """The :class:`Source` of ``op`` (a name or a dialect function) called with ``attrs``."""
    _load()
    qual = get_op(op).info.qualname
    try:
        fn = SOURCES[qual]
    except KeyError:
        raise UnsupportedError(f"translate: no source description for {qual} yet") from None
    try:
        return fn(**attrs)
    except TypeError as e:
        raise ArgumentError(f"translate {qual}: {e}") from None


def canonical(family: str, *, data: str = "data", indices: str = "indices", updates: str | None = None,
              **kw: Any) -> Canonical:
    """A :class:`Canonical` whose output is ``'out'``, or ``'y'`` when a post step follows (pass ``out=``)."""
    out = kw.pop("out", "out")
    return Canonical(family=family, data=data, indices=indices, updates=updates, out=out, **kw)


def _load() -> None:
    from . import caffe2, jax, mxnet, neutral, numpy, onnx, openvino, paddle, tensorflow, torch  # noqa: F401
