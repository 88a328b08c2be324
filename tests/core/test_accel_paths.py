"""The accelerated path's own branches, at sizes the small property examples never reach.

Raw int64 indices go to the kernels unresolved (negatives wrapped there, bad ones
counted, then the core's resolving path takes over); large scatters copy ``data``
in parallel blocks. Each case must equal the NumPy path bit for bit, or raise the
same error; the NumPy path is itself tested against loop oracles.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.core import IndexSpec, Policy, gather
from tests.conftest import has, using_backend, using_threads

pytestmark = pytest.mark.skipif(not has("numba"), reason="numba not installed")

RNG = np.random.default_rng(20261122)
ROOT = Path(__file__).resolve().parents[2]
BIG = (1 << 20) + 3  # > 4 MB of float32: the block copy and multi-threaded kernels


def _both(fn):
    with using_backend("numpy"):
        try:
            expected = fn()
        except gs.GatherScatterError as exc:
            error = exc
        else:
            error = None
    if error is not None:
        with using_backend("numba"), pytest.raises(type(error)) as info:
            fn()
        assert str(info.value) == str(error)
        return None
    with using_backend("numba"):
        got = fn()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()  # bits, NaN payloads included
    return got


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int8])
@pytest.mark.parametrize("reduction", ["none", "add", "max"])
def test_scatter_nd_rows_large_data(dtype, reduction):
    if dtype is np.complex128 and reduction == "max":
        pytest.skip("no ordering for complex")
    data = (RNG.standard_normal((BIG // 8, 8)) * 10).astype(dtype)
    idx = RNG.integers(-data.shape[0], data.shape[0], (5000, 1))  # negatives wrapped in the kernel
    upd = (RNG.standard_normal((5000, 8)) * 10).astype(dtype)
    out = _both(lambda: gs.scatter_nd(data, idx, upd, reduction=reduction))
    assert out is not None


def test_scatter_nd_rows_in_place_large():
    data = RNG.standard_normal((BIG // 4, 4)).astype(np.float32)
    idx = RNG.permutation(data.shape[0])[:300, None]
    upd = RNG.standard_normal((300, 4)).astype(np.float32)
    expected = gs.scatter_nd(data, idx, upd)
    for backend in ("numpy", "numba"):
        cache = data.copy()
        with using_backend(backend):
            assert gs.scatter_nd(cache, idx, upd, out=cache) is cache
        np.testing.assert_array_equal(cache, expected)


@pytest.mark.parametrize("negative", ["wrap", "raise", "bounds"])
@pytest.mark.parametrize("bounds", ["raise", "clip", "fill"])
def test_gather_raw_indices_with_bad_ones(negative, bounds):
    data = RNG.standard_normal((5000, 16)).astype(np.float32)
    idx = RNG.integers(0, 5000, 20000)
    idx[7] = -3
    idx[11] = 5000 if bounds != "raise" else 4999
    policy = Policy(bounds=bounds, negative=negative, fill_value=1.5)
    _both(lambda: gather(data, idx, IndexSpec(axis=0), policy))
    _both(lambda: gather(data.reshape(50, 100, 16), idx[:300] % 100 - (idx[:300] % 2) * 100, IndexSpec(axis=1), policy))


def test_gather_elements_raw_and_fallback():
    data = RNG.standard_normal((300, 4096)).astype(np.float32)
    idx = RNG.integers(-4096, 4096, (300, 4096))
    _both(lambda: gs.take_along_axis(data, idx, axis=1))
    bad = idx.copy()
    bad[299, 4095] = 4096
    _both(lambda: gs.take_along_axis(data, bad, axis=1))
    _both(lambda: gs.take_along_axis(data, bad, axis=1, bounds="fill", fill_value=-1))
    out = np.zeros_like(data)
    with using_backend("numba"), pytest.raises(gs.IndexOutOfRangeError):
        gs.take_along_axis(data, bad, axis=1, out=out)
    assert not out.any()  # checked before the first write into the caller's array


@pytest.mark.parametrize("batch_dims", [0, 1])
def test_gather_nd_tuples_raw(batch_dims):
    data = RNG.standard_normal((6, 300, 40, 8)).astype(np.float32)
    lead = (6, 4000) if batch_dims else (4000,)
    idx = np.stack([RNG.integers(-300, 300, lead), RNG.integers(-40, 40, lead)], -1)
    if not batch_dims:
        idx = np.concatenate([RNG.integers(0, 6, lead + (1,)), idx], -1)
    _both(lambda: gs.gather_nd(data, idx, batch_dims=batch_dims))
    idx[..., -1].reshape(-1)[5] = 40
    _both(lambda: gs.gather_nd(data, idx, batch_dims=batch_dims))
    _both(lambda: gs.scatter_nd(data, idx, np.ones(idx.shape[:-1] + data.shape[batch_dims + idx.shape[-1]:],
                                                    np.float32), batch_dims=batch_dims, reduction="add"))


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_gather_nd_kernel_equals_a_loop(form):
    # GatherND's row gather: every tuple checked (negatives wrapped when asked) and turned into its row first; with
    # a bad one, their count and nothing written, else every row copied (plain or streaming stores). The oracle:
    # the rule and the row-major offset, as loops.
    from gatherscatter.backends import numba_kernels as k

    kern = k.launched(k.SERIAL[k.gather_nd] if form == "serial" else k.gather_nd)
    lo64, hi64 = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    cases = (((7,), 3, 40, 5, np.uint32), ((4, 6), 1, 300, 130, np.uint32), ((3, 2, 5), 2, 50, 1, np.uint64),
             ((9,), 4, 33, 200, np.uint8), ((5, 2), 2, 70, 2, np.uint16), ((5,), 0, 4, 3, np.uint8),
             ((5, 2), 2, 0, 2, np.uint16))
    for sizes, b_n, m_n, r, dt in cases:
        t_n = int(np.prod(sizes))
        data = RNG.integers(0, 250, (b_n * t_n, r)).astype(dt)  # 255 is never a value: the unwritten rows' mark
        for wrap, stream, bad_ones in itertools.product((False, True), (False, True), (False, True)):
            lows = [-s if wrap else 0 for s in sizes]
            idx = np.stack([RNG.integers(lo, s, (b_n, m_n)) for lo, s in zip(lows, sizes, strict=True)], -1).astype(np.int64)
            if bad_ones and idx.size >= 8:  # the edges just outside, and unsigned sums that wrap around
                idx.reshape(-1)[:8:2] = (lo64, hi64, lows[0] - 1, sizes[0])
            expected = np.full((b_n * m_n, r), 255, dt)
            bad = 0
            for b in range(b_n):
                for m in range(m_n):
                    off = 0
                    for j, s in enumerate(sizes):
                        t = int(idx[b, m, j])
                        t = t + s if wrap and t < 0 else t
                        if not 0 <= t < s:
                            bad += 1
                            break
                        off = off * s + t
                    else:
                        expected[b * m_n + m] = data[b * t_n + off]
            if bad:
                expected[:] = 255
            out = np.full((b_n * m_n, r), 255, dt)
            case = (sizes, b_n, m_n, r, wrap, stream, bad_ones)
            assert kern(data, idx, out, wrap, stream, np.array(sizes, np.int64)) == bad, case
            assert out.tobytes() == expected.tobytes(), case
            assert bool(bad) == (bad_ones and idx.size >= 8), case


def test_gather_nd_runs_as_one_call_and_checks_every_tuple_before_writing(monkeypatch):
    # every raw GatherND is one call (tuples to rows, then the row gather), into a fresh output, a streaming one or
    # the caller's out=, then on a call plan; a bad tuple raises the NumPy path's error, out= left untouched
    from gatherscatter.core import accel

    seen: list[str] = []
    streams: list[bool] = []
    real = accel.launch

    def launch(kernel, *args, **kw):
        seen.append(kernel.__name__)
        if kernel.__name__ == "gather_nd":
            streams.append(args[4])
        return real(kernel, *args, **kw)

    monkeypatch.setattr(accel, "launch", launch)
    data = RNG.standard_normal((4, 300, 600)).astype(np.float32)  # rows of 2400 B: they stream from STREAM_BYTES
    idx = RNG.integers(-300, 300, (4, 500, 1))
    expected = np.stack([data[b][idx[b, :, 0]] for b in range(4)])  # NumPy's negative indices count from the end
    bad = idx.copy()
    bad[2, 17, 0] = 300
    with using_backend("numba"):
        assert gs.onnx.GatherND(data, idx, batch_dims=1).tobytes() == expected.tobytes()
        assert seen == ["gather_nd"]
        for _ in range(3):  # the plan's runs
            assert gs.onnx.GatherND(data, idx, batch_dims=1).tobytes() == expected.tobytes()
    _both(lambda: gs.onnx.GatherND(data, bad, batch_dims=1))
    seen.clear()
    out = np.full_like(expected, 7.0)
    with using_backend("numba"):
        with pytest.raises(gs.IndexOutOfRangeError, match=r"\[2, 17, 0\] = 300"):
            gs.gather_nd(data, bad, batch_dims=1, out=out)
        assert (out == 7.0).all() and "gather_nd" in seen
        gs.gather_nd(data, idx, batch_dims=1, out=out)
    assert out.tobytes() == expected.tobytes()
    assert not any(streams)
    seen.clear()
    monkeypatch.setattr(accel, "STREAM_BYTES", 0)  # every output streams
    with using_backend("numba"):
        part = idx[:, :77].copy()  # C-contiguous int64: the caller's indices go to the kernels unresolved
        assert gs.onnx.GatherND(data, part, batch_dims=1).tobytes() == expected[:, :77].tobytes()
    assert seen == ["gather_nd"] and streams[-1] is True


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "min"])
def test_scatter_elements_raw(reduction):
    data = RNG.standard_normal((64, 1024)).astype(np.float32)
    idx = RNG.integers(-1024, 1024, (64, 4096))
    upd = RNG.standard_normal((64, 4096)).astype(np.float32)
    _both(lambda: gs.scatter_along_axis(data, idx, upd, 1, reduction=reduction))
    _both(lambda: gs.scatter_along_axis(data.T.copy(), idx.T.copy() // 16, upd.T.copy(), 0, reduction=reduction))
    idx[3, 5] = 1024
    _both(lambda: gs.scatter_along_axis(data, idx, upd, 1, reduction=reduction))
    _both(lambda: gs.scatter_along_axis(data, idx, upd, 1, reduction=reduction, bounds="drop"))


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_scatter_elements2_fused_copy_equals_a_loop(form):
    # copy=True: every row of out gets data's row (rows past idx's only that), then its updates in index
    # order; the expected values come from a plain Python loop, duplicates included (float sums in order)
    from gatherscatter.backends import numba_kernels as k

    kern = k.launched(k.SERIAL[k.scatter_elements2] if form == "serial" else k.scatter_elements2)
    data = RNG.standard_normal((7, 5)).astype(np.float32)
    idx = RNG.integers(-5, 5, (4, 9))
    upd = RNG.standard_normal((4, 9)).astype(np.float32)
    for op, f in ((k.ADD, lambda x, y: np.float32(x + y)), (k.NONE, lambda x, y: y),
                  (k.MAX, lambda x, y: max(x, y))):
        expected = data.copy()
        for a in range(4):
            for j in range(9):
                t = int(idx[a, j]) % 5
                expected[a, t] = f(expected[a, t], upd[a, j])
        buf = np.full((9, 5), 7.0, np.float32)
        out = buf[1:-1]
        assert kern(out, data, idx, upd, op, True, True) == 0
        assert out.tobytes() == expected.tobytes(), op
        assert (buf[0] == 7.0).all() and (buf[-1] == 7.0).all()
        assert kern(out, data, idx, upd, op, True, False) == int((idx < 0).sum())  # no wrap: negatives bad
        extremes = idx.copy()
        extremes[0, 0], extremes[3, 8], extremes[2, 4] = 2**63 - 1, -(2**63), -6  # one unsigned compare each
        assert kern(out, data, extremes, upd, op, True, True) == 3


def test_scatter_elements_last_axis_fused_copy_paths():
    # the fused copy with fewer index rows than data rows, into a fresh output and a caller's out=,
    # and the unfused copy (a trailing axis of data longer than the indices')
    data = RNG.standard_normal((300, 1024)).astype(np.float32)
    idx = RNG.integers(-1024, 1024, (200, 4096))
    upd = RNG.standard_normal((200, 4096)).astype(np.float32)
    wide = np.repeat(data[:, :, None], 2, 2)
    for reduction in ("none", "add", "max"):
        _both(lambda r=reduction: gs.scatter_along_axis(data, idx, upd, 1, reduction=r))
        _both(lambda r=reduction: gs.scatter_along_axis(data, idx, upd, 1, reduction=r, out=np.zeros_like(data)))
        _both(lambda r=reduction: gs.scatter_along_axis(wide, idx[:, :, None], upd[:, :, None], 1, reduction=r))


def test_scatter_elements_nan_max_bits():
    data = np.full((64, 512), np.nan, np.float32)
    data[::2] = 0.0
    idx = RNG.integers(0, 512, (64, 2048))
    upd = RNG.standard_normal((64, 2048)).astype(np.float32)
    upd[:, ::7] = np.nan
    _both(lambda: gs.scatter_along_axis(data, idx, upd, 1, reduction="max"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scatter_elements_max_axis0_nan_payloads_and_signed_zeros(dtype):
    # the branch-free max of the kernels against np.maximum.at (the NumPy path): NaN payloads of data and
    # updates, +0.0 / -0.0 ties, along axis 0 (the column-loop kernel) and the last axis
    bits = np.uint32 if dtype == np.float32 else np.uint64
    nan1 = np.array(np.nan, dtype).view(bits) | bits(1)
    nan2 = np.array(np.nan, dtype).view(bits) | bits(2)
    data = np.zeros((32, 64), dtype)
    data[::3] = -0.0
    data.view(bits)[1::5, ::3] = nan1
    idx = RNG.integers(0, 32, (400, 64))
    upd = RNG.choice(np.array([0.0, -0.0, 1.0, -1.0], dtype), (400, 64))
    upd.view(bits)[::7, ::5] = nan2
    for axis, (d, i, u) in ((0, (data, idx, upd)), (1, (data.T.copy(), idx.T.copy() % 64, upd.T.copy()))):
        got = _both(lambda d=d, i=i, u=u, axis=axis: gs.scatter_along_axis(d, i, u, axis, reduction="max"))
        assert got is not None and np.isnan(got).any() and (np.signbit(got) & (got == 0)).any()


def test_raw_paths_are_taken(monkeypatch):
    """The kernels get the caller's indices unresolved when they are int64 and in range, else the core resolves."""
    from gatherscatter.core import accel

    calls = []
    real_gather, real_scatter = accel.gather, accel.scatter

    def spy_gather(*args, **kw):
        res = real_gather(*args, **kw)
        calls.append(("gather", kw.get("raw", False), res is not None))
        return res

    def spy_scatter(*args, **kw):
        res = real_scatter(*args, **kw)
        calls.append(("scatter", kw.get("raw", False), bool(res)))
        return res

    monkeypatch.setattr(accel, "gather", spy_gather)
    monkeypatch.setattr(accel, "scatter", spy_scatter)
    data = np.arange(40.0).reshape(10, 4)
    with using_backend("numba"):
        gs.take(data, [1, -1])
        gs.scatter_nd(data, [[2], [-2]], np.ones((2, 4)), reduction="add")
        gs.take(data, [1, 10], bounds="clip")
        gs.take(data, np.array([1, 2], np.int32))
    assert calls == [
        ("gather", True, True),
        ("scatter", True, True),
        ("gather", True, False),  # 10 is bad: resolved (clipped) below
        ("gather", False, True),
        ("gather", False, True),  # int32: resolved to int64 first
    ]


