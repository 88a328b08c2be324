"""openvino.ScatterNDUpdate (versions 3, 15): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

SNDU = gs.openvino.ScatterNDUpdate
D444 = [
    [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
    [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
    [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]],
    [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]],
]
U244 = [[[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
        [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]]
IDX5 = [[0], [2], [-3], [-3], [0]]

# (data, indices, updates, reduction, version, expected): the -3/-15 spec examples (errata fixed by
# hand: see the divergences), docs/behavior-matrix.md#t6-5 / docs/behavior-matrix.md#t6-7, docs/semantics.md#s6-3
CASES = [
    pytest.param([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12], "none", 3,
                 [1, 11, 3, 10, 9, 6, 7, 12], id="spec-3-example-1"),
    pytest.param(D444, [[0], [2]], U244, "none", 3, [U244[0], D444[1], U244[1], D444[3]], id="spec-3-example-2-slices"),
    pytest.param([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7], [-2], [-4]], [9, 10, 11, 12, 13, 14], "none", 15,
                 [1, 11, 3, 10, 14, 6, 13, 12], id="spec-15-example-1-erratum-fixed"),
    pytest.param([1, 2, 3, 4], IDX5, [10, 20, 30, 40, 50], "none", 15, [50, 40, 20, 4], id="spec-15-xml-1-erratum"),
    pytest.param([1, 2, 3, 4], IDX5, [10, 20, 30, 40, 50], "sum", 15, [61, 72, 23, 4], id="spec-15-xml-2-sum"),
    pytest.param([1, 2, 3, 4], IDX5, [10, 20, 30, 40, 50], "sub", 15, [-59, -68, -17, 4], id="spec-15-xml-3-sub"),
    pytest.param([1, 2, 3, 4], IDX5, [10, 20, 30, 40, 50], "prod", 15, [500, 2400, 60, 4], id="spec-15-xml-4-prod"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "sum", 15, [10, 5, 5], id="matrix-sum"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "sub", 15, [0, 5, 5], id="matrix-sub"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "prod", 15, [30, 5, 5], id="matrix-prod"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "max", 15, [5, 5, 5], id="matrix-max"),
    pytest.param([5, 5, 5], [[0], [0]], [2, 3], "min", 15, [2, 5, 5], id="matrix-min"),
    pytest.param([0, 0, 0, 0], [[1], [1], [1]], [10, 20, 30], "none", 15, [0, 30, 0, 0], id="matrix-duplicates-last"),
    pytest.param([1, 1, 1, 1], [[1], [1], [2]], [10, 20, 30], "sum", 15, [1, 31, 31, 1], id="matrix-duplicates-sum"),
    pytest.param([1, 2, 3], [[0]], [9], "none", 15, [9, 2, 3], id="matrix-untouched-kept"),
    pytest.param([1, 2, 3], [[-1]], [9], "none", 15, [1, 2, 9], id="matrix-negative"),
    pytest.param([[0, 0], [0, 0]], [[1]], [[7, 8]], "none", 15, [[0, 0], [7, 8]], id="matrix-row-update"),
    pytest.param([[0, 0], [0, 0]], [1, 0], 5, "none", 15, [[0, 0], [5, 0]], id="1d-indices-one-tuple"),
    pytest.param([[0, 0], [0, 0]], [1, 0], [5], "none", 15, [[0, 0], [5, 0]], id="0d-updates-as-one-element"),
    pytest.param([1, 2, 3], np.zeros((2, 0), np.int64), [[1, 1, 1], [2, 2, 2]], "sum", 15, [4, 5, 6],
                 id="empty-tuples-address-everything"),
    pytest.param([1, 2, 3], np.zeros((2, 0), np.int64), [[1, 1, 1], [2, 2, 2]], "none", 15, [2, 2, 2],
                 id="empty-tuples-last-wins"),
    pytest.param([1, 2], np.zeros((0, 1), np.int64), np.zeros(0, np.int64), "sum", 15, [1, 2], id="empty-indices"),
]


@pytest.mark.parametrize(("data", "indices", "updates", "reduction", "version", "expected"), CASES)
def test_cases(data, indices, updates, reduction, version, expected):
    out = SNDU(data, indices, updates, reduction, version=version)
    assert out.tolist() == expected
    assert out.dtype == np.asarray(data).dtype


BOOL = [
    # checked on OpenVINO 2026.4.1: sum = OR, sub = XOR, prod = AND, max = OR, min = AND
    ("sum", [True, True, False, False], [True, True, True, False]),
    ("sub", [True, True, True, True], [True, False, True, False]),
    ("prod", [True, False, True, True], [False, False, True, False]),
    ("max", [True, False, False, False], [True, True, True, False]),
    ("min", [True, False, True, True], [False, False, True, False]),
]


@pytest.mark.parametrize(("reduction", "updates", "expected"), BOOL)
def test_bool_reductions(reduction, updates, expected):
    out = SNDU([False, True, True, False], np.array([[0], [1], [2], [2]], np.int32), updates, reduction)
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_float64_kept_and_inputs_untouched():
    d = np.array([0.1, 0.2])
    i = np.array([[0], [0]], np.int32)
    u = np.array([0.2, 0.3])
    d0, i0, u0 = d.copy(), i.copy(), u.copy()
    out = SNDU(d, i, u, "sum")
    assert out.dtype == np.float64 and out[0] == (0.1 + 0.2) + 0.3
    for a, b in ((d, d0), (i, i0), (u, u0)):
        np.testing.assert_array_equal(a, b)
    assert not np.shares_memory(out, d)


def test_duplicates_policy():
    assert SNDU([0, 0], [[1], [1]], [3, 4], duplicates="first").tolist() == [0, 3]
    with pytest.raises(gs.DuplicateIndexError, match="duplicate"):
        SNDU([0, 0], [[1], [1]], [3, 4], duplicates="raise")


ERRORS = [
    (([1, 2, 3], [[-1]], [9]), dict(version=3), gs.IndexOutOfRangeError,
     ["openvino.ScatterNDUpdate (ScatterNDUpdate-3)", "indices[0, 0] = -1", "negative", "[0, 2]"]),
    (([1, 2, 3], [[3]], [9]), {}, gs.IndexOutOfRangeError, ["ScatterNDUpdate-15", "indices[0, 0] = 3", "[-3, 2]"]),
    (([1, 2, 3], [[-4]], [9]), {}, gs.IndexOutOfRangeError, ["indices[0, 0] = -4"]),
    (([[1, 2], [3, 4]], [[0, 2]], [9]), {}, gs.IndexOutOfRangeError, ["indices[0, 1] = 2", "axis 1"]),
    (([1, 2, 3], [[0]], [9]), dict(reduction="sum", version=3), gs.UnsupportedError,
     ["ScatterNDUpdate-3", "no reduction attribute", "ScatterNDUpdate-15"]),
    (([1, 2, 3], [[0]], [9]), dict(reduction="mean"), gs.UnsupportedError,
     ["unknown reduction 'mean'", "none, sum, sub, prod, min, max"]),
    (([1, 2, 3], [[0]], [9]), dict(reduction="add"), gs.UnsupportedError, ["'add'"]),
    (([1, 2, 3], [[0]], [9]), dict(version=14), gs.UnsupportedError, ["no ScatterNDUpdate-14", "[3, 15]"]),
    (([1, 2, 3], np.array([[0]], np.int16), [9]), {}, gs.DTypeError, ["int16", "int32, int64"]),
    (([1, 2, 3], np.array([[0]], np.uint64), [9]), {}, gs.DTypeError, ["uint64"]),
    (([1, 2], [[0, 0]], [9]), {}, gs.ShapeError, ["at most rank(data) = 1", "got 2"]),
    (([[1, 2], [3, 4]], [[0]], [9]), {}, gs.ShapeError, ["updates must have shape", "[1, 2]", "got updates shape [1]"]),
    (([[1, 2], [3, 4]], [1, 0], [5, 6]), {}, gs.ShapeError, ["[]", "got updates shape [2]"]),
    ((5, [[0]], [1]), {}, gs.ShapeError, ["data must have rank >= 1"]),
    (([1, 2], 0, 1), {}, gs.ShapeError, ["indices must have rank >= 1"]),
    ((np.array([1j]), [[0]], np.array([1j])), {}, gs.DTypeError, ["complex"]),
    (([True, False], [[0]], [True]), dict(reduction="mean"), gs.UnsupportedError, ["'mean'"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        SNDU(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def sndu_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=3, max_side=3))
    r = len(dshape)
    k = draw(st.integers(0, r))
    lead = draw(shapes(min_dims=0, max_dims=2, max_side=4))
    version = draw(st.sampled_from([3, 15]))
    reduction = "none" if version == 3 else draw(st.sampled_from(["none", "sum", "sub", "prod", "min", "max"]))
    idt = draw(st.sampled_from([np.int32, np.int64]))
    comps = [draw(index_arrays(tuple(lead), dshape[j], dtype=idt)) for j in range(k)]
    indices = np.stack(comps, axis=-1) if k else np.zeros(tuple(lead) + (0,), idt)
    dtype = draw(st.sampled_from([np.float64, np.int64, np.bool_]))
    n = int(np.prod(dshape))
    data = (np.arange(n).reshape(dshape) % 7 - 3).astype(dtype)
    ushape = tuple(lead) + tuple(dshape[k:])
    updates = (np.arange(int(np.prod(ushape))).reshape(ushape) * 5 % 11 - 5).astype(dtype)
    return data, indices, updates, reduction, version


@given(sndu_cases())
def test_matches_oracle(case):
    data, indices, updates, reduction, version = case
    try:
        expected = oracle.scatter_nd_update(data, indices, updates, reduction, version)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            SNDU(data, indices, updates, reduction, version)
        return
    out = SNDU(data, indices, updates, reduction, version)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
