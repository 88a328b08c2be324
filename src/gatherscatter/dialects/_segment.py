"""Segment reductions as scatters: the lowering every framework's ``segment_*`` op shares.

A segment reduction combines the rows of ``data`` (the slices along its first
``segment_ids.ndim`` axes) that carry the same segment id::

    out = full((num_segments,) + data.shape[ids.ndim:], empty)   # the value of an empty segment
    for j in ndindex(segment_ids.shape):                          # row-major order
        s = segment_ids[j]
        if 0 <= s < num_segments:                                 # else: the framework's rule
            out[s] = data[j] if first row of s else f(out[s], data[j])

It is one core ``scatter`` with ``IndexSpec(axis=0)`` (one whole slice per id)
and ``include_self=False`` (so that ``empty`` survives only where no row lands):
``data`` flattened to ``(ids.size,) + rest`` is the scatter's updates, ``out``
its data. Means and ``sqrt_n`` scatter a sum and divide afterwards (``post``).
Each dialect checks its framework's rules (sortedness, negative ids, ids past
``num_segments``) before calling :func:`segment_lowering`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import plans
from ..core.context import OpContext
from ..core.policy import Policy, Reduction
from ..core.shape import IndexSpec, check_allocatable
from ..errors import ShapeError, UnsupportedError
from ._record import Description, Residual, Step, canonical
from ._registry import Lowering

__all__ = ["EMPTY_KINDS", "check_prefix_ids", "check_row_ids", "counts", "empty_value", "fold_residual",
           "later_unless_smaller", "segment_description", "segment_lowering", "sorted_description", "tie_zeros",
           "undescribed", "xla_minmax"]


EMPTY_KINDS = ("zero", "one", "lowest", "highest", "-inf", "+inf")


def empty_value(kind: str, dtype: np.dtype[Any]) -> Any:
    """The value of an empty segment, by kind, in ``dtype``.

    ``'zero'``, ``'one'``; ``'lowest'`` / ``'highest'``: the most negative /
    positive finite value (TF's ``NumTraits<T>::lowest()``: ``-3.4e38`` for
    float32); ``'-inf'`` / ``'+inf'``: infinities for floats (JAX, torch), the
    integer limits otherwise. Booleans: False for the low kinds, True for the high.

    >>> empty_value("lowest", np.dtype("float32")), empty_value("-inf", np.dtype("int8"))
    (np.float32(-3.4028235e+38), np.int8(-128))
    """
    if kind == "zero":
        return np.zeros((), dtype)[()]
    if kind == "one":
        return np.ones((), dtype)[()]
    low = kind in ("lowest", "-inf")
    if dtype.kind == "b":
        return np.bool_(not low)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(info.min if low else info.max)
    if kind in ("-inf", "+inf") or dtype.kind == "c":
        return dtype.type(-np.inf if low else np.inf)
    big = np.finfo(dtype).max
    return dtype.type(-big if low else big)


def segment_lowering(
    ctx: OpContext,
    data: np.ndarray[Any, Any],
    ids: np.ndarray[Any, Any],
    num_segments: int,
    reduction: Reduction,
    empty: Any,
    *,
    bounds: str = "drop",
    post: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]] | None = None,
) -> Lowering:
    """Scatter the rows of ``data`` into ``num_segments`` rows holding ``empty``.

    ``ids.shape`` must be a prefix of ``data.shape`` (checked by the caller).
    ``bounds``: what an id outside ``[0, num_segments)`` does (``'drop'`` or
    ``'clip'``; negative ids go through the same mode); a dialect whose framework
    raises checks first. ``empty`` may be a scalar or an array of the output shape.
    A mean divides in the data dtype, integers rounding toward zero (TF, Paddle).
    """
    rest = data.shape[ids.ndim :]
    shape = (num_segments, *rest)
    check_allocatable(ctx, shape, data.dtype)
    # the scatter's data is a read-only broadcast of the empty value: the scatter's own copy is the only output
    out = np.broadcast_to(np.asarray(empty, data.dtype), shape)
    upd = data.reshape((ids.size, *rest))
    idx = ids.reshape(-1)
    if num_segments == 0:  # no segment to write (or clip) into: every row is dropped, no primitive runs
        empty_out = np.empty(shape, data.dtype)
        policy = Policy(bounds="drop", negative="bounds", reduction=reduction, include_self=False,
                        mean_rounding="trunc")
        return Lowering("scatter", out, idx, IndexSpec(axis=0), policy, ctx, updates=upd,
                        result=post(empty_out) if post is not None else empty_out)
    policy = Policy(bounds=bounds, negative="bounds", reduction=reduction, include_self=False, mean_rounding="trunc")
    return Lowering("scatter", out, idx, IndexSpec(axis=0), policy, ctx, updates=upd, post=post)


def later_unless_smaller(red: Reduction, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], num_segments: int,
                         start: Any) -> np.ndarray[Any, Any]:
    """``data`` as the fold ``acc = acc if x < acc else x`` (max; min: ``x > acc``) from ``start`` sees it: the
    rows on which the core scatter's max/min (NaN-propagating, any order of ties, ``include_self=False``) gives
    the fold's bits. It is Eigen's ``cwiseMax`` (``std::max(x, acc)``), TF's unsorted_segment_max/min on CPU.

    Per (segment, element), rows in row-major order of ``ids``: a NaN row is taken (``x < acc`` is false) and
    the next row replaces it (``x < NaN`` is false too). So with ``k`` the last NaN row: if it is the segment's
    last row, the result is that NaN (every row of the element becomes it); otherwise rows up to ``k`` become
    the far infinity (they no longer count) and the rest fold from the first of them (a far infinity there
    stays); with no NaN the rows are raised to ``start`` (``fmax(x, start)``: a far infinity is below it). Of
    tied zeros the last counting one wins (``x < acc`` is false on a tie): every counting zero gets its sign.
    Ids outside ``[0, num_segments)`` are not looked at. Integers (and floats with no NaN, no far infinity and
    no mixed zeros) come back as ``data`` itself.

    >>> later_unless_smaller(Reduction.MAX, np.float32([1, np.nan, np.nan, 1, 3, np.nan, 2]),
    ...                      np.int32([0, 0, 1, 1, 2, 2, 2]), 3, np.float32(-3e38)).tolist()
    [nan, nan, -inf, 1.0, -inf, -inf, 2.0]
    """
    plans.values_read()  # the values decide (core/plans.py)
    if data.dtype.kind in "iub" or data.size == 0:
        return data
    mx = red is Reduction.MAX
    u, seg = _rows(data, ids, num_segments)
    nan = np.isnan(u)
    zero = u == 0
    mixed = _mixed(u, zero)
    if not nan.any() and not mixed and ((u >= start).all() if mx else (u <= start).all()):
        return data
    r = np.arange(u.shape[0])[:, None]
    last_nan = np.full((num_segments + 1, u.shape[1]), -1)
    np.maximum.at(last_nan, seg, np.where(nan, r, -1))
    last_row = np.full(num_segments + 1, -1)
    np.maximum.at(last_row, seg, np.arange(u.shape[0]))
    k = last_nan[seg]  # (rows, width): the last NaN row of each row's (segment, element), -1 for none
    far = u.dtype.type(-np.inf if mx else np.inf)
    out = np.where(k < 0, np.fmax(u, start) if mx else np.fmin(u, start), np.where(r <= k, far, u))
    ends_nan = (k >= 0) & (k == last_row[seg][:, None])
    if ends_nan.any():
        cols = np.broadcast_to(np.arange(u.shape[1]), u.shape)
        out[ends_nan] = u[k[ends_nan], cols[ends_nan]]
    if mixed:
        _zero_sign(out, u, seg, num_segments, zero & (r > k) & ~ends_nan, "last")
    return out.reshape(data.shape)


def tie_zeros(data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], num_segments: int, pick: str, *,
              nan: str = "") -> np.ndarray[Any, Any]:
    """``data`` with the zeros of each (segment, element) given one sign, so that the core scatter's max/min
    (any order of ties) gives the framework's zero: ``pick`` ``'first'`` / ``'last'`` (the sign of the first / last
    zero, rows in row-major order of ``ids``: a fold that keeps / replaces ``acc`` on a tie), ``'+0'`` / ``'-0'``
    (+0 if any zero is +0, else -0 / the reverse: a max / min that orders -0 below +0). ``ids.shape`` is a prefix
    of ``data.shape``; ids outside ``[0, num_segments)`` are not looked at. ``data`` itself when no
    (segment, element) could hold zeros of both signs (integers, no zero, or one sign only). ``nan``
    ``'first'`` / ``'last'``: every NaN of a (segment, element) also becomes its first / last NaN (a fold that
    keeps / replaces a NaN ``acc``), whichever NaN the core propagates.

    >>> tie_zeros(np.float32([0.0, -0.0, -0.0, 0.0]), np.int32([0, 0, 1, 1]), 2, "first").tolist()
    [0.0, 0.0, -0.0, -0.0]
    """
    plans.values_read()  # the values decide (core/plans.py)
    if data.dtype.kind in "iub" or data.size == 0:
        return data
    u, seg = _rows(data, ids, num_segments)
    zero = u == 0
    isnan = np.isnan(u) if nan else None
    mixed = _mixed(u, zero)
    if not mixed and (isnan is None or not isnan.any()):
        return data
    out = u.copy()
    if mixed:
        _zero_sign(out, u, seg, num_segments, zero, pick)
    if isnan is not None and isnan.any():
        _zero_sign(out, u, seg, num_segments, isnan, nan)
    return out.reshape(data.shape)


def xla_minmax(red: Reduction, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], num_segments: int
               ) -> np.ndarray[Any, Any]:
    """``data`` as XLA's CPU scatter max/min (``jax.ops.segment_max/min``, measured) sees it: the rows on which
    the core scatter (NaN-propagating, any order of ties) gives XLA's bits.

    XLA folds ``acc = max(acc, x)`` from -inf (min: from +inf), rows in order, with a max that orders -0 below +0
    (of zeros of both signs, max gives +0 and min -0: :func:`tie_zeros` ``'+0'`` / ``'-0'``) and propagates NaN
    with a sign of its own: a NaN ``acc`` stays as it is; a NaN ``x`` gives NaN with the sign bit of
    ``acc`` and ``x`` ANDed (min: ORed). So a (segment, element) holding a NaN ends with its first NaN, negative iff
    that NaN and every earlier row are negative (min: iff any of them is): every row of it becomes that NaN here.

    >>> xla_minmax(Reduction.MIN, np.float32([-1.0, np.nan, 2.0, np.nan, -1.0]), np.int32([0, 0, 1, 1, 1]), 2
    ...            ).view(np.uint32).tolist() == [0xFFC00000, 0xFFC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000]
    True
    """
    plans.values_read()  # the values decide (core/plans.py)
    if data.dtype.kind in "iub" or data.size == 0:
        return data
    u, seg = _rows(data, ids, num_segments)
    nan = np.isnan(u)
    mx = red is Reduction.MAX
    tied = tie_zeros(data, ids, num_segments, "+0" if mx else "-0")
    if not nan.any():
        return tied
    out = (tied if tied is not data else data.copy()).reshape(u.shape)
    rows = u.shape[0]
    r = np.arange(rows)[:, None]
    first = np.full((num_segments + 1, u.shape[1]), rows)
    np.minimum.at(first, seg, np.where(nan, r, rows))
    f = first[seg]
    has = f < rows
    neg = np.signbit(u)
    hit = np.zeros(first.shape, bool)  # max: a positive row up to the first NaN; min: a negative one
    np.logical_or.at(hit, seg, (neg != mx) & (r <= f))
    cols = np.broadcast_to(np.arange(u.shape[1]), u.shape)
    out[has] = np.copysign(u[f[has], cols[has]], np.where(hit[seg][has] != mx, -1.0, 1.0)).astype(u.dtype)
    return out.reshape(data.shape)


def _rows(data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], num_segments: int
          ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``data`` as (rows, width) and each row's segment, ``num_segments`` for a row nobody looks at."""
    flat = ids.reshape(-1).astype(np.intp)
    return data.reshape(ids.size, -1), np.where((flat >= 0) & (flat < num_segments), flat, num_segments)


