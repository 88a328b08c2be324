"""Hostile input: every bad request gets a 4xx JSON error naming the problem, never a 500 or a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

GATHER = {"op": "onnx.Gather", "args": {"data": [10, 20, 30], "indices": [0]}}


def raw(client: Any, path: str, content: bytes, ctype: str = "application/json") -> tuple[int, Any]:
    r = client.post(path, content=content, headers={"content-type": ctype})
    assert r.headers["content-type"].startswith("application/json"), r.text
    body = r.json()
    assert set(body["error"]) == {"type", "message"}
    assert "Traceback" not in r.text
    return r.status_code, body["error"]


def post(client: Any, body: Any, path: str = "/api/explain") -> tuple[int, Any]:
    return raw(client, path, json.dumps(body).encode())


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{bad", "not valid JSON"),
        (b"", "not valid JSON"),
        (b'{"op": "onnx.Gather", "args": {"data": [NaN], "indices": [0]}}', "NaN is not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    ],
)
def test_malformed_json_is_400(client: Any, content: bytes, fragment: str) -> None:
    status, err = raw(client, "/api/explain", content)
    assert status == 400 and err["type"] == "BadRequest" and fragment in err["message"]


def test_not_json_is_415(client: Any) -> None:
    status, _err = raw(client, "/api/explain", json.dumps(GATHER).encode(), "text/plain")
    assert status == 415


def test_body_over_the_limit_is_413(client: Any) -> None:
    from gatherscatter.web.api import MAX_BODY

    status, err = raw(client, "/api/explain", b" " * (MAX_BODY + 1))
    assert status == 413 and "larger than 16 MiB" in err["message"]


def test_too_many_elements_is_413(client: Any) -> None:
    status, err = post(client, {"op": "onnx.Gather", "args": {"data": [0] * 1_000_001, "indices": [0]}})
    assert status == 413 and err["type"] == "TooLarge" and "1,000,000" in err["message"]


@pytest.mark.parametrize("path", ["/api/explain", "/api/compare"])
def test_output_too_large_is_413_before_it_is_computed(client: Any, path: str) -> None:
    # 500 x 1000 data and 200,000 row indices: a 200,000 x 1000 output (2 * 10^8 cells) is refused
    data = [[0] * 1000] * 500
    status, err = post(client, {"op": "onnx.Gather", "args": {"data": data, "indices": [0] * 200_000}}, path)
    assert status == 413 and "the output would have 200,000,000 cells" in err["message"]


def test_too_large_shape_argument_is_413(client: Any) -> None:
    status, _err = post(client, {"op": "tensorflow.scatter_nd", "args": {"indices": [[0]], "updates": [1],
                                                                        "shape": [100_000, 100_000]}})
    assert status == 413


def test_unknown_op_is_404(client: Any) -> None:
    status, err = post(client, {"op": "torch.gather_everything", "args": {}})
    assert status == 404 and "unknown op 'torch.gather_everything'" in err["message"]
    r = client.get("/api/ops/no.such_op")
    assert r.status_code == 404 and r.json()["error"]["type"] == "UnsupportedError"


@pytest.mark.parametrize(
    ("body", "status", "kind", "fragment"),
    [
        ([1, 2], 422, "ArgumentError", "must be a JSON object"),
        ({"op": "onnx.Gather"}, 422, "ArgumentError", "missing args"),
        ({**GATHER, "evil": 1}, 422, "ArgumentError", "unknown field 'evil'"),
        ({"op": 5, "args": {}}, 422, "ArgumentError", "op must be a name"),
        ({"op": "onnx.Gather", "args": [1]}, 422, "ArgumentError", "args must be an object"),
        ({"op": "onnx.Gather", "args": {"data": "__import__('os')", "indices": [0]}}, 422, "ArgumentError",
         "data must be a number or a (nested) list"),
        ({"op": "onnx.Gather", "args": {"data": {"a": 1}, "indices": [0]}}, 422, "ArgumentError", "must be a number"),
        ({"op": "onnx.Gather", "args": {"data": [[1, 2], [3]], "indices": [0]}}, 422, "ShapeError", "not a rectangular array"),
        ({"op": "onnx.Gather", "args": {"data": [1, "x"], "indices": [0]}}, 422, "ArgumentError", "numbers or booleans"),
        ({"op": "onnx.Gather", "args": {"data": [1, None], "indices": [0]}}, 422, "ArgumentError", "numbers or"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0], "axis": "0"}}, 422, "ArgumentError",
         "axis must be an integer"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0], "axis": True}}, 422, "ArgumentError",
         "axis must be an integer"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0], "axis": 2**70}}, 422, "ArgumentError",
         "too large"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0], "bogus": 1}}, 422, "ArgumentError",
         "has no argument 'bogus'"),
        ({"op": "onnx.Gather", "args": {"indices": [0]}}, 422, "ArgumentError", "data is required"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0]}, "version": 99}, 422, "UnsupportedError",
         "opset 99"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0]}, "dtypes": {"data": "object"}}, 422,
         "DTypeError", "dtype of data must be one of"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0]}, "dtypes": {"data": "uint8"}}, 200, "", ""),
        ({"op": "onnx.Gather", "args": {"data": [1, 300], "indices": [0]}, "dtypes": {"data": "uint8"}}, 422,
         "DTypeError", "cannot be held exactly by uint8"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [0.5]}}, 422, "DTypeError",
         "indices must have an integer dtype"),
        ({"op": "onnx.Gather", "args": {"data": [1, 2], "indices": [5]}}, 422, "IndexOutOfRangeError",
         "indices[0] = 5 is out of range"),
        ({"op": "onnx.ScatterND", "args": {"data": [1, 2], "indices": [[0]], "updates": [1], "reduction": "avg"}},
         422, "UnsupportedError", "avg"),
        ({"op": "torch.index_put", "args": {"input": [1, 2], "indices": 3, "values": [1]}}, 422, "ArgumentError",
         "list of index arrays"),
        ({"op": "onnx.Gather", "args": {"data": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "indices": [0]}}, 422,
         "ShapeError", "nested deeper than 16"),
    ],
)
def test_wrong_types_and_values_are_4xx_with_a_message(client: Any, body: Any, status: int, kind: str,
                                                        fragment: str) -> None:
    r = client.post("/api/explain", json=body)
    assert r.status_code == status, r.text
    if status != 200:
        err = r.json()["error"]
        assert err["type"] == kind and fragment in err["message"], err


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"op": "torch.gather", "to": "cobol"}, "to must be one of"),
        ({"op": "torch.gather", "to": "onnx", "attrs": {"dim": "x"}}, "dim must be an integer"),
        ({"op": "torch.gather", "to": "onnx", "attrs": {"dim": 0}, "verify": 10**9}, "verify must be"),
        ({"op": "torch.gather", "to": "onnx", "attrs": {"dim": 0}, "verify": True}, "verify must be"),
        ({"op": "torch.scatter_reduce", "to": "onnx", "attrs": {"dim": 0, "reduce": "median"}}, "median"),
        ({"op": "torch.gather", "to": "onnx", "attrs": []}, "attrs must be an object"),
    ],
)
def test_translate_bad_input(client: Any, body: Any, fragment: str) -> None:
    status, err = post(client, body, "/api/translate")
    assert status == 422 and fragment in err["message"], err


def test_bad_family_and_unknown_paths(client: Any) -> None:
    r = client.get("/api/table", params={"family": "<script>"})
    assert r.status_code == 422 and "family must be one of" in r.json()["error"]["message"]
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"]["type"] == "NotFound"
    r = client.get("/api/explain")
    assert r.status_code == 405 and r.json()["error"]["type"] == "MethodNotAllowed"


def test_foreign_host_header_is_refused(client: Any) -> None:
    # DNS rebinding: a page on another name that resolves to 127.0.0.1 cannot use the API
    r = client.get("/api/ops", headers={"host": "attacker.example"})
    assert r.status_code == 400


def test_nan_and_infinity_results_are_valid_json(client: Any) -> None:
    r = client.post("/api/explain", json={"op": "onnx.Gather", "args": {"data": [1e308, 2.0], "indices": [0, 1]},
                                          "dtypes": {"data": "float32"}})
    # 1e308 does not fit float32: refused, not silently made infinite
    assert r.status_code == 422 or r.json()["output"]["value"][0] == "inf"
    r = client.post("/api/explain", json={"op": "numpy.multiply_at", "args": {"a": [1e200, 2.0],
                                                                              "indices": [[0, 0]], "b": [1e200, 1e200]}})
    assert r.status_code == 200, r.text
    assert r.json()["output"]["value"] == ["inf", 2.0]


def test_time_limit_answers_504_and_the_next_request_works() -> None:
    from starlette.testclient import TestClient

    from gatherscatter.web.app import create_app

    app = create_app(processes=1, timeout=0.2)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        c.get("/api/ops")  # the worker is up
        body = {"op": "torch.scatter_reduce", "to": "onnx", "attrs": {"dim": 0, "reduce": "mean"}, "verify": 2000}
        r = c.post("/api/translate", json=body)
        assert r.status_code == 504 and r.json()["error"]["type"] == "Timeout"
        ok = c.post("/api/explain", json=GATHER)
        for _ in range(20):  # the pool restarts after a time-out; a worker takes a moment to load
            if ok.status_code == 200:
                break
            ok = c.post("/api/explain", json=GATHER)
        assert ok.status_code == 200 and ok.json()["output"]["value"] == [10]


def test_the_server_binds_loopback_by_default() -> None:
    import argparse

    from gatherscatter.cli import _parser

    args = _parser().parse_args(["serve"])
    assert isinstance(args, argparse.Namespace)
    assert args.host == "127.0.0.1" and args.port == 8000 and args.open is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
def test_worker_memory_limit_turns_a_huge_allocation_into_memoryerror() -> None:
    # the worker's start-up caps its address space: an 8 GiB array is a MemoryError there (nothing is touched)
    code = (
        "from gatherscatter.web.worker import _init\n"
        "_init(1 << 30)\n"
        "import numpy as np\n"
        "try:\n"
        "    np.ones(1 << 30)\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n"
    )
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.strip() == "MemoryError", out.stderr[-2000:]


def test_requests_during_a_restart_get_an_answer() -> None:
    import threading

    from starlette.testclient import TestClient

    from gatherscatter.web.app import create_app

    app = create_app(processes=1, timeout=0.3)
    statuses: list[int] = []
    with TestClient(app, base_url="http://127.0.0.1") as c:
        slow = {"op": "torch.scatter_reduce", "to": "onnx", "attrs": {"dim": 0, "reduce": "mean"}, "verify": 2000}

        def send(path: str, body: dict[str, Any]) -> None:
            r = c.post(path, json=body)
            assert r.json()["error" if r.status_code != 200 else "op"]
            statuses.append(r.status_code)

        threads = [threading.Thread(target=send, args=("/api/translate", slow))]
        threads += [threading.Thread(target=send, args=("/api/explain", GATHER)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(statuses) == 5 and set(statuses) <= {200, 503, 504}, statuses
        assert 504 in statuses
        assert c.post("/api/explain", json=GATHER).status_code == 200
