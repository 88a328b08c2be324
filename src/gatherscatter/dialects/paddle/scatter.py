"""Paddle ``paddle.scatter(x, index, updates, overwrite=True)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import WRAPPING, Policy
from ...core.shape import IndexSpec, as_updates
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, Step, canonical
from .._record import check_bool as check_attr_bool
from .._registry import Lowering, dialect_op, divergence_table
from ._common import check_bool, check_paddle_dtype, index_array, paddle_context
from ._describe import _EMPTY, _INT, _rows

# CPU kernel registry of paddle 3.3.1 for scatter (measured)
_DTYPES = frozenset({"int32", "int64", "float32", "float64"})

# overwrite=False: every targeted row is first set to 0, then the updates are summed into it
_ACCUMULATE = Policy(bounds="raise", negative="wrap", reduction="add", include_self=False)

divergence_table("paddle.scatter", r'''
[[divergence]]
case = "duplicate indices with overwrite=True"
when = "duplicates"
reference = "paddle.scatter docstring (3.3.1)"
theirs = "'the output will be nondeterministic if index contains duplicates'; CPU: last wins (20/20 runs)"
ours = "the last update in index order wins (duplicates='last')"
evidence = """
docs/behavior-matrix.md#t6-6 and docs/behavior-matrix.md#t6-9 (paddle.scatter(overwrite=True) last-wins 20/20); \
docs/semantics.md#s6-7"""
kind = "undefined"
[divergence.example]
call = "paddle.scatter"
args = { x = [0, 0, 0], index = [1, 1], updates = [1, 2] }
dtypes = { x = "float32", index = "int64", updates = "float32" }
theirs = { equals = [0, 2, 0] }
ours = "same"
''')


def _describe(overwrite: bool = True) -> Description:
    """``overwrite=False`` zeroes every targeted row and sums its updates (docs/semantics.md#e19,
    docs/semantics.md#pitfall-10): an add scatter
    with ``include_self=False``, NOT an add onto ``x``."""
    overwrite = check_attr_bool("paddle.scatter", "overwrite", overwrite)
    pre = [Step.adapt("flatten", "index1", "index", why="a 0-d or [n, 1] index is a list of rows"),
           Step.adapt("expand_dims", "tuples", "index1", axis=-1, why="one-component index tuples (rows of x)"),
           Step.adapt("broadcast_updates", "upd", "updates", "tuples", "x",
                      why="a 0-d index takes one row of updates")]
    if overwrite:
        c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", duplicates_specified=False)
    else:
        c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", reduction="add", include_self=False)
    return Description("paddle.scatter", {"overwrite": overwrite}, ("x", "index", "updates"), c, pre=pre,
                       residuals=[_EMPTY],
                  layout={"index_dtypes": _INT, "k": 1, "index_ndim": (0, 1),
                          "to_source": _rows("x", "index", "updates")})


@dialect_op(
    "paddle", "scatter", family="scatter_axis", kind="scatter", versions=("3.3.1",),
    differentiable=("x", "updates"),
    describe=_describe, fuzz={"distinct_targets": 0.6}, variants=({}, {"overwrite": False}),
)
def scatter(x: Any, index: Any, updates: Any, overwrite: bool = True) -> Lowering:
    """Paddle scatter: write rows of ``updates`` into rows ``index`` of a copy of ``x``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.scatter(x, index, updates,
    overwrite=True)`` on CPU (the original signature; the torch-style overload
    ``paddle.scatter(input, dim, index, src)`` is ``put_along_axis``).

    ``index`` is int32/int64 and 1-D (or 2-D ``[n, 1]``): ``updates`` has the
    rank of ``x``, at least ``n`` rows (only the first ``n`` are read) and
    ``updates.shape[1:] == x.shape[1:]``; a 0-D index writes one row and
    ``updates.shape == x.shape[1:]``. Negative indices wrap once; outside
    ``[-s, s-1]`` raises (an empty ``x`` is returned unchanged unchecked).

    * ``overwrite=True``: the last update for a row wins (Paddle documents
      duplicates as nondeterministic; every CPU run measured is last-wins).
    * ``overwrite=False``: every targeted row is first set to **zero**, then
      all its updates are summed: the original row is NOT included.

    ``x`` dtypes: int32, int64, float32, float64.

    Equivalent loop::

        Y = copy(x)
        if not overwrite:
            for n in range(len(index)): Y[index[n]] = 0
        for n in range(len(index)):
            Y[index[n]] = updates[n] if overwrite else Y[index[n]] + updates[n]

    Differs from ``scatter_nd_add`` (which adds onto ``x``) and from torch
    ``index_add`` / ``index_copy`` (any dim; index_add keeps the original row).

    >>> import gatherscatter as gs
    >>> x = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    >>> upd = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]
    >>> gs.paddle.scatter(x, [2, 1, 0, 1], upd).tolist()
    [[3.0, 3.0], [4.0, 4.0], [1.0, 1.0]]
    >>> gs.paddle.scatter(x, [2, 1, 0, 1], upd, overwrite=False).tolist()
    [[3.0, 3.0], [6.0, 6.0], [1.0, 1.0]]
    """
    ctx = paddle_context("scatter")
    ow = check_bool(ctx, "overwrite", overwrite)
    d = data_array(ctx, x)
    check_paddle_dtype(ctx, d, _DTYPES)
    i = index_array(ctx, index)
    u = as_updates(ctx, updates, d.dtype)
    if d.ndim == 0:
        raise ShapeError(f"{ctx.label}: x must have rank >= 1; got a 0-d x")
    if i.ndim == 0:
        if u.shape != d.shape[1:]:
            raise ShapeError(
                f"{ctx.label}: with a 0-D index, updates must have shape x.shape[1:] = {list(d.shape[1:])}; "
                f"got {list(u.shape)}"
            )
        i, u = i.reshape(1), u.reshape((1, *d.shape[1:]))
    else:
        if i.ndim == 2 and i.shape[1] == 1:
            i = i.reshape(-1)
        elif i.ndim != 1:
            raise ShapeError(
                f"{ctx.label}: index must be 0-D, 1-D or 2-D with last dim 1; got index shape {list(i.shape)}"
            )
        if u.ndim != d.ndim or u.shape[1:] != d.shape[1:]:
            raise ShapeError(
                f"{ctx.label}: updates must have the rank of x and updates.shape[1:] == x.shape[1:] = "
                f"{list(d.shape[1:])}; got updates shape {list(u.shape)} for x shape {list(d.shape)}"
            )
        if u.shape[0] < i.shape[0]:
            raise ShapeError(
                f"{ctx.label}: updates must have at least len(index) = {i.shape[0]} rows; got {u.shape[0]}"
            )
        u = u[: i.shape[0]]
    policy = WRAPPING if ow else _ACCUMULATE
    result = d.copy() if d.size == 0 else None
    return Lowering("scatter", d, i, IndexSpec(axis=0), policy, ctx, updates=u, result=result)
