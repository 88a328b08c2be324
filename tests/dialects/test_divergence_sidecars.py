"""Divergence records live in data files: each op file's ``<stem>.toml`` next to it, read at import.

``divergence_table(op, __file__[, section], **computed)`` reads the op file's sidecar; these
tests check that no op file writes the TOML inline any more, that every sidecar is read whole,
that a broken sidecar stops the import with the file's name, and that the wheel ships them.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import gatherscatter
from gatherscatter.dialects import _registry
from gatherscatter.dialects._registry import _DIVERGENCES, _SIDECAR_READS, divergence_table, divergences

DIALECTS = Path(_registry.__file__).parent
ROOT = Path(__file__).resolve().parents[2]


def _calls(py: Path) -> list[ast.Call]:
    tree = ast.parse(py.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "divergence_table"]


def test_op_files_read_their_sidecar_and_write_no_toml() -> None:
    inline = []
    for py in sorted(DIALECTS.rglob("*.py")):
        if py.name == "_registry.py":
            continue
        for call in _calls(py):
            src = call.args[1]
            if not (isinstance(src, ast.Name) and src.id == "__file__"):
                inline.append(f"{py.relative_to(DIALECTS)}:{call.lineno}")
        assert "[[divergence]]" not in py.read_text(encoding="utf-8"), py
    assert inline == [], f"TOML text in op files (move it to <op>.toml next to them): {inline}"


def test_every_sidecar_is_read_whole() -> None:
    import tomllib

    divergences()  # imports every dialect
    sidecars = sorted(DIALECTS.rglob("*.toml"))
    assert len(sidecars) >= 60
    assert {p for p in _SIDECAR_READS if DIALECTS in p.parents} == set(sidecars)
    for toml in sidecars:
        assert toml.with_suffix(".py").exists(), toml
        keys = set(tomllib.loads(toml.read_text(encoding="utf-8")))
        assert keys == _SIDECAR_READS[toml], f"{toml}: sections no call reads: {sorted(keys - _SIDECAR_READS[toml])}"


def test_sections_hold_one_call_each() -> None:
    """numpy/at.py: four calls, four sections of at.toml; each op gets its sections' records, in call order."""
    def cases(op: str) -> list[str]:
        return [d.case[:30] for d in divergences(op)]

    # the first record is built in Python (divergence(...)); then numpy/at.toml's [[promotes_to_wider_loop]]
    # (every *_at op) and the op's own section
    assert cases("numpy.add_at")[1:] == ["b promotes a to a wider loop d", "b=None passed explicitly (also"]
    assert cases("numpy.maximum_at")[1:] == ["b promotes a to a wider loop d", "complex a"]
    assert cases("numpy.minimum_at")[1:] == ["b promotes a to a wider loop d", "complex a"]


def _op_file(tmp_path: Path, toml: str | None) -> str:
    py = tmp_path / "my_op.py"
    py.write_text("")
    if toml is not None:
        (tmp_path / "my_op.toml").write_text(toml)
    return str(py)


RECORD = 'case = "c"\nwhen = "always"\nreference = "r"\ntheirs = "t"\nours = "o"\nevidence = "e"\n'


def test_a_sidecar_is_read_by_section(tmp_path: Path) -> None:
    other = RECORD.replace('"c"', '"d"')
    src = _op_file(tmp_path, f"[[divergence]]\n{RECORD}\n[[other]]\n{other}kind = 'spec'\n")
    n = len(_DIVERGENCES)
    try:
        (a,) = divergence_table("onnx.Gather", src)
        (b,) = divergence_table("onnx.Gather", src, "other", versions="13")
    finally:
        del _DIVERGENCES[n:]  # (not real records)
    assert (a.case, a.kind, a.versions, a.when) == ("c", "choice", "all", ("always",))
    assert (b.case, b.kind, b.versions) == ("d", "spec", "13")


@pytest.mark.parametrize(
    ("toml", "section", "said"),
    [
        (None, "divergence", r"cannot read .*my_op\.toml, the known divergences of my_op\.py \(No such file"),
        ("[[divergence]]\ncase = \n", "divergence", r"my_op\.toml is not valid TOML \(.*line 2"),
        (f"[[divergence]]\n{RECORD}", "other", r"my_op\.toml has no \[\[other\]\] array of tables .*'divergence'"),
        (f"[[divergence]]\n{RECORD}colour = 'red'\n", "divergence",
         r"my_op\.toml, \[\[divergence\]\] table 1: .*colour"),
        (f"[[divergence]]\n{RECORD.replace('always', 'sometimes')}", "divergence",
         r"my_op\.toml, \[\[divergence\]\] table 1: .*unknown condition"),
    ],
)
def test_a_broken_sidecar_names_its_file(tmp_path: Path, toml: str | None, section: str, said: str) -> None:
    src = _op_file(tmp_path, toml)
    n = len(_DIVERGENCES)
    with pytest.raises(ValueError, match=r"^divergences of onnx\.Gather: .*" + said):
        divergence_table("onnx.Gather", src, section)
    assert len(_DIVERGENCES) == n


def test_a_broken_sidecar_stops_the_import(tmp_path: Path) -> None:
    """An op file whose sidecar is missing fails at import, naming the file (a copy of one dialect package)."""
    pkg = tmp_path / "gatherscatter"
    import shutil

    shutil.copytree(Path(gatherscatter.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "dialects" / "onnx" / "gather.toml").unlink()
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", "import gatherscatter"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1] == (
        f"ValueError: divergences of onnx.Gather: cannot read {pkg / 'dialects' / 'onnx' / 'gather.toml'}, "
        "the known divergences of gather.py (No such file or directory)"
    )


_DUMP = """
import dataclasses, json, sys
import gatherscatter
from gatherscatter.dialects._registry import divergences
assert gatherscatter.__file__.startswith(sys.argv[1]), gatherscatter.__file__
json.dump([[repr(getattr(d, f.name)) for f in dataclasses.fields(d)] for d in divergences()], sys.stdout)
"""


def test_the_wheel_ships_the_sidecars_and_reads_them_installed(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    wheel = next(iter(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])))
    with zipfile.ZipFile(wheel) as z:
        shipped = {n for n in z.namelist() if n.endswith(".toml")}
        site = tmp_path / "site"
        z.extractall(site)  # what an installer puts in site-packages
    here = {f"gatherscatter/{p.relative_to(DIALECTS.parent).as_posix()}" for p in DIALECTS.rglob("*.toml")}
    assert shipped == here
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", _DUMP, str(site)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=True)
    mine = [[repr(getattr(d, f.name)) for f in dataclasses.fields(d)] for d in divergences()]
    assert json.loads(out.stdout) == mine
