"""Bad command-line input: one line on stderr naming what was wrong, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import run_cli

BAD = [
    (("explain", "onnx.Gather", "--data", "[[1,2],[3", "--indices", "[0]"), "--data is not valid JSON"),
    (("explain", "onnx.Gather", "--data", "[[1,2],[3]]", "--indices", "[0]"), "--data is not a rectangular array"),
    (("explain", "onnx.Nope", "--data", "[1]", "--indices", "[0]"), "unknown op 'onnx.Nope'"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--colour", "red"), "has no attribute --colour"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--axis"), "attribute --axis needs a value"),
    (("explain", "onnx.Gather", "--data", "[1]"), "--indices is required"),
    (("explain", "onnx.ScatterND", "--data", "[1]", "--indices", "[[0]]"), "--updates is required"),
    (("explain", "gatherscatter.take", "--data", "[1]", "--indices", "[0]", "--opset", "13"), "one version only"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--opset", "x"), "invalid int value"),
    (("table", "--family", "nope"), "invalid choice: 'nope'"),
    (("table", "--framework", "nope"), "unknown framework 'nope'"),
    (("compare", "gather", "--data", "[1]"), "the following arguments are required: --indices"),
    (("list", "--bogus"), "unrecognized arguments: --bogus"),
    (("frobnicate",), "invalid choice: 'frobnicate'"),
]


@pytest.mark.parametrize(("argv", "fragment"), BAD, ids=[" ".join(a[:2]) + f" #{n}" for n, (a, _) in enumerate(BAD)])
def test_bad_input_is_one_line_and_exit_2(argv, fragment):
    status, out, err = run_cli(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("gatherscatter: error: ")
    assert fragment in err
    assert "Traceback" not in err


def test_an_op_error_is_explained_not_raised():
    status, out, err = run_cli("explain", "onnx.Gather", "--data", "[10,20,30]", "--indices", "[0,3]")
    assert (status, err) == (1, "")
    assert "error: IndexOutOfRangeError: indices[1] = 3 is out of range" in out
    assert "indices[1] = 3: out of range for axis 0" in out


def test_too_large_picture_file_is_refused(tmp_path):
    svg = tmp_path / "x.svg"
    status, _, err = run_cli("explain", "onnx.Gather", "--data", str(list(range(300))), "--indices", "[1]",
                             "--svg", str(svg))  # fmt: skip
    assert status == 2
    assert "picture not drawn: data has 300 cells (the limit is 256 per tensor)" in err
    assert not svg.exists()


def test_real_process_prints_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "gatherscatter", "explain", "onnx.Gather", "--data", "{", "--indices", "[0]"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("gatherscatter: error: --data is not valid JSON")
    assert "Traceback" not in proc.stderr
