"""Paddle ``paddle.put_along_axis(arr, indices, values, axis, reduce, include_self, broadcast)`` (3.3.1, CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy
from ...core.shape import IndexSpec, as_updates, normalize_axis
from ...errors import ShapeError
from .._common import check_name, data_array
from .._record import Description, Step, canonical, check_choice, check_int
from .._record import check_bool as check_attr_bool
from .._registry import Lowering, dialect_op, divergence_table
from ._common import along_axis_index, check_bool, check_paddle_dtype, paddle_context, raise_first_bad
from ._describe import _EMPTY, _INT

# CPU kernel registry of paddle 3.3.1 for put_along_axis (measured)
_DTYPES = frozenset({"int16", "int32", "int64", "uint8", "float32", "float64"})

_REDUCE = {
    "assign": "none", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean", "amin": "min", "amax": "max",
}

divergence_table("paddle.put_along_axis", r'''
[[divergence]]
case = "broadcast=True and indices larger than arr on a dim other than axis"
when = "always"
reference = "paddle 3.3.1 CPU"
theirs = """
indices are not broadcast and the kernel writes outside arr: 'malloc(): invalid size' crash, or writes into the \
wrong rows"""
ours = "ShapeError naming the dim"
evidence = """
probe: put_along_axis(zeros((3, 4)), [[1], [2], [0], [3]], 1.0, 1) aborts the process; zeros((3,1,4)) with indices \
(1,2,2) on axis 2 writes rows 0 and 1"""
kind = "undefined"
not_reproducible = "the process aborts, or the rows written vary"

[[divergence]]
case = "broadcast=False, scalar values and indices larger than arr on a dim other than axis"
when = "scalar"
reference = "paddle 3.3.1 CPU"
theirs = "the size check runs only for Tensor values: the kernel writes outside arr ('malloc(): invalid size')"
ours = "ShapeError, as paddle raises for Tensor values"
evidence = "probe: put_along_axis(zeros((3, 4)), [[1], [2], [0], [3]], 3.0, 1, broadcast=False) aborts"
kind = "undefined"
not_reproducible = "the process aborts (malloc(): invalid size)"

[[divergence]]
case = """
Python scalar or list values whose default paddle dtype is not arr's (float -> float32, int -> int64), and 0-d \
array values with broadcast=False"""
when = "dtype"
reference = "paddle 3.3.1 CPU"
theirs = """
broadcast=True: 'The type of data we are trying to retrieve (float64) does not match the type of data (float32)'; \
broadcast=False: a 0-d Tensor fails the rank check"""
ours = """
Python scalars and lists take arr's dtype when no value changes (a float into an int arr is a DTypeError; NumPy \
arrays must match it exactly); a 0-d value is broadcast to indices"""
evidence = "probe: put_along_axis(float32 arr, idx, 9, 0) raises; paddle.to_tensor(9.0).dtype is float32"
kind = "choice"
[divergence.example]
call = "paddle.put_along_axis"
args = { arr = [0, 0], indices = [1], values = 1.5, axis = 0 }
dtypes = { arr = "float64", indices = "int64" }
theirs = { raises = "Exception" }
ours = { equals = [0, 1.5] }

