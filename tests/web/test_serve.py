"""``gatherscatter serve``: starts, answers on loopback, refuses a busy port, says which extra is missing."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gatherscatter.cli import main

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_serve_starts_and_answers() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "gatherscatter", "serve", "--port", "0", "--workers", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("gatherscatter explorer at http://127.0.0.1:"), line
        url = line.split()[3]
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "api/targets", timeout=10) as r:
                    assert "onnx" in json.loads(r.read())
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b"gatherscatter explorer" in r.read()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_busy_port_is_one_clean_line() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        err = io.StringIO()
        status = main(["serve", "--port", str(port)], stdout=io.StringIO(), stderr=err)
    if status == 2 and "needs the web extra" in err.getvalue():
        pytest.skip("the web extra is not installed")
    assert status == 2
    assert err.getvalue().startswith("gatherscatter: error: cannot listen on 127.0.0.1:") and "--port" in err.getvalue()


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn -> ImportError
    err = io.StringIO()
    status = main(["serve"], stdout=io.StringIO(), stderr=err)
    assert status == 2
    assert "pip install 'gatherscatter[web]'" in err.getvalue()
