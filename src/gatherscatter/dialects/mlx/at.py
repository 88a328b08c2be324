"""MLX ``array.at[indices].add / subtract / multiply / maximum / minimum / divide`` (0.32, CPU), as ``at_*``.

One family file: each variant is a row of :data:`AT` (the method, its core reduction), registered by
:func:`_register`. ``divide`` is MLX's own composition, a multiply-scatter of the values' reciprocals
(:func:`at_divide`: the pre adapter ``reciprocal_like``, then :func:`at_multiply`'s scatter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, as_index_array, dtype_name
from ...errors import DTypeError, ShapeError, UnsupportedError
from .._common import POINTWISE, blockwise, data_array
from .._record import Description, Residual, Step, canonical, tuple_index_args
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from ._mlx import MLX_VERSION, cast_values, check_bounds, mlx_array, mlx_context, mlx_description

__all__ = ["AT", "at_divide"]

#: at_<method>: the core reduction applied for every (repeated) index, in order
AT: dict[str, Reduction] = {
    "at_add": Reduction.ADD,
    "at_subtract": Reduction.SUB,
    "at_multiply": Reduction.MUL,
    "at_maximum": Reduction.MAX,
    "at_minimum": Reduction.MIN,
}

for _n in (*AT, "at_divide"):
    divergence_table(f"mlx.{_n}", __file__)


def _validate(method: str, a: Any, indices: Any, values: Any) -> tuple[OpContext, Any, Any, Any]:
    """``a`` in MLX's dtype, the checked first-axis ``indices``, ``values`` broadcast to ``a[indices]``."""
    ctx = mlx_context(f"array.at[].{method}", data="a", indices="indices", updates="values")
    d = mlx_array(data_array(ctx, a))
    if d.ndim == 0:
        raise ShapeError(f"{ctx.label}: a must have at least one axis (got a 0-d array)")
    if isinstance(indices, tuple) and len(indices) == 1:  # a[(i,)] is a[i]
        indices = indices[0]
    if isinstance(indices, (tuple, slice)) or indices is None or indices is Ellipsis:
        raise UnsupportedError(
            f"{ctx.label}: indices must be an integer or an integer array into the first axis (got a "
            f"{type(indices).__name__}: tuples of several indices, slices, None and ... are other index forms MLX "
            "accepts; "
            "they are not reproduced here)"
        )
    if d.shape[0] == 0 and not (isinstance(indices, int) and not isinstance(indices, bool)):
        # MLX's scatter: the update slice (size 1 on axis 0) must fit in a (a Python int index takes another path)
        raise ShapeError(
            f"{ctx.label}: a has size 0 on its first axis (shape {list(d.shape)}), so no update slice fits (MLX: "
            f"'[scatter] Updates ... are too large for array', a ValueError), whatever the indices ({indices!r})"
        )
    i = as_index_array(ctx, indices, "indices")
    v = data_array(ctx, values, "values")
    target = i.shape + d.shape[1:]
    try:
        u = np.broadcast_to(v, target)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: values shape {list(v.shape)} does not broadcast to a[indices].shape {list(target)}"
        ) from None
    check_bounds(ctx, i, d.shape[0])
    return ctx, d, i, u


