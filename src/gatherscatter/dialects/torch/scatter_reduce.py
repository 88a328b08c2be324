"""PyTorch ``torch.scatter_reduce`` (2.13; the 1.12 ``scatter_reduce.two`` form)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ...core.policy import Reduction
from ...core.shape import dtype_name
from ...errors import DTypeError
from .._common import check_name
from .._record import Description, Step, canonical, check_bool, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import DATA_DTYPES, GRAD, VERSION, as_bool, torch_context
from ._describe import _HALF, _INT, _MEAN_COUNT, torch_op
from .scatter import lower_elementwise_scatter

_REDUCE = {
    "sum": Reduction.ADD,
    "prod": Reduction.MUL,
    "mean": Reduction.MEAN,
    "amax": Reduction.MAX,
    "amin": Reduction.MIN,
    # undocumented aliases that torch 2.13 accepts (ReductionType get_reduction_enum)
    "max": Reduction.MAX,
    "min": Reduction.MIN,
}

divergence_table("torch.scatter_reduce", r'''
[[divergence]]
case = "reduce='prod' on complex128 input"
when = "dtype"
reference = "torch 2.13 CPU (scalar kernel compiled with fused multiply-add)"
theirs = "the product's real and imaginary parts are rounded once (fma), so results can differ from NumPy"
ours = "NumPy's complex multiply (may differ by 1 ulp); complex64 matches torch"
evidence = "torch 2.13.0 CPU runs: 861 of 2000 random complex128 pairs differ in the last bit"
kind = "device"
not_reproducible = """
on this machine NumPy's vectorised complex loop rounds as torch does: 0 of 2000 random complex128 pairs differ \
(measured 2026-11-25, torch 2.13.0, NumPy 2.4); it depends on both libraries' instruction sets"""

[[divergence]]
case = "reduce='mean' on uint8/int8/int16/float16/bfloat16 with many contributions per position"
when = "dtype"
reference = "exact arithmetic (and docs/semantics.md#s5-2 '(x + Σu) / (n + 1)')"
theirs = """
torch counts contributions in the data dtype: the count wraps (int8: 201 -> -55) or rounds (float16 > 2048), and \
float16/bfloat16 round the float32 sum before dividing"""
ours = "the same as torch (count kept in the data dtype); other dtypes divide by the exact count"
evidence = "torch 2.13 CPU runs: int8 0 + 200 ones -> 1; uint8 0 + 255 ones -> 255; float16 3000 ones -> 1.0"
kind = "choice"
not_reproducible = "ours does what torch does (the record is against exact arithmetic)"
''')


def _describe(dim: int, reduce: str, include_self: bool = True) -> Description:
    op = "torch.scatter_reduce"
    dim = check_int(op, "dim", dim)
    r = _REDUCE[check_choice(op, "reduce", reduce, tuple(_REDUCE))].value
    include_self = check_bool(op, "include_self", include_self)
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction=r,
                  include_self=include_self, negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    res = [_HALF] if r in ("add", "mul", "mean") else []
    if r == "mean":
        res.append(_MEAN_COUNT)
    return Description(op, {"dim": dim, "reduce": reduce, "include_self": include_self},
                  ("input", "index", "src"), c, pre=pre, residuals=res,
                  layout={"index_dtypes": _INT, "smaller_index": True, "larger_updates": True,
                          "nonfinite": 0.1 if r in ("max", "min") else 0.0})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"dim": 0, "reduce": r, "include_self": s}
    for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)]
)


@torch_op(
    "scatter_reduce", family="scatter_elements", kind="scatter", differentiable=("input", "src"), describe=_describe,
    values={"reduce": _REDUCE},
    fuzz={"choices": {"reduce": (("sum", "prod", "mean", "amax", "amin"), ("max", "add", None))}},
    grad=replace(GRAD, restrictions=("src_is_index_shaped",)), variants=_PROBE,
)
def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, include_self: bool = True) -> Lowering:
    """torch.scatter_reduce: reduce every ``src`` element into a copy of ``input`` along ``dim``.

    Provenance: ``torch.scatter_reduce(input, dim, index, src, reduce, *,
    include_self=True)`` as redesigned in torch 1.12 (pytorch/pytorch#74226;
    the accidental 1.11 signature is not reproduced), torch 2.13 CPU, int32
    indices since 2.8. ``reduce``: ``'sum'``, ``'prod'``, ``'mean'``, ``'amax'``,
    ``'amin'`` (torch also accepts the undocumented ``'max'``/``'min'``).
    ``include_self=False`` leaves the initial value of every targeted position
    out of the reduction; untouched positions keep ``input``.

    Shape rules as :func:`scatter`; ``src.dtype == input.dtype``; negative
    indices raise. Integer ``mean`` rounds toward -inf (floor). ``mean`` is not
    defined for bool, ``amax``/``amin`` not for complex. torch keeps the ``mean``
    count in the data dtype (it wraps in int8, rounds in float16) and accumulates
    float16/bfloat16 sums and products in float32; both are reproduced.

    Equivalent loop::

        out = copy(input); n = zeros(input.shape)
        for j in ndindex(index.shape):
            t = j[:dim] + (index[j],) + j[dim+1:]
            if not include_self and n[t] == 0:  out[t] = src[j]
            else:                               out[t] = f(out[t], src[j])
            n[t] += 1
        mean: out[t] /= n[t] + include_self (floor for integers)

    Differs from ONNX ``ScatterElements`` (no ``mean``, no ``include_self``,
    negative indices wrap) and ``torch.scatter(reduce=)`` (add/multiply only).

    >>> import gatherscatter as gs
    >>> index, src = [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6]
    >>> gs.torch.scatter_reduce([1.0, 2.0, 3.0, 4.0], 0, index, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "sum").tolist()
    [5.0, 14.0, 8.0, 4.0]
    >>> gs.torch.scatter_reduce([1, 2, 3, 4], 0, index, src, "amin", include_self=False).tolist()
    [1, 2, 5, 4]
    """
    ctx = torch_context("scatter_reduce")
    red = _REDUCE[check_name(ctx, "reduce", reduce, _REDUCE,
                             "reduce argument must be either 'sum', 'prod', 'mean', 'amax' or 'amin'; got {!r}")]
    inc = as_bool(ctx, "include_self", include_self)

    def early_check(d: np.ndarray[Any, Any]) -> None:
        # mean divides by a count even for an empty index: bool and uint16+ fail there in torch
        if red is Reduction.MEAN and (d.dtype.kind == "b" or dtype_name(d.dtype) not in DATA_DTYPES):
            raise DTypeError(
                f"{ctx.label}: reduce='mean' is not implemented for {dtype_name(d.dtype)} input (torch {VERSION} CPU)"
            )

    def check(d: np.ndarray[Any, Any]) -> None:
        if red in (Reduction.MAX, Reduction.MIN) and d.dtype.kind == "c":
            raise DTypeError(
                f"{ctx.label}: reduce={reduce!r} is not implemented for {dtype_name(d.dtype)} input (complex "
                f"numbers have no order)"
            )

    return lower_elementwise_scatter(
        ctx, input, dim, index, src=src, reduction=red, include_self=inc, check=check, early_check=early_check
    )
