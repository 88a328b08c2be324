"""The shared parts of the openvino ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: OpenVINO (opset ops by version, CPU plugin semantics as the dialects define them).

``axis`` (an input in OpenVINO) is a translation attribute here. Versions:
Gather-1/7 (``[0, s-1]``, anything else raises) and -8 (negative indices wrap,
out of range reads 0); GatherND-5 (no negatives; ``batch_dims > 1`` merges the
batch dims into one leading output dim) and -8; ScatterElementsUpdate-3 (no
reduction, no negatives) and -12 (reductions, ``use_init_val``, negatives wrap);
ScatterNDUpdate-3 and -15 (reductions incl. ``sub``, negatives wrap);
ScatterUpdate-3 (whole slices along ``axis``: an nd scatter into
``moveaxis(data, axis, 0)``, docs/semantics.md#e17). Duplicate overwrites are unspecified.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import UnsupportedError
from .._record import Residual, check_choice
from .._registry import registrar

openvino_op = registrar("openvino", version_kw="version")
"""Registers an OpenVINO op: every OpenVINO op takes its own version number as ``version=``."""

_INT = ("int32", "int64")


_FINITE_START = Residual("nonfinite", "starts max/min from the finite lowest()/max() with use_init_val=False, so an "
                         "infinite update of the wrong sign gives that finite extreme", "excludes the initial value "
                         "(the result is the infinite update)")


def _reduction(op: str, reduction: str, names: Mapping[str, Any]) -> str:
    """The canonical reduction of OpenVINO's ``reduction`` name (``names``: the op's own name map)."""
    if not isinstance(reduction, str):
        raise UnsupportedError(f"translate {op}: reduction must be a string (got {reduction!r})")
    r = names[check_choice(op, "reduction", reduction.lower(), tuple(names))]
    return str(getattr(r, "value", r))  # a core Reduction (its value) or a canonical name
