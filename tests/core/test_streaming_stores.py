"""Streaming (non-temporal) stores: the copy of data in large scatters, the rows of large row gathers.

Large copies write their destination with streaming stores (``numba_kernels._stream_span``): the bytes before
the destination's first aligned vector and after its last whole one are a ``memcpy``, the rest vector stores
(whole groups of four pages interleaved first).
Each case's expected bytes come from NumPy slicing or a plain loop, never from the kernels; the paths are
forced at small sizes (``STREAM_BYTES`` patched to 0) and checked to be the ones taken.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter import backends
from gatherscatter.backends import pool
from tests.conftest import has, using_backend

pytestmark = pytest.mark.skipif(not has("numba"), reason="numba not installed")

RNG = np.random.default_rng(20261127)


@pytest.fixture(scope="module")
def copy_span():
    import numba as nb

    from gatherscatter.backends import numba_kernels as k

    @nb.njit
    def run(dst, at, src, start, count):  # pragma: no cover - compiled
        k._stream(dst, at, src, start, count)
        k._fence()

    return run


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_stream_span_copies_exactly_that_span(copy_span, dtype):
    # every alignment of the destination's start (the memcpy head), counts below, at and above a vector, tails
    # of every length; nothing before or after the span written; the source untouched
    item = np.dtype(dtype).itemsize
    vec = backends.STREAM_VECTOR // item
    src = RNG.integers(0, np.iinfo(dtype).max, 8 * vec + 64, dtype=dtype, endpoint=True)
    keep = src.copy()
    for at in range(0, vec + 2):
        for start in (0, 1, vec - 1):
            for count in (0, 1, vec - 1, vec, vec + 1, 3 * vec + 5, 4 * vec):
                dst = np.full((src.size + 2 * vec) * item, 0xA5, np.uint8).view(dtype)
                expected = dst.copy()
                expected[at : at + count] = src[start : start + count]
                copy_span(dst, at, src, start, count)
                assert dst.tobytes() == expected.tobytes(), (at, start, count)
    assert src.tobytes() == keep.tobytes()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64])
def test_stream_span_page_groups(copy_span, dtype):
    # spans of whole groups of interleaved pages (4 x 4 KiB) and around them: one byte short of a group, one
    # group, a group and a vector, two groups and a ragged tail; each from several misaligned starts
    from gatherscatter.backends import numba_kernels as k

    item = np.dtype(dtype).itemsize
    group = k._STREAM_PAGES * k._STREAM_PAGE // item
    vec = backends.STREAM_VECTOR // item
    src = RNG.integers(0, np.iinfo(dtype).max, 3 * group + 4 * vec, dtype=dtype, endpoint=True)
    keep = src.copy()
    for count in (group - 1, group, group + vec, 2 * group + 3, 3 * group):
        for at, start in ((0, 0), (1, 0), (vec - 1, 5), (3, vec + 1)):
            dst = np.full(src.size + 2 * vec, 0x5A, dtype)
            expected = dst.copy()
            expected[at : at + count] = src[start : start + count]
            copy_span(dst, at, src, start, count)
            assert dst.tobytes() == expected.tobytes(), (count, at, start)
    assert src.tobytes() == keep.tobytes()


def test_stream_span_on_two_dimensional_rows(copy_span):
    # flat offsets into C-contiguous 2-D arrays (as the row gathers call it): row 3 of data into row 1 of out
    data = RNG.integers(0, 2**32, (5, 24), dtype=np.uint64).astype(np.uint32)
    out = np.zeros((4, 24), np.uint32)
    copy_span(out, 1 * 24, data, 3 * 24, 24)
    expected = np.zeros_like(out)
    expected[1] = data[3]
    assert out.tobytes() == expected.tobytes()


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_copy_blocks_stream_equals_the_source(form):
    from gatherscatter.backends import numba_kernels as k

    kern = k.launched(k.SERIAL[k.copy_blocks] if form == "serial" else k.copy_blocks)
    for n in (0, 1, 7, (1 << 16) + 3, (1 << 17) * 3 + 11):  # several 256 KiB blocks, a ragged last one
        src = RNG.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
        for off in (0, 1, 3):  # destinations that start off the vector grid
            raw = np.zeros(n + off, np.uint32)
            kern(raw[off:], src, True)
            assert raw[off:].tobytes() == src.tobytes() and not raw[:off].any()


@pytest.mark.parametrize("form", ["parallel", "serial"])
def test_row_gather_kernels_stream_equal_a_loop(form):
    from gatherscatter.backends import numba_kernels as k

    rows_k = k.launched(k.SERIAL[k.gather_rows] if form == "serial" else k.gather_rows)
    mid_k = k.launched(k.SERIAL[k.gather_mid] if form == "serial" else k.gather_mid)
    for n, r in ((300, 64), (50, 5), (7, 1), (2000, 8), (20, 600)):
        data = RNG.integers(0, 2**32, (n, r), dtype=np.uint64).astype(np.uint32)
        rows = RNG.integers(-n, n, 3 * n + 1)
        expected = np.stack([data[int(t) % n] for t in rows])
        for stream in (False, True):
            out = np.zeros((rows.size, r), np.uint32)
            assert rows_k(data, rows, out, True, stream) == 0
            assert out.tobytes() == expected.tobytes(), (n, r, stream)
        bad = rows.copy()
        bad[-1] = n
        assert rows_k(data, bad, np.zeros((rows.size, r), np.uint32), True, True) == 1
    for p, s, r, m in ((9, 30, 24, 40), (2, 30, 16, 50), (12, 5, 7, 3)):
        data = RNG.integers(0, 2**63, (p, s, r), dtype=np.uint64)
        idx = RNG.integers(-s, s, m)
        expected = np.stack([[data[i, int(t) % s] for t in idx] for i in range(p)])
        for stream in (False, True):
            out = np.zeros((p, m, r), np.uint64)
            assert mid_k(data, idx, out, True, stream) == 0
            assert out.tobytes() == expected.tobytes(), (p, s, r, m, stream)


def test_streams_rule(monkeypatch):
    from gatherscatter.core import accel

    monkeypatch.setattr(accel, "STREAM_BYTES", 1 << 14)
    rows = np.zeros((16, 512), np.float32)  # 32 KiB in rows of 2 KiB
    assert accel._streams(rows, 512)
    assert not accel._streams(rows, 511)  # rows under STREAM_ROW_BYTES
    assert not accel._streams(rows[:7], 512)  # an output under STREAM_BYTES
    assert accel._streams(np.zeros((2, 2048), np.float64), 256)  # 2 KiB of float64
    assert backends.STREAM_VECTOR % 16 == 0 and pool.ALIGN % backends.STREAM_VECTOR == 0


def _spy_streams(monkeypatch, stream_bytes=0):
    """Patch STREAM_BYTES (0: every copy and row gather streams) and record each kernel launch's stream flag."""
    from gatherscatter.core import accel

    monkeypatch.setattr(accel, "STREAM_BYTES", stream_bytes)
    seen: list[tuple[str, bool]] = []
    real = accel.launch

    def launch(kernel, *args, **kw):
        name = getattr(kernel, "__name__", str(kernel))
        if name in ("copy_blocks", "gather_rows", "gather_mid"):
            seen.append((name, bool(args[-1])))
        elif name == "put_rows":
            seen.append((name, False))  # it has no streaming form
        return real(kernel, *args, **kw)

    monkeypatch.setattr(accel, "launch", launch)
    return seen


