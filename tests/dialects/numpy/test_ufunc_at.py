"""numpy.add_at ... minimum_at (``ufunc.at``, NumPy 2.4) and the index-expression lowering."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from gatherscatter.core.context import OpContext
from gatherscatter.dialects.numpy._index import flat_offsets
from tests.oracles import numpy as oracle
from tests.strategies import index_arrays, shapes

OPS = {
    "add": (gs.numpy.add_at, np.add),
    "subtract": (gs.numpy.subtract_at, np.subtract),
    "multiply": (gs.numpy.multiply_at, np.multiply),
    "maximum": (gs.numpy.maximum_at, np.maximum),
    "minimum": (gs.numpy.minimum_at, np.minimum),
}
Z23 = np.zeros((2, 3), int)

# (op, a, indices, b, expected): NumPy's ufunc.at docstring examples and hand-computed cases
CASES = [
    pytest.param("add", [1, 2, 3, 4], [0, 1, 2, 2], 1, [2, 3, 5, 4], id="numpy-doc-add"),
    pytest.param("multiply", [1, 2, 3, 4], [2, 3], 2, [1, 2, 6, 8], id="numpy-doc-multiply"),
    pytest.param("add", [1, 2, 3, 4], [0, 1], [1, 2], [2, 4, 3, 4], id="numpy-doc-add-b"),
    pytest.param("subtract", [1, 2, 3, 4], [0, 1, 2, 2], 1, [0, 1, 1, 4], id="subtract-repeats"),
    pytest.param("maximum", [1, 5, 3], [0, 0, 2], [4, 2, 9], [4, 5, 9], id="maximum"),
    pytest.param("minimum", [1, 5, 3], [1, 1], [4, 2], [1, 2, 3], id="minimum"),
    pytest.param("add", [5, 5, 5, 5], [0, 0, 2], [2, 4, 7], [11, 5, 12, 5], id="bm-6.7-sum"),
    pytest.param("multiply", [5, 5, 5, 5], [0, 0, 2], [2, 4, 7], [40, 5, 35, 5], id="bm-6.7-prod"),
    pytest.param("maximum", [5, 5, 5, 5], [0, 0, 2], [2, 4, 7], [5, 5, 7, 5], id="bm-6.7-max"),
    pytest.param("minimum", [5, 5, 5, 5], [0, 0, 2], [2, 4, 7], [2, 5, 5, 5], id="bm-6.7-min"),
    pytest.param("add", [1, 1, 1, 1], [1, 1, 2], [10, 20, 30], [1, 31, 31, 1], id="bm-6.5-accumulates"),
    pytest.param("add", Z23, (slice(None), [0, 0]), 1, [[2, 0, 0], [2, 0, 0]], id="slice-and-array"),
    pytest.param("add", Z23, 1, 5, [[0, 0, 0], [5, 5, 5]], id="int-row"),
    pytest.param("add", Z23, (1, 2), 5, [[0, 0, 0], [0, 0, 5]], id="int-tuple"),
    pytest.param("add", Z23, (Ellipsis, [0, 0]), 1, [[2, 0, 0], [2, 0, 0]], id="ellipsis"),
    pytest.param("add", Z23, (None, [0, 0]), [[1], [2]], [[3, 3, 3], [0, 0, 0]], id="newaxis"),
    pytest.param("add", [0, 0, 0], np.array([True, False, True]), 1, [1, 0, 1], id="bool-mask"),
    pytest.param("add", [0, 0, 0], True, 1, [1, 1, 1], id="scalar-True"),
    pytest.param("add", [0, 0, 0, 0, 0], slice(None, None, -2), [1, 2, 3], [3, 0, 2, 0, 1], id="negative-step"),
    pytest.param("add", Z23, ([0, 1], None, [1, 2]), [[0], [1]], [[0, 0, 0], [0, 0, 1]], id="none-splits-adv"),
    pytest.param("add", np.array(5), (), 1, 6, id="0d"),
    pytest.param("add", np.zeros(3, bool), [0, 0], True, [True, False, False], id="bool-add-is-or"),
    pytest.param("multiply", np.ones(3, bool), [0, 0], [True, False], [False, True, True], id="bool-mul-is-and"),
    pytest.param("add", np.zeros(3, np.int8), [0], 300, [44, 0, 0], id="python-int-wraps"),
    pytest.param("maximum", np.full(2, 100, np.int8), [0], 300, [44, 100], id="max-in-wider-loop"),
    pytest.param("add", np.zeros(3, np.uint8), [0], -1, [255, 0, 0], id="uint8-minus-1"),
    pytest.param("add", np.zeros(2, int), [0, 1], [0.6, 1.7], [0, 1], id="float-b-truncated-per-update"),
    pytest.param("add", np.zeros(2, "m8[s]"), [0, 0], np.timedelta64(5, "s"), [10, 0], id="timedelta"),
]


@pytest.mark.parametrize(("op", "a", "indices", "b", "expected"), CASES)
def test_cases(op, a, indices, b, expected):
    a0 = np.array(a, copy=True)
    out = OPS[op][0](a, indices, b)
    if out.dtype.kind == "m":
        out = out.astype(np.int64)
    assert out.tolist() == expected and out.shape == np.shape(a)
    np.testing.assert_array_equal(np.asarray(a), a0)


ERRORS = [
    ("add", dict(a=[0, 0, 0], indices=[0, 5], b=1), gs.IndexOutOfRangeError,
     ["numpy.add.at (numpy 2.4)", "index 5 is out of bounds for axis 0 with size 3", "position [1]"]),
    ("add", dict(a=Z23, indices=(0, [-4]), b=1), gs.IndexOutOfRangeError, ["index -4", "axis 1", "[-3, 2]"]),
    ("add", dict(a=[0, 0, 0], indices=(0, 0), b=1), gs.ShapeError, ["too many indices"]),
    ("add", dict(a=[0, 0, 0], indices=(Ellipsis, Ellipsis), b=1), gs.ArgumentError, ["single ellipsis"]),
    ("add", dict(a=[0, 0, 0], indices=np.array([0.0]), b=1), gs.DTypeError, ["integer (or boolean)"]),
    ("add", dict(a=[0, 0, 0], indices=[0.0], b=1), gs.DTypeError, ["only integers, slices"]),
    ("add", dict(a=[0, 0, 0], indices=1.0, b=1), gs.ArgumentError, ["only integers, slices"]),
    ("add", dict(a=[0, 0, 0], indices=np.array([True, False]), b=1), gs.ShapeError, ["boolean index did not match"]),
    ("add", dict(a=Z23, indices=([0, 1], [0, 1, 2]), b=1), gs.ShapeError, ["could not be broadcast"]),
    ("add", dict(a=[0, 0, 0], indices=[0, 1], b=[1, 2, 3]), gs.ShapeError, ["not broadcastable", "[2]"]),
    ("add", dict(a=[0, 0, 0], indices=[0], b=None), gs.ArgumentError, ["second operand"]),
    ("subtract", dict(a=np.zeros(3, bool), indices=[0], b=True), gs.DTypeError, ["no subtract loop", "bool"]),
    ("add", dict(a=np.array(["a", "b"]), indices=[0], b="c"), gs.UnsupportedError, ["str", "not supported"]),
    ("add", dict(a=np.array([1, 2], object), indices=[0], b=1), gs.UnsupportedError, ["object"]),
    ("maximum", dict(a=np.zeros(2, complex), indices=[0], b=1), gs.UnsupportedError, ["complex"]),
    ("add", dict(a=np.zeros(2, int), indices=[0, 0], b=[0.6, 0.6]), gs.UnsupportedError,
     ["more than once", "float64", "b.astype(a.dtype)"]),
    ("add", dict(a=np.array(["2020-01-01"], "M8[D]"), indices=[0], b=np.timedelta64(1, "D")),
     gs.UnsupportedError, ["mixed operand dtypes"]),
]


@pytest.mark.parametrize(("op", "kwargs", "cls", "fragments"), ERRORS)
def test_errors(op, kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        OPS[op][0](**kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@st.composite
def index_expressions(draw, shape):
    parts = []
    d = 0
    while d < len(shape) and draw(st.integers(0, 3)) > 0:
        n = shape[d]
        kind = draw(st.sampled_from(["int", "slice", "arr", "arr", "none"]))
        if kind == "int":
            parts.append(draw(st.integers(-n - 1, n)) if n else 0)
        elif kind == "slice":
            parts.append(slice(draw(st.none() | st.integers(-4, 4)), None, draw(st.sampled_from([None, 2, -1]))))
        elif kind == "arr":
            parts.append(draw(index_arrays(draw(st.sampled_from([(2,), (3,), (2, 1)])), max(n, 1),
                                           in_range=draw(st.integers(0, 4)) > 0)))
        else:
            parts.append(None)
            continue
        d += 1
    return tuple(parts)


@st.composite
def at_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3, max_side=4))
    op = draw(st.sampled_from(sorted(OPS)))
    index = draw(index_expressions(shape))
    a = np.asarray(np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1)
    b = draw(st.sampled_from([2.0, -1.5, 0.5]))
    return op, a, index, b


@given(at_inputs())
def test_property_matches_loop_oracle(args):
    op, a, index, b = args
    try:
        expected = oracle.ufunc_at(OPS[op][1], a, index, b)
    except IndexError:
        with pytest.raises((gs.IndexOutOfRangeError, gs.ShapeError)):
            OPS[op][0](a, index, b)
        return
    out = OPS[op][0](a, index, b)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


@st.composite
def any_index(draw):
    shape = draw(shapes(min_dims=0, max_dims=4, max_side=4))
    parts = list(draw(index_expressions(shape)))
    if draw(st.booleans()) and len(parts) < len(shape):
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    if draw(st.booleans()) and shape:
        d = draw(st.integers(0, len(shape) - 1))
        mask = np.array(draw(st.lists(st.booleans(), min_size=shape[d], max_size=shape[d])), dtype=bool)
        parts = [slice(None)] * d + [mask]
    return shape, tuple(parts)


@given(any_index())
def test_flat_offsets_equal_numpy_indexing(args):
    shape, index = args
    positions = np.arange(int(np.prod(shape))).reshape(shape)
    try:
        expected = np.asarray(positions[index])
    except IndexError:
        with pytest.raises((gs.IndexOutOfRangeError, gs.ShapeError)):
            flat_offsets(OpContext(op="t"), shape, index)
        return
    got = flat_offsets(OpContext(op="t"), shape, index)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
