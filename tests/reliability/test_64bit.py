"""64-bit safety: gathers and scatters on arrays with more than 2**31 elements.

One zero-filled uint8 buffer of ROWS * COLS = 2**31 + 98305 bytes (never touched
except where a test writes a known byte pattern, so it costs almost no resident
memory) is viewed as a flat int8/bool array of N = 2**31 + 17 elements and as a
(2**16 + 1, 2**15 + 1) matrix, whose axes are small but whose element offsets
pass 2**31. Each test writes a few known values at far positions, runs an op on
both backends (NumPy and numba) and checks the result against values written
down here, never against the code under test: gathers return the pattern;
scatters leave exactly the expected non-zero cells (checked by NumPy indexing of
the output plus ``count_nonzero`` over the whole output).

Memory: reading the untouched buffer maps the kernel's zero page, so it costs
only the pages the patterns write; a gather's output is small; a scatter's output
is a full copy (2 GiB, every page written: the copy past 2**31 bytes is part of
what is proved). At most one such output exists at a time, and the scatter checks
read the few facts they assert, then drop the output before asserting, so that a
failing test's traceback never keeps 2 GiB alive (failures would pile up: a
traceback is a reference cycle, freed only by a collection, which every scatter
test runs when it ends). The peak of this file is about 2.3 GiB; ``.ci/run``
fails the step above 3.5 GiB.

Marked ``slow`` and ``bigmem``: run with ``-m slow``, and in CI (``CI=true``) when
/proc/meminfo's MemAvailable holds 3x the bytes a test needs (tests/conftest.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter import backends
from tests.conftest import BACKENDS, mem_available

N = 2**31 + 17
ROWS, COLS = 2**16 + 1, 2**15 + 1
NBIG = ROWS * COLS
NEED = NBIG + (512 << 20)
"""Bytes a test needs: one output of the buffer's size and the interpreter (numba's kernels included); the
zero buffer is read through the zero page (measured peak of the file: 2.3 GiB; the 3x margin of the marker
covers a system that backs it with real pages)."""

pytestmark = [pytest.mark.slow, pytest.mark.bigmem(NEED)]

assert N > 2**31 and NBIG > 2**31 and ROWS < 2**17 and COLS < 2**16

# far positions of the flat view (offsets past 2**31) and known int8 values for them
FLAT = {N - 1: 11, N - 2: 22, 2**31 + 1: 33, 2**31: 44, 2**31 - 1: 55, 3: 66}
# far cells of the matrix: the last row starts at offset 2**31 + 2**16
CELLS = {(ROWS - 1, COLS - 1): 11, (ROWS - 1, 0): 22, (ROWS - 2, COLS - 1): 33, (ROWS - 1, 7): 44, (2**15, 2**14): 55, (0, 1): 66}


@pytest.fixture(scope="module")
def buf() -> Iterator[np.ndarray[Any, Any]]:
    avail = mem_available()
    if avail is not None and avail < 3 * NEED:
        pytest.skip(f"needs {3 * NEED / 2**30:.1f} GiB available memory, have {avail / 2**30:.1f} GiB")
    b = np.zeros(NBIG, np.uint8)
    yield b
    del b


@pytest.fixture
def collect_cycles() -> Iterator[None]:
    """After a scatter test, collect reference cycles: a failed test's traceback is a cycle that keeps its frames
    (an op's 2 GiB output among them, when the op raised) until Python's next automatic collection, which
    large arrays do not trigger; failures would pile up outputs (pytest keeps only the last one, in sys.last_*).
    Scatter tests only: a collection takes about 0.2 s here."""
    yield
    gc.collect()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    backends.set_backend(request.param)
    try:
        yield request.param
    finally:
        backends.set_backend("auto")


@contextmanager
def pattern(view: np.ndarray[Any, Any], values: dict[Any, int]) -> Iterator[np.ndarray[Any, Any]]:
    """Write ``values`` into ``view`` (of the shared zero buffer) and zero them again afterwards."""
    for pos, v in values.items():
        view[pos] = v
    try:
        yield view
    finally:
        for pos in values:
            view[pos] = 0


def flat(b: np.ndarray[Any, Any], dtype: Any = np.int8) -> np.ndarray[Any, Any]:
    return b[:N].view(dtype)


def matrix(b: np.ndarray[Any, Any], dtype: Any = np.int8) -> np.ndarray[Any, Any]:
    return b.view(dtype).reshape(ROWS, COLS)


def check_scatter(out: np.ndarray[Any, Any], expect: dict[Any, Any], dtype: Any = np.int8) -> None:
    """``out`` equals zero everywhere except the cells of ``expect`` (checked one by one).

    Pass the op's result straight in (``check_scatter(op(...), ...)``): the facts are read, then the
    2 GiB output is dropped before anything is asserted (a failure's traceback keeps this frame).
    """
    got = (out.dtype, {pos: out[pos].item() for pos in expect}, int(np.count_nonzero(out)))
    del out
    assert got == (np.dtype(dtype), dict(expect), sum(1 for v in expect.values() if v))


# ------------------------------------------------------------------ gathers, flat (offsets > 2**31)
FAR = list(FLAT)
FAR_VALUES = [FLAT[p] for p in FAR]

FLAT_GATHERS = {
    "onnx.Gather": lambda d, i: gs.onnx.Gather(d, i),
    "torch.take": lambda d, i: gs.torch.take(d, i),
    "tensorflow.gather": lambda d, i: gs.tensorflow.gather(d, i),
    "jax.take": lambda d, i: gs.jax.take(d, i),
    "numpy.take_along_axis": lambda d, i: gs.numpy.take_along_axis(d, i, axis=None),
    "gatherscatter.take": lambda d, i: gs.take(d, i),
    "gatherscatter.gather_nd": lambda d, i: gs.gather_nd(d, i[:, None]),
}


@pytest.mark.parametrize("op", list(FLAT_GATHERS))
def test_flat_gather(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    with pattern(flat(buf), FLAT) as d:
        got = FLAT_GATHERS[op](d, np.array(FAR, np.int64))
    assert got.dtype == np.int8
    assert got.tolist() == FAR_VALUES


@pytest.mark.parametrize("op", ["onnx.Gather", "jax.take", "gatherscatter.take"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_flat_gather_negative_wraps_to_the_far_end(buf: np.ndarray[Any, Any], backend: str, op: str, dtype: Any) -> None:
    gather = FLAT_GATHERS[op]
    far = -(2**31) if dtype is np.int32 else -(N - 3)  # N - 2**31 = 17 is not in the pattern; N - (N - 3) = 3 is
    with pattern(flat(buf), FLAT) as d:
        got = gather(d, np.array([-1, -2, far], dtype))  # an int32 -1 must wrap to N - 1, past int32
    assert got.tolist() == [11, 22, 0 if dtype is np.int32 else 66]


def test_flat_gather_bool(buf: np.ndarray[Any, Any], backend: str) -> None:
    with pattern(flat(buf), {N - 1: 1, 2**31: 1}) as raw:
        d = raw.view(np.bool_)
        got = gs.onnx.Gather(d, np.array([N - 1, N - 2, 2**31, 2**31 - 1], np.int64))
        got2 = gs.take(d, np.array([2**31, -1]))
    assert got.dtype == np.bool_ and got.tolist() == [True, False, True, False]
    assert got2.tolist() == [True, True]


# ------------------------------------------------------------------ gathers along an axis of the matrix
AXIS1 = {
    "onnx.Gather": lambda d, i: gs.onnx.Gather(d, i, axis=1),
    "torch.index_select": lambda d, i: gs.torch.index_select(d, 1, i),
    "tensorflow.gather": lambda d, i: gs.tensorflow.gather(d, i, axis=1),
    "jax.take": lambda d, i: gs.jax.take(d, i, axis=1),
    "gatherscatter.take": lambda d, i: gs.take(d, i, axis=1),
}


def expected_columns(cols: list[int]) -> np.ndarray[Any, Any]:
    exp = np.zeros((ROWS, len(cols)), np.int8)
    for (r, c), v in CELLS.items():
        for j, cj in enumerate(cols):
            if c == cj:
                exp[r, j] = v
    return exp


@pytest.mark.parametrize("op", list(AXIS1))
def test_gather_axis1_far_rows(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    cols = [COLS - 1, 0, 7, 2**14]
    with pattern(matrix(buf), CELLS) as d:
        got = AXIS1[op](d, np.array(cols, np.int64))
    assert got.shape == (ROWS, 4)
    np.testing.assert_array_equal(got, expected_columns(cols))


@pytest.mark.parametrize("op", ["onnx.Gather", "torch.index_select", "gatherscatter.take"])
def test_gather_axis0_far_rows(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    rows = [ROWS - 1, ROWS - 2, 0]
    with pattern(matrix(buf), CELLS) as d:
        got = (
            gs.torch.index_select(d, 0, np.array(rows))
            if op == "torch.index_select"
            else gs.get_op(op)(d, np.array(rows), axis=0)
        )
    exp = np.zeros((3, COLS), np.int8)
    for (r, c), v in CELLS.items():
        if r in rows:
            exp[rows.index(r), c] = v
    np.testing.assert_array_equal(got, exp)


# ------------------------------------------------------------------ gather_elements / take_along_axis
ELEMENTS = {
    "onnx.GatherElements": lambda d, i, a: gs.onnx.GatherElements(d, i, axis=a),
    "torch.gather": lambda d, i, a: gs.torch.gather(d, a, i),
    "jax.take_along_axis": lambda d, i, a: gs.jax.take_along_axis(d, i, axis=a),
    "numpy.take_along_axis": lambda d, i, a: gs.numpy.take_along_axis(d, i, axis=a),
    "gatherscatter.take_along_axis": lambda d, i, a: gs.take_along_axis(d, i, a),
}


@pytest.mark.parametrize("op", list(ELEMENTS))
def test_gather_elements_far(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    # axis 1: one column per row (every row, the far ones included); axis 0: the last row, every column
    idx1 = np.full((ROWS, 1), COLS - 1, np.int64)
    idx1[ROWS - 1, 0] = 0
    idx1[2**15, 0] = 2**14
    idx0 = np.full((1, COLS), ROWS - 1, np.int64)
    idx0[0, COLS - 1] = ROWS - 2
    with pattern(matrix(buf), CELLS) as d:
        got1 = ELEMENTS[op](d, idx1, 1)
        got0 = ELEMENTS[op](d, idx0, 0)
    exp1 = np.zeros((ROWS, 1), np.int8)
    exp1[ROWS - 1, 0], exp1[ROWS - 2, 0], exp1[2**15, 0] = 22, 33, 55
    exp0 = np.zeros((1, COLS), np.int8)
    exp0[0, 0], exp0[0, 7], exp0[0, COLS - 1] = 22, 44, 33
    np.testing.assert_array_equal(got1, exp1)
    np.testing.assert_array_equal(got0, exp0)


# ------------------------------------------------------------------ gather_nd
TUPLES = np.array([[ROWS - 1, COLS - 1], [ROWS - 1, 0], [ROWS - 2, COLS - 1], [0, 1], [ROWS - 1, 1]], np.int64)
TUPLE_VALUES = [11, 22, 33, 66, 0]
ND = {
    "onnx.GatherND": lambda d, t: gs.onnx.GatherND(d, t),
    "tensorflow.gather_nd": lambda d, t: gs.tensorflow.gather_nd(d, t),
    "jax.at_get": lambda d, t: gs.jax.at_get(d, (t[:, 0], t[:, 1])),
    "gatherscatter.gather_nd": lambda d, t: gs.gather_nd(d, t),
}


@pytest.mark.parametrize("op", list(ND))
def test_gather_nd_far(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    with pattern(matrix(buf), CELLS) as d:
        got = ND[op](d, TUPLES)
        row = ND[op](d, TUPLES[:1, :1]) if op != "jax.at_get" else gs.jax.at_get(d, (TUPLES[:1, 0],))
    assert got.tolist() == TUPLE_VALUES
    assert row.shape == (1, COLS)
    assert (row[0, 0], row[0, 7], row[0, COLS - 1], np.count_nonzero(row)) == (22, 44, 11, 3)


# ------------------------------------------------------------------ scatter_elements
@pytest.mark.usefixtures("collect_cycles")
def test_scatter_elements_flat(buf: np.ndarray[Any, Any], backend: str) -> None:
    idx = np.array([N - 1, 2**31, 5], np.int64)
    with pattern(flat(buf), {N - 1: 1, 2**31 - 1: 2}) as d:
        check_scatter(gs.onnx.ScatterElements(d, idx, np.array([7, 8, 9], np.int8)),
                      {N - 1: 7, 2**31: 8, 5: 9, 2**31 - 1: 2})
        check_scatter(gs.torch.scatter_add(d, 0, idx[[0, 0, 1]], np.array([7, 8, 9], np.int8)),
                      {N - 1: 16, 2**31: 9, 2**31 - 1: 2})


SCATTER_ELEMENTS = {
    "onnx.ScatterElements": lambda d, i, u, a: gs.onnx.ScatterElements(d, i, u, axis=a),
    "torch.scatter": lambda d, i, u, a: gs.torch.scatter(d, a, i, u),
    "gatherscatter.scatter_along_axis-add": lambda d, i, u, a: gs.scatter_along_axis(d, i, u, a, reduction="add"),
}


@pytest.mark.usefixtures("collect_cycles")
@pytest.mark.parametrize("op", list(SCATTER_ELEMENTS))
def test_scatter_elements_matrix(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    # axis 1, one update per row: row r writes column (r * 7) % COLS with value r % 100 + 1
    r = np.arange(ROWS)
    idx = ((r * 7) % COLS).reshape(-1, 1)
    upd = (r % 100 + 1).astype(np.int8).reshape(-1, 1)
    add = op.endswith("-add")
    with pattern(matrix(buf), {(ROWS - 1, (7 * (ROWS - 1)) % COLS): 3}) as d:
        out = SCATTER_ELEMENTS[op](d, idx, upd, 1)
    # the facts to check, then the 2 GiB output goes before any assertion (see check_scatter)
    dtype, shape, cells, nonzero = out.dtype, out.shape, out[r, idx[:, 0]], np.count_nonzero(out)
    last = out[ROWS - 1, (7 * (ROWS - 1)) % COLS]
    del out
    assert dtype == np.int8 and shape == (ROWS, COLS)
    expect = upd[:, 0].copy()
    if add:
        expect[ROWS - 1] += 3
    np.testing.assert_array_equal(cells, expect)
    assert nonzero == ROWS
    assert last == (ROWS - 1) % 100 + 1 + (3 if add else 0)


# ------------------------------------------------------------------ scatter_nd, without and with a reduction
HITS = np.array([[ROWS - 1, COLS - 1], [ROWS - 1, 0], [ROWS - 2, 5], [ROWS - 1, COLS - 1], [0, 0]], np.int64)
VALS = np.array([1, 2, 3, 4, 5], np.int8)
BASE = {(ROWS - 1, COLS - 1): 10, (ROWS - 1, 1): 20}
SET = {(ROWS - 1, COLS - 1): 4, (ROWS - 1, 0): 2, (ROWS - 2, 5): 3, (0, 0): 5, (ROWS - 1, 1): 20}
ADD = {(ROWS - 1, COLS - 1): 15, (ROWS - 1, 0): 2, (ROWS - 2, 5): 3, (0, 0): 5, (ROWS - 1, 1): 20}
SCATTER_ND = {
    "onnx.ScatterND": (lambda d: gs.onnx.ScatterND(d, HITS, VALS), SET),
    "onnx.ScatterND-add": (lambda d: gs.onnx.ScatterND(d, HITS, VALS, reduction="add"), ADD),
    "tensorflow.tensor_scatter_nd_add": (lambda d: gs.tensorflow.tensor_scatter_nd_add(d, HITS, VALS), ADD),
    "jax.at_set": (lambda d: gs.jax.at_set(d, (HITS[:, 0], HITS[:, 1]), VALS), SET),
    "torch.index_put-accumulate": (lambda d: gs.torch.index_put(d, (HITS[:, 0], HITS[:, 1]), VALS, True), ADD),
    "gatherscatter.scatter_nd-add": (lambda d: gs.scatter_nd(d, HITS, VALS, reduction="add"), ADD),
}


@pytest.mark.usefixtures("collect_cycles")
@pytest.mark.parametrize("op", list(SCATTER_ND))
def test_scatter_nd_far(buf: np.ndarray[Any, Any], backend: str, op: str) -> None:
    run, expect = SCATTER_ND[op]
    with pattern(matrix(buf), BASE) as d:
        check_scatter(run(d), expect)


@pytest.mark.usefixtures("collect_cycles")
def test_scatter_nd_rows_far(buf: np.ndarray[Any, Any], backend: str) -> None:
    rows = np.array([[ROWS - 1], [ROWS - 2]], np.int64)
    upd = np.zeros((2, COLS), np.int8)
    upd[0, COLS - 1], upd[1, 0] = 7, 9
    expect = {(ROWS - 1, COLS - 1): 7, (ROWS - 2, 0): 9}
    check_scatter(gs.onnx.ScatterND(matrix(buf), rows, upd, reduction="add"), expect)


@pytest.mark.usefixtures("collect_cycles")
def test_scatter_bool(buf: np.ndarray[Any, Any], backend: str) -> None:
    hits = np.array([[N - 1], [2**31], [2**31]], np.int64)
    with pattern(flat(buf), {N - 2: 1}) as raw:
        d = raw.view(np.bool_)
        check_scatter(gs.onnx.ScatterND(d, hits, np.array([True, True, False])),
                      {N - 1: True, 2**31: False, N - 2: True}, np.bool_)
        check_scatter(gs.scatter_nd(d, hits, np.array([True, False, False]), reduction="add"),  # add is OR
                      {N - 1: True, 2**31: False, N - 2: True}, np.bool_)
