"""The explorer in a real browser (the distribution's Chromium driven by Playwright).

Each test loads the page from a live server, edits inputs as a user would, and reads
back what appears: the picture's cells (``data-tensor``/``data-pos`` with the SVG's own
``data-value``/``data-group``/``data-tag``), the comparison's groups and the URL. Expected
values are hand-computed.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from .harness import PHONE, cells, wait_ready

GATHER_URL = "/?op=torch.gather&a.input=[[1,2],[3,4]]&a.index=[[0,0],[1,0]]&a.dim=1"


def settle(page: Any) -> None:
    page.wait_for_timeout(250)  # the page waits 200 ms after the last keystroke before it asks
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def test_picture_from_a_shared_url(page: Any) -> None:
    page.goto(page.base + GATHER_URL)
    wait_ready(page)
    assert page.inner_text("#op-title") == "torch.gather"
    out = cells(page, "output")
    data = cells(page, "data")
    # out[i][j] = input[i][index[i][j]] (dim 1): [[1, 1], [4, 3]]
    assert {p: c["value"] for p, c in out.items()} == {(0, 0): "1", (0, 1): "1", (1, 0): "4", (1, 1): "3"}
    # colour follows the cell: out[1][1] came from input[1][0], out[1][0] from input[1][1]
    assert out[(1, 1)]["fill"] == data[(1, 0)]["fill"] != data[(1, 1)]["fill"] == out[(1, 0)]["fill"]
    assert out[(0, 0)]["fill"] == out[(0, 1)]["fill"] == data[(0, 0)]["fill"]
    # input[0][1] is never read: it shares no colour with any output cell
    assert data[(0, 1)]["fill"] not in {c["fill"] for c in out.values()}
    # the same mapping as the SVG states it: each output cell carries its source cell's group and letter
    assert out[(1, 1)]["group"] == data[(1, 0)]["group"] and out[(1, 0)]["group"] == data[(1, 1)]["group"]
    assert out[(1, 1)]["tag"] == data[(1, 0)]["tag"] != out[(1, 0)]["tag"] == data[(1, 1)]["tag"]
    assert out[(0, 0)]["tag"] == out[(0, 1)]["tag"] == data[(0, 0)]["tag"]
    assert data[(0, 1)]["group"] not in {c["group"] for c in out.values()}
    assert "-> [[1, 1], [4, 3]]" in page.inner_text("#explanation")
    assert page.is_hidden("#error")
    assert not page.problems


def test_editing_inputs_redraws_and_updates_the_url(page: Any) -> None:
    page.goto(page.base + GATHER_URL)
    wait_ready(page)
    page.fill("#f-index", "[[1, 1], [0, 0]]")
    settle(page)
    out = cells(page, "output")
    assert {p: c["value"] for p, c in out.items()} == {(0, 0): "2", (0, 1): "2", (1, 0): "3", (1, 1): "3"}
    q = parse_qs(urlparse(page.url).query)
    assert q["op"] == ["torch.gather"] and q["a.index"] == ["[[1, 1], [0, 0]]"] and q["a.dim"] == ["1"]
    page.fill("#f-dim", "0")
    page.press("#f-dim", "Enter")  # Enter runs at once and does not reload the page
    settle(page)
    # dim 0: out[i][j] = input[index[i][j]][j] = [[3, 4], [1, 2]]
    assert [c["value"] for _, c in sorted(cells(page, "output").items())] == ["3", "4", "1", "2"]
    assert parse_qs(urlparse(page.url).query)["a.dim"] == ["0"]
    # the URL reproduces the view in a new page
    shared = page.url
    other = page.context.new_page()
    other.goto(shared)
    wait_ready(other)
    assert [c["value"] for _, c in sorted(cells(other, "output").items())] == ["3", "4", "1", "2"]
    assert not page.problems


def test_error_state_names_the_problem_and_keeps_the_inputs_drawn(page: Any) -> None:
    page.goto(page.base + GATHER_URL)
    wait_ready(page)
    page.fill("#f-index", "[[0, 5], [1, 0]]")
    settle(page)
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert "IndexOutOfRangeError" in text and "5" in text
    assert cells(page, "indices")  # the inputs are still drawn
    assert not cells(page, "output")
    page.fill("#f-index", "[[0, 0], [1, 0")  # not JSON: the field says so, nothing is sent
    page.wait_for_selector("#f-index[aria-invalid=true]")
    assert "not valid JSON" in page.inner_text("#f-index-err")
    assert not page.problems


def test_compare_groups_by_outcome(page: Any) -> None:
    page.goto(page.base + "/?op=onnx.ScatterND&a.data=[0,0,0,0]&a.indices=[[1],[1],[3]]&a.updates=[5,6,7]&tab=compare")
    wait_ready(page)
    page.wait_for_selector("#compare .group")
    groups = page.evaluate("""() => [...document.querySelectorAll('#compare .group')].map(g => ({
        tag: g.dataset.group,
        values: [...g.querySelectorAll('td[data-value]')].map(td => JSON.parse(td.dataset.value)),
        ops: [...g.querySelectorAll('ul.ops code')].map(c => c.textContent)}))""")
    by_value = {tuple(g["values"]): g for g in groups}
    # overwrite, last wins: [0, 6, 0, 7]; duplicates summed (tf.scatter_nd into data, torch accumulate): [0, 11, 0, 7]
    assert (0, 6, 0, 7) in by_value and (0, 11, 0, 7) in by_value
    assert groups[0]["tag"] == "A"
    assert any(op.startswith("onnx.ScatterND") for op in by_value[(0, 6, 0, 7)]["ops"])
    assert any(op.startswith("tensorflow.tensor_scatter_nd_add") for op in by_value[(0, 11, 0, 7)]["ops"])
    # letters with colours: every group has a visible letter tag
    assert [g["tag"] for g in groups] == [chr(65 + n) for n in range(len(groups))]
    assert not page.problems


def test_search_as_you_type_with_the_keyboard(page: Any) -> None:
    page.goto(page.base + "/")
    wait_ready(page)
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "op-search"
    page.keyboard.type("scatter_reduce")
    page.wait_for_selector("#op-list li")
    names = page.eval_on_selector_all("#op-list li", "els => els.map(e => e.dataset.op)")
    assert "torch.scatter_reduce" in names
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#op-title').textContent === 'torch.scatter_reduce'")
    settle(page)
    # fields generated from the op's facts: its arguments by role, reduce with its accepted values
    labels = page.eval_on_selector_all("#inputs .arg .name", "els => els.map(e => e.textContent)")
    assert labels == ["input", "index", "src"]
    choices = page.eval_on_selector_all("#f-reduce option", "els => els.map(e => JSON.parse(e.value))")
    assert {"sum", "prod", "mean", "amax", "amin"} <= set(choices)
    assert page.eval_on_selector("#f-include_self", "e => JSON.parse(e.value)") is True
    # an unknown word: a clear empty state
    page.keyboard.press("/")
    page.keyboard.type("zzzz")
    page.wait_for_selector("#op-empty:not([hidden])")
    assert "No op matches" in page.inner_text("#op-empty")
    assert not page.problems


def test_tabs_by_keyboard_table_and_translate_with_verify(page: Any) -> None:
    page.goto(page.base + GATHER_URL)
    wait_ready(page)
    page.focus("#tab-picture")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-table"
    page.wait_for_selector("#table table.family")
    current = page.eval_on_selector_all("#table th.current", "els => els.map(e => e.textContent)")
    assert current and all(c.startswith("torch.gather") for c in current)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#translation .steps")
    page.select_option("#target", "onnx")
    page.wait_for_function("() => document.querySelector('#translation pre.code')?.textContent.includes('GatherElements')")
    assert "negative" in page.inner_text("#translation .divergences")  # torch raises on negatives, ONNX wraps
    page.click("#verify")
    page.wait_for_selector("#translation .verify [data-ok]")
    assert page.get_attribute("#translation .verify [data-ok]", "data-ok") == "true"
    assert re.search(r"verify: \d+ of 200 cases agree", page.inner_text("#translation .verify"))
    q = parse_qs(urlparse(page.url).query)
    assert q["tab"] == ["translate"] and q["to"] == ["onnx"]
    assert not page.problems


def test_tour_example(page: Any) -> None:
    page.goto(page.base + "/")
    wait_ready(page)
    options = page.eval_on_selector_all("#tour option", "els => els.map(e => e.textContent)")
    n = next(i for i, t in enumerate(options) if "ScatterND, example 1" in t)
    page.select_option("#tour", index=n)
    page.wait_for_function("() => document.querySelector('#op-title').textContent === 'onnx.ScatterND'")
    settle(page)
    # the value ONNX's ScatterND-18 documentation prints (example 1)
    values = [int(c["value"]) for _, c in sorted(cells(page, "output").items())]
    assert values == [1, 11, 3, 10, 9, 6, 7, 12]
    assert not page.problems


@pytest.mark.parametrize("width", [PHONE["width"], 1366])
def test_readable_at_phone_and_laptop_width(chrome: Any, live: str, width: int) -> None:
    ctx = chrome.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    page.goto(live + GATHER_URL + "&tab=compare")
    wait_ready(page)
    page.wait_for_selector("#compare .group")
    # no sideways scrolling of the page itself (wide pictures and tables scroll inside their own box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#op-summary')).fontSize)")
    assert size >= 14
    ctx.close()


def test_version_and_attribute_menus(page: Any) -> None:
    page.goto(page.base + "/?op=onnx.ScatterElements&a.data=[0,0,0]&a.indices=[1,1]&a.updates=[5,7]")
    wait_ready(page)
    versions = page.eval_on_selector_all("#f-version option", "els => els.map(e => e.value)")
    assert versions == ["", "11", "13", "16", "18"]
    # what each opset adds (ONNX's operator changelog, via the op's record)
    labels = page.eval_on_selector_all("#f-version option", "els => els.map(e => e.textContent)")
    assert labels[3:] == ["16 (adds reduction add, mul)", "18 (adds reduction max, min)"]
    page.select_option("#f-reduction", '"max"')
    settle(page)
    assert [c["value"] for _, c in sorted(cells(page, "output").items())] == ["0", "7", "0"]  # max(0, 5, 7)
    page.select_option("#f-version", "16")  # reduction='max' came with opset 18
    settle(page)
    page.wait_for_selector("#error:not([hidden])")
    assert "UnsupportedError" in page.inner_text("#error") and "18" in page.inner_text("#error")
    assert parse_qs(urlparse(page.url).query)["v"] == ["16"]
    page.select_option("#f-version", "")
    page.select_option("#f-data-dtype", "float32")  # data and updates must share a dtype (ONNX type T)
    settle(page)
    assert "DTypeError" in page.inner_text("#error")
    page.select_option("#f-updates-dtype", "float32")
    settle(page)
    assert page.is_hidden("#error")
    assert [c["value"] for _, c in sorted(cells(page, "output").items())] == ["0", "7", "0"]
    q = parse_qs(urlparse(page.url).query)
    assert q["a.reduction"] == ['"max"'] and q["dt.data"] == ["float32"] and "v" not in q
    assert not page.problems


def compare_groups(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""() => [...document.querySelectorAll('#compare .group')].map(g => ({
        tag: g.dataset.group,
        values: [...g.querySelectorAll('td[data-value]')].map(td => JSON.parse(td.dataset.value)),
        ops: [...g.querySelectorAll('ul.ops code')].map(c => c.textContent)}))""")


