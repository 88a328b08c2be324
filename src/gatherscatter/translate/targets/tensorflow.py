"""Target TensorFlow 2.21 (CPU semantics): tf.gather, tf.gather_nd, tf.tensor_scatter_nd_*.

Native semantics (eager CPU; GPU and XLA differ and are not a target option):
negative and out-of-range indices raise; ``tf.gather`` and ``tf.gather_nd``
have ``batch_dims``. TF has no element-wise gather or scatter: the indices
become full coordinates (docs/semantics.md#e4, docs/semantics.md#e16) for ``tf.gather_nd`` / ``tf.tensor_scatter_nd_*``.
Scatter reductions: update/add/sub/max/min; mean is docs/semantics.md#e11, ``include_self=False``
docs/semantics.md#e10; there is no multiplying scatter: ``mul`` gathers, multiplies and writes
back, which is exact only without duplicate indices. A 1-D ``indices`` is one
index tuple for TF scatters only with at least 2 axes, so the tuples get a
leading axis of 1. Duplicate ``tensor_scatter_nd_update`` writes are
nondeterministic on GPU (CPU last-wins). ``tensor_scatter_nd_max/min`` ignore a
NaN update.
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import RAISE, Canonical, Names, Plan, Step, TargetPlan, settle  # noqa: F401  (settle: TF's finite empty max/min segment)

SCATTER = {"none": qn(_d.tensorflow.tensor_scatter_nd_update), "add": qn(_d.tensorflow.tensor_scatter_nd_add),
           "sub": qn(_d.tensorflow.tensor_scatter_nd_sub), "max": qn(_d.tensorflow.tensor_scatter_nd_max),
           "min": qn(_d.tensorflow.tensor_scatter_nd_min)}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("tensorflow", c, names)
    fam = c.family
    if fam == "gather" and not (c.bounds == "fill" and c.batch_dims and c.axis != c.batch_dims):
        _, ad, i, _ = p.indices(c, RAISE, target="tf.gather", cast="tf.gather")
        extra: dict[str, Any] = {"batch_dims": c.batch_dims} if c.batch_dims else {}
        p.gather_op(c, ad, qn(_d.tensorflow.gather), {"params": c.data, "indices": i}, axis=c.axis, **extra)
    elif fam in ("gather", "gather_elements", "gather_nd"):
        why = "TF has no element-wise gather: full index tuples for tf.gather_nd (docs/semantics.md#e4)"
        c2 = c if fam == "gather_nd" else p.gather_coordinates(c, "tf.gather_nd", why if fam != "gather" else "")
        _, ad, i, _ = p.indices(c2, RAISE, target="tf.gather_nd", cast="tf.gather_nd" if fam == "gather_nd" else "")
        extra = {"batch_dims": c2.batch_dims} if c2.batch_dims else {}
        p.gather_op(c2, ad, qn(_d.tensorflow.gather_nd), {"params": c2.data, "indices": i}, **extra)
    else:
        _scatter(p, c)
    p.residual("empty", "handles an empty data tensor by its index policy",
               "raises whenever indices address an empty params/tensor ('params is empty', 'empty output shape')")
    return p.tp


def _scatter(p: Plan, c: Canonical) -> None:
    _, c2, d, idx, u = p.scatter_tuples(c, RAISE, None, "tf.tensor_scatter_nd_*", why="TF scatters take index "
                                        "tuples: full coordinates (docs/semantics.md#e16)",
                                        cast=lambda i: p.index_cast(i, "tf.tensor_scatter_nd_*"))
    if c.family == "scatter_nd":
        idx = p.adapt("expand_dims", "i", idx, axis=0, why="TF scatters need indices of rank >= 2 (a 1-D indices "
                      "is rejected): add a leading axis of 1 (docs/semantics.md#pitfall-21)")
        u = p.adapt("expand_dims", "u", u, axis=0, why="and to the updates")

    def call(data: str, ix: str, upd: str, reduction: str, out: str) -> list[Step]:
        if reduction != "mul":
            return [Step.op(SCATTER[reduction], out, {"tensor": data, "indices": ix, "updates": upd})]
        g, m = p.names("g"), p.names("p")
        return [
            Step.op(qn(_d.tensorflow.gather_nd), g, {"params": data, "indices": ix},
                    why="TF has no multiplying scatter: read the targeted values ..."),
            Step.adapt("combine", m, g, upd, reduction="mul", why="... multiply by the updates ..."),
            Step.op(SCATTER["none"], out, {"tensor": data, "indices": ix, "updates": m},
                    why="... and write them back (one factor per position: exact without duplicates)"),
        ]

    p.reduce(c2, call, data=d, indices=idx, updates=u, native=frozenset({"none", "add", "sub", "mul", "max", "min"}))
    p.duplicates(c, False, "tf.tensor_scatter_nd_update")
    if c.reduction == "mul":
        p.tp.exact = False
        p.residual("duplicates", "multiplies every update in", "keeps one product per position (TF has no "
                   "multiplying scatter; gather * updates written back with tensor_scatter_nd_update)")
        drop = c.bounds == "drop"
        p.meet(c, f"{'drops' if drop else 'multiplies in'} the update at {'no' if drop else 'the ' + c.bounds + 'ped'} "
               "position", "keeps one product per position")
    if c.reduction in ("max", "min"):
        p.residual("nonfinite", f"propagates a NaN update ({c.reduction})",
                   f"ignores it (tf.tensor_scatter_nd_{c.reduction})")
