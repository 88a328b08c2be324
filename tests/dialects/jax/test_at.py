"""gs.jax.at(x)[idx] and at_get / at_set / at_add / at_multiply / at_min / at_max."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests import strategies as gst
from tests.oracles import jax as oracle

from .helpers import assert_same

NAN = np.nan
G3 = np.arange(1.0, 10.0).reshape(3, 3)  # [[1,2,3],[4,5,6],[7,8,9]]
V = np.array([10.0, 20.0, 30.0])
VI = np.array([10, 20, 30], np.int32)
X3 = np.arange(24).reshape(2, 3, 4)
A = np.array([0, 1])

GET_CASES = [
    # docs/behavior-matrix.md#t6-3 (index tuples given as a tuple of per-axis arrays)
    ("neg row", G3, ([0, -1], [0, 0]), {}, np.array([1.0, 7.0])),
    ("oob row default clamps", G3, ([0, 3], [0, 0]), {}, np.array([1.0, 7.0])),
    ("oob row fill", G3, ([0, 3], [0, 0]), {"mode": "fill"}, np.array([1.0, NAN])),
    ("oob row clip", G3, ([0, 3], [0, 0]), {"mode": "clip"}, np.array([1.0, 7.0])),
    ("oob row promise", G3, ([0, 3], [0, 0]), {"mode": "promise_in_bounds"}, np.array([1.0, 7.0])),
    ("oob row -4 default", G3, ([0, -4], [0, 0]), {}, np.array([1.0, 1.0])),
    ("oob row -4 fill", G3, ([0, -4], [0, 0]), {"mode": "fill"}, np.array([1.0, NAN])),
    ("oob column default", G3, ([0, 0], [0, 3]), {}, np.array([1.0, 3.0])),
    ("oob column fill", G3, ([0, 0], [0, 3]), {"mode": "drop"}, np.array([1.0, NAN])),
    ("partial index -> rows", G3, (np.array([1]),), {}, np.array([[4.0, 5.0, 6.0]])),
    ("empty index tuples", G3, (np.zeros(0, np.int64), np.zeros(0, np.int64)), {}, np.zeros(0)),
    # docs/behavior-matrix.md#t6-10
    ("int32 [0,3] clamps", VI, (np.array([0, 3]),), {}, np.array([10, 30], np.int32)),
    ("fill_value -1", VI, (np.array([0, 3]),), {"mode": "fill", "fill_value": -1}, np.array([10, -1], np.int32)),
    ("fill_value ignored without fill mode", V, (np.array([5]),), {"fill_value": -1}, np.array([30.0])),
    ("fill_value 0-d array", V, (np.array([5]),), {"mode": "fill", "fill_value": np.array(-1.0)}, np.array([-1.0])),
    ("fill_value 2.5 into int", VI, (np.array([5]),), {"mode": "fill", "fill_value": 2.5}, np.array([2], np.int32)),
    # docs/semantics.md#s2-3: x[5] on size 3 -> last; x[-7] -> wraps to -4 -> 0
    ("x[5]", V, 5, {}, np.array(30.0)),
    ("x[-7]", V, -7, {}, np.array(10.0)),
    ("x[-4] int", V, -4, {}, np.array(10.0)),
    ("x[5] fill", V, 5, {"mode": "fill"}, np.array(NAN)),
    ("uint8 scalar 200 fill", V, np.uint8(200), {"mode": "fill"}, np.array(NAN)),
    # jnp.take docstring: x.at[indices].get(mode='fill', fill_value=nan)
    (
        "doc fill rows",
        np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        np.array([2, 0]),
        {"mode": "fill", "fill_value": NAN},
        np.array([[NAN, NAN, NAN], [1.0, 2.0, 3.0]]),
    ),
    (
        "doc clip rows",
        np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        np.array([2, 0]),
        {"mode": "clip"},
        np.array([[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]),
    ),
    # basic indexing
    ("slice", V, slice(1, None), {}, np.array([20.0, 30.0])),
    ("negative step", V, slice(None, None, -2), {}, np.array([30.0, 10.0])),
    ("None", V, None, {}, np.array([[10.0, 20.0, 30.0]])),
    ("Ellipsis", V, ..., {}, V),
    ("bool mask", V, np.array([True, False, True]), {}, np.array([10.0, 30.0])),
    ("bool mask list in a tuple", V, ([True, False, True],), {}, np.array([10.0, 30.0])),
    ("scalar True", V, True, {}, np.array([[10.0, 20.0, 30.0]])),
    ("scalar False", V, False, {}, np.zeros((0, 3))),
    ("np.bool_ scalar (JAX: AssertionError)", V, np.bool_(True), {}, np.array([[10.0, 20.0, 30.0]])),
    ("empty list in a tuple", V, ([],), {}, np.zeros(0)),
    ("int, slice, array: non-adjacent -> first", X3, (0, slice(None), A), {}, X3[0, :, A]),
    ("arrays around None -> first", X3, (A, None, A), {}, X3[A, None, A]),
    ("arrays around empty ... -> first", X3, (slice(None), A, ..., np.array([1, 2])), {}, np.array([[1, 13], [6, 18]])),
    # JAX's adjacency ignores scalar booleans (NumPy gives shape (1, 2, 3) and (1, 2, 4))
    (
        "jax quirk: slice, True, slice, array",
        X3,
        (slice(None), True, slice(None), np.array([0])),
        {},
        np.array([[[0, 4, 8]], [[12, 16, 20]]]),
    ),
    (
        "jax quirk: slice, int, slice, True",
        X3,
        (slice(None), 1, slice(None), True),
        {},
        np.array([[[4, 5, 6, 7]], [[16, 17, 18, 19]]]),
    ),
    (
        "jax quirk: slice, array, True, array",
        X3,
        (slice(None), A, True, np.array([1, 2])),
        {},
        np.array([[1, 13], [6, 18]]),
    ),
    # 0-d x
    ("0-d x, ()", np.float64(5.0), (), {}, np.array(5.0)),
    ("0-d x, None", np.float64(5.0), None, {}, np.array([5.0])),
    ("0-d x, True", np.float64(5.0), True, {}, np.array([5.0])),
    # empty results
    ("empty result with oob index", np.zeros((3, 0)), (np.array([5]),), {}, np.zeros((1, 0))),
    ("empty array on empty axis", np.zeros((0, 3)), (np.zeros(0, np.int64),), {}, np.zeros((0, 3))),
    ("int32-range edge", V, (np.array([2**31 - 1, -(2**31)]),), {}, np.array([30.0, 10.0])),
]


@pytest.mark.parametrize(("name", "x", "idx", "kw", "want"), GET_CASES, ids=[c[0] for c in GET_CASES])
def test_get_cases(name: str, x: Any, idx: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(gs.jax.at(x)[idx].get(**kw), want)
    assert_same(gs.jax.at_get(x, idx, **kw), want)


Z4 = np.zeros(4)
D3 = np.array([1.0, 2.0, 3.0])
SCATTER_CASES = [
    # docs/behavior-matrix.md#t6-5 (ND form: index tuples [[-1]] -> x.at[(array([-1]),)])
    ("neg set", "set", D3, (np.array([-1]),), [9.0], {}, np.array([1.0, 2.0, 9.0])),
    ("oob 3 dropped", "set", D3, (np.array([3]),), [9.0], {}, D3),
    ("oob 3 drop", "set", D3, (np.array([3]),), [9.0], {"mode": "drop"}, D3),
    ("oob 3 clip", "set", D3, (np.array([3]),), [9.0], {"mode": "clip"}, np.array([1.0, 2.0, 9.0])),
    ("oob 3 promise drops", "set", D3, (np.array([3]),), [9.0], {"mode": "promise_in_bounds"}, D3),
    ("oob -4 dropped", "set", D3, (np.array([-4]),), [9.0], {}, D3),
    ("oob -4 clip", "set", D3, (np.array([-4]),), [9.0], {"mode": "clip"}, np.array([9.0, 2.0, 3.0])),
    ("one_hot scatters like drop", "set", D3, (np.array([5]),), [9.0], {"mode": "one_hot"}, D3),
    (
        "duplicates: last wins",
        "set",
        Z4,
        (np.array([1, 1, 1]),),
        [10.0, 20.0, 30.0],
        {},
        np.array([0.0, 30.0, 0.0, 0.0]),
    ),
    (
        "add accumulates",
        "add",
        np.ones(4),
        (np.array([1, 1, 2]),),
        [10.0, 20.0, 30.0],
        {},
        np.array([1.0, 31.0, 31.0, 1.0]),
    ),
    ("not covered kept", "set", D3, (np.array([0]),), [9.0], {}, np.array([9.0, 2.0, 3.0])),
    ("empty indices", "set", D3, (np.zeros(0, np.int64),), np.zeros(0), {}, D3),
    ("slice update", "set", np.zeros((2, 2)), (np.array([1]),), [[7.0, 8.0]], {}, np.array([[0.0, 0.0], [7.0, 8.0]])),
    # reductions: data [5,5,5], idx [[0],[0]], upd [2,3]
    ("sum", "add", np.full(3, 5.0), (np.array([0, 0]),), [2.0, 3.0], {}, np.array([10.0, 5.0, 5.0])),
    ("prod", "multiply", np.full(3, 5.0), (np.array([0, 0]),), [2.0, 3.0], {}, np.array([30.0, 5.0, 5.0])),
    ("max", "max", np.full(3, 5.0), (np.array([0, 0]),), [2.0, 3.0], {}, np.array([5.0, 5.0, 5.0])),
    ("min", "min", np.full(3, 5.0), (np.array([0, 0]),), [2.0, 3.0], {}, np.array([2.0, 5.0, 5.0])),
    # docs/behavior-matrix.md#t6-7: data [5,5,5,5], idx [0,0,2], upd [2,4,7]
    ("6.7 sum", "add", np.full(4, 5.0), (np.array([0, 0, 2]),), [2.0, 4.0, 7.0], {}, np.array([11.0, 5.0, 12.0, 5.0])),
    (
        "6.7 prod",
        "multiply",
        np.full(4, 5.0),
        (np.array([0, 0, 2]),),
        [2.0, 4.0, 7.0],
        {},
        np.array([40.0, 5.0, 35.0, 5.0]),
    ),
    ("6.7 max", "max", np.full(4, 5.0), (np.array([0, 0, 2]),), [2.0, 4.0, 7.0], {}, np.array([5.0, 5.0, 7.0, 5.0])),
    ("6.7 min", "min", np.full(4, 5.0), (np.array([0, 0, 2]),), [2.0, 4.0, 7.0], {}, np.array([2.0, 5.0, 5.0, 5.0])),
    (
        "6.7 int32 prod overflow",
        "multiply",
        np.full(4, 3, np.int32),
        (np.array([0, 0]),),
        np.array([2**20, 2**20], np.int32),
        {},
        np.array([0, 3, 3, 3], np.int32),
    ),
    ("NaN propagates in max", "max", D3, (np.array([0]),), [NAN], {}, np.array([NAN, 2.0, 3.0])),
    # dtype promotion and the cast back (JAX runs the scatter in the promoted dtype)
    ("int32 set 2.7", "set", VI, 0, 2.7, {}, np.array([2, 20, 30], np.int32)),
    ("int32 add 2.7", "add", VI, 0, 2.7, {}, np.array([12, 20, 30], np.int32)),
    ("int32 add f64 twice", "add", VI, (np.array([0, 0]),), np.array([2.7, 2.7]), {}, np.array([15, 20, 30], np.int32)),
    ("int32 multiply 1.5", "multiply", VI, 0, 1.5, {}, np.array([15, 20, 30], np.int32)),
    ("int32 set NaN -> 0", "set", VI, 0, NAN, {}, np.array([0, 20, 30], np.int32)),
    ("int32 set inf saturates", "set", VI, 0, np.inf, {}, np.array([2**31 - 1, 20, 30], np.int32)),
    ("int32 set 1e20 saturates", "set", VI, 0, 1e20, {}, np.array([2**31 - 1, 20, 30], np.int32)),
    ("int64 set -inf saturates", "set", VI.astype(np.int64), 0, -np.inf, {}, np.array([-(2**63), 20, 30], np.int64)),
    ("int64 set 1e19 saturates", "set", VI.astype(np.int64), 0, 1e19, {}, np.array([2**63 - 1, 20, 30], np.int64)),
    ("uint64 set 1e20 saturates", "set", VI.astype(np.uint64), 0, 1e20, {}, np.array([2**64 - 1, 20, 30], np.uint64)),
    ("uint8 set -1.5 -> 0", "set", VI.astype(np.uint8), 0, -1.5, {}, np.array([0, 20, 30], np.uint8)),
    ("uint8 set 300 wraps", "set", VI.astype(np.uint8), 0, 300, {}, np.array([44, 20, 30], np.uint8)),
    ("uint8 set -1 wraps", "set", VI.astype(np.uint8), 0, -1, {}, np.array([255, 20, 30], np.uint8)),
    ("int32 add 2**40 (weak int wraps to 0)", "add", VI, 0, 2**40, {}, np.array([10, 20, 30], np.int32)),
    (
        "int8 add uint8 200 -> int16 then wrap",
        "add",
        np.array([1, 2], np.int8),
        0,
        np.array(200, np.uint8),
        {},
        np.array([-55, 2], np.int8),
    ),
    ("uint64 set 2**63", "set", np.array([1, 2], np.uint64), 0, 2**63, {}, np.array([2**63, 2], np.uint64)),
    ("float set complex keeps real", "set", V, 0, 1 + 2j, {}, np.array([1.0, 20.0, 30.0])),
    ("int32 set complex", "set", np.array([1, 2], np.int32), 0, 2.5 + 3j, {}, np.array([2, 2], np.int32)),
    ("bool add int -> int then != 0", "add", np.array([True, False]), 1, 1, {}, np.array([True, True])),
    ("bool multiply int", "multiply", np.array([True, False]), 1, 2, {}, np.array([True, False])),
    ("bool set 2", "set", np.array([True, False]), 1, 2, {}, np.array([True, True])),
    (
        "bool max",
        "max",
        np.array([True, False]),
        (np.array([0, 1]),),
        np.array([False, True]),
        {},
        np.array([True, True]),
    ),
    ("bool min float", "min", np.array([True, False]), 1, 0.5, {}, np.array([True, False])),
    ("float32 add weak 0.1", "add", np.array([1.0, 2.0], np.float32), 0, 0.1, {}, np.array([1.1, 2.0], np.float32)),
    (
        "float32 accumulates in float64",
        "add",
        np.array([1.0], np.float32),
        (np.zeros(1000, np.int64),),
        np.full(1000, 1e-8),
        {},
        np.array([1.00001], np.float32),
    ),
    (
        "float32 + NumPy float64 scalar (strong) accumulates in float64",
        "add",
        np.array([1.0], np.float32),
        (np.zeros(1000, np.int64),),
        np.float64(1e-8),
        {},
        np.array([1.00001], np.float32),
    ),
    (
        "float32 + Python float (weak) stays float32",
        "add",
        np.array([1.0], np.float32),
        (np.zeros(1000, np.int64),),
        1e-8,
        {},
        np.array([1.0], np.float32),
    ),
    (
        "float16 add int64 70000 -> inf",
        "add",
        np.array([1, 2], np.float16),
        0,
        np.array(70000, np.int64),
        {},
        np.array([np.inf, 2.0], np.float16),
    ),
    (
        "int64 round trip through float64",
        "set",
        np.array([2**53 + 1, 0], np.int64),
        1,
        1.5,
        {},
        np.array([2**53, 1], np.int64),
    ),
    # broadcasting, None, negative steps, bools
    ("broadcast row", "set", np.zeros((2, 3)), 0, [1.0, 2.0, 3.0], {}, np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])),
    (
        "None dim in values",
        "set",
        np.zeros((2, 3)),
        (None, 0),
        np.ones((1, 3)),
        {},
        np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]),
    ),
    (
        "negative step with array",
        "set",
        np.zeros((3, 3)),
        (slice(None, None, -1), np.array([0, 0])),
        np.arange(6.0).reshape(3, 2),
        {},
        np.array([[5.0, 0.0, 0.0], [3.0, 0.0, 0.0], [1.0, 0.0, 0.0]]),
    ),
    (
        "2-d duplicate set",
        "set",
        np.zeros(3),
        (np.array([[0, 1], [1, 0]]),),
        np.arange(4.0).reshape(2, 2),
        {},
        np.array([3.0, 2.0, 0.0]),
    ),
    ("bool mask set", "set", V, np.array([True, False, True]), [1.0, 2.0], {}, np.array([1.0, 20.0, 2.0])),
    ("scalar True set on 0-d", "set", np.float64(5.0), True, [7.0], {}, np.array(7.0)),
    ("scalar False set on 0-d", "set", np.float64(5.0), False, [7.0], {}, np.array(5.0)),
    ("0-d add", "add", np.float64(5.0), ..., 1.0, {}, np.array(6.0)),
    ("array on empty axis: all dropped", "set", np.zeros((0, 3)), (np.array([0]),), 1.0, {}, np.zeros((0, 3))),
    ("empty target skips broadcasting", "set", np.zeros((3, 0)), (np.array([5]),), np.ones(7), {}, np.zeros((3, 0))),
]


@pytest.mark.parametrize(
    ("name", "op", "x", "idx", "values", "kw", "want"), SCATTER_CASES, ids=[c[0] for c in SCATTER_CASES]
)
def test_scatter_cases(name: str, op: str, x: Any, idx: Any, values: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(getattr(gs.jax.at(x)[idx], op)(values, **kw), want)
    assert_same(getattr(gs.jax, f"at_{op}")(x, idx, values, **kw), want)


def test_inputs_untouched() -> None:
    x = np.array([1.0, 2.0, 3.0])
    v = np.array([5.0])
    out = gs.jax.at(x)[(np.array([0]),)].add(v)
    assert x.tolist() == [1.0, 2.0, 3.0] and v.tolist() == [5.0]
    assert not np.shares_memory(out, x)
    got = gs.jax.at(x)[...].get()
    assert not np.shares_memory(got, x)


@pytest.mark.parametrize("op", ["get", "set", "add", "subtract", "multiply", "min", "max"])
def test_methods_call_registered_function_forms(monkeypatch: pytest.MonkeyPatch, op: str) -> None:
    import importlib

    at_module = importlib.import_module("gatherscatter.dialects.jax.at")  # the package attribute is the function
    calls = []
    real = getattr(at_module, f"at_{op}")

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(at_module, f"at_{op}", spy)
    ref = gs.jax.at([1.0, 2.0])[(np.array([0]),)]
    if op == "get":
        ref.get(mode="fill")
    else:
        getattr(ref, op)(3.0, mode="clip")
    assert len(calls) == 1
    assert gs.get_op(f"jax.at_{op}") is real


ERRORS = [
    ("get", V, [0, 1], (), {}, gs.ArgumentError, "non-tuple sequence"),
    ("set", V, [0, 1], (1.0,), {}, gs.ArgumentError, "non-tuple sequence"),
    ("get", V, "a", (), {}, gs.ArgumentError, "string indexing"),
    ("get", V, 1.0, (), {}, gs.DTypeError, "float"),
    ("get", V, (np.array([1.0]),), (), {}, gs.DTypeError, "integer (or boolean)"),
    ("get", V, (0, 0), (), {}, gs.IndexOutOfRangeError, "too many indices"),
    ("get", V, (..., ...), (), {}, gs.IndexOutOfRangeError, "single ellipsis"),
    (
        "get",
        np.zeros((2, 3)),
        (slice(None), np.array([True, False])),
        (),
        {},
        gs.IndexOutOfRangeError,
        "boolean index did not match",
    ),
    ("get", np.zeros((2, 3)), (False, np.array([0, 1])), (), {}, gs.ShapeError, "could not be broadcast"),
    ("get", V, 2**70, (), {}, gs.IndexOutOfRangeError, "too large to convert to int64"),
    ("get", V, slice(0, 3, 0), (), {}, gs.UnsupportedError, "step cannot be zero"),
    ("get", V, (np.array([0]),), (), {"mode": "wrap"}, gs.UnsupportedError, 'Unknown gather mode "wrap"'),
    ("get", V, (np.array([0]),), (), {"mode": "one_hot"}, gs.UnsupportedError, "one_hot"),
    ("get", V, (np.array([0]),), (), {"fill_value": [1.0]}, gs.ArgumentError, "must be a scalar"),
    ("get", V, (np.array([5]),), (), {"mode": "fill", "fill_value": 1j}, gs.DTypeError, "complex"),
    ("get", np.zeros((0, 3)), 0, (), {}, gs.IndexOutOfRangeError, "axis 0 with size 0"),
    ("get", np.zeros((0, 3)), 0, (), {"mode": "fill"}, gs.IndexOutOfRangeError, "axis 0 with size 0"),
    ("get", np.zeros((0, 3)), (np.array([0]),), (), {}, gs.IndexOutOfRangeError, "axis 0 of x, which has size 0"),
    ("set", np.zeros((0, 3)), 0, (1.0,), {}, gs.IndexOutOfRangeError, "axis 0 with size 0"),
    ("get", np.array(["a", "b"]), 0, (), {}, gs.DTypeError, "x dtype str"),
    ("set", V, (np.array([0]),), (1.0,), {"mode": "wrap"}, gs.UnsupportedError, 'Unknown gather mode "wrap"'),
    ("set", V, 0, (np.array([1.0, 2.0]),), {}, gs.ShapeError, "more dimensions"),
    ("set", np.zeros((2, 3)), 0, (np.array([1.0, 2.0]),), {}, gs.ShapeError, "do not broadcast"),
    ("set", np.zeros((2, 3)), 0, (np.ones((1, 3)),), {}, gs.ShapeError, "more dimensions"),
    ("set", np.array([1, 2], np.int64), 0, (2**63,), {}, gs.DTypeError, "too large to convert to int64"),
    ("set", V, 0, ("a",), {}, gs.DTypeError, "values dtype str"),
    ("add", np.array([True, False]), 0, (np.array([True]),), {}, gs.DTypeError, "add does not accept dtype bool"),
    ("multiply", np.array([True, False]), 0, (True,), {}, gs.DTypeError, "mul does not accept dtype bool"),
    ("max", np.array([1j, 2]), 1, (3j,), {}, gs.UnsupportedError, "complex max"),
    ("min", V, 1, (3j,), {}, gs.UnsupportedError, "complex min"),
]


@pytest.mark.parametrize(
    ("op", "x", "idx", "args", "kw", "err", "frag"), ERRORS, ids=[f"{e[0]}-{e[-1]}" for e in ERRORS]
)
def test_errors(op: str, x: Any, idx: Any, args: tuple[Any, ...], kw: dict[str, Any], err: type, frag: str) -> None:
    with pytest.raises(err, match=f"jax x.at\\[idx\\].{op} \\(jax 0.10\\)") as info:
        getattr(gs.jax.at(x)[idx], op)(*args, **kw)
    assert frag in str(info.value)


# ---------------------------------------------------------------------------------------
# properties: random NumPy-style index expressions (no scalar booleans next to arrays, where
# JAX's adjacency differs from the NumPy placement the oracle uses)


@st.composite
def index_exprs(draw: Any, shape: tuple[int, ...]) -> Any:
    r = len(shape)
    n = draw(st.integers(0, r))
    adv = draw(st.sampled_from([(), (2,), (3,), (2, 1), (1, 2)]))
    entries: list[Any] = []
    d = 0
    while d < n:
        kind = draw(st.sampled_from(["int", "slice", "array", "mask", "none"]))
        size = shape[d]
        if kind == "none":
            entries.append(None)
            continue
        if kind == "int":
            entries.append(draw(gst.index_values(size)))
        elif kind == "slice":
            start = draw(st.none() | st.integers(-4, 4))
            stop = draw(st.none() | st.integers(-4, 4))
            step = draw(st.none() | st.sampled_from([1, 2, -1, -2]))
            entries.append(slice(start, stop, step))
        elif kind == "array":
            ishape = adv[draw(st.integers(0, len(adv))) :] if adv else (draw(st.integers(0, 3)),)
            dtype = draw(st.sampled_from([np.int64, np.int32, np.uint8]))
            entries.append(draw(gst.index_arrays(ishape, size, dtype=dtype, allow_negative=dtype != np.uint8)))
        else:
            mask = np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)), bool)
            if adv and int(mask.sum()) not in (0, 1, adv[-1]):
                mask = np.zeros(size, bool)
                mask[: min(adv[-1], size)] = True
            entries.append(mask)
        d += 1
    if draw(st.booleans()):
        pos = len(entries) if n < r else draw(st.integers(0, len(entries)))
        entries.insert(pos, Ellipsis)
    return tuple(entries)


@st.composite
def get_inputs(draw: Any) -> tuple[Any, ...]:
    shape = draw(gst.shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    dtype = draw(st.sampled_from([np.float64, np.int32, np.uint8, np.bool_]))
    x = draw(gst.data_arrays(shape)).astype(dtype)
    idx = draw(index_exprs(shape))
    mode = draw(st.sampled_from([None, "fill", "clip", "promise_in_bounds", "drop"]))
    fill_value = draw(st.none() | st.integers(0, 3)) if mode in ("fill", "drop") else None
    return x, idx, mode, fill_value


def _numpy_can(x: np.ndarray[Any, Any], idx: Any) -> bool:
    """Whether NumPy accepts ``idx`` once every integer entry is made valid."""
    try:
        np.empty(x.shape)[tuple(_safe(x.shape, idx))]
    except (IndexError, ValueError):
        return False
    return True


@given(get_inputs())
def test_get_property_matches_oracle(args: tuple[Any, ...]) -> None:
    x, idx, mode, fill_value = args
    if not _numpy_can(x, idx):
        with pytest.raises(gs.GatherScatterError):
            gs.jax.at_get(x, idx, mode=mode, fill_value=fill_value)
        return
    want = oracle.at_get(x, idx, mode=mode, fill_value=fill_value)
    assert_same(gs.jax.at_get(x, idx, mode=mode, fill_value=fill_value), want)


@st.composite
def scatter_inputs(draw: Any) -> tuple[Any, ...]:
    shape = draw(gst.shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    op = draw(st.sampled_from(["set", "add", "multiply", "min", "max"]))
    kinds = [np.float64, np.int32, np.uint8] + ([np.bool_] if op in ("set", "min", "max") else [])
    dtype = draw(st.sampled_from(kinds))
    x = draw(gst.data_arrays(shape)).astype(dtype)
    idx = draw(index_exprs(shape))
    mode = draw(st.sampled_from([None, "clip", "drop", "promise_in_bounds"]))
    return x, idx, op, mode


@given(scatter_inputs(), st.integers(0, 3))
def test_scatter_property_matches_oracle(args: tuple[Any, ...], cut: int) -> None:
    x, idx, op, mode = args
    if not _numpy_can(x, idx):
        with pytest.raises(gs.GatherScatterError):
            gs.jax.at_set(x, idx, 0, mode=mode)
        return
    rshape = np.empty(x.shape)[tuple(_safe(x.shape, idx))].shape
    vshape = rshape[min(cut, len(rshape)) :]
    values = (np.arange(int(np.prod(vshape)), dtype=np.float64).reshape(vshape) % 5 + 2).astype(x.dtype)
    want = oracle.at_scatter(x, idx, values, op, mode=mode)
    assert_same(getattr(gs.jax, f"at_{op}")(x, idx, values, mode=mode), want)


def _safe(shape: tuple[int, ...], idx: Any) -> list[Any]:
    """``idx`` with every integer entry made valid (to read the result shape through NumPy)."""
    items = list(idx) if isinstance(idx, tuple) else [idx]
    out = []
    for it in items:
        if isinstance(it, (int, np.integer)) and not isinstance(it, (bool, np.bool_)):
            out.append(0)
        elif isinstance(it, np.ndarray) and it.dtype.kind in "iu":
            out.append(np.zeros(it.shape, np.int64))
        else:
            out.append(it)
    return out
