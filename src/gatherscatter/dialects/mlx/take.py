"""MLX ``mlx.core.take`` (0.32, CPU)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Policy
from ...core.shape import IndexSpec, as_index_array, normalize_axis, to_int
from .._common import data_array
from .._record import Description, Step, canonical, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._mlx import MLX_VERSION, check_bounds, mlx_context, mlx_description, to_mlx_dtype

divergence_table("mlx.take", r'''
[[divergence]]
case = "index outside [-s, s-1] (take, take_along_axis, put_along_axis, array.at[] updates)"
when = "out_of_range"
reference = "MLX 0.32.4 CPU"
theirs = """
no bounds check: reads (or writes) memory outside the array (observed: garbage values such as 6.7e-44; an \
out-of-range .at[].add crashed the process)"""
ours = "IndexOutOfRangeError"
evidence = "observed: mx.take(mx.array([[1., 2, 3], [4, 5, 6]]), mx.array([3, 0]), axis=1)"
kind = "undefined"
not_reproducible = "reads memory outside the array (garbage) or crashes: no stable outcome"
''')


def _describe(axis: int | None = None) -> Description:
    op = "mlx.take"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        pre = [Step.adapt("flatten", "flat", "a", why="axis=None takes from the flattened array")]
        return mlx_description(op, {"axis": None}, ("a", "indices"),
                               canonical("gather", data="flat", axis=0, negative="wrap", bounds="raise"), pre=pre,
                               index_ndim=(0, 2))
    return mlx_description(op, {"axis": axis}, ("a", "indices"),
                           canonical("gather", data="a", axis=axis, negative="wrap", bounds="raise"), index_ndim=(0, 2))


@dialect_op("mlx", "take", family="gather", kind="gather", versions=(MLX_VERSION,), differentiable=("a",),
            describe=_describe, variants=({}, {"axis": 0}, {"axis": -1}), fuzz={"axis_none": True},
            values={"axis": "int"})
def take(a: Any, indices: Any, axis: Any = None) -> Lowering:
    """MLX ``mlx.core.take``: elements of the flattened ``a`` (``axis=None``) or slices along ``axis``.

    Provenance: ``mlx.core.take(a, indices, axis=None)``, MLX 0.32.4 CPU. Negative
    indices wrap once (Python style); MLX does not check bounds, so an index outside
    ``[-s, s-1]`` reads outside the array: gatherscatter raises. A float64 NumPy
    array becomes float32, as ``mx.array`` makes it.

    Lowering: core ``gather``, ``IndexSpec(axis=axis)`` on ``a`` (flattened for
    ``axis=None``), negative ``wrap``, bounds ``raise``.

    Equivalent loop::

        for p, i, r in ndindex(P, I, R):
            out[p, i, r] = a[p, indices[i] % s if indices[i] < 0 else indices[i], r]

    Differs from ``jax.numpy.take`` (fills out-of-range reads) and ``numpy.take``
    (the same in range; NumPy raises out of range too).

    >>> import gatherscatter as gs
    >>> gs.mlx.take([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [-1, 0], axis=1).tolist()
    [[3.0, 1.0], [6.0, 4.0]]
    """
    ctx = mlx_context("take", data="a", indices="indices")
    d = data_array(ctx, a)
    i = as_index_array(ctx, indices, "indices")
    if axis is None:
        d, ax = d.reshape(-1), 0
    else:
        ax = normalize_axis(ctx, to_int(ctx, "axis", axis), d.ndim)
    check_bounds(ctx, i, d.shape[ax], ax)
    policy = Policy(bounds="raise", negative="wrap")
    return Lowering("gather", d, i, IndexSpec(axis=ax), policy, ctx, post=to_mlx_dtype(d.dtype))
