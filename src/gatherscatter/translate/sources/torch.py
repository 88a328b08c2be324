"""Sources: PyTorch 2.13 (negative indices raise in every op but take/take_along_dim)."""

from __future__ import annotations

from ..ir import Step
from ..model import Residual, Source
from . import canonical, source

_REDUCE = {"sum": "add", "prod": "mul", "mean": "mean", "amax": "max", "amin": "min", "max": "max", "min": "min"}

_HALF = Residual("dtype", "accumulates float16/bfloat16 sums and products in float32 and rounds once",
                 "rounds at every step in the data dtype")


@source("torch.gather")
def gather(dim: int) -> Source:
    c = canonical("gather_elements", data="input", indices="index", axis=dim, negative="raise")
    return Source("torch.gather", {"dim": dim}, ("input", "index"), c)


@source("torch.take")
def take() -> Source:
    c = canonical("gather", data="flat", indices="index", axis=0)
    pre = [Step.adapt("flatten", "flat", "input", why="torch.take reads the flattened input")]
    return Source("torch.take", {}, ("input", "index"), c, pre=pre)


@source("torch.index_select")
def index_select(dim: int) -> Source:
    c = canonical("gather", data="input", indices="index1", axis=dim, negative="raise")
    pre = [Step.adapt("flatten", "index1", "index", why="a 0-d index keeps a size-1 dim (pitfall 13)")]
    return Source("torch.index_select", {"dim": dim}, ("input", "index"), c, pre=pre)


@source("torch.scatter_add")
def scatter_add(dim: int) -> Source:
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction="add",
                  negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    return Source("torch.scatter_add", {"dim": dim}, ("input", "index", "src"), c, pre=pre, residuals=[_HALF])


@source("torch.scatter_reduce")
def scatter_reduce(dim: int, reduce: str, include_self: bool = True) -> Source:
    r = _REDUCE[reduce]
    c = canonical("scatter_elements", data="input", indices="index", updates="src1", axis=dim, reduction=r,
                  include_self=include_self, negative="raise")
    pre = [Step.adapt("slice_like", "src1", "src", "index", why="torch reads only the index-shaped block of src")]
    res = [_HALF] if r in ("add", "mul", "mean") else []
    if r == "mean":
        res.append(Residual("dtype", "counts contributions in the data dtype (int8/uint8/int16/float16 wrap or "
                            "round)", "counts exactly"))
    return Source("torch.scatter_reduce", {"dim": dim, "reduce": reduce, "include_self": include_self},
                  ("input", "index", "src"), c, pre=pre, residuals=res)
