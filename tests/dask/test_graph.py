"""Chunk awareness, laziness and the framework ops on Dask arrays."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects._registry import ops
from gatherscatter.fuzz.gen import generate

from .cases import same_bits

da = pytest.importorskip("dask.array")


def _refs(y: Any, name: str) -> set[tuple[int, ...]]:
    """Blocks of the Dask array ``name`` that the graph of ``y`` reads (after culling)."""
    graph = y.__dask_graph__().cull(set(y.__dask_keys__() if y.ndim == 0 else _flat(y.__dask_keys__())))
    deps = set()
    for layer in graph.layers.values():
        for task in dict(layer).values():
            deps |= {k[1:] for k in _keys_in(task) if k[0] == name}
    return deps


def _flat(keys: Any) -> list[Any]:
    return [k for sub in keys for k in _flat(sub)] if isinstance(keys, list) else [keys]


def _keys_in(task: Any) -> list[tuple[Any, ...]]:
    if isinstance(task, tuple) and task and isinstance(task[0], str):
        return [task]
    deps = getattr(task, "dependencies", None)
    if deps is not None:
        return [d for d in deps if isinstance(d, tuple)]
    if isinstance(task, (tuple, list)):
        return [k for t in task for k in _keys_in(t)]
    return []


def test_gather_reads_only_the_blocks_its_indices_touch() -> None:
    x = da.zeros((100, 3), chunks=(10, 3))
    y = gs.take(x, np.array([5, 7, 93, 55]), axis=0)
    assert _refs(y, x.name) == {(0, 0), (5, 0), (9, 0)}
    yd = gs.take(x, da.from_array(np.array([5, 7, 93, 55]), chunks=2), axis=0)
    assert _refs(yd, x.name) == {(0, 0), (5, 0), (9, 0)}


def test_graph_grows_with_blocks_touched_not_with_indices() -> None:
    x = da.zeros(1000, chunks=100)
    rng = np.random.default_rng(0)
    few = rng.integers(200, 300, 10)
    many = rng.integers(200, 300, 100_000)
    n_few = len(gs.take(x, da.from_array(few, chunks=10)).__dask_graph__())
    n_many = len(gs.take(x, da.from_array(many, chunks=100_000)).__dask_graph__())
    assert n_few == n_many  # one index block, one touched data block: the same tasks
    s_few = gs.scatter_along_axis(x, da.from_array(few, chunks=10), da.ones(10, chunks=10), 0, reduction="add")
    s_many = gs.scatter_along_axis(x, da.from_array(many, chunks=100_000), da.ones(100_000, chunks=100_000), 0,
                                   reduction="add")
    assert len(s_few.__dask_graph__()) == len(s_many.__dask_graph__())


def test_gather_reads_each_data_block_in_one_task() -> None:
    # random rows over 4 index blocks touch every data block from every index block; each data block must
    # still have exactly one dependent task (else Dask holds it until all of them ran: issue 21's spill)
    from dask.core import get_deps

    rng = np.random.default_rng(21)
    base = rng.standard_normal((6, 400, 3))
    x = da.from_array(base, chunks=(3, 50, 3))  # 2 x 8 data blocks
    idx = rng.integers(-400, 400, 1000)
    y = gs.take(x, da.from_array(idx, chunks=250), axis=1)  # 4 index blocks
    graph = dict(y.__dask_graph__())
    _, dependents = get_deps(graph)
    data_keys = _flat(x.__dask_keys__())
    assert len(data_keys) == 16
    assert {k: len(dependents[k]) for k in data_keys} == dict.fromkeys(data_keys, 1)
    # the result is the NumPy one (an independent loop), bit for bit
    expected = np.stack([base[:, i % 400, :] for i in idx], axis=1)
    assert same_bits(y.compute(), expected)


def test_scatter_routes_updates_to_the_blocks_they_hit() -> None:
    x = da.zeros(100, chunks=10)
    idx = da.from_array(np.array([3, 47, 45, 99]), chunks=2)
    y = gs.scatter_along_axis(x, idx, da.ones(4, chunks=2), 0, reduction="add")
    # one piece per (index block, output block it hits): [3, 47] hits blocks 0 and 4, [45, 99] blocks 4 and 9;
    # the other output blocks are copies of their data blocks
    graph = dict(y.__dask_graph__())
    pieces = [k for k in graph if isinstance(k, tuple) and k[0].startswith("gs-spiece")]
    assert sorted(k[1] for k in pieces) == [0, 4, 4, 9]
    assert y.compute().tolist() == [1.0 if i in (3, 45, 47, 99) else 0.0 for i in range(100)]


@pytest.mark.parametrize(
    "kwargs",
    [dict(reduction="mean", include_self=False), dict(duplicates="first"), dict(reduction="add"),
     dict(duplicates="raise")],
)
def test_a_hot_block_is_folded_in_several_tasks(kwargs: dict[str, Any]) -> None:
    """Skewed indices: every update hits one block; its pieces (about 4.8 MB) are folded in several chained
    tasks of at most about 1 MiB of pieces each, with the same bits as the NumPy path."""
    rng = np.random.default_rng(5)
    n = 200_000
    idx = rng.integers(0, 8, n)
    upd = rng.standard_normal(idx.size) * 10.0 ** rng.integers(-5, 5, idx.size)
    data = rng.standard_normal(64)
    y = gs.scatter_along_axis(da.from_array(data, chunks=8), da.from_array(idx, chunks=20_000),
                              da.from_array(upd, chunks=20_000), 0, **kwargs)
    states = [k for k in dict(y.__dask_graph__()) if isinstance(k, tuple) and k[0].startswith("gs-sstate")]
    assert len(states) >= 3
    if kwargs.get("duplicates") == "raise":  # every duplicate sits in the hot block: the NumPy path's message
        with pytest.raises(gs.DuplicateIndexError) as want:
            gs.scatter_along_axis(data, idx, upd, 0, **kwargs)
        with pytest.raises(gs.DuplicateIndexError) as got:
            y.compute(scheduler="threads")
        assert str(got.value) == str(want.value)
        return
    assert same_bits(y.compute(scheduler="threads"), gs.scatter_along_axis(data, idx, upd, 0, **kwargs))


def test_building_the_result_computes_no_data() -> None:
    def boom(block: Any) -> Any:
        raise AssertionError("data computed while building the graph")

    x = da.zeros(40, chunks=10).map_blocks(boom, dtype=np.float64)
    idx = da.from_array(np.array([1, 2, 33]), chunks=2)
    gs.take(x, idx)
    gs.scatter_along_axis(x, idx, da.ones(3, chunks=2), 0, reduction="max")


def test_importing_gatherscatter_imports_no_dask() -> None:
    code = "import sys, gatherscatter; print([m for m in ('dask', 'distributed', 'zarr') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _valid_cases(op: Any, n: int) -> list[Any]:
    cases = []
    for i in range(400):
        c = generate(op.info.qualname, op, 7, i)
        if c.kind == "valid":
            cases.append(c)
            if len(cases) == n:
                break
    return cases


@pytest.mark.parametrize("op", ops(), ids=lambda op: op.info.qualname)
def test_framework_ops_accept_dask_arrays_or_say_they_do_not(op: Any) -> None:
    """Every registered op, on Dask data/indices/updates: the NumPy path's bits, or an UnsupportedError."""
    for c in _valid_cases(op, 4):
        try:
            want = op(*c.args, **c.kwargs)
        except gs.GatherScatterError:
            continue
        kw = dict(c.kwargs)
        for role in ("data", "indices", "updates"):
            name = c.roles.get(role)
            v = kw.get(name)
            if isinstance(v, np.ndarray) and v.ndim:
                kw[name] = da.from_array(v, chunks=max(1, max(v.shape) // 2))
        if all(kw[k] is c.kwargs[k] for k in kw):
            continue  # no array to put on Dask (0-d data, an index expression without arrays)
        refused = ""
        try:
            y = op(*c.args, **kw)
        except gs.UnsupportedError as exc:
            refused = str(exc)
        if refused:
            assert refused.startswith(op.info.qualname), refused
            continue
        assert type(y).__module__.startswith("dask")
        assert same_bits(y.compute(scheduler="sync"), want), c


def test_readme_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Dask example prints what its comments say."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[2] / "README.md").read_text()
    code = re.search(r"## Dask.*?```python\n(.*?)```", text, re.S)
    assert code is not None
    exec(compile(code.group(1), "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    promised = re.findall(r"# (.+)$", "\n".join(ln for ln in code.group(1).splitlines() if "print(" in ln), re.M)
    assert [p.strip() for p in printed] == [p.strip() for p in promised]
