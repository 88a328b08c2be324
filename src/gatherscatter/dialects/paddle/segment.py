"""Paddle ``paddle.geometric.segment_sum / segment_mean / segment_max / segment_min`` (paddle 3.3.1, CPU).

One family file: each variant is a row of :data:`SEGMENT`, registered by :func:`_register`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import plans
from ...core.policy import Reduction
from ...errors import ShapeError
from .._common import data_array
from .._record import Residual
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._segment import check_row_ids, fold_residual, later_unless_smaller, segment_lowering, sorted_description
from ._common import PADDLE_VERSION, check_paddle_dtype, index_array, paddle_context

__all__ = ["SEGMENT"]

DTYPES = frozenset({"int32", "int64", "float16", "float32", "float64"})

#: paddle.geometric.<name>: the core reduction; every empty segment is 0
SEGMENT: dict[str, Reduction] = {
    "segment_sum": Reduction.ADD,
    "segment_mean": Reduction.MEAN,
    "segment_max": Reduction.MAX,
    "segment_min": Reduction.MIN,
}

for _n in SEGMENT:
    divergence_table(f"paddle.{_n}", __file__, "empty_data_no_segment")

def _fold(verb: str) -> tuple[Residual, ...]:
    return (fold_residual(verb, "the first row"),) if verb in ("max", "min") else ()


def _check_sorted(ctx: Any, ids: np.ndarray[Any, Any]) -> int:
    """Paddle's checks in its order; returns the number of output rows ``ids[-1] + 1``."""
    plans.values_read()  # the values decide (core/plans.py)
    rows = int(ids[-1]) + 1
    if rows <= 0:
        raise ShapeError(
            f"{ctx.label}: Expected dims[0] > 0, but received dims[0]:{rows} (the output has segment_ids[-1] + 1 "
            f"rows; segment_ids[-1] = {rows - 1})"
        )
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    vals = ids[starts].astype(np.int64)
    not_inc = np.r_[vals[:-1] > vals[1:], False]
    neg = vals < 0
    bad = not_inc | neg
    if not bad.any():
        return rows
    r = int(np.argmax(bad))
    if neg[r]:
        pos = int(starts[r])
        raise ctx.index_rule_error(
            shown=str(int(vals[r])), position=(pos,), value=int(vals[r]), name="segment_ids",
            rule="is negative (Expected begin_idx >= 0); segment ids must be sorted and >= 0",
        )
    pos = int(starts[r + 1])
    raise ctx.index_rule_error(
        shown=str(int(ids[pos])), position=(pos,), value=int(ids[pos]), name="segment_ids",
        rule=f"follows {int(vals[r])}: Expected segment_ids[idx] >= current_id, but received segment_ids[{pos}]:"
        f"{int(ids[pos])} < current_id:{int(vals[r])} (segment ids must be sorted)",
    )


def _register(name: str, red: Reduction) -> DialectOp:
    def public(data: Any, segment_ids: Any) -> Lowering:
        ctx = paddle_context(name, data="data", indices="segment_ids", updates="data")
        d = data_array(ctx, data)
        check_paddle_dtype(ctx, d, DTYPES)
        ids = index_array(ctx, segment_ids)
        check_row_ids(ctx, d, ids, " (Expected num_indices == x.dims()[0])")
        if ids.size == 0:
            raise ShapeError(f"{ctx.label}: segment_ids must not be empty (paddle crashes on empty data)")
        n = _check_sorted(ctx, ids)
        if red in (Reduction.MAX, Reduction.MIN):  # the kernel takes a later row unless smaller (NaN, ties)
            d = later_unless_smaller(red, d, ids, n, -np.inf if red is Reduction.MAX else np.inf)
        return segment_lowering(ctx, d, ids, n, red, np.zeros((), d.dtype), bounds="drop")

    verb = {"segment_sum": "sum", "segment_mean": "mean", "segment_max": "max", "segment_min": "min"}[name]
    public.__name__ = name
    public.__doc__ = f"""Paddle ``paddle.geometric.{name}``: {verb} of the rows of ``data`` sharing a sorted segment id.

    Provenance: ``paddle.geometric.{name}(data, segment_ids, name=None)``, paddle
    {PADDLE_VERSION} CPU. ``segment_ids`` is 1-D int32/int64 with ``data.shape[0]``
    sorted, non-negative ids; the output has ``segment_ids[-1] + 1`` rows and an
    empty segment is 0 (for every reduction). Data: int32, int64, float16, float32,
    float64; an integer mean rounds toward zero. Unsorted ids and negative ids raise.

    Lowering: one core ``scatter`` along axis 0, ``include_self=False`` over zeros
    (``dialects/_segment.py``); the mean is the core's mean, rounding integers toward zero. Max/min fold
    as the kernel (measured): the later row is taken unless smaller (a NaN is taken and the next row
    replaces it; of tied zeros the last wins: ``later_unless_smaller``).

    Equivalent loop::

        out = zeros((segment_ids[-1] + 1,) + data.shape[1:])
        for j in range(len(segment_ids)):
            s = segment_ids[j]
            out[s] = data[j] if first row of s else {verb}(out[s], data[j])   # mean: sum, then / count

    Differs from ``tf.math.segment_*`` only in its errors and dtypes (both fill
    empty segments with 0) and from ``jax.ops.segment_*`` (any order, identity fill).

    >>> import gatherscatter as gs
    >>> gs.paddle.{name}([1.0, 2.0, 3.0, 4.0], [0, 0, 2, 2]).tolist()
    {_EXAMPLE[name]}
    """
    return dialect_op("paddle", name, family="scatter_axis", kind="scatter", versions=(PADDLE_VERSION,),
                      differentiable=("data",),
                      describe=lambda: sorted_description(f"paddle.{name}", verb, index_dtypes=("int32", "int64"),
                                                          data_dtypes=("float64", "float32", "int64", "int32"),
                                                          residuals=(_EMPTY_IDS, *_fold(verb))))(public)


_EMPTY_IDS = Residual("empty", "raises for empty segment_ids (paddle crashes)", "returns an empty result")


_EXAMPLE = {
    "segment_sum": "[3.0, 0.0, 7.0]",
    "segment_mean": "[1.5, 0.0, 3.5]",
    "segment_max": "[2.0, 0.0, 4.0]",
    "segment_min": "[1.0, 0.0, 3.0]",
}

segment_sum, segment_mean, segment_max, segment_min = (_register(n, r) for n, r in SEGMENT.items())
