"""The shared NumPy-index normaliser (gatherscatter.dialects._npindex) against NumPy itself."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from gatherscatter.dialects._npindex import index_tuples, normalize_index
from tests import strategies as gst


@st.composite
def exprs(draw: Any) -> tuple[tuple[int, ...], Any]:
    shape = draw(gst.shapes(min_dims=0, max_dims=4, min_side=0, max_side=3))
    items: list[Any] = []
    for _ in range(draw(st.integers(0, len(shape) + 1))):
        kind = draw(st.sampled_from(["int", "slice", "array", "mask", "none", "ellipsis", "bool", "list"]))
        if kind == "int":
            items.append(draw(st.integers(-3, 2)))
        elif kind == "slice":
            items.append(
                slice(
                    draw(st.none() | st.integers(-4, 4)),
                    draw(st.none() | st.integers(-4, 4)),
                    draw(st.none() | st.sampled_from([1, 2, -1, -3])),
                )
            )
        elif kind == "array":
            items.append(
                np.array(draw(st.lists(st.integers(-3, 2), max_size=3)), np.int64).reshape(
                    draw(st.sampled_from([(-1,), (-1, 1), (1, -1)]))
                )
            )
        elif kind == "mask":
            n = draw(st.integers(0, 3))
            items.append(np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool))
        elif kind == "none":
            items.append(None)
        elif kind == "ellipsis":
            items.append(Ellipsis)
        elif kind == "bool":
            items.append(draw(st.booleans()))
        else:
            items.append(draw(st.lists(st.integers(-3, 2), max_size=2)))
    return shape, tuple(items) if draw(st.booleans()) or len(items) != 1 else items[0]


@given(exprs())
def test_matches_numpy(case: tuple[tuple[int, ...], Any]) -> None:
    shape, idx = case
    x = np.arange(int(np.prod(shape))).reshape(shape)
    try:
        want = x[idx]
    except IndexError as exc:
        if "out of bounds" in str(exc):
            return  # out-of-range values are left to the dialect's policy
        with pytest.raises(gs.GatherScatterError):
            normalize_index(idx, shape)
        return
    except ValueError:
        with pytest.raises(gs.GatherScatterError):
            normalize_index(idx, shape)
        return
    plan = normalize_index(idx, shape)
    assert plan.result_shape == want.shape
    coords = [np.broadcast_to(c, plan.result_shape) for c in plan.coordinates()]
    got = x[tuple(coords)] if coords else np.broadcast_to(x, plan.result_shape)
    np.testing.assert_array_equal(got, want)
    lead, trail = plan.full_ends()
    tuples = index_tuples(plan, lead, trail)
    n = len(plan.result_shape)
    assert tuples.shape == (*plan.result_shape[lead : n - trail], len(shape) - lead - trail)
    if want.size and tuples.size:
        # numpy accepted the index, so raw negatives are within [-s, s): wrap them once
        lin = np.ravel_multi_index(np.moveaxis(tuples, -1, 0), shape[lead : len(shape) - trail], mode="wrap")
        mid = x.reshape(*shape[:lead], -1, *shape[len(shape) - trail :])
        np.testing.assert_array_equal(np.take(mid, lin, axis=lead), want)


def test_layout_fields() -> None:
    plan = normalize_index((slice(None), None, [0, 1], 1), (2, 3, 4))
    assert plan.result_shape == (2, 1, 2)
    assert plan.advanced and plan.advanced_shape == (2,) and plan.advanced_dims == (2,)
    assert plan.newaxis_dims == (1,)
    assert [a.kind for a in plan.axes] == ["slice", "array", "array"]
    assert plan.full_ends() == (1, 0)


def test_out_of_range_is_left_alone() -> None:
    plan = normalize_index(([5, -9],), (3,))
    assert plan.axes[0].values.tolist() == [5, -9]
    assert normalize_index(2**70, (3,)).axes[0].values.tolist() == np.iinfo(np.int64).max


def test_jax_adjacency_ignores_scalar_bools() -> None:
    idx = (slice(None), True, slice(None), np.array([0]))
    assert normalize_index(idx, (2, 3, 4)).result_shape == (1, 2, 3)
    assert normalize_index(idx, (2, 3, 4), adjacency="jax").result_shape == (2, 1, 3)


def test_unsigned_beyond_int64_saturates_in_tuples() -> None:
    plan = normalize_index((np.array([2**64 - 1], np.uint64),), (3,))
    assert index_tuples(plan).tolist() == [[np.iinfo(np.int64).max]]


@pytest.mark.parametrize(
    ("idx", "err", "frag"),
    [
        ((0, 0), gs.IndexOutOfRangeError, "too many indices"),
        ((..., ...), gs.IndexOutOfRangeError, "single ellipsis"),
        (np.array([True, False]), gs.IndexOutOfRangeError, "boolean index did not match"),
        (([0, 1], None, [0, 1, 2]), gs.ShapeError, "could not be broadcast"),
        (1.5, gs.DTypeError, "float"),
        ((np.array([1.5]),), gs.DTypeError, "integer (or boolean)"),
        (slice(0, 2, 0), gs.UnsupportedError, "step cannot be zero"),
        (slice(0.5, 2), gs.ArgumentError, "slice indices must be integers"),
        (object(), gs.ArgumentError, "not a valid index"),
    ],
)
def test_errors(idx: Any, err: type, frag: str) -> None:
    shape = (3, 3) if isinstance(idx, tuple) and len(idx) == 3 else (3,)
    with pytest.raises(err) as info:
        normalize_index(idx, shape)
    assert frag in str(info.value)
