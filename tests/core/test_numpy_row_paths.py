"""The NumPy path's row scatters at sizes the small property examples never reach.

Rows of at least ``ROUNDS_MIN_ROW`` elements are reduced in rounds of distinct
rows (``reduce_rows``), in chunks of ``chunk_rows`` rows, with ``ufunc.at``
after ``MAX_ROUNDS`` rounds; whole-row assignments go through a void view
(``put_rows``); elementwise pieces reuse one offset buffer. Each case must equal
the element loop of ``core.loops`` bit for bit (NaN payloads and signed zeros
included): the loop is the oracle, not the code under test.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from gatherscatter.core import IndexSpec, Policy, scatter
from gatherscatter.core.loops import scatter_loop
from gatherscatter.core.rows import MAX_ROUNDS, ROUNDS_MIN_ROW, WIDE_ROUND, chunk_rows
from tests.conftest import using_backend

scatter_mod = importlib.import_module("gatherscatter.core.rows")  # the row engine (chunk sizes)
RNG = np.random.default_rng(20261122)
ROWS = IndexSpec(axis=0, vector=True)  # ScatterND with 1-tuples: whole rows


def _values(shape, dtype):
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) < 0.5
    v = RNG.standard_normal(shape) * np.logspace(-3, 4, shape[-1])
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        v = np.clip(v, np.iinfo(dtype).min, np.iinfo(dtype).max)
    v = v.astype(dtype)
    if np.dtype(dtype).kind in "fc":
        v.reshape(-1)[::7] = -0.0
    if np.dtype(dtype).kind == "f":  # max/min ties between 0.0 and -0.0 keep their order
        v.reshape(-1)[::13] = np.nan
    return v


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch):
    # chunks of 64 rows: several chunks at sizes the element loop checks quickly
    monkeypatch.setattr(scatter_mod, "ROUNDS_CHUNK", 64)


def _check(data, idx, upd, spec, policy):
    expected = scatter_loop(data, idx, upd, spec, policy)
    before = (data.tobytes(), idx.tobytes(), upd.tobytes())
    with using_backend("numpy"), np.errstate(all="ignore"):
        got = scatter(data, idx, upd, spec, policy)
    assert (data.tobytes(), idx.tobytes(), upd.tobytes()) == before
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind == "O":
        assert got.tolist() == expected.tolist()
    else:
        assert got.tobytes() == expected.tobytes()


def _mult(n_rows, n_upd, hot):
    """Row ids with every multiplicity from 1 to well past MAX_ROUNDS (``hot`` rows take many)."""
    idx = RNG.integers(0, n_rows, n_upd)
    idx[RNG.random(n_upd) < 0.3] = RNG.integers(0, hot, 1)[0]  # one row with ~30 % of the updates
    idx[: 3 * MAX_ROUNDS] = 1  # a row touched more than MAX_ROUNDS times at the start
    return idx


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16, np.bool_, np.float16, np.complex64])
@pytest.mark.parametrize("reduction", ["add", "sub", "mul", "max", "min"])
def test_rounds_match_the_loop(dtype, reduction):
    if np.dtype(dtype).kind == "c" and reduction in ("max", "min"):
        pytest.skip("no ordering for complex")
    R = ROUNDS_MIN_ROW
    data = _values((40, R), dtype)
    n_upd = 3 * chunk_rows(data) + 5  # several chunks, the last one short
    assert chunk_rows(data) == 64
    idx = _mult(40, n_upd, 40)[:, None]
    upd = _values((n_upd, R), dtype)
    _check(data, idx, upd, ROWS, Policy(reduction=reduction))


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduction", ["add", "mean", "max"])
def test_rounds_with_policies(reduction, include_self):
    data = _values((300, 2, 40), np.float64)  # rows of 80 elements
    n_upd = 2 * chunk_rows(data.reshape(300, 80)) + 1
    idx = _mult(300, n_upd, 5)
    idx[::9] = -1 - idx[::9]  # negatives wrap
    idx[::11] = 300 + idx[::11]  # out of range: dropped
    upd = _values((n_upd, 2, 40), np.float64)
    pol = Policy(reduction=reduction, include_self=include_self, negative="wrap", bounds="drop")
    _check(data, idx[:, None], upd, ROWS, pol)


def test_rounds_with_batch_dims_and_a_middle_axis():
    # rows of the 2-D view come from leading (batch) blocks too: pieces of whole blocks
    data = _values((3, 50, 32), np.float32)
    idx = RNG.integers(0, 50, (3, 700, 1))
    upd = _values((3, 700, 32), np.float32)
    _check(data, idx, upd, IndexSpec(axis=1, batch=1, vector=True), Policy(reduction="add"))


def test_rounds_all_updates_to_one_row():
    data = _values((4, 64), np.float32)
    idx = np.zeros((5000, 1), np.int64)
    upd = _values((5000, 64), np.float32)
    _check(data, idx, upd, ROWS, Policy(reduction="add"))


def test_short_rows_keep_ufunc_at():
    data = _values((30, ROUNDS_MIN_ROW - 1), np.float32)
    idx = _mult(30, 4000, 30)[:, None]
    upd = _values((4000, ROUNDS_MIN_ROW - 1), np.float32)
    _check(data, idx, upd, ROWS, Policy(reduction="add"))


@pytest.mark.parametrize("duplicates", ["last", "first"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex128, object])
def test_whole_row_assignment(duplicates, dtype):
    data = _values((200, 24), dtype if dtype is not object else np.float64).astype(dtype)
    idx = _mult(200, 3000, 200)[:, None]
    upd = _values((3000, 24), dtype if dtype is not object else np.float64).astype(dtype)
    _check(data, idx, upd, ROWS, Policy(duplicates=duplicates))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("reduction", ["none", "add"])
def test_elementwise_pieces_share_one_offset_buffer(axis, reduction):
    # more than one piece (piece_size is at least 2**16 updates), last axis and middle axes
    shape = [70, 40, 30]
    data = _values(tuple(shape), np.float32)
    ishape = list(shape)
    ishape[axis] = shape[axis] + 9  # more updates than slots along the axis: duplicates
    idx = RNG.integers(-shape[axis], shape[axis], tuple(ishape))
    upd = _values(tuple(ishape), np.float32)
    spec = IndexSpec(axis=axis, batch=axis, elementwise=True)
    _check(data, idx, upd, spec, Policy(reduction=reduction, negative="wrap"))


@pytest.mark.parametrize("dtype", [np.float16, np.complex64, np.complex128])
@pytest.mark.parametrize("reduction", ["add", "mul", "max"])
@pytest.mark.parametrize("R", [1, 3, 20])
def test_dtypes_without_exact_ufunc_at(dtype, reduction, R):
    # NumPy's indexed ufunc.at rounds complex products differently and gives float16 NaNs
    # another sign: these dtypes are reduced by ranked rounds (wide ones, then one
    # ufunc.accumulate per remaining row), which must give the loop's bits
    if np.dtype(dtype).kind == "c" and reduction == "max":
        pytest.skip("no ordering for complex")
    n_rows = 3 * WIDE_ROUND
    idx = np.concatenate([
        np.repeat(np.arange(n_rows), 3),  # three wide rounds
        np.full(40, 5), np.full(25, 7),  # two hot rows: narrow rounds, then accumulate
        RNG.integers(0, n_rows, 200),
    ])
    RNG.shuffle(idx)
    data = _values((n_rows, R), dtype)
    upd = _values((idx.size, R), dtype)
    if np.dtype(dtype).kind == "f":
        upd[::17] = np.inf  # 0 * inf and inf - inf make new NaNs
    else:
        # unit-modulus factors: long products stay finite (complex products that overflow to
        # infinities differ between NumPy's own loops: not a property of the scatter)
        upd = np.exp(1j * RNG.uniform(0, 6.3, upd.shape)).astype(dtype)
    _check(data, idx[:, None], upd, ROWS, Policy(reduction=reduction))
    _check(data.reshape(-1), np.repeat(idx, R) * R + np.tile(np.arange(R), idx.size),
           upd.reshape(-1), IndexSpec(axis=0, batch=0, elementwise=True), Policy(reduction=reduction))
