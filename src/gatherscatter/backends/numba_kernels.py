"""numba kernels for the accelerated path (imported only when numba is installed and used).

Kernels take int64 indices either already resolved by the core (in range) or
*raw*: then a negative index is wrapped (``wrap=True``) and every index that is
still outside ``[0, size)`` is counted and never dereferenced; a kernel that
returns a nonzero count has produced no usable result, and the core re-runs the
call on its resolving path (which raises, or applies the fill/drop/clip policy).
Scatters count the same way in their own loop (the check fused into the pass that
writes): their output is then half-written, so the core hands them raw indices
only for an output of its own, which it discards or rewrites; into a caller's
array (``out=``, in place) it checks first (:func:`count_bad`, one pass before any
write). Each kernel reproduces the NumPy path bit for bit:

* gathers copy bits (data viewed as unsigned integers of its item size);
* scatters are *owner-computes*: each thread owns a block of output rows (or of
  inner columns) and scans every update in row-major order, so duplicates resolve
  and floating sums accumulate in exactly the sequential order, with no atomics;
  the out-of-place row scatter without reduction (:func:`put_rows`) first finds each
  row's last update in order, then writes every output row once.

``add`` and ``none`` scatter loops are specialised (the op a constant, no switch
per element); the other reductions share a loop with a run-time op code, which
keeps the compile time down. Row gathers prefetch the source row :data:`PREFETCH` rows ahead (random row reads
are latency-bound). Large copies (``stream``: the copy of ``data`` in scatters, long rows of row gathers) write
with streaming stores (:func:`_stream_span`), chosen by the core (``core.accel``).
"""

from __future__ import annotations

import types as _pytypes
from collections.abc import Iterable
from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # llvmlite ships no type hints
from numba.core import cgutils as _cgutils
from numba.core import types
from numba.extending import intrinsic

from . import LINE_BYTES, PREFETCH_LINES, STREAM_VECTOR

__all__ = [
    "OPS",
    "SERIAL",
    "copy_blocks",
    "count_bad",
    "gather_elements2",
    "gather_elements3",
    "gather_mid",
    "gather_nd",
    "gather_rows",
    "nd_rows",
    "put_rows",
    "scatter_elements2",
    "scatter_elements3",
    "scatter_rows",
]

NONE, ADD, SUB, MUL, MAX, MIN = 0, 1, 2, 3, 4, 5
OPS = {"none": NONE, "add": ADD, "sub": SUB, "mul": MUL, "max": MAX, "min": MIN, "mean": ADD}
PREFETCH = 16
"""Rows ahead whose first cache lines a row gather prefetches (:func:`gather_rows`)."""
ROW_BLOCKS = 256
"""Blocks of rows a parallel kernel splits its rows in where a task carries state from row to row
(:func:`gather_elements2`): enough for the thread pool to balance up to dozens of threads."""
_SERIAL_FORM = False
"""True in the globals of the serial forms (:func:`_serial`), a compile-time constant: there row copies are
element loops, which measured 3x faster than slice assignment without ``parallel``; with it, slice
assignment measured 1.3-3x faster than the loops (a 2-vCPU VM, rows of 256 words). Long 1-D copies
(:func:`copy_blocks`) are ``memcpy`` calls in both forms (:func:`_memcpy_span`)."""

cgutils: Any = _cgutils  # untyped numba internals used by the intrinsic below

_OPTS: dict[str, Any] = {"parallel": True, "cache": True, "nogil": True, "boundscheck": False}
_CALLS: dict[str, Any] = {**_OPTS, "parallel": False}
"""A composite kernel's options (:data:`COMPOSITE`): its parallel loops are the kernels it calls."""


def _prefetch_line(context: Any, builder: Any, aryty: Any, ary_value: Any, inds: list[Any]) -> None:  # pragma: no cover
    """Emit a prefetch (read, high locality) of the cache line holding element ``inds`` of an array argument."""
    ary = context.make_array(aryty)(context, builder, ary_value)
    ptr = cgutils.get_item_pointer2(
        context,
        builder,
        data=ary.data,
        shape=cgutils.unpack_tuple(builder, ary.shape),
        strides=cgutils.unpack_tuple(builder, ary.strides),
        layout=aryty.layout,
        inds=inds,
        wraparound=False,
    )
    i8p = ir.IntType(8).as_pointer()
    i32 = ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
    builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])


@intrinsic
def _prefetch_row(typingctx: Any, arr: Any, i: Any) -> Any:  # pragma: no cover - compiled
    """Prefetch the first cache line of row ``i`` of a 2-D array (no fault, no effect on results)."""
    sig = types.void(arr, i)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        _prefetch_line(context, builder, sig.args[0], args[0], [args[1], context.get_constant(types.intp, 0)])
        return context.get_dummy_value()

    return sig, codegen


_prefetch: Any = _prefetch_row  # called from kernels as _prefetch(arr, i)


@intrinsic
def _prefetch_elem(typingctx: Any, arr: Any, i: Any, j: Any) -> Any:  # pragma: no cover - compiled
    """Prefetch the cache line of element ``(i, j)`` of a 2-D array (no fault, no effect on results)."""
    sig = types.void(arr, i, j)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        _prefetch_line(context, builder, sig.args[0], args[0], [args[1], args[2]])
        return context.get_dummy_value()

    return sig, codegen


_prefetch_at: Any = _prefetch_elem  # called from kernels as _prefetch_at(arr, i, j)


@intrinsic
def _keep_value(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled
    """Mark ``x`` as used (an empty ``asm`` statement that takes it), so the loads that computed it are kept:
    the optimiser may not drop a loop whose only purpose is to bring lines into cache (:func:`_touch_row`)."""
    sig = types.void(x)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        builder.asm(ir.FunctionType(ir.VoidType(), [args[0].type]), "", "r", [args[0]], side_effect=True)
        return context.get_dummy_value()

    return sig, codegen


_keep: Any = _keep_value  # called from kernels as _keep(value)


def _span(context: Any, builder: Any, sig: Any, args: Any) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """The byte pointers and byte count of a span copy's arguments ``(dst, at, src, start, count)``."""
    d = context.make_array(sig.args[0])(context, builder, args[0])
    s = context.make_array(sig.args[2])(context, builder, args[2])
    at, start, count = (context.cast(builder, args[i], sig.args[i], types.intp) for i in (1, 3, 4))
    item = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype)))
    i8p = ir.IntType(8).as_pointer()
    dp = builder.bitcast(builder.gep(d.data, [at]), i8p)
    sp = builder.bitcast(builder.gep(s.data, [start]), i8p)
    return dp, sp, builder.mul(count, item)


