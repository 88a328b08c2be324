"""Python-list, tuple and scalar arguments to the six ``keras.ops`` ops: the calls compared with the real Keras.

``CASES`` is a list of ``(label, op, args, kwargs)``; each argument that may be a Python value is varied in
turn (int, float, bool and mixed lists, nested and ragged lists, empty lists, scalars, tuples, ints past int32)
with the others NumPy arrays, and a few calls pass only Python values. Used by ``test_keras.py``'s opt-in
comparison (``pytest -m keras``) through ``keras_list_worker.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Case = tuple[str, str, tuple[Any, ...], dict[str, Any]]

BIG = 2**40 + 1
#: Python values an array argument may be given as (label -> value); 1-D ones have 3 elements
VALUES: dict[str, Any] = {
    "int list": [1, 2, 3],
    "float list": [1.5, 2.5, 3.5],
    "bool list": [True, False, True],
    "mixed int/float list": [1, 2.5, 3],
    "mixed bool/int list": [True, 2, 3],
    "tuple": (1.5, 2.5, 3.5),
    "int tuple": (1, 2, 3),
    "big int list": [BIG, 2, 3],
    "big float list": [1e40, 2.5, 3.5],
    "list of arrays": [np.float64(1.5), np.float64(2.5), np.float64(3.5)],
    "ragged list": [[1, 2], [3]],
    "empty list": [],
    "int": 7,
    "float": 2.5,
    "bool": True,
}
#: index values: label -> (indices for a 1-D data of 3 elements)
INDEX_VALUES: dict[str, Any] = {
    "int list": [2, 0],
    "negative int list": [-1, 0],
    "int tuple": (2, 0),
    "nested int list": [[2], [0]],
    "float list": [2.0, 0.0],
    "mixed int/float list": [2, 0.0],
    "bool list": [True, False],
    "big int list": [BIG, 0],
    "empty list": [],
    "int": 1,
    "negative int": -1,
    "float": 1.0,
    "ragged list": [[2], [0, 1]],
}


def _cases() -> list[Case]:
    out: list[Case] = []
    f3 = np.float32([1.5, 2.5, 3.5])
    # take / take_along_axis: x varied (indices an int64 array), then indices varied (x a float32 array)
    for label, v in VALUES.items():
        out.append((f"take x={label}", "take", (v, np.array([0])), {}))
        out.append((f"take x={label} axis=0", "take", (v, np.array([0])), {"axis": 0}))
        out.append((f"take_along_axis x={label}", "take_along_axis", (v, np.array([0])), {"axis": 0}))
        out.append((f"take_along_axis x={label} axis=None", "take_along_axis", (v, np.array([0])), {}))
    for label, v in INDEX_VALUES.items():
        out.append((f"take indices={label}", "take", (f3, v), {}))
        out.append((f"take indices={label} axis=0", "take", (f3, v), {"axis": 0}))
        out.append((f"take_along_axis indices={label}", "take_along_axis", (f3, v), {"axis": 0}))
    out.append(("take x=nested float list axis=1", "take", ([[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]], [2, 0]), {"axis": 1}))
    out.append(("take_along_axis x=nested int list axis=1", "take_along_axis", ([[1, 2, 3], [4, 5, 6]], [[2], [0]]),
                {"axis": 1}))
    out.append(("take all lists", "take", ([1.5, 2.5, 3.5], [2, 0]), {}))
    out.append(("take_along_axis all lists", "take_along_axis", ([1, 2, 3], [2, 0]), {"axis": 0}))
    # scatter(indices, values, shape)
    idx = np.array([[1], [3]])
    two = {k: (v[:2] if isinstance(v, (list, tuple)) and len(v) == 3 else v) for k, v in VALUES.items()}
    for label, v in two.items():
        out.append((f"scatter values={label}", "scatter", (idx, v, (4,)), {}))
    for label, v in {"int list": [[1], [3]], "int tuple": ((1,), (3,)), "float list": [[1.0], [3.0]],
                     "bool list": [[True], [False]], "mixed int/float list": [[1], [3.0]], "1-D int list": [1, 3],
                     "big int list": [[BIG], [3]], "negative int list": [[-1], [3]]}.items():
        out.append((f"scatter indices={label}", "scatter", (v, np.float32([1.5, 2.5]), (4,)), {}))
    out.append(("scatter indices=empty list", "scatter", ([], np.float32([]), (4,)), {}))
    for label, s in {"tuple": (4,), "list": [4], "int": 4, "array": np.array([4]), "float tuple": (4.0,),
                     "numpy int tuple": (np.int64(4),), "2-D tuple": (4, 2)}.items():
        out.append((f"scatter shape={label}", "scatter", (idx, np.float32([1.5, 2.5]) if label != "2-D tuple" else
                                                          np.float32([[1.5, 2.5], [3.5, 4.5]]), s), {}))
    out.append(("scatter all lists float", "scatter", ([[1], [3]], [1.5, 2.5], [4]), {}))
    out.append(("scatter all lists int", "scatter", ([[1], [3]], [1, 2], (4,)), {}))
    # scatter_update(inputs, indices, updates)
    z4 = np.zeros(4, np.float32)
    u2 = np.float32([5.5, 7.5])
    four = {k: (list(v) + [v[0]] if isinstance(v, (list, tuple)) and len(v) == 3 else v) for k, v in VALUES.items()}
    for label, v in four.items():
        out.append((f"scatter_update inputs={label}", "scatter_update", (v, idx, u2), {}))
    out.append(("scatter_update inputs=nested float list", "scatter_update",
                ([[0.5, 0.5], [0.5, 0.5]], np.array([[1, 0]]), np.float32([9.5])), {}))
    for label, v in {"int list": [[1], [3]], "int tuple": ((1,), (3,)), "float list": [[1.0], [3.0]],
                     "bool list": [[True], [False]], "1-D int list": [1, 3], "big int list": [[BIG], [3]],
                     "negative int list": [[-1], [3]]}.items():
        out.append((f"scatter_update indices={label}", "scatter_update", (z4.copy(), v, u2), {}))
    out.append(("scatter_update indices=empty list", "scatter_update", (z4.copy(), [], np.float32([])), {}))
    for label, v in two.items():
        out.append((f"scatter_update updates={label}", "scatter_update", (z4.copy(), idx, v), {}))
        out.append((f"scatter_update updates={label} int32 inputs", "scatter_update",
                    (np.zeros(4, np.int32), idx, v), {}))
    out.append(("scatter_update all lists float", "scatter_update", ([0.5, 0.5, 0.5, 0.5], [[1], [3]], [5.5, 7.5]), {}))
    out.append(("scatter_update all lists int", "scatter_update", ([0, 0, 0, 0], [[1], [3]], [5, 7]), {}))
    # segment_sum / segment_max(data, segment_ids, num_segments)
    for op in ("segment_sum", "segment_max"):
        for label, v in VALUES.items():
            ids = np.array([0, 0, 2] if not isinstance(v, (list, tuple)) or len(v) == 3 else [0, 2][: len(v)])
            out.append((f"{op} data={label}", op, (v, ids), {"num_segments": 3}))
        out.append((f"{op} data=nested float list", op, ([[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]], np.array([0, 0, 2])),
                    {"num_segments": 3}))
        for label, v in {"int list": [0, 0, 2], "int tuple": (0, 0, 2), "float list": [0.0, 0.0, 2.0],
                         "bool list": [True, False, True], "mixed int/float list": [0, 0, 2.0],
                         "negative int list": [0, -1, 2], "big int list": [0, 0, BIG], "int": 0,
                         "nested int list": [[0], [0], [2]]}.items():
            out.append((f"{op} segment_ids={label}", op, (f3, v), {"num_segments": 3}))
        out.append((f"{op} segment_ids=empty list", op, (np.float32([]), []), {"num_segments": 3}))
        out.append((f"{op} all lists float", op, ([1.5, 2.5, 3.5], [0, 0, 2]), {"num_segments": 3}))
        out.append((f"{op} all lists int", op, ([1, 2, 3], [0, 0, 2]), {"num_segments": 3}))
        out.append((f"{op} all lists num_segments=None", op, ([1.5, 2.5, 3.5], [0, 0, 1]), {}))
        out.append((f"{op} all lists sorted", op, ([1.5, 2.5, 3.5], [0, 0, 1]), {"sorted": True}))
        out.append((f"{op} num_segments=array", op, (f3, np.array([0, 0, 2])), {"num_segments": np.int32(3)}))
    return out


CASES: list[Case] = _cases()
