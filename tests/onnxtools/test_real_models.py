"""Real PyTorch modules exported with torch.onnx.export, run with the reference ops and audited.

Oracles: torch's own eager output and onnxruntime (single thread). Found on the way:
torch 2.13's exporter writes ``scatter_reduce(reduce='mean', include_self=False)`` as
two ScatterElements with reduction='none' (the TorchScript exporter refuses 'mean'),
so the exported GNN aggregation keeps the last message instead of the mean wherever
a node receives several; the audit reports exactly those nodes and positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("torch")
pytest.importorskip("onnxscript")  # the dynamo exporter (torch.onnx.export's default)
pytest.importorskip("onnxruntime")

from onnx.reference import ReferenceEvaluator

from gatherscatter.onnxtools.audit import audit
from gatherscatter.onnxtools.reference_ops import reference_ops
from gatherscatter.onnxtools.runners import run_model

from .real_models import MODELS, export

_CACHE: dict[str, Any] = {}


def exported(name: str) -> tuple[Any, dict[str, np.ndarray], list[np.ndarray]]:
    if name not in _CACHE:
        _CACHE[name] = export(name)
    return _CACHE[name]


def ours(model: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    return ReferenceEvaluator(model, new_ops=reference_ops()).run(None, feeds)


GATHER_SCATTER = {"Gather", "GatherElements", "GatherND", "ScatterElements", "ScatterND"}


@pytest.mark.parametrize("name", MODELS)
def test_reference_ops_equal_onnxruntime(name: str) -> None:
    model, feeds, _ = exported(name)
    assert GATHER_SCATTER & {n.op_type for n in model.graph.node}
    got = ours(model, feeds)
    want = run_model("onnxruntime", model, feeds, threads=1)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name", ["gnn_mean_add", "embedding", "kv_cache", "topk"])
def test_reference_ops_equal_torch_where_the_export_is_faithful(name: str) -> None:
    model, feeds, want = exported(name)
    for g, w in zip(ours(model, feeds), want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=0)


def test_the_exported_mean_aggregation_is_not_a_mean_and_the_audit_says_where() -> None:
    model, feeds, (want,) = exported("gnn_mean")
    (got,) = ours(model, feeds)
    dst = feeds["dst"]
    counts = np.bincount(dst, minlength=want.shape[0])
    wrong_rows = sorted(np.flatnonzero(np.any(got != want, axis=1)).tolist())
    assert wrong_rows == sorted(np.flatnonzero(counts > 1).tolist()) == [1, 5]
    r = audit(model, feeds, runtimes=["onnxruntime", "openvino", "reference"])
    assert r.exit_status == 1
    scatters = [n for n in r.nodes if n.op == "ScatterElements"]
    assert [n.attrs["reduction"] for n in scatters] == ["none", "none"]
    # the first writes a constant (colliding updates are equal: no order dependence), the second the messages
    first, second = ([f for f in n.findings if f.condition == "duplicates"] for n in scatters)
    assert first == []
    (dup,) = second
    # updates 1 and 6 (dst 1) and 5 (dst 5, after 4) land where another message already was, 4 columns each
    assert (dup.level, dup.count) == ("error", 12)
    assert dup.positions == ["indices[1, 0]", "indices[6, 0]", "indices[1, 1]", "indices[6, 1]", "indices[1, 2]"]


def test_the_scatter_add_mean_is_clean() -> None:
    model, feeds, _ = exported("gnn_mean_add")
    r = audit(model, feeds, runtimes=["onnxruntime", "openvino", "reference"])
    assert r.exit_status == 0
    assert [n.attrs.get("reduction") for n in r.nodes if n.op == "ScatterElements"] == ["add", "add"]


def test_embedding_with_a_token_out_of_range() -> None:
    model, feeds, _ = exported("embedding")
    assert audit(model, feeds).exit_status == 0
    bad = {"tokens": np.array([[1, 10, 0], [3, -11, 2]])}
    r = audit(model, bad, runtimes=["onnxruntime", "openvino"])
    f = next(f for f in r.findings if f.condition == "out_of_range")
    assert f.level == "error" and f.positions == ["indices[0, 1] = 10 (axis size 10)",
                                                  "indices[1, 1] = -11 (axis size 10)"]
    assert f.runtimes["openvino"].startswith("Gather returns zeros")


def test_kv_cache_with_a_repeated_position() -> None:
    model, feeds, _ = exported("kv_cache")
    assert audit(model, feeds).exit_status == 0
    r = audit(model, {**feeds, "pos": np.array([5, 5])})
    dup = [f for f in r.findings if f.condition == "duplicates"]
    assert dup and all(f.level == "error" for f in dup)


def test_topk_gather_is_clean() -> None:
    model, feeds, _ = exported("topk")
    r = audit(model, feeds)
    assert r.exit_status == 0
    (node,) = r.nodes
    assert node.op == "GatherElements" and node.attrs == {"axis": -1}
