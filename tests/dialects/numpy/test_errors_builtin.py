"""Every gs.numpy error is also the builtin exception NumPy 2.4 raises for the same call (code catching NumPy's
error catches ours): each case runs through real NumPy and through gatherscatter."""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.errors import GatherScatterError

A = np.arange(6.0).reshape(2, 3)
I0 = np.array([[0]])


def _put(a, ind, v, **kw):
    a = a.copy()
    np.put(a, ind, v, **kw)


def _put_along_axis(arr, indices, values, axis):
    arr = arr.copy()
    np.put_along_axis(arr, indices, values, axis)


def _add_at(a, indices, *b):
    a = np.array(a, copy=True)
    np.add.at(a, indices, *b)


OPS = {
    "take": (np.take, gs.numpy.take),
    "take_along_axis": (np.take_along_axis, gs.numpy.take_along_axis),
    "put_along_axis": (_put_along_axis, gs.numpy.put_along_axis),
    "put": (_put, gs.numpy.put),
    "add_at": (_add_at, gs.numpy.add_at),
}

# (op, args, kwargs, the builtin NumPy 2.4 raises: measured, and asserted again below against NumPy itself)
CASES = [
    ("take", (A, [0.5]), {}, None),  # NumPy truncates Python floats: no error
    ("take", (A, np.array([0.5])), {}, TypeError),
    ("take", (A, [7]), {}, IndexError),
    ("take", (A, [-7]), {}, IndexError),
    ("take", (A, [0], 5), {}, ValueError),  # AxisError is a ValueError and an IndexError
    ("take", (A, [0], 1.0), {}, TypeError),
    ("take", (A, "x"), {}, ValueError),
    ("take", (A, [0]), {"mode": "bad"}, ValueError),
    ("take_along_axis", (A, np.array([[0.0]]), 0), {}, IndexError),
    ("take_along_axis", (A, np.array([[True]]), 0), {}, IndexError),
    ("take_along_axis", (A, np.array([[5]]), 0), {}, IndexError),
    ("take_along_axis", (A, np.array([[-5]]), 1), {}, IndexError),
    ("take_along_axis", (A, np.array([0]), 0), {}, ValueError),
    ("take_along_axis", (A, I0, 2), {}, ValueError),
    ("take_along_axis", (A, I0, 1.0), {}, TypeError),
    ("take_along_axis", (A, np.zeros((3, 3), int), 1), {}, IndexError),
    ("take_along_axis", (A, I0, None), {}, ValueError),
    ("put_along_axis", (A, np.array([[0.0]]), 1, 0), {}, IndexError),
    ("put_along_axis", (A, np.array([[True]]), 1, 0), {}, IndexError),
    ("put_along_axis", (A, np.array([[5]]), 1, 0), {}, IndexError),
    ("put_along_axis", (A, I0, 1, 2), {}, ValueError),
    ("put_along_axis", (A, I0, [1, 2, 3, 4], 0), {}, ValueError),
    ("put_along_axis", (A, np.zeros((3, 3), int), 1, 1), {}, IndexError),
    ("put", (A, np.array([0.5]), 1), {}, TypeError),
    ("put", (A, [9], 1), {}, IndexError),
    ("put", (A, [0], 1), {"mode": "bad"}, ValueError),
    ("put", (A, np.array([0], np.uint64), 1), {}, TypeError),
    ("put", (A, [0], "x"), {}, ValueError),
    ("put", (np.zeros(2, np.int8), [0], [300]), {}, OverflowError),
    ("add_at", (A, [5], 1), {}, IndexError),
    ("add_at", (A, np.array([0.0]), 1), {}, IndexError),
    ("add_at", (A, [0.0], 1), {}, IndexError),
    ("add_at", (A, 1.0, 1), {}, IndexError),
    ("add_at", (A, np.array([True]), 1), {}, IndexError),
    ("add_at", (A, (0, 0, 0), 1), {}, IndexError),
    ("add_at", (A, ([0, 1], [0, 1, 2]), 1), {}, IndexError),
    ("add_at", (np.zeros(3), [0, 1], [1, 2, 3]), {}, ValueError),
    ("add_at", (A, "x", 1), {}, IndexError),
    ("add_at", (A, (Ellipsis, Ellipsis), 1), {}, IndexError),
    ("add_at", (A, [0]), {}, ValueError),  # b omitted: "second operand needed for ufunc"
    ("add_at", (A, [0], None), {}, TypeError),  # NumPy reads None as an object b (ours: b omitted; both catch)
]


@pytest.mark.parametrize(("op", "args", "kwargs", "builtin"), CASES)
def test_our_error_is_numpys_builtin(op, args, kwargs, builtin):
    theirs, ours = OPS[op]
    if builtin is None:
        theirs(*args, **kwargs)
        ours(*args, **kwargs)
        return
    with pytest.raises(builtin) as their_error:
        theirs(*args, **kwargs)
    with pytest.raises(builtin) as our_error:
        ours(*args, **kwargs)
    assert isinstance(our_error.value, GatherScatterError)
    # every builtin base of NumPy's error is one of ours
    for cls in type(their_error.value).__mro__:
        if cls.__module__ == "builtins":
            assert isinstance(our_error.value, cls), (cls, type(our_error.value))
