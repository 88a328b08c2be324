"""Sources: PyTorch 2.13 (negative indices raise in every op but take/take_along_dim/index_fill/index_put).

The ``index_*`` ops (``index_add``, ``index_copy``, ``index_fill``,
``index_reduce``) address whole slices along ``dim``: their canonical call is an
nd scatter with one-component index tuples into ``moveaxis(input, dim, 0)``
(docs/semantics.md#e13/docs/semantics.md#e17), moved back afterwards. ``index_put`` stacks its index tuple
(docs/semantics.md#e12).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import UnsupportedError
from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_bool, check_choice, check_int, moved_axis_args, tuple_index_args

_REDUCE = {"sum": "add", "prod": "mul", "mean": "mean", "amax": "max", "amin": "min", "max": "max", "min": "min"}

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


@source("torch.gather")
def gather(dim: int) -> Source:
    dim = check_int("torch.gather", "dim", dim)
    c = canonical("gather_elements", data="input", indices="index", axis=dim, negative="raise")
    return Source("torch.gather", {"dim": dim}, ("input", "index"), c, layout={"index_dtypes": _INT})


@source("torch.take")
def take() -> Source:
    c = canonical("gather", data="flat", indices="index", axis=0)
    pre = [Step.adapt("flatten", "flat", "input", why="torch.take reads the flattened input")]
    return Source("torch.take", {}, ("input", "index"), c, pre=pre,
                  layout={"index_dtypes": _I64, "to_source": _unflatten("input", "index")})


def _unflatten(data: str, index: str) -> Any:
    """Flat-data sources: give the source a 2-d reshape of the canonical 1-d data when the size allows."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        d = canon["data"]
        if d.ndim == 1 and d.size % 2 == 0 and d.size and rng.random() < 0.6:
            d = d.reshape(2, -1)
        return {data: d, index: canon["indices"]}

    return mapper


@source("torch.take_along_dim")
def take_along_dim(dim: int | None = None) -> Source:
    dim = check_int("torch.take_along_dim", "dim", dim, optional=True)
    if dim is None:
        c = canonical("gather", data="flat", indices="flat_index", axis=0, negative="raise")
        pre = [Step.adapt("flatten", "flat", "input", why="dim=None reads the flattened input"),
               Step.adapt("flatten", "flat_index", "indices", why="... with the flattened indices (1-d result)")]
        return Source("torch.take_along_dim", {"dim": None}, ("input", "indices"), c, pre=pre,
                      layout={"index_dtypes": _INT, "to_source": _unflatten("input", "indices")})
    c = canonical("gather_elements", data="input", indices="indices", axis=dim, broadcast=True,
                  negative="bounds", bounds="wrap")
    return Source("torch.take_along_dim", {"dim": dim}, ("input", "indices"), c, layout={"index_dtypes": _I64})


@source("torch.index_select")
def index_select(dim: int) -> Source:
    dim = check_int("torch.index_select", "dim", dim)
    c = canonical("gather", data="input", indices="index1", axis=dim, negative="raise")
    pre = [Step.adapt("flatten", "index1", "index", why="a 0-d index keeps a size-1 dim "
                                                        "(docs/semantics.md#pitfall-13)")]
    return Source("torch.index_select", {"dim": dim}, ("input", "index"), c, pre=pre,
                  layout={"index_dtypes": _INT, "index_ndim": (0, 1)})


@source("torch.scatter")
def scatter(dim: int, value: Any = None, reduce: str | None = None) -> Source:
    """``value=None``: the ``src`` overload (inputs input, index, src); a number: the ``value`` overload."""
    op = "torch.scatter"
    dim = check_int(op, "dim", dim)
    check_choice(op, "reduce", reduce, (None, "add", "multiply"))
    r = {None: "none", "add": "add", "multiply": "mul"}[reduce]
    attrs: dict[str, Any] = {"dim": dim, "reduce": reduce}
    res = [_HALF] if r != "none" else []
    kw: dict[str, Any] = dict(axis=dim, reduction=r, negative="raise", duplicates_specified=False)
    layout: dict[str, Any] = {"index_dtypes": _INT, "smaller_index": True}
    if value is None:
        c = canonical("scatter_elements", data="input", indices="index", updates="src1", **kw)
        pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
        layout["larger_updates"] = True
        return Source(op, attrs, ("input", "index", "src"), c, pre=pre, residuals=res, layout=layout)
    if isinstance(value, (list, tuple)) or np.ndim(value):
        raise UnsupportedError(f"translate {op}: value must be a number (got {value!r}); pass an array as src")
    attrs["value"] = value
    c = canonical("scatter_elements", data="input", indices="index", updates="filled", **kw)
    pre = [Step.adapt("full_updates", "filled", "index", "input", value=value,
                      why="scatter(value=) writes one number at every index")]
    return Source(op, attrs, ("input", "index"), c, pre=pre, residuals=res, layout=layout)


