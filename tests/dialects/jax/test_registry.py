"""The JAX dialect's public surface, registry entries, docstrings and divergence records."""

from __future__ import annotations

import subprocess
import sys

import pytest

import gatherscatter as gs
from gatherscatter.dialects._registry import Lowering

OPS = [
    "jax.take",
    "jax.take_along_axis",
    "jax.at_get",
    "jax.at_set",
    "jax.at_add",
    "jax.at_multiply",
    "jax.at_min",
    "jax.at_max",
    "jax.at_subtract",
    "jax.lax.gather",
    "jax.lax.scatter",
    "jax.lax.scatter_add",
    "jax.lax.scatter_mul",
    "jax.lax.scatter_min",
    "jax.lax.scatter_max",
    "jax.lax.scatter_sub",
    # composed ops, registered in session 7 (a scatter and an element-wise step)
    "jax.at_divide",
    "jax.at_power",
    "jax.at_apply",
    "jax.lax.scatter_apply",
]


def test_all_is_sorted_and_complete() -> None:
    for mod in (gs.jax, gs.jax.lax):
        assert mod.__all__ == sorted(mod.__all__)
        for name in mod.__all__:
            assert hasattr(mod, name), name


def test_registered_ops() -> None:
    # the segment family (issue 18) is tested in test_segment.py
    segment = [op.info.qualname for op in (gs.jax.segment_sum, gs.jax.segment_prod, gs.jax.segment_max, gs.jax.segment_min)]
    assert sorted(op.info.qualname for op in gs.ops("jax")) == sorted(OPS + segment)
    assert gs.get_op("jax.at_add") is gs.jax.at_add
    assert gs.get_op("jax.lax.scatter_add") is gs.jax.lax.scatter_add
    assert gs.get_op(gs.jax.take).info.family == "gather"
    assert gs.jax.at_add.info.differentiable == ("x", "values")
    assert gs.jax.lax.gather.info.kind == "gather"


@pytest.mark.parametrize("name", OPS)
def test_docstrings(name: str) -> None:
    doc = gs.get_op(name).__doc__ or ""
    for part in ("Provenance", "Equivalent loop", "Differs from", ">>> "):
        assert part in doc, (name, part)


def test_lowerings_are_lowerings() -> None:
    low = gs.jax.at_add.lower([1.0, 2.0], (slice(None),), 1.0)
    assert isinstance(low, Lowering) and low.primitive == "scatter"
    low = gs.jax.take.lower([1.0, 2.0], [0])
    assert isinstance(low, Lowering) and low.primitive == "gather"


@pytest.mark.parametrize("name", OPS)
def test_divergences_recorded_with_evidence(name: str) -> None:
    recs = gs.divergences(name)
    assert recs, name
    assert any("jax_enable_x64" in r.case for r in recs)
    for r in recs:
        assert r.evidence and r.theirs and r.ours and r.kind in ("undefined", "oracle", "spec", "device", "choice")


def test_import_does_not_import_jax() -> None:
    code = "import sys, gatherscatter; gatherscatter.jax.take([1], [0]); print('jax' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_gather_scatter_mode_parses_like_jax() -> None:
    M = gs.jax.lax.GatherScatterMode
    assert M.from_any(None) is M.FILL_OR_DROP
    assert M.from_any("drop") is M.FILL_OR_DROP
    assert M.from_any("clip") is M.CLIP
    assert M.from_any(M.ONE_HOT) is M.ONE_HOT
    with pytest.raises(gs.UnsupportedError, match="Unknown gather mode"):
        M.from_any("wrap")
