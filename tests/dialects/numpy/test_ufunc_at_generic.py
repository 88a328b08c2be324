"""gs.numpy.ufunc_at: every ufunc NumPy 2.4's ``ufunc.at`` takes, ``b`` optional, non-native byte order."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from gatherscatter.errors import ArgumentValueError, GatherScatterError
from tests.oracles import numpy as oracle

F = np.float64
NAN = float("nan")

# (ufunc, a, indices, b, expected): hand-computed, updates applied one at a time in row-major order
CASES = [
    pytest.param(np.divide, [8.0, 8.0, 8.0], [0, 0, 2], 2, [2.0, 8.0, 4.0], id="divide-repeats"),
    pytest.param(np.divide, np.array([7, 7]), [0, 0], 2, [1, 7], id="int-divide-truncates-per-update"),
    pytest.param(np.floor_divide, [-7, 9], [0, 1, 1], [2, 2, 2], [-4, 2], id="floor_divide"),
    pytest.param(np.power, [2, 3], [0, 0, 1], [3, 2, 2], [64, 9], id="power-int"),
    pytest.param(np.power, [2.0, 3.0], [0, 0], 2.0, [16.0, 3.0], id="power-float-square"),
    pytest.param(np.fmax, [1.0, NAN], [0, 1, 1], [NAN, 2.0, 5.0], [1.0, 5.0], id="fmax-ignores-nan"),
    pytest.param(np.fmin, [1.0, NAN], [0, 1], [NAN, 2.0], [1.0, 2.0], id="fmin-ignores-nan"),
    pytest.param(np.logaddexp, [0.0, 1.0], [0], 0.0, [float(np.log(2.0)), 1.0], id="logaddexp"),
    pytest.param(np.subtract, [10, 10], [1, 1, 1], [1, 2, 3], [10, 4], id="subtract-table-row"),
    pytest.param(np.arctan2, [1.0, 0.0], [0], 1.0, [float(np.pi / 4), 0.0], id="arctan2"),
    pytest.param(np.copysign, [1.0, 2.0], [1], -0.0, [1.0, -2.0], id="copysign"),
    pytest.param(np.negative, [1, 2, 3], [0, 0, 1], None, [1, -2, 3], id="unary-negative-twice"),
    pytest.param(np.square, [2, 3], [0, 0], None, [16, 3], id="unary-square"),
    pytest.param(np.logical_and, np.array([True, True]), [1], False, [True, False], id="logical_and"),
    pytest.param(np.add, np.zeros(1, int), [0, 0], [0.6, 0.6], [0], id="add-int-float-b-per-update"),
    pytest.param(np.maximum, np.array([1 + 1j, 0j]), [0, 0], [1 + 2j, 1 - 5j], [1 + 2j, 0j],
                 id="maximum-complex-lexicographic"),
    pytest.param(np.add, np.zeros((2, 2)), (slice(None), [1, 1]), 1.0, [[0.0, 2.0], [0.0, 2.0]], id="slice-rows"),
]


@pytest.mark.parametrize(("ufunc", "a", "indices", "b", "expected"), CASES)
def test_cases(ufunc, a, indices, b, expected):
    a0 = np.array(a, copy=True)
    out = gs.numpy.ufunc_at(ufunc, a, indices, b)
    np.testing.assert_array_equal(out, np.asarray(expected))
    assert out.dtype == a0.dtype
    np.testing.assert_array_equal(np.asarray(a), a0)  # the caller's array is not modified


@pytest.mark.parametrize("dt", [">f8", ">i4", ">c16", ">f4"])
def test_non_native_byte_order_with_repeats(dt):
    a = np.arange(4, dtype=dt)
    out = gs.numpy.add_at(a, [0, 0, 1], 2)
    assert out.dtype == np.dtype(dt) and out.tolist() == [4, 3, 2, 3]
    out = gs.numpy.ufunc_at(np.multiply, a, [3, 3], 2)
    assert out.dtype == np.dtype(dt) and out.tolist() == [0, 1, 2, 12]


def test_float32_with_python_float_runs_the_float64_loop():
    # NumPy 2.4: b is np.asarray(b) (float64), the loop is float64, each update rounds back to float32
    a = np.array([0.15335979], np.float32)
    b = 1.706825583196442
    expected = a.copy()
    for _ in range(3):
        expected = (expected.astype(np.float64) - b).astype(np.float32)
    assert gs.numpy.ufunc_at(np.subtract, a, [0, 0, 0], b).tolist() == expected.tolist()
    with pytest.raises(gs.UnsupportedError, match="more than once"):  # the one-scatter op says so
        gs.numpy.subtract_at(a, [0, 0, 0], b)


# (ufunc, kwargs, our class, fragments): also checked against NumPy's own exception below
ERRORS = [
    (np.add, dict(a=np.zeros(3), indices=[0]), ArgumentValueError, ["second operand needed"]),
    (np.divide, dict(a=np.zeros(3), indices=[0]), ArgumentValueError, ["second operand needed"]),
    (np.negative, dict(a=np.zeros(3), indices=[0], b=1.0), ArgumentValueError, ["ufunc is unary"]),
    (np.divmod, dict(a=np.zeros(3), indices=[0], b=1.0), ArgumentValueError, ["single output"]),
    (np.matmul, dict(a=np.zeros(3), indices=[0], b=1.0), gs.DTypeError, ["non-trivial signature"]),
    (np.bitwise_and, dict(a=np.zeros(3), indices=[0], b=1.0), gs.DTypeError, ["no bitwise_and loop"]),
    (np.divide, dict(a=np.zeros(3), indices=[3], b=1.0), gs.IndexOutOfRangeError, ["index 3", "position [0]"]),
    (np.power, dict(a=np.ones(3, int), indices=[0], b=-1), ArgumentValueError, ["negative integer powers"]),
    (np.fmax, dict(a=np.zeros(3), indices=[0, 1], b=[1.0, 2.0, 3.0]), gs.ShapeError, ["not broadcastable"]),
    (np.fmax, dict(a=np.zeros(3), indices=np.array([0.0]), b=1.0), gs.DTypeError, ["integer"]),
]


@pytest.mark.parametrize(("ufunc", "kwargs", "cls", "fragments"), ERRORS)
def test_errors(ufunc, kwargs, cls, fragments):
    with pytest.raises(cls) as info:
        gs.numpy.ufunc_at(ufunc, **kwargs)
    for frag in fragments:
        assert frag in str(info.value)


@pytest.mark.parametrize(("ufunc", "kwargs", "cls", "fragments"), ERRORS)
def test_errors_catchable_as_numpys(ufunc, kwargs, cls, fragments):
    a = np.array(kwargs["a"], copy=True)
    args = (a, kwargs["indices"]) + (() if "b" not in kwargs else (kwargs["b"],))
    with pytest.raises((TypeError, ValueError, IndexError)) as theirs:
        ufunc.at(*args)
    with pytest.raises(GatherScatterError) as ours:
        gs.numpy.ufunc_at(ufunc, **kwargs)
    builtin = next(c for c in type(theirs.value).__mro__ if c.__module__ == "builtins")
    assert isinstance(ours.value, builtin), (type(theirs.value), type(ours.value))


def test_ufunc_must_be_a_ufunc():
    with pytest.raises(gs.ArgumentError, match="numpy ufunc"):
        gs.numpy.ufunc_at(sum, [1, 2], [0], 1)


BINARY = [np.divide, np.floor_divide, np.power, np.fmax, np.fmin, np.logaddexp, np.logaddexp2, np.arctan2,
          np.hypot, np.fmod, np.remainder, np.copysign, np.nextafter, np.heaviside, np.add, np.subtract,
          np.multiply, np.maximum, np.minimum]


@given(st.sampled_from(BINARY), st.lists(st.integers(0, 3), max_size=8),
       st.lists(st.sampled_from([2.0, 0.5, -1.0, -1.5, 3.25, 0.0]), min_size=8, max_size=8))
def test_property_matches_loop_oracle(ufunc, idx, bvals):
    a = np.array([1.5, -2.0, 0.25, 7.0])
    b = np.array(bvals[: len(idx)])
    expected = oracle.ufunc_at(ufunc, a, np.array(idx, dtype=np.intp), b)
    out = gs.numpy.ufunc_at(ufunc, a, np.array(idx, dtype=np.intp), b)
    np.testing.assert_array_equal(out, expected)


def _ufuncs():
    return [getattr(np, n) for n in sorted(dir(np)) if isinstance(getattr(np, n), np.ufunc)]


DTYPES = ["float64", "float32", "int32", "int8", "uint8", "bool", "complex128", ">f8", "<i8"]


@pytest.mark.parametrize("dt", DTYPES)
def test_differential_against_numpy(dt):
    """Every NumPy ufunc x b form on ``dt`` data: same values, dtype, or an error NumPy's builtin class catches."""
    rng = np.random.default_rng(sum(map(ord, dt)))
    compared = 0
    for ufunc in _ufuncs():
        for form in ("array", "0d", "python", "none"):
            a = rng.random(6) < 0.5 if dt == "bool" else (rng.standard_normal(6) * 4).astype(dt)
            idx = rng.integers(-6, 6, 8)
            b = {"array": (rng.standard_normal(8) * 3).astype(dt if rng.random() < 0.5 else "float64"),
                 "0d": np.array(2, dtype=dt), "python": 1.5, "none": None}[form]
            theirs = a.copy()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ufunc.at(theirs, idx) if b is None else ufunc.at(theirs, idx, b)
                err = None
            except Exception as exc:
                err = exc
            if err is None:
                out = gs.numpy.ufunc_at(ufunc, a, idx, b)
                assert out.dtype == theirs.dtype, (ufunc, form)
                np.testing.assert_array_equal(out, theirs, err_msg=f"{ufunc.__name__} {form}")
            else:
                builtin = next(c for c in type(err).__mro__ if c.__module__ == "builtins")
                with pytest.raises(builtin) as ours:
                    gs.numpy.ufunc_at(ufunc, a, idx, b)
                assert isinstance(ours.value, GatherScatterError), (ufunc, form, ours.value)
            compared += 1
    assert compared == 4 * len(_ufuncs())
