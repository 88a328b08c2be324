"""Shared facts of the TFLite builtins: version, dtypes, context and the bounds error TFLite raises."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from .._common import first_true

__all__ = ["GATHER_INDEX_DTYPES", "TFLITE_VERSION", "check_in_range", "tfl_context"]

TFLITE_VERSION = "TF 2.21"
"""The TensorFlow release whose TFLite interpreter (``tf.lite.Interpreter``, builtin kernels) was observed."""

GATHER_INDEX_DTYPES = frozenset({"int16", "int32", "int64"})
"""The index types ``GATHER`` and ``GATHER_ND`` take (their kernels' ``positions`` / ``indices`` switch)."""


@memo
def tfl_context(name: str, **names: str) -> OpContext:
    """Message naming: ``tflite.GATHER (TF 2.21 TFLite interpreter)``."""
    return OpContext(op=f"tflite.{name}", version=f"{TFLITE_VERSION} TFLite interpreter", **names)


def check_in_range(ctx: OpContext, idx: np.ndarray[Any, Any], sizes: tuple[int, ...], what: str, axis: int = 0) -> None:
    """TFLite's kernels reject negative and out-of-range indices: raise for the first one, row-major.

    ``what='scalar'``: every index addresses one axis of size ``sizes[0]``; ``what='tuple'``: the last axis
    of ``idx`` holds index tuples, component ``c`` addressing an axis of size ``sizes[c]``. ``axis``: the
    axis a scalar index addresses. The message is TensorFlow's half-open range with TFLite's kernel words.
    """
    if idx.size == 0:
        return
    lim = np.asarray(sizes if what == "tuple" else sizes[:1], np.int64)
    bad = (idx < 0) | (idx >= lim)
    if not bad.any():
        return
    pos, value = first_true(bad, idx)
    size = int(lim[pos[-1]]) if what == "tuple" else int(lim[0])
    neg = "TFLite rejects negative indices: indices_has_only_positive_elements; " if value < 0 else ""
    note = f"{neg}the TFLite kernel fails the invoke ('index out of bounds')"
    raise ctx.with_(range_style="half_open", position_sep=",", bounds_note=note).index_error(
        value=value, position=pos, size=size, axis=pos[-1] if what == "tuple" else axis
    )
