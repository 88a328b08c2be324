"""The shared parts of the torch ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: PyTorch 2.13 (negative indices raise in every op but take/take_along_dim/index_fill/index_put).

The ``index_*`` ops (``index_add``, ``index_copy``, ``index_fill``,
``index_reduce``) address whole slices along ``dim``: their canonical call is an
nd scatter with one-component index tuples into ``moveaxis(input, dim, 0)``
(docs/semantics.md#e13/docs/semantics.md#e17), moved back afterwards. ``index_put`` stacks its index tuple
(docs/semantics.md#e12).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._record import Description, Residual, Step, canonical, moved_axis_args
from .._registry import Registrar, dialect_op
from ._common import GRAD, VERSION


def torch_op(name: str, **record: Any) -> Registrar:
    """Registers the op ``torch.<name>`` (:func:`~gatherscatter.dialects._registry.dialect_op`) with what every
    torch op shares: torch's one version (:data:`VERSION`) and gradient conventions (:data:`GRAD`, unless the
    op states its own ``grad``)."""
    return dialect_op("torch", name, **{"versions": (VERSION,), "grad": GRAD, **record})

_HALF = Residual("dtype", "accumulates float16/bfloat16 sums and products in float32 and rounds once",
                 "rounds at every step in the data dtype")


_MEAN_COUNT = Residual("dtype", "counts mean contributions in the data dtype (int8/uint8/int16/float16/bfloat16 "
                       "wrap or round the count)", "counts exactly")


_BOOL_MASK = Residual("dtype", "reads a bool index array as a mask (its nonzero positions)",
                      "reads integer index arrays only")


_EMPTY_UNCHECKED = Residual("empty", "returns input unchanged without checking the indices when input (rank >= 2) "
                            "or its selected slices are empty", "checks the indices (an index into a size-0 axis "
                            "raises)")


_INT = ("int32", "int64")


_I64 = ("int64",)


def _rank(dim: int) -> tuple[int, int]:
    need = dim + 1 if dim >= 0 else -dim
    return (need, need + 1)


def _unflatten(data: str, index: str) -> Any:
    """Flat-data sources: give the source a 2-d reshape of the canonical 1-d data when the size allows."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        d = canon["data"]
        if d.ndim == 1 and d.size % 2 == 0 and d.size and rng.random() < 0.6:
            d = d.reshape(2, -1)
        return {data: d, index: canon["indices"]}

    return mapper


def _index_axis_source(op: str, dim: int, attrs: dict[str, Any], *, reduction: str, negative: str,
                       index_dtypes: tuple[str, ...], source_input: str | None = "source", value: Any = None,
                       alpha: Any = 1, include_self: bool = True, duplicates_specified: bool = True,
                       residuals: list[Residual] | None = None) -> Description:
    """``index_add``/``index_copy``/``index_fill``/``index_reduce``: nd scatter into ``moveaxis(input, dim, 0)``."""
    why = f"{op} writes whole slices along dim: move dim first (docs/semantics.md#e13)"
    pre = [Step.adapt("moveaxis", "data0", "input", source=dim, destination=0, why=why),
           Step.adapt("flatten", "index1", "index", why="a 0-d index is one entry"),
           Step.adapt("expand_dims", "tuples", "index1", axis=-1, why="one-component index tuples")]
    inputs: tuple[str, ...] = ("input", "index")
    if source_input is not None:
        s = source_input
        if alpha != 1:
            pre.append(Step.adapt("scale", "scaled", s, alpha=alpha, why="index_add adds alpha * source"))
            s = "scaled"
        pre.append(Step.adapt("moveaxis", "upd", s, source=dim, destination=0, why="source slices along dim too"))
        inputs = ("input", "index", source_input)
    else:
        pre.append(Step.adapt("full_slices", "upd", "tuples", "data0", value=value,
                              why="index_fill writes one number into every selected slice"))
    c = canonical("scatter_nd", data="data0", indices="tuples", updates="upd", out="y", reduction=reduction,
                  negative=negative, include_self=include_self, duplicates_specified=duplicates_specified)
    post = [Step.adapt("moveaxis", "out", "y", source=0, destination=dim, why="move dim back")]
    layout: dict[str, Any] = {"index_dtypes": index_dtypes, "k": 1, "index_ndim": (1, 1), "rank": _rank(dim),
                              "to_source": moved_axis_args(dim, "input", "index", source_input)}
    return Description(op, attrs, inputs, c, pre=pre, post=post, residuals=residuals or [], layout=layout)
