"""``gatherscatter translate``: the plan, the divergences and the code, golden-tested; bad input is one line."""

from __future__ import annotations

import json

import pytest

from gatherscatter.translate.coverage import translation_markdown

from .conftest import run_cli

pytest.importorskip("onnx")  # the ONNX code is an onnx.helper script built from the exported graph

CASES = {
    # the issue's command: --dim is not given and defaults to 0 (said in a note)
    "translate_scatter_reduce_mean_onnx": (
        "translate", "torch.scatter_reduce", "--to", "onnx", "--reduce", "mean", "--include-self", "false",
    ),
    "translate_tf_scatter_nd_opset13": (
        "translate", "tensorflow.scatter_nd", "--to", "onnx", "--version", "13", "--no-code",
    ),
    "translate_take_fill_gatherscatter": (
        "translate", "gatherscatter.take", "--to", "onnx", "--axis", "1", "--bounds", "fill", "--fill_value", "-1",
        "--no-code",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_translate_output_matches_golden(name, golden):
    status, out, err = run_cli(*CASES[name])
    assert (status, err) == (0, "")
    golden(name, out)


def test_the_issue_command_prints_plan_divergences_and_code():
    status, out, err = run_cli(*CASES["translate_scatter_reduce_mean_onnx"])
    assert (status, err) == (0, "")
    assert out.startswith("note: --dim not given: translating torch.scatter_reduce with dim=0\n")
    assert "steps:" in out and "# include_self=False: zero the targeted positions first (docs/semantics.md#e10)" in out
    assert "divergences:" in out and "differs when an index is negative" in out
    assert "code (onnx):" in out and "helper.make_node('ScatterElements'" in out


def test_verify_prints_the_report():
    status, out, err = run_cli("translate", "mxnet.gather_nd", "--to", "onnx", "--verify", "40", "--no-code")
    assert (status, err) == (0, "")
    line = next(ln for ln in out.splitlines() if ln.startswith("verify: "))
    assert line.startswith("verify: 40 cases: ") and line.endswith(" 0 failures")
    assert "code (" not in out


def test_json_format():
    status, out, err = run_cli("translate", "tensorflow.scatter_nd", "--to", "onnx", "--format", "json",
                               "--verify", "30", "--no-code")  # fmt: skip
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["source"] == "tensorflow.scatter_nd" and data["target"] == "onnx"
    assert data["ops"] == ["onnx.ScatterND"]
    assert [s["name"] for s in data["steps"]][-1] == "onnx.ScatterND"
    assert data["steps"][-1]["attrs"]["reduction"] == "add"
    assert data["verify"]["total"] == 30 and data["verify"]["ok"] is True
    assert data["exact"] is True and "code" not in data


def test_attribute_values_are_parsed():
    status, out, _ = run_cli("translate", "torch.scatter_reduce", "--to", "onnx", "--dim", "1", "--reduce", "amax",
                             "--include-self", "False", "--version", "18", "--format", "json", "--no-code")  # fmt: skip
    assert status == 0
    data = json.loads(out)
    assert data["attrs"] == {"dim": 1, "reduce": "amax", "include_self": False}
    assert data["version"] == 18 and data["notes"] == []
    status, out, _ = run_cli("translate", "gatherscatter.take", "--to", "numpy", "--axis", "none", "--format", "json",
                             "--no-code")  # fmt: skip
    assert status == 0 and json.loads(out)["attrs"]["axis"] is None


def test_source_op_version_is_op_version():
    status, out, _ = run_cli("translate", "openvino.Gather", "--to", "onnx", "--axis", "0", "--op-version", "7",
                             "--format", "json", "--no-code")  # fmt: skip
    assert status == 0
    assert json.loads(out)["attrs"]["version"] == 7


def test_matrix_is_the_generated_page(tmp_path):
    status, out, err = run_cli("translate", "--matrix")
    assert (status, err) == (0, "")
    assert out == translation_markdown()
    path = tmp_path / "t.md"
    assert run_cli("translate", "--matrix", "--out", str(path))[0] == 0
    assert path.read_text(encoding="utf-8") == out


BAD = [
    (("translate", "torch.gathr", "--to", "onnx"), "unknown op 'torch.gathr'"),
    (("translate", "torch.gather", "--dim", "0"), "translate needs --to TARGET"),
    (("translate", "--to", "onnx"), "translate needs an op"),
    (("translate", "torch.gather", "--to", "tfjs"), "unknown target framework 'tfjs'; expected one of"),
    (("translate", "torch.gather", "--to", "onnx", "--axis", "0"), "unknown attribute 'axis'; its attributes are: dim"),
    (("translate", "torch.gather", "--to", "onnx", "--dim"), "--dim needs a value"),
    (("translate", "torch.gather", "--to", "onnx", "--verify", "0"), "--verify needs a positive number"),
    (("translate", "torch.gather", "--to", "onnx", "--verify", "x"), "invalid int value"),
    (("translate", "torch.gather", "--to", "onnx", "--version", "9"), "opset >= 11"),
    (("translate", "torch.gather", "--to", "onnx", "--format", "md"), "invalid choice: 'md'"),
    (("translate", "torch.gather", "--matrix"), "--matrix takes no op"),
    (("translate", "torch.gather", "--to", "onnx", "--out", "x.md"), "--out is for --matrix"),
    (("translate", "torch.scatter_reduce", "--to", "onnx", "--reduce", "median"), "median"),
]


@pytest.mark.parametrize(("argv", "fragment"), BAD, ids=[f"#{n}" for n in range(len(BAD))])
def test_bad_input_is_one_line_and_exit_2(argv, fragment):
    status, out, err = run_cli(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("gatherscatter: error: ")
    assert fragment in err
    assert "Traceback" not in err
