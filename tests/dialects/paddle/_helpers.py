"""Shared checks for the paddle dialect tests: compare an op with its brute-force oracle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs


def agree(oracle: Callable[[], Any], op: Callable[[], Any]) -> None:
    """The op returns what the oracle returns (value, dtype, shape) or raises the matching error.

    The oracle raises a plain IndexError for a bad index and ValueError for a bad shape.
    """
    try:
        expected = oracle()
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            op()
        return
    except ValueError:
        with pytest.raises(gs.ShapeError):
            op()
        return
    out = op()
    assert isinstance(out, np.ndarray)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    np.testing.assert_array_equal(out, expected)


def check_errors(fn: Callable[..., Any], kwargs: dict[str, Any], cls: type, fragments: list[str]) -> None:
    """``fn(**kwargs)`` raises ``cls`` (a GatherScatterError) whose message has every fragment."""
    with pytest.raises(cls) as info:
        fn(**kwargs)
    assert isinstance(info.value, gs.GatherScatterError)
    for frag in fragments:
        assert frag in str(info.value), (frag, str(info.value))
