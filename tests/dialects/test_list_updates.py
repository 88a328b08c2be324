"""Lists and scalars as updates follow the dtype rules of arrays (issue 15).

``gs.onnx.ScatterND([1, 2, 3], [[0]], [5.5])`` used to truncate 5.5 to 5 while
the same values as arrays raised DTypeError. Every scatter that reads its
updates through the shared helper (core.shape.as_updates) now writes a list in
the data's dtype only when no value changes. Expected values are hand-written.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs

# (op, args before the updates, args after, expected result with updates [7] or 7 into int64 [1, 2, 3])
SCATTERS = [
    ("onnx.ScatterND", ([1, 2, 3], [[0]]), (), [7, 2, 3]),
    ("onnx.ScatterElements", ([1, 2, 3], [0]), (), [7, 2, 3]),
    ("openvino.ScatterNDUpdate", ([1, 2, 3], [[0]]), (), [7, 2, 3]),
    ("openvino.ScatterElementsUpdate", ([1, 2, 3], [0]), (0,), [7, 2, 3]),
    ("openvino.ScatterUpdate", ([1, 2, 3], [0]), (0,), [7, 2, 3]),
    ("tensorflow.tensor_scatter_nd_update", ([1, 2, 3], [[0]]), (), [7, 2, 3]),
    ("paddle.scatter", ([1, 2, 3], [0]), (), [7, 2, 3]),
    ("paddle.scatter_nd_add", ([1, 2, 3], [[0]]), (), [8, 2, 3]),
    ("paddle.put_along_axis", ([1, 2, 3], [0]), (0,), [7, 2, 3]),
    ("gatherscatter.scatter_nd", ([1, 2, 3], [[0]]), (), [7, 2, 3]),
    ("gatherscatter.scatter_along_axis", ([1, 2, 3], [0]), (0,), [7, 2, 3]),
]


def _call(qual, before, updates, after):
    return gs.get_op(qual)(*before, updates, *after)


@pytest.mark.parametrize(("qual", "before", "after", "expected"), SCATTERS, ids=[c[0] for c in SCATTERS])
def test_a_float_list_into_int_data_is_a_dtype_error_like_an_array(qual, before, after, expected):
    with pytest.raises(gs.DTypeError):  # the array form always raised
        _call(qual, before, np.array([5.5]), after)
    with pytest.raises(gs.DTypeError, match=r"\[5\.5\] read as float64, which int64 data cannot hold \(5\.5 at "
                                            r"position \[0\]\): float values into integer data would change them"):
        _call(qual, before, [5.5], after)
    with pytest.raises(gs.DTypeError, match=r"\(5\.0 at position \[0\]\)"):  # integral, but still a float
        _call(qual, before, [5.0], after)
    out = _call(qual, before, [7], after)  # an int list takes the data's dtype
    assert out.dtype == np.int64 and out.tolist() == expected


def test_issue_example():
    with pytest.raises(gs.DTypeError, match=r"onnx\.ScatterND .*updates \[5\.5\] read as float64"):
        gs.onnx.ScatterND([1, 2, 3], [[0]], [5.5])
    with pytest.raises(gs.DTypeError):
        gs.onnx.ScatterND(np.array([1, 2, 3]), np.array([[0]]), np.array([5.5]))


@pytest.mark.parametrize(
    ("data", "updates", "expected"),
    [
        (np.zeros(2, np.float32), [1, 2.5], np.array([1, 2.5], np.float32)),  # int and float lists into floats
        (np.zeros(2, np.float16), [True, 3], np.array([1, 3], np.float16)),
        (np.zeros(2, np.complex64), [1.5, 2], np.array([1.5, 2], np.complex64)),
        (np.zeros(2, np.uint8), [0, 255], np.array([0, 255], np.uint8)),  # ints that fit the range
        (np.zeros(2, np.int8), [-128, 127], np.array([-128, 127], np.int8)),
        (np.zeros(2, bool), [True, False], np.array([True, False])),
        (np.array(["ab", "cd"]), ["x", "yz"], np.array(["x", "yz"])),  # strings that fit the width
        (np.array([None, None], object), [1, "a"], np.array([1, "a"], object)),  # object data takes anything
        (np.zeros(2, np.int32), [], None),  # an empty list holds no value (the shape rule decides)
    ],
)
def test_lists_that_keep_their_values_take_the_data_dtype(data, updates, expected):
    if expected is None:
        with pytest.raises(gs.ShapeError):
            gs.onnx.ScatterElements(data, [0, 1], updates)
        return
    out = gs.onnx.ScatterElements(data, [0, 1], updates)
    assert out.dtype == data.dtype
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("data", "updates", "fragment"),
    [
        (np.zeros(2, np.uint8), [1, 300], r"\(300 at position \[1\]\): outside the uint8 range \[0, 255\]"),
        (np.zeros(2, np.uint8), [-1, 0], r"\(-1 at position \[0\]\): outside the uint8 range"),
        (np.zeros(2, np.int64), [2**63, 2**63], r"\(9223372036854775808 at position \[0\]\): outside the int64 range"),
        (np.zeros(2, np.float16), [1.0, 7e4], r"\(70000\.0 at position \[1\]\): too large for float16"),
        (np.zeros(2, bool), [1, 0], r"\(1 at position \[0\]\): integer values into bool data"),
        (np.zeros(2, np.float64), [1, 2j], r"complex values into float data"),
        (np.array(["ab", "cd"]), ["x", "xyz"], r"\('xyz' at position \[1\]\): longer than the data's str width 2"),
        (np.zeros(2), ["1", "2"], r"str values cannot be written into float64 data"),
        (np.zeros(2), [None, 1.0], r"\(None at position \[0\]\): object values cannot be written into float64"),
    ],
)
def test_lists_that_would_change_a_value_are_dtype_errors(data, updates, fragment):
    before = data.copy()
    with pytest.raises(gs.DTypeError, match=fragment):
        gs.onnx.ScatterElements(data, [0, 1], updates)
    assert np.array_equal(data, before)


def test_scalars_follow_the_same_rule():
    with pytest.raises(gs.DTypeError, match=r"values 2\.5 read as float64, which int64 data cannot hold"):
        gs.paddle.put_along_axis([1, 2, 3], [0], 2.5, 0)
    assert gs.paddle.put_along_axis(np.zeros(3, np.float32), [0], 2, 0).tolist() == [2.0, 0.0, 0.0]