def _register(name: str, red: Reduction) -> DialectOp:
    method = name[3:]

    def public(a: Any, indices: Any, values: Any) -> Lowering:
        ctx, d, i, u = _validate(method, a, indices, values)
        u = cast_values(ctx, u, d.dtype)
        policy = Policy(bounds="raise", negative="wrap", reduction=red)
        return Lowering("scatter", d, i, IndexSpec(axis=0), policy, ctx, updates=u)

    public.__name__ = name
    public.__doc__ = f"""MLX ``a.at[indices].{method}(values)``: apply ``{method}`` for every index, repeats included.

    Provenance: ``mlx.core.array.at``, MLX 0.32.4 CPU; unlike ``a[indices] = ...`` every
    repeated index applies its update in turn. ``indices`` is an integer or integer
    array addressing the first axis (other index forms are not supported here);
    ``values`` broadcasts to ``a[indices].shape`` and takes ``a``'s dtype. Negative
    indices wrap once; MLX does not check bounds (an index past the end sometimes
    leaves ``a`` unchanged, sometimes corrupts memory and crashes the process), so
    gatherscatter raises for indices outside ``[-s, s-1]``. An array of indices into
    a first axis of size 0 raises a ``ValueError`` in MLX, even when empty (here a
    :class:`~gatherscatter.ShapeError`). Returns a new array.

    Lowering: core ``scatter`` with ``IndexSpec(axis=0)``, reduction {red.value},
    negative ``wrap``, bounds ``raise``.

    Equivalent loop::

        out = copy(a)
        for j in ndindex(indices.shape):
            k = indices[j] + (len(a) if indices[j] < 0 else 0)      # outside [0, len(a)): error
            out[k] = {method}(out[k], values[j])

    Differs from ``jax.numpy``'s ``.at[].{method if method != 'subtract' else 'add'}`` only in dtype rules, and from
    NumPy's ``ufunc.at`` (out-of-range indices raise there).

    >>> import gatherscatter as gs
    >>> gs.mlx.{name}([1.0, 2.0, 3.0, 4.0], [1, 1, -1], [2.0, 3.0, 4.0]).tolist()
    {_EXAMPLE[name]}
    """
    return dialect_op("mlx", name, family="scatter_axis", kind="scatter", versions=(MLX_VERSION,),
                      differentiable=("a", "values"), describe=_describer(name, red), variants=({},))(public)


def _describer(name: str, red: Reduction) -> Any:
    def describe() -> Description:
        pre = [Step.adapt("expand_dims", "tuples", "indices", axis=-1, why="one-component index tuples (first axis)"),
               Step.adapt("broadcast_updates", "upd", "values", "tuples", "a", why="values broadcast to a[indices]")]
        c = canonical("scatter_nd", data="a", indices="tuples", updates="upd", reduction=red.value, negative="wrap",
                      bounds="raise")
        return mlx_description(f"mlx.{name}", {}, ("a", "indices", "values"), c, pre=pre, k=1, index_ndim=(0, 2),
                               to_source=tuple_index_args("a", "indices", "values", as_array=True, broadcast=0.3))

    return describe


_EXAMPLE = {
    "at_add": "[1.0, 7.0, 3.0, 8.0]",
    "at_subtract": "[1.0, -3.0, 3.0, 0.0]",
    "at_multiply": "[1.0, 12.0, 3.0, 16.0]",
    "at_maximum": "[1.0, 3.0, 3.0, 4.0]",
    "at_minimum": "[1.0, 2.0, 3.0, 4.0]",
}

at_add, at_subtract, at_multiply, at_maximum, at_minimum = (_register(n, r) for n, r in AT.items())


def _describe_divide() -> Description:
    pre = [Step.adapt("expand_dims", "tuples", "indices", axis=-1, why="one-component index tuples (first axis)"),
           Step.adapt("broadcast_updates", "v", "values", "tuples", "a", why="values broadcast to a[indices]"),
           Step.adapt("reciprocal_like", "upd", "v", "a", why="MLX multiplies by the reciprocals, cast to a's dtype")]
    c = canonical("scatter_nd", data="a", indices="tuples", updates="upd", reduction="mul", negative="wrap",
                  bounds="raise")
    d = mlx_description("mlx.at_divide", {}, ("a", "indices", "values"), c, pre=pre, k=1, index_ndim=(0, 2),
                        to_source=tuple_index_args("a", "indices", "values", as_array=True, broadcast=0.3))
    d.residuals.append(Residual("dtype", "a Python scalar value takes a's dtype (a Python float on integer a: "
                                "float32) before the reciprocal", "the reciprocal in the value's own dtype"))
    return d


@dialect_op("mlx", "at_divide", family="scatter_axis", kind="scatter", versions=(MLX_VERSION,),
            differentiable=("a",), describe=_describe_divide, variants=({},))
