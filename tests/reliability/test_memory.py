"""Peak extra memory of every registered op stays within a documented multiple.

For every op in ``gs.ops()`` (the neutral API included) and every case of
:mod:`tests.reliability.cases`, one large call (outputs of about 4 MB in
float32) runs under :mod:`tracemalloc`, which sees NumPy's allocations. The
peak of everything allocated during the call, the output included, must stay
within

    BOUND * (output bytes + index bytes)   (+ the op's documented allowance)

with int64 indices and the default backend. A second run with 1-byte data
(int8, or uint8/bool for ops that take no int8) checks that no op builds an
index grid far larger than its output: an int64 grid the size of the output
would cost 8 bytes per 1-byte element and blow the 1-byte bound. The bounds,
the allowances and why they exist are documented in docs/memory.md.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter import backends
from tests.conftest import pool_cap, using_threads

from . import cases
from .cases import CASES

SIDE = 1024
"""Side length of the measured cases (outputs of about SIDE**2 elements)."""

BOUND = 2.0
"""Peak extra memory / (output + index bytes), float32 data, int64 indices."""

BOUND_1BYTE = 3.5
"""The same for 1-byte data: the int64 work pieces (at most 1/8 of the elements each) weigh more."""

Info = dict[str, Any]


@pytest.fixture(autouse=True)
def _no_output_pool() -> Iterator[None]:
    """Every output a fresh allocation that tracemalloc sees: a buffer the output pool recycles from an earlier
    call (outputs from 1 MiB) would hide the output's bytes from the peak."""
    with pool_cap(0):
        yield


def _lax_grid(info: Info) -> int:
    # coordinate grid (rank int64 per element) plus its offsets (one int64 per element)
    return 8 * (info["rank"] + 1) * info["elements"]


def _index_expression(info: Info) -> int:
    # NumPy index expressions become one int64 offset per selected element (trailing whole axes excepted)
    return 8 * info["elements"]


def _mean_counts(info: Info) -> int:
    # one int64 count per output row, and the division's temporaries
    return 8 * info["out_elements"]


ALLOWANCE: dict[str, tuple[Callable[[Info], int], str]] = {
    **{
        f"jax.lax.{n}": (_lax_grid, "general dimension numbers: coordinate grid of rank int64 per element")
        for n in ("gather", "scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max")
    },
    **{
        f"numpy.{n}_at": (_index_expression, "index expressions lowered to one int64 offset per selected element")
        for n in ("add", "subtract", "multiply", "minimum", "maximum")
    },
    # composed ops (session 7): x.at[].apply / lax.scatter_apply / unary ufunc.at count the updates per element
    **{
        q: (lambda info: 8 * int(info["out_elements"]),
            "the counts: one unsigned integer per element (as narrow as the number of index tuples allows), "
            "the counting scatter's copy and its updates")
        for q in ("jax.at_apply", "jax.lax.scatter_apply")
    },
    # embedding_bag (issue 18) gathers weight[input], one row per input entry, before reducing the rows into bags
    gs.torch.embedding_bag.info.qualname: (
        lambda info: 8 * int(info["elements"]), "the looked-up rows weight[input] (one per input entry)"
    ),
}
"""Ops allowed more than the bound: op -> (extra bytes, reason). Mirrors docs/memory.md."""

MEAN_ALLOWANCE = (_mean_counts, "mean reductions keep an int64 count per output row")


def _index_bytes(x: Any) -> int:
    if isinstance(x, np.ndarray):
        return x.nbytes if x.dtype == np.int64 else 0
    if isinstance(x, (tuple, list)):
        return sum(_index_bytes(y) for y in x)
    return 0


def _lowers_to_mean(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether the call's primitive is a ``mean`` scatter (a segment mean, whatever its case is called)."""
    low = op.lower(*args, **kwargs)
    return low.policy is not None and str(getattr(low.policy.reduction, "value", low.policy.reduction)) == "mean"


def _elements(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], out: np.ndarray[Any, Any]) -> Info:
    low = op.lower(*args, **kwargs)
    moved = low.updates.size if low.updates is not None else out.size
    return {"rank": low.data.ndim, "elements": int(moved), "out_elements": int(out.size)}


