"""The shared parts of the paddle ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: PaddlePaddle 3.3.1 (CPU). Negative indices wrap once in every op.

Index forms covered: ``gather`` takes a 0-d or 1-d ``index`` (a 2-d ``[n, 1]``
index, which Paddle reads as 1-d, is not distinguished from a batch of
indices: flatten it first); ``index_select`` a 1-d or ``[n, 1]`` index;
``scatter`` a 0-d, 1-d or ``[n, 1]`` index with exactly ``len(index)`` update
rows (Paddle also accepts more rows and reads the first ones).

``put_along_axis(broadcast=True)`` broadcasts ``indices`` to ``arr``'s shape
only when ``indices`` is no larger than ``arr`` on every dim, the axis
included; the description (NumPy-style broadcasting, ``broadcast=True`` in the
canonical call) is exact when ``indices.shape[axis] <= arr.shape[axis]`` or
no dim needs broadcasting. Paddle returns an empty ``x``/``arr`` unchanged
without checking the indices (the ``empty`` residual).
"""

from __future__ import annotations

from typing import Any

from .._record import Residual

_INT = ("int32", "int64")


_EMPTY = Residual("empty", "returns an empty x unchanged without checking the indices", "checks them (an index into "
                  "a size-0 axis raises)")


_TAKE = {"raise": ("wrap", "raise"), "wrap": ("bounds", "wrap"), "clip": ("bounds", "clip")}


def _rows(data: str, index: str, updates: str) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        i = canon["indices"][..., 0]
        if i.ndim == 1 and rng.random() < 0.3:
            i = i[:, None]  # the [n, 1] form
        return {data: canon["data"], index: i, updates: canon["updates"]}

    return mapper
