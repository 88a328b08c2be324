"""JAX's ``x.at[idx]`` property as a function: ``gs.jax.at(x)[idx].get() / .set(v) / ...``."""

from __future__ import annotations

from typing import Any

import numpy as np

# the update functions are looked up by name when a method runs (_method)
from .at_composed import at_apply, at_divide, at_power  # noqa: F401
from .at_functions import at_add, at_get, at_max, at_min, at_multiply, at_set, at_subtract  # noqa: F401

__all__ = ["at"]


def _method(function: str, doc: str) -> Any:
    """``x.at[idx].<method>(values, ...)``: calls this module's ``function`` (looked up at call time)."""

    def method(self: _IndexUpdateRef, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
               mode: Any = None, wrap_negative_indices: bool = True) -> np.ndarray[Any, Any]:
        fn = globals()[function]
        return np.asarray(fn(self.x, self.idx, values, mode=mode, wrap_negative_indices=wrap_negative_indices))

    method.__name__ = method.__qualname__ = function.removeprefix("at_")
    method.__doc__ = f"{doc} (:func:`~gatherscatter.dialects.jax.{function}`)."
    return method


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
        wrap_negative_indices: bool = True,
    ) -> np.ndarray[Any, Any]:
        """``x[idx]`` (:func:`~gatherscatter.dialects.jax.at_functions.at_get`)."""
        return at_get(self.x, self.idx, mode=mode, fill_value=fill_value, wrap_negative_indices=wrap_negative_indices)

    set = _method("at_set", "``x[idx] = values`` on a copy")
    add = _method("at_add", "``x[idx] += values``, duplicates accumulated")
    subtract = _method("at_subtract", "``x[idx] -= values``, duplicates subtracted in turn")
    multiply = _method("at_multiply", "``x[idx] *= values``")
    divide = _method("at_divide", "``x[idx] /= values``")
    power = _method("at_power", "``x[idx] **= values``")
    min = _method("at_min", "``x[idx] = minimum(x[idx], values)``")
    max = _method("at_max", "``x[idx] = maximum(x[idx], values)``")

    def apply(self, func: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None,
              wrap_negative_indices: bool = True) -> np.ndarray[Any, Any]:
        """``func`` applied at ``x[idx]`` once per update (:func:`~gatherscatter.dialects.jax.at_composed.at_apply`)."""
        return at_apply(self.x, self.idx, func, mode=mode, wrap_negative_indices=wrap_negative_indices)


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
    ``.subtract(v)``, ``.multiply(v)``, ``.divide(v)``, ``.power(v)``, ``.min(v)``, ``.max(v)``,
    ``.apply(func)``; each returns a new NumPy array.

    The methods call the registered function forms :func:`at_get`, :func:`at_set`,
    :func:`at_add`, :func:`at_subtract`, :func:`at_multiply`, :func:`at_min`,
    :func:`at_max` (what ``gs.vjp`` and ``gs.translate`` see), and the composed
    functions :func:`at_divide`, :func:`at_power`, :func:`at_apply` (a scatter
    and an element-wise step, as JAX builds them; not registered ops). ``x`` is
    never modified.

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