@source("torch.scatter_add")
def scatter_add(dim: int) -> Source:
    dim = check_int("torch.scatter_add", "dim", dim)
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction="add",
                  negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    return Source("torch.scatter_add", {"dim": dim}, ("input", "index", "src"), c, pre=pre, residuals=[_HALF],
                  layout={"index_dtypes": _INT, "smaller_index": True, "larger_updates": True})


@source("torch.scatter_reduce")
def scatter_reduce(dim: int, reduce: str, include_self: bool = True) -> Source:
    op = "torch.scatter_reduce"
    dim = check_int(op, "dim", dim)
    r = _REDUCE[check_choice(op, "reduce", reduce, tuple(_REDUCE))]
    include_self = check_bool(op, "include_self", include_self)
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction=r,
                  include_self=include_self, negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    res = [_HALF] if r in ("add", "mul", "mean") else []
    if r == "mean":
        res.append(_MEAN_COUNT)
    return Source(op, {"dim": dim, "reduce": reduce, "include_self": include_self},
                  ("input", "index", "src"), c, pre=pre, residuals=res,
                  layout={"index_dtypes": _INT, "smaller_index": True, "larger_updates": True,
                          "nonfinite": 0.1 if r in ("max", "min") else 0.0})


def _index_axis_source(op: str, dim: int, attrs: dict[str, Any], *, reduction: str, negative: str,
                       index_dtypes: tuple[str, ...], source_input: str | None = "source", value: Any = None,
                       alpha: Any = 1, include_self: bool = True, duplicates_specified: bool = True,
                       residuals: list[Residual] | None = None) -> Source:
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
    return Source(op, attrs, inputs, c, pre=pre, post=post, residuals=residuals or [], layout=layout)


@source("torch.index_add")
def index_add(dim: int, alpha: Any = 1) -> Source:
    dim = check_int("torch.index_add", "dim", dim)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, complex)):
        raise UnsupportedError(f"translate torch.index_add: alpha must be a number (got {alpha!r})")
    return _index_axis_source("torch.index_add", dim, {"dim": dim, "alpha": alpha}, reduction="add",
                              negative="raise", index_dtypes=_INT, alpha=alpha, residuals=[_HALF, _EMPTY_UNCHECKED])


@source("torch.index_copy")
def index_copy(dim: int) -> Source:
    dim = check_int("torch.index_copy", "dim", dim)
    return _index_axis_source("torch.index_copy", dim, {"dim": dim}, reduction="none", negative="raise",
                              index_dtypes=_I64, duplicates_specified=False,
                              residuals=[_EMPTY_UNCHECKED])


@source("torch.index_fill")
def index_fill(dim: int, value: Any) -> Source:
    dim = check_int("torch.index_fill", "dim", dim)
    if isinstance(value, (list, tuple)) or np.ndim(value):
        raise UnsupportedError(f"translate torch.index_fill: value must be a number (got {value!r})")
    return _index_axis_source("torch.index_fill", dim, {"dim": dim, "value": value}, reduction="none",
                              negative="wrap", index_dtypes=_I64, source_input=None, value=value,
                              residuals=[_EMPTY_UNCHECKED])


@source("torch.index_reduce")
def index_reduce(dim: int, reduce: str, include_self: bool = True) -> Source:
    op = "torch.index_reduce"
    dim = check_int(op, "dim", dim)
    r = {"prod": "mul", "mean": "mean", "amax": "max", "amin": "min"}[
        check_choice(op, "reduce", reduce, ("prod", "mean", "amax", "amin"))]
    include_self = check_bool(op, "include_self", include_self)
    res = [_MEAN_COUNT] if r == "mean" else []
    return _index_axis_source(op, dim, {"dim": dim, "reduce": reduce, "include_self": include_self},
                              reduction=r, negative="raise", index_dtypes=_INT, include_self=include_self,
                              residuals=res)


@source("torch.index_put")
def index_put(accumulate: bool = False) -> Source:
    """``indices`` is a tuple of integer index arrays (bool masks: the ``dtype`` residual)."""
    accumulate = check_bool("torch.index_put", "accumulate", accumulate)
    pre = [Step.adapt("stack_last", "tuples", "indices", why="one index tuple per broadcast position "
                                                             "(docs/semantics.md#e12)"),
           Step.adapt("broadcast_updates", "upd", "values", "tuples", "input",
                      why="values broadcast to input[indices]")]
    c = canonical("scatter_nd", data="input", indices="tuples", updates="upd",
                  reduction="add" if accumulate else "none", duplicates_specified=accumulate)
    res = [_BOOL_MASK]
    return Source("torch.index_put", {"accumulate": accumulate}, ("input", "indices", "values"), c, pre=pre,
                  residuals=res, layout={"index_dtypes": _INT, "to_source": tuple_index_args(
                      "input", "indices", "values", broadcast=0.3)})
