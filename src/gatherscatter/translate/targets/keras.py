"""Target Keras 3.15 ``keras.ops`` (take, take_along_axis, scatter_update) on ONE backend.

``keras.ops`` differ by ``KERAS_BACKEND`` (bad indices, 32-bit JAX): a plan is for the backend ``version=``
names (jax | tensorflow | torch | numpy; default ``'tensorflow'``, Keras' and ``gs.keras``'s), with the
dialect's index rules; the code sets and checks it. Nd gathers take from the flattened x at flat offsets;
scatters take index tuples: ``scatter_update(..., reduction=)`` (Keras 3.15) adds/multiplies/maxes/mins every
update into the data in turn (as the canonical form; tensorflow's max/min ignore a NaN update).
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ...dialects.keras._backend import index_policy
from ..ir import Step
from ..model import Canonical, TargetPlan
from ..plan import Names
from ._common import Mode, Plan, settle  # noqa: F401  (settle: TF's finite empty max/min segment)
from .mlx import flat_scatter

DEFAULT_BACKEND = "tensorflow"
_BACKEND_RESIDUALS = {
    "tensorflow": [("empty", "handles empty data by its index policy", "Keras' TF backend raises whenever indices "
                    "address an empty tensor (tf.gather, tf.scatter_nd ...)")],
    "torch": [("out_of_range", "treats an index beyond the int32 range by its bounds policy", "Keras' torch "
               "backend computes keras.ops.minimum(int64, Python int) in int32: 2**40 may be clamped wrongly")],
    **{b: [("out_of_range", "treats an index beyond the int32 range by its bounds policy", f"Keras' {b} backend "
            "narrows int64 indices to int32 (2**40 reads/writes element 0)")] for b in ("jax", "numpy")}}
_IN_PLACE = ("always", "returns a new array", "Keras' numpy backend's scatter_update writes into its input in place "
             "(the caller's array is modified; a read-only one raises)")


def _modes(op: str, backend: str, neg: str | None = None) -> dict[Any, Mode]:
    r = index_policy(op, backend)  # JAX's NaN fill is 'nan': not a fill with a given value
    return {None: (neg or r["negative"], "nan" if r["bounds"] == "fill" else r["bounds"])}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    b, p, fam = version or DEFAULT_BACKEND, Plan.start("keras", c, names), c.family
    c, kw = c.with_(indices=p.index_cast(c.indices, "keras.ops")), {"backend": b}
    if fam == "gather" and c.batch_dims == 0:
        _, ad = p.policy(c, _modes("take", b), None, target="keras.ops.take")
        p.gather_op(c, ad, qn(_d.keras.take), {"x": c.data, "indices": p.apply(ad)[0]}, axis=c.axis, **kw)
    elif fam == "gather_elements":
        p.along_axis_gather(c, _modes("take_along_axis", b), None, qn(_d.keras.take_along_axis),
                            "keras.ops.take_along_axis", arr="x", broadcast=True, **kw)
    elif fam in ("gather", "gather_nd"):
        p.flat_gather(c, _modes("take", b, "bounds"), qn(_d.keras.take), ("x", "indices"), "keras.ops has no "
                      "gather_nd: take from the flattened x", flatten=True, axis=0, **kw)
    else:
        _scatter(p, c, b)
    for when, source, target in _BACKEND_RESIDUALS.get(b, ()):
        p.residual(when, source, target)
    if b in ("jax", "numpy"):  # the numpy backend's convert_to_tensor (in where, scatter ...) narrows too
        p.residual("always", "keeps 64-bit data 64-bit", f"Keras' {b} backend computes 64-bit data in 32 bits "
                   "(JAX without x64; the numpy backend's convert_to_tensor in where, scatter ...)")
    return p.tp


def _scatter(p: Plan, c: Canonical, b: str) -> None:
    def call(data: str, ix: str, upd: str, reduction: str, out: str) -> list[Step]:
        kw = {} if reduction == "none" else {"reduction": reduction}
        return [Step.op(qn(_d.keras.scatter_update), out, {"inputs": data, "indices": ix, "updates": upd},
                        backend=b, **kw)]

    # flat (n, 1) index tuples: the torch backend takes 2-D indices only (and loops over their rows for
    # max/min/mul), TF no 1-D ones
    flat_scatter(p, c, _modes("scatter_update", b, "bounds"), "keras.ops.scatter_update", call,
                 frozenset({"none", "add", "mul", "max", "min"}), column=True)
    p.duplicates(c, False, "keras.ops.scatter_update")
    if b == "numpy":
        p.residual(*_IN_PLACE)
    if b == "tensorflow" and c.reduction in ("max", "min"):
        p.residual("nonfinite", f"propagates a NaN update ({c.reduction})", "keeps the value (the tensorflow "
                   f"backend's tf.tensor_scatter_nd_{c.reduction})")
