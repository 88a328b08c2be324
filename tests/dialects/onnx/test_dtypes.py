"""Every ONNX tensor type each op lists, including bool, string, float16, bfloat16, complex.

Expected values are the hand-computed integer results of each case, converted to
the dtype under test.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs

ml_dtypes = pytest.importorskip("ml_dtypes")

BASE = np.array([[1, 2, 3], [4, 5, 6]])
NUMERIC = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128,
]
ALL = [*NUMERIC, "str", "object", "bfloat16"]


def as_dtype(a, dt):
    a = np.asarray(a)
    if dt == "str":
        return a.astype(str)
    if dt == "object":
        return a.astype(str).astype(object)
    if dt == "bfloat16":
        return a.astype(ml_dtypes.bfloat16)
    return a.astype(dt)


def check(out, expected):
    assert out.dtype == expected.dtype
    assert out.shape == expected.shape
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_gather(dt):
    check(gs.onnx.Gather(as_dtype(BASE, dt), [1, 0], axis=1), as_dtype([[2, 1], [5, 4]], dt))


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_gather_elements(dt):
    check(gs.onnx.GatherElements(as_dtype(BASE, dt), [[2], [0]], axis=1), as_dtype([[3], [4]], dt))


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_gather_nd(dt):
    check(gs.onnx.GatherND(as_dtype(BASE, dt), [[1, 2], [0, 0]]), as_dtype([6, 1], dt))


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_scatter_elements(dt):
    out = gs.onnx.ScatterElements(as_dtype(BASE, dt), [[2], [0]], as_dtype([[0], [0]], dt), axis=1)
    check(out, as_dtype([[1, 2, 0], [0, 5, 6]], dt))


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_scatter_nd(dt):
    out = gs.onnx.ScatterND(as_dtype(BASE, dt), [[1]], as_dtype([[0, 0, 0]], dt))
    check(out, as_dtype([[1, 2, 3], [0, 0, 0]], dt))


@pytest.mark.parametrize("dt", [d for d in ALL if d != "bfloat16"], ids=str)
def test_deprecated_scatter(dt):
    out = gs.onnx.Scatter(as_dtype(BASE, dt), [[2], [0]], as_dtype([[0], [0]], dt), axis=1)
    check(out, as_dtype([[1, 2, 0], [0, 5, 6]], dt))


@pytest.mark.parametrize(
    ("op", "args"),
    [
        (gs.onnx.Gather, ([1, 0],)),
        (gs.onnx.GatherElements, ([[0], [1]],)),
        (gs.onnx.GatherND, ([[0, 0]],)),
    ],
)
def test_bfloat16_needs_opset_13(op, args):
    data = as_dtype(BASE, "bfloat16")
    with pytest.raises(gs.DTypeError, match="bfloat16 needs version 13"):
        op(data, *args, opset=12)
    op(data, *args, opset=13)


def test_bfloat16_scatter_versions():
    data = as_dtype(BASE, "bfloat16")
    with pytest.raises(gs.DTypeError, match="bfloat16"):
        gs.onnx.Scatter(data, [[0]], as_dtype([[9]], "bfloat16"), axis=1)
    with pytest.raises(gs.DTypeError, match="bfloat16"):
        gs.onnx.ScatterND(data, [[0]], as_dtype([[9, 9, 9]], "bfloat16"), opset=11)


@pytest.mark.parametrize(
    ("dt", "reduction", "expected"),
    [
        (np.float16, "add", [[4, 2, 3], [4, 5, 6]]),
        ("bfloat16", "add", [[4, 2, 3], [4, 5, 6]]),
        ("bfloat16", "max", [[2, 2, 3], [4, 5, 6]]),
        (np.complex128, "mul", [[2, 2, 3], [4, 5, 6]]),
        (np.uint8, "mul", [[2, 2, 3], [4, 5, 6]]),
        (np.bool_, "add", [[1, 1, 1], [1, 1, 1]]),
        (np.bool_, "mul", [[1, 1, 1], [1, 1, 1]]),
    ],
    ids=str,
)
def test_reductions_per_dtype(dt, reduction, expected):
    out = gs.onnx.ScatterElements(
        as_dtype(BASE, dt), [[0, 0]], as_dtype([[1, 2]], dt), axis=1, reduction=reduction
    )
    check(out, as_dtype(expected, dt))


def test_bool_reductions_are_logical():
    d = np.array([True, False, False, True])
    i = [0, 1, 1, 3]
    u = np.array([False, True, True, False])
    assert gs.onnx.ScatterElements(d, i, u, reduction="add").tolist() == [True, True, False, True]
    assert gs.onnx.ScatterElements(d, i, u, reduction="mul").tolist() == [False, False, False, False]
    assert gs.onnx.ScatterElements(d, i, u, reduction="max").tolist() == [True, True, False, True]
    assert gs.onnx.ScatterElements(d, i, u, reduction="min").tolist() == [False, False, False, False]


@pytest.mark.parametrize("dt", ["float8_e4m3fn", "int4"])
def test_types_onnx_does_not_list(dt):
    data = np.zeros(3, getattr(ml_dtypes, dt))
    with pytest.raises(gs.DTypeError, match=dt):
        gs.onnx.Gather(data, [0])


def test_other_numpy_types_rejected():
    for data in (np.zeros(2, "datetime64[s]"), np.zeros(2, np.longdouble), np.zeros(2, "V4")):
        with pytest.raises(gs.DTypeError):
            gs.onnx.Gather(data, [0])