@pytest.mark.parametrize("reduction", ["add", "max", "mul"])
def test_row_reductions_in_rounds_equal_the_kernels(reduction):
    # rows of 64: the NumPy path reduces in rounds of distinct rows (several 512 KB chunks,
    # rows hit up to ~40 times: past MAX_ROUNDS), the kernels in one sequential pass per row
    data = RNG.standard_normal((3000, 64)).astype(np.float32)
    idx = RNG.integers(0, 3000, (40000, 1))
    idx[::5] = 7
    upd = RNG.standard_normal((40000, 64)).astype(np.float32)
    _both(lambda: gs.scatter_nd(data, idx, upd, reduction=reduction))


@pytest.mark.parametrize("wrap", [True, False])
def test_gather_elements2_bad_counts_and_bits(wrap):
    # the last-axis kernel, both forms, rows of indices much shorter than data's (top-k style) and longer:
    # indices just outside [-s, s) (wrap) or [0, s) (no wrap), and the int64 extremes, are counted; without
    # a bad index every bit equals an independent expression
    from gatherscatter.backends import numba_kernels as k

    s = 700
    data = RNG.integers(0, 2**32, (9, s), dtype=np.uint64).astype(np.uint32)
    lo = -s if wrap else 0
    for m in (1, 3, 87, 88, 1029):
        idx = RNG.integers(lo, s, (9, m))
        expected = data[np.arange(9)[:, None], np.where(idx < 0, idx + s, idx)]
        for kern in map(k.launched, (k.gather_elements2, k.SERIAL[k.gather_elements2])):
            out = np.zeros((9, m), np.uint32)
            assert kern(data, idx, out, wrap) == 0
            assert out.tobytes() == expected.tobytes()
            bad = idx.copy()
            places = [(0, 0), (4, m - 1), (8, m // 2)]
            for (a, j), v in zip(places, (s, lo - 1, 2**63 - 1), strict=True):
                bad[a, j] = v
            assert kern(data, bad, out, wrap) == 3
            assert kern(data, np.full((9, m), -(2**63)), out, wrap) == 9 * m


def test_gather_elements2_wraps_from_the_first_negative_on():
    # the last-axis kernel runs a row's spans without wrapping until one reports a bad index, then runs that
    # span again wrapping, and the rest of its block of rows too: negatives only in the first span, only in a
    # later one, only in the last element, in one row of many (rows past ROW_BLOCKS share a block), a real bad
    # index before the first negative, and rows one short of, at and past the span edges; every bit against
    # numpy fancy indexing on the wrapped indices (an independent expression), both forms
    from gatherscatter.backends import numba_kernels as k

    s, rows = 300, k.ROW_BLOCKS + 45
    data = RNG.integers(0, 2**32, (rows, s), dtype=np.uint64).astype(np.uint32)
    first, span = k.FIRST_SPAN, k.SPAN
    for m in (first - 1, first, first + 1, first + span, first + span + 7):
        base = RNG.integers(0, s, (rows, m))
        cases = {"none": base.copy(), "all": base - s}
        for name, (r, j) in {"first span": (0, 0), "later span": (1, m - 1), "last row": (rows - 1, m - 1),
                             "mid row": (rows // 2, m // 2)}.items():
            idx = base.copy()
            idx[r, j] = -1 - idx[r, j] % s
            cases[name] = idx
        for name, idx in cases.items():
            expected = data[np.arange(rows)[:, None], np.where(idx < 0, idx + s, idx)]
            for kern in map(k.launched, (k.gather_elements2, k.SERIAL[k.gather_elements2])):
                out = np.zeros((rows, m), np.uint32)
                assert kern(data, idx, out, True) == 0, (m, name)
                assert out.tobytes() == expected.tobytes(), (m, name)
                assert kern(data, idx, out, False) == (idx < 0).sum(), (m, name)
                bad = idx.copy()
                bad[rows // 2, 0] = s  # a real bad index in a row's first span, before any negative
                bad[rows // 2, m - 1] = -1
                assert kern(data, bad, out, True) == 1, (m, name)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_gather_elements_stack_buffer_chunks(dtype):
    # the serial forms gather through a stack buffer of CHUNK items (each item size its own buffer type):
    # rows and lines one short of, at, and past a chunk, wrapped negatives and bad indices counted, every
    # bit against numpy fancy indexing (an independent expression), both forms
    from gatherscatter.backends import numba_kernels as k

    c, s = k.CHUNK, 97
    info = np.iinfo(dtype)
    data = RNG.integers(0, info.max, (9, s), dtype=dtype, endpoint=True)
    for m in (c - 1, c, c + 1, 2 * c + 5):
        idx = RNG.integers(-s, s, (9, m))
        expected = data[np.arange(9)[:, None], np.where(idx < 0, idx + s, idx)]
        for kern in map(k.launched, (k.gather_elements2, k.SERIAL[k.gather_elements2])):
            out = np.zeros((9, m), dtype)
            assert kern(data, idx, out, True) == 0
            assert out.tobytes() == expected.tobytes()
            bad = idx.copy()
            bad[0, 0], bad[8, m - 1], bad[4, c - 2] = s, -s - 1, -1
            assert kern(data, bad, out, True) == 2
            assert kern(data, bad, out, False) == ((bad < 0) | (bad >= s)).sum()  # every negative is bad too
    data3 = RNG.integers(0, info.max, (3, s, 2 * c + 9), dtype=dtype, endpoint=True)
    for line in (k.SHORT_LINES - 1, k.SHORT_LINES, c - 1, c + 1, 2 * c + 5):  # shorter than data's: 3-D views
        idx = RNG.integers(-s, s, (2, 5, line))
        fixed = np.where(idx < 0, idx + s, idx)
        expected = data3[np.arange(2)[:, None, None], fixed, np.arange(line)]
        for kern in map(k.launched, (k.gather_elements3, k.SERIAL[k.gather_elements3])):
            out = np.zeros((2, 5, line), dtype)
            assert kern(data3, idx, out, True) == 0
            assert out.tobytes() == expected.tobytes()
            bad = idx.copy()
            bad[1, 4, line - 1], bad[0, 2, 0] = s, -s - 1
            assert kern(data3, bad, out, True) == 2


def _scatter_kernel_cases(k, f):
    """(name, call(out, idx, wrap, op) -> bad count, out shape, idx shape, size along the index) for every
    scatter kernel branch; ``f`` picks a kernel's form (parallel or serial)."""
    u2 = np.ones((6, 5), np.float32)
    yield "elements2", lambda o, i, w, op: f(k.scatter_elements2)(o, o, i, u2, op, False, w), (6, 4), (6, 5), 4
    u3 = np.ones((3, 5, 4), np.float32)
    yield "elements3", lambda o, i, w, op: f(k.scatter_elements3)(o, i, u3, op, 1, w), (3, 6, 4), (3, 5, 4), 6
    u1 = np.ones((1, 5, 4), np.float32)  # one slice, 2 threads, 4 columns: column blocks
    yield "elements3 columns", lambda o, i, w, op: f(k.scatter_elements3)(o, i, u1, op, 2, w), (1, 6, 4), (1, 5, 4), 6
    uc = np.ones((3, 5, 1), np.float32)
    yield "elements3 c=1", lambda o, i, w, op: f(k.scatter_elements3)(o, i, uc, op, 1, w), (3, 6, 1), (3, 5, 1), 6
    for r in (1, 3):
        ur = np.ones((7, r), np.float32)
        for n in (1, 2):  # r=1, n=1: the 1-D element loop; else row blocks
            yield (f"rows r={r} n={n}", lambda o, i, w, op, ur=ur, n=n: f(k.scatter_rows)(o, i, ur, op, n, w),
                   (6, r), (7,), 6)


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_scatter_kernels_count_bad_indices_and_never_write_outside(form):
    # the index check is fused into the scatter kernels: each returns how many raw indices are outside
    # the output (after wrapping negatives when asked) and never writes through one; the guard rows
    # around the output (one buffer) must keep their values
    from gatherscatter.backends import numba_kernels as k

    def pick(kernel):
        return k.launched(k.SERIAL[kernel] if form == "serial" else kernel)

    for name, call, oshape, ishape, size in _scatter_kernel_cases(k, pick):
        for op in (k.ADD, k.NONE, k.MAX):
            for value, wrap, bad in ((size, True, True), (-size - 1, True, True), (-1, False, True),
                                     (-1, True, False), (size - 1, False, False)):
                buf = np.full((oshape[0] + 2, *oshape[1:]), 7.0, np.float32)
                out = buf[1:-1]
                idx = np.zeros(ishape, np.int64)
                idx.reshape(-1)[-2] = value
                got = call(out, idx, wrap, op)
                case = (name, op, value, wrap, got)
                assert bool(got) == bad, case
                assert (buf[0] == 7.0).all() and (buf[-1] == 7.0).all(), case
                # every in-range update landed (ones: 8.0 after add, 1.0 after none, 7.0 kept by max)
                assert (out != 7.0).any() or op == k.MAX, case


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_count_bad_counts_exactly_the_indices_outside_at_the_edges(form):
    # the check before writing into a caller's array: every value at and around the edges, the int64 extremes
    # (whose unsigned sums wrap around), both policies; the oracle is the plain rule, written out
    from gatherscatter.backends import numba_kernels as k

    kern = k.launched(k.SERIAL[k.count_bad] if form == "serial" else k.count_bad)
    lo64, hi64 = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    for size in (1, 5, 4096):
        edge = [lo64, lo64 + 1, -2 * size - 1, -size - 1, -size, -size + 1, -1, 0, size - 1, size, size + 1,
                2 * size, hi64 - size, hi64]
        idx = np.array(edge * 3, np.int64)
        for wrap in (False, True):
            expected = sum(1 for t in idx.tolist() if not ((-size <= t < size) if wrap else (0 <= t < size)))
            assert kern(idx, size, wrap) == expected, (size, wrap)


def test_scatter_bad_index_leaves_callers_arrays_untouched():
    # fresh outputs are checked inside the kernels (half-written, then discarded); a caller's out= or
    # in-place data is checked before the first write: a bad index leaves it as it was
    data = RNG.standard_normal((512, 1024)).astype(np.float32)
    idx = RNG.integers(0, 1024, (512, 4096))
    idx[300, 17] = 1024
    upd = np.ones((512, 4096), np.float32)
    rows = RNG.integers(0, 4096, (9000, 1))
    rows[8000] = -4097
    calls = [
        lambda out: gs.scatter_along_axis(data, idx, upd, 1, reduction="add", out=out),
        lambda out: gs.scatter_nd(data.reshape(4096, 128), rows, upd.reshape(-1)[: 9000 * 128].reshape(9000, 128),
                                  reduction="add", out=None if out is None else out.reshape(4096, 128)),
    ]
    for call in calls:
        _both(lambda call=call: call(None))  # the same error, from the fused check
        for in_place in (False, True):
            with using_backend("numba"):
                before = data.copy()
                out = data if in_place else np.zeros_like(data)
                kept = out.copy()
                with pytest.raises(gs.IndexOutOfRangeError):
                    call(out)
                assert out.tobytes() == kept.tobytes()
                assert data.tobytes() == before.tobytes()


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_put_rows_equals_a_loop(form):
    # out = data, then out[rows[i]] = upd[i] in order (duplicates: the last wins), in one pass over out's
    # rows; expected from a plain loop. A bad row: its count, and nothing written
    from gatherscatter.backends import numba_kernels as k

    kern = k.launched(k.SERIAL[k.put_rows] if form == "serial" else k.put_rows)
    for n, r, m in ((1000, 7, 300), (40, 256, 200), (3, 1, 10), (5000, 64, 9)):
        data = RNG.integers(0, 2**32, (n, r), dtype=np.uint64).astype(np.uint32)
        rows = RNG.integers(-n, n, m)
        rows[m // 2] = rows[0]  # a duplicate
        upd = RNG.integers(0, 2**32, (m, r), dtype=np.uint64).astype(np.uint32)
        expected = data.copy()
        for i in range(m):
            expected[int(rows[i]) % n] = upd[i]
        out = np.zeros_like(data)
        assert kern(out.reshape(-1), data.reshape(-1), rows, upd.reshape(-1), r, True, np.empty(n, np.int32)) == 0
        assert out.tobytes() == expected.tobytes()
        rows[-1] = n
        out[:] = 7
        assert kern(out.reshape(-1), data.reshape(-1), rows, upd.reshape(-1), r, True, np.empty(n, np.int64)) == 1
        assert (out == 7).all()


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.uint8])
def test_scatter_nd_none_one_pass(dtype):
    # ScatterND without reduction, rows of 64 bytes or more, out of place: one pass over the output
    # (put_rows); duplicates (last wins), wrapped negatives, tuples of depth 2, batch dims, out=, bad rows
    data = (RNG.standard_normal((600, 16, 64)) * 50).astype(dtype)
    idx = RNG.integers(-600, 600, (2000, 1))
    idx[1500] = idx[3]
    upd = (RNG.standard_normal((2000, 16, 64)) * 50).astype(dtype)
    _both(lambda: gs.scatter_nd(data, idx, upd))
    _both(lambda: gs.scatter_nd(data, idx, upd, out=np.zeros_like(data)))
    tup = np.stack([RNG.integers(-600, 600, 3000), RNG.integers(-16, 16, 3000)], -1)
    u2 = (RNG.standard_normal((3000, 64)) * 50).astype(dtype)
    _both(lambda: gs.scatter_nd(data, tup, u2))
    batched = np.ascontiguousarray(tup[:1200].reshape(600, 2, 2)[:, :, 1:])
    _both(lambda: gs.scatter_nd(data, batched, u2[:1200].reshape(600, 2, 64), batch_dims=1))
    bad = idx.copy()
    bad[1999] = 600
    _both(lambda: gs.scatter_nd(data, bad, upd))
    kept = np.ones_like(data)
    with using_backend("numba"), pytest.raises(gs.IndexOutOfRangeError):
        gs.scatter_nd(data, bad, upd, out=kept)
    assert (kept == 1).all()


def test_scatter_nd_rows_raw_bad_index_fused():
    # the row kernel checks the raw rows itself (fresh output): raise, drop and wrap as the NumPy path
    data = RNG.standard_normal((2000, 16)).astype(np.float32)
    for width in (16, 1):
        d = data[:, :width].copy()
        idx = RNG.integers(-2000, 2000, (30000, 1))
        upd = RNG.standard_normal((30000, width)).astype(np.float32)
        idx[20000] = 2000
        for reduction in ("none", "add", "min"):
            _both(lambda d=d, idx=idx, upd=upd, r=reduction: gs.scatter_nd(d, idx, upd, reduction=r))
            _both(lambda d=d, idx=idx, upd=upd, r=reduction: gs.scatter_nd(d, idx, upd, reduction=r, bounds="drop"))


def _parfor_loops(kernel, signature) -> int:
    """How many of ``kernel``'s loops numba's parfor pass turned into parallel loops (``Parfor`` nodes made
    from a user's ``prange``) for ``signature``: the compile pipeline run up to that pass and stopped, with
    no lowering and no LLVM (about a sixth of a full compile)."""
    from numba.core import compiler
    from numba.core.compiler_machinery import FunctionPass, register_pass
    from numba.core.typed_passes import ParforPass
    from numba.parfors.parfor import Parfor

    @register_pass(mutates_CFG=False, analysis_only=True)
    class _Count(FunctionPass):
        _name = "gatherscatter_count_parfors"

        def __init__(self):
            FunctionPass.__init__(self)

        def run_pass(self, state):
            made = [st for blk in state.func_ir.blocks.values() for st in blk.body
                    if isinstance(st, Parfor) and st.patterns[0][:2] == ("prange", "user")]
            raise compiler._EarlyPipelineCompletion(len(made))

    class _UpToParfors(compiler.CompilerBase):
        def define_pipelines(self):
            pm = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm.passes = pm.passes[:[p for p, _ in pm.passes].index(ParforPass) + 1]
            pm.add_pass(_Count, "count the parallel loops")
            pm.finalize()
            return [pm]

    flags = compiler.Flags()
    kernel.targetdescr.options.parse_as_flags(flags, kernel.targetoptions)
    return compiler.compile_extra(kernel.targetdescr.typing_context, kernel.targetdescr.target_context,
                                  kernel.py_func, args=tuple(signature), return_type=None, flags=flags,
                                  locals=kernel.locals, pipeline_class=_UpToParfors)


def _prange_loops(fn) -> int:
    """How many ``prange`` loops ``fn``'s source has."""
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return sum(isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
               and getattr(n.iter.func, "attr", getattr(n.iter.func, "id", None)) == "prange" for n in ast.walk(tree))


@pytest.mark.parametrize("share", range(2))
def test_parallel_forms_really_parallelise(share):
    # a prange loop numba cannot turn into a parallel loop compiles anyway, with at most a warning (none at all
    # when another loop of the kernel did parallelise), and then runs on one thread at any thread count
    # (scatter_elements2's prange over a conditional expression did: 2 threads measured 1.00x one until the
    # benchmark showed it). Every prange loop of every parallel kernel, at its first signature, must come out
    # of numba's parfor pass as a parallel loop (its first warm-up signature). The pipeline stops after that pass: 17 s for all kernels,
    # against 97 s when they were compiled in full (uncached) to catch numba's warning. Two shares of the
    # kernels, so that `pytest -n` spreads the compiling over its workers.
    nb = pytest.importorskip("numba")

    from gatherscatter.backends import numba_kernels as k

    first = {}  # each kernel's first warm-up signature, typed as launched (no compile needed)
    for kern, args in k._warm_calls():
        first.setdefault(kern, tuple(nb.typeof(a) for a in args))
    assert len(k.SERIAL) >= 4
    for kern in list(k.SERIAL)[share::2]:
        loops = _prange_loops(kern.py_func)
        if kern in k.COMPOSITE:  # its parallel loops are its callees', each checked here on its own
            assert loops == 0 and not kern.targetoptions.get("parallel"), kern.__name__
            continue
        assert loops >= 1, kern.__name__
        assert _parfor_loops(kern, first[kern]) == loops, kern.__name__
    # the check can fail: a kernel whose second prange loop (its bound a conditional expression) stays serial
    def one_parallel_loop_of_two(a, flag):
        for i in nb.prange(a.shape[0]):
            a[i] += 1
        for i in nb.prange(a.shape[0] if flag else 1):
            a[i] += 1

    assert _prange_loops(one_parallel_loop_of_two) == 2
    bad = nb.njit(parallel=True, cache=False)(one_parallel_loop_of_two)
    assert _parfor_loops(bad, (nb.types.float64[::1], nb.types.boolean)) == 1


def test_warm_up_shares_cover_every_kernel_once():
    # .ci/run fills numba's cache from two processes side by side: every warm-up signature must be in exactly
    # one share, and all of one kernel's in the same share (two processes writing one kernel's cache index
    # would lose entries); the shares about even; bad share arguments refused, naming the argument
    from gatherscatter import backends
    from gatherscatter.backends import numba_kernels as k

    def signatures(calls):
        return [(kern, tuple((a.dtype, a.ndim) if isinstance(a, np.ndarray) else type(a) for a in args))
                for kern, args in calls]

    every = signatures(k._warm_calls())
    assert len({kern for kern, _ in every}) == 2 * len(k.SERIAL)  # each kernel, both forms
    for parts in (1, 2, 3):
        shares = k.warm_parts(parts)
        assert len(shares) == parts
        flat = signatures(call for share in shares for call in share)
        assert sorted(map(repr, flat)) == sorted(map(repr, every))
        owners = {}
        for i, share in enumerate(shares):
            for kern, _ in share:
                assert owners.setdefault(kern, i) == i, kern
        # about even by compile time: apart by at most the heaviest kernel's signatures
        loads = [sum(k.COMPILE_SECONDS.get(kern.__name__, 1.0) for kern, _ in share) for share in shares]
        biggest = max(sum(k.COMPILE_SECONDS.get(kern.__name__, 1.0) for kern2, _ in every if kern2 is kern)
                      for kern, _ in every)
        assert max(loads) - min(loads) <= biggest + 1e-9
    assert set(k.COMPILE_SECONDS) == set(k.kernels_by_name()), "every kernel weighed, no stale name"
    # the weights decide: a share of the one heavy kernel against the rest, not an even count
    heavy = {kern for kern, _ in k._warm_calls() if k.COMPILE_SECONDS[kern.__name__] >= 9}
    shares = k.warm_parts(2)
    assert sum(any(kern in heavy for kern, _ in share) for share in shares) == len(heavy) == 2
    for part, parts in ((0, 0), (2, 2), (-1, 2), (True, 2), (0, 1.0)):
        with pytest.raises(gs.ArgumentError, match="warm_up: part"):
            backends.warm_up(part, parts)
    with pytest.raises(gs.ArgumentError, match=r"warm_up: common must be True or False \(got 'no'\)"):
        backends.warm_up(0, 1, (), "no")


def test_warm_up_compiles_listed_signatures_in_the_owning_share():
    # .ci/run warms up the suite's own signatures (.ci/numba-signatures.txt): each line parses back to the
    # numba types it was written from, names a kernel that exists with as many parameters (a stale line stops
    # the warm-up), and goes to the share of its kernel (one process per kernel's cache index); bad lines are
    # refused naming the line
    pytest.importorskip("numba")
    from numba.core import types

    from gatherscatter.backends import numba_kernels as k

    lines = (ROOT / ".ci" / "numba-signatures.txt").read_text().splitlines()
    listed = [x for x in lines if x.strip() and not x.startswith("#")]
    assert len(listed) >= 60 and len(set(listed)) == len(listed)
    names = k.kernels_by_name()
    for line in listed:
        name, sig = line.split(": ", 1)
        assert name in names, line
        assert repr(tuple(k.parse_signature(sig))) == sig
        assert len(k.parse_signature(sig)) == names[name].py_func.__code__.co_argcount, line
    ro = k.parse_signature("(Array(uint8, 2, 'C', True, aligned=True), int64, bool)")
    assert ro == (types.Array(types.uint8, 2, "C", readonly=True), types.int64, types.boolean)
    jobs = k._jobs(["# a comment", "", "no_such_kernel: (int64,)", f"gather_rows: {ro!r}"])
    warm = k._warm_calls()
    assert len(jobs) == len(warm) + 1 and [j[0] for j in jobs[:-1]] == [w[0] for w in warm]
    assert jobs[-1] == (k.gather_rows, ro)
    assert k._jobs(["# a comment", f"gather_rows: {ro!r}"], common=False) == [(k.gather_rows, ro)]
    for parts in (1, 2, 3):
        only = k.warm_parts(parts, [f"gather_rows: {ro!r}"], common=False)
        assert [job for share in only for job in share] == [(k.gather_rows, ro)]
        shares = k.warm_parts(parts, [f"gather_rows: {ro!r}"])
        owner = [i for i, share in enumerate(shares) if any(kern is k.gather_rows for kern, _ in share)]
        assert len(owner) == 1 and (k.gather_rows, ro) in shares[owner[0]]
    for bad in ("(Array(uint8, 2, 'C'), __import__('os'))", "(1, 2)", "int64"):
        with pytest.raises(gs.ArgumentError, match="warm_up: signature"):
            k.parse_signature(bad)


def test_warm_up_of_a_signature_compiles_it_without_calling():
    # a listed signature is compiled (numba's compile, cached), not run: afterwards the kernel has it
    pytest.importorskip("numba")
    from gatherscatter.backends import numba_kernels as k

    sig = "(Array(uint8, 1, 'C', False, aligned=True), Array(uint8, 1, 'C', True, aligned=True), bool)"  # as launched
    before = {name: len(kern.signatures) for name, kern in k.kernels_by_name().items()}
    k.warm_up(0, 1, [f"copy_blocks_1: {sig}"], common=False)  # that line only: no common signature compiled
    assert sig in {repr(s) for s in k.copy_blocks_1.signatures}
    grew = {name for name, kern in k.kernels_by_name().items() if len(kern.signatures) > before[name]}
    assert grew <= {"copy_blocks_1"}
    assert f"copy_blocks_1: {sig}" in k.signature_lines()


def test_kernels_read_their_inputs_read_only_one_signature_either_way():
    # numba types a read-only array apart from a writeable one: launch passes each array a kernel only reads as
    # a read-only view, so callers with writeable and with read-only arrays run one compiled signature; the
    # caller's arrays keep their flags and bytes, and the kernel writes its output as before
    from gatherscatter.backends import numba_kernels as k

    assert set(k.READS) == set(k.kernels_by_name().values())
    x = RNG.random((4096, 64)).astype(np.float32)
    i = RNG.integers(-4096, 4096, 30000)
    xr, ir = x.copy(), i.copy()
    xr.flags.writeable = ir.flags.writeable = False
    forms = (k.gather_rows, k.SERIAL[k.gather_rows])
    # one thread: with more, the tuner may run the two calls on different forms (a first signature of the other)
    with using_backend("numba"), using_threads(1):
        want = gs.onnx.Gather(x, i, axis=0)
        seen = {kern: set(kern.overloads) for kern in forms}
        got = gs.onnx.Gather(xr, ir, axis=0)
        assert {kern: set(kern.overloads) for kern in forms} == seen, "a second signature for read-only inputs"
    assert got.tobytes() == want.tobytes() == x[i].tobytes()
    assert x.flags.writeable and i.flags.writeable and not xr.flags.writeable and not ir.flags.writeable
    ran = [sig for kern in forms for sig in seen[kern] if sig[0].dtype == k.types.uint32 and sig[0].ndim == 2
           and not isinstance(sig[3], k.types.Literal)]  # not gather_nd's own call (its rows, a constant wrap)
    assert ran and all(not sig[0].mutable and not sig[1].mutable and sig[2].mutable for sig in ran)
    # frozen itself: writeable inputs become read-only views (the caller's array untouched), read-only ones and
    # outputs pass as they are, other arguments as given
    out = np.zeros((3, 64), np.float32)
    args = (x, i[:3], out, True, False)
    got_args = k.frozen(k.gather_rows, args)
    assert got_args[0] is not x and np.shares_memory(got_args[0], x) and not got_args[0].flags.writeable
    assert not got_args[1].flags.writeable and got_args[2] is out and got_args[3:] == (True, False)
    again = k.frozen(k.gather_rows, (xr, ir, out, True, False))
    assert x.flags.writeable and again[0] is xr and again[1] is ir
