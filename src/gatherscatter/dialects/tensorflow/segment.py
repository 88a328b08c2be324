"""TensorFlow segment reductions ``tf.math.segment_*`` and ``tf.math.unsorted_segment_*`` (TF 2.21, CPU).

One family file: every variant is a row of :data:`SORTED` or :data:`UNSORTED`
(reduction, value of an empty segment, data dtypes), registered by
:func:`_register`. Measured on TensorFlow 2.21 eager CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core import plans
from ...core.context import OpContext
from ...core.policy import Reduction
from ...core.shape import as_array, as_index_array, to_int
from ...errors import DTypeError, ShapeError
from .._common import FLOATS, data_array
from .._record import Description
from .._registry import DialectOp, Lowering, divergence_table
from .._segment import (
    SEGMENT_NAME,
    check_prefix_ids,
    empty_value,
    fold_residual,
    later_unless_smaller,
    segment_description,
    segment_lowering,
    sorted_description,
    tie_zeros,
)
from ._common import DATA_NUMERIC, DATA_REAL, INDEX_I16_I32_I64, INDEX_I32_I64, TF_VERSION, check_data, tf_op

__all__ = ["SORTED", "UNSORTED"]

_COMMON = ("float64", "float32", "int64", "int32")
_SQRT_DTYPES = FLOATS | frozenset({"bfloat16", "complex64", "complex128"})

#: reduction -> (empty segment of tf.math.segment_<r>, of tf.math.unsorted_segment_<r>, data dtypes)
_ROWS: dict[str, tuple[str, str, frozenset[str]]] = {"sum": ("zero", "zero", DATA_NUMERIC),
                                                     "prod": ("one", "one", DATA_NUMERIC),
                                                     "max": ("zero", "lowest", DATA_REAL),
                                                     "min": ("zero", "highest", DATA_REAL),
                                                     "mean": ("zero", "zero", DATA_NUMERIC),
                                                     "sqrt_n": ("", "zero", _SQRT_DTYPES)}  # no sorted sqrt_n
#: tf.math.segment_<r>(data, segment_ids): name -> (reduction, empty segment value, data dtypes)
SORTED = {f"segment_{r}": (r, e, t) for r, (e, _, t) in _ROWS.items() if e}
#: tf.math.unsorted_segment_<r>(data, segment_ids, num_segments): the same columns
UNSORTED = {f"unsorted_segment_{r}": (r, e, t) for r, (_, e, t) in _ROWS.items()}
_RED = {word: red for red, word in SEGMENT_NAME.items()}

for _n in UNSORTED:
    divergence_table(f"tensorflow.{_n}", __file__, "segment_id_num_segments")
for _n in ("segment_max", "segment_min"):
    divergence_table(f"tensorflow.{_n}", __file__, "sorted_minmax_packets")
for _n in ("unsorted_segment_mean", "unsorted_segment_sqrt_n"):
    divergence_table(f"tensorflow.{_n}", __file__, "integer_data")


def _check_sorted(ctx: OpContext, ids: np.ndarray[Any, Any]) -> int:
    """TF's ``SegmentReductionOp`` checks, in its order; returns ``output_rows = ids[-1] + 1``."""
    plans.values_read()  # the values decide (core/plans.py)
    n = ids.size
    rows = int(ids[-1]) + 1 if n else 0
    if rows < 0:
        raise ctx.index_rule_error(
            shown=str(rows - 1), position=(n - 1,), value=rows - 1, name="segment_ids",
            rule="is the last id: segment ids must be >= 0 (segment_sum-style ops make ids[-1] + 1 output rows)",
        )
    if n == 0:
        return 0
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    vals = ids[starts].astype(np.int64)
    not_inc = np.r_[vals[:-1] >= vals[1:], False]
    out_of = (vals < 0) | (vals >= rows)
    bad = not_inc | out_of
    if not bad.any():
        return rows
    r = int(np.argmax(bad))
    if not_inc[r]:
        pos = int(starts[r + 1])
        raise ctx.index_rule_error(
            shown=str(int(ids[pos])), position=(pos,), value=int(ids[pos]), name="segment_ids",
            rule=f"follows {int(vals[r])}: segment ids are not increasing; the sorted segment ops need non-decreasing "
            f"ids (unsorted_segment_* take any order)",
        )
    pos = int(starts[r])
    raise ctx.index_rule_error(
        shown=str(int(vals[r])), position=(pos,), value=int(vals[r]), name="segment_ids", valid=(0, rows - 1),
        rule=f"is out of range: Segment id {int(vals[r])} out of range [0, {rows}), possibly because 'segment_ids' "
        f"input is not sorted",
    )


