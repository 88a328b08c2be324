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
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--colour", "red"),
     "onnx.Gather has no argument --colour; its arguments are: --data, --indices, --axis, --opset"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--axis"), "--axis needs a value"),
    (("explain", "onnx.Gather", "--data", "[1]"), "onnx.Gather needs --indices"),
    (("explain", "onnx.ScatterND", "--data", "[1]", "--indices", "[[0]]"), "onnx.ScatterND needs --updates"),
    (("explain", "gatherscatter.take", "--data", "[1]", "--indices", "[0]", "--opset", "13"), "has no argument --opset"),
    (("explain", "onnx.Gather", "--data", '["a","b"]', "--indices", "[0]"), "must be a (nested) list of numbers"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--data", "[2]"), "--data is given twice"),
    (("explain", "tensorflow.scatter_nd", "--data", "[0,0]", "--indices", "[[0]]", "--updates", "[1]"),
     "tensorflow.scatter_nd has no data tensor: give --shape"),
    (("explain", "onnx.Gather", "--shape", "[2]", "--indices", "[0]"), "onnx.Gather has no --shape"),
    (("explain", "openvino.Gather", "--data", "[1]", "--indices", "[0]", "--axis", "0", "--version", "99"),
     "openvino.Gather has versions 1, 7, 8; got --version 99"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--png", "x.jpg"), "ending in .png; got x.jpg"),
    (("explain", "onnx.Gather", "--data", "[1]", "--indices", "[0]", "--svg", "x.png"), "ending in .svg; got x.png"),
    (("explain",), "explain needs an op"),
    (("--width", "0", "list"), "--width must be at least 20 columns; got 0"),
    (("--width", "-4", "list"), "--width must be at least 20 columns; got -4"),
    (("table", "--family", "nope"), "invalid choice: 'nope'"),
    (("table", "--framework", "nope"), "unknown framework 'nope'"),
    (("compare", "gather", "--data", "[1]"), "the following arguments are required: --indices"),
    (("list", "--bogus"), "unrecognized arguments: --bogus"),
    (("frobnicate",), "invalid choice: 'frobnicate'"),
    (("compare", "gather", "onnx.Gather", "--data", "[1]", "--indices", "[0]"), "one family (gather) or op names"),
    (("compare", "onnx.Nope", "--data", "[1]", "--indices", "[0]"), "unknown op 'onnx.Nope'"),
]


@pytest.mark.parametrize(("argv", "fragment"), BAD, ids=[" ".join(a[:2]) + f" #{n}" for n, (a, _) in enumerate(BAD)])
def test_bad_input_is_one_line_and_exit_2(argv, fragment):
    status, out, err = run_cli(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("gatherscatter: error: ")
    assert err.count("error: ") == 1  # one prefix, not two
    assert fragment in err
    assert "Traceback" not in err


def test_an_op_error_is_explained_and_reported_on_stderr():
    status, out, err = run_cli("explain", "onnx.Gather", "--data", "[10,20,30]", "--indices", "[0,3]")
    assert status == 1
    assert err.startswith("gatherscatter: error: IndexOutOfRangeError: indices[1] = 3 is out of range")
    assert err.count("\n") == 1
    assert "indices[1] = 3: out of range for axis 0 (size 3, valid [-3, 2]) -> error" in out


def test_no_command_prints_usage():
    status, out, _ = run_cli()
    assert status == 2
    assert out.startswith("usage: gatherscatter")
    assert "explain" in out and "compare" in out


def test_color_always_without_rich_warns(monkeypatch):
    from gatherscatter.explain import terminal

    monkeypatch.setattr(terminal, "rich_available", lambda: False)
    import io

    from gatherscatter.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(["--color", "always", "list", "--framework", "onnx", "--brief"], stdout=out, stderr=err)
    assert status == 0
    assert err.getvalue() == (
        "gatherscatter: warning: --color always needs rich (pip install 'gatherscatter[cli]'): writing plain text\n"
    )
    assert "\x1b[" not in out.getvalue()


def test_op_help_lists_arguments_and_attributes():
    status, out, err = run_cli("explain", "tensorflow.scatter_nd", "--help")
    assert (status, err) == (0, "")
    assert "  --indices      indices" in out
    assert "  --shape        output shape (a list)" in out
    assert "  --device       default 'cpu'" in out
    status, out, _ = run_cli("explain", "mxnet.gather_nd", "--help")
    assert "index tuples run down the FIRST axis" in out
    status, out, _ = run_cli("explain", "openvino.Gather", "--help")
    assert "  --axis         required" in out
    assert "  --version      default 8; one of 1, 7, 8" in out
    status, out, _ = run_cli("explain", "--help")
    assert status == 0 and out.startswith("usage: gatherscatter explain")


def test_ops_take_their_own_argument_names():
    # tf.scatter_nd: --shape, no dummy data; the picture has no data panel
    status, out, err = run_cli("explain", "tensorflow.scatter_nd", "--shape", "[4]", "--indices", "[[1],[1],[3]]",
                               "--updates", "[10,20,30]")  # fmt: skip
    assert (status, err) == (0, "")
    assert "collision at output[1]: A=10 + B=20 = 30" in out
    assert "no data tensor: the output starts from zeros of shape [4]" in out
    assert "-> [0, 30, 0, 30]" in out
    # NumPy's one-array index form for ufunc.at (rows along axis 0), by NumPy's names a, indices, b
    status, out, err = run_cli("explain", "numpy.add_at", "--a", "[1,2,3]", "--indices", "[0,0,2]", "--b", "[1,2,3]")
    assert (status, err) == (0, "")
    assert "-> [4, 2, 6]" in out
    # ... and its tuple form
    status, out, err = run_cli("explain", "numpy.add_at", "--a", "[[1,2],[3,4]]", "--indices", "([0,1],[1,1])",
                               "--b", "[10,20]")  # fmt: skip
    assert (status, err) == (0, "")
    assert "-> [[1, 12], [3, 24]]" in out
    # TensorFlow's own names
    status, out, err = run_cli("explain", "tensorflow.gather", "--params", "[5,6,7]", "--indices", "[2,0]")
    assert (status, err) == (0, "")
    assert "params (3,)" in out and "-> [7, 5]" in out


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