def test_compare_across_families_from_a_shared_url(page: Any) -> None:
    page.goto(page.base + GATHER_URL + "&tab=compare&cmp=onnx.Gather,onnx.GatherElements,numpy.take_along_axis")
    wait_ready(page)
    page.wait_for_selector("#compare .group")
    chips = page.eval_on_selector_all("#cmp-chips li", "els => els.map(e => e.dataset.op)")
    assert chips == ["torch.gather", "onnx.Gather", "onnx.GatherElements", "numpy.take_along_axis"]
    groups = compare_groups(page)
    assert [g["tag"] for g in groups] == ["A", "B"]
    # A: out[i][j] = input[i][index[i][j]] (dim/axis 1), as torch.gather, GatherElements, take_along_axis
    assert groups[0]["values"] == [1, 1, 4, 3]
    assert sorted(op.split(" ")[0] for op in groups[0]["ops"]) == [
        "numpy.take_along_axis", "onnx.GatherElements", "torch.gather"]
    # B: onnx.Gather(axis=1) takes whole index arrays: out[i][j][k] = input[i][index[j][k]], shape (2, 2, 2)
    assert groups[1]["values"] == [1, 1, 2, 1, 3, 3, 4, 3]
    assert [op.split(" ")[0] for op in groups[1]["ops"]] == ["onnx.Gather"]
    assert "from 4 ops that ran" in page.inner_text("#compare .verdict")
    assert not page.problems