@contextmanager
def _traced() -> Iterator[list[int]]:
    """Yields a list that receives the peak traced bytes allocated inside the block."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    res: list[int] = []
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        yield res
        res.append(tracemalloc.get_traced_memory()[1] - base)
    finally:
        if started:
            tracemalloc.stop()


def _warm(op: Any, make: cases.Make, parallel: bool) -> None:
    """Compile the kernels this case uses (numba allocates while compiling) on a small copy of it: their serial
    forms and, when ``parallel``, their parallel ones."""
    if backends.kernels() is None:
        return
    old, par, tune = backends._backend, backends.PARALLEL_BYTES, backends._tune_on
    backends.set_backend("numba")
    try:
        args, kwargs = make(np.random.default_rng(1), 64)
        # the kernels' serial forms (one thread), then the parallel ones (no 1-thread side measured)
        for backends.PARALLEL_BYTES, backends._tune_on in ((par, tune), (0, False))[: 1 + parallel]:
            op(*args, **kwargs)
    finally:
        backends.set_backend(old)
        backends.PARALLEL_BYTES, backends._tune_on = par, tune


def _measure(name: str, cid: str, make: cases.Make, dtype: Any, threads: int | None = None) -> tuple[float, float, Info]:
    """(peak / (output + index bytes), the bound for this case, sizes); ``threads``: the kernels' thread count
    (None: the default, every core)."""
    op = gs.get_op(name)
    with using_threads(threads):
        _warm(op, make, parallel=threads != 1)
        args, kwargs = make(np.random.default_rng(0), SIDE)
        with _traced() as peak:
            out = op(*args, **kwargs)
    base = out.nbytes + _index_bytes(args)
    info = _elements(op, args, kwargs, out)
    bound = (BOUND if np.dtype(dtype).itemsize > 1 else BOUND_1BYTE) * base
    if name in ALLOWANCE:
        bound += ALLOWANCE[name][0](info)
    if "mean" in cid or _lowers_to_mean(op, args, kwargs):
        bound += MEAN_ALLOWANCE[0](info)
    return peak[0] / base, bound / base, info


@contextmanager
def _dtype(dtype: Any) -> Iterator[None]:
    old = cases.F
    cases.F = np.dtype(dtype)
    try:
        yield
    finally:
        cases.F = old


PARAMS = [pytest.param(name, cid, make, id=f"{name}-{cid}") for name, lst in CASES.items() for cid, make in lst]


def test_every_registered_op_has_a_memory_case() -> None:
    missing = [op.info.qualname for op in gs.ops() if op.info.qualname not in CASES]
    assert missing == []
    assert len(gs.ops()) >= 75


@pytest.mark.parametrize(("name", "cid", "make"), PARAMS)
def test_peak_memory_float32(name: str, cid: str, make: cases.Make) -> None:
    with _dtype(np.float32):
        ratio, bound, info = _measure(name, cid, make, np.float32)
    assert ratio <= bound, f"{name} [{cid}]: peak {ratio:.2f} x (output + indices), bound {bound:.2f} ({info})"


@pytest.mark.parametrize(("name", "cid", "make"), PARAMS)
def test_peak_memory_one_byte_items(name: str, cid: str, make: cases.Make) -> None:
    """No index grid far larger than the output: with 1-byte items an int64 grid would cost 8x.

    The core's allocations, whatever the thread count: measured at one thread, so that the suite compiles no
    parallel kernel form for 1-byte items (the float32 run above measures those forms' memory; in CI, 42 s of
    the warm-up's compiling)."""
    for dt in (np.int8, np.uint8, np.bool_):
        with _dtype(dt):
            try:
                ratio, bound, info = _measure(name, cid, make, dt, threads=1)
            except (gs.DTypeError, gs.UnsupportedError):
                continue  # the framework op takes no such data (e.g. paddle.scatter: no int8)
        assert ratio <= bound, (
            f"{name} [{cid}] ({np.dtype(dt).name}): peak {ratio:.2f} x (output + indices), bound {bound:.2f} ({info})"
        )
        return
    pytest.skip(f"{name} takes no 1-byte data")


def test_measurement_sees_numpy_allocations() -> None:
    """The instrument itself: an op that must allocate its output is seen doing so."""
    x = np.zeros((SIDE, SIDE), np.float32)
    with _traced() as peak:
        out = gs.onnx.Gather(x, np.arange(SIDE))
    assert peak[0] >= out.nbytes
