"""Hypothesis strategies shared by every dialect's property tests.

They draw small shapes (including zero-size dims), axes in their negative and
positive forms, and index arrays that deliberately mix in-range, negative,
out-of-range and duplicate values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "INDEX_DTYPES",
    "axes",
    "data_arrays",
    "index_arrays",
    "index_values",
    "shapes",
]

INDEX_DTYPES = (np.int32, np.int64)


def shapes(min_dims: int = 1, max_dims: int = 4, min_side: int = 0, max_side: int = 4) -> st.SearchStrategy[tuple[int, ...]]:
    """Small shapes; zero-size dims included unless ``min_side >= 1``."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def axes(rank: int) -> st.SearchStrategy[int]:
    """An axis of a rank-``rank`` array, negative or positive."""
    return st.integers(-rank, rank - 1)


def data_arrays(shape: tuple[int, ...], dtype: Any = np.float64) -> st.SearchStrategy[np.ndarray[Any, Any]]:
    """Distinct-valued data (each element tells where it came from)."""
    n = int(np.prod(shape)) if shape else 1
    base = np.arange(n, dtype=np.float64).reshape(shape) + 1
    return st.just(base.astype(dtype))


def index_values(size: int, *, in_range: bool = False, allow_negative: bool = True) -> st.SearchStrategy[int]:
    """One index for an axis of ``size``: in range, negative, or (unless ``in_range``) outside.

    Out-of-range candidates include the axis size itself, far values and the
    int64 extremes.
    """
    parts: list[st.SearchStrategy[int]] = []
    if size > 0:
        parts.append(st.integers(0, size - 1))
        if allow_negative:
            parts.append(st.integers(-size, -1))
    if not in_range or size == 0:
        parts.append(st.sampled_from([size, size + 1, -size - 1, 2**31, -(2**31), 2**63 - 1, -(2**63)]))
    return st.one_of(*parts)


def index_arrays(
    shape: tuple[int, ...],
    size: int,
    *,
    dtype: Any = np.int64,
    in_range: bool = False,
    allow_negative: bool = True,
) -> st.SearchStrategy[np.ndarray[Any, Any]]:
    """Index arrays of ``shape`` for an axis of ``size`` (duplicates are common at small sizes)."""
    info = np.iinfo(dtype)
    values = index_values(size, in_range=in_range, allow_negative=allow_negative).filter(
        lambda v: info.min <= v <= info.max
    )
    return hnp.arrays(dtype=dtype, shape=shape, elements=values)
