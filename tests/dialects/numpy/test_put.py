"""numpy.put (NumPy 2.4): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import numpy as oracle
from tests.strategies import index_arrays, shapes

R = [0, 1, 2, 3, 4]
CASES = [
    pytest.param(R, [0, 2], [-44, -55], {}, [-44, 1, -55, 3, 4], id="numpy-doc-1"),
    pytest.param(R, 22, -5, {"mode": "clip"}, [0, 1, 2, 3, -5], id="numpy-doc-clip"),
    pytest.param(R, [0, 1, 2, 3], [-1, -2], {}, [-1, -2, -1, -2, 4], id="v-repeats-cyclically"),
    pytest.param(R, [0, 1], [-1, -2, -3], {}, [-1, -2, 2, 3, 4], id="extra-v-ignored"),
    pytest.param(R, [0, 1, 99], [], {}, [0, 1, 2, 3, 4], id="empty-v-writes-nothing"),
    pytest.param([0, 0, 0], [1, 1, 1], [7, 8, 9], {}, [0, 9, 0], id="bm-duplicates-last-wins"),
    pytest.param([0, 0, 0], [-1], [9], {}, [0, 0, 9], id="bm-negative-wraps"),
    pytest.param([0, 0, 0], [-1], [9], {"mode": "clip"}, [9, 0, 0], id="bm-clip-negative-to-0"),
    pytest.param([0, 0, 0], [3], [9], {"mode": "wrap"}, [9, 0, 0], id="bm-wrap-3"),
    pytest.param([0, 0, 0], [-4, 10], [7, 8], {"mode": "wrap"}, [0, 8, 7], id="wrap-both-ways"),
    pytest.param([0, 0, 0], [-4, 10], [7, 8], {"mode": "clip"}, [7, 0, 8], id="clip-both-ways"),
    pytest.param([[0, 0, 0], [0, 0, 0]], [[5], [0]], [[9], [8]], {}, [[8, 0, 0], [0, 0, 9]], id="2d-flat"),
    pytest.param([0, 0, 0, 0], [0, 1, 2], [[1], [2]], {}, [1, 2, 1, 0], id="2d-v-flattened"),
    pytest.param([0, 0, 0], [1.5], [7.9], {}, [0, 7, 0], id="float-lists-truncate"),
    pytest.param([0, 0, 0], np.array([True]), [7], {}, [0, 7, 0], id="bool-ind"),
    pytest.param([0, 0, 0], [1], ["7"], {}, [0, 7, 0], id="v-parsed"),
    pytest.param(np.array(5), 0, 9, {}, 9, id="0d"),
    pytest.param(np.array(["a", "b"]), [0], ["xyz"], {}, ["x", "b"], id="str-truncates"),
    pytest.param(np.zeros(0), [], [1.0], {}, [], id="empty-a-empty-ind"),
]


@pytest.mark.parametrize(("a", "ind", "v", "kwargs", "expected"), CASES)
def test_cases(a, ind, v, kwargs, expected):
    a0 = np.array(a, copy=True)
    out = gs.numpy.put(a, ind, v, **kwargs)
    assert out.tolist() == expected and out.dtype == np.asarray(a).dtype and out.shape == np.shape(a)
    np.testing.assert_array_equal(np.asarray(a), a0)


ERRORS = [
    (dict(a=[0, 0, 0], ind=[1, 3], v=[7, 8]), gs.IndexOutOfRangeError,
     ["numpy.put (numpy 2.4)", "ind[1] = 3", "[-3, 2]"]),
    (dict(a=[0, 0, 0], ind=[-4], v=[7]), gs.IndexOutOfRangeError, ["ind[0] = -4"]),
    (dict(a=np.zeros(0), ind=[0], v=[1.0]), gs.IndexOutOfRangeError, ["cannot replace elements of an empty array"]),
    (dict(a=np.zeros(0), ind=[0], v=[1.0], mode="wrap"), gs.IndexOutOfRangeError, ["empty array"]),
    (dict(a=[0, 0], ind=np.array([1.5]), v=[7]), gs.DTypeError, ["'safe'", "float64"]),
    (dict(a=[0, 0], ind=np.array([1], np.uint64), v=[7]), gs.DTypeError, ["'safe'", "uint64"]),
    (dict(a=[0, 0], ind=[0], v=[1 + 1j]), gs.DTypeError, ["v cannot be converted"]),
    (dict(a=np.zeros(2, np.int8), ind=[0], v=[300]), gs.DTypeError, ["v does not fit int8"]),
    (dict(a=[0, 0], ind=[0], v=[1], mode="bad"), gs.ArgumentError, ["clipmode"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.numpy.put(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def put_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    size = int(np.prod(shape))
    mode = draw(st.sampled_from(["raise", "wrap", "clip"]))
    ind = draw(index_arrays(draw(shapes(min_dims=0, max_dims=2)), size))
    v = np.arange(draw(st.integers(0, 5)), dtype=np.float64) + 100
    return np.arange(size, dtype=np.float64).reshape(shape), ind, v, mode


@given(put_inputs())
def test_property_matches_loop_oracle(args):
    a, ind, v, mode = args
    try:
        expected = oracle.put(a, ind, v, mode)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.numpy.put(a, ind, v, mode=mode)
        return
    out = gs.numpy.put(a, ind, v, mode=mode)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
