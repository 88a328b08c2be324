"""MLX ``mlx.core.take_along_axis`` (0.32, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array
from .._common import along_axis, data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op
from ._along import broadcast_along
from ._mlx import MLX_VERSION, check_bounds, mlx_context, mlx_description, to_mlx_dtype


def _describe(axis: int | None = None) -> Description:
    op = "mlx.take_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        pre = [Step.adapt("flatten", "flat", "a", why="axis=None works on the flattened array (1-d indices)")]
        c = canonical("gather_elements", data="flat", axis=0, negative="wrap", bounds="raise")
        return mlx_description(op, {"axis": None}, ("a", "indices"), c, pre=pre, rank=(1, 1))
    c = canonical("gather_elements", data="a", axis=axis, broadcast=True, negative="wrap", bounds="raise")
    return mlx_description(op, {"axis": axis}, ("a", "indices"), c)


@dialect_op("mlx", "take_along_axis", family="gather_elements", kind="gather", versions=(MLX_VERSION,),
            differentiable=("a",), describe=_describe, variants=({"axis": 1}, {"axis": -1}, {}),
            fuzz={"axis_none": True}, values={"axis": "int"})
def take_along_axis(a: Any, indices: Any, axis: Any = None) -> Lowering:
    """MLX ``mlx.core.take_along_axis``: ``out[..., j, ...] = a[..., indices[..., j, ...], ...]`` along ``axis``.

    Provenance: ``mlx.core.take_along_axis(a, indices, axis=None)``, MLX 0.32.4 CPU.
    ``indices`` has the rank of ``a``; the two broadcast against each other on every
    other axis (``[[2, 0]]`` serves every row). ``axis=None`` flattens ``a`` (1-D
    indices). Negative indices wrap once; outside ``[-s, s-1]`` MLX reads outside the
    array: gatherscatter raises. float64 becomes float32 (``mx.array``).

    Lowering: core ``gather`` with ``IndexSpec(axis=a, batch=a, elementwise=True)``
    on the broadcast views.

    Equivalent loop::

        for j in ndindex(broadcast shape):
            out[j] = a[j[:axis] + (wrap(indices[j]),) + j[axis+1:]]

    Differs from ``numpy.take_along_axis`` (no broadcasting of the non-axis dims there).

    >>> import gatherscatter as gs
    >>> gs.mlx.take_along_axis([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[2, 0]], axis=1).tolist()
    [[3.0, 1.0], [6.0, 4.0]]
    """
    ctx = mlx_context("take_along_axis", data="a", indices="indices")
    d = data_array(ctx, a)
    i = as_index_array(ctx, indices, "indices")
    d, ax = along_axis(ctx, d, i, axis)
    check_bounds(ctx, i, d.shape[ax], ax)
    d, i = broadcast_along(ctx, d, i, ax)
    return Lowering("gather", d, i, IndexSpec(axis=ax, batch=ax, elementwise=True),
                    Policy(bounds="raise", negative="wrap"), ctx, post=to_mlx_dtype(d.dtype))