def _mixed(u: np.ndarray[Any, Any], zero: np.ndarray[Any, Any]) -> bool:
    """Zeros of both signs somewhere in ``u``."""
    return bool(zero.any()) and 0 < int(np.signbit(u[zero]).sum()) < int(zero.sum())


def _zero_sign(out: np.ndarray[Any, Any], u: np.ndarray[Any, Any], seg: np.ndarray[Any, Any], n: int,
               mask: np.ndarray[Any, Any], pick: str) -> None:
    """Give the ``mask``ed zeros of ``out`` (rows of ``u`` in segments ``seg``) one sign per (segment, element),
    chosen by ``pick`` (:func:`tie_zeros`), in place; ``'first'`` / ``'last'`` copy the first / last ``mask``ed
    value of ``u``, so any mask works (NaNs)."""
    if pick in ("first", "last"):
        rows = u.shape[0]
        none = rows if pick == "first" else -1
        key = np.full((n + 1, u.shape[1]), none)
        (np.minimum if pick == "first" else np.maximum).at(key, seg, np.where(mask, np.arange(rows)[:, None], none))
        z = key[seg]
        fix = mask & (z != none)
        cols = np.broadcast_to(np.arange(u.shape[1]), u.shape)
        out[fix] = u[z[fix], cols[fix]]
        return
    neg = pick == "-0"
    hit = np.zeros((n + 1, u.shape[1]), bool)
    np.logical_or.at(hit, seg, mask & (np.signbit(u) == neg))
    signed = np.where(hit[seg], -0.0 if neg else 0.0, 0.0 if neg else -0.0).astype(u.dtype)
    out[mask] = signed[mask]


