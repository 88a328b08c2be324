"""Shared test set-up: hypothesis profiles and framework availability."""

from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def has(module: str) -> bool:
    """Whether ``module`` can be imported here (without importing it)."""
    return importlib.util.find_spec(module) is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Opt-in suites (framework markers, slow) run only when selected with -m."""
    selected = config.getoption("-m") or ""
    optin = ("tensorflow", "openvino", "paddle", "mxnet", "slow")
    for item in items:
        for name in optin:
            if item.get_closest_marker(name) is not None and name not in selected:
                item.add_marker(pytest.mark.skip(reason=f"opt-in suite: run with -m {name}"))


BACKENDS = ["numpy"] + (["numba"] if has("numba") else [])
"""Execution paths every exactness property runs against (numba: the accelerated kernels)."""


class using_backend:  # noqa: N801 - used as a context manager, like a function
    """``with using_backend('numba'):`` forces that path (at every size), then restores 'auto'."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        from gatherscatter import backends

        backends.set_backend(self.name)

    def __exit__(self, *exc: object) -> None:
        from gatherscatter import backends

        backends.set_backend("auto")
