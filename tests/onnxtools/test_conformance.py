"""The conformance kit: layout, manifest, a hand-computed subset, and runs on gatherscatter and onnxruntime.

The defined cases' expected outputs are computed by gs.onnx (tested elsewhere against
hand tables and loop oracles); the subset below is checked against values computed
by hand from the ONNX spec, so a wrong op cannot hide behind its own kit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

from gatherscatter.onnxtools import conformance  # noqa: E402
from gatherscatter.onnxtools.conformance import KitError, export, run  # noqa: E402


def load(path: Path) -> np.ndarray:
    t = onnx.TensorProto()
    t.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(t)


def entry(manifest: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in manifest["cases"] if c["name"] == name)


def test_layout_and_manifest(kit: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = kit
    assert json.loads((root / "manifest.json").read_text()) == manifest
    assert manifest["format"] == "gatherscatter-conformance/1"
    names = [c["name"] for c in manifest["cases"]]
    assert len(names) == len(set(names))
    kinds = {c["kind"] for c in manifest["cases"]}
    assert kinds == {"defined", "must-raise", "implementation-defined"}
    for c in manifest["cases"]:
        d = root / c["name"]
        model = onnx.load(str(d / "model.onnx"))
        assert model.opset_import[0].version == c["opset"]
        assert [n.op_type for n in model.graph.node] == [c["op"]]
        for k, spec in enumerate(c["inputs"]):
            arr = load(d / "test_data_set_0" / f"input_{k}.pb")
            assert (arr.dtype.name, list(arr.shape)) == (spec["dtype"], spec["shape"])
        assert (d / "test_data_set_0" / "output_0.pb").exists() == (c["kind"] == "defined")
        if c["kind"] == "implementation-defined":
            assert len(c["allowed"]) >= 2
    # every op and op version of the registry's ONNX ops with a case family is covered
    versions = {(c["op"], c["op_version"]) for c in manifest["cases"]}
    assert {("Gather", 1), ("Gather", 11), ("Gather", 13), ("GatherND", 12), ("ScatterElements", 16),
            ("ScatterND", 18), ("Scatter", 9), ("TensorScatter", 24)} <= versions


# hand-computed from the ONNX spec: (case, inputs as exported, expected output)
HAND: list[tuple[str, Any]] = [
    # data = 1..12 as [3, 4]
    ("Gather_13_basic", [[[1, 2, 3, 4], [9, 10, 11, 12]], [[5, 6, 7, 8], [1, 2, 3, 4]]]),
    ("Gather_13_negative", [[9, 10, 11, 12], [1, 2, 3, 4], [1, 2, 3, 4]]),
    ("Gather_13_axis1", [[4, 1, 2], [8, 5, 6], [12, 9, 10]]),
    ("Gather_13_scalar_index", [9, 10, 11, 12]),
    # data = 1..9 as [3, 3]
    ("GatherElements_13_axis1", [[1, 1], [5, 4], [9, 9]]),
    ("GatherElements_13_negative", [[3, 2, 1], [4, 5, 6], [7, 9, 9]]),
    ("GatherElements_13_narrow_indices", [[3], [4]]),
    # data = 1..12 as [2, 3, 2]
    ("GatherND_13_basic", [4, 11]),
    ("GatherND_13_batch_dims1", [[5, 6], [7, 8]]),
    ("GatherND_13_batch_dims2", [[2, 3, 6], [7, 9, 12]]),
    ("GatherND_13_negative", [[7, 8], [5, 6]]),
    # data = 1..9 as [3, 3]; updates 50, 51, ...
    ("ScatterElements_18_basic", [[1, 51, 3], [50, 5, 6], [7, 8, 52]]),
    ("ScatterElements_18_duplicates_add", [[1, 2, 3 + 52 + 55], [4 + 50 + 53, 5 + 51, 6], [7, 8 + 54, 9]]),
    ("ScatterElements_18_duplicates_max", [[1, 2, 55], [53, 51, 6], [7, 54, 9]]),
    ("ScatterND_18_negative", [[53, 54, 55], [4, 5, 6], [50, 51, 52]]),
    ("ScatterND_18_duplicates_mul", [[1, 2, 3], [4 * 50 * 53, 5 * 51 * 54, 6 * 52 * 55], [7 * 56, 8 * 57, 9 * 58]]),
    # cache = 1..24 as [2, 4, 3] (sequence axis 1), update = 50..61 as [2, 2, 3]
    ("TensorScatter_24_basic", [[[1, 2, 3], [50, 51, 52], [53, 54, 55], [10, 11, 12]],
                                [[13, 14, 15], [16, 17, 18], [56, 57, 58], [59, 60, 61]]]),
    # write_indices [3, 0], circular: sample 0 writes positions 3, 0
    ("TensorScatter_24_circular_wrap", [[[53, 54, 55], [4, 5, 6], [7, 8, 9], [50, 51, 52]],
                                        [[56, 57, 58], [59, 60, 61], [19, 20, 21], [22, 23, 24]]]),
    # cache = 1..30 as [2, 5, 3]; write_indices [2**63 - 1, 0]: (2**63 - 1) mod 5 = 2, so positions 2, 3
    ("TensorScatter_24_circular_int64_max", [[[1, 2, 3], [4, 5, 6], [50, 51, 52], [53, 54, 55], [13, 14, 15]],
                                             [[56, 57, 58], [59, 60, 61], [22, 23, 24], [25, 26, 27], [28, 29, 30]]]),
    ("TensorScatter_24_empty_update", [[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]],
                                       [[13, 14, 15], [16, 17, 18], [19, 20, 21], [22, 23, 24]]]),
]


@pytest.mark.parametrize(("name", "expected"), HAND, ids=[h[0] for h in HAND])
def test_defined_cases_against_hand_computed_values(kit: tuple[Path, dict[str, Any]], name: str, expected: Any
                                                    ) -> None:
    root, manifest = kit
    c = entry(manifest, name)
    assert c["kind"] == "defined"
    got = load(root / name / c["expected"])
    np.testing.assert_array_equal(got, np.array(expected, dtype=np.float32))


def test_implementation_defined_cases_against_hand_computed_outcomes(kit: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = kit
    c = entry(manifest, "ScatterElements_18_duplicates_none")  # indices [[1,1,0],[1,2,0]], updates 50..55
    allowed = {a["label"]: load(root / c["name"] / a["file"]).tolist() for a in c["allowed"]}
    assert allowed == {
        "last-wins": [[1, 2, 55], [53, 51, 6], [7, 54, 9]],
        "first-wins": [[1, 2, 52], [50, 51, 6], [7, 54, 9]],
    }
    c = entry(manifest, "ScatterND_18_nan_max")  # data [1, nan, 3], update [nan, 5, 2] into row 0
    allowed = {a["label"]: load(root / c["name"] / a["file"])[0] for a in c["allowed"]}
    nan = np.nan
    want = {"propagate": [nan, nan, 3], "drop-nan-update": [1, nan, 3], "drop-nan-data": [nan, 5, 3],
            "ignore-nan": [1, 5, 3]}
    for label, row in want.items():
        np.testing.assert_array_equal(allowed[label], np.array(row, np.float32), err_msg=label)
    c = entry(manifest, "ScatterND_18_bool_max")
    assert {a["label"]: a["outcome"] for a in c["allowed"]} == {"logical": "output", "raise": "raise"}


def test_tensor_scatter_cases_against_the_spec_pseudocode(kit: tuple[Path, dict[str, Any]]) -> None:
    """Every defined TensorScatter case against the spec's loop; the open ones list its result and refusing."""
    root, manifest = kit
    ts = [c for c in manifest["cases"] if c["op"] == "TensorScatter"]
    assert len(ts) > 30
    for c in ts:
        d = root / c["name"] / "test_data_set_0"
        inputs = [load(d / f"input_{k}.pb") for k in range(len(c["inputs"]))]
        if c["kind"] == "defined":
            np.testing.assert_array_equal(load(root / c["name"] / c["expected"]),
                                          conformance.tensor_scatter_spec(*inputs, **c["attrs"]), err_msg=c["name"])
    c = entry(manifest, "TensorScatter_24_negative_write_index")  # write_indices [-1, 0]: positions 3, 0 / 0, 1
    allowed = {a["label"]: a for a in c["allowed"]}
    assert allowed["raise"]["outcome"] == "raise"
    got = load(root / c["name"] / allowed["spec-pseudocode"]["file"])
    np.testing.assert_array_equal(got, np.array(dict(HAND)["TensorScatter_24_circular_wrap"], np.float32))
    assert {a["label"] for a in entry(manifest, "TensorScatter_24_empty_update_out_of_range")["allowed"]} == {
        "spec-pseudocode", "raise"}


