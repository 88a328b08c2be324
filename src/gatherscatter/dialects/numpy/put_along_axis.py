"""NumPy ``put_along_axis`` (NumPy 2.4), returning a new array."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy
from ...core.shape import IndexSpec, prod
from ...errors import ShapeError
from .._common import data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import along_axis, along_indices, broadcast_along, cast_values, check_bounds, np_context
from ._describe import _INT

_POLICY = Policy(bounds="raise", negative="wrap", duplicates="last")

divergence_table("numpy.put_along_axis", __file__)


def _describe(axis: int | None) -> Description:
    op = "numpy.put_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        pre = [Step.adapt("flatten", "flat", "arr", why="axis=None writes the flattened array (1-d indices)")]
        c = canonical("scatter_elements", data="flat", indices="indices", updates="values", out="y", axis=0,
                      broadcast=True)
        post = [Step.adapt("reshape_like", "out", "y", "arr", why="back to arr's shape")]
        return Description(op, {"axis": None}, ("arr", "indices", "values"), c, pre=pre, post=post,
                      layout={"index_dtypes": _INT, "rank": (1, 1), "updates_broadcast": 0.3})
    c = canonical("scatter_elements", data="arr", indices="indices", updates="values", axis=axis, broadcast=True)
    return Description(op, {"axis": axis}, ("arr", "indices", "values"), c,
                  layout={"index_dtypes": _INT, "updates_broadcast": 0.3})


@dialect_op(
    "numpy", "put_along_axis", family="scatter_elements", kind="scatter", versions=("2.4",),
    differentiable=("arr", "values"),
    describe=_describe, fuzz={"scalar_updates": 0.3}, variants=({"axis": 1},),
)
def put_along_axis(arr: Any, indices: Any, values: Any, axis: int | None) -> Lowering:
    """NumPy put_along_axis: write ``values`` at one index per element; a new array is returned.

    Provenance: ``numpy.put_along_axis(arr, indices, values, axis)``, NumPy 2.4
    (``numpy/lib/_shape_base_impl.py``); NumPy writes into ``arr`` in place,
    gatherscatter returns the written copy and leaves ``arr`` untouched.

    ``indices`` (integer, rank of ``arr``) broadcasts against ``arr`` off the
    axis as in :func:`take_along_axis`; ``values`` broadcasts to that shape and
    is cast to ``arr.dtype`` as ``arr[idx] = values`` does (arrays unsafely,
    Python numbers must fit). ``axis=None`` writes into the flattened array
    (1-d indices). Negative indices wrap once; outside ``[-s, s-1]`` raises.
    Duplicate targets: the last in row-major order wins.

    Equivalent loop (after broadcasting)::

        Y = arr.copy()
        for j in ndindex(indices.shape):
            Y[j[:axis] + (norm(indices[j]),) + j[axis+1:]] = values[j]

    Differs from ``onnx.ScatterElements`` / ``torch.scatter`` (no broadcasting)
    and from ``jax.numpy.put_along_axis`` (drops out-of-range updates).

    >>> import gatherscatter as gs
    >>> gs.numpy.put_along_axis([[10, 30, 20], [60, 40, 50]], [[1], [0]], 99, axis=1).tolist()
    [[10, 99, 20], [99, 40, 50]]
    >>> gs.numpy.put_along_axis([0, 0, 0, 0], [1, 1, 1], [10, 20, 30], axis=0).tolist()
    [0, 30, 0, 0]
    """
    ctx = np_context("put_along_axis", data="arr", updates="values")
    d = data_array(ctx, arr)
    i = along_indices(ctx, indices)
    out_shape = d.shape
    d, a = along_axis(ctx, d, i, axis)
    shape = broadcast_along(ctx, i.shape, d.shape, a)
    v = cast_values(ctx, values, d.dtype, "values")
    try:
        vb = np.broadcast_to(v, shape)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: shape mismatch: value array of shape {list(v.shape)} could not be broadcast to "
            f"indexing result of shape {list(shape)}"
        ) from None
    if prod(shape):
        check_bounds(ctx, i, d.shape[a], a, "indices")
    ib = np.broadcast_to(i, shape)
    # dims where arr has size 1 but the index does not: every update along them lands on
    # the same slice; fold them into the axis (keeping their row-major order) so that the
    # scatter sees indices no larger than arr
    fold = [k for k in range(d.ndim) if k != a and d.shape[k] != shape[k]]
    spec = IndexSpec(axis=a, batch=a, elementwise=True)
    if fold:
        group = sorted([*fold, a])
        keep = [k for k in range(d.ndim) if k not in group]
        p = sum(1 for k in keep if k < a)
        perm = keep[:p] + group + keep[p:]
        merged = prod([shape[k] for k in group])
        new = [shape[k] for k in keep[:p]] + [merged] + [shape[k] for k in keep[p:]]
        ib = ib.transpose(perm).reshape(new)
        vb = vb.transpose(perm).reshape(new)
        d = d.reshape([d.shape[k] for k in keep[:p]] + [d.shape[a]] + [d.shape[k] for k in keep[p:]])
        spec = IndexSpec(axis=p, batch=p, elementwise=True)
    post = None if d.shape == out_shape else (lambda y: y.reshape(out_shape))
    return Lowering("scatter", d, ib, spec, _POLICY, ctx, updates=vb, post=post)