def check_row_ids(ctx: OpContext, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], note: str = "") -> None:
    """``segment_ids`` is 1-D with one id per row of ``data`` (``note``: the framework's own words)."""
    if ids.ndim != 1 or data.ndim < 1 or ids.size != data.shape[0]:
        raise ShapeError(
            f"{ctx.label}: segment_ids must be 1-D with data.shape[0] entries{note}; got segment_ids shape "
            f"{list(ids.shape)} and data shape {list(data.shape)}"
        )


def check_prefix_ids(ctx: OpContext, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any]) -> None:
    """``segment_ids.shape`` is a prefix of ``data.shape`` (the unsorted segment ops)."""
    if data.shape[: ids.ndim] != ids.shape:
        raise ShapeError(
            f"{ctx.label}: data.shape = {list(data.shape)} does not start with segment_ids.shape = {list(ids.shape)}"
        )


def counts(ids: np.ndarray[Any, Any], num_segments: int, *, clip: bool = False) -> np.ndarray[Any, Any]:
    """How many ids fall in each segment (ids outside ``[0, num_segments)`` dropped, or clipped)."""
    flat = ids.reshape(-1).astype(np.int64)
    flat = np.clip(flat, 0, num_segments - 1) if clip and num_segments else flat[(flat >= 0) & (flat < num_segments)]
    return np.bincount(flat, minlength=num_segments)[:num_segments]


