"""PyTorch ``torch.scatter`` (2.13), and the lowering shared with ``scatter_add`` / ``scatter_reduce``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Duplicates, Policy, Reduction, parse_enum
from ...core.shape import IndexSpec, as_array, as_index_array, dtype_name
from ...errors import ArgumentError, ShapeError, UnsupportedError
from .._common import DUPLICATES, data_array
from .._record import Description, Step, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import (
    GRAD,
    INDEX_INT32_INT64,
    SMALL_COUNT_DTYPES,
    TENSOR_DTYPES,
    check_dtype,
    norm_dim,
    src_array,
    to_scalar,
    torch_context,
)
from ._describe import _HALF, _INT, torch_op
from .gather import elementwise_rank_check

divergence_table("torch.scatter", r'''
[[divergence]]
case = "duplicate indices without reduce"
when = "duplicates"
reference = "torch 2.13 docs (CUDA behaviour)"
theirs = """
'non-deterministic (one of the values from src will be picked arbitrarily)'; CPU: last wins (20/20 runs of 200k \
updates); CUDA picks another one"""
ours = "duplicates='last' (row-major order of index) by default, as torch CPU; 'first' or 'raise' on request"
evidence = """
docs/behavior-matrix.md#t6-4 and docs/behavior-matrix.md#t6-9; docs/semantics.md#s5-3; pytorch/pytorch#88096, \
#133204"""
kind = "undefined"
not_reproducible = "CUDA only: torch CPU and ours both let the last update win"

[[divergence]]
case = "reduce='add'/'multiply' with a Tensor src"
when = "always"
reference = "torch 2.13"
theirs = "deprecated since 2.0: emits a UserWarning ('use scatter_reduce instead')"
ours = "computed the same way, without a warning (the deprecation is documented)"
evidence = "docs/semantics.md#s5-4 and docs/semantics.md#s5-5; pytorch/pytorch#94082, #94282"
kind = "choice"
[divergence.example]
call = "torch.scatter"
args = { input = [1, 2], dim = 0, index = [0], src = [5] }
kwargs = { reduce = "add" }
dtypes = { input = "float32", index = "int64", src = "float32" }
theirs = { warns = "UserWarning", equals = [6, 2] }
ours = { equals = [6, 2] }

