"""Sources: TensorFlow 2.21.

Bad indices depend on the device (``device=``): ``'cpu'`` raises on a negative
or out-of-range index, ``'gpu'`` zero-fills gathers and drops scatter updates,
``'xla'`` clamps gathers and drops scatter updates. ``bad_indices_policy``
(``gather_nd``, ``scatter_nd``, ``tensor_scatter_nd_add/sub/min/max``):
``'IGNORE'`` zero-fills / drops on every device, ``'ERROR'`` raises (CPU;
XLA keeps its own behaviour), ``''``/``'DEFAULT'`` is the device's default.
"""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedError
from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_choice, check_int

_DEVICES = ("cpu", "gpu", "xla")
_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")
_I16_I32_I64 = ("int16", "int32", "int64")
_I32_I64 = ("int32", "int64")
_NAN_MINMAX = Residual("nonfinite", "ignores a NaN update (the current value is kept: old < NaN is false)",
                       "propagates NaN")


def _mode(op: str, device: str, policy: str) -> str:
    """``'raise'``, ``'ignore'`` (zero-fill / drop) or ``'xla'`` (clamp gathers, drop scatters)."""
    check_choice(op, "device", device, _DEVICES)
    check_choice(op, "bad_indices_policy", policy, _POLICIES)
    if policy == "IGNORE":
        return "ignore"
    if policy == "ERROR" and device == "gpu":
        raise UnsupportedError(f"translate {op}: bad_indices_policy='ERROR' is not supported on GPU (TF raises)")
    return {"cpu": "raise", "gpu": "ignore", "xla": "xla"}[device]


@source("tensorflow.gather")
def gather(axis: int | None = None, batch_dims: int = 0, device: str = "cpu") -> Source:
    op = "tensorflow.gather"
    axis = check_int(op, "axis", axis, optional=True)
    b = check_int(op, "batch_dims", batch_dims)
    mode = _mode(op, device, "")
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims={b} counts from the end of indices, whose rank a "
                               "translation does not know; give the non-negative batch_dims")
    a = b if axis is None else axis
    if a == 0:
        b = 0  # tf.gather drops batch_dims when axis is the constant 0
    if a < 0 and b:
        raise UnsupportedError(f"translate {op}: a negative axis ({a}) with batch_dims={b} needs the rank of params "
                               "to check batch_dims <= axis; give the non-negative axis")
    res: list[Residual] = []
    if mode == "raise":
        kw: dict[str, Any] = dict(negative="raise", bounds="raise")
    elif mode == "ignore":
        kw = dict(negative="bounds", bounds="fill", fill_value=0)
    else:
        kw = dict(negative="bounds", bounds="clip")
        res.append(Residual("empty", "returns zeros when the indexed axis has size 0 (XLA)", "raises"))
        if b > 0:
            res.append(Residual("negative", "reads element s-1 for a negative int64 index when batch_dims > 0 (XLA)",
                                "clamps it to element 0"))
    c = canonical("gather", data="params", axis=a, batch_dims=b, **kw)
    return Source(op, {"axis": axis, "batch_dims": batch_dims, "device": device}, ("params", "indices"), c,
                  residuals=res, layout={"index_dtypes": _I16_I32_I64})


@source("tensorflow.gather_nd")
def gather_nd(batch_dims: int = 0, device: str = "cpu", bad_indices_policy: str = "") -> Source:
    op = "tensorflow.gather_nd"
    b = check_int(op, "batch_dims", batch_dims)
    mode = _mode(op, device, bad_indices_policy)
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims must be >= 0 (got {b})")
    res: list[Residual] = []
    if mode == "raise":
        kw: dict[str, Any] = dict(negative="raise", bounds="raise")
    elif mode == "ignore":
        kw = dict(negative="bounds", bounds="fill", fill_value=0)
    else:
        kw = dict(negative="bounds", bounds="clip")
        res.append(Residual("empty", "returns zeros when params is empty (XLA)", "raises"))
    c = canonical("gather_nd", data="params", batch_dims=b, **kw)
    attrs: dict[str, Any] = {"batch_dims": b, "device": device}
    if bad_indices_policy:
        attrs["bad_indices_policy"] = bad_indices_policy
    return Source(op, attrs, ("params", "indices"), c, residuals=res,
                  layout={"index_dtypes": _I16_I32_I64, "rank": (b + 1, b + 2)})


def _scatter_kw(mode: str) -> dict[str, Any]:
    if mode == "raise":
        return dict(negative="raise", bounds="raise")
    return dict(negative="bounds", bounds="drop")


@source("tensorflow.scatter_nd")
def scatter_nd(device: str = "cpu", bad_indices_policy: str = "") -> Source:
    op = "tensorflow.scatter_nd"
    mode = _mode(op, device, bad_indices_policy)
    c = canonical("scatter_nd", data="zeros", indices="indices", updates="updates", reduction="add",
                  **_scatter_kw(mode))
    pre = [Step.adapt("zeros", "zeros", "shape", "updates", why="tf.scatter_nd adds into a zero tensor "
                                                                "(docs/semantics.md#e5)")]
    attrs: dict[str, Any] = {"device": device}
    if bad_indices_policy:
        attrs["bad_indices_policy"] = bad_indices_policy
    return Source(op, attrs, ("indices", "updates", "shape"), c, pre=pre, roles={"data": "shape"},
                  layout={"index_dtypes": _I32_I64, "index_ndim": (1, 2)})


def _tensor_scatter(op: str, reduction: str, device: str, bad_indices_policy: str | None) -> Source:
    mode = _mode(op, device, bad_indices_policy or "")
    res = [_NAN_MINMAX] if reduction in ("max", "min") else []
    c = canonical("scatter_nd", data="tensor", updates="updates", reduction=reduction,
                  duplicates_specified=reduction != "none", **_scatter_kw(mode))
    attrs: dict[str, Any] = {"device": device}
    if bad_indices_policy:
        attrs["bad_indices_policy"] = bad_indices_policy
    layout: dict[str, Any] = {"index_dtypes": _I32_I64, "index_ndim": (1, 2)}
    if reduction in ("max", "min"):
        layout["nonfinite"] = 0.15
    return Source(op, attrs, ("tensor", "indices", "updates"), c, residuals=res, layout=layout)


@source("tensorflow.tensor_scatter_nd_update")
def tensor_scatter_nd_update(device: str = "cpu") -> Source:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_update", "none", device, None)


@source("tensorflow.tensor_scatter_nd_add")
def tensor_scatter_nd_add(device: str = "cpu", bad_indices_policy: str = "") -> Source:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_add", "add", device, bad_indices_policy)


@source("tensorflow.tensor_scatter_nd_sub")
def tensor_scatter_nd_sub(device: str = "cpu", bad_indices_policy: str = "") -> Source:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_sub", "sub", device, bad_indices_policy)


@source("tensorflow.tensor_scatter_nd_max")
def tensor_scatter_nd_max(device: str = "cpu", bad_indices_policy: str = "") -> Source:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_max", "max", device, bad_indices_policy)


@source("tensorflow.tensor_scatter_nd_min")
def tensor_scatter_nd_min(device: str = "cpu", bad_indices_policy: str = "") -> Source:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_min", "min", device, bad_indices_policy)
