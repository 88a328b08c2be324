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
from ..model import NEUTRAL, Canonical, TargetPlan
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
    "tflite": "tflite",
    "torch": "torch",
}


def plan_target(framework: str, c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    """The plan of ``framework`` for ``c`` (``version``: an ONNX opset, an OpenVINO version ...)."""
    module = TARGETS.get(framework)
    if module is None:
        raise UnsupportedError(
            f"translate: unknown target framework {framework!r}; expected one of {', '.join(sorted(TARGETS))}"
        )
    if c.family not in NEUTRAL:  # the planners handle the canonical families only
        raise UnsupportedError(f"translate to {framework}: unknown family {c.family!r}")
    planner: Planner = importlib.import_module(f"{__name__}.{module}").plan
    return planner(c, names, version)