[[divergence]]
case = "reduce='multiply' on complex128 input"
when = "dtype"
reference = "torch 2.13 CPU (scalar kernel compiled with fused multiply-add)"
theirs = "the product's real and imaginary parts are rounded once (fma)"
ours = "NumPy's complex multiply (may differ by 1 ulp)"
evidence = "torch 2.13.0 CPU runs (see torch.scatter_reduce, same kernel)"
kind = "device"
not_reproducible = """
on this machine NumPy's vectorised complex loop rounds as torch does: 0 of 2000 random complex128 pairs differ \
(measured 2026-11-25, torch 2.13.0, NumPy 2.4); it depends on both libraries' instruction sets"""
''')

_REDUCE = {None: Reduction.NONE, "add": Reduction.ADD, "multiply": Reduction.MUL}
_UPCAST = frozenset({"float16", "bfloat16"})


def _is_scalar(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex, np.generic))


def lower_elementwise_scatter(
    ctx: OpContext,
    input: Any,
    dim: Any,
    index: Any,
    *,
    src: Any = None,
    value: Any = None,
    reduction: Reduction,
    include_self: bool = True,
    duplicates: Any = "last",
    check: Callable[[np.ndarray[Any, Any]], None] | None = None,
    early_check: Callable[[np.ndarray[Any, Any]], None] | None = None,
) -> Lowering:
    """The lowering of ``scatter``/``scatter_add``/``scatter_reduce`` (src or a scalar value).

    torch rules reproduced: ``index`` int32/int64 with the rank of ``input`` (0-d
    counts as 1-d); ``index.shape[d] <= src.shape[d]`` on every dim and
    ``<= input.shape[d]`` except ``dim`` (only the leading ``index``-shaped block
    of ``src`` is read); ``src.dtype == input.dtype``; negative indices raise; an
    empty ``index`` returns ``input`` unchanged without shape or dtype checks
    (``early_check`` runs even then, ``check`` only for a non-empty index).

    Numerics as torch's CPU kernels, as Policy fields: float16/bfloat16 sums,
    products and means accumulate in float32 and round once
    (``accumulate='float32'``); ``mean`` on uint8/int8/int16/float16/bfloat16
    divides by the count torch keeps in the data dtype (``mean_count='rounded'``:
    it wraps or rounds); other dtypes divide by the exact count.
    """
    d = data_array(ctx, input)
    check_dtype(ctx, d, TENSOR_DTYPES)
    a = norm_dim(ctx, dim, d.ndim)
    dup = parse_enum(Duplicates, duplicates)
    if value is None:
        s = src_array(ctx, src, d.dtype, "src")
    else:
        v = to_scalar(ctx, value, d.dtype, "value")
    if early_check is not None:
        early_check(d)
    if as_array(ctx, index, "index").size == 0:
        # torch returns at once: no index-dtype, data-dtype or shape checks
        return Lowering("scatter", d, np.zeros(0, np.int64), IndexSpec(axis=0), Policy(), ctx,
                        result=np.array(d, copy=True))
    check_dtype(ctx, d)
    if check is not None:
        check(d)
    i = as_index_array(ctx, index, "index", INDEX_INT32_INT64)
    elementwise_rank_check(ctx, d, i)
    d1 = d.reshape(1) if d.ndim == 0 else d
    i1 = i.reshape(1) if i.ndim == 0 else i
    for k in range(i1.ndim):
        if k != a and i1.shape[k] > d1.shape[k]:
            raise ShapeError(
                f"{ctx.label}: index.shape[{k}] = {i1.shape[k]} must be <= input.shape[{k}] = {d1.shape[k]} on "
                f"every dim except dim {a}; got index shape {list(i.shape)} and input shape {list(d.shape)}"
            )
    if value is None:
        elementwise_rank_check(ctx, d, s, "src")
        s1 = s.reshape(1) if s.ndim == 0 else s
        for k in range(i1.ndim):
            if i1.shape[k] > s1.shape[k]:
                raise ShapeError(
                    f"{ctx.label}: index.shape[{k}] = {i1.shape[k]} must be <= src.shape[{k}] = {s1.shape[k]} "
                    f"(only the leading index-shaped block of src is read); got index shape {list(i.shape)} "
                    f"and src shape {list(s.shape)}"
                )
        u = s1[tuple(slice(0, n) for n in i1.shape)]
    else:
        u = np.broadcast_to(v, i1.shape)
    dtype = d.dtype
    name = dtype_name(dtype)
    spec = IndexSpec(axis=a, batch=a, elementwise=True)
    shape0 = d.shape
    restore = (lambda y: y.reshape(shape0)) if d.ndim == 0 else None
    # torch's CPU numerics as Policy fields: float16/bfloat16 sums, products and means accumulate in
    # float32 (rounded once); mean counts on small dtypes are kept in the data dtype (they wrap or round)
    upcast = name in _UPCAST and reduction in (Reduction.ADD, Reduction.MUL, Reduction.MEAN)
    mean_by_count = reduction is Reduction.MEAN and name in SMALL_COUNT_DTYPES
    policy = Policy(
        bounds="raise", negative="raise", reduction=reduction, include_self=include_self, duplicates=dup,
        accumulate="float32" if upcast else "data", mean_count="rounded" if mean_by_count else "exact",
    )
    return Lowering("scatter", d1, i1, spec, policy, ctx, updates=u, post=restore)


def _describe(dim: int, value: Any = None, reduce: str | None = None) -> Description:
    """``value=None``: the ``src`` overload (inputs input, index, src); a number: the ``value`` overload."""
    op = "torch.scatter"
    dim = check_int(op, "dim", dim)
    check_choice(op, "reduce", reduce, tuple(_REDUCE))
    r = _REDUCE[reduce].value
    attrs: dict[str, Any] = {"dim": dim, "reduce": reduce}
    res = [_HALF] if r != "none" else []
    kw: dict[str, Any] = dict(axis=dim, reduction=r, negative="raise", duplicates_specified=False)
    layout: dict[str, Any] = {"index_dtypes": _INT, "smaller_index": True}
    if value is None:
        c = canonical("scatter_elements", data="input", indices="index", updates="src1", **kw)
        pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
        layout["larger_updates"] = True
        return Description(op, attrs, ("input", "index", "src"), c, pre=pre, residuals=res, layout=layout)
    if isinstance(value, (list, tuple)) or np.ndim(value):
        raise UnsupportedError(f"translate {op}: value must be a number (got {value!r}); pass an array as src")
    attrs["value"] = value
    c = canonical("scatter_elements", data="input", indices="index", updates="filled", **kw)
    pre = [Step.adapt("full_updates", "filled", "index", "input", value=value,
                      why="scatter(value=) writes one number at every index")]
    return Description(op, attrs, ("input", "index"), c, pre=pre, residuals=res, layout=layout)


_PROBE: tuple[dict[str, Any], ...] = ({"dim": 0}, {"dim": 0, "value": 1.5}, {"dim": 0, "reduce": "add"},
    {"dim": 0, "reduce": "multiply"})


@torch_op(
    "scatter", family="scatter_elements", kind="scatter", differentiable=("input", "src"), describe=_describe,
    values={"reduce": _REDUCE, "value": "number", "duplicates": DUPLICATES},
    fuzz={"choices": {"reduce": ((None, "add", "multiply"), ("sum", "mean"))}},
    grad=replace(GRAD, restrictions=("no_reduce",)), variants=_PROBE,
)
def scatter(
    input: Any, dim: int, index: Any, src: Any = None, value: Any = None, reduce: str | None = None,
    *, duplicates: str = "last",
) -> Lowering:
    """torch.scatter: write ``src`` (or a scalar ``value``) into a copy of ``input`` along ``dim``.

    Provenance: ``torch.scatter`` / ``Tensor.scatter_(dim, index, src | value, *,
    reduce=None)``, torch 2.13 CPU; int32 indices since 2.8. Give ``src`` (an
    array with ``input``'s dtype) or ``value`` (a number, converted to the dtype
    with torch's overflow check); a number passed as ``src`` is read as ``value``,
    as torch's overloads do. ``reduce``: ``None``, ``'add'`` or ``'multiply'``.
    **Deprecated** in torch (since 2.0) with a Tensor ``src``: torch warns "use
    scatter_reduce"; we compute the same result without a warning.

    ``index`` has the rank of ``input`` (no broadcasting); ``index.shape[d] <=
    src.shape[d]`` everywhere and ``<= input.shape[d]`` except along ``dim``; only
    the leading ``index``-shaped block of ``src`` is read. Negative indices raise.
    Duplicates without ``reduce`` are non-deterministic in torch (CUDA); torch CPU
    and we apply updates in row-major order of ``index``, so the last wins
    (``duplicates='first'``/``'raise'`` on request). float16/bfloat16 reductions
    accumulate in float32 and round once, as torch's CPU kernel.

    Equivalent loop::

        out = copy(input)
        for j in ndindex(index.shape):                      # row-major
            t = j[:dim] + (index[j],) + j[dim+1:]           # 0 <= index[j] < s
            u = src[j] if src is given else value
            out[t] = u  (reduce None) | out[t] + u ('add') | out[t] * u ('multiply')

    Differs from ``torch.scatter_reduce`` (sum/prod/mean/amax/amin, ``include_self``)
    and ONNX ``ScatterElements`` (``updates`` must equal the indices' shape;
    negative indices wrap).

    >>> import gatherscatter as gs
    >>> gs.torch.scatter([[0, 0, 0], [0, 0, 0]], 1, [[2, 0]], src=[[5, 6, 7]]).tolist()
    [[6, 0, 5], [0, 0, 0]]
    >>> gs.torch.scatter([1.0, 2.0, 3.0], 0, [1, 1], value=10.0, reduce="add").tolist()
    [1.0, 22.0, 3.0]
    """
    ctx = torch_context("scatter")
    if src is not None and value is not None:
        raise ArgumentError(f"{ctx.label}: pass src or value, not both")
    if src is None and value is None:
        raise ArgumentError(f"{ctx.label}: pass src (an array) or value (a number)")
    if src is not None and _is_scalar(src):
        src, value = None, src
    if reduce is not None and not isinstance(reduce, str):
        raise ArgumentError(f"{ctx.label}: reduce must be a string or None (got {reduce!r})")
    if reduce not in _REDUCE:
        hint = " (use torch.scatter_reduce for sum, prod, mean, amax, amin)" if isinstance(reduce, str) else ""
        raise UnsupportedError(
            f"{ctx.label}: reduce argument must be either 'add' or 'multiply' (or None); got {reduce!r}{hint}"
        )
    return lower_elementwise_scatter(
        ctx, input, dim, index, src=src, value=value, reduction=_REDUCE[reduce], duplicates=duplicates
    )