def at_divide(a: Any, indices: Any, values: Any) -> Lowering:
    """MLX ``a.at[indices].divide(values)``: ``a`` multiplied, index by index, by the reciprocals of ``values``.

    Provenance: ``mlx.core.array.at``, MLX 0.32.4 CPU, measured bit for bit on float32, float16 and
    bfloat16 data with many repeated indices: MLX computes ``reciprocal(values)`` in the values' own
    dtype (integers and bool: float32; a Python scalar takes ``a``'s dtype, a Python float on integer
    ``a`` float32), casts it to ``a``'s dtype, and multiply-scatters it in index order (as
    :func:`at_multiply`). So ``a / v1 / v2`` is ``(a * (1/v1)) * (1/v2)``, neither a true division
    nor a division by ``v1 * v2``; the result keeps ``a``'s dtype, and integer ``a`` is multiplied by
    the truncated reciprocal: ``8 / 2`` is ``8 * int(0.5) = 0`` and ``8 / 0.5`` is ``16``. A zero
    divisor on integer ``a`` casts ``inf`` to the integer dtype (undefined in C++; on x86 both MLX and
    NumPy give the most negative integer). Indices, bounds and shapes as :func:`at_multiply`.
    Array ``values`` (NumPy arrays and scalars, lists) stand for ``mx.array(values)``, as in every
    ``gs.mlx`` op (float64 becomes float32); MLX itself, handed a NumPy array directly, first converts
    it to ``a``'s dtype (``a`` float16 divided by a float32 NumPy 1.11 gives 0.9004 there, 0.901 here
    and with ``mx.array``), and takes a NumPy float64 scalar as a Python float.

    Description: the pre adapter ``reciprocal_like(values, a)`` (the reciprocal in the values' dtype, cast
    to ``a``'s), then :func:`at_multiply`'s multiply-scatter. ``gs.vjp`` differentiates ``a`` only (the
    reciprocal is not linear in ``values``).

    Equivalent loop::

        r = astype(reciprocal(values), a.dtype)      # reciprocal in values' dtype (ints: float32)
        out = copy(a)
        for j in ndindex(indices.shape):
            k = indices[j] + (len(a) if indices[j] < 0 else 0)      # outside [0, len(a)): error
            out[k] = out[k] * r[j]

    Differs from JAX's ``x.at[idx].divide`` (a true division by the product, float for integer ``x``)
    and from NumPy's ``np.divide.at`` (divides in turn).

    >>> import gatherscatter as gs
    >>> gs.mlx.at_divide([8.0, 9.0], [0, 0], [2.0, 4.0]).tolist()
    [1.0, 9.0]
    >>> gs.mlx.at_divide(np.array([8, 9, 10], np.int32), [0, 1], [0.5, 2.0]).tolist()
    [16, 0, 10]
    """
    ctx, d, i, u = _validate("divide", a, indices, values)
    if isinstance(values, (bool, int, float)) and not isinstance(values, np.generic):  # MLX's Python-scalar rule
        u = u.astype(np.float32 if isinstance(values, float) and d.dtype.kind not in "fc" else d.dtype)
    else:
        u = mlx_array(u)
    if u.dtype.kind in "OUSMm":  # (bfloat16 and the other ml_dtypes are kind V)
        raise DTypeError(f"{ctx.label}: values of dtype {dtype_name(u.dtype)} have no reciprocal (MLX arrays are "
                         "numeric: bool, integer, floating or complex)")
    recip, cast = POINTWISE["reciprocal"], POINTWISE["cast_like"]
    # element-wise, so computed once per distinct value (a broadcast axis: once) and block by block (no float32
    # copy of all the values), then broadcast again
    small = np.asarray(u[tuple(slice(0, 1) if st == 0 else slice(None) for st in u.strides)])  # (0-d stays 0-d)
    small = small if small.flags.c_contiguous else np.ascontiguousarray(small)
    r = blockwise(lambda b: cast(recip(b), d), d.dtype, small.reshape(-1)).reshape(small.shape)
    policy = Policy(bounds="raise", negative="wrap", reduction=Reduction.MUL)
    return Lowering("scatter", d, i, IndexSpec(axis=0), policy, ctx, updates=np.broadcast_to(r, u.shape))
