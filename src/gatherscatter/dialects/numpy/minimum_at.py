"""NumPy ``minimum.at`` (NumPy 2.4), returning a new array."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Reduction
from .._record import Description
from .._registry import Lowering, dialect_op
from ._describe import _ufunc_at
from ._ufunc_at import lower_at


def _describe(form: str = "array") -> Description:
    return _ufunc_at("numpy.minimum_at", "min", form)


@dialect_op(
    "numpy", "minimum_at", family="general", kind="scatter", versions=("2.4",), differentiable=("a", "b"),
    describe=_describe,
)
def minimum_at(a: Any, indices: Any, b: Any) -> Lowering:
    """NumPy minimum.at: unbuffered ``min(a[t], b)`` at every element ``a[indices]`` selects.

    Provenance: ``numpy.minimum.at(a, indices, b)`` (``ufunc.at``), NumPy 2.4;
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
            Y[t] = minimum(Y[t], b_j)                   # b_j = broadcast(b, sel.shape)[j]

    Differs from ``torch.scatter_reduce(reduce='amin')`` (per-axis indices,
    ``include_self``); NaN propagates as in ``np.minimum``. Complex ``a`` is
    refused (NumPy orders complex lexicographically; the core has no such min).

    >>> import gatherscatter as gs
    >>> gs.numpy.minimum_at([1, 5, 3], [1, 1], [4, 2]).tolist()
    [1, 2, 3]
    """
    return lower_at("minimum", np.minimum, Reduction.MIN, a, indices, b)
