"""PyTorch ``torch.index_reduce`` (2.13, beta)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, dtype_name
from .._common import check_name, data_array
from .._record import Description, check_bool, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import REAL_DTYPES, SMALL_COUNT_DTYPES, TENSOR_DTYPES, as_bool, check_dtype, torch_context
from ._describe import _INT, _MEAN_COUNT, _index_axis_source, torch_op
from .index_add import lower_index_func

_REDUCE = {"prod": Reduction.MUL, "mean": Reduction.MEAN, "amax": Reduction.MAX, "amin": Reduction.MIN}

divergence_table("torch.index_reduce", r'''
[[divergence]]
case = "integer input (uint8, int8, int16, int32, int64)"
when = "dtype"
reference = "docs/semantics.md#s6-4 / docs/semantics.md#s11-3 ('index_reduce: floats only')"
theirs = "the spec tables say floating point only"
ours = """
integers accepted, as torch 2.13 CPU runs them (integer mean rounds toward -inf); bool and complex raise as in \
torch"""
evidence = """
torch 2.13.0 CPU runs: index_reduce_ on int8..int64 and uint8 succeeds; bool/complex/uint16+ raise \
NotImplementedError"""
kind = "spec"
not_reproducible = "the reference is the spec tables; ours runs integers as torch 2.13 does"

[[divergence]]
case = "reduce='prod' on float16/bfloat16 input of rank >= 2 whose slices hold one element (shape (n, 1), (1, n))"
when = "dtype"
reference = "torch 2.13 CPU"
theirs = "RuntimeError 'iter.ninputs() == traits::arity INTERNAL ASSERT FAILED' (a torch bug)"
ours = "computes the documented product"
evidence = """
torch 2.13.0 CPU runs: torch.ones(3, 1, dtype=torch.half).index_reduce(0, tensor([0, 0]), torch.ones(2, 1, \
dtype=torch.half), 'prod')"""
kind = "undefined"
[divergence.example]
call = "torch.index_reduce"
args = { input = [[1], [1], [1]], dim = 0, index = [0, 0], source = [[2], [3]], reduce = "prod" }
dtypes = { input = "float16", index = "int64", source = "float16" }
theirs = { raises = "RuntimeError" }
ours = { equals = [[6], [1], [1]] }

[[divergence]]
case = "reduce='prod' on complex input"
when = "dtype"
reference = "torch 2.13 CPU (vectorised complex multiply)"
theirs = "torch's SIMD complex product rounds differently from the textbook (ac - bd) + (ad + bc)i"
ours = "NumPy's complex multiply (may differ by 1 ulp)"
evidence = "torch 2.13.0 CPU runs: (a * b) for complex tensors differs from NumPy in ~44% of random pairs"
kind = "device"
not_reproducible = "a last-bit difference that depends on torch's SIMD complex multiply (instruction set)"

[[divergence]]
case = "reduce='mean' on uint8/int8/int16/float16/bfloat16 with many contributions per slice"
when = "dtype"
reference = "exact arithmetic"
theirs = """
torch keeps the count in the data dtype: it wraps (int8) or stops at 2048/256 (float16/bfloat16 on a 1-d input) or \
rounds (rank >= 2)"""
ours = "the same as torch"
evidence = "torch 2.13.0 CPU runs (int8 0 + 200 ones -> 1)"
kind = "choice"
not_reproducible = "ours does what torch does (the record is against exact arithmetic)"
''')


def _allowed(ndim: int, include_self: bool, n: int, reduce: str) -> frozenset[str]:
    """Data dtypes torch 2.13 CPU runs, by code path (measured).

    Rank <= 1, or ``include_self=False`` (whose initial fill dispatches on the
    dtype): integers and floats only. Rank >= 2 with ``include_self=True`` uses
    TensorIterator stubs per index entry: those also take bool for prod/amax/amin,
    complex for prod/mean and uint16/32/64 for prod; with an empty index torch
    returns before any dispatch.
    """
    if ndim < 2 or not include_self:
        return REAL_DTYPES
    if n == 0:
        return TENSOR_DTYPES
    extra = {
        "prod": {"bool", "complex64", "complex128", "uint16", "uint32", "uint64"},
        "mean": {"complex64", "complex128"},
        "amax": {"bool"},
        "amin": {"bool"},
    }[reduce]
    return REAL_DTYPES | frozenset(extra)


def _describe(dim: int, reduce: str, include_self: bool = True) -> Description:
    op = "torch.index_reduce"
    dim = check_int(op, "dim", dim)
    r = _REDUCE[check_choice(op, "reduce", reduce, tuple(_REDUCE))].value
    include_self = check_bool(op, "include_self", include_self)
    res = [_MEAN_COUNT] if r == "mean" else []
    return _index_axis_source(op, dim, {"dim": dim, "reduce": reduce, "include_self": include_self},
                              reduction=r, negative="raise", index_dtypes=_INT, include_self=include_self,
                              residuals=res)


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"dim": 0, "reduce": r, "include_self": s} for r in ("prod", "mean", "amax", "amin")
    for s in (True, False)]
)


@torch_op(
    "index_reduce", family="scatter_axis", kind="scatter", differentiable=("input", "source"), describe=_describe,
    values={"reduce": _REDUCE},
    fuzz={"choices": {"reduce": (("prod", "mean", "amax", "amin"), ("sum", "max", None))}},
    variants=_PROBE,
)
def index_reduce(
    input: Any, dim: int, index: Any, source: Any, reduce: str, include_self: bool = True
) -> Lowering:
    """torch.index_reduce: reduce ``source`` slices into a copy of ``input`` at ``index`` along ``dim``.

    Provenance: ``Tensor.index_reduce_(dim, index, source, reduce, *,
    include_self=True)`` / ``torch.index_reduce``, torch 2.13 CPU (beta; torch
    warns about it, we do not). ``reduce``: ``'prod'``, ``'mean'``, ``'amax'``,
    ``'amin'``. Shape and index rules as :func:`index_add` (int32/int64, 0-d or
    1-d, negative indices raise). Data: integer and floating dtypes (the docs'
    "floats only" is not enforced by torch); on rank >= 2 with ``include_self``
    torch also runs bool (prod/amax/amin), complex (prod/mean) and uint16-64
    (prod), and so do we.
    Integer ``mean`` rounds toward -inf. ``include_self=False`` leaves the
    initial value of every targeted slice out; untouched slices keep ``input``.
    Products and means are accumulated in the data dtype (no float32 buffer),
    and the ``mean`` count is kept in the data dtype, as torch does.

    Equivalent loop::

        out = copy(input); n = zeros(input.shape[dim])
        for k in range(len(index)):
            t = (:,) * dim + (index[k],)
            out[t] = source[(:,) * dim + (k,)] if (n[index[k]] == 0 and not include_self) else f(out[t], source[...])
            n[index[k]] += 1
        mean: out[t] /= n + include_self

    Differs from ``torch.scatter_reduce`` (elementwise, also 'sum'; sums in float32
    for float16) and ``torch.index_add`` (sum only, ``alpha``).

    >>> import gatherscatter as gs
    >>> x = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    >>> gs.torch.index_reduce(x, 0, [0, 0, 2], [[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]], "amax").tolist()
    [[4.0, 5.0], [3.0, 4.0], [6.0, 7.0]]
    >>> gs.torch.index_reduce(x, 0, [0, 0], [[2.0, 3.0], [4.0, 5.0]], "prod", include_self=False).tolist()
    [[8.0, 15.0], [3.0, 4.0], [5.0, 6.0]]
    """
    ctx = torch_context("index_reduce", updates="source")
    d0 = data_array(ctx, input)
    check_dtype(ctx, d0, TENSOR_DTYPES)
    red = _REDUCE[check_name(ctx, "reduce", reduce, _REDUCE,
                             "reduce must be one of 'prod', 'mean', 'amax' or 'amin'; got {!r}")]
    inc = as_bool(ctx, "include_self", include_self)
    d, i, s, a = lower_index_func(ctx, d0, dim, index, source)
    check_dtype(ctx, d0, _allowed(d0.ndim, inc, i.size, reduce), what=f" by index_reduce({reduce!r}) here")
    spec = IndexSpec(axis=a)
    shape0, dtype = d0.shape, d.dtype
    if i.size == 0:  # nothing to reduce (torch's mean divides by counts of 1)
        return Lowering("scatter", d, i, spec, Policy(), ctx, updates=s, result=np.array(d0, copy=True))
    by_count = red is Reduction.MEAN and dtype_name(dtype) in SMALL_COUNT_DTYPES
    # counts.index_add_(dim, index, ones) in the data dtype: float32 sums (rounded once) via scatter_add_ for
    # rank >= 2, dim first or last and an int64 index; else one add per index entry (float16 stops at 2048)
    sequential = not (d0.ndim >= 2 and a in (0, d0.ndim - 1) and i.dtype == np.int64)
    policy = Policy(
        bounds="raise", negative="raise", reduction=red, include_self=inc,
        mean_count=("stepwise" if sequential else "rounded") if by_count else "exact",
    )
    restore = (lambda y: y.reshape(shape0)) if d0.ndim == 0 else None
    return Lowering("scatter", d, i, spec, policy, ctx, updates=s, post=restore)