def test_tensor_scatter_spec_loop_by_hand() -> None:
    cache = np.zeros((1, 4), np.int64)
    got = conformance.tensor_scatter_spec(cache, np.array([[7, 8, 9]]), np.array([3]), axis=1, mode="circular")
    assert got.tolist() == [[8, 9, 0, 7]]
    got = conformance.tensor_scatter_spec(cache, np.array([[7]]), np.array([-1]), axis=-1)
    assert got.tolist() == [[0, 0, 0, 7]]
    with pytest.raises(IndexError):
        conformance.tensor_scatter_spec(cache, np.array([[7, 8]]), np.array([3]), axis=1)


def test_must_raise_cases(kit: tuple[Path, dict[str, Any]]) -> None:
    _, manifest = kit
    kinds = {c["name"]: c["kind"] for c in manifest["cases"]}
    for name in ("Gather_13_out_of_range", "GatherElements_13_int64_min", "GatherND_13_indices_int32",
                 "GatherND_11_batch_dims1", "ScatterElements_16_duplicates_max", "ScatterND_18_unknown_reduction",
                 "Gather_13_scalar_data", "ScatterElements_18_indices_uint8", "TensorScatter_24_out_of_range",
                 "TensorScatter_24_int64_max", "TensorScatter_24_axis0", "TensorScatter_24_indices_int32",
                 "TensorScatter_24_update_too_long", "TensorScatter_24_unknown_mode"):
        assert kinds[name] == "must-raise", name
    for name in ("Gather_13_negative", "GatherND_12_batch_dims1", "ScatterElements_16_duplicates_add",
                 "Gather_13_empty_indices", "GatherElements_13_long_axis", "TensorScatter_24_negative_axis",
                 "TensorScatter_24_empty_batch", "TensorScatter_24_no_write_indices"):
        assert kinds[name] == "defined", name
    for name in ("TensorScatter_24_negative_write_index", "TensorScatter_24_negative_write_index_circular",
                 "TensorScatter_24_empty_update_out_of_range"):
        assert kinds[name] == "implementation-defined", name


