"""Paddle ``paddle.take(x, index, mode='raise')`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import CLIP, MODULO, WRAPPING
from ...core.shape import IndexSpec
from ...errors import ArgumentError, UnsupportedError
from .._common import data_array
from .._record import Description, Step, canonical, check_choice
from .._registry import Lowering, dialect_op, divergence_table
from ._common import check_paddle_dtype, index_array, paddle_context, raise_first_bad
from ._describe import _INT, _TAKE

# take flattens x and calls index_select: the index_select CPU kernels of 3.3.1
_DTYPES = frozenset({"bool", "int32", "int64", "bfloat16", "float32", "float64", "complex64", "complex128"})

# after the mode's own index preprocessing (see the lowering)
_POLICIES = {"raise": WRAPPING, "wrap": MODULO, "clip": CLIP}

divergence_table("paddle.take", r'''
[[divergence]]
case = "mode='raise' with a negative index in [-2n, -n-1] (n = x.size)"
when = "negative"
reference = "paddle.take docstring (3.3.1)"
theirs = "the docstring says 'raise' raises for out-of-range indices"
ours = """
as the paddle runtime: a negative index gets +n, then index_select wraps it once more, so -7 on n=6 reads element \
5; below -2n raises"""
evidence = """
paddle/tensor/math.py take(): where(index < 0, index + max_index, index) then index_select; \
docs/behavior-matrix.md#t6-1 (paddle.take default: idx -4 on size 3 -> wrap [10,30])"""
kind = "spec"
[divergence.example]
call = "paddle.take"
args = { x = [0, 1, 2, 3, 4, 5], index = [-7] }
kwargs = { mode = "raise" }
dtypes = { x = "float32", index = "int64" }
theirs = { equals = [5] }
ours = "same"
''')


def _describe(mode: str = "raise") -> Description:
    op = "paddle.take"
    neg, bounds = _TAKE[check_choice(op, "mode", mode, tuple(_TAKE))]
    pre = [Step.adapt("flatten", "flat", "x", why="take reads the flattened x")]
    idx = "index"
    if mode == "raise":
        pre.append(Step.adapt("normalize_negative", "index1", "index", "flat", axis=0,
                              why="mode='raise' adds n to a negative index, then index_select wraps it once more "
                                  "(valid range [-2n, n-1])"))
        idx = "index1"
    c = canonical("gather", data="flat", indices=idx, axis=0, negative=neg, bounds=bounds)
    return Description(op, {"mode": mode}, ("x", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2), "rank": (1, 1)})


@dialect_op(
    "paddle", "take", family="gather", kind="gather", versions=("3.3.1",), differentiable=("x",),
    describe=_describe, fuzz={"flat": True}, variants=({}, {"mode": "wrap"}, {"mode": "clip"}),
    values={"mode": tuple(_TAKE)},
)
def take(x: Any, index: Any, mode: str = "raise") -> Lowering:
    """Paddle take: elements of the flattened ``x`` at ``index``; the output has the shape of ``index``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.take(x, index, mode='raise')`` on
    CPU (``x.flatten().index_select(index')``). With ``n = x.size``:

    * ``'raise'``: a negative index gets ``+n`` and ``index_select`` then wraps
      it once more, so the valid range is ``[-2n, n-1]`` (``-7`` on ``n = 6``
      reads element 5); anything else raises.
    * ``'wrap'``: ``index mod n`` (Python modulo, any value).
    * ``'clip'``: clamp to ``[0, n-1]``; negative indices become 0.

    An empty ``x`` with a non-empty ``index`` raises in every mode. ``x``
    dtypes: bool, int32, int64, bfloat16, float32, float64, complex64, complex128.

    Equivalent loop::

        flat = x.reshape(-1)
        for i in ndindex(index.shape):
            Y[i] = flat[mode_rule(index[i], n)]

    Differs from ``np.take(mode='raise')`` (valid range ``[-n, n-1]``) and
    from ``torch.take`` (int64 indices only, range ``[-n, n-1]``).

    >>> import gatherscatter as gs
    >>> gs.paddle.take([[0, 1, 2], [3, 4, 5]], [[0, 5], [-1, -6]]).tolist()
    [[0, 5], [5, 0]]
    >>> gs.paddle.take([[0, 1, 2], [3, 4, 5]], [6, -7, 13], mode="wrap").tolist()
    [0, 5, 1]
    >>> gs.paddle.take([[0, 1, 2], [3, 4, 5]], [6, -7], mode="clip").tolist()
    [5, 0]
    """
    ctx = paddle_context("take")
    if not isinstance(mode, str):
        raise ArgumentError(f"{ctx.label}: mode must be a string (got {mode!r})")
    if mode not in _POLICIES:
        raise UnsupportedError(
            f"{ctx.label}: 'mode' in 'take' should be 'raise', 'wrap', 'clip', but received {mode!r}"
        )
    d = data_array(ctx, x)
    check_paddle_dtype(ctx, d, _DTYPES)
    i = index_array(ctx, index)
    flat = d.reshape(-1)
    n = flat.size
    if mode == "raise" and n > 0 and i.size:
        wide = i.astype(np.int64, copy=False)
        bad = (wide < -2 * n) | (wide >= n)
        if bad.any():
            raise_first_bad(
                ctx, i, bad, valid=(-2 * n, n - 1),
                what=f"the flattened x of size {n} (mode='raise': a negative index gets +{n}, then wraps once more)",
            )
        i = np.where(wide < 0, wide + n, wide)
    return Lowering("gather", flat, i, IndexSpec(axis=0), _POLICIES[mode], ctx)
