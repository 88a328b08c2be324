"""PyTorch ``torch.nn.functional.embedding`` (2.13, CPU): rows of a weight matrix, with ``max_norm`` renormalisation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import STRICT
from ...core.shape import IndexSpec, as_index_array
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._common import data_array
from .._record import Description, Residual, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import GRAD, INDEX_INT32_INT64, TENSOR_DTYPES, VERSION, check_dtype, torch_context

divergence_table("torch.embedding", __file__)


def _renorm(ctx: OpContext, w: np.ndarray[Any, Any], idx: np.ndarray[Any, Any], max_norm: Any, norm_type: Any
            ) -> np.ndarray[Any, Any]:
    """torch's ``embedding_renorm_`` on a copy: each referenced row with norm > max_norm is scaled by
    ``max_norm / (norm + 1e-7)`` (norm computed in the weight dtype, the scale applied in it)."""
    if not isinstance(max_norm, (int, float, np.integer, np.floating)) or isinstance(max_norm, bool):
        raise ArgumentError(f"{ctx.label}: max_norm must be a float or None (got {max_norm!r})")
    if not isinstance(norm_type, (int, float, np.integer, np.floating)) or isinstance(norm_type, bool):
        raise ArgumentError(f"{ctx.label}: norm_type must be a float (got {norm_type!r})")
    if w.dtype.kind != "f":
        raise DTypeError(f"{ctx.label}: max_norm needs a floating weight (torch's norm has no {w.dtype} kernel)")
    out = np.array(w, copy=True)
    p = float(norm_type)
    for i in np.unique(idx.reshape(-1)):
        row = out[int(i)]
        a = np.abs(row.astype(np.float32 if row.dtype.itemsize <= 4 else np.float64))
        if p == np.inf:
            norm = float(a.max()) if a.size else 0.0
        elif p == 0:
            norm = float(np.count_nonzero(a))
        elif p == 2 and a.dtype == np.float32:
            norm = _fma_norm32(a)
        elif p == 2 and a.size <= 3:
            norm = _fma_norm64(a)
        else:
            norm = float(np.power(np.sum(np.power(a, p)), 1.0 / p)) if p != 2 else float(np.sqrt(np.dot(a, a)))
        if norm > float(max_norm):
            scale = float(max_norm) / (norm + 1e-7)
            out[int(i)] = (row.astype(a.dtype) * a.dtype.type(scale)).astype(w.dtype)
    return out


def _fma_norm64(a: np.ndarray[Any, Any]) -> float:
    """torch's float64 2-norm of a row: ``acc = fma(x, x, acc)`` in order, then sqrt (as :func:`_fma_norm32`).

    ``x * x`` is ``p + e`` exactly (Dekker's product, ``x`` split in halves of 26 bits), and ``math.fsum``
    rounds ``p + e + acc`` once: a fused multiply-add. Used for rows of up to 3 elements, which torch's
    kernel reduces in order (below its vector width): on an AVX2 machine ``np.sqrt(np.dot(a, a))`` differed
    from torch by an ulp on 1,679 of 15,000 such norms, this on none. Longer rows go through torch's
    vectorised reduction, whose order neither reproduces exactly (rows of 4-300: the dot matched 48-100%,
    an in-order FMA 20-88%); they keep the dot.
    """
    acc = 0.0
    for x in a.tolist():
        c = 134217729.0 * x  # 2**27 + 1
        hi = c - (c - x)
        lo = x - hi
        prod = x * x
        err = ((hi * hi - prod) + 2.0 * hi * lo) + lo * lo
        acc = math.fsum((prod, err, acc))
    return float(np.sqrt(acc))


def _fma_norm32(a: np.ndarray[Any, Any]) -> float:
    """torch's float32 2-norm of a row: ``acc = fma(x, x, acc)`` in order, one rounding per step, then sqrt.

    (The product of two float32 values is exact in float64; adding a float32 to it and rounding to float32
    is one fused multiply-add, up to a rare double rounding.)
    """
    acc = np.float32(0.0)
    for x in a.astype(np.float64):
        acc = np.float32(x * x + np.float64(acc))
    return float(np.sqrt(acc))


def _prepare(input: Any, weight: Any, padding_idx: Any) -> tuple[OpContext, np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    ctx = torch_context("embedding", indices="input", data="weight")
    w = data_array(ctx, weight)
    check_dtype(ctx, w, TENSOR_DTYPES)
    idx = as_index_array(ctx, input, "input", INDEX_INT32_INT64)
    if w.ndim != 2:
        raise ShapeError(f"{ctx.label}: 'weight' must be 2-D (got shape {list(w.shape)})")
    n = w.shape[0]
    if padding_idx is not None:
        if isinstance(padding_idx, (bool, np.bool_)) or not isinstance(padding_idx, (int, np.integer)):
            raise ArgumentError(f"{ctx.label}: padding_idx must be an int or None (got {padding_idx!r})")
        if not -n <= int(padding_idx) < n:
            raise ctx.index_rule_error(
                shown=str(int(padding_idx)), position=(), value=int(padding_idx), name="padding_idx",
                valid=(-n, n - 1),
                rule=f"is outside [{-n}, {n - 1}]: Padding_idx must be within num_embeddings (num_embeddings = {n})",
            )
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
        bad = (idx < 0) | (idx >= n)
        flat = int(np.argmax(bad.reshape(-1)))
        pos = tuple(int(x) for x in np.unravel_index(flat, idx.shape)) if idx.ndim else ()
        value = int(idx.reshape(-1)[flat])
        raise ctx.with_(bounds_note="torch: 'index out of range in self'").index_error(
            value=value, position=pos, size=n, axis=0, negative_rule=value < 0
        )
    return ctx, w, idx


def refuse_max_norm(op: str, max_norm: Any) -> None:
    """A description refuses ``max_norm`` (torch.embedding, torch.embedding_bag): UnsupportedError saying why."""
    if max_norm is not None:
        raise UnsupportedError(f"translate {op}: max_norm renormalises the referenced rows of weight first "
                               "(embedding_renorm_): no layout adapter computes a row norm")


def _describe(padding_idx: Any = None, max_norm: Any = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Description:
    op = "torch.embedding"
    refuse_max_norm(op, max_norm)
    attrs: dict[str, Any] = {}
    res: list[Residual] = []
    if padding_idx is not None:
        attrs["padding_idx"] = check_int(op, "padding_idx", padding_idx)
        res.append(Residual("empty", "raises when weight has no rows (no padding_idx is within num_embeddings = 0)",
                            "gathers nothing"))
        if attrs["padding_idx"] not in (0, -1):
            res.append(Residual("invalid", "raises when padding_idx is outside [-num_embeddings, num_embeddings)",
                                "does not read padding_idx (it only changes the gradient)"))
    c = canonical("gather", data="weight", indices="input", axis=0, negative="raise", bounds="raise")
    return Description(op, attrs, ("input", "weight"), c, residuals=res, roles={"data": "weight", "indices": "input"},
                       layout={"index_dtypes": ("int32", "int64"), "data_shape": (None, None)})


@dialect_op("torch", "embedding", family="gather", kind="gather", versions=(VERSION,), differentiable=("weight",),
            grad=GRAD, describe=_describe, variants=({}, {"padding_idx": 0}),
            values={"padding_idx": "int", "max_norm": "number", "norm_type": "number"})
def embedding(
    input: Any,
    weight: Any,
    padding_idx: Any = None,
    max_norm: Any = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Lowering:
    """torch.nn.functional.embedding: the rows of ``weight`` at ``input`` (``weight[input]``).

    Provenance: ``torch.nn.functional.embedding(input, weight, padding_idx=None,
    max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False)``, torch
    2.13 CPU. ``weight`` is 2-D ``(num_embeddings, embedding_dim)``; ``input`` any
    shape of int32/int64 indices in ``[0, num_embeddings)`` (negative indices raise:
    'index out of range in self'); the output has shape ``input.shape +
    (embedding_dim,)``. ``padding_idx`` (in ``[-num_embeddings, num_embeddings)``)
    only affects the gradient (that row gets none); ``scale_grad_by_freq`` and
    ``sparse`` only affect the gradient too.

    ``max_norm``: torch first renormalises, IN PLACE in the caller's weight, every
    row referenced by ``input`` whose ``norm_type``-norm exceeds ``max_norm``
    (scale ``max_norm / (norm + 1e-7)``), then gathers. Here the caller's weight is
    never modified: the output is gathered from a renormalised copy, and
    ``gs.torch.embedding.renorm(input, weight, max_norm, norm_type=2.0)`` returns
    that copy: what torch leaves in ``weight`` after the call.

    Lowering: a core ``gather`` of whole rows, ``IndexSpec(axis=0)``, bounds and
    negative indices raise.

    Equivalent loop::

        if max_norm is not None:
            for i in unique(input):
                if norm(weight[i], norm_type) > max_norm:
                    weight[i] *= max_norm / (norm(weight[i], norm_type) + 1e-7)
        for j in ndindex(input.shape):
            out[j] = weight[input[j]]

    Differs from ``torch.index_select(weight, 0, input)`` (1-D index only; no
    renormalisation) and ``tf.nn.embedding_lookup`` (which has ``max_norm`` but
    does not write back).

    >>> import gatherscatter as gs
    >>> w = [[3.0, 4.0], [1.0, 0.0], [0.0, 10.0]]
    >>> gs.torch.embedding([[0, 2], [2, 1]], w).tolist()
    [[[3.0, 4.0], [0.0, 10.0]], [[0.0, 10.0], [1.0, 0.0]]]
    >>> gs.torch.embedding([1, 2], w, max_norm=2.0).tolist()
    [[1.0, 0.0], [0.0, 1.9999999800000003]]
    >>> gs.torch.embedding.renorm([1, 2], w, max_norm=2.0).tolist()
    [[3.0, 4.0], [1.0, 0.0], [0.0, 1.9999999800000003]]
    """
    ctx, w, idx = _prepare(input, weight, padding_idx)
    if max_norm is not None:
        w = _renorm(ctx, w, idx, max_norm, norm_type)
    return Lowering("gather", w, idx, IndexSpec(axis=0), STRICT, ctx)


def renorm(input: Any, weight: Any, max_norm: Any, norm_type: float = 2.0) -> np.ndarray[Any, Any]:
    """The weight torch's ``embedding(input, weight, max_norm=...)`` leaves behind (a new array).

    >>> import gatherscatter as gs
    >>> gs.torch.embedding.renorm([0], [[3.0, 4.0], [0.0, 1.0]], max_norm=1.0).tolist()
    [[0.5999999880000002, 0.7999999840000003], [0.0, 1.0]]
    """
    ctx, w, idx = _prepare(input, weight, None)
    return _renorm(ctx, w, idx, max_norm, norm_type)


embedding.renorm = renorm  # type: ignore[attr-defined]
