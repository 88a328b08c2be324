"""torch.index_put: case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.conftest import BACKENDS, using_backend
from tests.dialects.torch._compare import assert_error, assert_matches
from tests.oracles import torch as oracle
from tests.strategies import index_arrays, shapes

Z34 = np.zeros((3, 4))

CASES = [
    # docs/behavior-matrix.md#t6-5 and single observations
    pytest.param([1.0, 2, 3], ([-1],), [9.0], False, [1, 2, 9], id="negative-wraps"),
    pytest.param([0.0] * 4, ([1, 1, 1],), [10.0, 20, 30], False, [0, 30, 0, 0], id="dup-last"),
    pytest.param([1.0] * 4, ([1, 1, 2],), [10.0, 20, 30], True, [1, 31, 31, 1], id="dup-accumulate"),
    pytest.param([0.0] * 3, ([-1, -1, 2],), [1.0, 2, 4], True, [0, 0, 7], id="accumulate-negative"),
    pytest.param([5.0, 5, 5], ([0], ), [2.0], True, [7, 5, 5], id="accumulate-one"),
    pytest.param([[0, 0], [0, 0]], ([1],), [[7, 8]], False, [[0, 0], [7, 8]], id="row-update"),
    pytest.param(Z34, ([[0], [2]], [1, 3]), 7.0, False, [[0, 7, 0, 7], [0] * 4, [0, 7, 0, 7]], id="broadcast-indices"),
    pytest.param(Z34, ([0, 2],), [1.0, 2, 3, 4], False, [[1, 2, 3, 4], [0] * 4, [1, 2, 3, 4]], id="values-broadcast"),
    pytest.param(Z34, ([True, False, True],), 5.0, False, [[5] * 4, [0] * 4, [5] * 4], id="bool-mask"),
    pytest.param(Z34, (np.eye(3, 4, dtype=bool),), [5.0, 6, 7], False, [[5, 0, 0, 0], [0, 6, 0, 0], [0, 0, 7, 0]],
                 id="2d-mask"),
    pytest.param(Z34, ([True, False, True], [1, 3]), [5.0, 6], False, [[0, 5, 0, 0], [0] * 4, [0, 0, 0, 6]],
                 id="mask-and-int"),
    pytest.param(Z34, (1,), 5.0, False, [[0] * 4, [5] * 4, [0] * 4], id="0d-int-index"),
    pytest.param(Z34, (np.zeros(0, np.int64), [5]), 1.0, False, np.zeros((3, 4)).tolist(), id="empty-broadcast"),
    pytest.param([False, True, False], ([0, 0, 1],), [True, True, False], True, [True, True, False],
                 id="bool-accumulate-or"),
]


@pytest.mark.parametrize(("data", "indices", "values", "accumulate", "expected"), CASES)
def test_cases(data, indices, values, accumulate, expected):
    out = gs.torch.index_put(data, indices, values, accumulate=accumulate)
    assert out.tolist() == expected


def test_masked_fill_fast_path_converts_one_value():
    # one bool mask, no accumulate, one value: torch uses masked_fill_ (any dtype, any shape of one element)
    out = gs.torch.index_put(np.zeros((3, 2), np.float32), ([True, False, True],), np.ones((1, 1, 1)))
    assert out.dtype == np.float32 and out.tolist() == [[1, 1], [0, 0], [1, 1]]
    with pytest.raises(gs.DTypeError, match="without overflow"):
        gs.torch.index_put(np.zeros(3, np.int8), ([True, False, True],), np.array(300))


ERRORS = [
    (dict(input=[1.0, 2, 3], indices=([3],), values=[9.0]), gs.IndexOutOfRangeError,
     ["torch.index_put (2.13)", "indices[0][0] = 3", "dim 0", "[-3, 2]"]),
    (dict(input=[1.0, 2, 3], indices=([0, -4],), values=[9.0]), gs.IndexOutOfRangeError, ["indices[0][1] = -4"]),
    (dict(input=Z34, indices=([0], [0], [0]), values=5.0), gs.ShapeError, ["too many indices", "dimension 2"]),
    (dict(input=Z34, indices=([True, False],), values=5.0), gs.ShapeError, ["shape of the mask", "[2]", "[3]"]),
    (dict(input=Z34, indices=([0, 1], [0, 1, 2]), values=5.0), gs.ShapeError, ["could not be broadcast"]),
    (dict(input=Z34, indices=([0, 2],), values=[1.0, 2, 3]), gs.ShapeError,
     ["values of shape [3]", "indexing result of shape [2, 4]"]),
    (dict(input=Z34, indices=([0, 2],), values=np.ones((1, 2, 4))), gs.ShapeError, ["values of shape [1, 2, 4]"]),
    (dict(input=np.zeros(3, np.float32), indices=([0],), values=np.ones(1)), gs.DTypeError,
     ["values dtype float64 must equal input dtype float32"]),
    (dict(input=Z34, indices=(np.array([0], np.int16),), values=1.0), gs.DTypeError, ["indices[0] dtype int16"]),
    (dict(input=Z34, indices=(np.array([1, 0, 1], np.uint8),), values=1.0), gs.DTypeError, ["byte mask"]),
    (dict(input=Z34, indices=(np.array(True),), values=1.0), gs.UnsupportedError, ["0-d bool"]),
    (dict(input=Z34, indices=(None, [0]), values=1.0), gs.ArgumentError, ["indices[0] is None"]),
    (dict(input=Z34, indices=(), values=1.0), gs.ArgumentError, ["at least one"]),
    (dict(input=Z34, indices=np.array([0]), values=1.0), gs.ArgumentError, ["must be a tuple"]),
    (dict(input=Z34, indices=([0],), values=1.0, accumulate=1), gs.ArgumentError, ["accumulate must be a bool"]),
    (dict(input=5.0, indices=(0,), values=1.0), gs.ShapeError, ["too many indices", "dimension 0"]),
    (dict(input=np.zeros((0, 2)), indices=([0],), values=1.0), gs.IndexOutOfRangeError, ["size 0"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    assert_error(gs.torch.index_put, kwargs, cls, fragments)


def test_duplicates_policy_on_request():
    assert gs.torch.index_put([0, 0], ([1, 1],), [10, 20], duplicates="first").tolist() == [0, 10]
    with pytest.raises(gs.DuplicateIndexError):
        gs.torch.index_put([0, 0], ([1, 1],), [10, 20], duplicates="raise")


@st.composite
def put_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3))
    k = draw(st.integers(1, len(shape)))
    bshape = draw(shapes(min_dims=0, max_dims=2))
    indices = []
    used = 0
    while used < k:
        if draw(st.integers(0, 5)) == 0:
            m = draw(st.integers(1, k - used))
            indices.append(draw(st.lists(st.booleans(), min_size=int(np.prod(shape[used:used + m])),
                                         max_size=int(np.prod(shape[used:used + m])))))
            indices[-1] = np.array(indices[-1], bool).reshape(shape[used:used + m])
            used += m
        else:
            ishape = tuple(draw(st.sampled_from([1, n])) for n in bshape)
            dt = draw(st.sampled_from([np.int32, np.int64]))
            indices.append(draw(index_arrays(ishape, shape[used], dtype=dt)))
            used += 1
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1
    try:
        rshape = data[tuple(indices)].shape
    except (IndexError, ValueError):
        rshape = bshape + shape[used:]
    vshape = tuple(draw(st.sampled_from([1, n])) for n in rshape)
    vshape = vshape[draw(st.integers(0, len(vshape))):]
    values = (np.arange(np.prod(vshape)).reshape(vshape) % 5 - 2).astype(np.float64)
    return data, tuple(indices), values


@pytest.mark.parametrize("backend", BACKENDS)
@given(put_inputs(), st.booleans())
def test_property(backend, args, accumulate):
    data, indices, values = args
    with using_backend(backend):
        assert_matches(lambda: gs.torch.index_put(data, indices, values, accumulate=accumulate),
                       lambda: oracle.index_put(data, indices, values, accumulate=accumulate))