# ------------------------------------------------------------------------------------------------ descriptions

#: the canonical reduction of each segment reduction name
CANON_REDUCTION = {"sum": "add", "prod": "mul", "max": "max", "min": "min", "mean": "mean"}

#: the segment reduction name of each core reduction (``segment_sum`` reduces with ``Reduction.ADD``, ...)
SEGMENT_NAME = {Reduction.ADD: "sum", Reduction.MUL: "prod", Reduction.MAX: "max", Reduction.MIN: "min"}

_FINITE_EMPTY = Residual(
    "always", "an empty max/min segment holds the dtype's finite lowest()/max() (-3.4028235e38 for float32)",
    "holds the reduction's identity (-inf/+inf for floats; the integer limits agree)",
    "no layout adapter fills the dtype's finite limits",
)


def fold_residual(reduction: str, start: str, packets: bool = False) -> Residual:
    """What the canonical max/min (NaN-propagating) does not say about a framework whose kernel folds
    ``acc = acc if x < acc else x`` (:func:`later_unless_smaller`) from ``start``; ``packets``: TF's sorted
    kernel, whose packet columns skip NaN instead."""
    cmp = "<" if reduction == "max" else ">"
    how = (f"a one-row segment is copied; packet columns skip NaN from {start}, the others fold acc = acc if "
           f"x {cmp} acc else x from it" if packets else
           f"folds acc = acc if x {cmp} acc else x from {start}: a NaN is taken and the next row replaces it")
    return Residual("nonfinite", how, "propagates NaN", "tied zeros of both signs: the framework's order")


def undescribed(op: str, why: str) -> Callable[..., Description]:
    """A ``describe`` for an op no canonical form states exactly with the existing layout adapters (an output
    size read from the ids' values, a non-canonical reduction): it raises :class:`UnsupportedError`, saying why."""

    def describe(**attrs: Any) -> Description:
        raise UnsupportedError(f"translate {op}: has no description yet: {why} (a new layout adapter is needed)")

    return describe


