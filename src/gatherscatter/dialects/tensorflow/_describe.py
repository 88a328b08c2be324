"""The shared parts of the tensorflow ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: TensorFlow 2.21.

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
from .._record import Description, Residual, canonical, check_choice

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


def _gather_kw(mode: str, empty: str) -> tuple[dict[str, Any], list[Residual]]:
    """The canonical gather's index policy for ``mode`` and its residuals (XLA clamps, and returns zeros on an
    empty indexed axis where we raise: ``empty`` says what is empty)."""
    if mode == "raise":
        return dict(negative="raise", bounds="raise"), []
    if mode == "ignore":
        return dict(negative="bounds", bounds="fill", fill_value=0), []
    return dict(negative="bounds", bounds="clip"), [Residual("empty", f"returns zeros when {empty} (XLA)", "raises")]


def _scatter_kw(mode: str) -> dict[str, Any]:
    if mode == "raise":
        return dict(negative="raise", bounds="raise")
    return dict(negative="bounds", bounds="drop")


def _tensor_scatter(op: str, reduction: str, device: str, bad_indices_policy: str | None) -> Description:
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
    return Description(op, attrs, ("tensor", "indices", "updates"), c, residuals=res, layout=layout)
