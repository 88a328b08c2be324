"""Target Caffe2 (final source): ``Gather`` (with ``wrap_indices`` and ``match_outer``) -- gathers only.

Caffe2 is no longer shipped, so this target has a plan (verified through the
dialect) but no code generator. ``Gather(DATA, INDICES, axis, wrap_indices=True)``
wraps negative indices once and raises out of range; ``match_outer=True`` is
a gather with ``batch_dims == axis``. Element-wise gathers, nd gathers and
other batch dims read the flattened data at flat offsets (``ravel_tuples``).
A size-0 axis makes ``Gather`` return DATA's shape. Caffe2 has no scatter op
in this library (its ``ScatterAssign``/``ScatterWeightedSum`` are not
registered), so scatter families raise UnsupportedError.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ...errors import UnsupportedError
from ._common import RAISE, WRAP_RAISE, Canonical, Names, Plan, TargetPlan


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    if c.is_scatter:
        raise UnsupportedError(f"translate to caffe2: Caffe2 has no scatter op here (family {c.family}); only "
                               "Gather and BatchGather are registered")
    p = Plan.start("caffe2", c, names)
    if c.family == "gather" and c.batch_dims in (0, c.axis):
        _, ad, i, _ = p.indices(c, WRAP_RAISE, target="Caffe2 Gather(wrap_indices=True)", cast="Caffe2 Gather")
        extra = {"match_outer": True} if c.batch_dims else {}
        p.gather_op(c, ad, qn(_d.caffe2.Gather), {"data": c.data, "indices": i}, axis=c.axis, wrap_indices=True,
                    **extra, why="match_outer=True pairs the leading dims (batch_dims == axis)" if c.batch_dims else "")
        p.residual("empty", "returns the formula's shape (or raises) for a size-0 axis",
                   "Caffe2 Gather returns DATA's shape when DATA.shape[axis] == 0")
    else:
        p.flat_gather(c, RAISE, qn(_d.caffe2.Gather), ("data", "indices"), "Caffe2 has only Gather: read the "
                      "flattened data", flatten=True, axis=0, wrap_indices=False)
        p.residual("empty", "reads by its index policy from an empty data tensor",
                   "Caffe2 Gather returns DATA's shape when DATA is empty")
    return p.tp
