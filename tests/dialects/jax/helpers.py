"""Assertions shared by the JAX dialect tests."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["assert_same"]


def assert_same(got: Any, want: Any) -> None:
    """Same values (NaN == NaN), same dtype, same shape; ``got`` is a new ndarray."""
    want = np.asarray(want)
    assert isinstance(got, np.ndarray), type(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, strict=True)
