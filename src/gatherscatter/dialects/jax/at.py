"""JAX's ``x.at[idx]`` property as a function: ``gs.jax.at(x)[idx].get() / .set(v) / ...``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .at_functions import at_add, at_get, at_max, at_min, at_multiply, at_set

__all__ = ["at"]


class _IndexUpdateRef:
    """``at(x)[idx]``: the methods of JAX's ``_IndexUpdateRef``, each a registered op.

    ``indices_are_sorted`` and ``unique_indices`` are accepted and ignored (they
    are performance promises; the result here is the same either way).
    """

    __slots__ = ("idx", "x")

    def __init__(self, x: Any, idx: Any) -> None:
        self.x = x
        self.idx = idx

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.x!r}, {self.idx!r})"

    def get(
        self,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: Any = None,
        fill_value: Any = None,
    ) -> np.ndarray[Any, Any]:
        """``x[idx]`` (:func:`~gatherscatter.dialects.jax.at_get.at_get`)."""
        return at_get(self.x, self.idx, mode=mode, fill_value=fill_value)

    def set(
        self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None
    ) -> np.ndarray[Any, Any]:
        """``x[idx] = values`` on a copy (:func:`~gatherscatter.dialects.jax.at_set.at_set`)."""
        return at_set(self.x, self.idx, values, mode=mode)

    def add(
        self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None
    ) -> np.ndarray[Any, Any]:
        """``x[idx] += values``, duplicates accumulated (:func:`~gatherscatter.dialects.jax.at_add.at_add`)."""
        return at_add(self.x, self.idx, values, mode=mode)

    def multiply(
        self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None
    ) -> np.ndarray[Any, Any]:
        """``x[idx] *= values`` (:func:`~gatherscatter.dialects.jax.at_multiply.at_multiply`)."""
        return at_multiply(self.x, self.idx, values, mode=mode)

    def min(
        self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None
    ) -> np.ndarray[Any, Any]:
        """``x[idx] = minimum(x[idx], values)`` (:func:`~gatherscatter.dialects.jax.at_min.at_min`)."""
        return at_min(self.x, self.idx, values, mode=mode)

    def max(
        self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None
    ) -> np.ndarray[Any, Any]:
        """``x[idx] = maximum(x[idx], values)`` (:func:`~gatherscatter.dialects.jax.at_max.at_max`)."""
        return at_max(self.x, self.idx, values, mode=mode)


class _IndexUpdateHelper:
    """``at(x)``: subscript it with an index to get the update methods."""

    __slots__ = ("x",)

    def __init__(self, x: Any) -> None:
        self.x = x

    def __getitem__(self, idx: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.x, idx)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.x!r})"


def at(x: Any) -> _IndexUpdateHelper:
    """JAX's ``x.at`` for any array-like ``x``: ``at(x)[idx].get()``, ``.set(v)``, ``.add(v)``,
    ``.multiply(v)``, ``.min(v)``, ``.max(v)``; each returns a new NumPy array.

    The methods call the registered function forms :func:`at_get`, :func:`at_set`,
    :func:`at_add`, :func:`at_multiply`, :func:`at_min`, :func:`at_max` (what
    ``gs.vjp`` and ``gs.translate`` see). ``x`` is never modified.

    >>> import gatherscatter as gs
    >>> x = [1.0, 2.0, 3.0]
    >>> gs.jax.at(x)[([0, 0],)].add(5.0).tolist()
    [11.0, 2.0, 3.0]
    >>> gs.jax.at(x)[1:].set(0.0).tolist()
    [1.0, 0.0, 0.0]
    >>> x
    [1.0, 2.0, 3.0]
    """
    return _IndexUpdateHelper(x)
