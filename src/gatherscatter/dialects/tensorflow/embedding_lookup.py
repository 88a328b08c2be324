"""TensorFlow ``tf.nn.embedding_lookup`` (TF 2.21, one params tensor), with ``max_norm`` clipping."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array
from ...errors import ArgumentError, ShapeError, UnsupportedError
from .._common import data_array
from .._record import Description, canonical
from .._registry import Lowering, divergence_table
from ._common import DATA_ALL, INDEX_I32_I64, check_data, tf_context, tf_op

divergence_table("tensorflow.embedding_lookup", r'''
[[divergence]]
case = "params given as a list of sharded tensors"
when = "dtype"
reference = "TF 2.21"
theirs = "ids are partitioned over the shards ('div' strategy in TF 2) and each shard is gathered"
ours = "UnsupportedError: pass the concatenated params (the 'div' strategy then gives the same rows)"
evidence = "tensorflow/python/ops/embedding_ops.py embedding_lookup_v2"
kind = "choice"
[divergence.example]
call = "tensorflow.nn.embedding_lookup"
args = { params = [[[1], [2]], [[3], [4]]], ids = [0, 1, 2, 3] }
dtypes = { params = "tuple:float32", ids = "int32" }
theirs = { equals = [[1], [2], [3], [4]] }
ours = { raises = "UnsupportedError" }
''')


def _clip(rows: np.ndarray[Any, Any], max_norm: float) -> np.ndarray[Any, Any]:
    """``clip_ops.clip_by_norm`` on each row (last axes): ``t * max_norm / maximum(l2norm, max_norm)``."""
    axes = tuple(range(1, rows.ndim))
    l2sum = np.sum(rows * rows, axis=axes, keepdims=True)
    l2norm = np.where(l2sum > 0, np.sqrt(np.where(l2sum > 0, l2sum, np.ones_like(l2sum))), l2sum)
    mn = rows.dtype.type(max_norm)
    out: np.ndarray[Any, Any] = (rows * mn) / np.maximum(l2norm, mn)
    return out.astype(rows.dtype)


def _describe(max_norm: Any = None) -> Description:
    op = "tensorflow.embedding_lookup"
    if max_norm is not None:
        raise UnsupportedError(f"translate {op}: max_norm clips each looked-up row to an L2 norm first "
                               "(clip_by_norm): no layout adapter computes a row norm")
    c = canonical("gather", data="params", indices="ids", axis=0, negative="raise", bounds="raise")
    return Description(op, {}, ("params", "ids"), c, layout={"index_dtypes": ("int32", "int64")})


@tf_op("embedding_lookup", family="gather", kind="gather", differentiable=("params",), describe=_describe,
       variants=({},), values={"max_norm": "number"})
def embedding_lookup(params: Any, ids: Any, max_norm: Any = None) -> Lowering:
    """TensorFlow ``tf.nn.embedding_lookup``: the rows of ``params`` at ``ids`` (``tf.gather(params, ids)``).

    Provenance: ``tf.nn.embedding_lookup(params, ids, max_norm=None, name=None)``,
    TensorFlow 2.21 eager CPU, with one params tensor (sharded lists are not
    supported). ``ids`` (int32/int64, any shape) must be in ``[0, params.shape[0])``
    (TF on CPU raises for negative and out-of-range ids). ``max_norm`` clips each
    looked-up row to that L2 norm, ``row * max_norm / max(norm(row), max_norm)``
    (``clip_by_norm``); unlike ``torch.nn.functional.embedding``, ``params`` is not
    modified.

    Lowering: the core ``gather`` of whole rows (``IndexSpec(axis=0)``); with
    ``max_norm`` the clipped rows of ``params`` are gathered (clipping is per row,
    so clipping before or after the lookup gives the same values).

    Equivalent loop::

        for j in ndindex(ids.shape):
            row = params[ids[j]]
            out[j] = row if max_norm is None else row * max_norm / max(norm(row), max_norm)

    Differs from ``torch.nn.functional.embedding`` (renormalises the weight in place
    with ``max_norm / (norm + 1e-7)``) and ``tf.gather`` (``axis``/``batch_dims``).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.embedding_lookup([[3.0, 4.0], [0.0, 1.0]], [1, 0, 0]).tolist()
    [[0.0, 1.0], [3.0, 4.0], [3.0, 4.0]]
    >>> gs.tensorflow.embedding_lookup([[3.0, 4.0], [0.0, 1.0]], [0], max_norm=1.0).tolist()
    [[0.6, 0.8]]
    """
    ctx = tf_context("embedding_lookup", "cpu").with_(indices="ids")
    if isinstance(params, (list, tuple)) and params and isinstance(params[0], np.ndarray):
        raise UnsupportedError(f"{ctx.label}: sharded params (a list of tensors) are not supported; concatenate them")
    p = data_array(ctx, params)
    check_data(ctx, p, DATA_ALL, "cpu")
    if p.ndim < 1:
        raise ShapeError(f"{ctx.label}: params must be at least 1-D (got a 0-d array)")
    i = as_index_array(ctx, ids, "ids", INDEX_I32_I64)
    if max_norm is not None:
        if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float, np.integer, np.floating)):
            raise ArgumentError(f"{ctx.label}: max_norm must be a number or None (got {max_norm!r})")
        if p.dtype.kind not in "fc":
            raise UnsupportedError(f"{ctx.label}: max_norm needs floating params (clip_by_norm; got {p.dtype})")
        p = _clip(p, float(max_norm)) if p.ndim > 1 else _clip(p.reshape(-1, 1), float(max_norm)).reshape(-1)
    return Lowering("gather", p, i, IndexSpec(axis=0), Policy(bounds="raise", negative="raise"), ctx)
