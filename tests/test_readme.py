"""Every code block of README.md runs as written (issue 15: blocks used undefined names).

- ``pycon`` blocks (``>>>`` sessions) run as doctests: every shown result and error is checked;
- ``python`` blocks run with ``exec`` in a fresh namespace (each block is self-contained);
- python and bash blocks run in one temporary directory, in the README's order (python blocks first: the
  bash block that audits ``model.onnx`` reads what the python block before it wrote);
- ``bash`` blocks: each ``gatherscatter ...`` / ``python -m gatherscatter ...`` command runs through the CLI
  entry point in-process (status 0) in a temporary directory; the fuzzer's commands (minutes long) are
  parsed by the fuzzer's own argument parser; ``pip install`` and the pytest command (what CI runs) are
  left out; any other command fails the test until it is taught here.
"""

from __future__ import annotations

import doctest
import io
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.DOTALL | re.MULTILINE)


def blocks() -> list[tuple[str, int, str]]:
    text = README.read_text(encoding="utf-8")
    return [(m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2)) for m in FENCE.finditer(text)]


def _ids(kind: str) -> list[tuple[int, str]]:
    return [(line, body) for k, line, body in blocks() if k == kind]


def test_the_readme_has_the_blocks_this_file_runs():
    kinds = {k for k, _, _ in blocks()}
    assert kinds <= {"", "bash", "python", "pycon"}, kinds  # a new kind needs a runner here
    assert len(_ids("pycon")) >= 4 and len(_ids("python")) >= 2 and len(_ids("bash")) >= 3


@pytest.mark.parametrize(("line", "body"), _ids("pycon"), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_pycon_block(line, body):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, {}, f"README.md:{line}", str(README), line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    assert runner.tries > 0


@pytest.fixture(scope="module")
def readme_dir(tmp_path_factory):
    """The one directory every python and bash block of the README runs in (files they write land here)."""
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize(("line", "body"), _ids("python"), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_python_block(line, body, readme_dir, monkeypatch):
    monkeypatch.chdir(readme_dir)
    if "t.onnx_model" in body or "to_onnx" in body or "from onnx" in body:
        pytest.importorskip("onnx")
    exec(compile(body, f"README.md:{line}", "exec"), {"__name__": "readme"})  # the README's own code


SKIPPED = ("pip install ", "python -m pytest")


def _commands(body: str) -> list[str]:
    cmds = []
    for raw in body.replace("\\\n", " ").splitlines():  # a backslash continues the line, as in bash
        line = raw.split("  #")[0].strip()  # a comment after two spaces
        if line and not line.startswith("#"):
            cmds += [c.strip() for c in line.split("&&")]
    return cmds


@pytest.mark.parametrize(("line", "body"), _ids("bash"), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_bash_block(line, body, readme_dir, monkeypatch):
    from gatherscatter.cli import main
    from gatherscatter.fuzz.__main__ import _parser as fuzz_parser

    monkeypatch.chdir(readme_dir)  # files the commands write (--png out.png) land here
    ran = 0
    for cmd in _commands(body):
        argv = shlex.split(cmd)
        if cmd.startswith(SKIPPED):
            continue
        if argv[:3] == ["python", "-m", "gatherscatter.fuzz"]:
            fuzz_parser().parse_args(argv[3:])  # minutes of fuzzing: the arguments are checked, not run
            ran += 1
            continue
        if argv[:3] == ["python", "-m", "gatherscatter"]:
            args = argv[3:]
        elif argv[0] == "gatherscatter":
            args = argv[1:]
        else:
            pytest.fail(f"README.md:{line}: unknown command {cmd!r}; teach tests/test_readme.py to run it")
        if args[:1] == ["serve"]:
            from gatherscatter.cli import _parser

            _parser().parse_args(args)  # a server runs until stopped: the arguments are checked, not run
            ran += 1
            continue
        if "--png" in args:
            pytest.importorskip("PIL")
        if args[:1] in (["translate"], ["audit"], ["conformance"]):
            pytest.importorskip("onnx")  # the ONNX code
        out, err = io.StringIO(), io.StringIO()
        status = main(["--color", "never", *args], stdout=out, stderr=err)
        assert status == 0, f"README.md:{line}: {cmd!r} exited {status}: {err.getvalue()[-2000:]}"
        assert out.getvalue() or list(readme_dir.iterdir()), cmd
        ran += 1
    assert ran, f"README.md:{line}: no command ran"