def segment_description(
    op: str,
    attrs: dict[str, Any],
    reduction: str,
    empty: str,
    *,
    inputs: tuple[str, ...] = ("data", "segment_ids", "num_segments"),
    bounds: str = "drop",
    raises_past_end: bool = False,
    index_dtypes: tuple[str, ...] = ("int32", "int64"),
    data_dtypes: tuple[str, ...] | None = None,
    residuals: tuple[Residual, ...] = (),
    index_ndim: tuple[int, int] = (0, 2),
    sample: Callable[..., dict[str, Any]] | None = None,
    divide: str = "",
) -> Description:
    """The canonical form of a segment reduction:

    * ``tuples = expand_dims(segment_ids, -1)`` (one-component index tuples);
    * the number of segments: the ``num_segments`` input, or, with two ``inputs`` (the sorted ops),
      ``segment_count(segment_ids)`` = ``segment_ids[-1] + 1`` (0 for no id);
    * the output canvas ``full_rows``: ``(num_segments,) + data.shape[segment_ids.ndim:]`` filled with the
      value of an empty segment;
    * one nd scatter of ``data`` (its leading ``segment_ids.ndim`` dims are the index dims) into the canvas
      with ``include_self=False``, negative ids going through ``bounds`` (never wrapped); ``reduction='mean'``
      divides by the count in the data dtype (integers toward zero), an empty segment keeping ``empty``.

    ``empty``: ``'zero'``, ``'one'``, ``'-inf'``/``'+inf'`` (the identity) or ``'lowest'``/``'highest'``
    (the finite limits: a residual). ``raises_past_end``: the framework raises for an id >= num_segments
    (TF on CPU) while negative ids drop: a residual, as the canonical form drops both. ``sample`` replaces the
    input generator (the sorted ops draw sorted ids). ``divide='mean'`` or ``'sqrt_n'`` (TF's unsorted mean and
    sqrt_n, ``reduction='sum'``): the scatter sums ``with_ones(data)`` (each element beside a one), and
    ``mean_of_pairs`` divides the sums by ``max(N, 1)`` (or its square root) as TF's Python ``/`` does.
    """
    data, ids = inputs[0], inputs[1]
    pre = [Step.adapt("expand_dims", "tuples", ids, axis=-1, why="one-component index tuples (an id selects a row)")]
    upd = data
    if divide:
        upd = "pairs"
        pre.append(Step.adapt("with_ones", upd, data, why="a one beside each element: the scatter also counts (N)"))
    n = inputs[2] if len(inputs) > 2 else "num_segments"
    if len(inputs) == 2:
        pre.append(Step.adapt("segment_count", n, ids, why="sorted ids make segment_ids[-1] + 1 segments"))
    red = CANON_REDUCTION[reduction]
    if empty in ("zero", "one"):
        pre.append(Step.adapt("full_rows", "canvas", n, ids, upd, value=1 if empty == "one" else 0,
                              why=f"the output: one row of {empty}s per segment (an empty segment)"))
    else:
        pre.append(Step.adapt("full_rows", "canvas", n, ids, upd, reduction=red,
                              why="the output: one row per segment holding the reduction's identity"))
    res = list(residuals)
    if raises_past_end:
        res.append(Residual("out_of_range", "raises for an id >= num_segments (negative ids drop their row)",
                            "drops every id outside [0, num_segments)"))
    if empty in ("lowest", "highest"):
        res.append(_FINITE_EMPTY)
    kw: dict[str, Any] = {"mean_rounding": "trunc"} if red == "mean" else {}
    if divide:
        kw["out"] = "sums"
    c = canonical("scatter_nd", data="canvas", indices="tuples", updates=upd, reduction=red,
                  include_self=False, negative="bounds", bounds=bounds, **kw)
    post = [Step.adapt("mean_of_pairs", "out", "sums", sqrt=divide == "sqrt_n",
                       why=f"sums / {'sqrt(N)' if divide == 'sqrt_n' else 'N'}, N = max(count, 1), with Python's /: "
                       f"integers give float32 (<= 16 bits) or float64")] if divide else []
    layout: dict[str, Any] = {"index_dtypes": index_dtypes, "k": 1, "rank": (1, 3), "index_ndim": index_ndim}
    if len(inputs) > 2:
        layout["to_source"] = _segment_args(data, ids, n)
    if data_dtypes is not None:
        layout["data_dtypes"] = data_dtypes
    if reduction in ("max", "min"):
        layout["nonfinite"] = 0.1
    return Description(op, attrs, tuple(inputs), c, pre=pre, post=post, residuals=res,
                       roles={"data": n if len(inputs) > 2 else data}, layout=layout, sample=sample)


