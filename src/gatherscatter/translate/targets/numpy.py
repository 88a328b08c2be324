"""Target NumPy 2.4: ``take``, ``take_along_axis``, ``put``, ``put_along_axis``, ``ufunc.at``.

Native semantics: negative indices wrap once and out-of-range indices raise
(``np.take`` also has ``mode='wrap'`` (i mod s) and ``mode='clip'``, where -1
reads element 0). NumPy has no gather_nd and no overwriting scatter_nd
function: index tuples become element coordinates, raveled to flat offsets
for ``np.take``/``np.put`` on the flattened array (``ravel_tuples`` maps a tuple
with a component out of range past the end, so NumPy's bounds check still
raises). Scatter reductions are ``np.<ufunc>.at`` (add, subtract, multiply,
maximum, minimum; unbuffered, so duplicates accumulate); mean is docs/semantics.md#e11 and
``include_self=False`` docs/semantics.md#e10. NumPy works in place: the generated code copies.
NumPy does not promise an order for repeated indices in an assignment (every
version measured writes the last).
"""

from __future__ import annotations

from typing import Any

from ... import dialects as _d
from ...dialects._registry import qn
from ._common import RAISE, WRAP_RAISE, Canonical, Mode, Names, Plan, Step, TargetPlan

# np.take's mode='wrap' is left out on purpose: NumPy wraps by repeated subtraction, so one index of 2**40
# runs for minutes; ``i % s`` (wrap_index) then mode='raise' computes the same at once
TAKE: dict[Any, Mode] = {"raise": ("wrap", "raise"), "clip": ("bounds", "clip")}
UFUNC = {"add": qn(_d.numpy.add_at), "sub": qn(_d.numpy.subtract_at), "mul": qn(_d.numpy.multiply_at),
         "max": qn(_d.numpy.maximum_at), "min": qn(_d.numpy.minimum_at)}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p = Plan.start("numpy", c, names)
    c = c.with_(indices=p.float_cast(c.indices, "NumPy"))
    fam = c.family
    if fam == "gather" and c.batch_dims == 0:
        mode, ad, i, _ = p.indices(c, TAKE, "raise", target="np.take")
        p.gather_op(c, ad, qn(_d.numpy.take), {"a": c.data, "indices": i}, axis=c.axis, mode=mode)
    elif fam == "gather_elements":
        p.along_axis_gather(c, WRAP_RAISE, None, qn(_d.numpy.take_along_axis), "np.take_along_axis")
    elif fam in ("gather", "gather_nd"):
        p.flat_gather(c, RAISE, qn(_d.numpy.take), ("a", "indices"), "NumPy has no gather_nd: axis=None reads the "
                      "flattened data", axis=None, mode="raise")
    else:
        _scatter(p, c)
    return p.tp


def _scatter(p: Plan, c: Canonical) -> None:
    if c.family == "scatter_elements" and c.reduction == "none" and c.broadcast:
        _, _, i, u = p.indices(c, WRAP_RAISE, target="np.put_along_axis")
        assert u is not None
        p.op(qn(_d.numpy.put_along_axis), c.out, {"arr": c.data, "indices": i, "values": u}, axis=c.axis,
             why="np.put_along_axis broadcasts like the source (in place in NumPy: on a copy)")
        p.duplicates(c, False, "NumPy fancy assignment")
        return
    _, c2, d, coords, u = p.scatter_tuples(c, RAISE, None, "a flat NumPy scatter", always=True)
    off = p.adapt("ravel_tuples", "off", coords, d, why="flat offsets (a tuple out of range maps past the end, "
                  "so NumPy raises)")
    flat = p.adapt("flatten", "flat", d, why="scatter into the flattened data (a copy: NumPy works in place)")

    def call(data: str, idx: str, upd: str, reduction: str, out: str) -> list[Step]:
        if reduction == "none":
            return [Step.op(qn(_d.numpy.put), out, {"a": data, "ind": idx, "v": upd}, mode="raise",
                            why="NumPy has no overwriting scatter by tuples: np.put at flat offsets")]
        fn = UFUNC[reduction]
        return [Step.op(fn, out, {"a": data, "indices": idx, "b": upd}, why=f"unbuffered "
                        f"np.{fn.split('.')[1][:-3]}.at: duplicates accumulate")]

    res = p.names("y")
    p.reduce(c2.with_(out=res), call, data=flat, indices=off, updates=u,
             native=frozenset({"none", "add", "sub", "mul", "max", "min"}))
    p.adapt_to(c.out, "reshape_like", res, d, why="back to the data's shape")
    p.duplicates(c, False, "np.put")
