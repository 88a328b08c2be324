"""Shared test set-up: hypothesis profiles and framework availability."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# pytest-xdist's workers (and the processes tests start) inherit this: at most two glibc malloc arenas, not one
# per thread of every framework's thread pool, whose free pages each arena kept (with the trim after each module,
# _release_framework_caches: the suite on two workers peaked at 2.69 GiB PSS in all, 3.89 GiB without either)
os.environ.setdefault("MALLOC_ARENA_MAX", "2")

settings.register_profile(
    "ci", derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def has(module: str) -> bool:
    """Whether ``module`` can be imported here (without importing it)."""
    return importlib.util.find_spec(module) is not None


def has_dist(name: str) -> bool:
    """Whether the distribution ``name`` is installed (for packages without a Python module, such as ``tbb``)."""
    from importlib import metadata

    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


@contextlib.contextmanager
def pool_cap(n: int) -> Iterator[None]:
    """The output pool capped at ``n`` bytes (0: off) inside the block, its cap restored after."""
    from gatherscatter.backends import pool

    cap = pool.get_pool_bytes()
    pool.set_pool_bytes(n)
    try:
        yield
    finally:
        pool.set_pool_bytes(cap)


def mem_available() -> int | None:
    """MemAvailable of /proc/meminfo in bytes (None where there is no /proc/meminfo)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


WORKER_BYTES = 3 << 30
"""Available memory ``pytest -n auto`` counts per worker: a worker of the whole suite grows to about 2 GiB
(torch, jax, onnxruntime and numba loaded, their caches, the tests' arrays)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``pytest -n auto`` (the README's test command): a worker per CPU this process may run on, but at most
    one per :data:`WORKER_BYTES` of available memory, and at least one."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    avail = mem_available()
    by_memory = cpus if avail is None else avail // WORKER_BYTES
    return max(1, min(cpus, by_memory))


SIGNATURES_HEADER = """\
# The numba kernel signatures the test suite compiles, one "kernel: argument types" per line: .ci/run
# compiles them before the suite (backends.warm_up(..., signatures=...)), in two processes side by side, so
# that the suite's workers do not each compile them on first use. A missing line costs time, never a result.
# Regenerate: rm .ci/numba-signatures.txt; GS_RECORD_SIGNATURES=$PWD/.ci/numba-signatures.txt CI=true python -m pytest -n auto
"""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With ``GS_RECORD_SIGNATURES=path``: add the numba signatures this process compiled or loaded to that file;
    the main process (after every pytest-xdist worker has added its own) then sorts it, each line once."""
    path = os.environ.get("GS_RECORD_SIGNATURES")
    if not path:
        return
    k = sys.modules.get("gatherscatter.backends.numba_kernels")
    with open(path, "a") as f:
        f.write("".join(line + "\n" for line in (k.signature_lines() if k is not None else [])))
    if not hasattr(session.config, "workerinput"):
        with open(path) as f:
            lines = sorted({x for x in f.read().splitlines() if x.strip() and not x.startswith("#")})
        with open(path, "w") as f:
            f.write(SIGNATURES_HEADER + "".join(line + "\n" for line in lines))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Opt-in suites (framework markers, slow) run only when selected with -m.

    A ``bigmem(nbytes)`` test is skipped unless MemAvailable holds ``3 * nbytes``;
    when it does and both ``CI`` and ``GS_BIGMEM`` are set, it also runs without
    ``-m slow``: ``.ci/run`` runs the 64-bit tests that way, in a pytest run of their
    own after the suite, so that the suite's own peak memory stays below 4 GiB.
    """
    selected = config.getoption("-m") or ""
    optin = ("tensorflow", "openvino", "paddle", "mxnet", "keras", "mlx", "tflite", "slow")
    ci = _truthy(os.environ.get("CI"))
    avail = mem_available()
    for item in items:
        big = item.get_closest_marker("bigmem")
        if big is not None:
            need = 3 * int(big.args[0])
            if avail is None or avail < need:
                have = "unknown" if avail is None else f"{avail / 2**30:.1f} GiB"
                item.add_marker(pytest.mark.skip(reason=f"needs {need / 2**30:.1f} GiB available memory; have {have}"))
                continue
            if ci and _truthy(os.environ.get("GS_BIGMEM")):
                continue
        for name in optin:
            if item.get_closest_marker(name) is not None and name not in selected:
                item.add_marker(pytest.mark.skip(reason=f"opt-in suite: run with -m {name}"))


BACKENDS = ["numpy"] + (["numba"] if has("numba") else [])
"""Execution paths every exactness property runs against (numba: the accelerated kernels)."""


class using_backend:  # noqa: N801 - used as a context manager, like a function
    """``with using_backend('numba'):`` forces that path (at every size), then restores 'auto'."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        from gatherscatter import backends

        backends.set_backend(self.name)

    def __exit__(self, *exc: object) -> None:
        from gatherscatter import backends

        backends.set_backend("auto")


@contextlib.contextmanager
def using_threads(n: int | None) -> Iterator[None]:
    """``with using_threads(1):`` the kernels' thread count set to ``n`` inside the block (None: unchanged),
    then restored, an unset count included."""
    from gatherscatter import backends

    old = backends._threads
    if n is not None:
        backends.set_num_threads(n)
    try:
        yield
    finally:
        backends._threads = old


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim`` (None elsewhere): hands the heap's free pages, in every thread's arena, back to
    the system."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        return None if name is None else ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim() if sys.platform.startswith("linux") else None


@pytest.fixture(autouse=True, scope="module")
def _release_framework_caches():
    """After each test module, drop JAX's compiled-executable caches and give the heap's free pages back: the
    JAX comparisons compile hundreds of small programs, kept for the whole run they were the largest share of
    the suite's peak memory; and the frameworks' thread pools leave free pages in their threads' malloc arenas
    (see MALLOC_ARENA_MAX above)."""
    yield
    jax = sys.modules.get("jax")
    if jax is not None:
        jax.clear_caches()
        import gc

        gc.collect()
    if _TRIM is not None:
        _TRIM(0)

