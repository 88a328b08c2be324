"""Sources: the neutral API (``gatherscatter.take`` ...), which IS the canonical form."""

from __future__ import annotations

from typing import Any

from ..model import Source
from . import canonical, source


@source("gatherscatter.take")
def take(axis: int | None = 0, batch_dims: int = 0, bounds: str = "raise", negative: str = "wrap",
         fill_value: Any = None) -> Source:
    attrs = dict(axis=axis, batch_dims=batch_dims, bounds=bounds, negative=negative, fill_value=fill_value)
    pre = []
    c = canonical("gather", axis=0 if axis is None else axis, batch_dims=batch_dims, bounds=bounds,
                  negative=negative, fill_value=fill_value)
    if axis is None:
        from ..ir import Step

        pre = [Step.adapt("flatten", "data_flat", "data", why="axis=None takes from the flattened data")]
        c = c.with_(data="data_flat")
    return Source("gatherscatter.take", attrs, ("data", "indices"), c, pre=pre)


@source("gatherscatter.take_along_axis")
def take_along_axis(axis: int, broadcast: bool = False, bounds: str = "raise", negative: str = "wrap",
                    fill_value: Any = None) -> Source:
    attrs = dict(axis=axis, broadcast=broadcast, bounds=bounds, negative=negative, fill_value=fill_value)
    c = canonical("gather_elements", axis=axis, broadcast=broadcast, bounds=bounds, negative=negative,
                  fill_value=fill_value)
    return Source("gatherscatter.take_along_axis", attrs, ("data", "indices"), c)


@source("gatherscatter.gather_nd")
def gather_nd(batch_dims: int = 0, index_axis: int = -1, bounds: str = "raise", negative: str = "wrap",
              fill_value: Any = None) -> Source:
    from ..ir import Step

    attrs = dict(batch_dims=batch_dims, index_axis=index_axis, bounds=bounds, negative=negative,
                 fill_value=fill_value)
    c = canonical("gather_nd", batch_dims=batch_dims, bounds=bounds, negative=negative, fill_value=fill_value)
    pre = []
    if index_axis == 0:
        pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1, why="index tuples on the last axis")]
        c = c.with_(indices="idx")
    return Source("gatherscatter.gather_nd", attrs, ("data", "indices"), c, pre=pre,
                  layout={"index_axis": index_axis})


@source("gatherscatter.scatter_along_axis")
def scatter_along_axis(axis: int, reduction: str = "none", include_self: bool = True, duplicates: str = "last",
                       bounds: str = "raise", negative: str = "wrap", mean_rounding: str = "floor",
                       broadcast: bool = False) -> Source:
    attrs = dict(axis=axis, reduction=reduction, include_self=include_self, duplicates=duplicates, bounds=bounds,
                 negative=negative, mean_rounding=mean_rounding, broadcast=broadcast)
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=reduction, include_self=include_self,
                  duplicates=duplicates, bounds=bounds, negative=negative, mean_rounding=mean_rounding,
                  broadcast=broadcast)
    return Source("gatherscatter.scatter_along_axis", attrs, ("data", "indices", "updates"), c)


@source("gatherscatter.scatter_nd")
def scatter_nd(batch_dims: int = 0, index_axis: int = -1, reduction: str = "none", include_self: bool = True,
               duplicates: str = "last", bounds: str = "raise", negative: str = "wrap",
               mean_rounding: str = "floor") -> Source:
    from ..ir import Step

    attrs = dict(batch_dims=batch_dims, index_axis=index_axis, reduction=reduction, include_self=include_self,
                 duplicates=duplicates, bounds=bounds, negative=negative, mean_rounding=mean_rounding)
    c = canonical("scatter_nd", updates="updates", batch_dims=batch_dims, reduction=reduction,
                  include_self=include_self, duplicates=duplicates, bounds=bounds, negative=negative,
                  mean_rounding=mean_rounding)
    pre = []
    if index_axis == 0:
        pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1, why="index tuples on the last axis")]
        c = c.with_(indices="idx")
    return Source("gatherscatter.scatter_nd", attrs, ("data", "indices", "updates"), c, pre=pre,
                  layout={"index_axis": index_axis})
