"""The shared parts of the mxnet ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: MXNet 1.9.1 (index tuples on the FIRST axis of ``indices``; float indices).

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

from .._record import Residual

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


def _pick_args(axis: int) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        return {"data": canon["data"], "index": np.squeeze(canon["indices"], axis)}

    return mapper