def test_gatherscatter_itself_conforms(kit: tuple[Path, dict[str, Any]]) -> None:
    root, _ = kit
    report = run(root, "gatherscatter", isolate=False, only=r"^(?!.*large)")
    assert report.divergences == []
    assert report.counts()["pass"] > 300


def test_onnxruntime_single_thread_diverges_exactly_where_documented(kit: tuple[Path, dict[str, Any]]) -> None:
    pytest.importorskip("onnxruntime")
    root, _ = kit
    report = run(root, "onnxruntime", threads=1, isolate=False)
    got = sorted(r.name for r in report.divergences)
    # docs/onnx-tools.md: max/min accepted at opset 16, unknown reductions run as 'none'
    assert got == sorted(
        [f"{op}_16_duplicates_{r}" for op in ("ScatterElements", "ScatterND") for r in ("max", "min")]
        + [f"{op}_{v}_unknown_reduction" for op in ("ScatterElements", "ScatterND") for v in (16, 18)]
        # TensorScatter: no kernel for string and float8 data, complex not loadable, bfloat16 not feedable from Python
        + [f"TensorScatter_24_dtype_{t}" for t in ("string", "float8_e4m3fn", "complex64", "complex128", "bfloat16")]
    )
    nan = next(r for r in report.results if r.name == "ScatterElements_18_nan_max")
    assert (nan.status, nan.detail) == ("pass", "drop-nan-data")


def test_a_crash_or_a_hang_is_a_result_not_the_end_of_the_run(kit: tuple[Path, dict[str, Any]]) -> None:
    root, _ = kit
    # the stock evaluator never returns on GatherElements with an int64-min index (measured)
    report = run(root, "reference", only=r"^GatherElements_13_(int64_min|basic)$", timeout=8)
    by = {r.name: r for r in report.results}
    assert by["GatherElements_13_int64_min"].outcome == "timeout"
    assert by["GatherElements_13_basic"].status == "pass"


def test_kit_errors(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(KitError, match="must be empty or absent"):
        export(tmp_path / "full")
    with pytest.raises(KitError, match="unknown ONNX op 'Gathr'"):
        export(tmp_path / "k", ops=["Gathr"])
    with pytest.raises(KitError, match=r"no manifest\.json"):
        run(tmp_path / "full", "onnxruntime")
    (tmp_path / "full" / "manifest.json").write_text("{not json")
    with pytest.raises(KitError, match="unreadable manifest"):
        run(tmp_path / "full", "onnxruntime")
    with pytest.raises(KitError, match="unknown runtime 'tensorrt'"):
        run(tmp_path / "full", "tensorrt")
    with pytest.raises(KitError, match="unknown dtype"):
        list(conformance.cases(dtypes=["float7"]))


def test_cli_export_and_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gatherscatter.cli import main

    d = tmp_path / "kit"
    assert main(["conformance", "export", str(d), "--ops", "GatherND", "--opsets", "13", "--no-large", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote 23 cases to {d}")
    assert main(["conformance", "run", str(d), "--runtime", "gatherscatter", "--quiet"]) == 0
    assert "23 cases: 23 pass" in capsys.readouterr().out
    assert main(["conformance", "run", str(d), "--runtime", "reference", "--format", "json", "--quiet"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in data["divergences"]} == {
        "GatherND_13_indices_int32", "GatherND_13_indices_int16", "GatherND_13_indices_uint8",
        "GatherND_13_indices_uint64"}
    assert main(["conformance", "run", str(tmp_path / "none"), "--runtime", "reference"]) == 2
    assert "no manifest.json" in capsys.readouterr().err
    assert main(["conformance", "export", str(d)]) == 2
    assert main(["conformance"]) == 2
