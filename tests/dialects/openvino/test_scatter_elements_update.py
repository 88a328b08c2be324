"""openvino.ScatterElementsUpdate (versions 3, 12): case table, error table, property test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.oracles import openvino as oracle
from tests.strategies import index_arrays, shapes

SEU = gs.openvino.ScatterElementsUpdate
Z34 = [[0, 0, 0, 0]] * 3

# (data, indices, updates, axis, reduction, use_init_val, expected): the -12 spec examples,
# docs/semantics.md#s5-2 worked example and docs/behavior-matrix.md#t6-4 / docs/behavior-matrix.md#t6-7, typed by hand
CASES = [
    pytest.param([2, 3, 4, 6], [1, 0, 0, -2, -1, 2], [10, 20, 30, 40, 70, 60], 0, "sum", True,
                 [52, 13, 104, 76], id="spec-example-1-sum-negative"),
    pytest.param([2, 3, 4, 6], [1, 0, 0, 2, 3, 2], [10, 20, 30, 40, 70, 60], 0, "sum", False,
                 [50, 10, 100, 70], id="spec-example-2-sum-no-init"),
    pytest.param(Z34, [[1, 2], [0, 3]], [[11, 12], [13, 14]], 1, "none", True,
                 [[0, 11, 12, 0], [13, 0, 0, 14], [0, 0, 0, 0]], id="spec-example-3-none"),
    pytest.param([[1, 1, 1, 1]] * 3, [[1, 1], [0, 3]], [[11, 12], [13, 14]], 1, "sum", True,
                 [[1, 24, 1, 1], [14, 1, 1, 15], [1, 1, 1, 1]], id="spec-example-4-sum"),
    pytest.param([[2, 2, 2, 2]] * 3, [[1, 1], [0, 3]], [[11, 12], [13, 14]], 1, "prod", True,
                 [[2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]], id="spec-example-5-prod"),
    # docs/semantics.md#s5-2: D=[1,2,3,4], I=[0,1,0,1,2,1], U=[1..6]
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "sum", True, [5, 14, 8, 4], id="52-sum"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "sum", False, [4, 12, 5, 4],
                 id="52-sum-no-init"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "prod", True, [3, 96, 15, 4],
                 id="52-prod"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "prod", False, [3, 48, 5, 4],
                 id="52-prod-no-init"),
    pytest.param([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1, 2, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 0, "mean", False,
                 [2.0, 4.0, 5.0, 4.0], id="52-mean-no-init"),
    pytest.param([1.0, 2.0, 3.0, 4.0], [0, 1, 0, 1, 2, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 0, "mean", True,
                 [5 / 3, 3.5, 4.0, 4.0], id="52-mean"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "max", True, [3, 6, 5, 4], id="52-max"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "min", True, [1, 2, 3, 4], id="52-min"),
    pytest.param([1, 2, 3, 4], [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], 0, "min", False, [1, 2, 5, 4],
                 id="52-min-no-init"),
    # docs/behavior-matrix.md#t6-7: data [5,5,5,5], idx [0,0,2], upd [2,4,7]
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "max", False, [4, 5, 7, 5], id="67-max-no-init"),
    pytest.param([5, 5, 5, 5], [0, 0, 2], [2, 4, 7], 0, "mean", True, [3, 5, 6, 5], id="67-int-mean"),
    pytest.param([-5, -5, -5, -5], [0, 0, 2], [-2, -4, -7], 0, "mean", True, [-4, -5, -6, -5],
                 id="67-int-mean-negative-floor"),
    pytest.param([-5, -5, -5, -5], [0, 0, 2, 2], [-2, -3, -7, 0], 0, "mean", False, [-3, -5, -4, -5],
                 id="int-mean-no-init-floor"),
    pytest.param([0, 0, 0, 0], [1, 1, 1], [10, 20, 30], 0, "none", True, [0, 30, 0, 0], id="duplicates-last"),
    pytest.param([0, 0, 0, 0], [1, 1, 1], [10, 20, 30], 0, "none", False, [0, 30, 0, 0],
                 id="use-init-val-ignored-for-none"),
    pytest.param([[0, 0], [0, 0]], [[1, 0]], [[5, 6]], -1, "none", True, [[6, 5], [0, 0]], id="matrix-negative-axis"),
    pytest.param([5, 5, 5], [0, 0], [2, 3], 0, "SUM", True, [10, 5, 5], id="reduction-name-any-case"),
    pytest.param([[0, 0, 0]] * 3, [[2], [0]], [[7], [8]], 1, "none", True,
                 [[0, 0, 7], [8, 0, 0], [0, 0, 0]], id="indices-shorter-on-other-dims"),
    pytest.param([[0, 0], [0, 0]], [[1, 1, 0], [0, 0, 0]], [[1, 2, 3], [4, 5, 6]], 1, "sum", True,
                 [[3, 3], [15, 0]], id="indices-longer-on-axis"),
    pytest.param(np.array([250, 1, 2], np.uint8), [0, 0], np.array([3, 5], np.uint8), 0, "sum", True, [2, 1, 2],
                 id="uint8-sum-wraps"),
    pytest.param(np.array([3, 3, 3, 3], np.int32), [0, 0], np.array([2**20, 2**20], np.int32), 0, "prod", True,
                 [0, 3, 3, 3], id="int32-prod-overflow"),
]


@pytest.mark.parametrize(("data", "indices", "updates", "axis", "reduction", "use_init_val", "expected"), CASES)
def test_cases(data, indices, updates, axis, reduction, use_init_val, expected):
    out = SEU(data, indices, updates, axis, reduction, use_init_val)
    np.testing.assert_allclose(out, np.asarray(expected), rtol=1e-15)
    assert out.dtype == np.asarray(data).dtype


def test_version_3_no_attributes():
    out = SEU(np.zeros((3, 3)), [[1, 0, 2], [0, 2, 1]], [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], 0, version=3)
    assert out.tolist() == [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]]
    out = SEU([[0, 0, 0]] * 3, [[1, 0, 2]], [[1, 1, 1]], 0, version=3)
    assert out.dtype == np.int64 and out.tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]  # list updates take data dtype
    with pytest.raises(gs.DTypeError, match=r"1\.5 at position \[0, 0\]\): float values into integer data"):
        SEU([[0, 0, 0]] * 3, [[1, 0, 2]], [[1.5, 1.5, 1.5]], 0, version=3)  # ... unless a value would change
    assert SEU([0.0, 0.0], [1, 1], [3.0, 4.0], 0, "none", version=3).tolist() == [0.0, 4.0]


BOOL = [
    # (data, indices, updates, reduction, use_init_val, expected): checked on OpenVINO 2026.4.1
    ([False, True, False, True], [0, 0, 1, 2], [True, False, False, False], "sum", True, [True, True, False, True]),
    ([True, True, False, True], [0, 0, 1, 2], [True, False, True, True], "prod", True, [False, True, False, True]),
    ([False, True, False, True], [0, 0, 1, 2], [True, False, False, False], "max", True, [True, True, False, True]),
    ([False, True, False, True], [0, 1, 1, 2], [True, False, True, False], "min", True, [False, False, False, True]),
    ([True, True, True, True], [0, 0, 1], [False, False, False], "sum", False, [False, False, True, True]),
    ([False, False, False, False], [0, 0, 1], [True, True, False], "prod", False, [True, False, False, False]),
    ([True, True, True, True], [0, 0, 1], [False, False, False], "max", False, [False, False, True, True]),
    ([False, False, False, False], [0, 0, 1], [True, True, False], "min", False, [True, False, False, False]),
]


@pytest.mark.parametrize(("data", "indices", "updates", "reduction", "use_init_val", "expected"), BOOL)
def test_bool_reductions(data, indices, updates, reduction, use_init_val, expected):
    out = SEU(data, indices, updates, 0, reduction, use_init_val)
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_no_init_max_min_start_from_finite_extremes():
    # OpenVINO writes numeric_limits<T>::lowest() / max() (finite), not -inf / inf
    f = np.float32
    out = SEU(np.array([1, 1, 1], f), [0, 1], np.array([-np.inf, -np.inf], f), 0, "max", False)
    assert out.tolist() == [float(np.finfo(f).min)] * 2 + [1.0]
    out = SEU(np.array([1, 1, 1], f), [0, 0], np.array([np.inf, 2.0], f), 0, "min", False)
    assert out.tolist() == [2.0, 1.0, 1.0]
    out = SEU(np.array([1, 1], np.float16), [0], np.array([np.inf], np.float16), 0, "min", False)
    assert out.tolist() == [65504.0, 1.0]
    out = SEU(np.array([1, 1], np.int8), [0], np.array([-128], np.int8), 0, "max", False)
    assert out.tolist() == [-128, 1]


def test_float64_mean_exact_and_inputs_untouched():
    d = np.array([0.1, 0.2, 0.3])
    i = np.array([0, 0], np.uint8)
    u = np.array([0.2, 0.3])
    d0, i0, u0 = d.copy(), i.copy(), u.copy()
    out = SEU(d, i, u, np.array([0]), "mean")
    assert out.dtype == np.float64 and out[0] == (0.1 + 0.2 + 0.3) / 3
    for a, b in ((d, d0), (i, i0), (u, u0)):
        np.testing.assert_array_equal(a, b)
    assert not np.shares_memory(out, d)
    assert SEU(np.ones((2, 2)), np.zeros((2, 0), np.int64), np.zeros((2, 0)), 1, "sum").tolist() == [[1, 1], [1, 1]]


def test_duplicates_policy():
    assert SEU([0, 0], [1, 1], [3, 4], 0, duplicates="first").tolist() == [0, 3]
    with pytest.raises(gs.DuplicateIndexError, match=r"indices\[0\] and indices\[1\]"):
        SEU([0, 0], [1, 1], [3, 4], 0, duplicates="raise")


def test_mean_rounds_down_like_torch():
    torch = pytest.importorskip("torch")
    data = np.array([-5, -5, -5, -5, 7, 7], np.int64)
    idx = np.array([0, 0, 2, 4, 4, 5, 2, 3])
    upd = np.array([-2, -4, -7, 3, 0, -9, 1, -1], np.int64)
    for include_self in (True, False):
        expected = torch.from_numpy(data).scatter_reduce(
            0, torch.from_numpy(idx), torch.from_numpy(upd), "mean", include_self=include_self
        ).numpy()
        np.testing.assert_array_equal(SEU(data, idx, upd, 0, "mean", include_self), expected)


ERRORS = [
    (([1, 2, 3], [-1], [9], 0), dict(version=3), gs.IndexOutOfRangeError,
     ["openvino.ScatterElementsUpdate (ScatterElementsUpdate-3)", "indices[0] = -1", "negative", "[0, 2]"]),
    (([1, 2, 3], [3], [9], 0), {}, gs.IndexOutOfRangeError, ["ScatterElementsUpdate-12", "indices[0] = 3", "[-3, 2]"]),
    (([1, 2, 3], [0, -4], [9, 9], 0), {}, gs.IndexOutOfRangeError, ["indices[1] = -4"]),
    (([1, 2, 3], [0], [9], 0), dict(reduction="sum", version=3), gs.UnsupportedError,
     ["ScatterElementsUpdate-3", "no reduction attribute", "ScatterElementsUpdate-12"]),
    (([1, 2, 3], [0], [9], 0), dict(use_init_val=False, version=3), gs.UnsupportedError, ["use_init_val"]),
    (([1, 2, 3], [0], [9], 0), dict(reduction="add"), gs.UnsupportedError,
     ["unknown reduction 'add'", "none, sum, prod, min, max, mean"]),
    (([1, 2, 3], [0], [9], 0), dict(reduction="sub"), gs.UnsupportedError, ["'sub'"]),
    (([1, 2, 3], [0], [9], 0), dict(reduction=1), gs.ArgumentError, ["reduction must be a string"]),
    (([1, 2, 3], [0], [9], 0), dict(use_init_val=1), gs.ArgumentError, ["use_init_val must be a bool"]),
    (([True, False], [0], [True], 0), dict(reduction="mean"), gs.DTypeError, ["mean", "bool"]),
    (([[0, 0]], [0, 1], [1, 2], 0), {}, gs.ShapeError, ["rank of data (2)"]),
    (([[0, 0]], [[0, 0]], [[1, 2, 3]], 0), {}, gs.ShapeError, ["updates must have the shape of indices"]),
    (([[0, 0], [0, 0]], [[1], [0], [1]], [[1], [2], [3]], 1), {}, gs.ShapeError, ["indices.shape[0] must be <="]),
    ((5, 0, 5, 0), {}, gs.AxisError, ["0-d"]),
    (([1, 2], [0], [1], 1), {}, gs.AxisError, ["axis 1", "[-1, 0]"]),
    (([1, 2], [0], [1], [0, 0]), {}, gs.ShapeError, ["axis must be a scalar"]),
    (([1, 2], [0.0], [1], 0), {}, gs.DTypeError, ["indices", "float64"]),
    ((np.array([1, 2], np.float32), [0], np.array([1.0]), 0), {}, gs.DTypeError,
     ["updates dtype float64 must equal data dtype float32"]),
    ((np.array(["a"]), [0], np.array(["b"]), 0), {}, gs.DTypeError, ["dtype str"]),
    (([1, 2], [0], [1], 0), dict(version=4), gs.UnsupportedError, ["no ScatterElementsUpdate-4", "[3, 12]"]),
    (([1, 2], [0], [1], 0), dict(duplicates="any"), gs.UnsupportedError, ["duplicates policy 'any'"]),
]


@pytest.mark.parametrize(("args", "kwargs", "error", "fragments"), ERRORS)
def test_errors(args, kwargs, error, fragments):
    with pytest.raises(error) as info:
        SEU(*args, **kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@st.composite
def seu_cases(draw):
    dshape = draw(shapes(min_dims=1, max_dims=3, max_side=3))
    r = len(dshape)
    axis = draw(st.integers(-r, r - 1))
    a = axis + r if axis < 0 else axis
    ishape = [draw(st.integers(0, n)) for n in dshape]
    ishape[a] = draw(st.integers(0, 4))
    version = draw(st.sampled_from([3, 12]))
    reduction = "none" if version == 3 else draw(st.sampled_from(["none", "sum", "prod", "min", "max", "mean"]))
    use_init_val = True if version == 3 else draw(st.booleans())
    dtype = draw(st.sampled_from([np.float64, np.int64, np.int32, np.bool_]))
    if dtype is np.bool_ and reduction == "mean":
        dtype = np.int64
    idt = draw(st.sampled_from([np.int32, np.int64, np.int8, np.uint16]))
    indices = draw(index_arrays(tuple(ishape), dshape[a], dtype=idt))
    n = int(np.prod(dshape))
    data = (np.arange(n).reshape(dshape) % 7 - 3).astype(dtype)
    updates = (np.arange(indices.size).reshape(indices.shape) * 5 % 11 - 5).astype(dtype)
    return data, indices, updates, axis, reduction, use_init_val, version


@given(seu_cases())
def test_matches_oracle(case):
    data, indices, updates, axis, reduction, use_init_val, version = case
    try:
        expected = oracle.scatter_elements_update(data, indices, updates, axis, reduction, use_init_val, version)
    except IndexError:
        with pytest.raises(gs.IndexOutOfRangeError):
            SEU(data, indices, updates, axis, reduction, use_init_val, version)
        return
    out = SEU(data, indices, updates, axis, reduction, use_init_val, version)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
