"""PyTorch ``torch.index_copy`` (2.13), and the slice writing shared with ``index_fill``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Duplicates, Policy, parse_enum
from ...core.shape import IndexSpec, prod
from ...errors import ShapeError
from .._common import DUPLICATES, data_array
from .._record import Description, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT64, check_dtype, index_and_dim, src_array, torch_context
from ._describe import _EMPTY_UNCHECKED, _I64, _index_axis_source, torch_op

divergence_table("torch.index_copy", r'''
[[divergence]]
case = "duplicate indices"
when = "duplicates"
reference = "torch 2.13 CPU with several threads"
theirs = """
'nondeterministic since it depends on which copy occurs last'; last-wins in only 2 of 20 runs of 50k updates into \
16 rows (small inputs are last-wins)"""
ours = "duplicates='last' (index order), deterministic; 'first' or 'raise' on request"
evidence = """
docs/behavior-matrix.md#surprise-5, docs/behavior-matrix.md#t6-6 and docs/behavior-matrix.md#t6-9; \
docs/semantics.md#s6-4"""
kind = "undefined"
not_reproducible = "nondeterministic: needs tens of thousands of updates on several threads, and small inputs agree"
''')


def _without(shape: tuple[int, ...], a: int) -> tuple[int, ...]:
    return shape[:a] + shape[a + 1 :] if shape else ()


def _describe(dim: int) -> Description:
    dim = check_int("torch.index_copy", "dim", dim)
    return _index_axis_source("torch.index_copy", dim, {"dim": dim}, reduction="none", negative="raise",
                              index_dtypes=_I64, duplicates_specified=False,
                              residuals=[_EMPTY_UNCHECKED])


def index_slices(ctx: OpContext, d: np.ndarray[Any, Any], i: np.ndarray[Any, Any], a: int, policy: Policy,
                  updates: Callable[[tuple[int, ...]], np.ndarray[Any, Any]]) -> Lowering:
    """``index_copy`` and ``index_fill``: write one slice along ``a`` per entry of the 0-d or 1-d index ``i``.

    ``updates(shape)`` gives the slices (``shape``: ``d``'s with ``len(i)`` along ``a``). A 0-d ``d`` is one
    slice of a 1-element vector, and the result is 0-d again. As in torch, a ``d`` whose slices (its shape
    without ``a``) are empty is returned as a copy, without index checks.
    """
    d1 = d.reshape(1) if d.ndim == 0 else d
    i1 = i.reshape(-1)
    ushape = d1.shape[:a] + (i1.size,) + d1.shape[a + 1 :]
    low = Lowering("scatter", d1, i1, IndexSpec(axis=a), policy, ctx, updates=updates(ushape))
    if prod(d1.shape[:a] + d1.shape[a + 1 :]) == 0:  # torch loops over empty slices: no index check
        low.result = np.array(d, copy=True)
    elif d.ndim == 0:
        low.post = lambda y: y.reshape(())
    return low


@torch_op(
    "index_copy", family="scatter_axis", kind="scatter", differentiable=("input", "source"), describe=_describe,
    fuzz={"distinct_targets": 0.6}, variants=({"dim": 0},), values={"duplicates": DUPLICATES},
)
def index_copy(input: Any, dim: int, index: Any, source: Any, *, duplicates: str = "last") -> Lowering:
    """torch.index_copy: copy ``source`` slices into a copy of ``input`` at ``index`` along ``dim``.

    Provenance: ``torch.index_copy(input, dim, index, source)`` /
    ``Tensor.index_copy_``, torch 2.13 CPU. ``index`` is int64 only (int32
    raises), 0-d or 1-d, in ``[0, s-1]`` (negative indices raise). ``source`` has
    ``input``'s dtype and the same slice shape (``input.shape`` without ``dim``),
    with ``len(index)`` entries along ``dim``; a 0-d ``source`` or ``input``
    counts as one slice. As in torch, an ``input`` whose slices (its shape
    without ``dim``) are empty is returned without index checks. Duplicates are nondeterministic in
    torch with several threads; here the last in index order wins
    (``duplicates='first'``/``'raise'`` on request).

    Equivalent loop::

        out = copy(input)
        for k in range(len(index)):
            out[(:,) * dim + (index[k],)] = source[(:,) * dim + (k,)]

    Differs from ``torch.index_put`` (index tuples, negatives wrap, broadcasting)
    and OpenVINO ``ScatterUpdate`` (any index rank).

    >>> import gatherscatter as gs
    >>> gs.torch.index_copy([[0, 0], [0, 0], [0, 0]], 0, [2, 0], [[1, 2], [3, 4]]).tolist()
    [[3, 4], [0, 0], [1, 2]]
    """
    ctx = torch_context("index_copy", updates="source")
    d = data_array(ctx, input)
    check_dtype(ctx, d)
    i, a = index_and_dim(ctx, d, index, dim, INDEX_INT64)
    dup = parse_enum(Duplicates, duplicates)
    s = src_array(ctx, source, d.dtype, "source")
    if s.ndim and d.ndim and s.ndim != d.ndim:
        raise ShapeError(
            f"{ctx.label}: source and input must have the same number of dims unless one is 0-d; got source shape "
            f"{list(s.shape)} and input shape {list(d.shape)}"
        )
    n = s.shape[a] if s.ndim else 1
    if i.size != n:
        raise ShapeError(f"{ctx.label}: the number of indices ({i.size}) must equal source.shape[{a}] ({n})")
    if _without(s.shape, a) != _without(d.shape, a):
        raise ShapeError(
            f"{ctx.label}: source and input must have the same slice shape (their shape without dim {a}); got "
            f"source shape {list(s.shape)} and input shape {list(d.shape)}"
        )
    policy = Policy(bounds="raise", negative="raise", duplicates=dup)
    return index_slices(ctx, d, i, a, policy, s.reshape)
