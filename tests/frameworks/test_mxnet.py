"""gatherscatter.mxnet against a real MXNet 1.9.1, run in its own venv (opt-in: pytest -m mxnet).

MXNet 1.9.1 needs numpy 1.23.5 and cannot be imported here: the cases are
written as .npy files and run by ``tests/frameworks/mxnet_worker.py`` under the
MXNet venv's interpreter (``$GS_MXNET_PYTHON``, else ``/work/venvs/mxnet/bin/python``;
install it with ``python -m venv /work/venvs/mxnet && /work/venvs/mxnet/bin/pip
install mxnet==1.9.1 numpy==1.23.5``). Every generated case is compared value
for value, dtype and shape; where MXNet raises we must raise too. Inputs on
which MXNet crashes (negative or out-of-range ``scatter_nd`` indices) or is
undefined (NaN indices) are not sent; the recorded divergences are checked
to still hold.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

pytestmark = [pytest.mark.mxnet]

PYTHON = os.environ.get("GS_MXNET_PYTHON") or "/work/venvs/mxnet/bin/python"
WORKER = Path(__file__).with_name("mxnet_worker.py")

DATA = [np.float32, np.float64, np.float16, np.int32, np.int64, np.int8, np.uint8, np.bool_]
INDEX = [np.float32, np.float32, np.float64, np.float16, np.int32, np.int64, np.int8, np.uint8]


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    if dtype is np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    return ((np.arange(n) * 7 + 3) % 97 + 1).astype(dtype).reshape(shape)


def _index(rng: np.random.Generator, shape: tuple[int, ...], s: int, dtype: Any, *, valid: bool = False) -> Any:
    if valid:
        vals = rng.integers(0, s, shape).astype(np.float64)
        if np.dtype(dtype).kind == "f":
            vals = vals + rng.choice([0.0, 0.25, 0.5, 0.9], shape)
            vals = np.where(rng.random(shape) < 0.1, -0.5, vals)
    else:
        choice = rng.integers(0, 6, shape)
        vals = np.select(
            [choice == 0, choice == 1, choice == 2],
            [rng.integers(-s, 0, shape), rng.integers(s, s + 3, shape), rng.integers(-s - 3, -s, shape)],
            rng.integers(0, s, shape),
        ).astype(np.float64)
        if np.dtype(dtype).kind == "f":
            vals = vals + rng.choice([0.0, 0.0, 0.4, 0.5, 0.75, -0.5], shape)
    if np.dtype(dtype).kind == "u":
        vals = np.abs(vals)
    return vals.astype(dtype)


def _cases() -> list[tuple[str, list[Any], dict[str, Any]]]:
    rng = np.random.default_rng(20261122)
    out: list[tuple[str, list[Any], dict[str, Any]]] = []
    # hand-picked cells of docs/behavior-matrix.md#t6-1 to docs/behavior-matrix.md#t6-5 and
    # docs/behavior-matrix.md#t6-10, and the MXNet docstrings
    f = np.float32
    out += [
        ("take", [np.array([10, 20, 30], f), np.array([0.6, 1.5, 2.4], f)], {}),
        ("take", [np.array([10, 20, 30], f), np.array([0, -1], f)], {}),
        ("take", [np.array([10, 20, 30], f), np.array([0, -1], f)], {"mode": "wrap"}),
        ("take", [np.array([10, 20, 30], f), np.array([0, -1], f)], {"mode": "raise"}),
        ("take", [np.array([10, 20, 30], f), np.array([0, 3], f)], {"mode": "raise"}),
        ("take", [np.array([10, 20, 30], f), np.array([0, -4], f)], {"mode": "wrap"}),
        ("take", [np.array([[1, 2], [3, 4], [5, 6]], f), np.array([[0, 1], [1, 2]], f)], {}),
        ("pick", [np.array([[1, 2], [3, 4], [5, 6]], f), np.array([0, 1], f)], {"axis": 0}),
        ("pick", [np.array([[1, 2], [3, 4], [5, 6]], f), np.array([1, 0, 2], f)], {"axis": 1, "keepdims": True}),
        ("pick", [np.array([[1, 2], [3, 4], [5, 6]], f), np.array([2, -1, -2], f)], {"axis": 1, "mode": "wrap"}),
        ("gather_nd", [np.array([[0, 1], [2, 3]], f), np.array([[1, 1, 0], [0, 1, 0]], f)], {}),
        ("gather_nd", [np.arange(12, dtype=f).reshape(3, 4), np.array([[1, 0], [2, 3]], f)], {}),
        ("gather_nd", [np.array([10, 20, 30], f), np.array([[0.6, 1.5, 2.4]], f)], {}),
        ("gather_nd", [np.array([10, 20, 30], f), np.array([[-0.5, -1e-8, -2.99, -3.0]], f)], {}),
        ("gather_nd", [np.arange(9, dtype=f).reshape(3, 3), np.array([[0, 3], [0, 0]], f)], {}),
        ("scatter_nd", [np.array([2, 3], f), np.array([[1, 1], [0, 1]], f)], {"shape": [2, 2]}),
        ("scatter_nd", [np.array([10, 20, 30], f), np.array([[1, 1, 1]], f)], {"shape": [4]}),
        ("scatter_nd", [np.array([[7, 8]], f), np.array([[1]], f)], {"shape": [2, 2]}),
        ("scatter_nd", [np.array([9, 8], f), np.array([[2.4, -0.5]], f)], {"shape": [3]}),
    ]
    for _ in range(160):
        dt = DATA[rng.integers(len(DATA))]
        shape = tuple(int(n) for n in rng.integers(1, 5, rng.integers(1, 4)))
        axis = int(rng.integers(-len(shape), len(shape)))
        ishape = tuple(int(n) for n in rng.integers(1, 4, rng.integers(1, 3)))
        idt = [*INDEX, np.bool_][rng.integers(len(INDEX) + 1)]
        s = shape[axis]
        idx = rng.integers(0, 2, ishape).astype(bool) if idt is np.bool_ else _index(rng, ishape, s, idt)
        mode = ["clip", "wrap", "raise"][rng.integers(3)]
        out.append(("take", [_data(rng, shape, dt), idx], {"axis": axis, "mode": mode}))
    for _ in range(140):
        dt = DATA[:-1][rng.integers(len(DATA) - 1)]
        shape = tuple(int(n) for n in rng.integers(1, 5, rng.integers(1, 4)))
        axis = int(rng.integers(-len(shape), len(shape)))
        a = axis % len(shape)
        kept = rng.random() < 0.3
        ishape = (shape[:a] + (1,) + shape[a + 1 :]) if kept else ((shape[:a] + shape[a + 1 :]) or (1,))
        idx = _index(rng, ishape, shape[a], INDEX[rng.integers(len(INDEX))])
        kw = {"axis": axis, "mode": ["clip", "wrap"][rng.integers(2)], "keepdims": bool(rng.random() < 0.5)}
        out.append(("pick", [_data(rng, shape, dt), idx], kw))
    for _ in range(140):
        dt = DATA[rng.integers(len(DATA))]
        shape = tuple(int(n) for n in rng.integers(1, 5, rng.integers(1, 4)))
        m = int(rng.integers(1, len(shape) + 1))
        ys = tuple(int(n) for n in rng.integers(1, 4, rng.integers(1, 3)))
        idt = INDEX[rng.integers(len(INDEX))]
        valid = rng.random() < 0.6
        idx = np.stack([_index(rng, ys, shape[j], idt, valid=valid) for j in range(m)])
        if valid and np.dtype(idt).kind != "u":
            flip = rng.random(idx.shape) < 0.3  # negative indices wrap: v - s
            idx = np.where(flip, idx - np.array(shape[:m]).reshape((m,) + (1,) * len(ys)), idx).astype(idt)
        out.append(("gather_nd", [_data(rng, shape, dt), idx], {}))
    for _ in range(120):
        dt = DATA[rng.integers(len(DATA))]
        shape = tuple(int(n) for n in rng.integers(1, 5, rng.integers(1, 4)))
        m = int(rng.integers(1, len(shape) + 1))
        ys = tuple(int(n) for n in rng.integers(1, 4, rng.integers(1, 3)))
        idt = [*INDEX, np.bool_][rng.integers(len(INDEX) + 1)]
        if idt is np.bool_:
            idx = np.stack([rng.integers(0, min(2, shape[j]), ys).astype(bool) for j in range(m)])
        else:
            idx = np.stack([_index(rng, ys, shape[j], idt, valid=True) for j in range(m)])
        upd = _data(rng, ys + shape[m:], dt)
        out.append(("scatter_nd", [upd, idx], {"shape": list(shape)}))
    return out


CASES = _cases()

# recorded divergences: (op, inputs, kwargs, what MXNet does) - checked to still hold
DIVERGENCES = [
    ("take", [np.arange(200, dtype=np.float32), np.array([5], np.int8)], {"mode": "raise"}, "raises"),
    ("take", [np.array([10, 20, 30], np.float32), np.array([np.nan], np.float32)], {}, [10.0]),
    ("take", [np.array([10, 20, 30], np.float32), np.array([1e20], np.float32)], {}, [10.0]),
    ("pick", [np.array([10, 20, 30], np.float32), np.array([2**32 + 1], np.int64)], {"axis": 0}, [20.0]),
    ("pick", [np.array([[1, 2], [3, 4]], np.float32), np.array([np.inf, 0], np.float32)], {"axis": 1}, [1.0, 3.0]),
]


def _ours(op: str, inputs: list[Any], kwargs: dict[str, Any]) -> Any:
    kw = dict(kwargs)
    if "shape" in kw:
        kw["shape"] = tuple(kw["shape"])
    try:
        return getattr(gs.mxnet, op)(*inputs, **kw)
    except gs.GatherScatterError as exc:
        return exc


@pytest.fixture(scope="module")
def mxnet_results(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    if not Path(PYTHON).exists():
        pytest.skip(f"no MXNet interpreter at {PYTHON} (set GS_MXNET_PYTHON)")
    root = tmp_path_factory.mktemp("mxnet")
    spec = []
    for n, (op, inputs, kwargs) in enumerate(CASES + [(o, i, k) for o, i, k, _ in DIVERGENCES]):
        names = []
        for j, arr in enumerate(inputs):
            name = f"c{n}_{j}.npy"
            np.save(root / name, arr)
            names.append(name)
        spec.append({"op": op, "inputs": names, "kwargs": kwargs})
    (root / "cases.json").write_text(json.dumps(spec))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    proc = subprocess.run(
        [PYTHON, str(WORKER), str(root)], capture_output=True, text=True, timeout=600, env=env, check=False
    )
    if proc.returncode != 0:
        pytest.fail(f"mxnet worker failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    results = json.loads((root / "results.json").read_text())
    for r in results:
        if r["ok"]:
            r["value"] = np.load(root / r["out"])
    return results


def _compare(case: tuple[str, list[Any], dict[str, Any]], theirs: dict[str, Any]) -> str | None:
    op, inputs, kwargs = case
    ours = _ours(op, inputs, kwargs)
    if not theirs["ok"]:
        if isinstance(ours, Exception):
            return None
        return f"MXNet raised ({theirs['error']}) but we returned {ours!r}"
    if isinstance(ours, Exception):
        return f"we raised {type(ours).__name__}: {ours} but MXNet returned {theirs['value']!r}"
    ref = theirs["value"]
    if ours.dtype != ref.dtype or ours.shape != ref.shape or not np.array_equal(ours, ref, equal_nan=True):
        return f"ours {ours!r} ({ours.dtype}, {ours.shape}) != MXNet {ref!r} ({ref.dtype}, {ref.shape})"
    return None


@pytest.mark.parametrize("op", ["take", "pick", "gather_nd", "scatter_nd"])
def test_matches_mxnet(op: str, mxnet_results: list[dict[str, Any]]) -> None:
    bad = []
    n = 0
    for case, theirs in zip(CASES, mxnet_results[: len(CASES)], strict=True):
        if case[0] != op:
            continue
        n += 1
        why = _compare(case, theirs)
        if why:
            bad.append(f"{case[0]}({[a.tolist() for a in case[1]]}, {case[2]}): {why}")
    print(f"mxnet.{op}: {n} cases compared, {len(bad)} disagreements", file=sys.stderr)
    assert n >= 20
    assert not bad, "\n".join(bad[:20])


def test_errors_agree_in_both_directions(mxnet_results: list[dict[str, Any]]) -> None:
    raised = sum(1 for r in mxnet_results[: len(CASES)] if not r["ok"])
    assert raised >= 30  # the generated cases exercise MXNet's own errors


@pytest.mark.parametrize("n", range(len(DIVERGENCES)))
def test_recorded_divergences_still_hold(n: int, mxnet_results: list[dict[str, Any]]) -> None:
    op, inputs, kwargs, expected = DIVERGENCES[n]
    theirs = mxnet_results[len(CASES) + n]
    ours = _ours(op, inputs, kwargs)
    if expected == "raises":
        assert not theirs["ok"]
        assert not isinstance(ours, Exception)
    else:
        assert theirs["ok"] and theirs["value"].tolist() == expected
        assert isinstance(ours, gs.IndexOutOfRangeError)
    assert gs.divergences(f"mxnet.{op}")
