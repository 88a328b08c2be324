"""Colour and plain output: rich when wanted and installed, plain text otherwise (both tested).

Importing gatherscatter (or its CLI) never imports rich or Pillow.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from gatherscatter.cli import main

ARGS = ("explain", "onnx.GatherElements", "--data", "[[1,2],[3,4]]", "--indices", "[[0,0],[1,0]]", "--axis", "1")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(*argv: str, stream: io.StringIO | None = None) -> str:
    out = stream if stream is not None else io.StringIO()
    assert main(["--width", "100", *argv], stdout=out, stderr=io.StringIO()) == 0
    return out.getvalue()


def test_color_always_uses_rich_with_the_palette():
    pytest.importorskip("rich")
    text = _run("--color", "always", *ARGS)
    assert "\x1b[" in text
    assert "48;2;141;211;199" in text  # the first palette colour (#8dd3c7) behind cell A
    assert "A:1" in text


def test_tty_gets_colour_unless_no_color(monkeypatch):
    pytest.importorskip("rich")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" in _run(*ARGS, stream=_Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in _run(*ARGS, stream=_Tty())


def test_non_tty_is_plain(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    text = _run(*ARGS)
    assert "\x1b[" not in text
    assert "A:1 A:1" in text


def test_without_rich_output_is_plain_text(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)  # import rich -> ImportError
    monkeypatch.setitem(sys.modules, "rich.console", None)
    plain = _run("--color", "never", *ARGS)
    assert _run("--color", "always", *ARGS) == plain
    assert _run(*ARGS, stream=_Tty()) == plain
    assert "\x1b[" not in plain


def test_rich_and_plain_show_the_same_text():
    pytest.importorskip("rich")
    import re

    coloured = _run("--color", "always", *ARGS)
    stripped = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert [ln.rstrip() for ln in stripped.splitlines()] == _run("--color", "never", *ARGS).splitlines()


def test_importing_gatherscatter_imports_neither_rich_nor_pillow():
    code = (
        "import sys, gatherscatter, gatherscatter.cli, gatherscatter.explain, gatherscatter.explain.svg\n"
        "bad = [m for m in ('rich', 'PIL') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
