"""TFLite builtins ``SEGMENT_SUM`` and ``UNSORTED_SEGMENT_SUM / PROD / MAX / MIN`` (one family file).

Each unsorted variant is a row of :data:`UNSORTED` (reduction, value of an empty segment).

The kernels fold every row into an output that starts at the empty value: ``acc = op(acc, x)`` with ``a + b``,
``a * b``, ``std::max(a, b)`` (``b if a < b else a``) or ``std::min(a, b)`` (``b if b < a else a``). So a sum of
``[-0.0]`` is ``+0.0`` (``0 + -0``), and max/min never take a NaN (``acc < NaN`` is false) nor an infinity past
the finite start, and keep the first of tied zeros: :func:`fold_updates` gives the core scatter data on which its
own max/min (NaN-propagating, any tie order) gives those bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import plans
from ...core.context import OpContext
from ...core.policy import Reduction
from ...core.shape import as_array, as_index_array
from ...errors import DTypeError, ShapeError
from .._common import check_data_dtype, data_array
from .._record import Description, Residual
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._segment import (
    SEGMENT_NAME,
    check_prefix_ids,
    check_row_ids,
    empty_value,
    segment_description,
    segment_lowering,
    sorted_description,
    tie_zeros,
)
from ._tfl import TFLITE_VERSION, tfl_context

__all__ = ["DATA_DTYPES", "UNSORTED", "fold_updates"]

DATA_DTYPES = frozenset({"float32", "int32"})
_IDS = frozenset({"int32"})

#: UNSORTED_SEGMENT_<r>: (reduction, empty segment value)
UNSORTED: dict[str, tuple[Reduction, str]] = {
    "UNSORTED_SEGMENT_SUM": (Reduction.ADD, "zero"),
    "UNSORTED_SEGMENT_PROD": (Reduction.MUL, "one"),
    "UNSORTED_SEGMENT_MAX": (Reduction.MAX, "lowest"),
    "UNSORTED_SEGMENT_MIN": (Reduction.MIN, "highest"),
}

divergence_table("tflite.SEGMENT_SUM", __file__)
for _name in ("UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_MIN"):
    divergence_table(f"tflite.{_name}", __file__, "unsorted_minmax")

#: what the description's canonical scatter (NaN-propagating max/min from -inf/+inf) does not say
_STD_MINMAX = {
    red: Residual(
        "nonfinite",
        f"folds std::{red}(acc, x) from the finite {start}: a NaN never enters (acc {cmp} NaN is false), so a "
        f"segment of only NaN or {inf} is {start}",
        f"propagates NaN; a segment of only {inf} is {inf}",
        f"tied zeros of both signs: the first one's sign (std::{red} keeps acc on a tie)",
    )
    for red, start, cmp, inf in (("max", "lowest()", "<", "-inf"), ("min", "max()", ">", "+inf"))
}


def fold_updates(red: Reduction, data: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], num_segments: int, *,
                 x_first: bool = False) -> np.ndarray[Any, Any]:
    """``data`` as TFLite's fold sees it: the rows on which the core scatter (``acc + x``, NaN-propagating
    max/min, any order of ties) gives the kernel's bits.

    Max/min: the kernel runs ``acc = std::max(acc, x)`` (``x if acc < x else acc``) from ``lowest()`` (min:
    ``std::min`` from ``max()``), rows in order. ``acc`` is never NaN, so a NaN row leaves it as it is, and so
    does a ``-inf`` (below the finite start): both are raised to ``lowest()`` here (``fmax(x, lowest())``), a
    value that leaves every ``acc`` as it is too. On a tie ``acc`` stays: of zeros of both signs the first
    (rows in order, per segment and element) wins, so every zero of a (segment, element) gets the first one's
    sign here. ``x_first`` (SEGMENT_SUM's compiled ``+=``, measured on x86-64): the sum is ``x + acc``, and
    of two NaNs x86 keeps the first operand's, so a segment element holding a NaN ends with its last NaN: every
    value of that (segment, element) becomes that NaN here (``acc + x`` keeps the first). Otherwise ``data``.

    >>> import numpy as np
    >>> fold_updates(Reduction.MAX, np.float32([np.nan, 0.0, -0.0, -np.inf]), np.int32([0, 1, 1, 2]), 3).tolist()
    [-3.4028234663852886e+38, 0.0, 0.0, -3.4028234663852886e+38]
    """
    plans.values_read()  # the values decide (core/plans.py)
    if data.dtype.kind != "f":
        return data
    if red is Reduction.ADD and x_first:
        nan = np.isnan(data)
        return _spread(data.copy(), ids, nan, last=True, everywhere=True) if nan.any() else data
    if red not in (Reduction.MAX, Reduction.MIN):
        return data
    start = empty_value("lowest" if red is Reduction.MAX else "highest", data.dtype)
    inside = (data >= start) if red is Reduction.MAX else (data <= start)  # False for NaN and the far infinity
    u = data if inside.all() else np.fmax(data, start) if red is Reduction.MAX else np.fmin(data, start)
    del inside  # (finite data: no copy, and one mask at a time)
    return tie_zeros(u, ids, num_segments, "first")


def _spread(u: np.ndarray[Any, Any], ids: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], *, last: bool,
            everywhere: bool) -> np.ndarray[Any, Any]:
    """Give the first (``last``: the last) ``mask``ed value of each (segment, element) of ``u``, rows in order, to
    every ``mask``ed value of it (``everywhere``: to each of its values), in place."""
    width = int(np.prod(u.shape[ids.ndim :], dtype=np.int64))
    flat, m, seg = u.reshape(ids.size, width), mask.reshape(ids.size, width), ids.reshape(-1).astype(np.int64)
    row, col = np.nonzero(m)  # row-major: a (segment, element)'s values in row order
    if last:
        row, col = row[::-1], col[::-1]
    keys, first = np.unique(seg[row] * width + col, return_index=True)
    value = flat[row[first], col[first]]
    every = seg[:, None] * width + np.arange(width)
    to = np.isin(every, keys) if everywhere else m
    flat[to] = value[np.searchsorted(keys, every[to])]
    return u


def _ids(ctx: OpContext, d: np.ndarray[Any, Any], segment_ids: Any) -> np.ndarray[Any, Any]:
    ids = as_index_array(ctx, segment_ids, "segment_ids", _IDS)
    check_row_ids(ctx, d, ids)
    return ids


@dialect_op("tflite", "SEGMENT_SUM", family="scatter_axis", kind="scatter", versions=(TFLITE_VERSION,),
            differentiable=("data",), describe=lambda: sorted_description(
                "tflite.SEGMENT_SUM", "sum", index_dtypes=("int32",), data_dtypes=("float32", "int32"),
                contiguous=True))
def SEGMENT_SUM(data: Any, segment_ids: Any) -> Lowering:
    """TFLite ``SEGMENT_SUM``: sums of consecutive rows of ``data`` that share an id (ids 0, 0, 1, 2, 2, ...).

    Provenance: the TFLite builtin SEGMENT_SUM (``tensorflow/lite/kernels/segment_sum.cc``),
    as converted from ``tf.math.segment_sum`` and run by the TF 2.21
    ``tf.lite.Interpreter``. Data float32/int32, ids int32, 1-D with
    ``data.shape[0]`` entries. Stricter than TF: the ids must start at 0 and each
    must equal the previous one or exceed it by 1 (no empty segment), else the
    invoke fails; the output has ``segment_ids[-1] + 1`` rows. The sums start at 0
    (``memset``): ``[-0.0]`` sums to ``+0.0``. The compiled ``+=`` adds ``x + acc``: of NaNs
    the last one's sign stays (x86-64; :func:`fold_updates`).

    Lowering: core ``scatter`` of the rows along axis 0, reduction add
    (``dialects/_segment.py``), of the rows :func:`fold_updates` gives (a segment
    element holding a NaN: that last NaN throughout).

    Equivalent loop::

        out = zeros((segment_ids[-1] + 1,) + data.shape[1:])
        for j in range(len(segment_ids)):
            out[segment_ids[j]] = data[j] + out[segment_ids[j]]   # elementwise

    Differs from ``tf.math.segment_sum`` (any sorted ids there, empty segments 0).

    >>> import numpy as np, gatherscatter as gs
    >>> gs.tflite.SEGMENT_SUM(np.float32([1, 2, 3, 4]), np.int32([0, 0, 1, 2])).tolist()
    [3.0, 3.0, 4.0]
    """
    ctx = tfl_context("SEGMENT_SUM", data="data", indices="segment_ids", updates="data")
    d = data_array(ctx, data)
    check_data_dtype(ctx, d, DATA_DTYPES)
    ids = _ids(ctx, d, segment_ids)
    prev = np.r_[-1, ids[:-1].astype(np.int64)]
    delta = ids.astype(np.int64) - prev
    bad = ~((delta == 0) | (delta == 1))
    if ids.size and ids[0] != 0:
        bad[0] = True
    if bad.any():
        j = int(np.argmax(bad))
        raise ctx.index_rule_error(
            shown=str(int(ids[j])), position=(j,), value=int(ids[j]),
            rule=f"follows {int(prev[j])}: TFLite needs ids that start at 0 and grow by 0 or 1 "
            f"('delta == 0 || delta == 1'; no empty segment)",
        )
    n = int(ids[-1]) + 1 if ids.size else 0
    return segment_lowering(ctx, fold_updates(Reduction.ADD, d, ids, n, x_first=True), ids, n, Reduction.ADD,
                            np.zeros((), d.dtype))


def _register(name: str, red: Reduction, empty: str) -> DialectOp:
    def public(data: Any, segment_ids: Any, num_segments: Any) -> Lowering:
        ctx = tfl_context(name, data="data", indices="segment_ids", updates="data")
        d = data_array(ctx, data)
        check_data_dtype(ctx, d, DATA_DTYPES)
        ids = as_index_array(ctx, segment_ids, "segment_ids", _IDS)
        check_prefix_ids(ctx, d, ids)
        ns = as_array(ctx, num_segments, "num_segments")
        if ns.dtype.kind not in "iu" or ns.size != 1:
            raise DTypeError(f"{ctx.label}: num_segments must be one int32 value (got {num_segments!r})")
        n = int(ns.reshape(-1)[0])
        if n < 0:
            raise ShapeError(f"{ctx.label}: num_segments must be >= 0 (got {n})")
        if ids.size and int(ids.max()) >= n:
            j = int(np.argmax(ids.reshape(-1) >= n))
            pos = tuple(int(p) for p in np.unravel_index(j, ids.shape))
            note = "the kernel checks 'max_index < num_segments_'; negative ids are dropped"
            raise ctx.with_(data="the output", range_style="half_open", position_sep=",", bounds_note=note).index_error(
                value=int(ids.reshape(-1)[j]), position=pos, size=n, axis=0
            )
        return segment_lowering(ctx, fold_updates(red, d, ids, n), ids, n, red, empty_value(empty, d.dtype),
                                bounds="drop")

    public.__name__ = name
    verb = red.value
    public.__doc__ = f"""TFLite ``{name}``: the {verb} of the rows of ``data`` per segment id, in any order.

    Provenance: the TFLite builtin {name} (``tensorflow/lite/kernels/unsorted_segment.cc``,
    reference op ``UnsortedSegmentRef``), as converted from ``tf.math.unsorted_segment_*`` and run by the TF 2.21
    ``tf.lite.Interpreter``. Data float32/int32; ``segment_ids`` int32 whose shape
    is a prefix of ``data.shape``; the output has ``num_segments`` rows. Negative
    ids are dropped; an id >= num_segments fails the invoke. An empty segment is
    ``{empty}`` (as TF on CPU: the dtype's finite limits for max/min).{_NOTE[red]}

    Lowering: core ``scatter`` along axis 0, reduction {verb}, ``include_self=False``
    over the empty value (``dialects/_segment.py``){_LOWERING[red]}.

    Equivalent loop (the kernel's)::

        out = full((num_segments,) + data.shape[segment_ids.ndim:], EMPTY)
        for j in ndindex(segment_ids.shape):
            if segment_ids[j] >= 0:
                s = segment_ids[j]                     # elementwise, rows in order
                out[s] = {_STEP[red]}

    Differs from ``jax.ops.segment_*`` (out-of-range ids dropped there; empty max/min
    are -inf/+inf) and is {_VS_TF[red]}.

    >>> import numpy as np, gatherscatter as gs
    >>> gs.tflite.{name}(np.float32([1, 2, 3]), np.int32([1, 1, -1]), 2).tolist()
    {_EXAMPLE[name]}
    """
    def describe() -> Description:
        seg = SEGMENT_NAME[red]
        return segment_description(f"tflite.{name}", {}, seg, empty, raises_past_end=True,
                                   index_dtypes=("int32",), data_dtypes=("float32", "int32"),
                                   residuals=(_STD_MINMAX[seg],) if seg in _STD_MINMAX else ())

    return dialect_op("tflite", name, family="scatter_axis", kind="scatter", versions=(TFLITE_VERSION,),
                      differentiable=("data",), describe=describe, variants=({},),
                      values={"num_segments": "int"})(public)


_NOTE = {
    Reduction.ADD: "\n    A sum starts at 0: ``[-0.0]`` sums to ``+0.0``.",
    Reduction.MUL: "",
    Reduction.MAX: """
    NaN is ignored: the kernel's ``std::max(acc, x)`` keeps ``acc`` unless ``acc < x``, false for a NaN
    (``[1, nan]`` and ``[nan, 1]`` give 1, all NaN gives ``lowest()``); a segment of only ``-inf`` is
    ``lowest()``; of tied zeros the first one's sign stays (``[0.0, -0.0]`` gives ``0.0``).""",
    Reduction.MIN: """
    NaN is ignored: the kernel's ``std::min(acc, x)`` keeps ``acc`` unless ``x < acc``, false for a NaN
    (``[1, nan]`` and ``[nan, 1]`` give 1, all NaN gives ``max()``); a segment of only ``+inf`` is
    ``max()``; of tied zeros the first one's sign stays (``[0.0, -0.0]`` gives ``0.0``).""",
}
_LOWERING = {
    Reduction.ADD: "", Reduction.MUL: "",
    Reduction.MAX: ",\n    of the rows :func:`fold_updates` gives (NaN and -inf raised to ``lowest()``, tied zeros\n"
                   "    signed as the first)",
    Reduction.MIN: ",\n    of the rows :func:`fold_updates` gives (NaN and +inf lowered to ``max()``, tied zeros\n"
                   "    signed as the first)",
}
_STEP = {
    Reduction.ADD: "out[s] + data[j]",
    Reduction.MUL: "out[s] * data[j]",
    Reduction.MAX: "data[j] if out[s] < data[j] else out[s]      # std::max(out[s], data[j])",
    Reduction.MIN: "data[j] if data[j] < out[s] else out[s]      # std::min(out[s], data[j])",
}
_VS_TF = {
    Reduction.ADD: "the same as ``tf.math.unsorted_segment_sum`` on CPU",
    Reduction.MUL: "the same as ``tf.math.unsorted_segment_prod`` on CPU",
    Reduction.MAX: "the same as ``tf.math.unsorted_segment_max`` on CPU\n    but for NaN and tied zeros (TF's "
                   "kernel takes a later row unless it is smaller: ``[1, nan]``\n    gives NaN there)",
    Reduction.MIN: "the same as ``tf.math.unsorted_segment_min`` on CPU\n    but for NaN and tied zeros (TF's "
                   "kernel takes a later row unless it is larger: ``[1, nan]``\n    gives NaN there)",
}
_EXAMPLE = {
    "UNSORTED_SEGMENT_SUM": "[0.0, 3.0]",
    "UNSORTED_SEGMENT_PROD": "[1.0, 2.0]",
    "UNSORTED_SEGMENT_MAX": "[-3.4028234663852886e+38, 2.0]",
    "UNSORTED_SEGMENT_MIN": "[3.4028234663852886e+38, 1.0]",
}

UNSORTED_SEGMENT_SUM, UNSORTED_SEGMENT_PROD, UNSORTED_SEGMENT_MAX, UNSORTED_SEGMENT_MIN = (
    _register(n, *row) for n, row in UNSORTED.items()
)
