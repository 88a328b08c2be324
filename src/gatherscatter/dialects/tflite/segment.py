"""TFLite builtins ``SEGMENT_SUM`` and ``UNSORTED_SEGMENT_SUM / PROD / MAX / MIN`` (one family file).

Each unsorted variant is a row of :data:`UNSORTED` (reduction, value of an empty segment).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Reduction
from ...core.shape import as_array, as_index_array
from ...errors import DTypeError, ShapeError
from .._common import check_data_dtype, data_array
from .._record import Description
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._segment import (
    SEGMENT_NAME,
    check_prefix_ids,
    check_row_ids,
    empty_value,
    segment_description,
    segment_lowering,
    sorted_description,
)
from ._tfl import TFLITE_VERSION, tfl_context

__all__ = ["DATA_DTYPES", "UNSORTED"]

DATA_DTYPES = frozenset({"float32", "int32"})
_IDS = frozenset({"int32"})

#: UNSORTED_SEGMENT_<r>: (reduction, empty segment value)
UNSORTED: dict[str, tuple[Reduction, str]] = {
    "UNSORTED_SEGMENT_SUM": (Reduction.ADD, "zero"),
    "UNSORTED_SEGMENT_PROD": (Reduction.MUL, "one"),
    "UNSORTED_SEGMENT_MAX": (Reduction.MAX, "lowest"),
    "UNSORTED_SEGMENT_MIN": (Reduction.MIN, "highest"),
}

divergence_table("tflite.SEGMENT_SUM", r'''
[[divergence]]
case = "segment ids that skip a value (an empty segment) or do not start at 0"
when = "invalid"
reference = "TF 2.21 tf.math.segment_sum"
theirs = """
TF accepts any sorted ids (empty segments are 0); TFLite's kernel needs each id to be the previous one or the \
previous one + 1, starting at 0 ('delta == 0 || delta == 1')"""
ours = "as TFLite: IndexOutOfRangeError"
evidence = "tensorflow/lite/kernels/segment_sum.cc ResizeOutputTensor"
kind = "device"
[divergence.example]
call = "tflite:tensorflow.math.segment_sum"
args = { data = [1, 2], segment_ids = [0, 2] }
dtypes = { data = "float32", segment_ids = "int32" }
theirs = { raises = "RuntimeError" }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "segment ids starting with -1 (-1, -1, 0, ...)"
when = "negative"
reference = "TF 2.21 TFLite interpreter"
theirs = "passes the delta check (previous id starts at -1) and writes before the output buffer (undefined)"
ours = "IndexOutOfRangeError: the first id must be 0"
evidence = "tensorflow/lite/kernels/segment_sum.cc (previous_segment_id = -1)"
kind = "undefined"
not_reproducible = "writes before the output buffer: no stable outcome"
''')


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
    invoke fails; the output has ``segment_ids[-1] + 1`` rows.

    Lowering: core ``scatter`` of the rows along axis 0, reduction add
    (``dialects/_segment.py``).

    Equivalent loop::

        out = zeros((segment_ids[-1] + 1,) + data.shape[1:])
        for j in range(len(segment_ids)):
            out[segment_ids[j]] += data[j]

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
    return segment_lowering(ctx, d, ids, n, Reduction.ADD, np.zeros((), d.dtype))


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
        return segment_lowering(ctx, d, ids, n, red, empty_value(empty, d.dtype), bounds="drop")

    public.__name__ = name
    verb = red.value
    public.__doc__ = f"""TFLite ``{name}``: the {verb} of the rows of ``data`` per segment id, in any order.

    Provenance: the TFLite builtin {name} (``tensorflow/lite/kernels/unsorted_segment.cc``),
    as converted from ``tf.math.unsorted_segment_*`` and run by the TF 2.21
    ``tf.lite.Interpreter``. Data float32/int32; ``segment_ids`` int32 whose shape
    is a prefix of ``data.shape``; the output has ``num_segments`` rows. Negative
    ids are dropped; an id >= num_segments fails the invoke. An empty segment is
    ``{empty}`` (as TF on CPU: the dtype's finite limits for max/min).

    Lowering: core ``scatter`` along axis 0, reduction {verb}, ``include_self=False``
    over the empty value (``dialects/_segment.py``).

    Equivalent loop::

        out = full((num_segments,) + data.shape[segment_ids.ndim:], EMPTY)
        for j in ndindex(segment_ids.shape):
            if segment_ids[j] >= 0:
                out[segment_ids[j]] = {verb}(out[segment_ids[j]], data[j])   # first row: data[j]

    Differs from ``jax.ops.segment_*`` (out-of-range ids dropped there; empty max/min
    are -inf/+inf) and is the same as ``tf.math.unsorted_segment_*`` on CPU.

    >>> import numpy as np, gatherscatter as gs
    >>> gs.tflite.{name}(np.float32([1, 2, 3]), np.int32([1, 1, -1]), 2).tolist()
    {_EXAMPLE[name]}
    """
    def describe() -> Description:
        return segment_description(f"tflite.{name}", {}, SEGMENT_NAME[red], empty, raises_past_end=True,
                                   index_dtypes=("int32",), data_dtypes=("float32", "int32"))

    return dialect_op("tflite", name, family="scatter_axis", kind="scatter", versions=(TFLITE_VERSION,),
                      differentiable=("data",), describe=describe, variants=({},),
                      values={"num_segments": "int"})(public)




_EXAMPLE = {
    "UNSORTED_SEGMENT_SUM": "[0.0, 3.0]",
    "UNSORTED_SEGMENT_PROD": "[1.0, 2.0]",
    "UNSORTED_SEGMENT_MAX": "[-3.4028234663852886e+38, 2.0]",
    "UNSORTED_SEGMENT_MIN": "[3.4028234663852886e+38, 1.0]",
}

UNSORTED_SEGMENT_SUM, UNSORTED_SEGMENT_PROD, UNSORTED_SEGMENT_MAX, UNSORTED_SEGMENT_MIN = (
    _register(n, *row) for n, row in UNSORTED.items()
)
