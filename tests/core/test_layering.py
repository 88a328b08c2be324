"""The layers import only downward: errors -> backends -> core -> dialects.

Every ``import`` statement of every module in a layer is read with ``ast`` (those
inside functions too: a lazy import is still an edge), resolved to the module it
names, and must name the same layer or one below it. Nothing in these layers may
import the packages built on top of them (grad, explain, translate, fuzz, cli,
the public ``api``) or the package root.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gatherscatter

SRC = Path(gatherscatter.__file__).parent
LAYERS = ["errors", "backends", "core", "dialects"]  # bottom to top


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in ``tree`` (``from X import y`` gives ``X.y``)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def _layer(name: str) -> str | None:
    """The layer (or other first-level part) of ``gatherscatter.<part>...``; None outside the package."""
    parts = name.split(".")
    if parts[0] != "gatherscatter":
        return None
    return parts[1] if len(parts) > 1 else ""


def upward_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` (source text) that break the layering, as ``'line: target'``."""
    own = _layer(module)
    assert own in LAYERS, module
    rank = LAYERS.index(own)
    bad = []
    for line, target in _imported(ast.parse(source), module, is_package):
        layer = _layer(target)
        if layer is None:
            continue  # numpy, numba, the standard library ...
        if layer not in LAYERS or LAYERS.index(layer) > rank:
            bad.append(f"{line}: {target}")
    return bad


def _modules() -> list[Path]:
    files = [SRC / "errors.py"]
    for layer in LAYERS[1:]:
        files += sorted((SRC / layer).rglob("*.py"))
    return files


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_upward_import(path):
    module = _module_name(path)
    bad = upward_imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    assert bad == [], f"{module} imports from a layer above it: {bad}"


def test_every_layer_is_checked():
    names = {_module_name(p) for p in _modules()}
    assert {"gatherscatter.errors", "gatherscatter.backends", "gatherscatter.core.scatter",
            "gatherscatter.core.accel", "gatherscatter.dialects._registry"} <= names
    assert len(names) > 60


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        # the edges this rule was written against: backends reaching into core, at the top or lazily
        (
            "from ..core.shape import IndexSpec, prod\n",
            "gatherscatter.backends.accel",
            ["1: gatherscatter.core.shape.IndexSpec", "1: gatherscatter.core.shape.prod"],
        ),
        ("def f():\n    from ..core.gather import piece_size\n", "gatherscatter.backends.accel", ["2: gatherscatter.core.gather.piece_size"]),
        ("from .. import core\n", "gatherscatter.backends", ["1: gatherscatter.core"]),
        ("import gatherscatter.dialects._registry\n", "gatherscatter.core.gather", ["1: gatherscatter.dialects._registry"]),
        ("from ...translate import plan\n", "gatherscatter.dialects.onnx.gather", ["1: gatherscatter.translate.plan"]),
        ("from .. import errors\n", "gatherscatter.core.shape", []),
        ("from .. import backends\nfrom . import accel\nimport numpy as np\n", "gatherscatter.core.gather", []),
        ("from ...core.policy import Policy\n", "gatherscatter.dialects.onnx.gather", []),
        ("from .numba_kernels import warm_up\n", "gatherscatter.backends", []),
    ],
)
def test_the_checker_finds_upward_imports(source, module, expected):
    is_package = module == "gatherscatter.backends"
    assert upward_imports(source, module, is_package) == expected
