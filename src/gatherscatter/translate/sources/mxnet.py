"""Sources: MXNet 1.9.1 (index tuples on the FIRST axis of ``indices``; float indices).

MXNet reads float indices by truncating them toward zero, so every description
starts with ``cast(indices, int64)``: exact for integer-valued floats (and for
``take``/``pick`` in ``clip``/``wrap`` mode, and ``scatter_nd``, for any
float). ``gather_nd`` and ``take(mode='raise')`` check the bounds *before*
truncating (2.4 is out of range on an axis of size 3, -0.5 reads ``s-1`` in
``gather_nd``): the ``float_index`` residual (docs/semantics.md#pitfall-20).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_bool, check_choice, check_int

_FLOAT = Residual("float_index", "checks a non-integral float index against [-s, s-1] and then rounds (i + s) in the "
                  "index dtype (-0.5 reads s-1, 2.4 is out of range for s = 3)",
                  "truncates toward zero when casting to int64 (docs/semantics.md#pitfall-20)")
_FLOAT_RAISE = Residual("float_index", "checks a non-integral float index against [0, s-1] before truncating "
                        "(2.4 and -0.5 raise for s = 3)", "truncates toward zero first (2.4 reads 2, -0.5 reads 0)")
_INT32 = Residual("out_of_range", "raises for an index outside the int32 range (MXNet's cast to int32 is undefined "
                  "there)", "clamps or wraps it like any out-of-range index")
_INDEX = ("float32", "float32", "int64", "int32")
_MODES = {"clip": ("bounds", "clip"), "wrap": ("bounds", "wrap"), "raise": ("raise", "raise")}
_CAST = "MXNet truncates float indices toward zero"


@source("mxnet.gather_nd")
def gather_nd() -> Source:
    c = canonical("gather_nd", indices="idx_int")
    pre = [Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1,
                      why="MXNet keeps index tuples on the first axis; everyone else on the last "
                          "(docs/semantics.md#e6)"),
           Step.adapt("cast", "idx_int", "idx", dtype="int64", why=_CAST)]
    return Source("mxnet.gather_nd", {}, ("data", "indices"), c, pre=pre, residuals=[_FLOAT],
                  layout={"index_axis": 0, "index_dtypes": _INDEX, "fractional": 0.3, "index_ndim": (1, 2)})


@source("mxnet.scatter_nd")
def scatter_nd() -> Source:
    """MXNet checks nothing (a negative index crashes it, one >= s writes out of bounds): both raise here."""
    pre = [Step.adapt("zeros", "zeros", "shape", "data", why="the output starts from zeros(shape)"),
           Step.adapt("moveaxis", "idx", "indices", source=0, destination=-1,
                      why="MXNet keeps index tuples on the first axis (docs/semantics.md#e6)"),
           Step.adapt("cast", "idx_int", "idx", dtype="int64", why=_CAST)]
    c = canonical("scatter_nd", data="zeros", indices="idx_int", updates="data", negative="raise",
                  duplicates_specified=False)
    return Source("mxnet.scatter_nd", {}, ("data", "indices", "shape"), c, pre=pre,
                  roles={"updates": "data", "data": "shape"},
                  layout={"index_axis": 0, "index_dtypes": _INDEX, "fractional": 0.3, "index_ndim": (1, 2)})


@source("mxnet.take")
def take(axis: int = 0, mode: str = "clip") -> Source:
    op = "mxnet.take"
    axis = check_int(op, "axis", axis)
    neg, bounds = _MODES[check_choice(op, "mode", mode, tuple(_MODES))]
    pre = [Step.adapt("cast", "idx", "indices", dtype="int64", why=_CAST)]
    c = canonical("gather", data="a", indices="idx", axis=axis, negative=neg, bounds=bounds)
    return Source(op, {"axis": axis, "mode": mode}, ("a", "indices"), c, pre=pre,
                  residuals=[_FLOAT_RAISE] if mode == "raise" else [],
                  layout={"index_dtypes": _INDEX, "fractional": 0.3})


@source("mxnet.pick")
def pick(axis: int = -1, mode: str = "clip", keepdims: bool = False) -> Source:
    """``index`` has ``data``'s shape without ``axis`` (data of rank >= 2; MXNet also takes the axis kept)."""
    op = "mxnet.pick"
    axis = check_int(op, "axis", axis)
    neg, bounds = _MODES[check_choice(op, "mode", mode, ("clip", "wrap"))]
    keepdims = check_bool(op, "keepdims", keepdims)
    pre = [Step.adapt("cast", "idx0", "index", dtype="int64", why=_CAST),
           Step.adapt("expand_dims", "idx", "idx0", axis=axis, why="one index per 1-d slice along axis")]
    c = canonical("gather_elements", data="data", indices="idx", axis=axis, negative=neg, bounds=bounds,
                  out="out" if keepdims else "y")
    post = [] if keepdims else [Step.adapt("squeeze", "out", "y", axis=axis, why="keepdims=False drops the axis")]
    need = axis + 1 if axis >= 0 else -axis
    return Source(op, {"axis": axis, "mode": mode, "keepdims": keepdims}, ("data", "index"), c, pre=pre, post=post,
                  residuals=[_INT32],
                  layout={"index_dtypes": _INDEX, "fractional": 0.3, "full_index": True, "axis_len": 1,
                          "rank": (max(need, 2), max(need, 2) + 1), "to_source": _pick_args(axis)})


def _pick_args(axis: int) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        return {"data": canon["data"], "index": np.squeeze(canon["indices"], axis)}

    return mapper
