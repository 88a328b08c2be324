"""Sources: PaddlePaddle 3.3.1 (CPU). Negative indices wrap once in every op.

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

from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_bool, check_choice, check_int

_INT = ("int32", "int64")
_EMPTY = Residual("empty", "returns an empty x unchanged without checking the indices", "checks them (an index into "
                  "a size-0 axis raises)")
_REDUCE = {"assign": "none", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean", "amin": "min",
           "amax": "max"}
_TAKE = {"raise": ("wrap", "raise"), "wrap": ("bounds", "wrap"), "clip": ("bounds", "clip")}


@source("paddle.gather")
def gather(axis: int | None = None) -> Source:
    axis = check_int("paddle.gather", "axis", axis, optional=True)
    c = canonical("gather", data="x", indices="index", axis=0 if axis is None else axis)
    return Source("paddle.gather", {"axis": axis}, ("x", "index"), c,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 1)})


@source("paddle.index_select")
def index_select(axis: int = 0) -> Source:
    axis = check_int("paddle.index_select", "axis", axis)
    c = canonical("gather", data="x", indices="index1", axis=axis)
    pre = [Step.adapt("flatten", "index1", "index", why="a [n, 1] index reads as 1-d")]
    return Source("paddle.index_select", {"axis": axis}, ("x", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (1, 1)})


@source("paddle.gather_nd")
def gather_nd() -> Source:
    c = canonical("gather_nd", data="x", indices="index")
    return Source("paddle.gather_nd", {}, ("x", "index"), c, layout={"index_dtypes": _INT})


@source("paddle.take")
def take(mode: str = "raise") -> Source:
    op = "paddle.take"
    neg, bounds = _TAKE[check_choice(op, "mode", mode, tuple(_TAKE))]
    pre = [Step.adapt("flatten", "flat", "x", why="take reads the flattened x")]
    idx = "index"
    if mode == "raise":
        pre.append(Step.adapt("normalize_negative", "index1", "index", "flat", axis=0,
                              why="mode='raise' adds n to a negative index, then index_select wraps it once more "
                                  "(valid range [-2n, n-1])"))
        idx = "index1"
    c = canonical("gather", data="flat", indices=idx, axis=0, negative=neg, bounds=bounds)
    return Source(op, {"mode": mode}, ("x", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 2), "rank": (1, 1)})


@source("paddle.take_along_axis")
def take_along_axis(axis: int, broadcast: bool = True) -> Source:
    op = "paddle.take_along_axis"
    axis = check_int(op, "axis", axis)
    broadcast = check_bool(op, "broadcast", broadcast)
    c = canonical("gather_elements", data="arr", axis=axis, broadcast=broadcast)
    return Source(op, {"axis": axis, "broadcast": broadcast}, ("arr", "indices"), c, layout={"index_dtypes": _INT})


@source("paddle.put_along_axis")
def put_along_axis(axis: int, reduce: str = "assign", include_self: bool = True, broadcast: bool = True) -> Source:
    op = "paddle.put_along_axis"
    axis = check_int(op, "axis", axis)
    r = _REDUCE[check_choice(op, "reduce", reduce, tuple(_REDUCE))]
    include_self = check_bool(op, "include_self", include_self)
    broadcast = check_bool(op, "broadcast", broadcast)
    attrs = {"axis": axis, "reduce": reduce, "include_self": include_self, "broadcast": broadcast}
    kw: dict[str, Any] = dict(axis=axis, reduction=r, include_self=include_self, mean_rounding="floor")
    layout: dict[str, Any] = {"index_dtypes": _INT, "data_dtypes": ("float64", "float32", "int64", "int32")}
    if broadcast:
        c = canonical("scatter_elements", data="arr", indices="indices", updates="values", broadcast=True, **kw)
        layout.update(updates_broadcast=0.3, index_fits=True)
        return Source(op, attrs, ("arr", "indices", "values"), c, residuals=[_EMPTY], layout=layout)
    c = canonical("scatter_elements", data="arr", indices="indices", updates="values1", **kw)
    pre = [Step.adapt("slice_like", "values1", "values", "indices",
                      why="broadcast=False reads the leading indices-shaped block of values")]
    layout.update(smaller_index=True, larger_updates=True)
    return Source(op, attrs, ("arr", "indices", "values"), c, pre=pre, residuals=[_EMPTY], layout=layout)


@source("paddle.scatter")
def scatter(overwrite: bool = True) -> Source:
    """``overwrite=False`` zeroes every targeted row and sums its updates (docs/semantics.md#e19,
    docs/semantics.md#pitfall-10): an add scatter
    with ``include_self=False``, NOT an add onto ``x``."""
    overwrite = check_bool("paddle.scatter", "overwrite", overwrite)
    pre = [Step.adapt("flatten", "index1", "index", why="a 0-d or [n, 1] index is a list of rows"),
           Step.adapt("expand_dims", "tuples", "index1", axis=-1, why="one-component index tuples (rows of x)"),
           Step.adapt("broadcast_updates", "upd", "updates", "tuples", "x",
                      why="a 0-d index takes one row of updates")]
    if overwrite:
        c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", duplicates_specified=False)
    else:
        c = canonical("scatter_nd", data="x", indices="tuples", updates="upd", reduction="add", include_self=False)
    return Source("paddle.scatter", {"overwrite": overwrite}, ("x", "index", "updates"), c, pre=pre, residuals=[_EMPTY],
                  layout={"index_dtypes": _INT, "k": 1, "index_ndim": (0, 1),
                          "to_source": _rows("x", "index", "updates")})


def _rows(data: str, index: str, updates: str) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        i = canon["indices"][..., 0]
        if i.ndim == 1 and rng.random() < 0.3:
            i = i[:, None]  # the [n, 1] form
        return {data: canon["data"], index: i, updates: canon["updates"]}

    return mapper


@source("paddle.scatter_nd_add")
def scatter_nd_add() -> Source:
    c = canonical("scatter_nd", data="x", indices="index", updates="updates", reduction="add")
    return Source("paddle.scatter_nd_add", {}, ("x", "index", "updates"), c, residuals=[_EMPTY],
                  layout={"index_dtypes": _INT})


@source("paddle.scatter_nd")
def scatter_nd() -> Source:
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="paddle.scatter_nd adds into zeros(shape)")]
    c = canonical("scatter_nd", data="zeros", indices="index", updates="updates", reduction="add")
    return Source("paddle.scatter_nd", {}, ("index", "updates", "shape"), c, pre=pre, residuals=[_EMPTY],
                  roles={"data": "shape", "indices": "index"}, layout={"index_dtypes": _INT})
