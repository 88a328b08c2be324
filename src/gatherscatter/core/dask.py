"""Gather and scatter on Dask arrays: the core primitives, block by block, exactly.

Every op (the neutral API and the framework ops) lowers to one primitive, a
``gather`` or a ``scatter`` with an :class:`~gatherscatter.core.shape.IndexSpec`
and a :class:`~gatherscatter.core.policy.Policy`. When an array argument is a
Dask array, :func:`run_op` lowers the call as usual (the lowering only reads
shapes and dtypes) and runs that primitive here, returning a lazy Dask array.
Dask (the ``dask`` extra) is imported on the first such call, never when
gatherscatter is imported. It lives in ``core`` rather than ``backends`` because it runs the core's own
primitives block by block (``backends`` import nothing from ``core``: see ``core/accel.py``).

How it runs (two phases)
------------------------
The data dims an index addresses (``axis .. axis+depth-1``; for elementwise
specs, ``axis``) are the *indexed* dims; every other dim of the output is
*aligned* with a data dim (batch, pre-axis and trailing dims; for elementwise
specs, every dim but ``axis``), so indices and updates are rechunked to the
data's chunks there and only the indexed dims need routing.

1. **Plan** (eager, when the result is built): every index block is resolved by
   the core (:func:`~gatherscatter.core.indices.resolve`: negative and bounds
   policy against the *whole* indexed extent) and reduced to the set of data
   blocks it touches, a few bytes per block. A bad index raises here the NumPy
   path's typed error, at the same position (the first bad index in row-major
   order). Dask indices are computed for this (with the active scheduler or
   ``distributed`` client) and once more when the result is computed: indices
   that are expensive to compute should be ``persist()``-ed first. We chose this
   over an all-pairs graph (each index block against every data block, as
   ``x[dask_index]`` does): a lazy graph cannot know which blocks are touched,
   so it would read every data block for a gather of three rows. The graph
   therefore has one task per (index block, touched data block), never one per
   index.
2. **Route and combine** (lazy): a ``split`` task per index block groups its
   (resolved) indices by target block. A *gather* reads each touched data block
   in exactly one task, which cuts the values every output block needs from it
   (``(positions, values)`` per output block); an output block collects its
   pieces (a getter per piece, on that task's result, not on the data block) and
   places them; an out-of-range index under ``fill`` gives ``fill_value``. So a
   data block is held only while its one task runs, however many index blocks
   touch it (random rows touch every block from every index block). A *scatter* output
   block starts as a copy of its data block and folds in, one task per touching
   index block, the updates that land in it, by calling the core
   :func:`~gatherscatter.core.scatter.scatter` on the block. The order of the fold
   makes it exact: two updates can only collide when they agree on every aligned
   coordinate, i.e. they differ only along the index dims (``M``; for
   elementwise specs, along ``axis``); the fold visits the index blocks in that
   order (the trailing ``M`` dims are kept in one chunk so that block order is
   row-major order), and within a block the core applies updates in row-major
   order. So ``duplicates='last'`` picks the same winner, ``'first'`` (the fold
   runs backwards) too, and every reduction combines each element's updates in
   the NumPy path's order: float sums are bit-identical. ``include_self=False``
   writes the neutral element on a position's first hit; ``mean`` sums in the
   fold, counts the hits and divides at the end, as the core does.

Memory: an index block's routed share of one output block is a *piece* (its own
key: the index block's routing and its update block are released once routed,
and a ``distributed`` worker can spill pieces that wait for their fold). The
plan counts the indices of every piece, so consecutive pieces of a fold are
grouped into one task while they hold at most about one data block's bytes: a
task holds a data block (the running output block) and at most about a block of
pieces, and with evenly spread indices a whole fold is one task, so no running
block waits in memory between tasks (between tasks it is a key only the next
one reads, updated in place). ``duplicates='raise'`` is checked per output block
when it is computed, and names the first two updates (global positions) that hit
its smallest duplicated position; when duplicates sit in several blocks, which
block reports first depends on the scheduler (the NumPy path names the globally
smallest target).

Not supported: ``out=`` (a Dask result is a new lazy array), arrays with unknown
(NaN) chunk sizes, and framework ops whose adapters need NumPy values (they raise
:class:`~gatherscatter.UnsupportedError` naming the op).

>>> import pytest; da = pytest.importorskip("dask.array")  # skipped where the dask extra is absent
>>> import numpy as np, gatherscatter as gs
>>> grid = da.zeros(6, chunks=2, dtype=np.float64)
>>> hits = da.from_array(np.array([4, 1, 4, 5, 1, 4]), chunks=3)
>>> y = gs.scatter_along_axis(grid, hits, da.ones(6, chunks=3), 0, reduction="add")
>>> y.compute().tolist()
[0.0, 2.0, 0.0, 0.0, 3.0, 1.0]
"""

from __future__ import annotations

import importlib
import itertools
import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import (
    ArgumentError,
    DTypeError,
    DuplicateIndexError,
    GatherScatterError,
    IndexOutOfRangeError,
    UnsupportedError,
)
from .context import OpContext
from .gather import fill_scalar
from .indices import format_position, resolve
from .policy import Bounds, Duplicates, Negative, Policy, Reduction
from .scatter import _mean_divide, identity_of, reduction_ufunc
from .scatter import scatter as core_scatter
from .shape import IndexSpec, check_spec, check_updates_shape, dtype_name, prod

