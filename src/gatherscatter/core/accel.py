"""Glue between the core primitives and the numba kernels (the accelerated dispatch).

Why here and not in :mod:`gatherscatter.backends`: deciding whether a call can
run on the kernels means reading the core's description of it (its
:class:`~gatherscatter.core.shape.IndexSpec`, the row pieces of
:mod:`gatherscatter.core.offsets`, which policies the kernels reproduce), so
this dispatch belongs to the core and calls *down* into ``backends`` (kernels,
thread settings, :func:`~gatherscatter.backends.launch`), which imports nothing
from the core: the layers are ``errors -> backends -> core -> dialects``, with no
upward import (``tests/test_layering.py``).

Each function says when the accelerated path does not apply (dtype, layout,
policy), and the core then runs its NumPy path. Indices reach here either
resolved by the core (in range) or *raw* (``raw=True``: the caller's int64
indices, checked by the kernels in the same pass as the work when the output is ours to
discard, or by one checking pass before any write when it is not); when a raw
index is bad the functions report it and the core takes its resolving path,
which raises or applies the policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..backends import (
    LINE_BYTES,
    STREAM_BYTES,
    KernelNotReadyError,
    launch,
    pool,
    serial_form,
    set_kernel_threads,
    settled_one,
)
from .offsets import piece_size, row_pieces
from .shape import IndexSpec, prod

__all__ = ["copy_streams", "gather", "raw_ok", "run_recipe", "scatter", "scatter_rows"]

_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}
_REDUCE_OK = frozenset(  # dtypes, not names: ``str(dtype)`` took 1.5 µs of every scatter call
    np.dtype(t)
    for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
)


def _bits_ok(dtype: np.dtype[Any]) -> bool:
    return dtype.kind in "biufcV" and not dtype.hasobject and dtype.itemsize in _UINT and not dtype.fields


def _bits(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The same memory viewed as unsigned integers (16-byte items as two uint64)."""
    return a.view(_UINT[a.dtype.itemsize])


