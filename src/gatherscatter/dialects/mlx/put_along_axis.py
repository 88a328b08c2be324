"""MLX ``mlx.core.put_along_axis`` (0.32, CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array
from ...errors import ShapeError
from .._common import along_axis, data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op
from ._along import broadcast_along
from ._mlx import MLX_VERSION, cast_values, check_bounds, mlx_array, mlx_context, mlx_description


def _describe(axis: int | None = None) -> Description:
    op = "mlx.put_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    inputs = ("a", "indices", "values")
    if axis is None:
        pre = [Step.adapt("flatten", "flat", "a", why="axis=None writes the flattened array (1-d indices)")]
        c = canonical("scatter_elements", data="flat", updates="values", out="y", axis=0, broadcast=True,
                      negative="wrap", bounds="raise")
        post = [Step.adapt("reshape_like", "out", "y", "a", why="back to a's shape")]
        return mlx_description(op, {"axis": None}, inputs, c, pre=pre, post=post, rank=(1, 1), updates_broadcast=0.3)
    c = canonical("scatter_elements", data="a", updates="values", axis=axis, broadcast=True, negative="wrap",
                  bounds="raise")
    return mlx_description(op, {"axis": axis}, inputs, c, updates_broadcast=0.3)


@dialect_op("mlx", "put_along_axis", family="scatter_elements", kind="scatter", versions=(MLX_VERSION,),
            differentiable=("a", "values"), describe=_describe, variants=({"axis": 1}, {"axis": -1}, {}),
            fuzz={"axis_none": True, "scalar_updates": 0.3}, values={"axis": "int"})
def put_along_axis(a: Any, indices: Any, values: Any, axis: Any = None) -> Lowering:
    """MLX ``mlx.core.put_along_axis``: a copy of ``a`` with ``values`` written at ``indices`` along ``axis``.

    Provenance: ``mlx.core.put_along_axis(a, indices, values, axis=None)``, MLX 0.32.4
    CPU (returns a new array). ``indices`` has the rank of ``a`` and broadcasts with it
    on the other axes; ``values`` broadcasts to the indices' (broadcast) shape and is
    cast to ``a``'s dtype. A duplicated target keeps the last value (row-major order,
    observed on CPU). Negative indices wrap once; outside ``[-s, s-1]`` MLX writes
    outside the array: gatherscatter raises.

    Lowering: core ``scatter`` with ``IndexSpec(axis=a, batch=a, elementwise=True)``,
    no reduction, duplicates ``last``.

    Equivalent loop::

        out = copy(a)
        for j in ndindex(indices (broadcast) shape):
            out[j[:axis] + (wrap(indices[j]),) + j[axis+1:]] = values[j]

    Differs from ``numpy.put_along_axis`` (in place there, no broadcasting of indices
    against ``a``) and ``torch.scatter`` (negative indices raise there).

    >>> import gatherscatter as gs
    >>> gs.mlx.put_along_axis([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[0, 0]], [[9.0, 7.0]], axis=1).tolist()
    [[7.0, 2.0, 3.0], [7.0, 5.0, 6.0]]
    """
    ctx = mlx_context("put_along_axis", data="a", indices="indices", updates="values")
    d = mlx_array(data_array(ctx, a))
    i = as_index_array(ctx, indices, "indices")
    shape0 = d.shape if axis is None else None
    d, ax = along_axis(ctx, d, i, axis)
    check_bounds(ctx, i, d.shape[ax], ax)
    d2, i2 = broadcast_along(ctx, d, i, ax)
    if d2.shape != d.shape:
        raise ShapeError(
            f"{ctx.label}: indices shape {list(i.shape)} would broadcast a (shape {list(d.shape)}) to "
            f"{list(d2.shape)}; put_along_axis cannot change a's shape"
        )
    v = data_array(ctx, values, "values")
    try:
        u = np.broadcast_to(v, i2.shape)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: values shape {list(v.shape)} does not broadcast to the indices shape {list(i2.shape)}"
        ) from None
    u = cast_values(ctx, u, d.dtype)
    post = (lambda y: y.reshape(shape0)) if shape0 is not None else None
    return Lowering("scatter", d, i2, IndexSpec(axis=ax, batch=ax, elementwise=True),
                    Policy(bounds="raise", negative="wrap"), ctx, updates=u, post=post)