def _np_take_rows(data, idx, axis):
    return np.take(data, np.where(idx < 0, idx + data.shape[axis], idx), axis=axis)


def test_streaming_gathers_end_to_end(monkeypatch):
    seen = _spy_streams(monkeypatch)
    data = RNG.standard_normal((5000, 600)).astype(np.float32)  # rows of 2400 B
    idx = RNG.integers(-5000, 5000, 2000)
    with using_backend("numba"):
        got = gs.onnx.Gather(data, idx, axis=0)
        mid = RNG.standard_normal((9, 300, 520)).astype(np.float32)
        i2 = RNG.integers(-300, 300, 700)
        got_mid = gs.onnx.Gather(mid, i2, axis=1)
        nd = RNG.integers(0, 5000, (3000, 1))
        got_nd = gs.onnx.GatherND(data, nd)
        bad = idx.copy()
        bad[1234] = 5000
        with pytest.raises(gs.IndexOutOfRangeError, match="1234"):
            gs.onnx.Gather(data, bad, axis=0)
    assert got.tobytes() == _np_take_rows(data, idx, 0).tobytes()
    assert got_mid.tobytes() == _np_take_rows(mid, i2, 1).tobytes()
    assert got_nd.tobytes() == data[nd[:, 0]].tobytes()
    assert ("gather_rows", True) in seen and ("gather_mid", True) in seen


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8])
def test_streaming_scatters_end_to_end(monkeypatch, dtype):
    seen = _spy_streams(monkeypatch)
    data = (RNG.standard_normal((70000, 64)) * 40).astype(dtype)  # > 4 MiB of float32: the block copy
    keep = data.copy()
    idx = RNG.integers(-70000, 70000, (3000, 1))
    idx[2999] = idx[5]  # a duplicate: the last wins
    upd = (RNG.standard_normal((3000, 64)) * 40).astype(dtype)
    expected = data.copy()
    for i in range(3000):
        expected[int(idx[i, 0]) % 70000] = upd[i]
    added = data.copy()
    for i in range(3000):
        added[int(idx[i, 0]) % 70000] += upd[i]
    with using_backend("numba"):
        got = gs.onnx.ScatterND(data, idx, upd)
        got_add = gs.onnx.ScatterND(data, idx, upd, reduction="add")
    assert got.tobytes() == expected.tobytes()
    assert got_add.tobytes() == added.tobytes()
    assert data.tobytes() == keep.tobytes()
    # a streaming copy of data, then the scatter: never the one pass (put_rows), which has no streaming form
    assert ("copy_blocks", True) in seen and not any(name == "put_rows" for name, _ in seen)


