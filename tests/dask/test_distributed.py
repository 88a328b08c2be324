"""The Dask layer on a real ``dask.distributed`` cluster (2 workers, bounded memory)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

from .cases import GATHERS, SCATTERS, random_call, same_bits
from .test_differential import check

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two in-process workers (threads), 1 GiB each: started once for the module and closed after it."""
    with distributed.LocalCluster(
        # in-process workers share the test process's memory (over 1 GiB late in the suite): a memory limit here
        # would pause them for good, so only the process cluster below bounds memory
        n_workers=2, threads_per_worker=1, processes=False, memory_limit=0, dashboard_address=":0", scheduler_port=0
    ) as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def process_client() -> Iterator[Any]:
    """Two worker processes: every task argument and result crosses a pickle boundary."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, memory_limit="512MiB", dashboard_address=":0", scheduler_port=0
    ) as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.mark.parametrize("fn", GATHERS + SCATTERS)
def test_random_calls_on_a_cluster(client: Any, fn: str) -> None:
    for seed in range(30_000, 30_015):
        check(random_call(seed, fn), scheduler=None)  # type: ignore[arg-type]  # None: the client


def test_scatter_add_on_worker_processes(process_client: Any) -> None:
    rng = np.random.default_rng(3)
    data = rng.standard_normal((40, 3))
    idx = rng.integers(-40, 40, (300, 1))
    upd = rng.standard_normal((300, 3)) * 1e8
    want = gs.scatter_nd(data, idx, upd, reduction="add")
    y = gs.scatter_nd(da.from_array(data, chunks=(7, 2)), da.from_array(idx, chunks=(50, 1)),
                      da.from_array(upd, chunks=(50, 2)), reduction="add")
    assert same_bits(process_client.compute(y).result(), want)


def test_gather_on_worker_processes(process_client: Any) -> None:
    data = np.arange(60, dtype=np.float32).reshape(20, 3)
    idx = np.array([19, 0, 7, 7, -1, 25])
    want = gs.take(data, idx, bounds="fill", fill_value=-1)
    y = gs.take(da.from_array(data, chunks=(6, 3)), da.from_array(idx, chunks=4), bounds="fill", fill_value=-1)
    assert same_bits(process_client.compute(y).result(), want)


def test_errors_cross_the_process_boundary(process_client: Any) -> None:
    y = gs.scatter_along_axis(da.zeros(6, chunks=3), da.from_array(np.array([1, 4, 1]), chunks=1),
                              da.ones(3, chunks=1), 0, duplicates="raise")
    with pytest.raises(gs.DuplicateIndexError, match=r"indices\[0\] and indices\[2\] both address"):
        process_client.compute(y).result()


def test_index_plan_runs_on_the_cluster(client: Any) -> None:
    """Dask indices are planned where they live (the client's workers), and bad ones still raise before compute."""
    idx = da.arange(0, 1000, chunks=100) * 7 % 1003
    with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[143\] = 1001 is out of range"):
        gs.take(da.zeros(1000, chunks=100), idx)