def test_add_and_remove_ops_of_other_families_with_the_keyboard(page: Any) -> None:
    page.goto(page.base + GATHER_URL + "&tab=compare")
    wait_ready(page)
    page.wait_for_selector("#compare .group")
    assert page.is_hidden("#cmp-family")  # the whole family at first
    page.focus("#cmp-add")
    page.keyboard.type("onnx.Gather")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#cmp-chips li').length === 2")
    settle(page)
    page.wait_for_function("() => document.querySelector('#compare .verdict')?.textContent.includes('from 2 ops')")
    groups = compare_groups(page)
    by_op = {op.split(" ")[0]: g["values"] for g in groups for op in g["ops"]}
    assert by_op == {"torch.gather": [1, 1, 4, 3], "onnx.Gather": [1, 1, 2, 1, 3, 3, 4, 3]}
    assert parse_qs(urlparse(page.url).query)["cmp"] == ["onnx.Gather"]
    # an unknown name: the field says so and nothing is added
    page.fill("#cmp-add", "onnx.Nope")
    page.press("#cmp-add", "Enter")
    page.wait_for_selector("#cmp-add[aria-invalid=true]")
    assert "unknown op" in page.inner_text("#cmp-err")
    assert page.eval_on_selector_all("#cmp-chips li", "els => els.length") == 2
    # remove it (a button per chip): back to the family's comparison
    page.click("#cmp-chips button[aria-label='remove onnx.Gather']")
    settle(page)
    page.wait_for_function("() => !document.querySelector('#compare .verdict')?.textContent.includes('from 2 ops')")
    assert "cmp" not in parse_qs(urlparse(page.url).query)
    assert page.eval_on_selector_all("#cmp-chips li", "els => els.length") == 0
    ran = re.search(r"(\d+) ops that ran", page.inner_text("#compare .verdict"))
    assert ran is not None and int(ran.group(1)) > 2  # every op of torch.gather's family ran
    assert not page.problems