[[divergence]]
case = "duplicate indices with reduce='assign'"
when = "duplicates"
reference = "paddle 3.3.1 docs"
theirs = "order unspecified; CPU: last wins (20/20 runs)"
ours = "the last update in row-major order of indices wins"
evidence = "docs/behavior-matrix.md#t6-4 and docs/behavior-matrix.md#t6-9; docs/semantics.md#s5-3"
kind = "undefined"
[divergence.example]
call = "paddle.put_along_axis"
args = { arr = [0, 0], indices = [0, 0], values = [1, 2], axis = 0 }
dtypes = { arr = "float32", indices = "int64", values = "float32" }
theirs = { equals = [2, 0] }
ours = "same"
''')


def _values(
    ctx: OpContext, values: Any, dtype: np.dtype[Any], shape: tuple[int, ...]
) -> np.ndarray[Any, Any]:
    v = as_updates(ctx, values, dtype)
    try:
        return np.broadcast_to(v, shape)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: values of shape {list(v.shape)} cannot be broadcast to {list(shape)}"
        ) from None


def _describe(axis: int, reduce: str = "assign", include_self: bool = True, broadcast: bool = True) -> Description:
    op = "paddle.put_along_axis"
    axis = check_int(op, "axis", axis)
    r = _REDUCE[check_choice(op, "reduce", reduce, tuple(_REDUCE))]
    include_self = check_attr_bool(op, "include_self", include_self)
    broadcast = check_attr_bool(op, "broadcast", broadcast)
    attrs = {"axis": axis, "reduce": reduce, "include_self": include_self, "broadcast": broadcast}
    kw: dict[str, Any] = dict(axis=axis, reduction=r, include_self=include_self, mean_rounding="floor")
    layout: dict[str, Any] = {"index_dtypes": _INT, "data_dtypes": ("float64", "float32", "int64", "int32")}
    if broadcast:
        c = canonical("scatter_elements", data="arr", indices="indices", updates="values", broadcast=True, **kw)
        layout.update(updates_broadcast=0.3, index_fits=True)
        return Description(op, attrs, ("arr", "indices", "values"), c, residuals=[_EMPTY], layout=layout)
    c = canonical("scatter_elements", data="arr", indices="indices", updates="values1", **kw)
    pre = [Step.adapt("slice_like", "values1", "values", "indices",
                      why="broadcast=False reads the leading indices-shaped block of values")]
    layout.update(smaller_index=True, larger_updates=True)
    return Description(op, attrs, ("arr", "indices", "values"), c, pre=pre, residuals=[_EMPTY], layout=layout)


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"axis": 0, "reduce": r, "include_self": s}
    for r in ("assign", "add", "mul", "mean", "amax", "amin") for s in (True, False)
    if r != "assign" or s]
)


@dialect_op(
    "paddle", "put_along_axis", family="scatter_elements", kind="scatter", versions=("3.3.1",),
    differentiable=("arr", "values"),
    describe=_describe, values={"reduce": _REDUCE}, fuzz={"scalar_updates": 0.3}, variants=_PROBE,
)
def put_along_axis(
    arr: Any,
    indices: Any,
    values: Any,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> Lowering:
    """Paddle put_along_axis: write (or reduce) one value per index along ``axis`` into a copy of ``arr``.

    Provenance: PaddlePaddle 3.3.1 ``paddle.put_along_axis(arr, indices, values,
    axis, reduce='assign', include_self=True, broadcast=True)`` on CPU.
    ``reduce``: ``assign`` (last wins), ``add``, ``mul``/``multiply``, ``mean``
    (integer means round toward -inf), ``amin``, ``amax``; ``include_self=False``
    leaves the original value out of the reduction of targeted positions.
    Negative indices wrap once; outside ``[-s, s-1]`` raises.

    Shapes (``indices`` has the rank of ``arr``; ``axis`` is required):

    * ``broadcast=True``: if ``indices.shape[d] <= arr.shape[d]`` on every dim,
      ``indices`` and ``values`` are broadcast to ``arr.shape`` with
      ``indices.shape[axis]`` on ``axis``; otherwise ``values`` is broadcast to
      ``indices.shape`` and nothing else is (a larger ``indices`` on another
      dim than ``axis`` raises: Paddle writes out of bounds there).
    * ``broadcast=False``: ``indices.shape[d] <= arr.shape[d]`` for
      ``d != axis``; ``values`` has the rank of ``indices`` and is at least as
      large (its leading block is read), or is a scalar.

    ``arr`` dtypes: int16, int32, int64, uint8, float32, float64; array
    ``values`` must have the dtype of ``arr``; Python scalars and lists take it.

    Equivalent loop (after broadcasting)::

        Y = copy(arr)
        for j in ndindex(indices.shape):                     # row-major
            t = j[:axis] + (norm(indices[j]),) + j[axis+1:]
            Y[t] = values[j] if reduce == 'assign' else f(Y[t], values[j])

    Differs from ``np.put_along_axis`` (in place, no reductions), from
    ``torch.scatter_reduce`` (names ``sum``/``prod``, no broadcasting, rejects
    negative indices) and from ONNX ``ScatterElements`` (no ``mean``, no ``include_self``).

    >>> import gatherscatter as gs
    >>> gs.paddle.put_along_axis([[10, 30, 20], [60, 40, 50]], [[0]], 99, 0).tolist()
    [[99, 99, 99], [60, 40, 50]]
    >>> gs.paddle.put_along_axis([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1, 2, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 0,
    ...                          reduce="add", include_self=False).tolist()
    [4.0, 12.0, 5.0, 4.0]
    """
    ctx = paddle_context("put_along_axis", data="arr", indices="indices", updates="values")
    check_name(ctx, "reduce", reduce, _REDUCE, "can not support reduce: {!r}; only support reduce op: 'add', 'assign', "
               "'mul', 'mean', 'amin', 'amax' and 'multiply'")
    inc = check_bool(ctx, "include_self", include_self)
    b = check_bool(ctx, "broadcast", broadcast)
    d = data_array(ctx, arr)
    check_paddle_dtype(ctx, d, _DTYPES)
    i = along_axis_index(ctx, d, indices)
    a = normalize_axis(ctx, axis, d.ndim)
    if b:
        if all(m <= n for m, n in zip(i.shape, d.shape, strict=True)):
            target = d.shape[:a] + i.shape[a : a + 1] + d.shape[a + 1 :]
            try:
                i = np.broadcast_to(i, target)
            except ValueError:
                raise ShapeError(
                    f"{ctx.label}: indices of shape {list(i.shape)} cannot be broadcast to {list(target)} "
                    f"(arr shape with indices.shape[axis] on axis {a})"
                ) from None
        v = _values(ctx, values, d.dtype, i.shape)
        if d.size == 0:
            return Lowering("scatter", d, i, IndexSpec(axis=a, batch=a, elementwise=True), Policy(), ctx,
                            updates=v, result=d.copy())
        for dim in range(d.ndim):
            if dim != a and i.shape[dim] > d.shape[dim]:
                raise ShapeError(
                    f"{ctx.label}: indices.shape[{dim}] = {i.shape[dim]} is larger than arr.shape[{dim}] = "
                    f"{d.shape[dim]} (indices shape {list(i.shape)}, arr shape {list(d.shape)}); paddle 3.3.1 "
                    f"writes out of bounds here"
                )
    else:
        v0 = as_updates(ctx, values, d.dtype)
        if v0.ndim == 0 or (not isinstance(values, np.ndarray) and v0.size == 1):
            v = np.broadcast_to(v0.reshape(()), i.shape)
        else:
            if v0.ndim != i.ndim:
                raise ShapeError(
                    f"{ctx.label}: indices and values must have the same number of dimensions; got indices "
                    f"shape {list(i.shape)} and values shape {list(v0.shape)}"
                )
            v = v0
        for dim in range(d.ndim):
            if (dim != a and d.shape[dim] < i.shape[dim]) or i.shape[dim] > v.shape[dim]:
                raise ShapeError(
                    f"{ctx.label}: size does not match at dimension {dim}: indices shape {list(i.shape)} must be "
                    f"no larger than arr shape {list(d.shape)} apart from axis {a} and no larger than values "
                    f"shape {list(v.shape)}"
                )
        v = v[tuple(slice(0, m) for m in i.shape)]
        s = d.shape[a]
        if i.size and (i >= s).any():
            raise_first_bad(ctx, i, i >= s, valid=(-s, s - 1), what=f"axis {a} of arr with size {s}")
        if d.size == 0:
            return Lowering("scatter", d, i, IndexSpec(axis=a, batch=a, elementwise=True), Policy(), ctx,
                            updates=v, result=d.copy())
    policy = Policy(
        bounds="raise", negative="wrap", reduction=_REDUCE[reduce], include_self=inc, mean_rounding="floor",
        duplicates="last",
    )
    return Lowering("scatter", d, i, IndexSpec(axis=a, batch=a, elementwise=True), policy, ctx, updates=v)