__all__ = ["gather", "has_dask_array", "is_dask_array", "run_op", "scatter"]

Array = np.ndarray[Any, Any]
Chunks = tuple[tuple[int, ...], ...]

_ROWS = IndexSpec(axis=0, depth=1, vector=True)
"""A block's scatter as the core sees it: whole rows ``acc2[T[n]] <- vals[n]`` of a 2-D view."""


def _key(name: str, block: tuple[int, ...]) -> tuple[Any, ...]:
    return (name, *block)


def _module(name: str) -> Any:
    """A Dask module, imported on first use (``dask`` extra); typed ``Any`` (Dask ships no complete stubs)."""
    return importlib.import_module(name)


def is_dask_array(x: Any) -> bool:
    """Whether ``x`` is a Dask array (decided without importing Dask)."""
    return type(x).__module__.startswith("dask.") and hasattr(x, "chunks") and hasattr(x, "dask")


def has_dask_array(args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
    """Whether a Dask array is among ``args``/``kwargs`` (or one level inside a tuple or list of them).

    None can be while Dask is not imported (every op call asks: 1.9 µs of a 20 µs call, saved then)."""
    if "dask" not in sys.modules:
        return False
    for v in itertools.chain(args, kwargs.values()):
        if is_dask_array(v) or (isinstance(v, (tuple, list)) and any(is_dask_array(x) for x in v)):
            return True
    return False


# ------------------------------------------------------------------------------ entry points


def run_op(lower: Callable[..., Any], qualname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``op(*args, **kwargs)`` of a registered op with Dask arguments: a lazy Dask array.

    The op's lowering runs unchanged (Dask arrays pass through its shape and dtype
    checks, so the same typed errors come out); its primitive then runs here, and
    its ``post`` adapter (a reshape or axis move) is applied to the Dask result.
    """
    da = _module("dask.array")

    # a 0-d Dask array is one scalar: computed here, since some ops' promotion rules read scalar values
    args = tuple(_scalar(x) for x in args)
    kwargs = {k: _scalar(v) for k, v in kwargs.items()}
    if not has_dask_array(args, kwargs):
        return da.asarray(lower(*args, **kwargs).run())
    try:
        low = lower(*args, **kwargs)
    except ArgumentError as exc:
        if _type_refused(lower, args, kwargs, str(exc)):
            raise UnsupportedError(f"{qualname}: this op does not accept Dask arrays here ({exc})") from None
        raise
    except GatherScatterError:
        raise
    except Exception as exc:  # an adapter that needs NumPy values (dask raised on it)
        raise UnsupportedError(
            f"{qualname}: this op does not accept Dask arrays (its adapters need NumPy values: "
            f"{type(exc).__name__}: {exc}); call it on NumPy arrays"
        ) from None
    lazy = [x for x in (low.data, low.indices, low.updates) if x is not None and is_dask_array(x)]
    if not lazy and low.result is None:
        raise UnsupportedError(
            f"{qualname}: this op does not accept Dask arrays (its adapters turned them into NumPy arrays); "
            f"call it on NumPy arrays"
        )
    if low.out is not None:
        raise UnsupportedError(f"{qualname}: out= is not supported with Dask arrays (the result is a new lazy array)")
    if low.result is not None:
        return da.asarray(low.result)
    if low.primitive == "gather":
        res = gather(low.data, low.indices, low.spec, low.policy, low.ctx)
    else:
        res = scatter(low.data, low.indices, low.updates, low.spec, low.policy, low.ctx)
    if low.post is not None:
        try:
            res = low.post(res)
        except GatherScatterError:
            raise
        except Exception as exc:
            raise UnsupportedError(
                f"{qualname}: this op does not accept Dask arrays (its output adapter needs NumPy values: "
                f"{type(exc).__name__}: {exc}); call it on NumPy arrays"
            ) from None
        if not is_dask_array(res):
            raise UnsupportedError(
                f"{qualname}: this op does not accept Dask arrays (its output adapter needs NumPy values); "
                f"call it on NumPy arrays"
            )
    return res


def _type_refused(lower: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], msg: str) -> bool:
    """Whether an ArgumentError came from the Dask type itself: NumPy stand-ins of the same shape and dtype
    (zero-stride views, no memory) do not raise it."""

    def np_like(v: Any) -> Any:
        if is_dask_array(v):
            return np.broadcast_to(np.zeros((), v.dtype), v.shape)
        if isinstance(v, (tuple, list)):
            return type(v)(np_like(x) for x in v)
        return v

    try:
        lower(*(np_like(x) for x in args), **{k: np_like(v) for k, v in kwargs.items()})
    except ArgumentError as again:
        return str(again) != msg
    except Exception:
        return True
    return True


def _scalar(x: Any) -> Any:
    return x.compute() if is_dask_array(x) and x.ndim == 0 else x


def gather(data: Any, indices: Any, spec: IndexSpec, policy: Policy, ctx: OpContext) -> Any:
    """The core :func:`~gatherscatter.core.gather.gather` on Dask (or NumPy) arrays: a lazy Dask array.

    ``data`` keeps its chunks; the output has the data's chunks on aligned dims
    and the indices' chunks on the index dims. Equal, bit for bit, to the NumPy
    path once computed.
    """
    da = _module("dask.array")

    g = _Geometry(data, indices, spec, ctx, scatter=False)
    if policy.bounds is Bounds.DROP:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'drop' applies to scatters; use 'fill' for gathers")
    fill = fill_scalar(g.dtype, policy.fill_value, ctx) if policy.bounds is Bounds.FILL else np.zeros((), g.dtype)
    touched = _plan(g, policy, ctx)
    name = "gs-gather-" + _token(g, policy, "gather")
    split = "gs-split-" + _token(g, policy, "gsplit")
    part = "gs-part-" + _token(g, policy, "gpart")
    read = "gs-read-" + _token(g, policy, "gread")
    dsk: dict[Any, Any] = {}
    # each touched data block is read by ONE task, which cuts the pieces of every output block that needs it;
    # a part is a getter on that task's result, so the (large) data block is released as soon as it was read
    readers: dict[tuple[int, ...], list[list[Any]]] = {}
    for ib, blk_touched in touched.items():
        skey = (split, *ib)
        dsk[skey] = (_split, (g.iname, *ib, *g.vtail), *g.split_args(ib), policy, ctx)
        for ob in g.out_blocks_of(ib):
            parts = []
            for t in blk_touched:
                db = g.data_block(ob, t)
                uses = readers.setdefault(db, [])
                pkey = (part, *ob, t)
                dsk[pkey] = (operator.getitem, (read, *db), len(uses))
                uses.append([skey, t, *g.part_args(ib, ob)[:2]])
                parts.append(pkey)
            dsk[_key(name, ob)] = (_gather_assemble, parts, g.out_block_shape(ob), fill, *g.part_args(ib, ob))
    for db, uses in readers.items():
        dsk[(read, *db)] = (_gather_read, (g.dname, *db), uses, g.spec)
    graph = _graph(name, dsk, [g.d, g.i])
    return da.Array(graph, name, chunks=g.out_chunks, dtype=g.dtype, meta=np.empty((0,) * len(g.out_chunks), g.dtype))


def scatter(data: Any, indices: Any, updates: Any, spec: IndexSpec, policy: Policy, ctx: OpContext) -> Any:
    """The core :func:`~gatherscatter.core.scatter.scatter` on Dask (or NumPy) arrays: a lazy Dask array.

    The result has the data's chunks. Equal, bit for bit, to the NumPy path once
    computed (see the module docstring for the order that makes it so).
    """
    da = _module("dask.array")

    g = _Geometry(data, indices, spec, ctx, scatter=True)
    if policy.bounds is Bounds.FILL:
        raise UnsupportedError(f"{ctx.label}: bounds policy 'fill' applies to gathers; use 'drop' for scatters")
    u = updates if is_dask_array(updates) else np.asarray(updates)
    if u.dtype != g.dtype:
        raise DTypeError(
            f"{ctx.label}: {ctx.updates} dtype {dtype_name(u.dtype)} must equal {ctx.data} dtype {dtype_name(g.dtype)}"
        )
    check_updates_shape(ctx, tuple(u.shape), g.dshape, g.ishape, spec)
    red = policy.reduction
    if red is not Reduction.NONE:
        reduction_ufunc(ctx, red, g.dtype)  # the core's dtype rules, before any work
    u = _rechunked(u, g.out_chunks)
    touched = _plan(g, policy, ctx)
    tok = _token(g, policy, "scatter", u.name)
    name, split, state, piece = "gs-scatter-" + tok, "gs-ssplit-" + tok, "gs-sstate-" + tok, "gs-spiece-" + tok
    dsk: dict[Any, Any] = {}
    for ib in touched:
        dsk[_key(split, ib)] = (_split, (g.iname, *ib, *g.vtail), *g.split_args(ib), policy, ctx)
    first = policy.duplicates is Duplicates.FIRST and red is Reduction.NONE
    raise_dup = policy.duplicates is Duplicates.RAISE and red is Reduction.NONE
    per_update = g.dtype.itemsize * g.row_len + 16  # a routed update: its values, row id and position (bound)
    for db in itertools.product(*(range(len(c)) for c in g.dchunks)):
        chain = [(ib, ob, t) for ib, ob, t in g.sources_of(db) if t in touched[ib]]
        if first:
            chain.reverse()
        dbshape = tuple(g.dchunks[d][j] for d, j in enumerate(db))
        # consecutive pieces are folded in one task while they hold at most about one data block's bytes
        # (their sizes are known from the plan): the running block then crosses few task boundaries
        budget = max(1 << 20, prod(dbshape) * g.dtype.itemsize)
        groups: list[list[Any]] = [[]]
        held = 0
        for n, (ib, ob, t) in enumerate(chain):
            pkey = (piece, *db, n)
            dsk[pkey] = (
                _route, _key(split, ib), t, _key(u.name, ob), *g.part_args(ib, ob), dbshape, g.block_offsets(ib),
                g.ispace, raise_dup,
            )
            size = touched[ib][t] * per_update * (prod(g.out_block_shape(ob)) // max(1, prod(g.iblock_shape(ib))))
            if groups[-1] and held + size > budget:
                groups.append([])
                held = 0
            groups[-1].append(pkey)
            held += size
        key: Any = _key(g.dname, db)
        for n, grp in enumerate(groups):
            last = n == len(groups) - 1
            nxt = _key(name, db) if last else (state, *db, n)
            dsk[nxt] = (
                _scatter_fold, key, n == 0, last, g.nlead, policy, ctx, g.block_starts(db), g.row_len, g.ispace, *grp
            )
            key = nxt
    graph = _graph(name, dsk, [g.d, g.i, u])
    return da.Array(graph, name, chunks=g.d.chunks, dtype=g.dtype, meta=np.empty((0,) * g.d.ndim, g.dtype))


# ------------------------------------------------------------------------------ geometry


def _starts(chunks: tuple[int, ...]) -> Array:
    return np.concatenate([[0], np.cumsum(chunks, dtype=np.int64)])


def _truncate(chunks: tuple[int, ...], n: int) -> tuple[int, ...]:
    """The leading chunks covering ``n`` elements (the last one cut short)."""
    out: list[int] = []
    left = n
    for c in chunks:
        if left <= 0:
            break
        out.append(min(c, left))
        left -= out[-1]
    return tuple(out) if out else (0,)


def _rechunked(x: Any, chunks: Chunks) -> Any:
    da = _module("dask.array")

    if is_dask_array(x):
        return x if x.chunks == chunks else x.rechunk(chunks)
    return da.from_array(x, chunks=chunks)


class _Geometry:
    """Shapes, chunks and block bookkeeping of one call (data, indices, spec)."""

    def __init__(self, data: Any, indices: Any, spec: IndexSpec, ctx: OpContext, scatter: bool) -> None:
        da = _module("dask.array")

        d: Any = np.asarray(data) if not is_dask_array(data) else data
        if not is_dask_array(d):  # NumPy data: Dask's automatic chunks (objects have no size estimate: one chunk)
            d = da.from_array(d, chunks=-1 if d.dtype.kind == "O" else "auto")
        i: Any = indices if is_dask_array(indices) else np.asarray(indices)
        for x, what in ((d, ctx.data), (i, ctx.indices)):
            if any(np.isnan(s) for s in x.shape):
                raise UnsupportedError(
                    f"{ctx.label}: {what} has unknown (NaN) chunk sizes; call compute_chunk_sizes() first"
                )
        if i.dtype.kind not in "iu":
            raise DTypeError(f"{ctx.label}: {ctx.indices} must have an integer dtype; got {dtype_name(i.dtype)}")
        check_spec(ctx, tuple(d.shape), tuple(i.shape), spec)
        self.spec, self.dtype = spec, d.dtype
        self.dshape, self.ishape = tuple(int(s) for s in d.shape), tuple(int(s) for s in i.shape)
        a, b, k = spec.axis, spec.batch, spec.depth
        self.ispace = self.ishape[:-1] if spec.vector else self.ishape  # one entry per index (tuple)
        dc = d.chunks
        if spec.elementwise:
            ichunks = tuple(
                _auto(i, dim, d.dtype.itemsize) if dim == a else _truncate(dc[dim], self.ishape[dim])
                for dim in range(len(self.ishape))
            )
            self.indexed: tuple[int, ...] = (a,)
            self.out_chunks = ichunks
        else:
            m = len(self.ispace) - b
            per = d.dtype.itemsize * prod([max(c) for c in dc[b:a]]) * prod([max(c) for c in dc[a + k :]])
            mchunks = tuple(
                (self.ispace[b + j],) if scatter and j > 0 else _auto(i, b + j, per) for j in range(m)
            )  # a scatter keeps the trailing index dims whole: block order is then row-major order
            ichunks = tuple(dc[:b]) + mchunks + (((k,),) if spec.vector else ())
            self.indexed = tuple(range(a, a + k))
            self.out_chunks = tuple(dc[:b]) + tuple(dc[b:a]) + mchunks + tuple(dc[a + k :])
        self.d, self.i = d, _rechunked(i, ichunks)
        self.dchunks = d.chunks
        self.dname, self.iname = d.name, self.i.name
        self.vtail = (0,) if spec.vector else ()
        self.row_len = 1 if spec.elementwise else prod(self.dshape[a + k :])
        self.nlead = len(self.dshape) if spec.elementwise else a + k  # data dims that number the rows
        self.concrete = not is_dask_array(indices)
        self.sizes = tuple(self.dshape[x] for x in self.indexed)
        self.igrid = tuple(len(c) for c in (self.i.chunks[:-1] if spec.vector else self.i.chunks))
        self.tgrid = tuple(len(dc[x]) for x in self.indexed)  # blocks along the indexed dims

    # -- index blocks

    def index_blocks(self) -> Any:
        return itertools.product(*(range(n) for n in self.igrid))

    def iblock_shape(self, ib: tuple[int, ...]) -> tuple[int, ...]:
        ch = self.i.chunks
        return tuple(ch[d][j] for d, j in enumerate(ib))

    def block_offsets(self, ib: tuple[int, ...]) -> tuple[int, ...]:
        ch = self.i.chunks
        return tuple(int(sum(ch[d][:j])) for d, j in enumerate(ib))

    def split_args(self, ib: tuple[int, ...]) -> tuple[Any, ...]:
        """What :func:`_targets` needs besides the block: sizes, spec and the indexed dims' chunks."""
        return (self.sizes, self.spec, tuple(self.dchunks[x] for x in self.indexed))

    # -- blocks of the output / data

    def out_blocks_of(self, ib: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Output (= update) blocks fed by index block ``ib`` (every aligned P and R block)."""
        s = self.spec
        if s.elementwise:
            return [ib]
        b, a, k = s.batch, s.axis, s.depth
        pr = [range(len(c)) for c in self.dchunks[b:a]], [range(len(c)) for c in self.dchunks[a + k :]]
        return [
            ib[:b] + p + ib[b:] + r for p in itertools.product(*pr[0]) for r in itertools.product(*pr[1])
        ]

    def data_block(self, ob: tuple[int, ...], t: int) -> tuple[int, ...]:
        """The data block holding output block ``ob``'s values from touched block ``t``."""
        s = self.spec
        tb = tuple(int(x) for x in np.unravel_index(t, self.tgrid)) if self.tgrid else ()
        if s.elementwise:
            return ob[: s.axis] + tb + ob[s.axis + 1 :]
        b, a, _k = s.batch, s.axis, s.depth
        m = len(self.ispace) - b
        return ob[:a] + tb + ob[a + m :]

    def sources_of(self, db: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """``(index block, update block, touched id)`` that may write data block ``db``, in fold order."""
        s = self.spec
        t = int(np.ravel_multi_index(tuple(db[x] for x in self.indexed), self.tgrid)) if self.tgrid else 0
        out = []
        if s.elementwise:
            a = s.axis
            if any(db[x] >= self.igrid[x] for x in range(len(db)) if x != a):
                return []
            for j in range(self.igrid[a]):
                ib = db[:a] + (j,) + db[a + 1 :]
                out.append((ib, ib, t))
            return out
        b, a, k = s.batch, s.axis, s.depth
        for mb in itertools.product(*(range(n) for n in self.igrid[b:])):
            ib = db[:b] + mb
            out.append((ib, db[:a] + mb + db[a + k :], t))
        return out

    def block_starts(self, db: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(sum(self.dchunks[d][:j])) for d, j in enumerate(db))

    def out_block_shape(self, ob: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(self.out_chunks[d][j] for d, j in enumerate(ob))

    def part_args(self, ib: tuple[int, ...], ob: tuple[int, ...]) -> tuple[Any, ...]:
        """The block geometry a part/step needs: ``(ibshape, obshape, spec)``."""
        return (self.iblock_shape(ib), self.out_block_shape(ob), self.spec)


def _auto(i: Any, dim: int, per: int) -> tuple[int, ...]:
    """The index array's own chunks on ``dim``; NumPy indices: blocks of at most 2**22 indices whose output
    (``per`` bytes per index) stays within 64 MiB."""
    if is_dask_array(i):
        return tuple(i.chunks[dim])
    n = int(i.shape[dim])
    inner = max(1, prod(i.shape[dim + 1 :]))
    step = max(1, min(1 << 22, (1 << 26) // max(1, per)) // inner)
    return tuple(min(step, n - s) for s in range(0, n, step)) if n else (0,)


def _token(g: _Geometry, policy: Policy, what: str, *extra: Any) -> str:
    return str(_module("dask.base").tokenize(what, g.dname, g.iname, g.spec, policy.describe(), g.out_chunks, *extra))


def _graph(name: str, dsk: dict[Any, Any], deps: list[Any]) -> Any:
    hlg = _module("dask.highlevelgraph").HighLevelGraph
    return hlg.from_collections(name, dsk, dependencies=[x for x in deps if is_dask_array(x)])


# ------------------------------------------------------------------------------ phase 1: plan


def _targets(
    blk: Array, sizes: tuple[int, ...], spec: IndexSpec, tchunks: tuple[tuple[int, ...], ...], policy: Policy,
    ctx: OpContext,
) -> tuple[Array, Array, Array]:
    """For each valid index of one block: its flat position in the block, target block id, offset in that block.

    Positions are row-major over the block's index space (without the tuple
    axis); the offset is row-major within the target block's indexed dims.
    Indices are resolved against the whole indexed extent (the policy applies as
    on NumPy); invalid ones (``fill``/``drop``) are left out.
    """
    lin, valid = resolve(ctx, blk, sizes, spec, policy)
    lin = lin.reshape(-1)
    pos = np.arange(lin.size, dtype=np.int64)
    if valid is not None:
        keep = valid.reshape(-1)
        pos, lin = pos[keep], lin[keep]
    if not sizes:
        z = np.zeros(pos.size, np.int64)
        return pos, z, z
    comps = np.unravel_index(lin, sizes) if len(sizes) > 1 else (lin,)
    t: Array | None = None
    loc: Array | None = None
    for c, ch in zip(comps, tchunks, strict=True):
        size: Any
        if len(ch) == 1:
            bj, lj, size = np.zeros(c.size, np.int64), c, ch[0]
        elif len(set(ch[:-1])) == 1 and ch[-1] <= ch[0]:  # regular chunks: a division
            bj, lj = np.divmod(c, ch[0])
            size = np.where(bj == len(ch) - 1, ch[-1], ch[0]) if ch[-1] != ch[0] else ch[0]
        else:
            st = _starts(ch)
            bj = np.searchsorted(st, c, side="right") - 1
            lj, size = c - st[bj], np.asarray(ch, np.int64)[bj]
        t = bj if t is None else t * len(ch) + bj
        loc = lj if loc is None else loc * size + lj
    assert t is not None
    assert loc is not None
    return pos, t, loc


def _summarize(
    blk: Array, offsets: tuple[int, ...], ishape: tuple[int, ...], sizes: tuple[int, ...], spec: IndexSpec,
    tchunks: tuple[tuple[int, ...], ...], policy: Policy, ctx: OpContext,
) -> tuple[Any, ...]:
    """Phase 1 for one index block: ``('ok', touched block ids)`` or ``('bad', flat position, error fields)``."""
    try:
        _, t, _ = _targets(np.asarray(blk), sizes, spec, tchunks, policy, ctx)
    except IndexOutOfRangeError as exc:
        local = exc.position or ()
        glob = tuple(p + o for p, o in zip(local, offsets, strict=False))
        msg = str(exc).replace(format_position(ctx.indices, local), format_position(ctx.indices, glob), 1)
        flat = int(np.ravel_multi_index(glob, ishape)) if glob else 0
        return ("bad", flat, msg, exc.value, glob, exc.valid)
    ids, counts = np.unique(t, return_counts=True)
    return ("ok", ids, counts)


def _plan(g: _Geometry, policy: Policy, ctx: OpContext) -> dict[tuple[int, ...], dict[int, int]]:
    """Phase 1: the data blocks each index block touches, with how many of its indices land in each;
    raises the NumPy path's error for a bad index."""
    dask = _module("dask")

    blocks = list(g.index_blocks())
    lazy = g.i.to_delayed()
    tch = tuple(g.dchunks[x] for x in g.indexed)
    tasks = [
        dask.delayed(_summarize, pure=True)(
            lazy[ib + g.vtail], g.block_offsets(ib + g.vtail), g.ishape, g.sizes, g.spec, tch, policy, ctx
        )
        for ib in blocks
    ]
    # NumPy indices: a local pass; Dask indices: computed where they live (the active scheduler or client)
    results = dask.compute(*tasks, scheduler="sync") if g.concrete else dask.compute(*tasks)
    bad = [r for r in results if r[0] == "bad"]
    if bad:
        _, _, msg, value, pos, valid = min(bad, key=lambda r: r[1])
        raise IndexOutOfRangeError(msg, value=value, position=pos, valid=valid)
    return {ib: dict(zip(r[1].tolist(), r[2].tolist(), strict=True)) for ib, r in zip(blocks, results, strict=True)}


# ------------------------------------------------------------------------------ phase 2: tasks


def _split(
    blk: Array, sizes: tuple[int, ...], spec: IndexSpec, tchunks: tuple[tuple[int, ...], ...], policy: Policy,
    ctx: OpContext,
) -> dict[int, tuple[Array, Array]]:
    """One index block's valid indices grouped by target block: ``{t: (positions, offsets)}``, in order."""
    pos, t, loc = _targets(np.asarray(blk), sizes, spec, tchunks, policy, ctx)
    n_blocks = prod([len(c) for c in tchunks])
    # a stable sort of small block ids: NumPy sorts 8- and 16-bit keys by radix (linear time)
    key = t.astype(np.uint8 if n_blocks <= 1 << 8 else np.uint16) if n_blocks <= 1 << 16 else t
    order = np.argsort(key, kind="stable")
    t, pos, loc = t[order], pos[order], loc[order]
    cut = np.flatnonzero(np.diff(t)) + 1
    return {
        int(tt[0]): (p, lo)
        for tt, p, lo in zip(np.split(t, cut), np.split(pos, cut), np.split(loc, cut), strict=True)
        if tt.size
    }


def _dims(ish: tuple[int, ...], obshape: tuple[int, ...], dshape: tuple[int, ...], spec: IndexSpec) -> tuple[int, ...]:
    """``(B, P, S, R, M)`` block sizes of a non-elementwise block: batch, pre-axis, indexed, row, index."""
    b, a, k = spec.batch, spec.axis, spec.depth
    B, M = prod(ish[:b]), prod(ish[b:])
    P = prod(obshape[b:a])
    R = prod(obshape[len(obshape) - (len(dshape) - a - k) :]) if len(dshape) > a + k else 1
    S = prod(dshape[a : a + k])
    return B, P, S, R, M


def _element_targets(pos: Array, loc: Array, ish: tuple[int, ...], dshape: tuple[int, ...], axis: int) -> Array:
    """Flat offsets in a data block of shape ``dshape`` of elementwise indices at ``pos`` with ``loc`` on ``axis``."""
    coords = list(np.unravel_index(pos, ish))
    coords[axis] = loc
    return np.ravel_multi_index(tuple(coords), dshape).astype(np.int64, copy=False)


def _gather_part(
    groups: dict[int, tuple[Array, Array]], t: int, dblk: Array, ish: tuple[int, ...], obshape: tuple[int, ...],
    spec: IndexSpec,
) -> tuple[Array, Array]:
    """The values one data block gives one output block: ``(positions, values)``."""
    pos, loc = groups[t]
    dblk = np.asarray(dblk)
    if spec.elementwise:
        return pos, dblk.reshape(-1)[_element_targets(pos, loc, ish, dblk.shape, spec.axis)]
    B, P, S, R, M = _dims(ish, obshape, dblk.shape, spec)
    if B == 1 and P == 1:  # whole rows: one take (faster than fancy indexing with two index arrays)
        return pos, np.take(dblk.reshape(S, R), loc, axis=0).reshape(pos.size, 1, R)
    bi = pos // M
    return pos, dblk.reshape(B, P, S, R)[bi, :, loc, :]


def _gather_read(dblk: Array, uses: list[list[Any]], spec: IndexSpec) -> tuple[tuple[Array, Array], ...]:
    """Every piece one data block gives: ``(positions, values)`` for each ``[groups, t, ibshape, obshape]``
    in ``uses`` (an output block that needs the block), in order. The only task that reads the block."""
    return tuple(_gather_part(groups, t, dblk, ish, obshape, spec) for groups, t, ish, obshape in uses)


def _gather_assemble(
    parts: list[tuple[Array, Array]], obshape: tuple[int, ...], fill: Array, ish: tuple[int, ...],
    obshape2: tuple[int, ...], spec: IndexSpec,
) -> Array:
    """An output block: ``fill`` everywhere, then each part's values at their positions."""
    out = np.full(obshape, fill, fill.dtype)
    if spec.elementwise:
        flat = out.reshape(-1)
        for pos, vals in parts:
            flat[pos] = vals
        return out
    b, a = spec.batch, spec.axis
    B, M = prod(ish[:b]), prod(ish[b:])
    P = prod(obshape[b:a])
    R = prod(obshape[len(ish) + a - b :])
    if B == 1 and P == 1:
        o2 = out.reshape(M, R)
        for pos, vals in parts:
            o2[pos] = vals.reshape(pos.size, R)
        return out
    o4 = out.reshape(B, P, M, R)
    for pos, vals in parts:
        bi, mi = np.divmod(pos, M)
        o4[bi, :, mi, :] = vals
    return out


class _Fold:
    """The running output block of a scatter (as rows: ``acc2``) and what its policy needs to finish it."""

    def __init__(self, acc: Array, nlead: int, red: Reduction, include_self: bool, raise_dup: bool) -> None:
        self.acc = acc
        self.nlead = nlead
        rows = prod(acc.shape[:nlead])
        self.touched = np.zeros(rows, bool) if not include_self and red is not Reduction.NONE else None
        self.counts = np.zeros(rows, np.int64) if red is Reduction.MEAN else None
        self.first = np.full(rows, -1, np.int64) if raise_dup else None
        self.dup: tuple[int, int, int] | None = None  # (row, first hitter, second hitter)

    @property
    def acc2(self) -> Array:
        """``acc`` as rows (a view: taken again after every unpickling, which would not keep a stored view's link)."""
        return self.acc.reshape(prod(self.acc.shape[: self.nlead]), prod(self.acc.shape[self.nlead :]))


def _scatter_init(dblk: Array, nlead: int, red: Reduction, include_self: bool, raise_dup: bool) -> _Fold:
    return _Fold(np.array(dblk, copy=True, order="C"), nlead, red, include_self, raise_dup)


def _route(
    groups: dict[int, tuple[Array, Array]], t: int, ublk: Array, ish: tuple[int, ...], obshape: tuple[int, ...],
    spec: IndexSpec, dbshape: tuple[int, ...], ioffsets: tuple[int, ...], ispace: tuple[int, ...], hitters: bool,
) -> tuple[Array, Array, Array | None]:
    """One index block's share of one output block: ``(rows, values, global positions or None)``.

    ``rows`` number the output block's rows (its 2-D view), in the order the
    updates are applied; the positions (flat, over the whole index space) are
    kept only for ``duplicates='raise'``. A piece is a separate key, so that the
    index block's routing and its update block are released once routed, and a
    distributed worker can spill pieces waiting for their fold.
    """
    pos, loc = groups[t]
    ublk = np.asarray(ublk)
    if prod(dbshape) == 0:  # nothing to write (an empty row)
        return np.zeros(0, np.int32), np.zeros((0, 0), ublk.dtype), None
    if spec.elementwise:
        rows = _element_targets(pos, loc, ish, dbshape, spec.axis)
        vals = ublk.reshape(-1)[pos].reshape(-1, 1)
        gpos = pos
    else:
        B, P, S, R, M = _dims(ish, obshape, dbshape, spec)
        bi, mi = np.divmod(pos, M)
        rows = ((bi[:, None] * P + np.arange(P, dtype=np.int64)) * S + loc[:, None]).reshape(-1)
        vals = ublk.reshape(B, P, M, R)[bi, :, mi, :].reshape(-1, R)
        gpos = np.repeat(pos, P)
    if prod(dbshape) < 2**31:
        rows = rows.astype(np.int32)
    glob = None
    if hitters:
        glob = np.ravel_multi_index(
            tuple(c + o for c, o in zip(np.unravel_index(gpos, ish), ioffsets, strict=False)), ispace
        ) if ish else np.zeros(gpos.size, np.int64)
    return rows, vals, glob


def _scatter_step(st: _Fold, piece: tuple[Array, Array, Array | None], policy: Policy, ctx: OpContext) -> _Fold:
    """Fold one piece of updates into the running block (in place; the state is read by this step only)."""
    rows, vals, glob = piece
    acc = st.acc
    if acc.size == 0:
        return st
    acc2 = st.acc2
    if st.first is not None and glob is not None:
        _track_duplicates(st, rows, np.asarray(glob, np.int64))
    red = policy.reduction
    if st.touched is not None:
        fresh = rows[~st.touched[rows]]
        if fresh.size:
            acc2[fresh] = identity_of(red, acc.dtype)
            st.touched[fresh] = True
    if st.counts is not None:
        np.add.at(st.counts, rows, 1)
    step = Policy(
        reduction=Reduction.ADD if red is Reduction.MEAN else red,
        duplicates=Duplicates.FIRST if policy.duplicates is Duplicates.FIRST else Duplicates.LAST,
        negative=Negative.RAISE,
    )
    core_scatter(acc2, rows.reshape(-1, 1), vals, _ROWS, step, ctx, out=acc2)
    return st


def _scatter_fold(
    prev: Any, first: bool, last: bool, nlead: int, policy: Policy, ctx: OpContext, starts: tuple[int, ...],
    row_len: int, ispace: tuple[int, ...], *pieces: tuple[Array, Array, Array | None],
) -> Any:
    """Fold consecutive pieces: from the data block (``first``) or the running state, to the finished block
    (``last``) or the running state."""
    red = policy.reduction
    raise_dup = policy.duplicates is Duplicates.RAISE and red is Reduction.NONE
    st = _scatter_init(prev, nlead, red, policy.include_self, raise_dup) if first else prev
    for pc in pieces:
        st = _scatter_step(st, pc, policy, ctx)
    return _scatter_finish(st, policy, ctx, starts, nlead, row_len, ispace) if last else st


def _track_duplicates(st: _Fold, rows: Array, glob: Array) -> None:
    """Remember the smallest row hit twice and its first two hitters (``duplicates='raise'``)."""
    assert st.first is not None
    order = np.argsort(rows, kind="stable")
    srt = rows[order]
    head = np.ones(srt.size, bool)
    head[1:] = srt[1:] != srt[:-1]
    cands: list[tuple[int, int, int]] = []
    prior = st.first[srt[head]]
    hit_before = np.flatnonzero(prior >= 0)
    if hit_before.size:
        j = hit_before[0]
        cands.append((int(srt[head][j]), int(prior[j]), int(glob[order[head]][j])))
    twice = np.flatnonzero(~head)
    if twice.size:
        j = twice[0] - 1  # the first row hit twice within this step: its first and second hitters
        r = int(srt[j])
        if st.first[r] < 0:
            cands.append((r, int(glob[order[j]]), int(glob[order[j + 1]])))
    new = srt[head][prior < 0]
    st.first[new] = glob[order[head]][prior < 0]
    for c in cands:
        if st.dup is None or c[0] < st.dup[0]:
            st.dup = c


def _scatter_finish(
    st: _Fold, policy: Policy, ctx: OpContext, starts: tuple[int, ...], nlead: int, row_len: int,
    ispace: tuple[int, ...],
) -> Array:
    """The finished output block: duplicates checked, means divided."""
    if st.dup is not None:
        row, n1, n2 = st.dup
        lead = np.unravel_index(row, st.acc.shape[:nlead]) if nlead else ()
        target = [int(c) + s for c, s in zip(lead, starts, strict=False)] + [0] * (st.acc.ndim - nlead)
        p1, p2 = (tuple(int(x) for x in np.unravel_index(n, ispace)) if ispace else () for n in (n1, n2))
        what = "element" if row_len == 1 else "slice starting at"
        raise DuplicateIndexError(
            f"{ctx.label}: {format_position(ctx.indices, p1)} and {format_position(ctx.indices, p2)} both address "
            f"the {ctx.data} {what} {target}; duplicate indices are not allowed without a reduction "
            f"(duplicates='raise')"
        )
    if st.counts is not None:
        hit = np.flatnonzero(st.counts)
        if hit.size:
            extra = 1 if policy.include_self else 0
            st.acc2[hit] = _mean_divide(st.acc2[hit], (st.counts[hit] + extra)[:, None], policy.mean_rounding)
    return st.acc
