"""The shared parts of the numpy ops' descriptions (:mod:`gatherscatter.dialects._record`).

Descriptions: NumPy 2.4 (``take``, ``take_along_axis``, ``put``, ``put_along_axis``, ``ufunc.at``).

Modes of ``take``/``put``: ``'raise'`` wraps negative indices once and raises
outside ``[-s, s-1]``; ``'wrap'`` takes ``i mod s``; ``'clip'`` clamps to
``[0, s-1]`` (``-1`` reads element 0: docs/semantics.md#pitfall-3).

``ufunc.at`` (``add_at`` ... ``minimum_at``) index forms covered
(``form=``): ``'array'``, one integer array ``I`` (``a[I]``: rows along axis
0), and ``'tuple'``, a tuple of integer arrays (``a[I0, I1, ...]``: index
tuples, broadcast together, docs/semantics.md#e15). Slices, ``...``, ``None``, scalars mixed with
slices and boolean masks are not translated (UnsupportedError).
"""

from __future__ import annotations

from typing import Any

from .._record import BOOL_MASK, Description, Residual, Step, canonical, check_choice, index_form, tuple_index_args

_MODES = {"raise": ("wrap", "raise"), "wrap": ("bounds", "wrap"), "clip": ("bounds", "clip")}


_INT = ("int64", "int32")


_PROMOTE = Residual("dtype", "computes in the promoted dtype of a and b and casts back to a.dtype after each "
                    "update (e.g. int a with float b)", "casts b to a.dtype first")


def _mode(op: str, mode: Any) -> tuple[str, str]:
    m = "raise" if mode is None else check_choice(op, "mode", mode, tuple(_MODES))
    return _MODES[m]


def _put_args(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
    d, i, u = canon["data"], canon["indices"], canon["updates"]
    if d.size and d.size % 2 == 0 and rng.random() < 0.5:
        d = d.reshape(2, -1)
    if u.size and rng.random() < 0.3:
        u = u[: int(rng.integers(1, u.size + 1))]  # put cycles a shorter v
    return {"a": d, "ind": i, "v": u}


def _ufunc_at(op: str, reduction: str, form: str) -> Description:
    form = index_form(op, form, "a")
    if form == "array":
        pre = [Step.adapt("expand_dims", "tuples", "indices", axis=-1, why="a[I] indexes rows along axis 0")]
    else:
        pre = [Step.adapt("stack_last", "tuples", "indices", why="a[I0, I1, ...]: one index tuple per position "
                                                                 "(docs/semantics.md#e15)")]
    pre.append(Step.adapt("broadcast_updates", "upd", "b", "tuples", "a", why="b broadcasts to a[indices]"))
    c = canonical("scatter_nd", data="a", indices="tuples", updates="upd", reduction=reduction)
    layout: dict[str, Any] = {"index_dtypes": _INT, "to_source": tuple_index_args(
        "a", "indices", "b", as_array=form == "array", broadcast=0.3)}
    if form == "array":
        layout["k"] = 1
    if reduction in ("max", "min"):
        layout["nonfinite"] = 0.1
    return Description(op, {}, ("a", "indices", "b"), c, pre=pre, residuals=[_PROMOTE, BOOL_MASK], layout=layout)
