"""ONNX export of translations: onnx.checker passes and onnxruntime computes what the source op computes.

For each source call (every family, every bounds policy, every reduction, MXNet's first-axis index
layout, TF's zero-initialised ``scatter_nd`` ...), one model is built per generated case (the graph's
inputs take that case's ranks and dtypes), checked with ``onnx.checker`` (full check), and run in
onnxruntime on the CPU with one thread. The expected value is the SOURCE op's own result (our dialect,
verified against the real framework elsewhere), never the translation's; the graph must also agree
with the translated program wherever a listed divergence lets the two sides differ.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.translate.onnx_export import default_example
from gatherscatter.translate.verify import sample_cases

from .ort_util import run_onnx, same, show

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

# fmt: off
SOURCES: list[tuple[str, dict]] = [
    # gather (Gather / take / index_select)
    ("onnx.Gather", {"axis": 1}),
    ("numpy.take", {"axis": None}),
    ("numpy.take", {"axis": 1, "mode": "clip"}),
    ("numpy.take", {"axis": 0, "mode": "wrap"}),
    ("jax.take", {"axis": 0}),
    ("jax.take", {"axis": 1, "mode": "clip"}),
    ("jax.take", {"axis": 0, "mode": "fill", "fill_value": -1}),
    ("mxnet.take", {"axis": 0}),
    ("mxnet.take", {"axis": 1, "mode": "wrap"}),
    ("tensorflow.gather", {"axis": 1}),
    ("tensorflow.gather", {"axis": 1, "batch_dims": 1}),
    ("tensorflow.gather", {"axis": 0, "device": "gpu"}),
    ("tensorflow.gather", {"axis": 0, "device": "xla"}),
    ("paddle.gather", {"axis": 0}),
    ("paddle.index_select", {"axis": 1}),
    ("paddle.take", {}),
    ("paddle.take", {"mode": "clip"}),
    ("paddle.take", {"mode": "wrap"}),
    ("torch.take", {}),
    ("torch.index_select", {"dim": 1}),
    ("openvino.Gather", {"axis": 0, "op_version": 8}),
    ("openvino.Gather", {"axis": 1, "batch_dims": 1, "op_version": 8}),
    ("caffe2.Gather", {"axis": 0}),
    ("caffe2.BatchGather", {}),
    ("gatherscatter.take", {"axis": 1, "bounds": "fill", "fill_value": -1}),
    ("gatherscatter.take", {"axis": None}),
    # gather_elements
    ("onnx.GatherElements", {"axis": 1}),
    # the KV-cache update: scatter_elements at the positions write_indices[b] + j (mod s)
    ("onnx.TensorScatter", {"axis": -2}),
    ("onnx.TensorScatter", {"axis": 1, "mode": "circular"}),
    ("torch.gather", {"dim": 0}),
    ("torch.take_along_dim", {"dim": 1}),
    ("torch.take_along_dim", {}),
    ("numpy.take_along_axis", {"axis": 1}),
    ("jax.take_along_axis", {"axis": 0}),
    ("paddle.take_along_axis", {"axis": 1}),
    ("mxnet.pick", {"axis": 1}),
    ("mxnet.pick", {"axis": 0, "mode": "wrap"}),
    ("openvino.GatherElements", {"axis": 1}),
    ("gatherscatter.take_along_axis", {"axis": 0, "broadcast": True, "bounds": "clip"}),
    # gather_nd
    ("onnx.GatherND", {"batch_dims": 1}),
    ("tensorflow.gather_nd", {}),
    ("tensorflow.gather_nd", {"batch_dims": 1}),
    ("tensorflow.gather_nd", {"device": "gpu"}),
    ("mxnet.gather_nd", {}),
    ("paddle.gather_nd", {}),
    ("openvino.GatherND", {"op_version": 8}),
    ("openvino.GatherND", {"batch_dims": 1, "op_version": 5}),
    ("jax.at_get", {}),
    ("gatherscatter.gather_nd", {"bounds": "fill", "fill_value": 0}),
    ("gatherscatter.gather_nd", {"index_axis": 0, "bounds": "wrap"}),
    # scatter_elements
    ("onnx.ScatterElements", {"axis": 1}),
    ("onnx.ScatterElements", {"axis": 0, "reduction": "add"}),
    ("onnx.ScatterElements", {"axis": 0, "reduction": "mul"}),
    ("onnx.ScatterElements", {"axis": 1, "reduction": "max"}),
    ("onnx.ScatterElements", {"axis": 0, "reduction": "min"}),
    ("onnx.Scatter", {"axis": 0}),
    ("torch.scatter", {"dim": 0}),
    ("torch.scatter", {"dim": 1, "value": 2.5}),
    ("torch.scatter", {"dim": 0, "reduce": "add"}),
    ("torch.scatter_add", {"dim": 1}),
    *[("torch.scatter_reduce", {"dim": 0, "reduce": r, "include_self": s})
      for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)],
    ("torch.scatter_reduce", {"dim": 1, "reduce": "mean"}),
    ("numpy.put_along_axis", {"axis": 1}),
    ("paddle.put_along_axis", {"axis": 0, "reduce": "add", "include_self": False}),
    ("paddle.put_along_axis", {"axis": 1, "reduce": "mean"}),
    ("openvino.ScatterElementsUpdate", {"axis": 0, "reduction": "mean", "use_init_val": False}),
    ("openvino.ScatterElementsUpdate", {"axis": 1, "reduction": "max"}),
    ("gatherscatter.scatter_along_axis", {"axis": 0, "reduction": "add", "bounds": "drop"}),
    ("gatherscatter.scatter_along_axis", {"axis": 1, "bounds": "clip"}),
    ("gatherscatter.scatter_along_axis", {"axis": 0, "reduction": "min", "include_self": False, "bounds": "wrap"}),
    ("gatherscatter.scatter_along_axis", {"axis": 1, "reduction": "mean", "mean_rounding": "trunc"}),
    # scatter_nd
    ("onnx.ScatterND", {}),
    ("onnx.ScatterND", {"reduction": "add"}),
    ("onnx.ScatterND", {"reduction": "mul"}),
    ("onnx.ScatterND", {"reduction": "max"}),
    ("onnx.ScatterND", {"reduction": "min"}),
    ("tensorflow.scatter_nd", {}),
    ("tensorflow.scatter_nd", {"device": "gpu"}),
    ("tensorflow.tensor_scatter_nd_update", {}),
    ("tensorflow.tensor_scatter_nd_add", {}),
    ("tensorflow.tensor_scatter_nd_sub", {}),
    ("tensorflow.tensor_scatter_nd_max", {}),
    ("tensorflow.tensor_scatter_nd_min", {}),
    ("mxnet.scatter_nd", {}),
    ("paddle.scatter_nd", {}),
    ("paddle.scatter_nd_add", {}),
    ("torch.index_put", {}),
    ("torch.index_put", {"accumulate": True}),
    ("openvino.ScatterNDUpdate", {}),
    ("openvino.ScatterNDUpdate", {"reduction": "sum"}),
    ("jax.at_set", {}),
    ("jax.at_add", {}),
    ("jax.at_multiply", {}),
    ("jax.at_min", {}),
    ("jax.at_max", {}),
    ("gatherscatter.scatter_nd", {"reduction": "mean", "include_self": False}),
    ("gatherscatter.scatter_nd", {"reduction": "sub", "bounds": "drop"}),
    ("gatherscatter.scatter_nd", {"bounds": "clip", "index_axis": 0}),
    # scatter along an axis with a 1-D index (index_add, index_copy ...)
    ("torch.index_add", {"dim": 1, "alpha": 2}),
    ("torch.index_copy", {"dim": 0}),
    ("torch.index_fill", {"dim": 1, "value": -1.5}),
    ("torch.index_reduce", {"dim": 0, "reduce": "mean", "include_self": False}),
    ("torch.index_reduce", {"dim": 0, "reduce": "amax"}),
    ("paddle.scatter", {}),
    ("paddle.scatter", {"overwrite": False}),
    ("openvino.ScatterUpdate", {"axis": 0}),
    ("openvino.ScatterUpdate", {"axis": 1}),
    ("numpy.put", {}),
    ("numpy.put", {"mode": "clip"}),
    # the ufunc.at scatters
    ("numpy.add_at", {}),
    ("numpy.subtract_at", {}),
    ("numpy.multiply_at", {}),
    ("numpy.maximum_at", {}),
    ("numpy.minimum_at", {}),
]
# fmt: on

N_CASES = 24


def _id(spec: tuple[str, dict]) -> str:
    op, attrs = spec
    return op + ("(" + ",".join(f"{k}={v}" for k, v in attrs.items()) + ")" if attrs else "")


def _max_min(model) -> bool:
    return any(a.name == "reduction" and onnx.helper.get_attribute_value(a) in (b"max", b"min")
               for n in model.graph.node for a in n.attribute) or \
        any(n.op_type in ("Max", "Min") for n in model.graph.node)


def _check_cases(t, n: int, seed: int) -> tuple[int, int]:
    """Export one model per generated case; return (cases checked against the source, graph-vs-program checks)."""
    vs_source = vs_program = 0
    for case in sample_cases(t.source, n=n, seed=seed):
        try:
            expected = t.run_source(**case.args)
        except gs.GatherScatterError:
            continue  # the source rejects the call: nothing to export against
        try:
            program = t.run(**case.args)
        except gs.GatherScatterError:
            # only a listed divergence may make the translation raise where the source does not
            assert any(r.when in case.features or r.when == "always" for r in t.residuals), case.reproducer()
            continue
        model = t.to_onnx(**case.args)
        onnx.checker.check_model(model, full_check=True)
        got = run_onnx(model, t.source.inputs, case.args)
        if "nonfinite" in case.features and _max_min(model):
            continue  # onnxruntime's max/min scatter kernels drop a NaN update (a > b ? a : b); ONNX leaves NaN open
        assert same(got, program), f"graph != program on {case.reproducer()}: {show(got)} vs {show(program)}"
        vs_program += 1
        if same(program, expected):
            vs_source += 1
        else:  # a difference the translation lists (e.g. MXNet's float-index rounding)
            assert any(r.when in case.features or r.when == "always" for r in t.residuals), (
                f"{case.reproducer()}: source {show(expected)}, onnxruntime {show(got)}"
            )
    return vs_source, vs_program


@pytest.mark.parametrize("spec", SOURCES, ids=_id)
def test_exported_graph_computes_the_source_op_in_onnxruntime(spec):
    op, attrs = spec
    t = gs.translate(op, to="onnx", **attrs)
    vs_source, vs_program = _check_cases(t, N_CASES, seed=7)
    # the generator must have produced enough accepted, comparable cases for the test to mean something
    assert vs_source >= N_CASES // 4, (vs_source, vs_program)


def test_tuple_valued_source_inputs_become_one_graph_input_each():
    t = gs.translate("torch.index_put", to="onnx")
    args = {"input": np.arange(12.0).reshape(3, 4), "indices": (np.array([0, 2, 2]), np.array([[1], [3]])),
            "values": np.array(5.0)}
    model = t.to_onnx(**args)
    names = [i.name for i in model.graph.input]
    assert "indices_0" in names and "indices_1" in names and "indices" not in names
    expected = gs.torch.index_put(args["input"], args["indices"], args["values"])
    assert same(run_onnx(model, t.source.inputs, args), expected)


def test_mxnet_first_axis_layout_is_transposed_and_cast():
    t = gs.translate("mxnet.gather_nd", to="onnx")
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[1, 0, -1], [2, 0, 1]], dtype=np.float32)  # MXNet: tuples on axis 0, float indices
    model = t.to_onnx(data=data, indices=idx)
    kinds = [n.op_type for n in model.graph.node]
    assert "Transpose" in kinds and "Cast" in kinds and "GatherND" in kinds
    got = run_onnx(model, t.source.inputs, {"data": data, "indices": idx})
    assert same(got, gs.mxnet.gather_nd(data, idx))
    # tuples (1, 2), (0, 0), (-1, 1): hand-computed rows of data
    assert got.tolist() == [[20.0, 21.0, 22.0, 23.0], [0.0, 1.0, 2.0, 3.0], [16.0, 17.0, 18.0, 19.0]]


def test_tf_scatter_nd_is_zeros_then_add_so_duplicates_sum():
    t = gs.translate("tensorflow.scatter_nd", to="onnx")
    args = {"indices": np.array([[1], [1], [3]]), "updates": np.array([1.0, 2.0, 4.0]), "shape": (5,)}
    model = t.to_onnx(**args)
    scatter = [n for n in model.graph.node if n.op_type == "ScatterND"]
    assert len(scatter) == 1
    assert {a.name: onnx.helper.get_attribute_value(a) for a in scatter[0].attribute}["reduction"] == b"add"
    assert run_onnx(model, t.source.inputs, args).tolist() == [0.0, 3.0, 0.0, 4.0, 0.0]


@pytest.mark.parametrize(("op", "dtype"), [("jax.segment_max", "bool"), ("jax.segment_min", "bool"),
                                         ("tensorflow.unsorted_segment_mean", "int16"),
                                         ("tensorflow.unsorted_segment_mean", "uint16")])
def test_element_types_onnxruntime_lacks_are_computed_wider(op, dtype):
    """onnxruntime's CPU kernels have no bool max/min scatter and no bool/int16/uint16 Where: the export casts
    around them, and the graph still computes what the source op computes."""
    t = gs.translate(op, to="onnx")
    args = default_example(t, {"data": dtype})
    assert args["data"].dtype == dtype
    assert same(run_onnx(t.to_onnx(**args), t.source.inputs, args), t.run_source(**args))


# ------------------------------------------------------------------------------------------ opsets

OPSET_SOURCES = [
    ("torch.gather", {"dim": 1}),
    ("torch.scatter_add", {"dim": 0}),
    ("torch.scatter_reduce", {"dim": 0, "reduce": "amax", "include_self": False}),
    ("torch.scatter_reduce", {"dim": 1, "reduce": "mean"}),
    ("tensorflow.scatter_nd", {}),
    ("onnx.GatherND", {"batch_dims": 1}),
    ("gatherscatter.gather_nd", {"bounds": "fill", "fill_value": -1}),
    ("gatherscatter.take", {"axis": 0, "bounds": "clip"}),
    ("torch.index_put", {"accumulate": True}),
]


def _translate_or_error(op, version, attrs):
    try:
        return gs.translate(op, to="onnx", version=version, **attrs)
    except gs.UnsupportedError as e:
        return e


@pytest.mark.parametrize("version", [11, 13, 16, 18])
@pytest.mark.parametrize("spec", OPSET_SOURCES, ids=_id)
def test_opset_choice_works_or_names_the_opset_needed(spec, version):
    op, attrs = spec
    t = _translate_or_error(op, version, attrs)
    if isinstance(t, gs.UnsupportedError):
        needed = [int(v) for v in re.findall(r"opset (?:>= ?)?(\d+)", str(t))]
        assert any(v > version for v in needed), str(t)
        return
    if not t.exact:  # the closest translation: it must say which opset would make it exact
        needed = [int(v) for d in t.divergences if "opset" in d for v in re.findall(r"\b(\d\d)\b", d)]
        assert any(v > version for v in needed), t.divergences
    vs_source, vs_program = 0, 0
    for case in sample_cases(t.source, n=18, seed=version):
        try:
            expected = t.run_source(**case.args)
            program = t.run(**case.args)
        except gs.GatherScatterError:
            continue
        model = t.to_onnx(**case.args)
        assert [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] == [version]
        got = run_onnx(model, t.source.inputs, case.args)
        assert same(got, program), case.reproducer()
        vs_program += 1
        vs_source += same(got, expected)
        if t.exact and not any(r.when in case.features for r in t.residuals):
            assert same(got, expected), case.reproducer()
    assert vs_program >= 4
    if t.exact:
        assert vs_source >= 4


def test_opset_below_11_is_refused():
    with pytest.raises(gs.UnsupportedError, match="opset >= 11"):
        gs.translate("torch.gather", to="onnx", version=9, dim=0)


# ------------------------------------------------------------------------------------------ the model API


def test_onnx_model_uses_a_default_example_and_matches_to_onnx():
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean", include_self=False)
    m = t.onnx_model
    onnx.checker.check_model(m, full_check=True)
    assert [i.name for i in m.graph.input] == ["input", "index", "src"]
    assert [o.name for o in m.graph.output] == [t.program.output]
    ops = [n.op_type for n in m.graph.node]
    assert ops.count("ScatterElements") == 3  # zero pre-fill (docs/semantics.md#e10), sum, count
                                              # (docs/semantics.md#e11)
    # dims are symbolic: the same model runs on other shapes of the same ranks and dtypes
    dtypes = [onnx.helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type) for i in m.graph.input]
    assert [len(i.type.tensor_type.shape.dim) for i in m.graph.input] == [2, 2, 2]
    data = np.arange(20).reshape(5, 4).astype(dtypes[0])
    idx = np.array([[0, 4, 4, 1], [0, 0, 2, 1]]).astype(dtypes[1])
    src = (np.arange(8).reshape(2, 4) * 3).astype(dtypes[2])
    got = run_onnx(m, t.source.inputs, {"input": data, "index": idx, "src": src})
    assert same(got, gs.torch.scatter_reduce(data, 0, idx, src, "mean", include_self=False))


def test_the_script_rebuilds_the_same_graph():
    t = gs.translate("mxnet.gather_nd", to="onnx")
    ns: dict = {}
    exec(compile(t.code, "<translation>", "exec"), ns)  # our own generated code
    built = ns["model"]
    onnx.checker.check_model(built, full_check=True)
    ref = t.onnx_model
    assert [n.op_type for n in built.graph.node] == [n.op_type for n in ref.graph.node]
    assert [i.name for i in built.graph.input] == [i.name for i in ref.graph.input]
    args = default_example(t)
    assert same(run_onnx(built, t.source.inputs, args), run_onnx(ref, t.source.inputs, args))
    assert same(run_onnx(built, t.source.inputs, args), t.run_source(**args))


def test_export_of_another_target_is_refused():
    t = gs.translate("torch.gather", to="gatherscatter", dim=0)
    with pytest.raises(gs.UnsupportedError, match="not onnx"):
        t.to_onnx(input=np.zeros((2, 2)), index=np.zeros((1, 2), np.int64))


def test_export_example_must_name_the_source_arguments():
    t = gs.translate("torch.gather", to="onnx", dim=0)
    with pytest.raises(gs.ArgumentError, match="input, index"):
        t.to_onnx(data=np.zeros((2, 2)), indices=np.zeros((1, 2), np.int64))


def test_out_of_range_raises_in_onnxruntime_like_the_source():
    """ONNX says out-of-range indices are an error, and ORT's CPU kernels raise: so does the source."""
    t = gs.translate("torch.gather", to="onnx", dim=0)
    args = {"input": np.arange(6.0).reshape(3, 2), "index": np.array([[0, 3]])}
    with pytest.raises(gs.IndexOutOfRangeError):
        t.run_source(**args)
    model = t.to_onnx(input=args["input"], index=np.array([[0, 1]]))
    with pytest.raises(Exception, match=r"(?i)out of (range|bounds)|invalid"):
        run_onnx(model, t.source.inputs, args)


# ------------------------------------------------------------------------------------------ the sweep


@pytest.mark.slow
def test_every_source_call_exports_and_runs_in_onnxruntime():
    """Every row of the coverage matrix, translated to ONNX, exported and run on 60 cases (``-m slow``)."""
    from gatherscatter.translate.coverage import calls

    totals = {"calls": 0, "vs_source": 0, "vs_program": 0}
    problems = []
    for op, attrs in calls():
        try:
            t = gs.translate(op, to="onnx", **attrs)
        except gs.UnsupportedError:
            continue
        try:
            vs_source, vs_program = _check_cases(t, 60, seed=11)
        except AssertionError as e:
            problems.append(f"{op}{attrs}: {str(e)[:300]}")
            continue
        totals["calls"] += 1
        totals["vs_source"] += vs_source
        totals["vs_program"] += vs_program
    print(totals)  # the sweep's numbers, for the report
    assert not problems, "\n".join(problems)
