"""gs.tensorflow errors against TensorFlow's own: where TF raises a builtin class (TypeError / ValueError from its
Python wrappers) ours is that class too. TF's kernel errors (InvalidArgumentError, NotFoundError) derive from
Exception only, so any of ours is catchable as theirs. Opt-in: needs tensorflow (e.g. /work/venvs/fw)."""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.errors import GatherScatterError

P = np.arange(6, dtype=np.float32).reshape(2, 3)
ONE = np.array([1.0], np.float32)

# (op, args, kwargs, our class): each also run through TF in test_against_tensorflow
CASES = [
    ("gather", (P, [0]), {"axis": 1.5}, gs.ArgumentError),
    ("gather", (P, [0]), {"batch_dims": 1.5}, gs.ArgumentError),
    ("gather", (P, [0.5]), {}, gs.DTypeError),
    ("gather", (P, [5]), {}, gs.IndexOutOfRangeError),
    ("gather", (P, [0]), {"axis": 5}, gs.AxisError),
    ("gather", (P, [[0]]), {"axis": 1, "batch_dims": 3}, gs.AxisError),
    ("gather", (P, np.array([0], np.uint8)), {}, gs.DTypeError),
    ("gather", (P, "x"), {}, gs.DTypeError),
    ("gather_nd", (P, [[0, 5]]), {}, gs.IndexOutOfRangeError),
    ("gather_nd", (P, [[0.5]]), {}, gs.DTypeError),
    ("gather_nd", (P, [[0]]), {"batch_dims": -1}, gs.AxisError),  # TF: ValueError
    ("gather_nd", (P, [[0, 0, 0]]), {}, gs.ShapeError),
    ("gather_nd", (P, [[0]]), {"batch_dims": None}, gs.ArgumentError),  # TF: TypeError
    ("scatter_nd", ([[0]], [1.0], [3.5]), {}, gs.DTypeError),  # TF: TypeError
    ("scatter_nd", ([[5]], ONE, [3]), {}, gs.IndexOutOfRangeError),
    ("scatter_nd", ([[0.5]], ONE, [3]), {}, gs.DTypeError),
    ("scatter_nd", ([[0]], np.array([1.0, 2.0], np.float32), [3]), {}, gs.ShapeError),
    ("tensor_scatter_nd_update", (P, [[0]], np.ones((1, 4), np.float32)), {}, gs.ShapeError),
    ("tensor_scatter_nd_add", (P, [[9]], np.ones((1, 3), np.float32)), {}, gs.IndexOutOfRangeError),
    ("tensor_scatter_nd_add", (P, [[0]], "x"), {}, gs.DTypeError),  # TF: TypeError
]


@pytest.mark.parametrize(("op", "args", "kwargs", "cls"), CASES)
def test_our_class(op, args, kwargs, cls):
    with pytest.raises(cls):
        getattr(gs.tensorflow, op)(*args, **kwargs)


def test_against_tensorflow():
    tf = pytest.importorskip("tensorflow")
    for op, args, kwargs, _ in CASES:
        with pytest.raises(Exception) as theirs:  # noqa: PT011 - TF's class is what is compared
            getattr(tf, op)(*args, **kwargs)
        with pytest.raises(GatherScatterError) as ours:
            getattr(gs.tensorflow, op)(*args, **kwargs)
        for base in type(theirs.value).__mro__:
            if base.__module__ == "builtins" and base is not Exception:
                assert isinstance(ours.value, base), (op, args, kwargs, type(theirs.value), type(ours.value))