def test_the_one_pass_row_scatter_runs_below_a_streaming_copy_only(monkeypatch):
    # ScatterND without reduction into a fresh output: one pass (put_rows) while data's copy would not stream,
    # a streaming copy and then the scatter from there; the same bits either way
    data = RNG.standard_normal((20000, 64)).astype(np.float32)  # 5 MiB: copied on the kernels
    idx = RNG.integers(-20000, 20000, (3000, 1))
    upd = RNG.standard_normal((3000, 64)).astype(np.float32)
    expected = data.copy()
    for i in range(3000):
        expected[int(idx[i, 0]) % 20000] = upd[i]
    for limit, one_pass in ((data.nbytes + 1, True), (data.nbytes, False)):
        seen = _spy_streams(monkeypatch, limit)
        with using_backend("numba"):
            got = gs.onnx.ScatterND(data, idx, upd)
        assert got.tobytes() == expected.tobytes()
        names = [name for name, _ in seen]
        assert ("put_rows" in names) == one_pass and ("copy_blocks" in names) == (not one_pass), names


def test_stream_bytes_is_half_the_last_cache_within_bounds():
    assert backends._stream_bytes(32 << 20) == 16 << 20  # an AMD EPYC VM's L3
    assert backends._stream_bytes(480 << 20) == 32 << 20  # an Intel Xeon VM's 480 MiB L3: capped
    assert backends._stream_bytes(64 << 20) == 32 << 20
    assert backends._stream_bytes(1 << 20) == 1 << 20  # never under 1 MiB
    assert backends.STREAM_BYTES <= backends.STREAM_CAP == 32 << 20


def test_cpu_vendor_and_prefetch_lines(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n")
    assert backends._cpu_vendor(str(info)) == "GenuineIntel"
    assert backends._prefetch_lines("GenuineIntel") == 0  # no software prefetch
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\n")
    assert backends._cpu_vendor(str(info)) == "AuthenticAMD"
    assert backends._prefetch_lines("AuthenticAMD") == 4 and backends._prefetch_lines("") == 4
    info.write_text("processor\t: 0\n")  # no vendor line (e.g. some ARM kernels)
    assert backends._cpu_vendor(str(info)) == ""
    assert backends._cpu_vendor(str(tmp_path / "missing")) == ""
    assert backends._prefetch_lines(backends._cpu_vendor()) == backends.PREFETCH_LINES