@intrinsic
def _memcpy_span(typingctx: Any, dst: Any, at: Any, src: Any, start: Any, count: Any) -> Any:  # pragma: no cover
    """dst[at : at + count] = src[start : start + count] for 1-D C-contiguous arrays of one dtype, as one
    ``memcpy`` (LLVM's intrinsic: the C library's copy); the spans must not overlap. numba's slice assignment
    copies element by element: a 256 MB copy in 256 KiB blocks took 25.7 ms, against 20.1 ms as ``memcpy``
    calls (one thread, a 2-vCPU VM)."""
    ok = all(isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" for a in (dst, src))
    if not ok or dst.dtype != src.dtype:
        return None
    sig = types.void(dst, at, src, start, count)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        dp, sp, nbytes = _span(context, builder, sig, args)
        cgutils.raw_memcpy(builder, dp, sp, nbytes, 1)
        return context.get_dummy_value()

    return sig, codegen


_memcpy: Any = _memcpy_span  # called from kernels as _memcpy(dst, at, src, start, count)

STREAM_BLOCK = 1 << 18
"""Bytes of output a row gather with streaming stores writes between two fences (:func:`gather_rows`)."""


_STREAM_PAGE = 4096
"""Bytes of a page, for :func:`_stream_span`'s interleaved groups."""
_STREAM_PAGES = 4
"""Pages a streaming copy interleaves (:func:`_stream_span`), as glibc's ``large_memcpy_4x``. One thread, the Intel
Xeon VM (session 24), copies into a recycled output against one vector at a time: 256 MiB 26.4 -> 22.7 ms
(``np.copyto``, glibc's own non-temporal copy there: 22.7 ms), 128 MiB 13.7 -> 11.4 ms, 16 MiB 1.57 -> 1.38 ms;
two pages and software prefetches measured the same, 64-byte vectors 2-5% slower."""
_STREAM_SET = 4
"""Vectors loaded from each page of a group before they are stored (:func:`_stream_span`)."""


@intrinsic
def _stream_span(typingctx: Any, dst: Any, at: Any, src: Any, start: Any, count: Any) -> Any:  # pragma: no cover
    """``dst.flat[at : at + count] = src.flat[start : start + count]`` with non-temporal (streaming) stores, for
    C-contiguous arrays of one dtype (the caller guarantees contiguity; any ndim): the bytes before the first
    :data:`STREAM_VECTOR`-aligned address of the destination and after its last whole vector are a ``memcpy``,
    the rest vector loads and streaming stores. A streaming store writes a whole cache line
    without reading it first (a plain store reads the line, then writes it back: 3 bytes of memory traffic per
    byte copied instead of 2). Streaming stores are weakly ordered: a task ends its copies with :func:`_fence`
    before another thread (or the caller) reads ``dst``. The spans must not overlap.

    From the aligned start, whole groups of :data:`_STREAM_PAGES` pages go first, interleaved as glibc's
    ``memcpy`` does above its non-temporal threshold (``large_memcpy_4x``): each step loads
    :data:`_STREAM_SET` vectors from each of the group's pages, then stores them; the rest is one vector at
    a time."""
    ok = all(isinstance(a, types.Array) for a in (dst, src))
    if not ok or dst.dtype != src.dtype:
        return None
    sig = types.void(dst, at, src, start, count)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        dp, sp, nbytes = _span(context, builder, sig, args)
        intp = context.get_value_type(types.intp)
        vec = intp(STREAM_VECTOR)
        head = builder.and_(builder.neg(builder.ptrtoint(dp, intp)), intp(STREAM_VECTOR - 1))
        head = builder.select(builder.icmp_unsigned("<", nbytes, head), nbytes, head)
        cgutils.raw_memcpy(builder, dp, sp, head, 1)
        vp = ir.VectorType(ir.IntType(8), STREAM_VECTOR).as_pointer()
        nontemporal = builder.module.add_metadata([ir.IntType(32)(1)])
        group = _STREAM_PAGES * _STREAM_PAGE
        step = _STREAM_SET * STREAM_VECTOR
        groups = builder.udiv(builder.sub(nbytes, head), intp(group))
        with cgutils.for_range(builder, groups) as g:
            base = builder.add(head, builder.mul(g.index, intp(group)))
            with cgutils.for_range(builder, intp(_STREAM_PAGE // step)) as it:
                at = builder.add(base, builder.mul(it.index, intp(step)))
                offs = [builder.add(at, intp(p * _STREAM_PAGE + v * STREAM_VECTOR))
                        for p in range(_STREAM_PAGES) for v in range(_STREAM_SET)]
                vals = [builder.load(builder.bitcast(builder.gep(sp, [o]), vp), align=1) for o in offs]
                for o, v in zip(offs, vals, strict=True):
                    st = builder.store(v, builder.bitcast(builder.gep(dp, [o]), vp), align=STREAM_VECTOR)
                    st.set_metadata("nontemporal", nontemporal)
        head = builder.add(head, builder.mul(groups, intp(group)))
        nvec = builder.udiv(builder.sub(nbytes, head), vec)
        d0, s0 = builder.bitcast(builder.gep(dp, [head]), vp), builder.bitcast(builder.gep(sp, [head]), vp)
        with cgutils.for_range(builder, nvec) as loop:
            v = builder.load(builder.gep(s0, [loop.index]), align=1)
            st = builder.store(v, builder.gep(d0, [loop.index]), align=STREAM_VECTOR)
            st.set_metadata("nontemporal", nontemporal)
        done = builder.add(head, builder.mul(nvec, vec))
        cgutils.raw_memcpy(builder, builder.gep(dp, [done]), builder.gep(sp, [done]), builder.sub(nbytes, done), 1)
        return context.get_dummy_value()

    return sig, codegen


_stream: Any = _stream_span  # called from kernels as _stream(dst, at, src, start, count)


@intrinsic
def _store_fence(typingctx: Any) -> Any:  # pragma: no cover - compiled
    """A full memory fence (``mfence`` on x86): every streaming store before it is visible to every thread."""
    sig = types.void()

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return sig, codegen


_fence: Any = _store_fence  # called from kernels as _fence()


@nb.njit(inline="always")
def _norm(t: Any, size: Any, wrap: Any) -> Any:  # pragma: no cover - compiled
    """The index in [0, size), or -1 when it is outside under the policy."""
    if t < 0 and wrap:
        t += size
    if t < 0 or t >= size:
        return -1
    return t


@nb.njit(inline="always")
def _range_u(size: Any, wrap: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """``(lo, span)``: an index ``t`` is good when ``uint64(t) + lo < span``, one unsigned compare (``[-size, size)``
    with wrap, else ``[0, size)``; a negative ``t`` below ``-lo`` is a huge unsigned number)."""
    lo = np.uint64(size if wrap else 0)
    return lo, lo + np.uint64(size)


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def copy_blocks(dst: Any, src: Any, stream: bool) -> None:  # pragma: no cover - compiled
    """dst[:] = src[:] (1-D, C-contiguous) in 256 KiB blocks, each a ``memcpy`` (or, with ``stream``, a copy with
    streaming stores: :func:`_stream_span`): a fresh destination's page faults interleave with the copy. One
    thread, a 2-vCPU VM: 1.2-1.3x faster than numba's slice assignment (element by element), which is itself 3x
    faster than a blocked element loop (not vectorised)."""
    n = src.shape[0]
    blk = (1 << 18) // src.itemsize
    for b in nb.prange((n + blk - 1) // blk):
        lo = b * blk
        hi = min(n, lo + blk)
        if stream:
            _stream(dst, lo, src, lo, hi - lo)
            _fence()
        else:
            _memcpy(dst, lo, src, lo, hi - lo)


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def count_bad(idx: Any, size: int, wrap: bool) -> int:  # pragma: no cover - compiled
    """How many of the (1-D) raw indices fall outside [0, size) (after wrapping negatives).

    One unsigned compare per index, as :func:`_clamp`: ``t + lo`` (``lo`` = size with wrap, else 0) outside
    ``[0, lo + size)`` as an unsigned number (a negative ``t`` below ``-lo`` is a huge one). Branch-free: 1M
    indices in cache took 0.10 ms against 0.19 ms with the signed, branching form (one thread).
    """
    lo, span = _range_u(size, wrap)
    bad = 0
    for i in nb.prange(idx.shape[0]):
        bad += (np.uint64(idx[i]) + lo) >= span
    return bad


@nb.njit(inline="always")
def _tuple_row(idx: Any, b: int, m: int, sizes: Any, wrap: bool) -> int:  # pragma: no cover - compiled
    """Row-major offset of the tuple idx[b, m, :] in ``sizes``, or -1 when a component is bad."""
    off = 0
    for j in range(idx.shape[2]):
        t = idx[b, m, j]
        s = sizes[j]
        if t < 0 and wrap:
            t += s
        if t < 0 or t >= s:
            return -1
        off = off * s + t
    return off


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def nd_rows(idx: Any, sizes: Any, block: int, wrap: bool, rows: Any) -> int:  # pragma: no cover - compiled
    """rows[b, m] = b * block + the row-major offset of the tuple idx[b, m, :] in ``sizes``; returns bad count."""
    b_n, m_n, _ = idx.shape
    bad = 0
    if b_n == 1:
        for m in nb.prange(m_n):
            off = _tuple_row(idx, 0, m, sizes, wrap)
            if off < 0:
                bad += 1
                off = 0
            rows[0, m] = off
    else:
        for b in nb.prange(b_n):
            row_bad = 0
            for m in range(m_n):
                off = _tuple_row(idx, b, m, sizes, wrap)
                if off < 0:
                    row_bad += 1
                    off = 0
                rows[b, m] = b * block + off
            bad += row_bad
    return bad


@nb.njit(inline="always")
def _clamp(t: Any, size: Any, wrap: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """(index to read, as uint64; 0 or 1 for bad): branch-free, a bad index reads element 0.

    One unsigned compare (a negative index is a huge unsigned one). The signed form
    (``(t >= 0) & (t < size)`` on int64) compiled to loops 1.1-2.8x slower: the serial form of a gather of
    4M single elements took 49-56 ms against 22-23 ms, and GatherElements' parallel form on 2 threads
    1.4-1.7x onnxruntime's time against 0.7-0.9x (interleaved rounds, a 2-vCPU VM).
    """
    if wrap and t < 0:
        t += size
    u = np.uint64(t)
    ok = u < np.uint64(size)
    return (u if ok else np.uint64(0)), (0 if ok else 1)


TOUCH_MIN_BYTES = 4096
"""Rows shorter than this are not touched first (:func:`gather_elements2`): the pass measured no gain on rows of
64-256 float32."""


@nb.njit(inline="always")
def _touch_row(data: Any, a: Any, step: Any) -> None:  # pragma: no cover - compiled
    """Read row ``a`` of ``data`` in order, one element per cache line (``step`` elements apart)."""
    s = data[a, 0]
    for k in range(step, data.shape[1], step):
        s ^= data[a, k]
    _keep(s)


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_rows(data: Any, rows: Any, out: Any, wrap: bool, stream: bool) -> int:  # pragma: no cover - compiled
    """out[i, :] = data[rows[i], :]  (data, out 2-D; raw rows against data.shape[0]); returns bad count.

    Rows of 128 words or more are copied as slice assignments (numba's vectorised
    copy measured fastest there), shorter ones by an element loop; rows of several
    words prefetch the row ``PREFETCH`` ahead (its first ``PREFETCH_LINES`` cache lines when the
    element loop copies it, its first otherwise; none when ``PREFETCH_LINES`` is 0, on Intel CPUs),
    single elements do not. With ``stream`` (rows of
    several words; ``data`` and ``out`` C-contiguous) each row is copied with streaming stores
    (:func:`_stream_span`), in blocks of rows that each end with a fence.
    """
    n = rows.shape[0]
    size = data.shape[0]
    r = data.shape[1]
    bad = 0
    if stream and r > 1:
        line = max(1, 64 // data.itemsize)
        last = min(r, PREFETCH_LINES * line) if r < 128 else line  # as below
        blk = max(1, STREAM_BLOCK // (r * out.itemsize))
        for b in nb.prange((n + blk - 1) // blk):
            for i in range(b * blk, min(n, b * blk + blk)):
                if PREFETCH_LINES and i + PREFETCH < n:
                    t = rows[i + PREFETCH]
                    if 0 <= t < size:
                        _prefetch(data, t)
                        for j in range(line, last, line):
                            _prefetch_at(data, t, j)
                s = _norm(rows[i], size, wrap)
                if s < 0:
                    bad += 1
                else:
                    _stream(out, i * r, data, s * r, r)
            _fence()
    elif r == 1:
        # single elements: branch-free check, no prefetch (measured slower there)
        for i in nb.prange(n):
            t, b = _clamp(rows[i], size, wrap)
            bad += b
            out[i, 0] = data[t, 0]
    else:
        wide = r >= 128  # loop-invariant: the compiler hoists the choice out of the loop
        # rows copied by the element loop (under 128 words) prefetch PREFETCH_LINES cache lines (backends: the CPU's
        # own prefetchers fetch the rest on some CPUs, not on others); wide rows stream on their own
        line = max(1, 64 // data.itemsize)
        last = min(r, PREFETCH_LINES * line) if r < 128 else line
        # (the prefetch written out in both loops: as an inlined helper, shared, the serial form took 1.04-1.29x
        # the time for rows of 256 B-1 KiB, session 21)
        for i in nb.prange(n):
            if PREFETCH_LINES and i + PREFETCH < n:
                t = rows[i + PREFETCH]
                if 0 <= t < size:
                    _prefetch(data, t)
                    for j in range(line, last, line):
                        _prefetch_at(data, t, j)
            s = _norm(rows[i], size, wrap)
            if s < 0:
                bad += 1
            elif wide and not _SERIAL_FORM:
                out[i, :] = data[s, :]
            else:
                for j in range(r):
                    out[i, j] = data[s, j]
    return bad


@nb.njit(**_CALLS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_nd(data: Any, idx: Any, out: Any, wrap: bool, stream: bool, sizes: Any) -> int:  # pragma: no cover
    """GatherND's row gather in one call: :func:`nd_rows` (each tuple of idx (B, M, K) to its row of data (B * T, R),
    T the product of ``sizes``), then, only when every tuple is good, :func:`gather_rows` into out (B * M, R);
    returns the count of bad tuples (nothing written then).

    One call where the core made two launches and the rows' scratch in Python: 35-45 µs per call (a 4 MB batched
    gather took 0.42 ms on one thread), and now a call plan's single launch. A composite (:data:`COMPOSITE`):
    compiled without ``parallel``, it calls the two kernels' parallel forms, and its serial form their serial
    forms. One pass instead (each tuple read where its row is copied) took 1.5-4x the time of the two for rows
    of 4-256 B over 64 MiB of data, 1.0x for 1 KiB rows: the rows computed first let the row loop keep many
    reads in flight.
    """
    b_n, m_n, _ = idx.shape
    rows = np.empty((b_n, m_n), np.int64)
    bad: int = nd_rows(idx, sizes, data.shape[0] // b_n if b_n else 0, wrap, rows)
    if not bad:  # every tuple good: their rows are in range, and gather_rows returns 0
        bad = gather_rows(data, rows.reshape(b_n * m_n), out, False, stream)
    return bad


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_mid(data: Any, idx: Any, out: Any, wrap: bool, stream: bool) -> int:  # pragma: no cover - compiled
    """out[p, m, :] = data[p, idx[m], :]  (data (P, S, R), out (P, M, R)); returns bad count (nothing written then).
    With ``stream`` (``data`` and ``out`` C-contiguous) whole output slabs are written with streaming stores
    (:func:`_stream_span`), each slab ending with a fence; tasks of single rows (fewer slabs than 8 and than
    indices) do not stream (a fence per few rows would wait on every one)."""
    p_n, size = data.shape[0], data.shape[1]
    m_n = idx.shape[0]
    bad = 0
    for m in range(m_n):  # M indices against P*M*R words moved: a serial check (no nested parallel launch)
        t = idx[m]
        if t < 0 and wrap:
            t += size
        if t < 0 or t >= size:
            bad += 1
    if bad:
        return bad
    if p_n >= 8 or p_n >= m_n:
        # whole output slabs per task: sequential writes, reads within one data slab
        r = data.shape[2]
        for p in nb.prange(p_n):
            for m in range(m_n):
                s = idx[m]
                if s < 0:
                    s += size
                if stream:
                    _stream(out, (p * m_n + m) * r, data, (p * size + s) * r, r)
                elif _SERIAL_FORM:  # a compile-time constant: see its docstring
                    for j in range(data.shape[2]):
                        out[p, m, j] = data[p, s, j]
                else:
                    out[p, m, :] = data[p, s, :]
            if stream:
                _fence()
    else:
        for m in nb.prange(m_n):
            s = idx[m]
            if s < 0:
                s += size
            for p in range(p_n):
                if _SERIAL_FORM:  # a compile-time constant: see its docstring
                    for j in range(data.shape[2]):
                        out[p, m, j] = data[p, s, j]
                else:
                    out[p, m, :] = data[p, s, :]
    return 0


_pointer: Any = types.CPointer  # untyped in numba
CHUNK = 128
"""Elements the serial form of :func:`gather_elements3` gathers into its stack buffer (:func:`_stack`) at a
time before copying them out: 128 and 256 measured alike (64-4096 tried, noisy), 1 KiB at most (8-byte items)."""


@intrinsic
def _stack(typingctx: Any, like: Any, n: Any) -> Any:  # pragma: no cover - compiled
    """A pointer to ``n`` (a literal) items of ``like``'s unsigned dtype on the kernel's stack (uninitialised).

    The function's own ``alloca`` (in its entry block: once per call, whatever loop calls this), viewed as an
    array with the public :func:`numba.carray`. LLVM knows that memory no argument can alias, so a loop that
    stores into it from ``data[t]`` vectorises (AVX-512 gathers) without the ``noalias`` attribute numba
    gives array arguments only inside parallel loops. Only llvmlite's IR builder, nothing of numba's internals.
    """
    dt: Any = like.dtype
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dt, types.Integer):
        return None
    count, bits = n.literal_value, like.dtype.bitwidth  # dt narrowed to Integer: no bitwidth in its stub

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        with builder.goto_entry_block():
            return builder.alloca(ir.IntType(bits), size=count)

    return _pointer(dt)(like, n), codegen


_stack_ptr: Any = _stack  # called from kernels as _carray(_stack_ptr(out, CHUNK), CHUNK)
_carray: Any = nb.carray  # type: ignore[attr-defined]  # public, not in numba's explicit exports


FIRST_SPAN = 64
"""Indices a row's first span holds (:func:`_elements_row`): a row that uses negative indices is found after
this many, and pays that many twice at most."""

SPAN = 512
"""Indices of each later span of a row (:func:`_elements_row`)."""


@nb.njit(inline="always")
def _gather_span(drow: Any, irow: Any, orow: Any, size: Any, wrap: Any) -> Any:  # pragma: no cover - compiled
    """orow[j] = drow[irow[j]] (branch-free, :func:`_clamp`; ``wrap`` a constant where inlined); bad count."""
    bad = 0
    for j in range(irow.shape[0]):
        t, b = _clamp(irow[j], size, wrap)
        bad += b
        orow[j] = drow[t]
    return bad


@nb.njit(inline="always")
def _elements_row(data: Any, idx: Any, out: Any, a: Any, wrap: Any, neg: Any) -> Any:  # pragma: no cover
    """out[a, j] = data[a, idx[a, j]] for one row; returns (bad count, ``neg``).

    The loop that wraps negative indices took 1.15-1.4x the time of the one that does not (ONNX and NumPy
    wrap; rows of 32 and 4096 indices into rows of 4096 float32, one thread, serial form), so spans run without
    it (a negative index counts as bad there) until one reports a bad index; with ``wrap`` that span is run
    again wrapping, and so is the rest of the task (``neg`` true: the caller passes it on to the task's next
    row). Exact either way: the second run writes every element of the span again. Spans of
    :data:`FIRST_SPAN`, then :data:`SPAN`; a row of :data:`FIRST_SPAN` or fewer indices is one span indexed in
    place (top-k rows of 32: views of each row took 1.8x the time of the row's gather).

    Measured against the kernel before (serial form, one thread, interleaved rounds, 256 and 4096 rows of
    4096 float32): 4096 indices a row, none negative, 0.73-0.88x its time; 32 a row (top-k) 0.74-0.77x; half
    the indices negative, or one a row at index 100 (a span run twice, once in each block), 0.98-1.02x.
    """
    m_n = idx.shape[1]
    size = data.shape[1]
    bad = 0
    if m_n <= FIRST_SPAN:  # a short row is one span, indexed in place (views cost more than the row)
        # the two loops written out: through an inlined helper they measured 1.1-1.5x slower (rows of 32)
        if not neg:
            for j in range(m_n):
                t, b = _clamp(idx[a, j], size, False)
                bad += b
                out[a, j] = data[a, t]
            neg = wrap and bad > 0
        if neg:
            bad = 0
            for j in range(m_n):
                t, b = _clamp(idx[a, j], size, True)
                bad += b
                out[a, j] = data[a, t]
        return bad, neg
    drow = data[a]
    j0 = 0
    j1 = min(m_n, FIRST_SPAN)
    while j0 < m_n:
        irow = idx[a, j0:j1]
        orow = out[a, j0:j1]
        j0 = j1
        j1 = min(m_n, j0 + SPAN)
        b = 0
        if not neg:
            b = _gather_span(drow, irow, orow, size, False)
            neg = wrap and b > 0
        if neg:
            b = _gather_span(drow, irow, orow, size, True)
        bad += b
    return bad, neg


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_elements2(data: Any, idx: Any, out: Any, wrap: bool) -> int:  # pragma: no cover - compiled
    """out[a, j] = data[a, idx[a, j]]  (the last-axis case: one row at a time, kept in cache); bad count.

    A branch-free loop (:func:`_clamp`: one unsigned compare; a bad index reads element 0), the same in both
    forms. Until session 10 the serial form gathered through a stack buffer (:func:`_stack`), which
    vectorised a loop whose signed bounds check did not; with the unsigned check the plain loop measured
    faster in both forms (interleaved rounds against onnxruntime, a 2-vCPU VM, rows of 4096, 64-4096 rows):
    the serial form 0.83-0.90x onnxruntime's time at one thread against 0.96-1.11x through the buffer and
    0.88-0.94x for the parallel form at one thread; the parallel form at two threads 0.37-0.92x against
    1.41-1.67x with the signed check (which vectorised to AVX-512 gathers that did not scale).

    Negative indices are wrapped only once a row shows one (:func:`_elements_row`). The rows are split in
    blocks, one per task (one block in the serial form), so that the wrapping loop, once needed, serves the
    rest of the block.

    A row that the indices will mostly cover (at least two indices per cache line of the row, and a row of
    ``TOUCH_MIN_BYTES`` or more) is first read in order, a load per line (:func:`_touch_row`): the hardware
    prefetcher streams it in, and the gather's random reads then hit the cache. Serial form, one thread,
    interleaved rounds against onnxruntime with caches flushed before each call (a 2-vCPU VM): rows of 4096
    float32 with 4096 indices 0.72-0.74x its time against 0.86-0.89x without the pass, 512 indices 0.65-0.67x
    against 0.88x, float64 0.56-0.58x against 0.72-0.73x, rows of 64Ki and 1Mi elements 0.87-0.91x against
    0.94-1.02x; one index per line (256 per row of 4096) was 0.95-0.97x against 0.90x, hence the two.
    """
    a_n, m_n = idx.shape
    size = data.shape[1]
    step = max(1, LINE_BYTES // data.itemsize)
    touch = m_n * step >= 2 * size and size * data.itemsize >= TOUCH_MIN_BYTES
    blocks = 1 if _SERIAL_FORM else min(a_n, ROW_BLOCKS)
    bad = 0
    for k in nb.prange(blocks):
        neg = False
        block_bad = 0
        for a in range(a_n * k // blocks, a_n * (k + 1) // blocks):
            if touch:
                _touch_row(data, a, step)
            b, neg = _elements_row(data, idx, out, a, wrap, neg)
            block_bad += b
        bad += block_bad
    return bad


@nb.njit(inline="always")
def _elements_line(data: Any, idx: Any, out: Any, a: Any, j: Any, size: Any, wrap: Any) -> Any:  # pragma: no cover
    """out[a, j, :] = data[a, idx[a, j, :], :] along the last axis; returns the bad count."""
    bad = 0
    for c in range(idx.shape[2]):
        t, b = _clamp(idx[a, j, c], size, wrap)
        bad += b
        out[a, j, c] = data[a, t, c]
    return bad


@nb.njit(inline="always")
def _elements_chunks(  # pragma: no cover - compiled
    data: Any, idx: Any, out: Any, a: Any, j: Any, size: Any, wrap: Any, buf: Any
) -> Any:
    """:func:`_elements_line` through the stack buffer ``buf`` (vectorises without ``noalias``: see
    :func:`_stack`); returns the bad count."""
    bad = 0
    c_n, w = idx.shape[2], buf.shape[0]
    for c0 in range(0, c_n, w):
        n = min(w, c_n - c0)
        irow, orow, cols = idx[a, j, c0 : c0 + n], out[a, j, c0 : c0 + n], data[a, :, c0 : c0 + n]
        for c in range(n):
            t, b = _clamp(irow[c], size, wrap)
            bad += b
            buf[c] = cols[t, c]
        for c in range(n):
            orow[c] = buf[c]
    return bad


SHORT_LINES = 16
"""The serial form of :func:`gather_elements3` takes the stack buffer for lines (the trailing size) of at least
this many elements; shorter ones keep the plain element loop."""


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def gather_elements3(data: Any, idx: Any, out: Any, wrap: bool) -> int:  # pragma: no cover - compiled
    """out[a, j, c] = data[a, idx[a, j, c], c]  (idx smaller than data on a and c is allowed); bad count.

    The serial form gathers lines of :data:`SHORT_LINES` or more elements through a stack buffer
    (:func:`_elements_chunks`), which vectorises as the parallel form's loop does (see :func:`_stack`).
    """
    a_n, m_n = idx.shape[0], idx.shape[1]
    size = data.shape[1]
    bad = 0
    if _SERIAL_FORM and idx.shape[2] >= SHORT_LINES:  # _SERIAL_FORM: a compile-time constant
        buf = _carray(_stack_ptr(out, CHUNK), CHUNK)
        for a in range(a_n):
            for j in range(m_n):
                bad += _elements_chunks(data, idx, out, a, j, size, wrap, buf)
        return bad
    if a_n >= 8:
        for a in nb.prange(a_n):
            row_bad = 0
            for j in range(m_n):
                row_bad += _elements_line(data, idx, out, a, j, size, wrap)
            bad += row_bad
    else:
        for j in nb.prange(m_n):
            row_bad = 0
            for a in range(a_n):
                row_bad += _elements_line(data, idx, out, a, j, size, wrap)
            bad += row_bad
    return bad


@nb.njit(inline="always")
def _combine(op: int, x: Any, u: Any) -> Any:  # pragma: no cover - compiled
    if op == NONE:
        return u
    if op == ADD:
        return x + u
    if op == SUB:
        return x - u
    if op == MUL:
        return x * u
    if op == MAX:
        # as np.maximum: a NaN x stays (x != x), a NaN u wins over a number (x > NaN is false), ties
        # (0.0 and -0.0) keep the update (x86-64 SIMD: the second operand); one select, no branch
        return x if (x > u) | (x != x) else u
    if u != u:
        return u
    if x != x:
        return x
    return x if x < u else u


@nb.njit(inline="always")
def _bad(t: Any, size: Any) -> Any:  # pragma: no cover - compiled
    """1 when the (wrapped) index ``t`` is outside [0, size), else 0: a value, not a branch (numba's
    parfor pass rejects a counter bumped in a branch of a loop inlined into a ``prange`` body)."""
    return 0 if (t >= 0) & (t < size) else 1


@nb.njit(inline="always")
def _rows_apply(out: Any, rows: Any, upd: Any, wrap: bool, op: int, lo: int, hi: int) -> Any:  # pragma: no cover
    """Rows in [lo, hi) of ``out`` get their updates, in order (inlined with a constant ``op``); returns how
    many rows are outside ``out`` (every block scans every row, so each block counts every bad one)."""
    n_rows = out.shape[0]
    r = out.shape[1]
    bad = 0
    if r == 1:  # a trip-count-1 inner loop costs up to 4x on element scatters
        for i in range(rows.shape[0]):
            t = rows[i]
            if t < 0 and wrap:
                t += n_rows
            if lo <= t < hi:
                out[t, 0] = _combine(op, out[t, 0], upd[i, 0])
            bad += _bad(t, n_rows)
        return bad
    for i in range(rows.shape[0]):
        t = rows[i]
        if t < 0 and wrap:
            t += n_rows
        if lo <= t < hi:
            for j in range(r):
                out[t, j] = _combine(op, out[t, j], upd[i, j])
        bad += _bad(t, n_rows)
    return bad


@nb.njit(inline="always")
def _elements_serial(o1: Any, rows: Any, u1: Any, wrap: bool, op: int) -> Any:  # pragma: no cover - compiled
    n = o1.shape[0]
    bad = 0
    for i in range(rows.shape[0]):
        t = rows[i]
        if t < 0 and wrap:
            t += n
        b = _bad(t, n)
        bad += b
        if not b:
            o1[t] = _combine(op, o1[t], u1[i])
    return bad


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_rows(out: Any, rows: Any, upd: Any, op: int, nthreads: int, wrap: bool) -> Any:  # pragma: no cover
    """out[rows[i], :] = f(out[rows[i], :], upd[i, :]) for i in order (owner computes by row block).

    ``rows`` are raw (a negative one wrapped when ``wrap``): returns nonzero when one is outside
    ``out``, which is then never written there but the other rows are (a half-written output).
    """
    n_rows = out.shape[0]
    if nthreads == 1 and out.shape[1] == 1:
        # element scatters on one thread: plain 1-D loops (1.7x faster than the blocked form)
        if op == ADD:
            return _elements_serial(out.reshape(n_rows), rows, upd.reshape(rows.shape[0]), wrap, ADD)
        if op == NONE:
            return _elements_serial(out.reshape(n_rows), rows, upd.reshape(rows.shape[0]), wrap, NONE)
        return _elements_serial(out.reshape(n_rows), rows, upd.reshape(rows.shape[0]), wrap, op)
    blocks = max(1, min(nthreads, n_rows))
    step = (n_rows + blocks - 1) // blocks
    bad = 0
    for b in nb.prange(blocks):
        lo = b * step
        hi = min(n_rows, lo + step)
        block_bad = 0
        if op == ADD:
            block_bad += _rows_apply(out, rows, upd, wrap, ADD, lo, hi)
        elif op == NONE:
            block_bad += _rows_apply(out, rows, upd, wrap, NONE, lo, hi)
        else:
            block_bad += _rows_apply(out, rows, upd, wrap, op, lo, hi)
        bad += block_bad
    return bad


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def put_rows(out: Any, data: Any, rows: Any, upd: Any, r: int, wrap: bool, last: Any) -> int:  # pragma: no cover
    """out = data, then out[rows[i], :] = upd[i, :] for i in order, in one pass over ``out`` (rows of ``r``
    words; ``out``, ``data``, ``upd`` flat 1-D, C-contiguous; ``last``: scratch of one int per row).

    First ``last[t]`` = the last update of row ``t`` (or -1), in update order: the last one wins, as in
    the sequential loop. Then each task copies a block of about 256 KiB of ``data`` (one ``memcpy``) and
    writes that block's updated rows from their last update while the block is in cache: one parallel
    region where a copy and a scatter took two. (Copying only the rows no update reaches, in runs between
    updated rows, measured 1.1-1.2x slower at one thread on the benchmark's rows of 1 KiB: the runs, 16 rows
    on average, are short copies.) The core takes it below the size of a streaming copy only
    (``core.accel._puts``): from there a streaming copy of the whole ``data``, then the rows, is faster.
    Returns the count of raw rows outside ``out`` (a negative one wrapped when ``wrap``): when it is
    nonzero nothing was written to ``out``.
    """
    n = last.shape[0]
    for t in range(n):
        last[t] = -1
    bad = 0
    for i in range(rows.shape[0]):
        t = rows[i]
        if t < 0 and wrap:
            t += n
        if (t >= 0) & (t < n):
            last[t] = i
        else:
            bad += 1
    if bad:
        return bad
    blk = max(1, (1 << 18) // max(1, r * out.itemsize))
    for b in nb.prange((n + blk - 1) // blk):
        lo = b * blk
        hi = min(n, lo + blk)
        _memcpy(out, lo * r, data, lo * r, (hi - lo) * r)
        for t in range(lo, hi):
            s = last[t]
            if s >= 0:
                _memcpy(out, t * r, upd, s * r, r)
    return 0


@nb.njit(inline="always")
def _elem_row(orow: Any, irow: Any, urow: Any, wrap: bool, op: int) -> Any:  # pragma: no cover - compiled
    """orow[irow[j]] = f(., urow[j]) for j in order; returns the bad-index count (a bad index is skipped).

    A negative ``t`` gets ``size`` added with ``wrap`` (a branch: rare in practice); then one unsigned compare
    (a negative ``t`` left is a huge unsigned number) and the row indexed by that unsigned position, on row
    views, the bad count bumped in a branch; inlined with a constant ``wrap`` and ``op``. The benchmark's
    ScatterElements add along the last axis with the fused copy, one thread: from 1.04-1.15x torch's time to
    0.73-0.85x with the unsigned compare and the bad count in a branch (the value form ``bad += int(u)`` kept
    it 1.2x slower); then the row indexed by the signed ``t`` (numba's own negative-index wrap on every
    access) took 17.7-18.8 ms at 1/2 size, the unsigned position 10.4 ms without wrap and 13.7 ms with it
    (torch 15.1-17.6 ms; session 24, the Intel VM).
    """
    size = orow.shape[0]
    span = np.uint64(size)
    bad = 0
    for j in range(irow.shape[0]):
        t = irow[j]
        if wrap and t < 0:
            t += size
        u = np.uint64(t)  # a negative t left (below -size with wrap) is a huge unsigned number: bad
        if u < span:
            orow[u] = _combine(op, orow[u], urow[j])
        else:
            bad += 1
    return bad


@nb.njit(inline="always")
def _elem_row_op(orow: Any, irow: Any, urow: Any, wrap: bool, op: int) -> Any:  # pragma: no cover - compiled
    """:func:`_elem_row` with ``op`` made a constant for ``add`` and ``none`` (loops of their own)."""
    if op == ADD:
        return _elem_row(orow, irow, urow, wrap, ADD)
    if op == NONE:
        return _elem_row(orow, irow, urow, wrap, NONE)
    return _elem_row(orow, irow, urow, wrap, op)


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_elements2(  # pragma: no cover - compiled
    out: Any, data: Any, idx: Any, upd: Any, op: int, copy: bool, wrap: bool
) -> int:
    """out[a, idx[a, j]] = f(., upd[a, j]) in order: the last-axis case, one row per task; returns the count
    of raw indices outside ``out`` (skipped: the output is half-written when it is nonzero).

    With ``copy``, each row of ``out`` first gets the same row of ``data`` (``out = data`` fused in, rows
    past ``idx``'s only copied), in the task that then applies that row's updates, so the row's random
    updates land in cache: 1.3-1.4x faster than a separate copy and this pass (ScatterElements add along the
    last axis, rows of 4 KB, one thread; benchmarks/README.md). Without ``copy``, ``data`` is not read
    (pass ``out``). Updates stay in index order within a row, whichever thread owns it: the same bits.
    ``add`` and ``none`` get loops of their own, with and without wrap (a constant op: no switch per
    element, measured 1.3-1.4x faster on the add); other reductions share one.
    """
    a_n = idx.shape[0]
    r = out.shape[1]
    bad = 0
    rows = out.shape[0] if copy else a_n
    for a in nb.prange(rows):
        orow = out[a]
        if copy:  # an element loop in both forms: the parallel form's out[a, :] = data[a, :] took 18x the
            drow = data[a]  # serial form's time at 2 threads (numba's slice assignment inside prange)
            for c in range(r):
                orow[c] = drow[c]
        row_bad = 0
        if a >= a_n:
            pass
        elif wrap:
            row_bad += _elem_row_op(orow, idx[a], upd[a], True, op)
        else:
            row_bad += _elem_row_op(orow, idx[a], upd[a], False, op)
        bad += row_bad
    return bad


@nb.njit(inline="always")
def _elem3(out: Any, idx: Any, upd: Any, a: int, lo: int, hi: int, wrap: bool, op: int) -> Any:  # pragma: no cover
    """out[a, idx[a,j,c], c] = f(., upd[a,j,c]) for columns c in [lo, hi), j in order (inlined per constant op);
    returns the bad-index count (a bad index is skipped)."""
    size = out.shape[1]
    bad = 0
    for j in range(idx.shape[1]):
        for c in range(lo, hi):
            t = idx[a, j, c]
            if t < 0 and wrap:
                t += size
            b = _bad(t, size)
            bad += b
            if not b:
                out[a, t, c] = _combine(op, out[a, t, c], upd[a, j, c])
    return bad


@nb.njit(**_OPTS)  # type: ignore[untyped-decorator]  # numba ships no type hints
def scatter_elements3(out: Any, idx: Any, upd: Any, op: int, nthreads: int, wrap: bool) -> int:  # pragma: no cover
    """out[a, idx[a,j,c], c] = f(., upd[a,j,c]) in row-major order (owner: slices a, or column blocks).

    Returns the count of raw indices outside ``out`` (after wrapping negatives when ``wrap``): they are
    skipped, and the output is half-written when it is nonzero.
    ``add``, ``max`` and ``none`` get loops of their own (a constant op: no switch per element;
    ScatterElements add / max along axis 0 of 64 columns measured faster so, see benchmarks/README.md).
    """
    a_n, m_n, c_n = idx.shape
    size = out.shape[1]
    bad = 0
    if c_n == 1:
        for a in nb.prange(a_n):
            row_bad = 0
            for j in range(m_n):
                t = idx[a, j, 0]
                if t < 0 and wrap:
                    t += size
                b = _bad(t, size)
                row_bad += b
                if not b:
                    out[a, t, 0] = _combine(op, out[a, t, 0], upd[a, j, 0])
            bad += row_bad
    elif a_n >= nthreads or c_n < 2 * nthreads:
        for a in nb.prange(a_n):
            row_bad = 0
            if op == ADD:
                row_bad += _elem3(out, idx, upd, a, 0, c_n, wrap, ADD)
            elif op == MAX:
                row_bad += _elem3(out, idx, upd, a, 0, c_n, wrap, MAX)
            elif op == NONE:
                row_bad += _elem3(out, idx, upd, a, 0, c_n, wrap, NONE)
            else:
                row_bad += _elem3(out, idx, upd, a, 0, c_n, wrap, op)
            bad += row_bad
    else:
        blocks = nthreads
        step = (c_n + blocks - 1) // blocks
        for b in nb.prange(blocks):
            lo = b * step
            hi = min(c_n, lo + step)
            block_bad = 0
            for a in range(a_n):
                if op == ADD:
                    block_bad += _elem3(out, idx, upd, a, lo, hi, wrap, ADD)
                elif op == MAX:
                    block_bad += _elem3(out, idx, upd, a, lo, hi, wrap, MAX)
                elif op == NONE:
                    block_bad += _elem3(out, idx, upd, a, lo, hi, wrap, NONE)
                else:
                    block_bad += _elem3(out, idx, upd, a, lo, hi, wrap, op)
            bad += block_bad
    return bad


def _serial(kernel: Any) -> Any:
    """The same kernel compiled without ``parallel`` (its ``prange`` loops run as ``range``).

    A parallel region's launch costs 50-100 µs on numba's ``workqueue`` layer even at one
    thread (a 2-vCPU VM, measured: 0.4 µs for the serial form of ``gather_rows`` on a tiny
    input, 82-95 µs for the parallel form at one thread), which dominated calls of 0.1-3 ms.
    Calls that run on one thread take this form instead. Same source (with ``_SERIAL_FORM`` true in its
    globals: element loops for row copies), same bits; its own name
    (``<kernel>_1``), hence its own entry in numba's cache.
    """
    py = kernel.py_func
    name = py.__name__ + "_1"
    fn = _pytypes.FunctionType(py.__code__, _SERIAL_GLOBALS, name, py.__defaults__, py.__closure__)
    fn.__qualname__ = name
    fn.__doc__ = f"The serial form of :func:`{py.__name__}`."
    opts = {k: v for k, v in _OPTS.items() if k != "parallel"}
    one = nb.njit(**opts)(fn)
    globals()[name] = one  # the background compile's child finds it by name
    _SERIAL_GLOBALS[py.__name__] = one  # a composite's serial form calls the serial forms (numba binds at compile)
    return one


_SERIAL_GLOBALS = {**globals(), "_SERIAL_FORM": True}
SERIAL: dict[Any, Any] = {
    k: _serial(k)
    for k in (copy_blocks, count_bad, nd_rows, gather_rows, gather_nd, gather_mid, gather_elements2,
              gather_elements3, scatter_rows, put_rows, scatter_elements2, scatter_elements3)
}
"""Each parallel kernel -> its serial form (:func:`_serial`), for calls on one thread."""
COMPOSITE = frozenset({gather_nd})
"""Kernels that call other kernels (their parallel loops are the callees'), compiled without ``parallel``."""

READS: dict[Any, tuple[int, ...]] = {
    kernel: reads
    for parallel, reads in (
        (copy_blocks, (1,)), (count_bad, (0,)), (nd_rows, (0,)), (gather_rows, (0, 1)), (gather_nd, (0, 1, 5)),
        (gather_mid, (0, 1)), (gather_elements2, (0, 1)), (gather_elements3, (0, 1)), (scatter_rows, (1, 2)),
        (put_rows, (1, 2, 3)), (scatter_elements2, (1, 2, 3)), (scatter_elements3, (1, 2)),
    )
    for kernel in (parallel, SERIAL[parallel])
}
"""Each kernel (both forms) -> the positions of the arrays it only reads, which :func:`frozen` passes read-only."""


def frozen(kernel: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``args`` with each array ``kernel`` only reads (:data:`READS`) as a read-only view (the caller's own arrays
    untouched): numba types a read-only array apart from a writeable one, so a kernel called with both compiled
    twice, seconds each (arrays from ``np.asarray`` of a JAX array, ``np.broadcast_to``, a read-only memory map);
    now every call of a kernel with the same dtypes and ranks runs one signature. Of the suite's 154 recorded
    signatures, 54 were such second copies. 1.6 µs for two writeable arrays, 0.7-0.8 µs for read-only ones (a
    2-vCPU VM; ``setflags(False)`` 0.2 µs of it per array, twice that with the keyword). The core sets the flag
    on the views of data and indices it makes itself (``core.accel._read_only``: 0.2 µs for two), which then
    pass here unchanged."""
    reads = READS.get(kernel)
    if not reads:
        return args
    got = list(args)
    for i in reads:
        a = got[i]
        if a.flags.writeable:
            a = got[i] = a.view()
            a.setflags(False)
    return tuple(got)


def launched(kernel: Any) -> Any:
    """``kernel`` (either form) called as ``backends.launch`` calls it, the arrays it reads read-only
    (:func:`frozen`): the signature the library compiles (``benchmarks/parts.py`` and the tests that call a
    kernel form directly)."""
    return lambda *args: kernel(*frozen(kernel, args))


SERIAL_BYTES: dict[Any, int] = {gather_elements3: 1 << 20, gather_elements2: 32 << 20, scatter_elements2: 2 << 20}
"""Kernels whose serial form runs only for calls moving at most this many bytes; larger one-thread calls run
the parallel form at one thread, whose loop numba marks unaliased. The other axes' GatherElements loop
(:func:`gather_elements3`, whose serial form gathers through a stack buffer: :func:`_stack`) measured as fast as
the parallel form at 2 MiB and 1.2x its time at 16 MiB of random lines: 1 MiB. The last-axis loop
(:func:`gather_elements2`), since it touches each row first, against onnxruntime at one thread (rows of 4096
float32, as many int64 indices; caches flushed before each call / back to back): 16 MiB moved, serial
0.67x / 0.71x, parallel form 0.59x / 0.76x; 128 MiB 0.67x / 0.69x against 0.60x / 0.60x; 1 MiB 0.48x / 0.65x
against 0.42x / 0.74x. 4 MiB here put the benchmark's topk (32 indices per row of 4096: 8 MiB as weighed,
a 0.3 ms call) on the parallel form, whose launch (60-190 µs on numba's workqueue layer) made it 1.52x the best
peer at one thread against 1.19x on the serial form (one full run each): 32 MiB. The last-axis scatter
(:func:`scatter_elements2`; an Intel Xeon VM, one thread, ``benchmarks/parts.py scatter_elements_add_last``: rows
of 1024 float32, 4096 updates each): the parallel form took 0.91x and 1.02x (two measurements) the serial form's
time on 4096 rows, 0.89x on 2048, 0.86x on 256 (a 2.6 ms call): 2 MiB, so that only calls where a parallel
launch is a visible share run the serial form."""


def _warm_calls() -> list[tuple[Any, tuple[Any, ...]]]:
    """(kernel, arguments) of every signature :func:`warm_up` compiles: each kernel, parallel and serial form,
    for float32/int64 and the other common item sizes."""
    calls: list[tuple[Any, tuple[Any, ...]]] = []
    forms: tuple[Any, ...] = (lambda k: k, SERIAL.__getitem__)
    f: Any
    for f in forms:
        i1 = np.zeros(2, np.int64)
        calls.append((f(count_bad), (i1, 3, True)))
        for cdt in (np.uint32, np.uint64):
            calls.append((f(copy_blocks), (np.zeros(4, cdt), np.ones(4, cdt), True)))
            calls.append((f(put_rows), (np.zeros(4, cdt), np.ones(4, cdt), i1, np.ones(4, cdt), 2, True,
                                         np.zeros(2, np.int32))))
        calls.append((f(nd_rows), (np.zeros((1, 2, 2), np.int64), np.array([2, 2], np.int64), 4, True,
                                   np.zeros((1, 2), np.int64))))
        for dt in (np.uint32, np.uint64):
            d = np.zeros((4, 3), dt)
            calls.append((f(gather_rows), (d, i1, np.zeros((2, 3), dt), True, True)))
            calls.append((f(gather_nd), (d, np.zeros((1, 2, 2), np.int64), np.zeros((2, 3), dt), True, True,
                                         np.array([2, 2], np.int64))))
            calls.append((f(gather_mid), (d.reshape(1, 4, 3), i1, np.zeros((1, 2, 3), dt), True, True)))
            calls.append((f(gather_elements2), (d, np.zeros((4, 2), np.int64), np.zeros((4, 2), dt), True)))
            calls.append((f(gather_elements3), (d.reshape(1, 4, 3), np.zeros((1, 2, 3), np.int64),
                                                np.zeros((1, 2, 3), dt), True)))
        for rdt in (np.float32, np.float64, np.int32, np.int64):
            o = np.zeros((4, 3), rdt)
            calls.append((f(scatter_rows), (o, i1, np.ones((2, 3), rdt), ADD, 1, True)))
            calls.append((f(scatter_elements2), (o, o, np.zeros((4, 2), np.int64), np.ones((4, 2), rdt), ADD, True,
                                                 True)))
            calls.append((f(scatter_elements3), (o.reshape(1, 4, 3), np.zeros((1, 2, 3), np.int64),
                                                 np.ones((1, 2, 3), rdt), ADD, 1, True)))
    return [(kernel, frozen(kernel, args)) for kernel, args in calls]  # as launched: inputs read-only


def kernels_by_name() -> dict[str, Any]:
    """Every kernel, parallel and serial form, by its name (the serial form's ends in ``_1``)."""
    return {k.__name__: k for pair in SERIAL.items() for k in pair}


def signature_lines() -> list[str]:
    """``"kernel: signature"`` for every signature compiled or loaded in this process, sorted: the lines
    :func:`warm_up` reads back (``signatures=``). The test suite writes them with ``GS_RECORD_SIGNATURES``
    (``tests/conftest.py``) into ``.ci/numba-signatures.txt``, which ``.ci/run`` warms up before the suite. Not
    the signatures a composite (:data:`COMPOSITE`) compiles its callees for (a constant argument, typed as a
    literal): compiling the composite compiles them."""
    return sorted(f"{name}: {sig!r}" for name, k in kernels_by_name().items() for sig in k.signatures
                  if not any(isinstance(t, types.Literal) for t in sig))


class Signature(tuple):  # type: ignore[type-arg]
    """numba argument types to compile a kernel for (a warm-up job compiled, not called)."""


_SIG_TYPES = ("boolean", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "float32", "float64", "complex64", "complex128")


def parse_signature(text: str) -> Signature:
    """The numba argument types written as ``repr`` of a compiled signature, e.g.
    ``(Array(uint32, 2, 'C', False, aligned=True), int64, bool)``; ArgumentError for anything else."""
    from ..errors import ArgumentError

    def array(dtype: Any, ndim: int, layout: Any, readonly: bool = False, aligned: bool = True) -> Any:
        return types.Array(dtype, ndim, layout, readonly=readonly, aligned=aligned)

    names: dict[str, Any] = {n: getattr(types, n) for n in _SIG_TYPES}
    names.update(Array=array, bool=types.boolean)
    try:
        # no builtins: only the names above (types, Array, True, False) can be used
        got = eval(text, {"__builtins__": {}, "True": True, "False": False}, names)
    except Exception as e:
        raise ArgumentError(f"warm_up: signature {text!r} is not a numba signature ({e})") from None
    if not isinstance(got, tuple) or not all(isinstance(t, types.Type) for t in got):
        raise ArgumentError(f"warm_up: signature {text!r} is not a tuple of numba types")
    return Signature(got)


def _jobs(signatures: Iterable[str] = (), common: bool = True) -> list[tuple[Any, Any]]:
    """:func:`_warm_calls` (unless not ``common``), then a compile job ``(kernel, Signature)`` per
    ``"kernel: signature"`` line (blank lines and ``#`` comments skipped; a kernel name that no longer exists is
    skipped: the list is a speed-up)."""
    jobs: list[tuple[Any, Any]] = list(_warm_calls()) if common else []
    by_name = kernels_by_name()
    for line in signatures:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, sig = line.partition(":")
        if name.strip() in by_name and sep:
            jobs.append((by_name[name.strip()], parse_signature(sig.strip())))
    return jobs


COMPILE_SECONDS: dict[str, float] = {
    "scatter_elements3": 16.1, "scatter_rows": 9.1, "gather_elements2": 6.1, "scatter_rows_1": 5.3,
    "scatter_elements3_1": 4.8, "gather_rows": 4.4, "gather_elements3": 3.9, "gather_mid": 3.8,
    "scatter_elements2": 2.8, "gather_elements3_1": 1.7, "gather_elements2_1": 1.6, "put_rows": 1.6, "nd_rows": 1.5,
    "scatter_elements2_1": 1.3, "gather_rows_1": 1.0, "copy_blocks": 0.7, "put_rows_1": 0.6, "gather_mid_1": 0.5,
    "count_bad": 0.4, "nd_rows_1": 0.4, "copy_blocks_1": 0.2, "count_bad_1": 0.1, "gather_nd": 6.1, "gather_nd_1": 1.7,
}
"""Seconds a signature of each kernel (by name) takes to compile: the mean over the warm-up's calls and the
lines of ``.ci/numba-signatures.txt`` (one process, an empty cache, a 2-vCPU EPYC VM; 818 s for all 203). A
parallel form with several ``prange`` loops and helpers inlined per constant op costs the most (numba's parfor
passes copy and analyse each loop's IR): 0.1-16 s. ``gather_nd`` (session 25, a composite: its callees' signatures
compiled with it) was timed on the Intel Xeon VM, 3.2 and 0.9 s, and scaled by ``gather_rows``' ratio between the
two machines (2.29 s there). :func:`warm_parts` shares by these weights (a kernel missing here weighs 1 s)."""


def warm_parts(parts: int, signatures: Iterable[str] = (), common: bool = True) -> list[list[tuple[Any, Any]]]:
    """:func:`_warm_calls` (unless not ``common``) and the ``signatures`` lines (:func:`_jobs`) in ``parts``
    shares of about the same compile time (:data:`COMPILE_SECONDS`), every signature of one kernel (one form) in
    the same share:
    processes that compile different shares at once never write the same kernel's entry in numba's cache (its
    index file is read, extended and written whole). Each kernel's signatures, heaviest first, go to the
    lightest share. Shared by count instead, the two shares of .ci/run took 548 and 686 s side by side (the
    suite's 154 signatures and the warm-up's: 364 and 456 s by these weights, against 410 and 410 now)."""
    by_kernel: dict[Any, list[tuple[Any, Any]]] = {}
    for kernel, args in _jobs(signatures, common):
        by_kernel.setdefault(kernel, []).append((kernel, args))
    shares: list[list[tuple[Any, Any]]] = [[] for _ in range(parts)]
    loads = [0.0] * parts
    for calls in sorted(by_kernel.values(), key=_weight, reverse=True):
        lightest = loads.index(min(loads))
        shares[lightest].extend(calls)
        loads[lightest] += _weight(calls)
    return shares


def _weight(calls: list[tuple[Any, Any]]) -> float:
    """Seconds to compile ``calls`` (all of one kernel), by :data:`COMPILE_SECONDS`."""
    return len(calls) * COMPILE_SECONDS.get(calls[0][0].__name__, 1.0)


def warm_up(part: int = 0, parts: int = 1, signatures: Iterable[str] = (), common: bool = True) -> float:
    """Compile (or load from cache) every kernel, parallel and serial, for float32/int64 (not when ``common`` is
    False), and each ``"kernel: signature"`` line of ``signatures`` (:func:`signature_lines`); returns seconds.

    ``part`` of ``parts``: only that share of the kernels (:func:`warm_parts`), for processes that compile
    the shares side by side (``.ci/run``: two, on two cores, the suite's signatures only)."""
    import time

    t0 = time.perf_counter()
    for kernel, args in warm_parts(parts, signatures, common)[part]:
        if isinstance(args, Signature):
            kernel.compile(tuple(args))
        else:
            kernel(*args)
    return time.perf_counter() - t0
