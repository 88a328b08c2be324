"""The NumPy path's elementwise scatter along the last axis, row by row (``rows.along_last_rows``).

Property examples never reach index rows of hundreds or thousands of entries, so these cases do: index blocks as
long as the output's and shorter on dim 0, more dims, duplicates (last and first wins, raise), negative indices,
every ``ufunc.at`` reduction with and without ``include_self``, and ``out=``. Each must equal the element loop of
``core.loops`` (the oracle, sharing no code with the path), and a spy checks that the row path really ran (or
really declined: short rows, dropped indices, ``mean``, float16).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from gatherscatter import errors
from gatherscatter.core import IndexSpec, Policy, scatter
from gatherscatter.core.loops import scatter_loop
from gatherscatter.core.rows import ROW_ASSIGN_MIN, ROW_AT_MIN, along_last_rows
from tests.conftest import using_backend

scatter_module = importlib.import_module("gatherscatter.core.scatter")  # the module (core exports its function)
RNG = np.random.default_rng(20261127)


def _spec(ndim):
    return IndexSpec(axis=ndim - 1, batch=ndim - 1, elementwise=True)  # ScatterElements along the last axis


@pytest.fixture
def row_path(monkeypatch):
    """What each ``along_last_rows`` call of the scatter returned (True: the rows were written)."""
    seen: list[bool] = []

    def spy(*args, **kwargs):
        seen.append(along_last_rows(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(scatter_module, "along_last_rows", spy)
    return seen


def _run(data, idx, upd, policy=None, out=None):
    spec, policy = _spec(data.ndim), policy or Policy()
    with using_backend("numpy"):
        got = scatter(data, idx, upd, spec, policy, out=out)
    return got, scatter_loop(data, idx, upd, spec, policy)


SHAPES = [
    ((3, 700), (3, 0)),  # rows exactly as long as the threshold (filled in below)
    ((4, 3000), (2, 3100)),  # fewer index rows than output rows: the output's first rows
    ((3, 2, 2100), (2, 2, 5)),  # more dims, cut on dim 0
    ((2, 100), (2, 0)),  # more updates than the row is long: many duplicates per position
]


def _shapes(minimum):
    return [(d, i[:-1] + (minimum + i[-1],)) for d, i in SHAPES]


@pytest.mark.parametrize(("dshape", "ishape"), _shapes(ROW_ASSIGN_MIN))
@pytest.mark.parametrize("duplicates", ["last", "first"])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, object])
def test_assignment_rows_match_the_loop(row_path, dshape, ishape, duplicates, dtype):
    data = RNG.integers(-1000, 1000, dshape).astype(dtype)
    idx = RNG.integers(-dshape[-1], dshape[-1], ishape)  # negative ones wrap (the default policy)
    upd = RNG.integers(-1000, 1000, ishape).astype(dtype)
    got, want = _run(data, idx, upd, Policy(duplicates=duplicates))
    assert row_path == [True]
    assert got.dtype == want.dtype and got.shape == want.shape == dshape
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_reduction_rows_match_the_loop(row_path, reduction, include_self, dtype):
    dshape, ishape = (3, 900), (3, ROW_AT_MIN + 7)  # about 2.3 updates per position: every position reduced
    data = RNG.integers(1, 4, dshape).astype(dtype)  # products of 1-3 overflow only in their own dtype's way
    idx = RNG.integers(-900, 900, ishape)
    upd = (RNG.integers(1, 4, ishape) * (RNG.random(ishape) if np.dtype(dtype).kind == "f" else 1)).astype(dtype)
    got, want = _run(data, idx, upd, Policy(reduction=reduction, include_self=include_self))
    assert row_path == [True]
    assert got.tolist() == want.tolist()  # bit for bit: ufunc.at in the updates' order, as the loop


def test_duplicates_raise_before_any_write(row_path):
    data = np.zeros((2, 600), np.float32)
    idx = np.tile(np.arange(600), (2, 1))[:, : ROW_ASSIGN_MIN + 1].copy()
    ok, want = _run(data, idx, np.ones(idx.shape, np.float32), Policy(duplicates="raise"))
    assert row_path == [True] and ok.tolist() == want.tolist()  # distinct per row: rows never collide
    idx[1, -1] = idx[1, 3]
    out = np.full(data.shape, 5.0, np.float32)
    with using_backend("numpy"), pytest.raises(errors.DuplicateIndexError):
        scatter(data, idx, np.ones(idx.shape, np.float32), _spec(2), Policy(duplicates="raise"), out=out)
    assert (out == 5.0).all()


@pytest.mark.parametrize(
    ("ishape", "policy", "dtype"),
    [
        ((3, ROW_ASSIGN_MIN - 1), Policy(), np.float32),  # rows too short for an assignment per row
        ((3, ROW_AT_MIN - 1), Policy(reduction="add"), np.float32),  # too short for ufunc.at per row
        ((3, ROW_AT_MIN), Policy(reduction="mean"), np.float32),  # counts per position: the pieces keep them
        ((3, ROW_AT_MIN), Policy(reduction="add"), np.float16),  # ufunc.at would round differently
        ((3, ROW_AT_MIN), Policy(reduction="add", bounds="drop"), np.float32),  # dropped updates
    ],
)
def test_declined_cases_still_match_the_loop(row_path, ishape, policy, dtype):
    data = RNG.integers(0, 9, (3, 800)).astype(dtype)
    idx = RNG.integers(0, 800 + (50 if policy.bounds.value == "drop" else 0), ishape)
    upd = RNG.integers(0, 9, ishape).astype(dtype)
    got, want = _run(data, idx, upd, policy)
    assert True not in row_path  # the pieces ran
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("inplace", [False, True])
def test_rows_into_out_and_inputs_untouched(row_path, inplace):
    data = RNG.standard_normal((5, 2600))
    idx = RNG.integers(0, 2600, (5, ROW_AT_MIN + 100))
    upd = RNG.standard_normal(idx.shape)
    data0, idx0, upd0 = data.copy(), idx.copy(), upd.copy()
    out = data if inplace else np.full(data.shape, np.nan)
    with using_backend("numpy"):
        got = scatter(data, idx, upd, _spec(2), Policy(reduction="add"), out=out)
    assert row_path == [True] and got is out
    assert out.tolist() == scatter_loop(data0, idx0, upd0, _spec(2), Policy(reduction="add")).tolist()
    assert np.array_equal(idx, idx0) and np.array_equal(upd, upd0)
    if not inplace:
        assert np.array_equal(data, data0)


@pytest.fixture
def resolved(monkeypatch):
    """How many times the scatter resolved (checked and normalised) its indices itself."""
    calls: list[int] = []
    real = scatter_module.resolve

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(scatter_module, "resolve", spy)
    return calls


@pytest.mark.parametrize("itype", [np.int64, np.int32, np.int16])
@pytest.mark.parametrize("policy", [Policy(), Policy(duplicates="first"), Policy(reduction="add"),
                                    Policy(reduction="max", include_self=False)])
def test_numpy_checks_the_indices_itself(row_path, resolved, itype, policy):
    """Negative indices wrap and others must be in range (ONNX's rule), a fresh output: NumPy's own check, no pass
    of ours; -1 and n - 1 in one row are the same position (duplicates across the two spellings)."""
    n = 900
    data = RNG.integers(-9, 9, (3, n)).astype(np.float64)
    idx = RNG.integers(-n, n, (3, ROW_AT_MIN + 3)).astype(itype)
    idx[:, :4] = [-1, n - 1, -n, 0]
    upd = RNG.integers(-9, 9, idx.shape).astype(np.float64)
    got, want = _run(data, idx, upd, policy)
    assert row_path == [True] and resolved == []
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize(
    ("policy", "itype"),
    [
        (Policy(negative="raise"), np.int64),  # NumPy would wrap what must raise
        (Policy(bounds="clip"), np.int64),  # NumPy would raise what must be clipped
        (Policy(duplicates="raise"), np.int64),  # NumPy would not see the duplicates
        (Policy(), np.uint32),  # unsigned: resolved first (an index past int64 must not wrap)
    ],
)
def test_other_rules_resolve_first(row_path, resolved, policy, itype):
    n = 700
    data = RNG.standard_normal((2, n))
    idx = RNG.permutation(n)[: ROW_ASSIGN_MIN + 5].astype(itype)[None].repeat(2, 0)
    upd = RNG.standard_normal(idx.shape)
    got, want = _run(data, idx, upd, policy)
    assert resolved == [1] and row_path == [True]
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("reduction", ["none", "add"])
@pytest.mark.parametrize(("row", "col", "bad"), [(0, 0, 900), (2, 17, -901), (2, ROW_AT_MIN - 2, 10**12)])
def test_numpy_checked_bad_index_raises_the_typed_error(row_path, resolved, reduction, row, col, bad):
    """A bad index that NumPy's own check meets (after earlier rows were written into the fresh output): the typed
    error names the first bad one, as the pass of ours would; the caller's arrays are untouched."""
    n = 900
    data = RNG.standard_normal((3, n))
    idx = RNG.integers(-n, n, (3, ROW_AT_MIN))
    idx[row, col] = bad
    idx[2, -1] = n  # a second bad index, later: not the one named
    upd = RNG.standard_normal(idx.shape)
    data0, idx0, upd0 = data.copy(), idx.copy(), upd.copy()
    with using_backend("numpy"), pytest.raises(errors.IndexOutOfRangeError) as err:
        scatter(data, idx, upd, _spec(2), Policy(reduction=reduction))
    assert isinstance(err.value, IndexError)
    assert f"indices[{row}, {col}] = {bad}" in str(err.value)
    assert resolved == [1] and row_path == []  # NumPy raised inside the rows; resolve named the index
    assert np.array_equal(data, data0) and np.array_equal(idx, idx0) and np.array_equal(upd, upd0)
