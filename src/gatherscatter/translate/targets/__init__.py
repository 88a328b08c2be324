"""Target planners: how each framework computes a canonical call.

:data:`TARGETS` names every target and the module holding its planner
``plan(c, names, version) -> TargetPlan``; a module is imported when its target
is first planned for. A planner picks the framework's ops for the canonical
family, adds the adapters of :mod:`..plan` and lists the residuals.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ...errors import UnsupportedError
from ..model import Canonical, TargetPlan
from ..plan import Names

__all__ = ["TARGETS", "plan_target"]

Planner = Callable[[Canonical, Names, Any], TargetPlan]

#: every target framework and the module (in this package) of its planner
TARGETS: dict[str, str] = {
    "caffe2": "caffe2",
    "gatherscatter": "neutral",
    "jax": "jax",
    "keras": "keras",
    "lax": "lax",
    "mlx": "mlx",
    "mxnet": "mxnet",
    "numpy": "numpy",
    "onnx": "onnx",
    "openvino": "openvino",
    "paddle": "paddle",
    "tensorflow": "tensorflow",
    "torch": "torch",
}


def planner(framework: str) -> Planner:
    """The planner of ``framework`` (UnsupportedError naming the targets for an unknown one)."""
    module = TARGETS.get(framework)
    if module is None:
        raise UnsupportedError(
            f"translate: unknown target framework {framework!r}; expected one of {', '.join(sorted(TARGETS))}"
        )
    fn: Planner = importlib.import_module(f"{__name__}.{module}").plan
    return fn


def plan_target(framework: str, c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The plan of ``framework`` for ``c`` (``version``: an ONNX opset, an OpenVINO version ...)."""
    return planner(framework)(c, names, version)


def _load() -> None:
    """Import every planner (kept for callers that want them all loaded)."""
    for name in TARGETS:
        planner(name)
