"""The TFLite target: plans over the TFLite builtins, proven by running both sides, and the generated model.

(a) Default suite: every row of the coverage matrix and every call of a grid (the neutral API's policy grid,
name-alike framework ops, segment reductions, the TFLite builtins) translated to ``tflite`` verifies against the
source op through gatherscatter's dialects (``Translation.verify``), once on the source's own dtypes (TFLite's
refusals of float64 and the like must be the listed ``dtype`` divergence) and, for the grid, once on the dtypes
TFLite computes in (float32, int32), where most cases must agree. Plan shapes and a few values are checked against hand-written expectations.

(b) Opt-in (``pytest -m tflite``, in a venv with tensorflow-cpu): the generated Python builds the model from TF
ops, converts it with ``tf.lite.TFLiteConverter`` (``TFLITE_BUILTINS`` only) and runs it in
``tf.lite.Interpreter``; its results are compared exactly with the source op on generated cases.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from gatherscatter.errors import DTypeError, IndexOutOfRangeError, UnsupportedError
from gatherscatter.translate import Translation, translate
from gatherscatter.translate.coverage import calls
from gatherscatter.translate.verify import verify

from .codegen_util import REPRESENTATIVE, CodeReport, call_id, check_code

TFLITE_OPS: list[tuple[str, dict[str, Any]]] = [
    ("tflite.GATHER", {}), ("tflite.GATHER", {"axis": -1}), ("tflite.GATHER", {"axis": 1, "batch_dims": 1}),
    ("tflite.GATHER_ND", {}), ("tflite.SCATTER_ND", {}), ("tflite.SEGMENT_SUM", {}),
    *[(f"tflite.UNSORTED_SEGMENT_{r}", {}) for r in ("SUM", "PROD", "MAX", "MIN")],
    ("tensorflow.unsorted_segment_max", {}), ("tensorflow.segment_mean", {}), ("jax.segment_min", {}),
    ("paddle.segment_sum", {}), ("tensorflow.scatter_nd", {}), ("jax.at_set", {"mode": "drop"}),
]
GRID = REPRESENTATIVE + TFLITE_OPS
TFLITE_DTYPES = ("float32", "int32")


@pytest.mark.parametrize(("op", "attrs"), GRID, ids=[call_id(o, a) for o, a in GRID])
def test_translation_to_tflite_verifies(op, attrs):
    t = translate(op, to="tflite", **attrs)
    report = t.verify(n=18, seed=3)
    assert report.ok, f"{t}\n{report}"
    # on TFLite's own dtypes: no dtype refusal, and agreement on most cases
    r = verify(t.run_source, t.program, _on_tflite_dtypes(t).source, t.planned_residuals, n=18, seed=4)
    assert r.ok, f"{t}\n{r}"
    assert r.agree >= r.total // 2, f"{t}\n{r}"


def _on_tflite_dtypes(t: Translation) -> Translation:
    """``t`` with a source drawing only the data dtypes TFLite computes in (where its generator reads the layout)."""
    dts = tuple(d for d in t.source.layout.get("data_dtypes", TFLITE_DTYPES) if d in TFLITE_DTYPES)
    if t.source.sample is not None or not dts:
        return t
    return dataclasses.replace(t, source=dataclasses.replace(t.source, layout={**t.source.layout, "data_dtypes": dts}))


@pytest.mark.parametrize(("op", "attrs"), calls(), ids=[call_id(o, a) for o, a in calls()])
def test_every_matrix_row_to_tflite_verifies(op, attrs):
    """Every row of the coverage matrix (each registered op with its probed variants) has a TFLite plan."""
    report = translate(op, to="tflite", **attrs).verify(n=12, seed=5)
    assert report.ok, f"{op}{attrs}\n{report}"


def _ops(op: str, **attrs: Any) -> list[str]:
    return translate(op, to="tflite", **attrs).ops


def test_gathers_use_gather_and_gather_nd_where_they_fit():
    assert _ops("tensorflow.gather", axis=1, batch_dims=1) == ["tflite.GATHER"]
    assert _ops("onnx.Gather", axis=1) == ["tflite.GATHER"]
    assert _ops("mxnet.gather_nd") == ["tflite.GATHER_ND"]
    # no batch dims in GATHER_ND, no element-wise gather: GATHER on the flattened data at flat offsets
    for op, attrs in (("onnx.GatherND", {"batch_dims": 1}), ("torch.gather", {"dim": 1})):
        t = translate(op, to="tflite", **attrs)
        assert t.ops == ["tflite.GATHER"]
        assert "ravel_tuples" in [s.name for s in t.steps if s.kind == "adapter"]


def test_negative_indices_are_normalised_or_raise_as_the_source():
    # numpy.take wraps a negative index once: TFLite rejects it, so the plan adds the axis size first
    t = translate("numpy.take", to="tflite", axis=0)
    assert "normalize_negative" in [s.name for s in t.steps]
    assert t.run(a=np.float32([10, 20, 30]), indices=np.array([-1, 0])).tolist() == [30.0, 10.0]
    # torch.gather raises on a negative index, and so does TFLite: no negative divergence
    assert not any(r.when == "negative" for r in translate("torch.gather", to="tflite", dim=0).residuals)


def test_scatters_reduce_the_updates_and_combine_with_the_data():
    # hand-computed: torch.scatter_add of [10, 20, 30] at [1, 1, 2] into ones -> [1, 31, 31, 1]
    t = translate("torch.scatter_add", to="tflite", dim=0)
    got = t.run(input=np.float32([1, 1, 1, 1]), index=np.array([1, 1, 2]), src=np.float32([10, 20, 30]))
    assert got.tolist() == [1, 31, 31, 1]
    assert set(t.ops) == {"tflite.SCATTER_ND"}
    t = translate("torch.scatter_reduce", to="tflite", dim=0, reduce="amax", include_self=False)
    assert "tflite.UNSORTED_SEGMENT_MAX" in t.ops
    got = t.run(input=np.float32([5, 5, 5]), index=np.array([0, 0, 2]), src=np.float32([-1, -3, 7]))
    assert got.tolist() == [-1, 5, 7]  # include_self=False: the data is not in the max; untouched keeps 5
    t = translate("torch.scatter_reduce", to="tflite", dim=0, reduce="prod")
    got = t.run(input=np.int32([2, 3, 4]), index=np.array([2, 2, 0]), src=np.int32([5, 6, 7]))
    assert got.tolist() == [14, 3, 120]


def test_overwrites_keep_the_last_or_first_update_exactly():
    data, idx, upd = np.float32([0, 0, 0]), np.array([[1], [1], [0]]), np.float32([5, 7, 9])
    last = translate("gatherscatter.scatter_nd", to="tflite")
    assert "tflite.UNSORTED_SEGMENT_MAX" in last.ops
    assert not any(r.when == "duplicates" for r in last.planned_residuals)  # exact: last wins, as the source
    assert last.run(data=data, indices=idx, updates=upd).tolist() == [9, 7, 0]
    first = translate("gatherscatter.scatter_along_axis", to="tflite", axis=0, duplicates="first")
    assert "tflite.UNSORTED_SEGMENT_MIN" in first.ops
    assert first.run(data=data, indices=np.array([1, 1, 0]), updates=upd).tolist() == [9, 5, 0]


def test_dropping_scatters_use_the_segment_ops_which_drop_negative_ids():
    # hand-computed (TF's unsorted_segment_sum docs): ids [0, 0, 2, -1, 3] -> row 3 (the -1) is dropped
    t = translate("tflite.UNSORTED_SEGMENT_SUM", to="tflite")
    got = t.run(data=np.float32([1, 2, 3, 4, 5]), segment_ids=np.int32([0, 0, 2, -1, 3]), num_segments=5)
    assert got.tolist() == [3, 0, 3, 5, 0]
    assert set(t.ops) == {"tflite.UNSORTED_SEGMENT_SUM"}
    assert not any(r.when == "negative" for r in t.residuals)
    t = translate("jax.at_set", to="tflite", mode="drop")  # last wins; index 5 is dropped
    got = t.run(x=np.float32([0, 0, 0]), idx=np.array([2, 5, 2]), values=np.float32([1, 2, 3]))
    assert got.tolist() == [0, 0, 3]


def test_an_infinite_canvas_is_computed_at_run_time_and_finite_literals_stay_constants():
    code = translate("jax.segment_max", to="tflite").code  # the converter would store a constant -inf as -FLT_MAX
    assert "canvas = tf.broadcast_to(_lit(_identity(data.dtype.name, 'max'), data)," in code
    assert "tf.math.is_finite(like)" in code
    code = translate("tflite.UNSORTED_SEGMENT_SUM", to="tflite").code
    assert "_lit(" not in code and "tf.cast(np.asarray(0), data.dtype)" in code


def test_tf_empty_max_min_segments_are_exact_with_the_finite_limits():
    # TF (and TFLite's own kernels) fill an empty max/min segment with lowest()/max(): full_rows(finite=True)
    for op, attrs in (("tensorflow.unsorted_segment_max", {}), ("tflite.UNSORTED_SEGMENT_MIN", {}),
                      ("keras.segment_max", {"backend": "tensorflow"})):
        t = translate(op, to="tflite", **attrs)
        assert t.exact and [s.attr_map.get("finite") for s in t.steps if s.name == "full_rows"] == [True]
    t = translate("tensorflow.unsorted_segment_min", to="tflite")
    got = t.run(data=np.float32([1, 2]), segment_ids=np.int32([0, 0]), num_segments=2)
    assert got.tolist() == [1, 3.4028234663852886e38]  # hand-computed: float32's largest finite value
    assert translate("tensorflow.unsorted_segment_min", to="tensorflow").exact  # TF fills them too (settle)
    assert not translate("tensorflow.unsorted_segment_min", to="jax").exact  # other targets: the residual


def test_bad_indices_and_float64_fail_as_tflite_does():
    t = translate("tensorflow.tensor_scatter_nd_add", to="tflite")
    with pytest.raises(IndexOutOfRangeError):  # one past the end of the flattened data: the invoke fails
        t.run(tensor=np.float32([1, 2]), indices=np.array([[2]]), updates=np.float32([1]))
    with pytest.raises(DTypeError):
        t.run(tensor=np.float64([1, 2]), indices=np.array([[1]]), updates=np.float64([1]))
    (r,) = [r for r in t.residuals if r.when == "dtype"]
    assert "float64" not in r.target and "float32" in r.target  # the dtypes the ops take, from their records


# ------------------------------------------------------------------------------ (b) the real converter+interpreter

REAL = GRID
TOTAL = CodeReport()


@pytest.mark.tflite
@pytest.mark.filterwarnings("ignore")  # TF's own (tf.lite.Interpreter's deprecation for LiteRT, autograph ...)
@pytest.mark.parametrize(("op", "attrs"), REAL, ids=[call_id(o, a) for o, a in REAL])
def test_generated_tflite_model_matches_the_source(op, attrs):
    pytest.importorskip("tensorflow")
    t = translate(op, to="tflite", **attrs)

    if any(s.name == "segment_count" for s in t.steps):  # a value-dependent output size: no model, and says so
        with pytest.raises(UnsupportedError, match="segment_count"):
            t.code  # noqa: B018
        return

    def keep(case, model) -> bool:  # the dtypes TFLite refuses are the listed dtype divergence (int64 means too)
        i64_mean = t.source.canonical.reduction == "mean" and "int64" in {a.dtype.name for a in case.args.values()
                                                                         if isinstance(a, np.ndarray)}
        return not (i64_mean or (model[0] == "error" and isinstance(model[1], DTypeError)))

    for tt, n in ((t, 3), (_on_tflite_dtypes(t), 6)):  # the source's own dtypes, then TFLite's
        report = check_code(tt, np.asarray, np.asarray, n=n, keep=keep)
        TOTAL.add(report)
        assert not report.failures, f"{t.code}\n{report}"


@pytest.mark.tflite
@pytest.mark.filterwarnings("ignore")
def test_empty_max_min_segments_read_exact_infinities_in_the_model():
    """The converter stores a constant +-inf as +-FLT_MAX: the model computes the canvas's infinity at run time."""
    pytest.importorskip("tensorflow")
    from gatherscatter.translate.codegen import compile_function

    data, ids, inf = np.float32([2, -np.inf, 7, np.inf, 1, -0.0, 5]), np.int32([0, 1, 1, 3, 3, 4, 4]), np.inf
    # hand-computed jax.ops.segment_max/min over 6 segments (2 and 5 empty), compared bit for bit (-0.0 too)
    for op, want in (("jax.segment_max", [2, 7, -inf, inf, 5, -inf]), ("jax.segment_min", [2, -inf, inf, 1, -0.0,
                                                                                             inf])):
        got = compile_function(translate(op, to="tflite").code)(data=data, segment_ids=ids, num_segments=6)
        assert got.dtype == np.float32 and got.view(np.int32).tolist() == np.float32(want).view(np.int32).tolist()
    # the kernel ignores a NaN and maxes into the finite lowest(): the listed nonfinite divergence
    t = translate("jax.segment_max", to="tflite")
    got = compile_function(t.code)(data=np.float32([np.nan, 1, -np.inf]), segment_ids=np.int32([0, 0, 1]),
                                   num_segments=3)
    assert got.tolist() == [1, np.finfo(np.float32).min, -inf]  # jax: [nan, -inf, -inf]
    assert t.run_source(data=np.float32([np.nan, 1, -np.inf]), segment_ids=np.int32([0, 0, 1]),
                        num_segments=3).tolist()[1:] == [-inf, -inf]
    assert any(r.when == "nonfinite" and "ignores" in r.target for r in t.residuals)


@pytest.mark.tflite
@pytest.mark.filterwarnings("ignore")
def test_tf_empty_max_min_segments_read_the_finite_limits_in_the_model():
    tf = pytest.importorskip("tensorflow")
    from gatherscatter.translate.codegen import compile_function

    ids, f32, i32 = np.int32([0, 0, 2]), np.finfo(np.float32), np.iinfo(np.int32)
    for op, fn, lim in (("tensorflow.unsorted_segment_max", tf.math.unsorted_segment_max, "min"),
                        ("tensorflow.unsorted_segment_min", tf.math.unsorted_segment_min, "max")):
        run = compile_function(translate(op, to="tflite").code)
        for data, info in ((np.float32([1, -np.inf, np.inf]), f32), (np.int32([1, 5, -7]), i32)):
            got = run(data=data, segment_ids=ids, num_segments=4)  # segments 1 and 3 are empty
            assert got[[1, 3]].tolist() == [getattr(info, lim)] * 2, (op, got)
            assert got.tobytes() == fn(data, ids, 4).numpy().tobytes()  # the real TF, bit for bit


@pytest.mark.tflite
def test_summary(capsys):
    with capsys.disabled():
        print(f"\ntflite (converter + interpreter): {TOTAL}")
