"""The loop oracle (core/loops.py) is independent of the code it checks.

It imports nothing from the vectorised core but the Policy and IndexSpec types
(checked on its source with ``ast``), so a bug planted in ``core/indices.py`` or
``core/scatter.py`` makes the loop-vs-core cross-check fail: a broken clip bound
used to pass ``test_gather_matches_loop`` because the loop resolved its indices
with the same ``resolve``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import numpy as np
import pytest

from gatherscatter.core import IndexSpec, Policy, gather, indices, loops, scatter
from gatherscatter.core.loops import gather_loop, scatter_loop
from tests.conftest import using_backend
from tests.core import test_primitives

scatter_module = importlib.import_module("gatherscatter.core.scatter")  # the package exports the function

# what loops.py may import from the package: the two description types, naming, errors
ALLOWED = {
    "gatherscatter.errors": None,
    "gatherscatter.core.context": {"NEUTRAL", "OpContext"},
    "gatherscatter.core.policy": {
        "Accumulate", "Bounds", "Duplicates", "Identity", "MeanCount", "MeanRounding", "Negative", "Policy",
        "Reduction",
    },
    "gatherscatter.core.shape": {"IndexSpec"},
}


def test_the_loops_import_only_the_policy_and_index_spec_types():
    tree = ast.parse(Path(loops.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            target = ("gatherscatter.core." + (node.module or "")) if node.level == 1 else (
                "gatherscatter." + (node.module or "")
            )
            assert target in ALLOWED, f"loops.py imports {target}"
            names = {a.name for a in node.names}
            allowed = ALLOWED[target]
            assert allowed is None or names <= allowed, f"loops.py imports {names - (allowed or set())} from {target}"
        elif isinstance(node, ast.Import):
            assert all(not a.name.startswith("gatherscatter") for a in node.names)


def _broken_clip(monkeypatch):
    """core/indices.py with the clip bound off by one (clamps to s, not s - 1)."""
    src = inspect.getsource(indices._component)
    assert "np.clip(c, 0, size - 1)" in src
    namespace = dict(vars(indices))
    exec(src.replace("np.clip(c, 0, size - 1)", "np.clip(c, 0, size)"), namespace)
    monkeypatch.setattr(indices, "_component", namespace["_component"])


def test_a_broken_clip_bound_in_the_core_is_caught_by_the_loop(monkeypatch):
    data, idx, spec, clip = np.array([10, 20, 30]), np.array([5, 1]), IndexSpec(), Policy(bounds="clip")
    with using_backend("numpy"):
        assert gather(data, idx, spec, clip).tolist() == [30, 20]
        _broken_clip(monkeypatch)
        assert gather(data, idx, spec, clip).tolist() != [30, 20]  # the planted bug is live ...
    assert gather_loop(data, idx, spec, clip).tolist() == [30, 20]  # ... and the oracle does not share it


def test_the_cross_check_fails_on_a_broken_clip_bound(monkeypatch):
    test_primitives.check_gather_corners("numpy")  # passes on the real core
    _broken_clip(monkeypatch)
    with pytest.raises(AssertionError):
        test_primitives.check_gather_corners("numpy")


def test_a_broken_reduction_start_is_caught_by_the_loop(monkeypatch):
    # max without include_self must start from -inf: a start of 0 loses negative maxima
    real = scatter_module.identity_of
    monkeypatch.setattr(scatter_module, "identity_of", lambda red, dtype, *a: np.zeros((), dtype))
    data, idx, upd = np.array([5.0, 5.0]), np.array([0, 0]), np.array([-2.0, -3.0])
    policy = Policy(reduction="max", include_self=False)
    with using_backend("numpy"):
        assert scatter(data, idx, upd, IndexSpec(), policy).tolist() == [0.0, 5.0]  # the planted bug
    assert scatter_loop(data, idx, upd, IndexSpec(), policy).tolist() == [-2.0, 5.0]
    monkeypatch.setattr(scatter_module, "identity_of", real)
    with using_backend("numpy"):
        assert scatter(data, idx, upd, IndexSpec(), policy).tolist() == [-2.0, 5.0]
