"""The explorer's JSON API: every endpoint, and the same results as the Python API.

Expected values are hand-computed from the ops' definitions (or come from calling the
library's Python API directly, where the claim is "the API returns what Python returns").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytest.importorskip("starlette")


def post(client: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, json=body)
    assert r.headers["content-type"].startswith("application/json")
    return r.status_code, r.json()


def test_index_lists_endpoints_and_limits(client: Any) -> None:
    r = client.get("/api")
    assert r.status_code == 200
    body = r.json()
    assert "POST /api/explain" in body["endpoints"]
    assert body["limits"]["elements"] == 1_000_000


def test_ops_is_the_registry(client: Any) -> None:
    from gatherscatter.dialects._registry import ops

    r = client.get("/api/ops")
    assert r.status_code == 200
    got = r.json()
    assert [o["op"] for o in got] == [op.info.qualname for op in ops()]
    first = got[0]
    assert set(first) == {"op", "framework", "name", "family", "kind", "versions", "version_kw", "summary"}


def test_op_facts_roles_defaults_and_choices(client: Any) -> None:
    r = client.get("/api/ops/torch.scatter_reduce")
    assert r.status_code == 200
    f = r.json()
    assert [(a["name"], a["role"], a["required"]) for a in f["args"]] == [
        ("input", "data", True), ("index", "indices", True), ("src", "updates", True)]
    attrs = {a["name"]: a for a in f["attrs"]}
    assert attrs["dim"]["type"] == "int" and attrs["dim"]["required"]
    assert attrs["include_self"]["default"] is True and attrs["include_self"]["choices"] == [True, False]
    # torch's own reduce names, as torch.scatter_reduce accepts them
    assert {"sum", "prod", "mean", "amax", "amin"} <= set(attrs["reduce"]["choices"])
    assert "none" not in attrs["reduce"]["choices"]


@pytest.mark.parametrize(
    ("op", "roles"),
    [
        ("tensorflow.scatter_nd", [("indices", "indices"), ("updates", "updates"), ("shape", "shape")]),
        ("mxnet.scatter_nd", [("data", "updates"), ("indices", "indices"), ("shape", "shape")]),
        ("paddle.scatter_nd", [("index", "indices"), ("updates", "updates"), ("shape", "shape")]),
        ("torch.index_put", [("input", "data"), ("indices", "indices"), ("values", "updates")]),
        ("onnx.GatherND", [("data", "data"), ("indices", "indices")]),
    ],
)
def test_op_roles_come_from_the_op_description(client: Any, op: str, roles: list[tuple[str, str]]) -> None:
    f = client.get(f"/api/ops/{op}").json()
    assert [(a["name"], a["role"]) for a in f["args"]] == roles


def test_version_facts(client: Any) -> None:
    f = client.get("/api/ops/onnx.ScatterElements").json()
    assert f["version_kw"] == "opset" and f["versions"] == [11, 13, 16, 18]
    red = next(a for a in f["attrs"] if a["name"] == "reduction")
    assert red["default"] == "none" and red["choices"] == ["none", "add", "mul", "max", "min"]


def test_explain_torch_gather_matches_python(client: Any) -> None:
    data, index = [[1, 2], [3, 4]], [[0, 0], [1, 0]]
    status, body = post(client, "/api/explain", {"op": "torch.gather", "args": {"input": data, "index": index,
                                                                               "dim": 1}})
    assert status == 200
    # out[i][j] = data[i][index[i][j]] (hand-computed)
    assert body["output"] == {"shape": [2, 2], "dtype": "int64", "value": [[1, 1], [4, 3]]}
    assert body["output"]["value"] == gs.torch.gather(np.array(data), 1, np.array(index)).tolist()
    assert body["svg"].startswith("<?xml") and 'data-tensor="output"' in body["svg"]
    assert "-> [[1, 1], [4, 3]]" in body["text"]
    assert body["error"] is None


def test_explain_collision_and_version(client: Any) -> None:
    status, body = post(client, "/api/explain", {
        "op": "onnx.ScatterND", "version": 18,
        "args": {"data": [0, 0, 0, 0], "indices": [[1], [1], [3]], "updates": [5, 6, 7], "reduction": "add"}})
    assert status == 200
    assert body["output"]["value"] == [0, 11, 0, 7]
    assert body["collisions"] == [{"output": [1], "updates": [[0], [1]]}]
    assert "ScatterND-18" in body["label"]


def test_explain_tuple_indices_and_dtypes(client: Any) -> None:
    status, body = post(client, "/api/explain", {
        "op": "torch.index_put", "dtypes": {"input": "float32", "values": "float32"},
        "args": {"input": [[1, 2], [3, 4]], "indices": [[0, 1], [1, 0]], "values": [9, 8]}})
    assert status == 200
    assert body["output"] == {"shape": [2, 2], "dtype": "float32", "value": [[1.0, 9.0], [8.0, 4.0]]}


def test_explain_shape_argument(client: Any) -> None:
    status, body = post(client, "/api/explain", {
        "op": "tensorflow.scatter_nd", "args": {"indices": [[1], [1]], "updates": [5, 6], "shape": [4]}})
    assert status == 200
    assert body["output"]["value"] == [0, 11, 0, 0]  # tf.scatter_nd sums duplicates into zeros


def test_explain_op_error_is_422_with_the_library_message_and_the_picture(client: Any) -> None:
    status, body = post(client, "/api/explain", {"op": "onnx.Gather", "args": {"data": [10, 20, 30],
                                                                              "indices": [0, 3]}})
    assert status == 422
    assert body["error"]["type"] == "IndexOutOfRangeError"
    assert "indices[1] = 3 is out of range" in body["error"]["message"]
    assert body["explanation"]["svg"] is not None


def test_compare_groups_like_the_python_compare(client: Any) -> None:
    from gatherscatter.explain import Roles, compare

    args = {"input": [[1, 2], [3, 4]], "index": [[0, 0], [1, 0]], "dim": 1}
    status, body = post(client, "/api/compare", {"op": "torch.gather", "args": args})
    assert status == 200
    ref = compare("gather_elements", Roles(np.array(args["input"]), np.array(args["index"]), None, {"axis": 1}))
    assert [g["value"]["value"] for g in body["groups"]] == [v.tolist() for v, _ in ref.groups]
    assert [[o["op"] for o in g["ops"]] for g in body["groups"]] == [[m.op for m in ms] for _, ms in ref.groups]
    assert body["groups"][0]["tag"] == "A"
    assert body["groups"][0]["value"]["value"] == [[1, 1], [4, 3]]
    assert "torch.gather" in [o["op"] for o in body["groups"][0]["ops"]]


def test_compare_marks_differences_from_group_a(client: Any) -> None:
    # tf.scatter_nd sums duplicates (11); an overwrite keeps the last (6); positions differ at [1]
    status, body = post(client, "/api/compare", {"op": "tensorflow.tensor_scatter_nd_update", "args": {
        "tensor": [0, 0, 0, 0], "indices": [[1], [1]], "updates": [5, 6]}})
    assert status == 200
    values = {tuple(g["value"]["value"]) for g in body["groups"]}
    assert (0, 6, 0, 0) in values and (0, 11, 0, 0) in values
    for g in body["groups"][1:]:
        assert g["differs_from_A"] == [[1]]


def test_compare_across_families(client: Any) -> None:
    # as `gatherscatter compare torch.gather onnx.Gather onnx.GatherElements numpy.take_along_axis`
    from gatherscatter.dialects._registry import get_op
    from gatherscatter.explain import Roles, compare

    names = ["torch.gather", "onnx.Gather", "onnx.GatherElements", "numpy.take_along_axis"]
    args = {"input": [[1, 2], [3, 4]], "index": [[0, 0], [1, 0]], "dim": 1}
    status, body = post(client, "/api/compare", {"op": names[0], "args": args, "ops": names[1:]})
    assert status == 200
    assert body["ops"] == names and body["ran"] == 4 and not body["agree"]
    groups = {g["tag"]: (g["value"], sorted(o["op"] for o in g["ops"])) for g in body["groups"]}
    # A: out[i][j] = input[i][index[i][j]] (hand-computed)
    assert groups["A"] == ({"shape": [2, 2], "dtype": "int64", "value": [[1, 1], [4, 3]]},
                           ["numpy.take_along_axis", "onnx.GatherElements", "torch.gather"])
    # B: onnx.Gather(axis=1): out[i][j][k] = input[i][index[j][k]]
    assert groups["B"] == ({"shape": [2, 2, 2], "dtype": "int64", "value": [[[1, 1], [2, 1]], [[3, 3], [4, 3]]]},
                           ["onnx.Gather"])
    assert body["groups"][1]["differs_from_A"] is None  # another shape: no cell-by-cell difference
    # the same as the Python compare over the same op list
    ref = compare("x", Roles(np.array(args["input"]), np.array(args["index"]), None, {"axis": 1}),
                  op_list=[get_op(n) for n in names])
    assert [g["value"]["value"] for g in body["groups"]] == [v.tolist() for v, _ in ref.groups]


def test_compare_across_families_notes_errors_and_duplicates(client: Any) -> None:
    # the current op is compared first and once; an attribute an op lacks is left out, and said so
    status, body = post(client, "/api/compare", {"op": "torch.gather", "ops": ["onnx.GatherND", "torch.gather",
                                                                               "onnx.GatherND"],
                                                 "args": {"input": [[1, 2], [3, 4]], "index": [[0, 0], [1, 0]],
                                                          "dim": 1}})
    assert status == 200 and body["ops"] == ["torch.gather", "onnx.GatherND"]
    nd = body["groups"][1]
    # GatherND reads index tuples: input[0, 0] = 1, input[1, 0] = 3
    assert nd["value"]["value"] == [1, 3] and nd["ops"][0]["notes"] == ["has no axis: left out"]
    # scatters: overwrite (last wins) [0, 6, 0, 7]; tf.scatter_nd sums into zeros [0, 11, 0, 7];
    # ScatterElements wants updates shaped like its indices: an error, listed with the op's message
    status, body = post(client, "/api/compare", {"op": "onnx.ScatterND", "ops": [
        "torch.index_put", "tensorflow.scatter_nd", "onnx.ScatterElements"],
        "args": {"data": [0, 0, 0, 0], "indices": [[1], [1], [3]], "updates": [5, 6, 7]}})
    assert status == 200
    by_value = {tuple(g["value"]["value"]): sorted(o["op"] for o in g["ops"]) for g in body["groups"]}
    assert by_value == {(0, 6, 0, 7): ["onnx.ScatterND", "torch.index_put"], (0, 11, 0, 7): ["tensorflow.scatter_nd"]}
    assert [e["op"] for e in body["errors"]] == ["onnx.ScatterElements"]
    assert body["errors"][0]["error"].startswith("ShapeError")


@pytest.mark.parametrize(("ops", "status", "kind"), [
    (["onnx.Nope"], 404, "UnsupportedError"),
    ("onnx.Gather", 422, "ArgumentError"),
    ([1, 2], 422, "ArgumentError"),
    (["onnx.Gather"] * 65, 413, "TooLarge"),
])
def test_compare_across_families_bad_op_lists(client: Any, ops: Any, status: int, kind: str) -> None:
    got, body = post(client, "/api/compare", {"op": "torch.gather", "ops": ops, "args": {
        "input": [[1, 2]], "index": [[0]], "dim": 1}})
    assert (got, body["error"]["type"]) == (status, kind)


def test_op_facts_are_the_op_record(client: Any) -> None:
    from gatherscatter.dialects._registry import get_op

    f = client.get("/api/ops/onnx.ScatterND").json()
    # what each opset adds, from the record's versions (ONNX's ScatterND: reduction in 16, max/min in 18)
    assert f["version_notes"] == {"13": "bfloat16", "16": "reduction add, mul", "18": "reduction max, min"}
    rec = get_op("torch.scatter").record
    f = client.get("/api/ops/torch.scatter").json()
    assert {a["name"]: a["role"] for a in f["args"]} == {k: v for k, v in rec.arg_roles.items()
                                                        if v in ("data", "indices", "updates", "shape")}
    # torch.scatter's reduce: None (overwrite), 'add', 'multiply' (torch's docs), no more
    assert next(a for a in f["attrs"] if a["name"] == "reduce")["choices"] == [None, "add", "multiply"]
    # jax.lax.gather's mode: JAX's GatherScatterMode names; 'raise' and 'wrap' are not JAX modes
    f = client.get("/api/ops/jax.lax.gather").json()
    mode = next(a for a in f["attrs"] if a["name"] == "mode")["choices"]
    assert {"clip", "fill", "promise_in_bounds"} <= set(mode) and not {"raise", "wrap"} & set(mode)


def test_table_is_make_table(client: Any) -> None:
    from gatherscatter.explain.table import make_table, table_json

    r = client.get("/api/table", params={"family": "gather_nd"})
    assert r.status_code == 200
    t = r.json()
    want = table_json(make_table("gather_nd"))
    assert [c["label"] for c in t["columns"]] == [c["label"] for c in want["columns"]]
    assert [[c["text"] for c in row["cells"]] for row in t["rows"]] == [
        [c["text"] for c in row["cells"]] for row in want["rows"]]


def test_targets(client: Any) -> None:
    from gatherscatter.translate import frameworks

    assert client.get("/api/targets").json() == frameworks()


def test_translate_matches_python(client: Any) -> None:
    attrs = {"dim": 0, "reduce": "mean", "include_self": False}
    status, body = post(client, "/api/translate", {"op": "torch.scatter_reduce", "to": "jax", "attrs": attrs})
    assert status == 200
    t = gs.translate("torch.scatter_reduce", to="jax", **attrs)
    assert body["ops"] == t.ops
    assert body["divergences"] == t.divergences
    assert body["code"] == t.code
    assert body["exact"] == t.exact
    assert body["verify"] is None


def test_translate_verify_and_dropped_attrs(client: Any) -> None:
    status, body = post(client, "/api/translate", {"op": "onnx.ScatterND", "to": "torch", "verify": 40,
                                                   "attrs": {"reduction": "add", "duplicates": "last",
                                                             "opset": 18}})
    assert status == 200
    assert body["ignored"] == ["duplicates"]
    assert body["attrs"]["reduction"] == "add"
    assert body["verify"]["total"] == 40 and body["verify"]["ok"] is True


def test_translate_source_version(client: Any) -> None:
    status, body = post(client, "/api/translate", {"op": "openvino.Gather", "to": "onnx",
                                                   "attrs": {"axis": 0, "version": 1}})
    assert status == 200
    assert body["attrs"].get("version") == 1


def test_seeds_are_the_tour(client: Any) -> None:
    from gatherscatter.explain.seeds import SEED_EXAMPLES

    seeds = client.get("/api/seeds").json()
    assert [s["title"] for s in seeds] == [ex.title for ex in SEED_EXAMPLES]
    # each seed, sent back to /api/explain, gives the value the seed document prints
    for s in seeds:
        if s["expected"] is None:
            continue
        status, body = post(client, "/api/explain", {"op": s["op"], "args": s["args"], "version": s["version"]})
        assert status == 200, (s["title"], body)
        assert np.allclose(np.array(body["output"]["value"], dtype=float), np.array(s["expected"], dtype=float)), s


def test_page_and_static_files(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<title>gatherscatter explorer</title>" in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    for name, ctype in (("app.js", "javascript"), ("app.css", "text/css")):
        s = client.get(f"/static/{name}")
        assert s.status_code == 200 and ctype in s.headers["content-type"]
    # nothing is fetched from elsewhere: no absolute URLs in the page's files
    import re
    for name in ("index.html", "app.js", "app.css"):
        text = client.get("/" if name == "index.html" else f"/static/{name}").text
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), name
        assert "@import" not in text and "url(http" not in text


def test_explain_scalar_value_scatter(client: Any) -> None:
    # torch.index_fill(input, 0, [2, 0], 7): rows 2 and 0 filled with 7 (hand-computed); drawn or not, the value is right
    status, body = post(client, "/api/explain", {"op": "torch.index_fill", "args": {
        "input": [[0, 0], [0, 0], [0, 0]], "index": [2, 0], "dim": 0, "value": 7}})
    assert status == 200
    assert body["output"]["value"] == [[7, 7], [0, 0], [7, 7]]


def test_explain_an_op_the_explanation_model_cannot_map(client: Any) -> None:
    # jax.lax.gather with dimension numbers as JSON lists (tuples): rows 1 then 0 of the operand
    status, body = post(client, "/api/explain", {"op": "jax.lax.gather", "args": {
        "operand": [[1, 2], [3, 4]], "start_indices": [[1], [0]], "dimension_numbers": [[1], [0], [0]],
        "slice_sizes": [1, 2]}})
    assert status == 200
    assert body["output"]["value"] == [[3, 4], [1, 2]]


EXAMPLES = {  # one small in-range call per family (as the page's starting inputs)
    "gather": {"data": [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "indices": [2, 0]},
    "gather_elements": {"data": [[1, 2], [3, 4]], "indices": [[0, 0], [1, 0]]},
    "gather_nd": {"data": [[1, 2], [3, 4]], "indices": [[0, 0], [1, 1]]},
    "scatter_elements": {"data": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "indices": [[1, 0, 2], [0, 2, 1]],
                         "updates": [[1, 2, 3], [4, 5, 6]]},
    "scatter_nd": {"data": [1, 2, 3, 4, 5, 6, 7, 8], "indices": [[4], [3], [1], [7]], "updates": [9, 10, 11, 12],
                   "shape": [8]},
    "scatter_axis": {"data": [[0, 0], [0, 0], [0, 0]], "indices": [2, 0], "updates": [[1, 2], [3, 4]]},
}


def test_every_listed_attribute_value_is_accepted_by_the_op() -> None:
    from gatherscatter.web import backend

    refused, unfit = [], []
    for o in backend.op_list():
        facts = backend.op_facts(o["op"])
        ex = EXAMPLES.get(facts["family"])
        if ex is None:
            continue
        args: dict[str, Any] = {}
        for a in facts["args"]:
            v = ex.get(a["role"])
            if v is not None:
                args[a["name"]] = [list(r) for r in zip(*v, strict=True)] if a["form"] == "tuple" else v
        if any(a["name"] == "num_segments" for a in facts["args"]):  # keras' jax backend needs it
            args["num_segments"] = len(ex["data"])
        for a in facts["attrs"]:
            if a["required"]:
                args[a["name"]] = a["choices"][0] if a["choices"] else 0
        status, body = backend.run("explain", {"op": o["op"], "args": args})
        if status != 200 and body["error"]["type"] == "UnsupportedError":
            unfit.append(o["op"])  # the family's example itself is refused: it cannot test the attributes
            continue
        for a in facts["attrs"]:
            for choice in a["choices"] if a["type"] == "str" else []:
                status, body = backend.run("explain", {"op": o["op"], "args": {**args, a["name"]: choice}})
                if status != 200 and body["error"]["type"] == "UnsupportedError":
                    refused.append((o["op"], a["name"], choice, body["error"]["message"]))
    assert not refused
    # torch.segment_reduce reads the example's index array as its indices= (segment ids): torch refuses those
    assert unfit == ["torch.segment_reduce"]