def _check_unsorted(ctx: OpContext, ids: np.ndarray[Any, Any], n: int) -> None:
    """Ids >= num_segments raise on CPU (negative ids are dropped)."""
    if ids.size == 0 or int(ids.max()) < n:
        return
    flat = int(np.argmax(ids.reshape(-1) >= n))
    pos = tuple(int(p) for p in np.unravel_index(flat, ids.shape))
    value = int(ids.reshape(-1)[flat])
    raise ctx.with_(position_sep=",").index_rule_error(  # TF's CPU words, "segment_ids[3] = 5 is out of range [0, 5)"
        shown=str(value), position=pos, value=value, name="segment_ids", valid=(0, n - 1) if n else None,
        rule=f"is out of range [0, {n}) (num_segments = {n}; TF on CPU rejects ids >= num_segments and drops "
        f"negative ids)",
    )


def _num_segments(ctx: OpContext, num_segments: Any) -> int:
    s = as_array(ctx, num_segments, "num_segments")
    if s.dtype.kind not in "iu":
        raise DTypeError(f"{ctx.label}: num_segments must be an int32 or int64 scalar; got dtype {s.dtype}")
    if s.ndim != 0:
        raise ShapeError(f"{ctx.label}: num_segments should be a scalar, not shape {list(s.shape)}")
    n = to_int(ctx, "num_segments", int(s))
    if n < 0:
        raise ShapeError(f"{ctx.label}: Input num_segments == {n} must not be negative.")
    return n


def _sorted_fold(red: Reduction, d: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], n: int) -> np.ndarray[Any, Any]:
    """``data`` as the sorted segment_max/min kernel sees it (measured, TF 2.21 x86-64 wheel: 256-bit AVX packets).

    A one-row segment is copied. Otherwise Eigen's ``MaxReducer`` reduces the rows from -inf (min: +inf) in
    packets of 32 bytes along the row (8 float32/float16 elements, 4 float64): in those columns a NaN row is
    skipped (``acc < x`` is false) and of tied zeros the first stays; the last ``width % P`` columns of the row
    fold one scalar at a time as the unsorted ops do (:func:`later_unless_smaller` from the infinity). Integers
    have no NaN nor signed zero: ``d`` itself.
    """
    if d.dtype.kind in "iub" or d.size == 0:
        return d
    far = -np.inf if red is Reduction.MAX else np.inf
    u = d.reshape(ids.size, -1)
    width = u.shape[1]
    cut = width - width % (8 if d.dtype.itemsize <= 4 else 4)
    out = u  # copied only when a row changes (finite data with one sign of zero: d itself, no copy)
    if cut:
        head = u[:, :cut]
        multi = (np.bincount(ids, minlength=n)[ids] > 1)[:, None]
        nan = multi & np.isnan(head)
        packed = np.where(nan, u.dtype.type(far), head) if nan.any() else head
        del nan
        tied = tie_zeros(packed, ids, n, "first")
        if tied is not head:
            out = u.copy()
            out[:, :cut] = np.where(multi, tied, head)
    if cut < width:
        tail = u[:, cut:]
        folded = later_unless_smaller(red, tail, ids, n, far)
        if folded is not tail:
            out = u.copy() if out is u else out
            out[:, cut:] = folded
    return d if out is u else out.reshape(d.shape)


