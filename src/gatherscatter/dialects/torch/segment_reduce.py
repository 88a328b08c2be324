"""PyTorch ``torch.segment_reduce`` (2.13, CPU): reductions over consecutive segments given by lengths or offsets."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, as_index_array, dtype_name
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .. import _record as rec
from .._common import data_array
from .._record import Description, Mapper, Step, canonical, real_ids
from .._registry import Lowering, dialect_op, divergence_table
from .._segment import empty_value, tie_zeros
from ._common import GRAD, VERSION, as_bool, norm_dim, torch_context

#: reduce string -> (core reduction, empty segment value without ``initial``); 'amax'/'amin' are torch's aliases
REDUCE: dict[str, tuple[Reduction, str]] = {
    "sum": (Reduction.ADD, "zero"),
    "mean": (Reduction.ADD, "nan"),
    "max": (Reduction.MAX, "-inf"),
    "amax": (Reduction.MAX, "-inf"),
    "min": (Reduction.MIN, "+inf"),
    "amin": (Reduction.MIN, "+inf"),
    "prod": (Reduction.MUL, "one"),
}
DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})

divergence_table("torch.segment_reduce", __file__)


def _lengths(ctx: Any, lengths: Any, offsets: Any, shape: tuple[int, ...]) -> tuple[np.ndarray[Any, Any], int]:
    """Segment lengths (batch dims + (segments,)) and the reduced axis, from ``lengths`` or ``offsets``."""
    if lengths is not None:
        ln = as_index_array(ctx, lengths, "lengths", frozenset({"int32", "int64"}))
        if ln.ndim == 0:
            raise ShapeError(f"{ctx.label}: lengths must have at least 1 dimension (got a 0-d array)")
        if (ln < 0).any():
            pos = tuple(int(p) for p in np.unravel_index(int(np.argmax((ln < 0).reshape(-1))), ln.shape))
            raise ctx.index_rule_error(
                shown=str(int(ln[pos])), position=pos, value=int(ln[pos]), name="lengths",
                rule=f"is negative: lengths contains negative value! (lengths = {ln.tolist()})",
            )
        return ln.astype(np.int64), ln.ndim - 1
    off = as_index_array(ctx, offsets, "offsets", frozenset({"int32", "int64"}))
    if off.ndim == 0 or off.shape[-1] == 0:
        raise ShapeError(
            f"{ctx.label}: offsets must have at least 1 dimension and 1 entry (got shape {list(off.shape)})"
        )
    ln = np.diff(off.astype(np.int64), axis=-1)
    if (ln < 0).any():
        pos = tuple(int(p) for p in np.unravel_index(int(np.argmax((ln < 0).reshape(-1))), ln.shape))
        after = (*pos[:-1], pos[-1] + 1)
        raise ctx.index_rule_error(
            shown=str(int(off[after])), position=after, value=int(off[after]), name="offsets",
            rule=f"follows {int(off[pos])}: Expected segment_length >= 0 to be true, but got false (offsets must be "
            f"non-decreasing; got {off.tolist()})",
        )
    if off.size and (off < 0).any():
        pos = tuple(int(p) for p in np.unravel_index(int(np.argmax((off < 0).reshape(-1))), off.shape))
        raise ctx.index_rule_error(
            shown=str(int(off[pos])), position=pos, value=int(off[pos]), name="offsets",
            rule=f"is negative: offsets must be >= 0 (got {off.tolist()})",
        )
    return ln, off.ndim - 1


#: the canvas value of an empty segment (no ``initial``), by reduce
_EMPTY_FILL = {"zero": 0, "one": 1, "-inf": -np.inf, "+inf": np.inf, "nan": np.nan}
_CANON = {Reduction.ADD: "add", Reduction.MUL: "mul", Reduction.MAX: "max", Reduction.MIN: "min"}


def _describe(reduce: str, *, axis: int = 0, unsafe: bool = False, initial: Any = None,
              form: str = "lengths") -> Description:
    """The canonical form: each row's segment from ``lengths`` (or ``offsets``: ``form='offsets'``), then one nd
    scatter of the rows (``axis`` batch dims, one-component tuples) into a canvas of one row per segment holding
    ``initial`` or the empty value, which is the reduction's identity (0, 1, -inf, +inf: ``include_self=True``)
    except for a mean (NaN: ``include_self=False``); ids outside every segment (offsets not starting at 0, or
    ending before the data's end) drop their row."""
    op = "torch.segment_reduce"
    rec.check_choice(op, "reduce", reduce, tuple(REDUCE))
    a = rec.check_int(op, "axis", axis)
    if a < 0:
        raise UnsupportedError(f"translate {op}: axis={a}: a negative axis counts from data's rank, which the "
                               "description does not know (the batch dims are the axes before it); give axis >= 0")
    rec.check_bool(op, "unsafe", unsafe)
    rec.check_choice(op, "form", form, ("lengths", "offsets"))
    red, empty = REDUCE[reduce]
    mean = reduce == "mean"
    if mean and initial is not None:
        raise UnsupportedError(f"translate {op}: reduce='mean' with initial divides initial + sum by the number of "
                               "rows only: no canonical reduction counts so (mean counts initial as one more value)")
    attrs = {"reduce": reduce, "axis": a, "unsafe": unsafe, "initial": initial}
    offsets = form == "offsets"
    pre = [Step.adapt("segment_ids", "ids", form, "data", axis=a, offsets=offsets, why="the segment of each row"),
           Step.adapt("expand_dims", "tuples", "ids", axis=-1, why="one-component index tuples")]
    if offsets:
        pre.append(Step.adapt("slice_last", "ends", form, start=1, why="one entry per segment"))
    pre += [Step.adapt("expand_dims", "rows", "ends" if offsets else form, axis=-1),
            Step.adapt("full_slices", "canvas", "rows", "data", batch_dims=a,
                       value=_EMPTY_FILL[empty] if initial is None else float(initial),
                       why="one row per segment: the empty value" if initial is None else "every segment starts "
                       "at initial")]
    c = canonical("scatter_nd", data="canvas", indices="tuples", updates="data", batch_dims=a,
                  reduction="mean" if mean else _CANON[red], include_self=not mean,
                  negative="bounds", bounds="drop")
    layout: dict[str, Any] = {"index_dtypes": ("int64",), "k": 1, "rank": (a + 1, a + 3), "index_ndim": (1, 1),
                              "data_dtypes": ("float64", "float32"), "to_source": _segments(form, a, unsafe)}
    if red in (Reduction.MAX, Reduction.MIN):
        layout["nonfinite"] = 0.1
    return Description(op, attrs, ("data", form), c, pre=pre, layout=layout)


def _segments(form: str, a: int, unsafe: bool) -> Mapper:
    """The canonical arrays as segment_reduce arguments: ``data`` is the updates; per batch row, segment
    lengths summing to ``data.shape[axis]`` (less with ``unsafe``) or sorted offsets within it."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        u, nseg = canon["updates"], canon["data"].shape[a]
        size, batch = u.shape[a], u.shape[:a]
        dt = np.int64 if rng.random() < 0.7 else np.int32
        if form == "offsets":
            s = np.sort(rng.integers(0, size + 1, (*batch, nseg + 1)), axis=-1)
        else:
            cuts = np.sort(rng.integers(0, size + 1, (*batch, max(nseg - 1, 0))), axis=-1)
            end = rng.integers(0, size + 1, (*batch, 1)) if unsafe else np.full((*batch, 1), size)
            cuts = np.minimum(cuts, end)
            s = np.diff(np.concatenate([np.zeros((*batch, 1), np.int64), cuts, end], axis=-1), axis=-1)
            s = s[..., :nseg] if nseg else s[..., :0]
        # what the generic case features read (negative / out-of-range ids, duplicates): the rows' real segment ids
        ends = s if form == "offsets" else np.cumsum(s, axis=-1)
        ids = np.sum(ends[..., :, None] <= np.arange(size), axis=-2) - (form == "offsets")
        real_ids(canon, ids, nseg)
        return {"data": u, form: s.astype(dt)}

    return mapper


@dialect_op("torch", "segment_reduce", family="scatter_axis", kind="scatter", versions=(VERSION,),
            # the roles the page and the tables read: lengths/offsets stay array attributes there (as before the
            # description; the description's inputs name them), torch's indices= is its (refused) index argument
            record=rec.OpRecord(_describe, args=(rec.Arg("data", "data"), rec.Arg("indices", "indices")),
                            versions=(rec.Version(VERSION),), grad=GRAD,
                            values={"reduce": tuple(REDUCE), "initial": "number", "form": ("lengths", "offsets"),
                                    "lengths": "array", "indices": "array", "offsets": "array"}),
            differentiable=("data",))
def segment_reduce(
    data: Any,
    reduce: str,
    *,
    lengths: Any = None,
    indices: Any = None,
    offsets: Any = None,
    axis: int = 0,
    unsafe: bool = False,
    initial: Any = None,
) -> Lowering:
    """torch.segment_reduce: reduce consecutive segments of ``data`` along ``axis``.

    Provenance: ``torch.segment_reduce(data, reduce, *, lengths=None, indices=None,
    offsets=None, axis=0, unsafe=False, initial=None)``, torch 2.13 CPU (a beta op).
    ``reduce``: ``'sum'``, ``'mean'``, ``'max'``/``'amax'``, ``'min'``/``'amin'``,
    ``'prod'``. Segments are consecutive runs along ``axis``, which must be the last
    dimension of ``lengths`` (``lengths.shape = data.shape[:axis] + (segments,)``),
    given by ``lengths`` or by ``offsets`` (segment ``k`` is
    ``offsets[k]:offsets[k+1]``; when both are given, ``lengths`` is used). Without
    ``unsafe`` the lengths must sum to ``data.shape[axis]``; offsets need not start
    at 0 nor end at the size (the rest of ``data`` is ignored). Float dtypes only
    (torch has no integer kernel). An empty segment is ``initial`` when given, else
    0 (sum), 1 (prod), -inf (max), +inf (min), NaN (mean: 0/0). ``initial`` starts
    every segment; a mean divides ``initial + sum`` by the number of rows only.

    Lowering (what ``segment_reduce.record.describe(reduce, ...)`` states, the
    segments read from ``lengths``/``offsets`` by the ``segment_ids`` adapter): each
    row gets the id of its segment (rows outside every segment are dropped); one core
    ``scatter`` along ``axis`` with ``axis`` batch dims, ``include_self=True`` over
    ``initial`` or the empty value (the identity of sum/prod/max/min); a mean is the
    core mean with ``include_self=False`` over NaN (with ``initial``: a sum over
    ``initial`` divided by the row count in ``post``, which no description states). Max/min
    as the CPU kernel's ``acc = x if isnan(x) else std::max(acc, x)``: the last NaN, the first
    of tied zeros (``initial`` before every row: ``tie_zeros``).

    Equivalent loop::

        for b in ndindex(lengths.shape[:-1]):
            start = 0
            for k in range(lengths.shape[-1]):
                rows = data[b][start : start + lengths[b][k]]; start += lengths[b][k]
                out[b][k] = reduce([initial] * (initial is not None) + list(rows)) or EMPTY

    Differs from ``tf.math.segment_*`` (segments by sorted ids, empty max = 0) and
    ``jax.ops.segment_*`` (ids in any order, no ``initial``).

    >>> import gatherscatter as gs
    >>> gs.torch.segment_reduce([1.0, 2.0, 3.0, 4.0, 5.0], "sum", lengths=[2, 0, 3]).tolist()
    [3.0, 0.0, 12.0]
    >>> gs.torch.segment_reduce([1.0, 2.0, 3.0, 4.0, 5.0], "max", offsets=[0, 2, 2, 5], initial=3.0).tolist()
    [3.0, 3.0, 5.0]
    """
    ctx = torch_context("segment_reduce", indices="lengths", updates="data", data="data")
    d = data_array(ctx, data)
    if not isinstance(reduce, str):
        raise ArgumentError(f"{ctx.label}: reduce must be a string (got {reduce!r})")
    if reduce not in REDUCE:
        raise UnsupportedError(
            f"{ctx.label}: reduce argument must be either sum, max, min, mean or prod (got {reduce!r})"
        )
    red, empty = REDUCE[reduce]
    uns = as_bool(ctx, "unsafe", unsafe)
    if lengths is None and offsets is None:
        if indices is not None:
            raise UnsupportedError(f"{ctx.label}: indices based reduction is not supported yet.")
        raise ArgumentError(f"{ctx.label}: Either lengths or offsets must be defined.")
    if dtype_name(d.dtype) not in DTYPES:
        raise DTypeError(
            f"{ctx.label}: \"_segment_reduce_cpu\" not implemented for data dtype {d.dtype}; torch's CPU kernel "
            f"takes float16, bfloat16, float32, float64"
        )
    if d.ndim == 0:
        raise ShapeError(f"{ctx.label}: data must have at least 1 dimension (got a 0-d array)")
    ln, a_expected = _lengths(ctx, lengths, offsets, d.shape)
    a = norm_dim(ctx, axis, d.ndim)
    if a != a_expected:
        raise ShapeError(
            f"{ctx.label}: Expected axis to be the last dimension of lengths but got {a} (lengths/offsets have "
            f"{a_expected + 1} dimensions)"
        )
    if ln.shape[:-1] != d.shape[:a]:
        raise ShapeError(
            f"{ctx.label}: lengths.shape[:-1] must equal data.shape[:axis]; got {list(ln.shape)} and "
            f"{list(d.shape)}"
        )
    size = d.shape[a]
    start = np.zeros(ln.shape[:-1] + (1,), np.int64)
    if offsets is not None and lengths is None:
        start = np.asarray(as_index_array(ctx, offsets, "offsets"), np.int64)[..., :1]
    ends = start + np.cumsum(ln, axis=-1)
    total = ends[..., -1] if ln.shape[-1] else start[..., 0]
    if lengths is not None and not uns and (ln.sum(axis=-1) != size).any():
        raise ShapeError(
            f"{ctx.label}: Expected all rows of lengths along axis to sum to data.size(lengths.dim()-1) when "
            f"!unsafe (data.shape[{a}] = {size}; lengths sum to {ln.sum(axis=-1).tolist()})"
        )
    if (total > size).any():
        raise ctx.index_rule_error(
            shown=str(int(total.max())), position=(), value=int(total.max()), name="the segments' end",
            rule=f"is past data.shape[{a}] = {size} (torch reads out of bounds here)",
        )
    nseg = ln.shape[-1]
    # id of each row along axis: k for rows in segment k, -1 (dropped) elsewhere
    pos = np.arange(size, dtype=np.int64)
    seg = np.sum(pos[..., None, :] >= ends[..., :, None], axis=-2)  # (batch..., size)
    inside = (pos >= start) & (seg < nseg)
    ids = np.where(inside, seg, -1)
    shape = d.shape[:a] + (nseg,) + d.shape[a + 1 :]
    if initial is None:
        init = np.broadcast_to(np.asarray(empty_value(empty, d.dtype) if empty != "nan" else np.nan, d.dtype), shape)
        inc = reduce != "mean"  # the empty value is the reduction's identity (0, 1, -inf, +inf): include it
    else:
        init = np.broadcast_to(np.asarray(initial, dtype=np.float64).astype(d.dtype), shape)
        inc = True
    if red in (Reduction.MAX, Reduction.MIN) and d.dtype.kind == "f":
        # the kernel: acc = x if isnan(x) else std::max(acc, x): the last NaN wins, and on a tie acc stays (the
        # first zero, initial before all); one segment key per (batch, segment), rows in order along axis
        b = np.arange(int(np.prod(ids.shape[:-1], dtype=np.int64))).reshape(ids.shape[:-1] + (1,))
        d = tie_zeros(d, np.where(ids >= 0, b * nseg + ids, -1), b.size * nseg, "first", nan="last")
        if initial is not None and init.size and init.reshape(-1)[0] == 0:
            d = np.where(d == 0, init.reshape(-1)[0], d)
    policy = Policy(bounds="drop", negative="bounds", reduction=red, include_self=inc)
    post = None
    if reduce == "mean" and not inc:  # the canonical mean: an empty segment keeps the canvas's NaN
        policy = policy.with_(reduction=Reduction.MEAN)
    elif reduce == "mean":  # initial + sum, divided by the number of rows only
        cnt = ln.astype(d.dtype)
        cshape = ln.shape + (1,) * (d.ndim - a - 1)

        def post(y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            c = cnt.reshape(cshape)
            return np.where(c > 0, y / np.where(c > 0, c, 1), y).astype(d.dtype)

    return Lowering("scatter", init, ids, IndexSpec(axis=a, batch=a), policy, ctx, updates=d, post=post)

