"""Target planners: every framework computes every canonical family, proven by running both sides.

``translate(op, to=target).verify(n)`` runs the SOURCE op (its dialect, verified against
its real framework) and the translated program (the target framework's ops, through
their dialects, plus adapters) on generated cases -- negative, duplicate, out-of-range,
empty and 0-d indices -- and fails on any difference that no listed residual divergence
explains. The default suite verifies a representative set of sources (the neutral API
with its policy grid, plus name-alike framework ops) into every target; the ``slow``
sweep verifies every source op (``coverage.calls()``) into every target.
Plan shapes (which op, which adapter, which residual) are checked against hand-written
expectations taken from docs/semantics.md#s9/docs/semantics.md#s10 and the framework docs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from gatherscatter.errors import UnsupportedError
from gatherscatter.translate import translate
from gatherscatter.translate.targets import TARGETS

from .codegen_util import NEUTRAL, REPRESENTATIVE, call_id

FRAMEWORKS = ["torch", "tensorflow", "jax", "lax", "numpy", "paddle", "openvino", "mxnet", "caffe2"]
FAMILIES = ("gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd")


def test_every_framework_has_a_planner():
    assert set(FRAMEWORKS) <= set(TARGETS)


@pytest.mark.parametrize("target", FRAMEWORKS)
@pytest.mark.parametrize(("op", "attrs"), REPRESENTATIVE, ids=[call_id(o, a) for o, a in REPRESENTATIVE])
def test_translation_verifies(target, op, attrs):
    if target == "caffe2" and "scatter" in translate(op, to="gatherscatter", **attrs).source.canonical.family:
        with pytest.raises(UnsupportedError, match="Caffe2 has no scatter op here"):
            translate(op, to=target, **attrs)
        return
    t = translate(op, to=target, **attrs)
    report = t.verify(n=18, seed=3)
    assert report.ok, f"{t}\n{report}"
    assert report.agree > 0


@pytest.mark.parametrize("target", FRAMEWORKS)
def test_every_family_is_planned(target):
    """Each family (and batch dims, broadcast, every reduction, include_self, every bounds policy) has a plan."""
    planned = Counter()
    for op, attrs in NEUTRAL:
        if target == "caffe2" and op.split(".")[1].startswith("scatter"):
            continue
        t = translate(op, to=target, **attrs)
        planned[t.source.canonical.family] += 1
        assert t.ops, t
    want = FAMILIES[:3] if target == "caffe2" else FAMILIES
    assert set(want) <= set(planned), planned


def _ops(op: str, to: str, **attrs: Any) -> list[str]:
    return translate(op, to=to, **attrs).ops


def _adapters(op: str, to: str, **attrs: Any) -> list[str]:
    return [s.name for s in translate(op, to=to, **attrs).steps if s.kind == "adapter"]


# --------------------------------------------------------------------------- plans (hand-written expectations)


def test_torch_uses_native_scatter_reduce_with_include_self():
    # torch.scatter_reduce has mean and include_self itself: no docs/semantics.md#e10/docs/semantics.md#e11
    # decomposition
    t = translate("gatherscatter.scatter_along_axis", to="torch", axis=0, reduction="mean", include_self=False)
    assert t.ops == ["torch.scatter_reduce"]
    (step,) = [s for s in t.steps if s.kind == "op"]
    assert step.attr_map == {"dim": 0, "reduce": "mean", "include_self": False}
    # a mean rounding toward zero is not torch's: docs/semantics.md#e11 (sum / count) with trunc division
    t = translate("gatherscatter.scatter_along_axis", to="torch", axis=0, reduction="mean", mean_rounding="trunc")
    assert "divide_counts" in _adapters("gatherscatter.scatter_along_axis", "torch", axis=0, reduction="mean",
                                        mean_rounding="trunc")
    assert t.verify(60).ok


def test_torch_normalises_negatives_for_gather_but_not_for_take_along_dim():
    # docs/semantics.md#pitfall-2: torch.gather rejects negative indices, ONNX GatherElements wraps them
    # (docs/semantics.md#e3)
    assert _adapters("onnx.GatherElements", "torch", axis=1)[:1] == ["cast"]
    assert "normalize_negative" in _adapters("onnx.GatherElements", "torch", axis=1)
    # torch.take_along_dim takes every index modulo s: the native translation of a wrap mode
    assert _ops("gatherscatter.take_along_axis", "torch", axis=1, bounds="wrap") == ["torch.take_along_dim"]
    assert "wrap_index" not in _adapters("gatherscatter.take_along_axis", "torch", axis=1, bounds="wrap")


def test_torch_scatter_nd_uses_index_put_or_a_flat_scatter_reduce():
    assert _ops("onnx.ScatterND", "torch", reduction="add") == ["torch.index_put"]
    assert _ops("onnx.ScatterND", "torch", reduction="max") == ["torch.scatter_reduce"]
    t = translate("onnx.ScatterND", to="torch", reduction="max")
    assert {"nd_coordinates", "ravel_tuples", "reshape_like"} <= {s.name for s in t.steps}


def test_tensorflow_elementwise_families_use_coordinates():
    # TF has no element-wise gather/scatter: docs/semantics.md#e4 and docs/semantics.md#e16
    assert _ops("torch.gather", "tensorflow", dim=1) == ["tensorflow.gather_nd"]
    assert "coordinates" in _adapters("torch.gather", "tensorflow", dim=1)
    assert _ops("torch.scatter_add", "tensorflow", dim=0) == ["tensorflow.tensor_scatter_nd_add"]
    assert "coordinates" in _adapters("torch.scatter_add", "tensorflow", dim=0)


def test_tensorflow_gather_keeps_batch_dims_and_negative_indices_are_normalised():
    t = translate("openvino.Gather", to="tensorflow", axis=1, batch_dims=1)
    assert t.ops == ["tensorflow.gather"]
    assert [s.attr_map.get("batch_dims") for s in t.steps if s.kind == "op"] == [1]
    assert "normalize_negative" in [s.name for s in t.steps]  # OpenVINO Gather-8 wraps, TF raises


def test_tensorflow_multiplying_scatter_is_the_closest_translation():
    t = translate("onnx.ScatterND", to="tensorflow", reduction="mul")
    assert not t.exact
    assert t.ops == ["tensorflow.gather_nd", "tensorflow.tensor_scatter_nd_update"]
    assert any(r.when == "duplicates" and "multiplies every update" in r.source for r in t.residuals)
    assert t.verify(120).ok


def test_tensorflow_scatter_nd_source_is_exact_everywhere_it_is_defined():
    # docs/semantics.md#e5: tf.scatter_nd sums duplicates into zeros; tf2onnx's ScatterND without reduction does not
    for target in ("torch", "jax", "numpy", "paddle", "openvino"):
        t = translate("tensorflow.scatter_nd", to=target)
        assert t.exact, target
        assert not any(r.when == "duplicates" for r in t.residuals), target
        assert t.verify(60).ok, target


def test_jax_uses_native_modes():
    # NumPy's clip mode maps -1 to 0 (docs/semantics.md#pitfall-3); jnp.take's clip does the same: no adapter
    t = translate("numpy.take", to="jax", axis=1, mode="clip")
    assert t.ops == ["jax.take"]
    assert [s.attr_map["mode"] for s in t.steps if s.kind == "op"] == ["clip"]
    assert "clip_index" not in [s.name for s in t.steps]
    # a fill with a value: jnp.take's own fill mode and fill_value (the neutral default 0, not NaN)
    t = translate("gatherscatter.take", to="jax", axis=0, bounds="fill")
    assert [s.attr_map for s in t.steps if s.kind == "op"] == [{"axis": 0, "mode": "fill", "fill_value": 0}]
    # a drop scatter: x.at[].add(mode='drop')
    t = translate("gatherscatter.scatter_nd", to="jax", reduction="add", bounds="drop")
    assert [s.attr_map for s in t.steps if s.kind == "op"] == [{"mode": "drop"}]
    assert t.verify(60).ok


def test_jax_cannot_raise_and_says_so():
    t = translate("onnx.GatherND", to="jax")
    assert any(r.when == "out_of_range" and r.source == "raises" for r in t.residuals)
    assert t.exact  # in-range inputs agree


def test_numpy_wrap_mode_is_computed_with_mod():
    # np.take(mode='wrap') subtracts s in a loop: an index of 2**40 runs for minutes
    t = translate("gatherscatter.take", to="numpy", axis=0, bounds="wrap")
    assert "wrap_index" in [s.name for s in t.steps]
    assert [s.attr_map["mode"] for s in t.steps if s.kind == "op"] == ["raise"]
    assert t.run(data=np.arange(3), indices=np.array([2**40, -1])).tolist() == [2**40 % 3, 2]


def test_numpy_overwriting_scatter_nd_is_put_at_flat_offsets():
    t = translate("onnx.ScatterND", to="numpy")
    assert t.ops == ["numpy.put"]
    # ONNX doc example (docs/semantics.md#s6-1)
    out = t.run(data=np.arange(1, 9), indices=np.array([[4], [3], [1], [7]]), updates=np.array([9, 10, 11, 12]))
    assert out.tolist() == [1, 11, 3, 10, 9, 6, 7, 12]
    assert _ops("onnx.ScatterND", "numpy", reduction="add") == ["numpy.add_at"]


def test_paddle_scatter_nd_add_and_put_along_axis():
    assert _ops("onnx.ScatterND", "paddle", reduction="add") == ["paddle.scatter_nd_add"]
    t = translate("gatherscatter.scatter_along_axis", to="paddle", axis=1, reduction="min", include_self=False)
    assert t.ops == ["paddle.put_along_axis"]
    assert [s.attr_map for s in t.steps if s.kind == "op"] == [
        {"axis": 1, "reduce": "amin", "include_self": False, "broadcast": False}]


def test_openvino_ops_and_versions():
    assert _ops("torch.scatter_reduce", "openvino", dim=0, reduce="sum") == ["openvino.ScatterElementsUpdate"]
    t = translate("onnx.ScatterND", to="openvino", reduction="add")
    assert [s.attr_map for s in t.steps if s.kind == "op"] == [{"reduction": "sum", "version": 15}]
    # Gather-8 fills 0 for out-of-range indices: a zero fill is native, a source that raises keeps a residual
    assert "valid_mask" not in _adapters("gatherscatter.take", "openvino", axis=0, bounds="fill", fill_value=0)
    assert any(r.when == "out_of_range" for r in translate("onnx.Gather", to="openvino").residuals)
    # use_init_val=False pre-fills a FINITE lowest(): max/min pre-fill -inf/+inf themselves (docs/semantics.md#e10)
    t = translate("torch.scatter_reduce", to="openvino", dim=0, reduce="amax", include_self=False)
    assert t.ops == ["openvino.ScatterElementsUpdate", "openvino.ScatterElementsUpdate"]
    # before opset 15 (no ScatterNDUpdate reductions): ScatterElementsUpdate-12 on flattened data
    t = translate("onnx.ScatterND", to="openvino", version=12, reduction="max")
    assert t.ops == ["openvino.ScatterElementsUpdate"]
    assert t.verify(60).ok
    with pytest.raises(UnsupportedError, match="opset 11"):
        translate("onnx.Gather", to="openvino", version=11)


def test_mxnet_index_layout_and_closest_scatters():
    # docs/semantics.md#pitfall-9: MXNet keeps index tuples on the first axis
    t = translate("onnx.GatherND", to="mxnet")
    assert t.ops == ["mxnet.gather_nd"]
    assert [s.attr_map for s in t.steps if s.name == "moveaxis"] == [{"source": -1, "destination": 0}]
    # an overwrite scatter into data is exact; a reduction is not (no accumulating scatter in MXNet)
    assert translate("onnx.ScatterND", to="mxnet").exact
    t = translate("onnx.ScatterND", to="mxnet", reduction="add")
    assert not t.exact and any(r.when == "duplicates" for r in t.residuals)
    assert t.verify(60).ok


def test_caffe2_has_gathers_only():
    assert _ops("onnx.Gather", "caffe2", axis=1) == ["caffe2.Gather"]
    assert _ops("onnx.GatherND", "caffe2") == ["caffe2.Gather"]
    with pytest.raises(UnsupportedError, match="Caffe2 has no scatter op here"):
        translate("onnx.ScatterND", to="caffe2")


@pytest.mark.parametrize("target", ["torch", "tensorflow", "paddle", "openvino"])
def test_duplicate_overwrites_are_unspecified_in_the_target(target):
    t = translate("gatherscatter.scatter_nd", to=target)
    assert any(r.when == "duplicates" and "unspecified" in r.target for r in t.residuals), t.divergences
    # ONNX leaves duplicates unspecified itself: the plan adds nothing; ONNX's record lists the runtimes' choices
    t = translate("onnx.ScatterND", to=target)
    assert not any(r.when == "duplicates" for r in t.planned_residuals), t.divergences
    assert any(r.when == "duplicates" and r.source.startswith("unspecified; ONNX Runtime CPU: last wins")
               for r in t.residuals if r not in t.planned_residuals), t.divergences


def test_sources_that_raise_on_negatives_keep_a_true_residual():
    # torch.gather raises on a negative index; numpy wraps it
    t = translate("torch.gather", to="numpy", dim=0)
    (r,) = [r for r in t.residuals if r.when == "negative"]
    assert r.source == "raises" and "wraps" in r.target
    # ...and a target that raises too (TF) needs none
    assert not any(r.when == "negative" for r in translate("torch.gather", to="tensorflow", dim=0).residuals)


# ------------------------------------------------------------------------------------------- the slow sweep


def _all_calls() -> list[tuple[str, dict[str, Any]]]:
    from gatherscatter.translate.coverage import calls

    return calls() + NEUTRAL


@pytest.mark.slow
def test_all_pairs_sweep(capsys):
    """Every source op (coverage.calls(): each registered op with representative attributes) and the neutral
    policy grid, into every target framework, verified on 200 cases each."""
    counts: Counter[str] = Counter()
    failures: list[str] = []
    per_target: dict[str, Counter[str]] = {}
    for target in FRAMEWORKS:
        c = per_target.setdefault(target, Counter())
        for op, attrs in _all_calls():
            try:
                t = translate(op, to=target, **attrs)
            except UnsupportedError:
                c["unsupported"] += 1
                continue
            r = t.verify(n=200, seed=11)
            c["pairs"] += 1
            c["exact"] += t.exact
            c["cases"] += r.total
            c["agree"] += r.agree
            c["explained"] += sum(r.explained.values())
            c["failures"] += len(r.failures)
            if r.failures:
                failures.append(f"{call_id(op, attrs)} -> {target}:\n{r}")
        counts.update(c)
    with capsys.disabled():
        print("\nall-pairs sweep:")
        for target, c in per_target.items():
            print(f"  {target:10s} " + ", ".join(f"{k}={v}" for k, v in sorted(c.items())))
        print("  total      " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    assert not failures, "\n".join(failures[:10])
