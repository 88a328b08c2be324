"""The worked examples of the seed documents, as data.

Each :class:`SeedExample` holds the call the seed describes and the result the
seed prints, typed in by hand from the seed text (never computed by us), so
that the tour can check the library against it.

Seeds: (A) PathPartner, "All About Gather-Scatter Operation in Deep Learning
Framework" (2020); (B) OpenVINO GatherElements-6 specification; (C) ONNX
ScatterND-18 operator documentation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["SEED_EXAMPLES", "SeedExample"]

_D3 = [[[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]]] * 4
_S = [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]]
_R = [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]


@dataclass(frozen=True)
class SeedExample:
    """One worked example: ``op(*args, **kwargs)`` should print ``expected``.

    ``expected_at`` instead lists ``(position, value)`` pairs when the seed
    prints only some cells (its full tensors are pictures).
    """

    title: str
    source: str
    op: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    expected: Any = None
    expected_shape: tuple[int, ...] | None = None
    expected_at: tuple[tuple[tuple[int, ...], Any], ...] = ()
    note: str = ""


SEED_EXAMPLES: tuple[SeedExample, ...] = (
    SeedExample(
        "GatherElements, example 1 (axis 0)",
        "OpenVINO GatherElements-6 spec, example 1",
        "gatherscatter.take_along_axis",
        ([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0),
        expected=[[1, 4], [1, 2]],
        note="out[i][j] = data[indices[i][j]][j]: the row comes from the index, the column from the position.",
    ),
    SeedExample(
        "GatherElements, example 2 (indices longer than data on the axis)",
        "OpenVINO GatherElements-6 spec, example 2",
        "onnx.GatherElements",
        ([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]]),
        {"axis": 1},
        expected=[[7, 7, 1], [3, 4, 3]],
        note="The output has the shape of indices, which may be longer than data along the axis.",
    ),
    SeedExample(
        "GatherElements, example 3 (indices shorter than data)",
        "OpenVINO GatherElements-6 spec, example 3",
        "onnx.GatherElements",
        ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]]),
        {"axis": 0},
        expected=[[4, 2, 6], [4, 8, 3]],
        note="Shorter indices read only the leading rows' positions.",
    ),
    SeedExample(
        "ScatterND, example 1 (element updates)",
        "ONNX ScatterND-18 documentation, example 1",
        "onnx.ScatterND",
        ([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12]),
        expected=[1, 11, 3, 10, 9, 6, 7, 12],
        note="Each 1-tuple in indices addresses one element; every other element keeps data.",
    ),
    SeedExample(
        "ScatterND, example 2 (sheet updates)",
        "ONNX ScatterND-18 documentation, example 2",
        "onnx.ScatterND",
        (_D3, [[0], [2]], [_S, _R]),
        expected=[_S, _D3[0], _R, _D3[0]],
        note="k = 1 < rank 3: each index replaces a whole 4x4 sheet.",
    ),
    SeedExample(
        "GatherND, example 1 (lines)",
        "PathPartner 2020, GatherND example 1",
        "onnx.GatherND",
        ([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[0, 0]], [[1, 0]]]),
        expected=[[[1, 2]], [[5, 6]]],
        note="r - m = 3 - 2 = 1: each 2-tuple gathers a line; output rank q + r - m - 1 = 3.",
    ),
    SeedExample(
        "GatherND, example 2 (elements, negative index), ONNX/TF layout",
        "PathPartner 2020, GatherND example 2",
        "onnx.GatherND",
        ([[1, 2], [3, 4]], [[-2, 0], [1, 1]]),
        expected=[1, 4],
        note="Tuples are read along the LAST axis of indices: (-2, 0) -> (0, 0) and (1, 1).",
    ),
    SeedExample(
        "GatherND, example 2, MXNet layout",
        "PathPartner 2020, GatherND example 2 (MXNet)",
        "gatherscatter.gather_nd",
        ([[1, 2], [3, 4]], [[-2, 0], [1, 1]]),
        {"index_axis": 0},
        expected=[2, 2],
        note="MXNet reads tuples along the FIRST axis: (-2, 1) -> (0, 1) and (0, 1), so [2, 2].",
    ),
    SeedExample(
        "Gather (rows of a table)",
        "PathPartner 2020, Gather example",
        "onnx.Gather",
        ([[20, 30], [40, 50], [60, 70]], [[0, 1], [1, 2]]),
        {"axis": 0},
        expected_shape=(2, 2, 2),
        expected_at=(((0, 0, 0), 20), ((0, 0, 1), 30)),
        note="The seed draws data and indices as a picture and prints only output[0,0,:] = [20, 30] and "
        "the 2x2x2 output shape; the rest of data is reconstructed for the demo.",
    ),
)
