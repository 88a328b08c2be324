"""Random JSON into every op's explain/compare/translate: always a JSON answer, never a 5xx or a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from gatherscatter.dialects._registry import ops

OPS = [op.info.qualname for op in ops()]
NAMES = sorted({n for op in ops() for n in __import__("inspect").signature(op.lower).parameters} | {"bogus"})

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5))
arrays = st.recursive(st.integers(-4, 4) | st.floats(-3, 3), lambda c: st.lists(c, min_size=0, max_size=3), max_leaves=12)
values = st.one_of(scalars, arrays, st.dictionaries(st.text(max_size=3), scalars, max_size=2))


@pytest.fixture(scope="module")
def fast_client() -> Iterator[Any]:
    from starlette.testclient import TestClient

    from gatherscatter.web.app import create_app

    # jobs in a server thread (processes=0): the same backend, without process start-up per example
    with TestClient(create_app(processes=0, timeout=30), base_url="http://127.0.0.1") as c:
        yield c


@settings(max_examples=150, deadline=None)
@given(op=st.sampled_from(OPS), args=st.dictionaries(st.sampled_from(NAMES), values, max_size=6),
       job=st.sampled_from(["explain", "compare"]), version=st.one_of(st.none(), st.integers(0, 30)))
def test_random_calls_get_a_json_answer(fast_client: Any, op: str, args: dict[str, Any], job: str,
                                        version: Any) -> None:
    body: dict[str, Any] = {"op": op, "args": args}
    if version is not None:
        body["version"] = version
    r = fast_client.post(f"/api/{job}", json=body)
    assert r.status_code < 500, r.text
    got = r.json()
    if r.status_code != 200:
        assert set(got["error"]) == {"type", "message"} and got["error"]["message"]
        assert got["error"]["type"] != "UnexpectedError", got  # every refusal is a named, typed one
    assert "Traceback" not in r.text


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(OPS), attrs=st.dictionaries(st.sampled_from(NAMES), scalars, max_size=4),
       to=st.sampled_from(["onnx", "torch", "jax", "numpy", "tensorflow", "x"]))
def test_random_translations_get_a_json_answer(fast_client: Any, op: str, attrs: dict[str, Any], to: str) -> None:
    r = fast_client.post("/api/translate", json={"op": op, "to": to, "attrs": attrs})
    assert r.status_code < 500, r.text
    if r.status_code != 200:
        assert r.json()["error"]["message"]


small = st.recursive(st.integers(-3, 3), lambda c: st.lists(c, min_size=1, max_size=3), max_leaves=9)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_calls_built_from_the_op_facts_get_a_json_answer(fast_client: Any, data: Any) -> None:
    from gatherscatter.web.backend import op_facts

    op = data.draw(st.sampled_from(OPS))
    facts = op_facts(op)
    args: dict[str, Any] = {}
    for a in facts["args"]:
        if a["role"] == "shape":
            args[a["name"]] = data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
        elif a["form"] == "tuple":
            args[a["name"]] = data.draw(st.lists(st.lists(st.integers(-3, 3), min_size=1, max_size=3), max_size=2))
        else:
            args[a["name"]] = data.draw(small)
    for a in facts["attrs"]:
        if data.draw(st.booleans()):
            pool = st.sampled_from(a["choices"]) if a["choices"] else (
                st.integers(-3, 3) if a["type"] == "int" else scalars)
            args[a["name"]] = data.draw(pool)
    job = data.draw(st.sampled_from(["explain", "compare"]))
    r = fast_client.post(f"/api/{job}", json={"op": op, "args": args})
    assert r.status_code < 500, r.text
    if r.status_code != 200:
        err = r.json()["error"]
        assert err["message"] and err["type"] != "UnexpectedError", (op, args, err)
