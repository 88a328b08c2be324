"""Target planners: how each framework computes a canonical call.

One module per framework registers ``plan(c, names, version) -> TargetPlan``
with :func:`target`. A planner picks the framework's op for the canonical
family, adds the adapters of :mod:`..plan` and lists the residuals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import UnsupportedError
from ..model import Canonical, TargetPlan
from ..plan import Names

__all__ = ["TARGETS", "plan_target", "target"]

Planner = Callable[[Canonical, Names, Any], TargetPlan]
TARGETS: dict[str, Planner] = {}


def target(framework: str) -> Callable[[Planner], Planner]:
    """Register the planner of ``framework``."""

    def deco(fn: Planner) -> Planner:
        TARGETS[framework] = fn
        return fn

    return deco


def plan_target(framework: str, c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The plan of ``framework`` for ``c`` (``version``: an ONNX opset, an OpenVINO version ...)."""
    _load()
    try:
        planner = TARGETS[framework]
    except KeyError:
        raise UnsupportedError(
            f"translate: unknown target framework {framework!r}; expected one of {', '.join(sorted(TARGETS))}"
        ) from None
    return planner(c, names, version)


def _load() -> None:
    from . import caffe2, jax, mxnet, neutral, numpy, onnx, openvino, paddle, tensorflow, torch  # noqa: F401
