"""Array inputs of ``keras.ops`` found by the list helper: 0-d ``x`` (torch), float index arrays (tensorflow's
``take_along_axis``), ``scatter_update(..., reduction=)``: the calls compared with the real Keras.

``CASES`` is a list of ``(label, op, args, kwargs)``, run through ``keras_list_worker.py`` by ``test_keras.py``'s
opt-in comparison (``pytest -m keras``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Case = tuple[str, str, tuple[Any, ...], dict[str, Any]]


def _cases() -> list[Case]:
    out: list[Case] = []
    x0 = np.array(7.0, np.float32)
    for op in ("take", "take_along_axis"):
        for il, ind in {"0-d": np.array(0), "1-d": np.array([0]), "0-d -1": np.array(-1), "1-d empty":
                        np.array([], np.int64)}.items():
            for axis in (None, 0):
                out.append((f"{op} 0-d x, {il} indices, axis={axis}", op, (x0, ind), {"axis": axis}))
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    fl = {"0.5/1.9/-0.5": [[0.5, 1.9, -0.5]], "-1.5/-2.9/2.99": [[-1.5, -2.9, 2.99]], "nan": [[np.nan, 0, 1]],
          "inf": [[np.inf, 0, 1]], "-inf": [[-np.inf, 0, 1]], "3.5 (out of range)": [[3.5, 0, 1]],
          "-3.5": [[-3.5, 0, 1]], "-0.9": [[-0.9, 0, 1]], "1e10": [[1e10, 0, 1]]}
    for dt in ("float16", "float32", "float64"):
        for lab, v in fl.items():
            with np.errstate(over="ignore"):  # 1e10 is inf in float16
                ind = np.repeat(np.array(v, dt), 2, axis=0)
            out.append((f"take_along_axis {dt} indices {lab} axis=1", "take_along_axis", (x, ind), {"axis": 1}))
        out.append((f"take_along_axis {dt} indices axis=None", "take_along_axis", (x, np.array([0.5, 5.2, -1.5], dt)),
                    {"axis": None}))
        out.append((f"take {dt} indices axis=1", "take", (x, np.array([0.5, 2.2], dt)), {"axis": 1}))
    # scatter_update(reduction=)
    dup = np.array([[1], [1], [3]])
    for red in (None, "add", "max", "min", "mul", "ADD", "Mul"):
        for dt in ("float32", "int32"):
            upd = np.array([5, -7, 2], dt)
            out.append((f"scatter_update reduction={red} {dt} duplicates", "scatter_update",
                        (np.array([1, 2, 3, 4], dt), dup, upd),
                        {"reduction": red}))
        def base2() -> np.ndarray:  # a fresh array per call: the numpy backend writes into its inputs
            return np.arange(6, dtype=np.float32).reshape(3, 2)

        out.append((f"scatter_update reduction={red} rows", "scatter_update",
                    (base2(), np.array([[2], [0], [2]]), np.float32([[1, 1], [10, -1], [3, 9]])), {"reduction": red}))
        out.append((f"scatter_update reduction={red} negative", "scatter_update",
                    (np.float32([1, 2, 3, 4]), np.array([[-1], [0]]), np.float32([5, 6])), {"reduction": red}))
        out.append((f"scatter_update reduction={red} out of range", "scatter_update",
                    (np.float32([1, 2, 3, 4]), np.array([[4], [0]]), np.float32([5, 6])), {"reduction": red}))
        out.append((f"scatter_update reduction={red} float64", "scatter_update",
                    (np.float64([1, 2, 3, 4]), np.array([[1], [1]]), np.float64([0.1, 0.2])), {"reduction": red}))
        out.append((f"scatter_update reduction={red} nan", "scatter_update",
                    (np.float32([1, np.nan, 3, 4]), np.array([[1], [0]]), np.float32([5, np.nan])), {"reduction": red}))
        out.append((f"scatter_update reduction={red} 2-d full", "scatter_update",
                    (base2(), np.array([[2, 1], [2, 1]]), np.float32([3, 4])), {"reduction": red}))
    out.append(("scatter_update reduction=add 3-d indices", "scatter_update",
                (np.zeros((3, 2), np.float32), np.array([[[1, 0]], [[0, 1]]]), np.float32([[5, 7]])), {"reduction": "add"}))
    out.append(("scatter_update reduction=max int8 past", "scatter_update",
                (np.int8([100, 2]), np.array([[0], [0]]), np.int8([100, 100])), {"reduction": "add"}))
    for bad in ("sum", "", "none", 1, b"add"):
        out.append((f"scatter_update reduction={bad!r}", "scatter_update",
                    (np.float32([1, 2]), np.array([[0]]), np.float32([5])), {"reduction": bad}))
    return out


CASES: list[Case] = _cases()
