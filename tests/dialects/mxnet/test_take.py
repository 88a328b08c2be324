"""mxnet.take (MXNet 1.9.1): case table, error table, property against the loop oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import mxnet as oracle
from tests.strategies import shapes

F = np.float32
X = np.array([[1, 2], [3, 4], [5, 6]], F)
V = np.array([10, 20, 30], F)

# (a, indices, kwargs, expected): the MXNet docstring and docs/behavior-matrix.md#t6-1 / docs/behavior-matrix.md#t6-10
# (measured)
CASES = [
    pytest.param(X, np.array([[0, 1], [1, 2]], F), {}, [[[1, 2], [3, 4]], [[3, 4], [5, 6]]], id="mxnet-doc"),
    pytest.param(X, np.array([1], F), {}, [[3, 4]], id="bm-default-axis-0"),
    pytest.param(X, np.array([1, 0], F), {"axis": -1}, [[2, 1], [4, 3], [6, 5]], id="bm-negative-axis"),
    pytest.param(V, np.array([0, -1], F), {}, [10, 10], id="bm-clip-minus-1-to-0"),
    pytest.param(V, np.array([0, -1], F), {"mode": "wrap"}, [10, 30], id="bm-wrap-minus-1"),
    pytest.param(V, np.array([0, 3], F), {}, [10, 30], id="bm-clip-3"),
    pytest.param(V, np.array([0, 3], F), {"mode": "wrap"}, [10, 10], id="bm-wrap-3"),
    pytest.param(V, np.array([0, -4], F), {}, [10, 10], id="bm-clip-minus-4"),
    pytest.param(V, np.array([0, -4], F), {"mode": "wrap"}, [10, 30], id="bm-wrap-minus-4"),
    pytest.param(V, np.array([0.6, 1.5, 2.4], F), {}, [10, 20, 30], id="bm-6.10-floats-truncate"),
    pytest.param(V, np.array([-0.5, -1.5, -2.7, 3.5], F), {"mode": "wrap"}, [10, 30, 20, 10], id="wrap-floats"),
    pytest.param(V, np.array([0.6, 1.5], F), {"mode": "raise"}, [10, 20], id="raise-floats-in-range"),
    pytest.param(V, np.array([True, False]), {}, [20, 10], id="bool-indices"),
    pytest.param(V, np.array([2**62 + 1], np.int64), {"mode": "wrap"}, [30], id="int64-big-wrap"),
    pytest.param(V, np.array([9e18], np.float64), {"mode": "wrap"}, [10], id="float64-big-wrap"),
    pytest.param(np.array([[True, False]]), np.array([0, 0], F), {"axis": 0}, [[True, False]] * 2, id="bool-data"),
    pytest.param(np.array([1, 2, 3], np.uint8), np.array([1.0]), {}, [2], id="uint8-data"),
]


@pytest.mark.parametrize(("a", "indices", "kwargs", "expected"), CASES)
def test_cases(a, indices, kwargs, expected):
    out = gs.mxnet.take(a, indices, **kwargs)
    assert out.tolist() == expected and out.dtype == a.dtype


def test_lists_and_inputs_untouched():
    out = gs.mxnet.take([[1, 2], [3, 4]], [1])
    assert out.tolist() == [[3, 4]] and out.dtype == np.int64
    i = np.array([2.4, -1.0], F)
    i0 = i.copy()
    out = gs.mxnet.take(V, i)
    assert not np.shares_memory(out, V)
    np.testing.assert_array_equal(i, i0)


ERRORS = [
    (dict(a=V, indices=np.array([0, -1], F), mode="raise"), gs.IndexOutOfRangeError,
     ["mxnet.take (MXNet 1.9.1)", "indices[1] = -1.0", "0 <= index <= 2"]),
    (dict(a=V, indices=np.array([0, -1], np.int64), mode="raise"), gs.IndexOutOfRangeError,
     ["indices[1] = -1", "negative", "[0, 2]"]),
    (dict(a=V, indices=np.array([0, 3], np.int32), mode="raise"), gs.IndexOutOfRangeError, ["indices[1] = 3", "[0, 2]"]),
    (dict(a=V, indices=np.array([0.6, 2.4], F), mode="raise"), gs.IndexOutOfRangeError,
     ["indices[1] = 2.4", "before truncation"]),
    (dict(a=V, indices=np.array([-0.5], F), mode="raise"), gs.IndexOutOfRangeError, ["-0.5"]),
    (dict(a=V, indices=np.array([np.nan], F)), gs.IndexOutOfRangeError, ["indices[0] = nan", "not a finite number"]),
    (dict(a=V, indices=np.array([1, np.inf], F), mode="wrap"), gs.IndexOutOfRangeError, ["indices[1] = inf"]),
    (dict(a=V, indices=np.array([1e20], F)), gs.IndexOutOfRangeError, ["does not fit int64"]),
    (dict(a=V, indices=[0], mode="foo"), gs.UnsupportedError, ["Invalid Input: 'foo'", "'clip', 'raise', 'wrap'"]),
    (dict(a=V, indices=[0], mode=None), gs.ArgumentError, ["mode must be a string"]),
    (dict(a=X, indices=[0], axis=2), gs.AxisError, ["axis 2", "[-2, 1]"]),
    (dict(a=V, indices=1), gs.UnsupportedError, ["indices is 0-d", "cannot express 0-d"]),
    (dict(a=np.float32(1), indices=[0]), gs.UnsupportedError, ["a is 0-d"]),
    (dict(a=np.zeros((3, 0), F), indices=[0]), gs.UnsupportedError, ["a of shape [3, 0] is empty"]),
    (dict(a=V, indices=np.zeros(0, F)), gs.UnsupportedError, ["indices of shape [0] is empty"]),
    (dict(a=np.zeros(3, np.int16), indices=[0]), gs.DTypeError, ["int16", "no such dtype"]),
    (dict(a=np.zeros(3, np.uint64), indices=[0]), gs.DTypeError, ["uint64"]),
    (dict(a=np.zeros(3, np.complex64), indices=[0]), gs.DTypeError, ["complex64"]),
    (dict(a=V, indices=np.array([0], np.int16)), gs.DTypeError, ["indices dtype int16"]),
    (dict(a=V, indices=np.array([0], np.uint32)), gs.DTypeError, ["uint32"]),
    (dict(a=np.array(["a"]), indices=[0]), gs.DTypeError, ["str"]),
]


@pytest.mark.parametrize(("kwargs", "cls", "fragments"), ERRORS)
def test_errors(kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.mxnet.take(**kwargs)
    for frag in fragments:
        assert frag in str(info.value)
    assert isinstance(info.value, gs.GatherScatterError)


def test_int8_raise_mode_on_long_axis_accepts_valid_indices():
    # MXNet 1.9.1 wrongly raises here (recorded divergence): the bound overflows int8
    out = gs.mxnet.take(np.arange(200, dtype=F), np.array([5, 127], np.int8), mode="raise")
    assert out.tolist() == [5, 127]
    assert any("int8" in d.case for d in gs.divergences("mxnet.take"))


@st.composite
def take_inputs(draw):
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    s = shape[axis]
    ishape = draw(shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    idt = draw(st.sampled_from([np.float32, np.float64, np.int32, np.int64, np.int8]))
    n = int(np.prod(ishape))
    vals = draw(st.lists(st.integers(-2 * s - 2, 2 * s + 2), min_size=n, max_size=n))
    frac = draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.9]), min_size=n, max_size=n))
    idx = np.array(vals, np.float64).reshape(ishape)
    if np.dtype(idt).kind == "f":
        idx = idx + np.sign(idx) * np.array(frac).reshape(ishape)
    mode = draw(st.sampled_from(["clip", "wrap", "raise"]))
    return np.arange(np.prod(shape), dtype=F).reshape(shape), idx.astype(idt), axis, mode


@given(take_inputs())
def test_property_matches_loop_oracle(args):
    a, idx, axis, mode = args
    try:
        expected = oracle.take(a, idx, axis, mode)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.mxnet.take(a, idx, axis=axis, mode=mode)
        return
    out = gs.mxnet.take(a, idx, axis=axis, mode=mode)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
