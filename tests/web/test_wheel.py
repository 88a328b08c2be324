"""The page's files are packaged in the wheel (nothing is fetched at run time)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_static_files_are_in_the_wheel(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    wheel = next(iter(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])))
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("index.html", "app.js", "app.css"):
        assert f"gatherscatter/web/static/{f}" in names
    for m in ("app.py", "api.py", "backend.py", "worker.py"):
        assert f"gatherscatter/web/{m}" in names
    assert "gatherscatter/cli/serve.py" in names
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Provides-Extra: web" in text
