"""Shared fixtures: one conformance kit per session (written by gatherscatter, read by every test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnx")

# helpers, not tests (their imports need onnx and torch): kept out of the doctest collection
collect_ignore = ["measure_speed.py", "real_models.py"]


@pytest.fixture(scope="session")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The whole kit, large cases included (about 90 MB on disk)."""
    from gatherscatter.onnxtools.conformance import export

    root = tmp_path_factory.mktemp("kit") / "kit"
    manifest = export(root)
    return root, manifest
