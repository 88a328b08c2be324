"""NumPy ``multiply.at`` (NumPy 2.4), returning a new array."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op
from ._describe import _ufunc_at
from ._ufunc_at import lower_at


def _describe(form: str = "array") -> Description:
    return _ufunc_at("numpy.multiply_at", "mul", form)


@dialect_op(
    "numpy", "multiply_at", family="general", kind="scatter", versions=("2.4",), differentiable=("a", "b"),
    describe=_describe,
)
def multiply_at(a: Any, indices: Any, b: Any) -> Lowering:
    """NumPy multiply.at: unbuffered ``a[t] * b`` at every element ``a[indices]`` selects.

    Provenance: ``numpy.multiply.at(a, indices, b)`` (``ufunc.at``), NumPy 2.4;
    NumPy works in place, gatherscatter returns the updated copy.

    ``indices`` is any NumPy index expression: an int, a slice, ``...``,
    ``None``, an integer or boolean array (lists are arrays), or a tuple of
    these; negative entries count from the back, anything outside
    ``[-n, n-1]`` raises. ``b`` is broadcast to the shape of ``a[indices]``.
    Every selected element is updated once per time it is selected, in
    row-major order of ``a[indices]`` (repeated elements accumulate). Dtypes
    follow NumPy: the loop dtype promotes ``a`` with ``b`` (a scalar ``b`` by
    value) and the result is cast back to ``a.dtype`` unsafely after each
    update (see ``gatherscatter.dialects.numpy._ufunc_at``).

    Equivalent loop::

        Y = a.copy()
        sel = arange(a.size).reshape(a.shape)[indices]      # flat positions, any index expression
        for j in ndindex(sel.shape):
            t = unravel_index(sel[j], a.shape)
            Y[t] = Y[t] * b_j                   # b_j = broadcast(b, sel.shape)[j]

    Differs from ``a[indices] *= b`` (a repeated element is multiplied once) and
    from ``torch.scatter_reduce(reduce='prod')`` (per-axis indices, ``include_self``).

    >>> import gatherscatter as gs
    >>> gs.numpy.multiply_at([1, 2, 3, 4], [2, 3], 2).tolist()
    [1, 2, 6, 8]
    """
    return lower_at("multiply", np.multiply, Reduction.MUL, a, indices, b)
