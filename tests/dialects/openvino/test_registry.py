"""The openvino dialect as a whole: registration, versions, docstrings, divergences."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import gatherscatter as gs

OPS = {
    "Gather": ("gather", ("1", "7", "8")),
    "GatherElements": ("gather_elements", ("6",)),
    "GatherND": ("gather_nd", ("5", "8")),
    "ScatterElementsUpdate": ("scatter_elements", ("3", "12")),
    "ScatterNDUpdate": ("scatter_nd", ("3", "15")),
    "ScatterUpdate": ("scatter_axis", ("3",)),
}


ARGS = {
    "Gather": ([1, 2], [0], 0),
    "GatherElements": ([1, 2], [0], 0),
    "GatherND": ([1, 2], [[0]]),
    "ScatterElementsUpdate": ([1, 2], [0], [5], 0),
    "ScatterNDUpdate": ([1, 2], [[0]], [5]),
    "ScatterUpdate": ([1, 2], [0], [5], 0),
}


def test_public_surface():
    assert gs.openvino.__all__ == sorted(gs.openvino.__all__)
    assert set(gs.openvino.__all__) == set(OPS)
    assert {op.info.name for op in gs.ops("openvino")} == set(OPS)


@pytest.mark.parametrize("name", sorted(OPS))
def test_registration_and_docs(name):
    op = getattr(gs.openvino, name)
    assert gs.get_op(f"openvino.{name}") is op
    family, versions = OPS[name]
    assert op.info.family == family
    assert op.info.versions == versions
    assert op.info.version_kw == "version"
    assert "data" in op.info.differentiable
    doc = op.__doc__ or ""
    for part in ("OpenVINO", "Equivalent loop", "Differs from", ">>> "):
        assert part in doc, (name, part)
    assert gs.divergences(f"openvino.{name}"), name


@pytest.mark.parametrize("name", sorted(OPS))
def test_default_version_is_newest(name):
    op = getattr(gs.openvino, name)
    newest = int(op.info.versions[-1])
    assert inspect.signature(op).parameters["version"].default == newest
    assert op.lower(*ARGS[name], version=None).ctx.version == f"{name}-{newest}"


def test_lowering_is_exposed():
    low = gs.openvino.Gather.lower([1, 2, 3], [5, -1], 0)
    assert low.primitive == "gather" and low.policy.bounds is gs.Bounds.FILL
    assert low.ctx.label == "openvino.Gather (Gather-8)"
    low = gs.openvino.ScatterElementsUpdate.lower([1, 2], [0], [5], 0, "mean", False)
    assert low.policy.reduction is gs.Reduction.MEAN and low.policy.include_self is False
    assert low.policy.mean_rounding is gs.MeanRounding.FLOOR


def test_divergence_records_are_complete():
    recs = [d for d in gs.divergences() if d.op.startswith("openvino.")]
    assert len(recs) >= 20
    for d in recs:
        assert d.case and d.reference and d.theirs and d.ours and d.evidence
        assert d.kind in ("undefined", "oracle", "spec", "device", "choice")
    mean = [d for d in recs if d.op == "openvino.ScatterElementsUpdate" and "mean" in d.case]
    assert mean and "-3" in mean[0].theirs and "-4" in mean[0].ours


def test_import_does_not_import_openvino():
    code = "import sys, gatherscatter; gatherscatter.openvino.Gather([1], [0], 0); print('openvino' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
