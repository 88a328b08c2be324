"""The Dask layer against the NumPy path: random calls of every policy, several chunkings, bit for bit.

Expected values come from the NumPy path (tested against loop oracles in
tests/core and tests/test_api.py); the code under test is
:mod:`gatherscatter.core.dask`. Random chunkings cut every dim anywhere
(chunks of one element included), indices are a Dask array or a NumPy array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs

from .cases import GATHERS, SCATTERS, Call, random_call, same_bits

da = pytest.importorskip("dask.array")

# with negative='raise', the core also reports an index that bounds='wrap'|'clip'|'fill'|'drop' would accept
# when another index of the same array is negative (core/indices.py _component); the Dask layer resolves each
# index block on its own, so the index it names can differ: there only the error type is compared
_CORE_QUIRK = ("wrap", "clip", "fill", "drop")


def _outcome(fn: Any) -> tuple[Any, BaseException | None]:
    try:
        return fn(), None
    except gs.GatherScatterError as exc:
        return None, exc


def check(call: Call, lazy_indices: bool = True, scheduler: str = "sync") -> None:
    want, werr = _outcome(call.numpy)

    def run() -> Any:
        y = call.dask(lazy_indices)
        assert type(y).__module__.startswith("dask"), "the result must be a lazy Dask array"
        return y.compute(scheduler=scheduler)

    got, gerr = _outcome(run)
    if werr is not None or gerr is not None:
        assert type(gerr) is type(werr), f"{call}: NumPy raised {werr!r}, Dask {gerr!r}"
        quirk = call.kwargs.get("negative") == "raise" and call.kwargs.get("bounds") in _CORE_QUIRK
        if not isinstance(werr, gs.DuplicateIndexError) and not quirk:
            assert str(gerr) == str(werr), call
        return
    assert same_bits(got, want), f"{call}\nNumPy: {want!r}\nDask:  {got!r}"


@pytest.mark.parametrize("batch", range(8))
def test_random_calls_dask_indices(batch: int) -> None:
    for seed in range(batch * 60, batch * 60 + 60):
        check(random_call(seed))


@pytest.mark.parametrize("batch", range(4))
def test_random_calls_numpy_indices(batch: int) -> None:
    for seed in range(10_000 + batch * 60, 10_000 + batch * 60 + 60):
        check(random_call(seed), lazy_indices=False)


@pytest.mark.parametrize("fn", GATHERS + SCATTERS)
def test_every_function_threaded(fn: str) -> None:
    for seed in range(25):
        check(random_call(20_000 + seed, fn), scheduler="threads")


def test_every_policy_value_was_drawn() -> None:
    """The random calls above cover every policy value (a generator that stopped drawing one would hide it)."""
    seen: dict[str, set[Any]] = {}
    for seed in range(480):
        for k, v in random_call(seed).kwargs.items():
            seen.setdefault(k, set()).add(v)
    assert seen["bounds"] == {"raise", "wrap", "clip", "fill", "drop"}
    assert seen["negative"] == {"wrap", "raise", "bounds"}
    assert seen["reduction"] == {"none", "add", "sub", "mul", "max", "min", "mean"}
    assert seen["duplicates"] == {"last", "first", "raise"}
    assert seen["include_self"] == {True, False}
    assert seen["mean_rounding"] == {"floor", "trunc"}
    assert seen["index_axis"] == {0}


# ------------------------------------------------------------------------------ hand-computed cases


def test_scatter_add_hand_computed() -> None:
    grid = da.zeros(6, chunks=2, dtype=np.float64)
    hits = da.from_array(np.array([4, 1, 4, 5, 1, 4]), chunks=3)
    y = gs.scatter_along_axis(grid, hits, da.ones(6, chunks=4), 0, reduction="add")
    assert y.compute().tolist() == [0.0, 2.0, 0.0, 0.0, 3.0, 1.0]


def test_duplicates_last_and_first_follow_row_major_order_across_chunks() -> None:
    # rows of indices are chunked apart: row-major order is [0, 0] then [0, 0]
    idx = da.from_array(np.array([[0, 0], [0, 0]]), chunks=1)
    upd = da.from_array(np.array([[1, 2], [3, 4]]), chunks=1)
    data = da.zeros((1, 2), chunks=1, dtype=np.int64)
    assert gs.scatter_along_axis(data, idx, upd, 0).compute().tolist() == [[3, 4]]
    assert gs.scatter_along_axis(data, idx, upd, 0, duplicates="first").compute().tolist() == [[1, 2]]


def test_float_sum_order_is_the_numpy_paths() -> None:
    # 1e16 + 1 + 1 - 1e16 is 0 in this order (each 1 is lost), 2 in another: the fold must keep the order
    vals = np.array([1e16, 1.0, 1.0, -1e16])
    y = gs.scatter_nd(da.zeros(2, chunks=1), da.from_array(np.zeros((4, 1), np.int64), chunks=1),
                      da.from_array(vals, chunks=1), reduction="add")
    assert y.compute().tolist() == [0.0, 0.0]


def test_gather_fill_hand_computed() -> None:
    x = da.from_array(np.array([[1, 2, 3], [4, 5, 6]]), chunks=(1, 2))
    y = gs.take(x, da.from_array(np.array([2, 7, -1]), chunks=2), axis=1, bounds="fill", fill_value=-9)
    assert y.compute().tolist() == [[3, -9, 3], [6, -9, 6]]


# ------------------------------------------------------------------------------ errors


def test_bad_index_raises_before_compute_with_the_numpy_message() -> None:
    idx = np.array([0, 1, 2, 3, 9, 1, 12])
    with pytest.raises(gs.IndexOutOfRangeError) as want:
        gs.take(np.arange(5), idx)
    with pytest.raises(gs.IndexOutOfRangeError) as got:
        gs.take(da.arange(5, chunks=2), da.from_array(idx, chunks=2))  # the bad index sits in the third block
    assert str(got.value) == str(want.value)
    assert got.value.position == (4,) and got.value.value == 9


def test_duplicates_raise_at_compute_with_the_numpy_message() -> None:
    idx, upd = np.array([[3], [1], [3]]), np.array([1.0, 2.0, 3.0])
    with pytest.raises(gs.DuplicateIndexError) as want:
        gs.scatter_nd(np.zeros(4), idx, upd, duplicates="raise")
    y = gs.scatter_nd(da.zeros(4, chunks=2), da.from_array(idx, chunks=1), da.from_array(upd, chunks=1),
                      duplicates="raise")
    with pytest.raises(gs.DuplicateIndexError) as got:
        y.compute()
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        (dict(reduction="mean"), gs.DTypeError),  # bool data has no mean
        (dict(bounds="fill"), gs.UnsupportedError),  # fill is for gathers
        (dict(reduction="avg"), gs.UnsupportedError),
    ],
)
def test_policy_errors_are_raised_when_building(kwargs: dict[str, Any], error: type) -> None:
    data = da.zeros(4, chunks=2, dtype=bool)
    with pytest.raises(error):
        gs.scatter_along_axis(data, np.array([1]), np.array([True]), 0, **kwargs)


def test_updates_dtype_must_equal_data_dtype() -> None:
    with pytest.raises(gs.DTypeError, match="must equal"):
        gs.scatter_along_axis(da.zeros(4, chunks=2), da.from_array(np.array([1])), da.ones(1, dtype=np.float32), 0)


def test_out_is_refused() -> None:
    with pytest.raises(gs.UnsupportedError, match="out="):
        gs.take(da.arange(4, chunks=2), [1], out=np.empty(1, np.int64))


# ------------------------------------------------------------------------------ hypothesis


@st.composite
def scatter_add_cases(draw: Any) -> tuple[Any, ...]:
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 30))
    idx = np.array(draw(st.lists(st.integers(-n, n - 1), min_size=m, max_size=m)), np.int64)
    vals = np.array(draw(st.lists(st.floats(-1e6, 1e6, width=32), min_size=m, max_size=m)), np.float32)
    dchunk, ichunk = draw(st.integers(1, n)), draw(st.integers(1, max(1, m)))
    red = draw(st.sampled_from(["add", "mul", "max", "min", "mean", "none"]))
    inc = draw(st.booleans())
    dup = draw(st.sampled_from(["last", "first"]))
    return n, idx, vals, dchunk, ichunk, red, inc, dup


@given(scatter_add_cases())
def test_hypothesis_scatter_reductions(case: tuple[Any, ...]) -> None:
    n, idx, vals, dchunk, ichunk, red, inc, dup = case
    data = np.linspace(-3, 3, n, dtype=np.float32)
    kw = dict(reduction=red, include_self=inc) if red != "none" else dict(duplicates=dup)
    want = gs.scatter_along_axis(data, idx, vals, 0, **kw)
    got = gs.scatter_along_axis(
        da.from_array(data, chunks=dchunk), da.from_array(idx, chunks=ichunk), da.from_array(vals, chunks=ichunk), 0,
        **kw,
    ).compute(scheduler="sync")
    assert same_bits(got, want)


@given(
    st.integers(1, 6), st.integers(1, 6), st.lists(st.tuples(st.integers(-8, 7), st.integers(-8, 7)), max_size=20),
    st.integers(1, 6), st.integers(1, 6), st.integers(1, 20), st.sampled_from(["wrap", "clip", "fill"]),
)
def test_hypothesis_gather_nd(r: int, c: int, pairs: list[tuple[int, int]], cr: int, cc: int, ci: int,
                              bounds: str) -> None:
    data = np.arange(r * c, dtype=np.int64).reshape(r, c)
    idx = np.array(pairs, np.int64).reshape(-1, 2)
    want = gs.gather_nd(data, idx, bounds=bounds, negative="bounds")
    got = gs.gather_nd(da.from_array(data, chunks=(cr, cc)), da.from_array(idx, chunks=(ci, 2)), bounds=bounds,
                       negative="bounds").compute(scheduler="sync")
    assert same_bits(got, want)