def _read_only(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``a``, a view of the core's own making, made read-only in place: as ``launch`` passes an array a kernel
    reads (``numba_kernels.frozen``), which then has no view of its own to make. ``setflags(False)``: 0.2 µs,
    the keyword form twice that."""
    a.setflags(False)  # type: ignore[call-arg]  # numpy's stubs make it keyword-only
    return a


def _c(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.ascontiguousarray(a, dtype=np.int64)


def _copy(k: Any, out: np.ndarray[Any, Any], data: np.ndarray[Any, Any]) -> None:
    """``out[...] = data`` (bits); large C-contiguous copies on the kernels (fresh pages fault in parallel blocks),
    with streaming stores from :data:`~gatherscatter.backends.STREAM_BYTES`."""
    if data.nbytes >= (1 << 22) and data.flags.c_contiguous and _bits_ok(data.dtype):
        launch(k.copy_blocks, _bits(out.reshape(-1)), _bits(data.reshape(-1)), copy_streams(data))
    else:
        np.copyto(out, data)


def copy_streams(data: np.ndarray[Any, Any]) -> bool:
    """Whether the kernels' copy of ``data`` (a scatter's, into its output) uses streaming stores: from
    :data:`~gatherscatter.backends.STREAM_BYTES`."""
    return data.nbytes >= STREAM_BYTES


def _elementwise_3d(
    dshape: tuple[int, ...], ishape: tuple[int, ...], axis: int
) -> tuple[tuple[int, int, int], tuple[int, int, int]] | None:
    """(A, s, C) views of data and indices when the paired dims collapse, else None."""
    lead_d, lead_i = dshape[:axis], ishape[:axis]
    tail_d, tail_i = dshape[axis + 1 :], ishape[axis + 1 :]
    if lead_d != lead_i and len(lead_d) > 1:
        return None
    if tail_d != tail_i and len(tail_d) > 1:
        return None
    return (
        (prod(lead_d), dshape[axis], prod(tail_d)),
        (prod(lead_i), ishape[axis], prod(tail_i)),
    )


# An elementwise gather (GatherElements) reads each element at a random place of its data row: its work is
# weighed as a cache line (LINE_BYTES) per element, up to the lines of ``data``, on top of the output and the
# indices (topk: 131 K elements of 4 B from a 64 MB array move 1.5 MB but touch 8 MB of lines; weighed by
# bytes alone it never got a second thread, which torch uses to 1.76x).


def raw_ok(idx: np.ndarray[Any, Any]) -> bool:
    """Whether ``idx`` can go to the kernels unresolved: C-contiguous int64 (no copy of the
    caller's indices; other dtypes and layouts are resolved by the core first)."""
    return bool(idx.dtype == np.int64 and idx.flags.c_contiguous)


def _nd_layout(
    dshape: tuple[int, ...], ishape: tuple[int, ...], spec: IndexSpec
) -> tuple[int, int, int, int, np.ndarray[Any, Any]]:
    """``(B, T, M, R, sizes)`` of index tuples into ``data``: B batches of T tuple positions (the product of
    ``sizes``, the indexed dims) holding rows of R items, M tuples per batch (data as (B*T, R), indices as
    (B, M, K), the output as (B*M, R))."""
    b, a, kd = spec.batch, spec.axis, spec.depth
    sizes = np.array(dshape[a : a + kd], np.int64)
    return prod(dshape[:b]), prod(dshape[a : a + kd]), prod(ishape[b:-1]), prod(dshape[a + kd :]), sizes


def _nd_rows(
    k: Any, idx: np.ndarray[Any, Any], dshape: tuple[int, ...], spec: IndexSpec, wrap: bool
) -> tuple[np.ndarray[Any, Any], int] | None:
    """Flat rows (B*M,) into data.reshape(B*T, R) from raw index tuples, and R; None when one is bad."""
    B, T, M, R, sizes = _nd_layout(dshape, idx.shape, spec)
    rows = np.empty((B, M), np.int64)
    if launch(k.nd_rows, _c(idx).reshape(B, M, spec.depth), sizes, T, wrap, rows):
        return None
    return rows.reshape(-1), R


def gather(k: Any, *args: Any, **kw: Any) -> np.ndarray[Any, Any] | None:
    """:func:`_gather`, or None (the NumPy path) while one of its kernels compiles in the background."""
    try:
        return _gather(k, *args, **kw)
    except KernelNotReadyError:
        return None


def scatter(k: Any, *args: Any, **kw: Any) -> bool | None:
    """:func:`_scatter`, or False (the NumPy path) while one of its kernels compiles in the background.

    A launch raises before its kernel runs; ``out`` may then hold ``data``'s copy, which the
    core's path writes again.
    """
    try:
        return _scatter(k, *args, **kw)
    except KernelNotReadyError:
        return False


def scatter_rows(k: Any, *args: Any) -> bool:
    """:func:`_scatter_rows`, or False (the NumPy path) while its kernel compiles in the background."""
    try:
        return _scatter_rows(k, *args)
    except KernelNotReadyError:
        return False


def _gather(
    k: Any,
    d: np.ndarray[Any, Any],
    idx: np.ndarray[Any, Any],
    spec: IndexSpec,
    out_shape: tuple[int, ...],
    out: np.ndarray[Any, Any] | None = None,
    *,
    raw: bool = False,
    wrap: bool = False,
    recipe: list[Any] | None = None,
) -> np.ndarray[Any, Any] | None:
    """The gather on the kernels (into ``out`` when given), or None when they do not apply.

    With ``raw``, ``idx`` is the caller's index array (int64, every policy's
    in-range case); None then also means a bad index was found: nothing usable
    was produced and ``out`` (when given) was not written. ``recipe``: a list that
    receives what :func:`run_recipe` needs to repeat this call on any arrays of the same
    dtypes, shapes and strides, when the call is one launch on views (a call plan).
    """
    if not _bits_ok(d.dtype):
        return None
    a = spec.axis
    shapes = _elementwise_3d(d.shape, idx.shape, a) if spec.elementwise else None
    if spec.elementwise and (shapes is None or d.dtype.itemsize > 8):
        # 16-byte items are two uint64 words: the index would address half-items
        return None
    if raw and spec.vector and spec.depth == 0:
        return None
    mine = out is None
    res = pool.empty(out_shape, d.dtype) if out is None else out  # pre-faulted when recycled
    work = res.nbytes + idx.nbytes + (LINE_BYTES * min(res.size, d.nbytes // LINE_BYTES) if shapes else 0)
    set_kernel_threads(work)
    ic = _c(idx)

    # into the caller's array: every index checked before the first write (count_bad, then the kernel)
    # (GatherND of tuples and the row gather of a middle axis check inside their kernel: they take no check)
    check = None if mine or not raw else [k.count_bad, d.shape[a], None]
    if shapes is not None:
        d3, i3 = shapes
        if i3[2] == 1 and d3[2] == 1 and i3[0] >= 8:  # (a trailing dim of indices shorter than data's: 3-D)
            d2, i2 = d3[:2], i3[:2]
            bad = _views(k.gather_elements2, d, d2, ic, i2, res, i2, wrap, recipe, work, check=check)
        else:
            bad = _views(k.gather_elements3, d, d3, ic, i3, res, i3, wrap, recipe, work, check=check)
        return None if bad else res
    b = spec.batch
    B, P = prod(d.shape[:b]), prod(d.shape[b:a])
    if spec.vector and raw:
        if P != 1:
            return None
        if spec.depth == 1 and B == 1:
            S, R = d.shape[a], prod(d.shape[a + 1 :])
            bad = _views(k.gather_rows, d, (S, R), ic, (-1,), res, (-1, R), wrap, recipe, work, R, check=check)
            return None if bad else res
        # tuples to rows, then (every tuple good: nothing written before, an out= included) the row gather, one call
        _, T, M, R, sizes = _nd_layout(d.shape, idx.shape, spec)
        sizes.setflags(write=False)  # as the kernel reads it (no second signature: frozen)
        bad = _views(k.gather_nd, d, (B * T, R), ic, (B, M, spec.depth), res, (B * M, R), wrap, recipe, work, R,
                     tail=(sizes,))
        return None if bad else res
    if not spec.vector and B * P == 1:
        S, R = d.shape[a], prod(d.shape[a + 1 :])
        bad = _views(k.gather_rows, d, (S, R), ic, (-1,), res, (-1, R), wrap, recipe, work, R, check=check)
        return None if bad else res
    if not spec.vector and B == 1:
        S, R = d.shape[a], prod(d.shape[a + 1 :])
        M = idx.size
        bad = _views(k.gather_mid, d, (P, S, R), ic, (-1,), res, (P, M, R), wrap, recipe, work, R)
        return None if bad else res
    if raw:
        return None
    R = prod(d.shape[a + spec.depth :])
    dbits, obits = _bits(d.reshape(-1, R)), _bits(res.reshape(-1, R))
    stream = _streams(res, R)
    for first, rows in row_pieces(d.shape, idx, spec, piece_size(obits.shape[0])):
        launch(k.gather_rows, dbits, _c(rows), obits[first : first + rows.size], False, stream)
    return res


def _views(kernel: Any, d: np.ndarray[Any, Any], ds: tuple[int, ...], idx: np.ndarray[Any, Any],
           is_: tuple[int, ...], res: np.ndarray[Any, Any], rs: tuple[int, ...], wrap: bool,
           recipe: list[Any] | None = None, work: int = 0, row: int | None = None, tail: tuple[Any, ...] = (),
           check: list[Any] | None = None) -> Any:
    """Launch ``kernel`` on ``d``, ``idx`` and ``res`` viewed as ``ds``, ``is_`` and ``rs`` (items as bits);
    with ``recipe``, first note the launch there for :func:`run_recipe` (``work``: its thread-count bytes).
    ``row``: the items of a row of a row gather, whose kernel then also takes :func:`_streams`. ``tail``: the
    kernel's last arguments, the same for every call of the recipe (GatherND's sizes). ``check``: ``[count_bad,
    size, None]`` for an output the caller gave (``out=``): every index is checked against ``size`` first, and on a
    bad one the kernel does not run (its count is returned) and ``res`` is not written (:func:`run_recipe` keeps
    the check's serial form in the last slot)."""
    if recipe is not None:  # as run_recipe unpacks it; _SERIAL_SLOT is filled by run_recipe
        recipe[:] = [kernel, ds, is_, rs, work, _UINT[d.dtype.itemsize], res.nbytes, None, row, tail, check]
    args = (_read_only(_bits(d.reshape(ds))), _read_only(idx.reshape(is_)), _bits(res.reshape(rs)), wrap)
    if check is not None:
        bad = launch(check[0], args[1].reshape(-1), check[1], wrap)
        if bad:
            return bad
    return launch(kernel, *args, *tail) if row is None else launch(kernel, *args, _streams(res, row), *tail)


def _streams(res: np.ndarray[Any, Any], row: int) -> bool:
    """Whether a row gather writes its output ``res`` (rows of ``row`` items) with streaming stores: an output of
    :data:`~gatherscatter.backends.STREAM_BYTES` or more (it does not stay in cache) in rows of
    :data:`STREAM_ROW_BYTES` or more."""
    return res.nbytes >= STREAM_BYTES and row * res.itemsize >= STREAM_ROW_BYTES


STREAM_ROW_BYTES = 2048
"""The shortest rows a row gather copies with streaming stores. The kernel alone, one and two threads, 64 MiB
of data, 96 MiB of output in random rows (a 2-vCPU EPYC VM, medians of 7): rows of 256 B 0.97x / 0.95x the time
of plain stores, 512 B 1.19x / 1.21x, 1 KiB 1.01x / 0.92x, 2 KiB 0.88x / 0.88x, 4 KiB 0.89x / 0.75x."""


_SERIAL_SLOT = 7
"""Where a recipe keeps the kernel's serial form once a call of it has run on one thread (None until then)."""


def run_recipe(recipe: list[Any], d: np.ndarray[Any, Any], idx: np.ndarray[Any, Any],
               out_shape: tuple[int, ...], out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any] | None:
    """The launch a raw gather recorded in ``recipe`` (:func:`_gather`), on ``d`` and ``idx`` of the recorded
    call's dtypes, shapes and strides, into a fresh output or, for a recipe recorded with one, into the caller's
    ``out`` (every index checked before the first write, as the recorded call did); negative indices are not
    wrapped (they count as bad). None when an index is bad or the kernel is still compiling: the caller then takes
    the whole path.

    Once a call of the recipe has run on one thread through :func:`launch` (which compiles or checks the
    kernel's serial form for these argument types), later calls that run on one thread call that serial form
    directly: the thread choice, the readiness check and the pool's size (``pool.empty`` given it: an output
    under :data:`~gatherscatter.backends.pool.MIN_BYTES` is then a plain ``np.empty``) are the same for every
    call of the recipe. Top-k element gather at 1/16 of the benchmark's size, 20,000 calls back to back:
    13.6-14.9 against 18.5-20.2 µs for the plan's part of the call (0.73x; see benchmarks/README.md, session 15)."""
    kernel, ds, is_, rs, work, bits, out_bytes, one, row, tail, check = recipe
    res = pool.empty(out_shape, d.dtype, out_bytes) if out is None else out
    args: tuple[Any, ...] = (_read_only(d.view(bits).reshape(ds)), _read_only(idx.reshape(is_)),
                             res.view(bits).reshape(rs), False)
    if row is not None:
        args = (*args, _streams(res, row))
    if tail:
        args = (*args, *tail)
    if one is not None and (check is None or check[2] is not None) and settled_one(kernel, work):
        if check is not None and check[2](args[1].reshape(-1), check[1], False):
            return None
        bad = one(*args)
    else:
        set_kernel_threads(work)
        try:
            if check is not None and launch(check[0], args[1].reshape(-1), check[1], False):
                return None
            bad = launch(kernel, *args)
        except KernelNotReadyError:
            return None
        if settled_one(kernel, work):
            recipe[_SERIAL_SLOT] = serial_form(kernel, work)
            if check is not None:
                check[2] = serial_form(check[0], work)
    return None if bad else res


OWNER_MIN_ROW = 16
"""Row scatters split rows between threads (owner computes): every thread scans every update, so a
second thread pays off only for rows of this many elements or more (ScatterND add of single elements,
2 M updates: 56.8 ms on 1 thread, 77.7 ms on 2; rows of 64: 174 -> 141 ms)."""


def _owner_threads(n: int, row: int) -> int:
    return n if row >= OWNER_MIN_ROW else 1


PUT_MIN_ROW = 64
"""Bytes of a row from which an out-of-place row scatter without reduction (ScatterND ``none``) runs as
one pass over the output (:func:`~gatherscatter.backends.numba_kernels.put_rows`: blocks of ``data``
copied, each followed by its rows' last updates, in one parallel region) instead of a copy of ``data``
and then the scatter. Below it, its scratch of one int per row grows past 1/16 of the data and a
``memcpy`` per updated row costs more than the row."""


def _puts(k: Any, op: int, out: np.ndarray[Any, Any], R: int, data: np.ndarray[Any, Any] | None) -> bool:
    """Whether the row scatter runs as :func:`put_rows` (which checks every row before writing anything): rows
    of :data:`PUT_MIN_ROW` bytes or more, and a ``data`` below the size of a streaming copy (:func:`copy_streams`).
    From there a streaming copy of the whole ``data`` and then the scatter take less time than one pass: the
    Intel Xeon VM, one thread, the benchmark's rows of 1 KiB (1/16 of the rows updated), 256 MiB: 25.8 ms
    against 31.1 ms for one pass with streaming stores (each row once, from ``data`` or its last update); 128 MiB:
    13.3 against 15.7 ms; two threads 15.0 against 16.7 and 7.4 against 8.4 ms (session 24)."""
    return data is not None and op == k.NONE and R * out.itemsize >= PUT_MIN_ROW and not copy_streams(data)


def _opcode(k: Any, reduction: str, dtype: np.dtype[Any]) -> int | None:
    if reduction == "none":
        return int(k.NONE) if _bits_ok(dtype) else None
    if dtype not in _REDUCE_OK:
        return None
    return int(k.OPS[reduction])


def _scatter_rows(
    k: Any, o2: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], u2: np.ndarray[Any, Any], reduction: str
) -> bool:
    """``o2[rows[i]] = f(o2[rows[i]], u2[i])`` in order on the kernels (rows resolved); False if not applicable."""
    op = _opcode(k, reduction, o2.dtype)
    if op is None:
        return False
    row = o2.shape[1] if o2.ndim == 2 else 1
    moved = o2.nbytes // max(1, o2.shape[0]) * rows.size * 2 + rows.nbytes
    n = set_kernel_threads(moved if row >= OWNER_MIN_ROW else 0)
    u2 = np.ascontiguousarray(u2)  # broadcast (zero-stride) updates cannot be re-viewed
    if op == k.NONE:
        o2, u2 = _bits(o2), _bits(u2)
    launch(k.scatter_rows, o2, _c(rows), u2, op, n, False, nthreads_at=4)  # resolved rows: never a bad one
    return True


def _scatter(
    k: Any,
    out: np.ndarray[Any, Any],
    idx: np.ndarray[Any, Any],
    u: np.ndarray[Any, Any],
    spec: IndexSpec,
    reduction: str,
    *,
    raw: bool,
    wrap: bool = False,
    data: np.ndarray[Any, Any] | None = None,
    fresh: bool = False,
) -> bool | None:
    """The scatter into ``out`` on the kernels; ``data`` (when given) is first copied into ``out``.

    Returns True when done, False when the kernels do not apply, None when
    ``raw`` indices hold a bad index. ``fresh``: ``out`` is the core's own output,
    which it rewrites or drops after a None; the kernel then checks each index as it
    goes (no separate pass: a quarter of ScatterElements add's time, benchmarks/README.md)
    and ``out`` may be half-written after a None. Otherwise (the caller's array) one
    checking pass runs first (or the kernel checks every index before its first write:
    :func:`~gatherscatter.backends.numba_kernels.put_rows`) and nothing is written after a
    False or a None.
    Resolved (``raw=False``) calls take elementwise specs only.
    """
    op = _opcode(k, reduction, out.dtype)
    if op is None:
        return False
    a = spec.axis
    if spec.elementwise:
        shapes = _elementwise_3d(out.shape, idx.shape, a)
        if shapes is None or out.dtype.itemsize > 8:
            return False
        d3, i3 = shapes
        n = set_kernel_threads(u.nbytes * 3 + idx.nbytes)
        ic = _c(idx)
        if raw and not fresh and launch(k.count_bad, ic.reshape(-1), d3[1], wrap):
            return None
        by_row = i3[2] == 1 and i3[0] >= n  # the last-axis kernel, one row per task
        fuse = by_row and d3[2] == 1 and data is not None  # data's copy fused into it, row by row
        if data is not None and not fuse:
            _copy(k, out, data)
        o3 = out.reshape(d3)
        u3 = np.ascontiguousarray(u).reshape(i3)
        src = data.reshape(d3) if fuse and data is not None else o3
        if op == k.NONE:
            o3, u3, src = _bits(o3), _bits(u3), _bits(src)
        if by_row:
            bad = launch(
                k.scatter_elements2, o3[:, :, 0], src[:, :, 0], ic.reshape(i3[:2]), u3[:, :, 0], op, fuse, wrap and raw
            )
        else:
            if i3[0] < n:
                # column blocks (fewer leading slices than threads): each thread scans every update;
                # 2 threads measured 1.5x slower than 1 on ScatterElements add axis 0 (64 columns) and
                # 1.04x slower on max in the full runs (a 1.3x gain in a direct kernel measurement)
                n = 1
            bad = launch(k.scatter_elements3, o3, ic.reshape(i3), u3, op, n, wrap and raw, nthreads_at=4)
        return None if bad else True
    if not raw:
        return False
    b, kd = spec.batch, spec.depth
    B, P = prod(out.shape[:b]), prod(out.shape[b:a])
    if spec.vector and (kd == 0 or P != 1):
        return False
    if spec.vector and not (kd == 1 and B == 1):
        n = set_kernel_threads(u.nbytes * 2 + idx.nbytes)
        found = _nd_rows(k, idx, out.shape, spec, wrap)
        if found is None:
            return None
        rows, R = found
        wrap = False
        one_pass = _puts(k, op, out, R, data)
    elif B * P == 1:
        R = prod(out.shape[a + 1 :])
        rows = _c(idx).reshape(-1)
        n = set_kernel_threads(u.nbytes * 2 + idx.nbytes)
        one_pass = _puts(k, op, out, R, data)
        if not fresh and not one_pass and launch(k.count_bad, rows, out.shape[a], wrap):
            return None
    else:
        return False
    if one_pass and data is not None:
        set_kernel_threads(u.nbytes * 2 + idx.nbytes + 2 * out.nbytes)
        o1, d1, u1 = _bits(out.reshape(-1)), _bits(data.reshape(-1)), _bits(np.ascontiguousarray(u).reshape(-1))
        last = np.empty(out.size // R, np.int32 if rows.size < 2**31 else np.int64)
        r = R * out.itemsize // o1.itemsize
        return None if launch(k.put_rows, o1, d1, rows, u1, r, wrap, last) else True
    if data is not None:
        _copy(k, out, data)
    o2 = out.reshape(-1, R)
    u2 = np.ascontiguousarray(u).reshape(-1, R)
    if op == k.NONE:
        o2, u2 = _bits(o2), _bits(u2)
    if _owner_threads(n, R) < n:
        n = set_kernel_threads(0)
    return None if launch(k.scatter_rows, o2, rows, u2, op, n, wrap, nthreads_at=4) else True
