"""Shared checks of the torch dialect tests: compare with an oracle, errors included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

ORACLE_ERRORS = (IndexError, ValueError, TypeError)


def assert_matches(ours: Callable[[], Any], oracle: Callable[[], Any]) -> None:
    """``ours()`` equals ``oracle()`` (values, dtype, shape), or both raise the same builtin class.

    gatherscatter's errors are GatherScatterErrors that are also the matching builtin
    (IndexOutOfRangeError is an IndexError, ShapeError a ValueError, DTypeError a TypeError).
    """
    error: Exception | None = None
    try:
        expected = oracle()
    except ORACLE_ERRORS as exc:
        error = exc
    if error is not None:
        with pytest.raises(gs.GatherScatterError) as info:
            ours()
        assert isinstance(info.value, type(error)), (info.value, error)
        return
    out = ours()
    assert isinstance(out, np.ndarray)
    assert out.dtype == expected.dtype and out.shape == expected.shape, (out.dtype, out.shape, expected.dtype,
                                                                          expected.shape)
    np.testing.assert_array_equal(out, expected)


def assert_error(fn: Callable[..., Any], kwargs: dict[str, Any], cls: type[Exception], fragments: list[str]) -> None:
    """``fn(**kwargs)`` raises ``cls`` whose message holds every fragment."""
    with pytest.raises(cls) as info:
        fn(**kwargs)
    msg = str(info.value)
    for frag in fragments:
        assert frag in msg, (frag, msg)
