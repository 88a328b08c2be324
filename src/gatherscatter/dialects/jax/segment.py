"""JAX ``jax.ops.segment_sum / segment_prod / segment_max / segment_min`` (jax 0.10, x64), one family file.

Each variant is a row of :data:`SEGMENT` (reduction, value of an empty segment),
registered by :func:`_register`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Reduction
from ...core.shape import as_index_array, to_int
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._record import Description, Residual, check_choice
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._segment import SEGMENT_NAME, check_row_ids, empty_value, segment_description, segment_lowering, xla_minmax
from ._common import (
    GRAD,
    JAX_VERSION,
    MODE_VALUES,
    GatherScatterMode,
    check_data,
    common_divergences,
    jax_context,
    parse_mode,
)

__all__ = ["SEGMENT"]

_INDEX = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})

#: jax.ops.<name>: (reduction, empty segment value, dtypes JAX rejects)
SEGMENT: dict[str, tuple[Reduction, str, frozenset[str]]] = {
    "segment_sum": (Reduction.ADD, "zero", frozenset({"bool"})),
    "segment_prod": (Reduction.MUL, "one", frozenset({"bool"})),
    "segment_max": (Reduction.MAX, "-inf", frozenset({"complex64", "complex128"})),
    "segment_min": (Reduction.MIN, "+inf", frozenset({"complex64", "complex128"})),
}

for _n in SEGMENT:
    common_divergences(f"jax.{_n}")
    divergence_table(f"jax.{_n}", __file__, "segment_ids_of_rank",
                 example={"call": f"jax.ops.{_n}", "args": {"data": [[1, 1], [1, 1], [1, 1]],
                 "segment_ids": [[0, 0], [0, 0], [0, 0]],
                 "num_segments": 3}, "dtypes": {"data": "float64", "segment_ids": "int64"},
                 "theirs": {"raises": "ValueError"}, "ours": {"raises": "ShapeError"}})
for _n in ("segment_max", "segment_min"):
    divergence_table(f"jax.{_n}", __file__, "complex_data",
                 example={"call": f"jax.ops.{_n}",
                          "args": {"data": [[1, 2], [1, 3]], "segment_ids": [0, 0], "num_segments": 1},
                 "dtypes": {"data": "complex128", "segment_ids": "int64"},
                 "theirs": {"equals": [[1, 3]] if _n == "segment_max" else [[1, 2]]}, "ours": {"raises": "DTypeError"}})


def _register(name: str, red: Reduction, empty: str, rejected: frozenset[str]) -> DialectOp:
    def public(data: Any, segment_ids: Any, num_segments: Any = None, indices_are_sorted: bool = False,
               unique_indices: bool = False, bucket_size: Any = None, mode: Any = None) -> Lowering:
        ctx = jax_context(f"jax.ops.{name}", data="data", indices="segment_ids", updates="data")
        d = check_data(ctx, data)
        if d.dtype.name in rejected or str(d.dtype) in rejected:
            raise DTypeError(f"{ctx.label}: data dtype {d.dtype} is not accepted by {name} (JAX rejects it)")
        ids = as_index_array(ctx, segment_ids, "segment_ids", _INDEX)
        for flag, v in (("indices_are_sorted", indices_are_sorted), ("unique_indices", unique_indices)):
            if not isinstance(v, (bool, np.bool_)):
                raise ArgumentError(f"{ctx.label}: {flag} must be a bool (got {v!r})")
        if bucket_size is not None:
            raise UnsupportedError(f"{ctx.label}: bucket_size is not supported (it only changes the compiled form)")
        check_row_ids(ctx, d, ids)
        if num_segments is None:
            if ids.size == 0:
                raise ShapeError(f"{ctx.label}: num_segments=None needs at least one segment id (max of empty)")
            n = max(int(ids.max()) + 1, 0)
        else:
            n = to_int(ctx, "num_segments", num_segments)
            if n < 0:
                raise ShapeError(f"{ctx.label}: num_segments must be >= 0 (got {n})")
        m = parse_mode(ctx, mode, default=GatherScatterMode.FILL_OR_DROP)
        if m is GatherScatterMode.ONE_HOT:
            raise UnsupportedError(f"{ctx.label}: mode 'one_hot' applies to take_along_axis only")
        bounds = "clip" if m is GatherScatterMode.CLIP else "drop"
        # segment ids are never wrapped: negative ids are out of range (dropped, or clipped to 0)
        if red in (Reduction.MAX, Reduction.MIN):  # XLA's zeros and NaN signs (measured on CPU): see xla_minmax
            d = xla_minmax(red, d, np.clip(ids, 0, max(n - 1, 0)) if bounds == "clip" else ids, n)
        return segment_lowering(ctx, d, ids, n, red, empty_value(empty, d.dtype), bounds=bounds)

    public.__name__ = name
    public.__doc__ = f"""JAX ``jax.ops.{name}``: the {red.value} of the rows of ``data`` that share a segment id.

    Provenance: ``jax.ops.{name}(data, segment_ids, num_segments=None,
    indices_are_sorted=False, unique_indices=False, bucket_size=None, mode=None)``,
    {JAX_VERSION} on CPU with x64. ``segment_ids`` is 1-D with ``data.shape[0]``
    integer ids in any order; ``num_segments=None`` means ``max(segment_ids) + 1``.
    Ids outside ``[0, num_segments)`` (negative ones too: they are never wrapped)
    are dropped with ``mode=None``/``'drop'``/``'fill'``/``'promise_in_bounds'``
    (what XLA does on CPU) and clamped into range with ``mode='clip'``. An empty
    segment holds ``{empty}`` (the reduction's identity: -inf/+inf for floats, the
    integer limits, False/True for bool). ``indices_are_sorted`` and
    ``unique_indices`` are promises that do not change the result on CPU (they are
    accepted and checked to be bools); ``bucket_size`` is not supported.

    Lowering: one core ``scatter`` along axis 0, reduction {red.value},
    ``include_self=False`` over the identity (``dialects/_segment.py``); max/min as XLA on CPU (measured):
    -0 orders below +0, and a NaN keeps a sign of its own (``xla_minmax``).

    Equivalent loop::

        out = full((num_segments,) + data.shape[1:], IDENTITY)
        for j in range(len(segment_ids)):
            s = segment_ids[j]                          # mode='clip': s = clip(s, 0, num_segments - 1)
            if 0 <= s < num_segments:
                out[s] = {red.value}(out[s], data[j])

    Differs from ``tf.math.unsorted_segment_*`` (TF raises for ids >= num_segments
    on CPU; its empty max/min are the finite limits) and ``tf.math.segment_*``
    (sorted ids, empty segments 0).

    >>> import gatherscatter as gs
    >>> gs.jax.{name}([1.0, 2.0, 3.0, 4.0], [0, 0, 2, -1], num_segments=3).tolist()
    {_EXAMPLE[name]}
    """
    def describe(mode: Any = None) -> Description:
        op = f"jax.{name}"
        check_choice(op, "mode", mode, _MODES)
        attrs = {} if mode is None else {"mode": mode}
        dts = tuple(t for t in ("float64", "float32", "int64", "int32", "bool") if t not in rejected)
        return segment_description(op, attrs, SEGMENT_NAME[red], empty, bounds="clip" if mode == "clip" else "drop",
                                   index_ndim=(1, 1), index_dtypes=("int32", "int64", "uint8"), data_dtypes=dts,
                                   residuals=(_CLIP_NONE,) if mode == "clip" else ())

    return dialect_op("jax", name, family="scatter_axis", kind="scatter", versions=(JAX_VERSION,),
                      differentiable=("data",), grad=GRAD, describe=describe,
                      variants=({}, {"mode": "clip"}),
                      values={"mode": MODE_VALUES, "num_segments": "int", "bucket_size": "int"})(public)


_CLIP_NONE = Residual("empty", "mode='clip' with num_segments=0 drops every row (no segment to clip into)",
                      "raises: an id into a size-0 axis")
_MODES = (None, "drop", "fill", "promise_in_bounds", "clip")


_EXAMPLE = {
    "segment_sum": "[3.0, 0.0, 3.0]",
    "segment_prod": "[2.0, 1.0, 3.0]",
    "segment_max": "[2.0, -inf, 3.0]",
    "segment_min": "[1.0, inf, 3.0]",
}

segment_sum, segment_prod, segment_max, segment_min = (_register(n, *row) for n, row in SEGMENT.items())