def _segment_args(data: str, ids: str, n: str) -> Callable[[dict[str, Any], np.random.Generator], dict[str, Any]]:
    """The canonical arrays as segment arguments: the updates are ``data``, the one-component tuples the ids,
    the canvas's first dim ``num_segments``; sometimes 2-D ids (a prefix of data's shape) when the updates
    allow."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        u, i = canon["updates"], canon["indices"][..., 0]
        return {data: u, ids: i, n: int(canon["data"].shape[0])}

    return mapper


#: what the canonical form does with ids that break a sorted op's rules (its dialect raises)
_UNSORTED_IDS = Residual("out_of_range", "raises for ids that are not sorted (the dialect's precondition; TF words "
                         "it 'Segment id out of range ... possibly because segment_ids input is not sorted')",
                         "reduces the rows of each id in any order")
_NEGATIVE_IDS = Residual("negative", "raises for a negative id (sorted ids must be >= 0)",
                         "drops its row (or, for a negative last id, makes no row)")


def sorted_description(op: str, reduction: str, *, index_dtypes: tuple[str, ...], data_dtypes: tuple[str, ...],
                       empty: str = "zero", contiguous: bool = False, residuals: tuple[Residual, ...] = ()
                       ) -> Description:
    """The canonical form of a sorted segment reduction ``op(data, segment_ids)`` (TF, Paddle, TFLite): output
    rows ``segment_ids[-1] + 1`` (:func:`segment_description` with ``segment_count``), empty segments ``empty``.

    Precondition (the dialect checks it and raises; a residual here): ``segment_ids`` is 1-D, non-decreasing
    and >= 0 (``contiguous``: starts at 0 and grows by 0 or 1, TFLite). The generated inputs draw sorted ids,
    negative ones in 'negative' cases and unsorted (or, ``contiguous``, gapped) ones in 'out_of_range' cases.
    """
    return segment_description(op, {}, reduction, empty, inputs=("data", "segment_ids"), index_dtypes=index_dtypes,
                               data_dtypes=data_dtypes, index_ndim=(1, 1),
                               residuals=(*residuals, _UNSORTED_IDS, _NEGATIVE_IDS),
                               sample=_sorted_sampler(index_dtypes, data_dtypes, contiguous))


def _sorted_sampler(index_dtypes: tuple[str, ...], data_dtypes: tuple[str, ...], contiguous: bool
                    ) -> Callable[[np.random.Generator, str], dict[str, Any]]:
    """``sample(rng, kind)``: data of 1-3 dims (1 in 'scalar' cases) and sorted ids for its rows."""

    def sample(rng: np.random.Generator, kind: str) -> dict[str, Any]:
        rank = 1 if kind == "scalar" else int(rng.integers(1, 4))
        rows = 0 if kind == "empty" and rng.random() < 0.7 else int(rng.integers(1, 7))
        shape = [rows] + [int(rng.integers(0 if kind == "empty" else 1, 4)) for _ in range(rank - 1)]
        step = rng.integers(0, 2 if contiguous or kind == "duplicates" else 3, size=rows)
        ids = np.cumsum(step) - (step[0] if rows and contiguous else 0)
        if kind == "negative" and rows:
            ids = ids - int(rng.integers(1, 3))
        elif kind == "out_of_range" and rows > 1:
            j = int(rng.integers(1, rows))
            ids[j] = ids[j - 1] - 1 if ids[j - 1] > 0 else ids[j - 1] + 2  # a decrease (or, contiguous: a gap)
        dt = np.dtype(str(rng.choice(list(data_dtypes))))
        vals = rng.integers(-9, 10, size=shape)
        data = vals.astype(dt) if dt.kind in "iu" else (vals + rng.random(shape)).astype(dt)
        return {"data": data, "segment_ids": ids.astype(str(rng.choice(list(index_dtypes))))}

    return sample
