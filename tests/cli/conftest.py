"""Golden-file helper for the CLI: fixed width, no colour, same output whatever is installed.

Regenerate with ``GS_UPDATE_GOLDEN=1 python -m pytest tests/cli``, then read the diff
(``git diff tests/cli/golden``) before keeping it: a golden file is a reviewed output.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gatherscatter.cli import main

GOLDEN = Path(__file__).parent / "golden"
WIDTH = "100"


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process at the golden width without colour: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["--width", WIDTH, "--color", "never", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def golden(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], None]:
    monkeypatch.delenv("NO_COLOR", raising=False)

    def check(name: str, text: str) -> None:
        path = GOLDEN / f"{name}.txt"
        if os.environ.get("GS_UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {path.name}: run with GS_UPDATE_GOLDEN=1 and review it"
        expected = path.read_text(encoding="utf-8")
        assert text == expected, f"output differs from {path.name} (GS_UPDATE_GOLDEN=1 regenerates it)"

    return check
