"""Keras 3 ``keras.ops.segment_sum`` and ``segment_max`` per backend (one family file).

The variants are the rows of :data:`SEGMENT`; every backend's rule is a branch of :func:`_lower`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.policy import Reduction
from ...core.shape import as_index_array, to_int
from ...errors import ArgumentError, UnsupportedError
from .._common import data_array
from .._record import Description, Residual, check_bool, check_choice
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from .._segment import (
    SEGMENT_NAME,
    check_row_ids,
    empty_value,
    fold_residual,
    segment_description,
    segment_lowering,
    xla_minmax,
)
from ..tensorflow import segment as tf_segment
from ._backend import BACKENDS, KERAS_VERSION, NARROW, jax32, keras_context, parse_backend, python_arg

__all__ = ["SEGMENT"]

#: keras.ops.<name>: (core reduction, TF sorted op, TF unsorted op)
SEGMENT: dict[str, tuple[Reduction, str, str]] = {
    "segment_sum": (Reduction.ADD, "segment_sum", "unsorted_segment_sum"),
    "segment_max": (Reduction.MAX, "segment_max", "unsorted_segment_max"),
}

divergence_table("keras.segment_sum", __file__, "segment_sum")
for _n in SEGMENT:
    divergence_table(f"keras.{_n}", __file__, "backend_torch")
    divergence_table(f"keras.{_n}", __file__, "python_lists")
divergence_table("keras.segment_max", __file__, "segment_max")


def _lower(name: str, red: Reduction, data: Any, segment_ids: Any, num_segments: Any, sorted: Any, backend: str
           ) -> Lowering:
    b = parse_backend(name, backend)
    ctx = keras_context(name, b, data="data", indices="segment_ids", updates="data")
    if not isinstance(sorted, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: sorted must be a bool (got {sorted!r})")
    n = None if num_segments is None else to_int(ctx, "num_segments", num_segments)
    data = python_arg(ctx, "segment", b, "data", data)  # Keras reads data.shape, then segment_ids.shape
    segment_ids = python_arg(ctx, "segment", b, "segment_ids", segment_ids)
    d = data_array(ctx, data)
    ids = as_index_array(ctx, segment_ids, "segment_ids")
    check_row_ids(ctx, d, ids)
    tf_sorted, tf_unsorted = SEGMENT[name][1:]
    if b == "tensorflow":
        if sorted:
            if n is not None:
                raise UnsupportedError(
                    f"{ctx.label}: Argument `num_segments` cannot be set when sorted is True when using the "
                    f"tensorflow backend. Received: num_segments={n}, sorted=True"
                )
            low: Lowering = getattr(tf_segment, tf_sorted).lower(d, ids)
            return low
        if n is None:
            n = len(np.unique(ids)) if red is Reduction.ADD else (int(ids.max()) + 1 if ids.size else 0)
        low = getattr(tf_segment, tf_unsorted).lower(d, ids, n)
        return low
    if b == "jax":
        if n is None:
            raise UnsupportedError(
                f"{ctx.label}: Argument `num_segments` must be set when using the JAX backend. Received: "
                f"num_segments=None"
            )
        d = jax32(d)
        if red is not Reduction.ADD:  # jax.ops.segment_max: XLA's signed zeros and NaN signs
            d = xla_minmax(red, d, ids, max(n, 0))
        return segment_lowering(ctx, d, ids, max(n, 0), red, empty_value("zero" if red is Reduction.ADD else "-inf",
                                                                        d.dtype))
    if b == "torch":
        if not n:
            n = int(ids.max()) + 1 if ids.size else 0
        dtype = d.dtype
        f32 = d.astype(np.float32)
        post: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]] | None = None
        if dtype != np.float32:
            def post(y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
                if dtype.kind in "iu":
                    info = np.iinfo(dtype)
                    with np.errstate(invalid="ignore"):
                        out = np.where(np.isfinite(y), y, info.min if dtype.kind == "i" else 0)
                    return out.astype(dtype)
                return y.astype(dtype)
        empty = np.float32(0.0) if red is Reduction.ADD else np.float32(-np.inf)
        return segment_lowering(ctx, f32, ids, n, red, empty, post=post)
    # numpy: negative ids dropped, ids >= num_segments raise (ufunc.at); rows reduced in np.argsort order
    if n is None:
        n = int(ids.max()) + 1
    valid = ids >= 0
    d2, ids2 = d[valid], ids[valid]
    if ids2.size and int(ids2.max()) >= n:
        j = int(np.argmax(ids >= n))
        raise ctx.with_(range_style="numpy", bounds_word="out of bounds",
                        bounds_note="the numpy backend drops negative ids only").index_error(
            value=int(ids[j]), position=(j,), size=n, axis=0
        )
    if not sorted:
        perm = np.argsort(ids2)
        d2, ids2 = d2[perm], ids2[perm]
    if red is Reduction.MAX:
        rdt = np.result_type(d.dtype, -np.inf) if d.dtype.kind in "iub" else d.dtype
        return segment_lowering(ctx, d2.astype(rdt), ids2, n, red, np.asarray(-np.inf, rdt))
    return segment_lowering(ctx, d2, ids2, n, red, np.zeros((), d.dtype))


def _register(name: str, red: Reduction) -> DialectOp:
    def public(
        data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False, *, backend: str = "tensorflow"
    ) -> Lowering:
        return _lower(name, red, data, segment_ids, num_segments, sorted, backend)

    verb = "sum" if red is Reduction.ADD else "maximum"
    public.__name__ = name
    public.__doc__ = f"""Keras 3 ``keras.ops.{name}``: the {verb} of the rows of ``data`` per segment id, per backend.

    Provenance: ``keras.ops.{name}(data, segment_ids, num_segments=None, sorted=False)``,
    Keras 3.15.1 CPU; ``segment_ids`` is 1-D with ``data.shape[0]`` ids. Per ``backend=``:

    - ``'jax'``: ``jax.ops.{name}`` in 32-bit mode; ``num_segments`` is required;
      negative and out-of-range ids are dropped; empty segments 0 / -inf (int minimum).
    - ``'tensorflow'``: ``sorted=True`` runs ``tf.math.{SEGMENT[name][1]}`` (``num_segments``
      must then be None; empty segments 0); otherwise ``tf.math.{SEGMENT[name][2]}``
      with ``num_segments`` defaulting to {'the number of distinct ids (a Keras bug)' if red is Reduction.ADD
      else 'max id + 1'}: negative ids dropped, ids >= num_segments raise.
    - ``'torch'``: ``scatter_reduce`` in float32 (cast back to the data dtype),
      ``num_segments`` defaults (also when 0) to max id + 1, bad ids dropped, empty 0 / -inf.
    - ``'numpy'``: ``ufunc.at`` over the non-negative ids in ``np.argsort`` order;
      ids >= num_segments raise; ``segment_max`` of integers returns float64.

    ``data`` and ``segment_ids`` must be arrays on every backend: ``keras.ops`` reads their
    ``.shape`` first, so a Python list, tuple or scalar raises AttributeError (here an
    :class:`~gatherscatter.errors.ArgumentAttributeError`).

    Lowering: core ``scatter`` of the rows along axis 0 (``dialects/_segment.py``), or
    the TensorFlow op's own lowering for the tensorflow backend.

    Equivalent loop::

        out = full((num_segments,) + data.shape[1:], EMPTY)
        for j in order(segment_ids):                    # numpy: argsort order
            if valid(segment_ids[j]):
                out[segment_ids[j]] = {'+' if red is Reduction.ADD else 'max'}(out[segment_ids[j]], data[j])

    Differs from itself across backends (this op's subject): see above.

    >>> import numpy as np, gatherscatter as gs
    >>> gs.keras.{name}(np.float32([1, 2, 3, 4]), np.array([0, 0, 2, 2]), 4, backend="jax").tolist()
    {'[3.0, 0.0, 7.0, 0.0]' if red is Reduction.ADD else '[2.0, -inf, 4.0, -inf]'}
    """
    return dialect_op("keras", name, family="scatter_axis", kind="scatter", versions=(KERAS_VERSION,),
                      differentiable=("data",), describe=_describer(name, red),
                      variants=tuple({"backend": b} for b in BACKENDS),
                      values={"num_segments": "int", "backend": BACKENDS})(public)


_F32 = Residual("dtype", "reduces in float32 whatever the dtype (backend='torch'; float64 and large integers lose "
                "precision)", "reduces in the data dtype")
_N0 = Residual("empty", "reads num_segments=0 as None: max id + 1 rows (backend='torch')", "gives 0 rows")
_ARGSORT = Residual("duplicates", "sums the rows of a segment in np.argsort order (backend='numpy', sorted=False): "
                    "float sums may round differently", "sums them in row-major order")
_INT_MAX = Residual("dtype", "promotes integer data to float64 (np.ones(shape) * -inf; backend='numpy')",
                    "keeps the data dtype")


def _describer(name: str, red: Reduction) -> Any:
    reduction = SEGMENT_NAME[red]

    def describe(sorted: bool = False, backend: str = "tensorflow") -> Description:
        op = f"keras.{name}"
        check_choice(op, "backend", backend, BACKENDS)
        check_bool(op, "sorted", sorted)
        attrs = {"sorted": sorted, "backend": backend}
        if backend == "tensorflow":
            if sorted:
                raise UnsupportedError(f"translate {op}: sorted=True with backend='tensorflow' runs "
                                       f"tf.math.{SEGMENT[name][1]}, whose output has segment_ids[-1] + 1 rows (a "
                                       "size read from the ids' values)")
            return segment_description(op, attrs, reduction, "zero" if red is Reduction.ADD else "lowest",
                                       raises_past_end=True, index_ndim=(1, 1),
                                       residuals=() if red is Reduction.ADD else (fold_residual(reduction, "lowest()"),
                                                                                  ))
        empty = "zero" if red is Reduction.ADD else "-inf"
        if backend == "jax":
            return segment_description(op, attrs, reduction, empty, index_ndim=(1, 1), index_dtypes=("int32",),
                                       data_dtypes=("float32", "int32"), residuals=(NARROW,))
        if backend == "torch":
            return segment_description(op, attrs, reduction, empty, index_ndim=(1, 1),
                                       data_dtypes=("float32", "int32", "int64"), residuals=(_F32, _N0))
        res = (_INT_MAX,) if red is Reduction.MAX else (() if sorted else (_ARGSORT,))
        return segment_description(op, attrs, reduction, empty, index_ndim=(1, 1), raises_past_end=True,
                                   data_dtypes=("float64", "float32") if red is Reduction.MAX else None,
                                   residuals=res)

    return describe


segment_sum, segment_max = (_register(n, row[0]) for n, row in SEGMENT.items())
