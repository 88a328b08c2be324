"""NumPy ``put`` (NumPy 2.4), returning a new array."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.shape import IndexSpec
from ...errors import IndexOutOfRangeError
from .._common import data_array
from .._record import Description, Residual, Step, canonical
from .._registry import Lowering, dialect_op, divergence_table
from ._common import cast_values, mode_policy, np_context, put_indices
from ._describe import _INT, _mode, _put_args

divergence_table("numpy.put", __file__)


def _describe(mode: str = "raise") -> Description:
    op = "numpy.put"
    neg, bounds = _mode(op, mode)
    pre = [Step.adapt("flatten", "flat", "a", why="put writes the flattened array"),
           Step.adapt("flatten", "flat_ind", "ind", why="ind is flattened"),
           Step.adapt("cycle_to", "flat_v", "v", "flat_ind", why="v is flattened and repeated cyclically")]
    c = canonical("scatter_elements", data="flat", indices="flat_ind", updates="flat_v", out="y", axis=0,
                  negative=neg, bounds=bounds)
    post = [Step.adapt("reshape_like", "out", "y", "a", why="back to a's shape")]
    res = [Residual("empty", "writes nothing when v is empty, whatever ind holds", "raises")]
    return Description(op, {"mode": mode}, ("a", "ind", "v"), c, pre=pre, post=post, residuals=res,
                  layout={"index_dtypes": _INT, "rank": (1, 1), "to_source": _put_args})


@dialect_op(
    "numpy", "put", family="scatter_axis", kind="scatter", versions=("2.4",), differentiable=("a", "v"),
    describe=_describe, fuzz={"flat": True}, variants=({}, {"mode": "clip"}, {"mode": "wrap"}),
    values={"mode": ("raise", "wrap", "clip")},
)
def put(a: Any, ind: Any, v: Any, mode: str = "raise") -> Lowering:
    """NumPy put: write ``v`` at flat positions ``ind`` of ``a``; a new array is returned.

    Provenance: ``numpy.put(a, ind, v, mode='raise')``, NumPy 2.4
    (``PyArray_PutTo``, ``item_selection.c``); NumPy writes in place,
    gatherscatter returns the written copy.

    ``ind`` and ``v`` are flattened; ``v`` is cast to ``a.dtype`` and repeated
    cyclically when shorter than ``ind`` (extra values are ignored; an empty
    ``v`` writes nothing, whatever ``ind`` holds). Modes as :func:`take`:
    ``'raise'`` (negative wraps once), ``'wrap'`` (mod), ``'clip'`` (clamp,
    ``-1`` -> 0). An index *array* must cast safely to int64 (no uint64, no
    floats); other objects truncate (``[1.5]`` -> 1). Writes happen in order,
    so the last duplicate wins. A non-empty ``ind`` into an empty ``a`` raises.

    Equivalent loop::

        Y = a.copy().ravel()
        for n, i in enumerate(ind.ravel()):
            Y[norm(i)] = v.ravel()[n % v.size]
        Y = Y.reshape(a.shape)

    Differs from ``torch.Tensor.put_`` (no modes, no cycling of ``source``)
    and from ``put_along_axis`` (per-axis, broadcasting).

    >>> import gatherscatter as gs
    >>> gs.numpy.put([0, 1, 2, 3, 4], [0, 2], [-44, -55]).tolist()
    [-44, 1, -55, 3, 4]
    >>> gs.numpy.put([0, 1, 2, 3, 4], [1, 22], [-5, -7], mode="clip").tolist()
    [0, -5, 2, 3, -7]
    >>> gs.numpy.put([0, 0, 0, 0, 0], [0, 1, 2, 3], [1, 2]).tolist()
    [1, 2, 1, 2, 0]
    """
    ctx = np_context("put", data="a", indices="ind", updates="v")
    policy = mode_policy(ctx, mode).with_(duplicates="last")
    d = data_array(ctx, a)
    i = put_indices(ctx, ind).reshape(-1)
    flat = d.reshape(-1)
    if i.size and not flat.size:
        raise IndexOutOfRangeError(
            f"{ctx.label}: cannot replace elements of an empty array (a has shape {list(d.shape)}; "
            f"ind holds {i.size} index(es))"
        )
    vals = cast_values(ctx, v, d.dtype, "v").reshape(-1)
    shape = d.shape
    if not vals.size or not i.size:
        # nothing is written (NumPy returns before looking at the indices)
        return Lowering(
            "scatter", flat, i[:0], IndexSpec(axis=0), policy, ctx, updates=vals[:0],
            post=lambda y: y.reshape(shape), result=np.array(d, copy=True),
        )
    u = vals[: i.size] if vals.size >= i.size else np.resize(vals, i.size)
    return Lowering(
        "scatter", flat, i, IndexSpec(axis=0), policy, ctx, updates=u, post=lambda y: y.reshape(shape),
    )
