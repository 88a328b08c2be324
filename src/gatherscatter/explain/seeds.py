"""The worked examples of the seed documents, as data.

Each :class:`SeedExample` holds the call the seed describes and the result the
seed prints, typed in by hand from the seed text (never computed by us), so
that the tour can check the library against it.

Seeds: (A) PathPartner, "All About Gather-Scatter Operation in Deep Learning
Framework" (2020); (B) OpenVINO GatherElements-6 specification; (C) ONNX
ScatterND-18 operator documentation. Seed (A) draws its GatherElements and
ScatterElements examples as pictures only, and cites the ONNX operator
documentation for them (its reference 1 and 2): those examples are typed from
that documentation (ONNX GatherElements-13 examples 1 and 2, ScatterElements-18
example 1).
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
    fallback: tuple[str, dict[str, Any]] | None = None
    """``(op, extra kwargs)`` to run instead while ``op`` is not registered yet."""


SEED_EXAMPLES: tuple[SeedExample, ...] = (
    SeedExample(
        "ONNX GatherElements, example 1 (axis 1)",
        "ONNX GatherElements documentation, example 1 (PathPartner 2020, reference 1)",
        "onnx.GatherElements",
        ([[1, 2], [3, 4]], [[0, 0], [1, 0]]),
        {"axis": 1},
        expected=[[1, 1], [4, 3]],
        note="out[i][j] = data[i][indices[i][j]]: the column comes from the index, the row from the position.",
    ),
    SeedExample(
        "ONNX GatherElements, example 2 (axis 0)",
        "ONNX GatherElements documentation, example 2 (PathPartner 2020, reference 1)",
        "onnx.GatherElements",
        ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 2, 0], [2, 0, 0]]),
        {"axis": 0},
        expected=[[4, 8, 3], [7, 2, 3]],
        note="out[i][j] = data[indices[i][j]][j]: the row comes from the index, the column from the position.",
    ),
    SeedExample(
        "OpenVINO GatherElements-6, example 1 (axis 0)",
        "OpenVINO GatherElements-6 spec, example 1",
        "openvino.GatherElements",
        ([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0),
        expected=[[1, 4], [1, 2]],
        fallback=("onnx.GatherElements", {}),
        note="out[i][j] = data[indices[i][j]][j]: the row comes from the index, the column from the position.",
    ),
    SeedExample(
        "OpenVINO GatherElements-6, example 2 (indices longer than data on the axis)",
        "OpenVINO GatherElements-6 spec, example 2",
        "openvino.GatherElements",
        ([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], 1),
        expected=[[7, 7, 1], [3, 4, 3]],
        fallback=("onnx.GatherElements", {}),
        note="The output has the shape of indices, which may be longer than data along the axis.",
    ),
    SeedExample(
        "OpenVINO GatherElements-6, example 3 (indices shorter than data)",
        "OpenVINO GatherElements-6 spec, example 3",
        "openvino.GatherElements",
        ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]], 0),
        expected=[[4, 2, 6], [4, 8, 3]],
        fallback=("onnx.GatherElements", {}),
        note="Shorter indices read only the leading rows' positions.",
    ),
    SeedExample(
        "ONNX ScatterElements, example 1 (axis 0)",
        "ONNX ScatterElements documentation, example 1 (PathPartner 2020, reference 2)",
        "onnx.ScatterElements",
        (
            [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
            [[1, 0, 2], [0, 2, 1]],
            [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]],
        ),
        expected=[[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]],
        note="output[indices[i][j]][j] = updates[i][j]: each update keeps its column; untouched cells keep data.",
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
        "mxnet.gather_nd",
        ([[1, 2], [3, 4]], [[-2, 0], [1, 1]]),
        expected=[2, 2],
        fallback=("gatherscatter.gather_nd", {"index_axis": 0}),
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