def _mean_post(ids: np.ndarray[Any, Any], n: int, dtype: np.dtype[Any], *, sqrt: bool
               ) -> Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]:
    """TF's unsorted mean / sqrt_n from the segment sums: N = unsorted_segment_sum(ones(data.dtype)), summed one row
    at a time in the dtype (a float16 N stops at 2048, as TF's), max(N, 1); summed / N (or / sqrt(N)) with Python's
    truediv (integers: float32 up to 16 bits, else float64)."""

    def post(y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        flat = ids.reshape(-1)
        nn = np.zeros(n, dtype)
        np.add.at(nn, flat[(flat >= 0) & (flat < n)], np.ones((), dtype))
        nn = np.maximum(nn, np.ones((), dtype)).reshape((n,) + (1,) * (y.ndim - 1))
        if dtype.kind in "iu":
            ft = np.float32 if dtype.itemsize <= 2 else np.float64
            res: np.ndarray[Any, Any] = (y.astype(ft) / nn.astype(ft)).astype(ft)
            return res
        np.divide(y, np.sqrt(nn) if sqrt else nn, out=y)
        return y

    return post


def _register(name: str, reduction: str, empty: str, dtypes: frozenset[str], sorted_: bool) -> DialectOp:
    rname = "mean or sqrt_n" if reduction in ("mean", "sqrt_n") else reduction
    fn_doc = f"""TensorFlow ``tf.math.{name}``: the {reduction} of the rows of ``data`` that share a segment id.

    Provenance: ``tf.math.{name}(data, segment_ids{'' if sorted_ else ', num_segments'}, name=None)``, TensorFlow
    {TF_VERSION} (eager CPU observed). {_SORTED_DOC if sorted_ else _UNSORTED_DOC} An empty segment is
    ``{empty}`` ({_EMPTY_DOC[empty]}). Data dtypes: {', '.join(sorted(dtypes))}.

    Lowering: one core ``scatter`` of the rows into the output along axis 0 with
    reduction {rname} and ``include_self=False`` over an output filled with the
    empty-segment value (``dialects/_segment.py``).{_FOLD_DOC[sorted_] if reduction in ('max', 'min') else ''}

    Equivalent loop::

        out = full((num_segments,) + data.shape[segment_ids.ndim:], EMPTY)
        for j in ndindex(segment_ids.shape):
            s = segment_ids[j]
            if 0 <= s < num_segments:
                out[s] = data[j] if first row of s else {reduction}(out[s], data[j])

    Differs from ``jax.ops.segment_{reduction if reduction in ('sum', 'prod', 'max', 'min') else 'sum'}``
    (ids outside the range are dropped there, empty max/min segments are -inf/+inf)
    and from the sorted/unsorted counterpart (empty-segment value, sortedness, num_segments).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.{name}([1.0, 2.0, 3.0, 4.0], [0, 0, 2, 2]{'' if sorted_ else ', 3'}).tolist()
    {_EXAMPLE[name]}
    """
    kind_red = Reduction.MEAN if sorted_ and reduction == "mean" else _RED.get(reduction, Reduction.ADD)

    def lower(data: Any, segment_ids: Any, *args: Any) -> Lowering:
        ctx = OpContext(op=f"tensorflow.{name}", version=f"TF {TF_VERSION}, device='cpu'", data="data",
                        indices="segment_ids", updates="data", axis="axis")
        d = data_array(ctx, data)
        check_data(ctx, d, dtypes, "cpu")
        ids = as_index_array(ctx, segment_ids, "segment_ids", INDEX_I32_I64 if sorted_ else INDEX_I16_I32_I64)
        if sorted_:
            if ids.ndim != 1:
                raise ShapeError(f"{ctx.label}: segment_ids should be a vector (got shape {list(ids.shape)})")
            if d.ndim < 1:
                raise ShapeError(f"{ctx.label}: data must be at least 1-D (got a 0-d array)")
            if ids.size != d.shape[0]:
                raise ShapeError(
                    f"{ctx.label}: segment_ids should be the same size as dimension 0 of input (segment_ids has "
                    f"{ids.size} entries, data.shape[0] = {d.shape[0]})"
                )
            n = _check_sorted(ctx, ids)
        else:
            n = _num_segments(ctx, args[0])
            check_prefix_ids(ctx, d, ids)
            _check_unsorted(ctx, ids, n)
        post = None
        if reduction in ("mean", "sqrt_n") and not sorted_:  # the sorted mean is the core's (integers truncate)
            post = _mean_post(ids, n, d.dtype, sqrt=reduction == "sqrt_n")
        start = empty_value(empty, d.dtype)
        if not sorted_ and reduction in ("max", "min"):  # Eigen's cwiseMax fold: see later_unless_smaller
            d = later_unless_smaller(kind_red, d, ids, n, start)
        elif reduction in ("max", "min"):
            d = _sorted_fold(kind_red, d, ids, n)
        return segment_lowering(ctx, d, ids, n, kind_red, start, bounds="drop", post=post)

    if sorted_:

        def public(data: Any, segment_ids: Any) -> Lowering:
            return lower(data, segment_ids)

    else:

        def public(data: Any, segment_ids: Any, num_segments: Any) -> Lowering:  # type: ignore[misc]
            return lower(data, segment_ids, num_segments)

    public.__doc__ = fn_doc
    public.__name__ = name
    return tf_op(
        name, family="scatter_axis", kind="scatter", differentiable=("data",),
        describe=_describer(name, reduction, empty, sorted_),
        variants=() if sorted_ or reduction in ("mean", "sqrt_n") else ({},),
        values={} if sorted_ else {"num_segments": "int"},
    )(public)


def _describer(name: str, reduction: str, empty: str, sorted_: bool) -> Any:
    op = f"tensorflow.{name}"
    start = ("-inf" if reduction == "max" else "+inf") if sorted_ else "lowest()" if empty == "lowest" else "max()"
    fold = (fold_residual(reduction, start, packets=sorted_),) if reduction in ("max", "min") else ()
    if sorted_:

        def describe_sorted() -> Description:
            return sorted_description(op, reduction, index_dtypes=("int32", "int64"), data_dtypes=_COMMON, empty=empty,
                                      residuals=fold)

        return describe_sorted
    divide = reduction if reduction in ("mean", "sqrt_n") else ""
    dts = ("float64", "float32") if reduction == "sqrt_n" else (*_COMMON, "uint8") if divide else None

    def describe() -> Description:
        return segment_description(op, {}, "sum" if divide else reduction, empty, raises_past_end=True, residuals=fold,
                                   index_dtypes=("int16", "int32", "int64"), divide=divide, data_dtypes=dts)

    return describe


_SORTED_DOC = (
    "``segment_ids`` is a 1-D int32/int64 vector of ``data.shape[0]`` non-decreasing ids; the output has "
    "``segment_ids[-1] + 1`` rows. Decreasing ids raise 'segment ids are not increasing', a negative first id "
    "'Segment id -1 out of range'."
)
_UNSORTED_DOC = (
    "``segment_ids`` (int16/int32/int64) has a prefix of ``data.shape`` as its shape and any order; the output "
    "has ``num_segments`` rows. Negative ids drop their row; ids >= num_segments raise (on CPU)."
)
_FOLD_DOC = {
    False: """ NaN, infinities and signed zeros as TF's kernel: ``acc = acc if x < acc else x``
    (max; min: ``x > acc``) from the empty value, rows in order: a NaN is taken and the next row
    replaces it, of tied zeros the last wins (``later_unless_smaller``).""",
    True: """ NaN, infinities and signed zeros as the x86-64 kernel (measured): a one-row segment is
    copied; in the columns filling 32-byte packets a NaN is skipped from -inf (min: +inf) and the first
    of tied zeros stays, the other columns fold as the unsorted op from the infinity (a divergence record:
    the packet width is the build's).""",
}
_EMPTY_DOC = {
    "zero": "0",
    "one": "1",
    "lowest": "the dtype's lowest finite value, -3.4028235e38 for float32",
    "highest": "the dtype's largest finite value",
}
_EXAMPLE = {
    "segment_sum": "[3.0, 0.0, 7.0]",
    "segment_prod": "[2.0, 1.0, 12.0]",
    "segment_max": "[2.0, 0.0, 4.0]",
    "segment_min": "[1.0, 0.0, 3.0]",
    "segment_mean": "[1.5, 0.0, 3.5]",
    "unsorted_segment_sum": "[3.0, 0.0, 7.0]",
    "unsorted_segment_prod": "[2.0, 1.0, 12.0]",
    "unsorted_segment_max": "[2.0, -1.7976931348623157e+308, 4.0]",
    "unsorted_segment_min": "[1.0, 1.7976931348623157e+308, 3.0]",
    "unsorted_segment_mean": "[1.5, 0.0, 3.5]",
    "unsorted_segment_sqrt_n": "[2.1213203435596424, 0.0, 4.949747468305833]",
}

segment_sum, segment_prod, segment_max, segment_min, segment_mean = (
    _register(n, r, e, t, True) for n, (r, e, t) in SORTED.items()
)
(
    unsorted_segment_sum,
    unsorted_segment_prod,
    unsorted_segment_max,
    unsorted_segment_min,
    unsorted_segment_mean,
    unsorted_segment_sqrt_n,
) = (_register(n, r, e, t, False) for n, (r, e, t) in UNSORTED.items())
