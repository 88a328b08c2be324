"""Sources: NumPy 2.4 (``take``, ``take_along_axis``, ``put``, ``put_along_axis``, ``ufunc.at``).

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

from ...errors import UnsupportedError
from ..ir import Step
from ..model import Residual, Source
from . import canonical, source
from ._layout import check_choice, check_int, tuple_index_args

_MODES = {"raise": ("wrap", "raise"), "wrap": ("bounds", "wrap"), "clip": ("bounds", "clip")}
_INT = ("int64", "int32")
_FORMS = ("array", "tuple")
_PROMOTE = Residual("dtype", "computes in the promoted dtype of a and b and casts back to a.dtype after each "
                    "update (e.g. int a with float b)", "casts b to a.dtype first")
_BOOL_MASK = Residual("dtype", "reads a bool index array as a mask (its nonzero positions)",
                      "reads integer index arrays only")


def _mode(op: str, mode: Any) -> tuple[str, str]:
    m = "raise" if mode is None else check_choice(op, "mode", mode, tuple(_MODES))
    return _MODES[m]


@source("numpy.take")
def take(axis: int | None = None, mode: str = "raise") -> Source:
    op = "numpy.take"
    axis = check_int(op, "axis", axis, optional=True)
    neg, bounds = _mode(op, mode)
    res = [Residual("empty", "does not check the indices when no element is read (a zero-size dim before axis)",
                    "checks them")]
    attrs = {"axis": axis, "mode": mode}
    if axis is None:
        c = canonical("gather", data="flat", axis=0, negative=neg, bounds=bounds)
        pre = [Step.adapt("flatten", "flat", "a", why="axis=None takes from the flattened array")]
        return Source(op, attrs, ("a", "indices"), c, pre=pre, residuals=res,
                      layout={"index_dtypes": _INT, "index_ndim": (0, 2)})
    c = canonical("gather", data="a", axis=axis, negative=neg, bounds=bounds)
    return Source(op, attrs, ("a", "indices"), c, residuals=res, layout={"index_dtypes": _INT, "index_ndim": (0, 2)})


@source("numpy.take_along_axis")
def take_along_axis(axis: int | None = -1) -> Source:
    op = "numpy.take_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        c = canonical("gather_elements", data="flat", indices="indices", axis=0)
        pre = [Step.adapt("flatten", "flat", "arr", why="axis=None works on the flattened array (1-d indices)")]
        return Source(op, {"axis": None}, ("arr", "indices"), c, pre=pre,
                      layout={"index_dtypes": _INT, "rank": (1, 1)})
    c = canonical("gather_elements", data="arr", axis=axis, broadcast=True)
    return Source(op, {"axis": axis}, ("arr", "indices"), c, layout={"index_dtypes": _INT})


@source("numpy.put")
def put(mode: str = "raise") -> Source:
    op = "numpy.put"
    neg, bounds = _mode(op, mode)
    pre = [Step.adapt("flatten", "flat", "a", why="put writes the flattened array"),
           Step.adapt("flatten", "flat_ind", "ind", why="ind is flattened"),
           Step.adapt("cycle_to", "flat_v", "v", "flat_ind", why="v is flattened and repeated cyclically")]
    c = canonical("scatter_elements", data="flat", indices="flat_ind", updates="flat_v", out="y", axis=0,
                  negative=neg, bounds=bounds)
    post = [Step.adapt("reshape_like", "out", "y", "a", why="back to a's shape")]
    res = [Residual("empty", "writes nothing when v is empty, whatever ind holds", "raises")]
    return Source(op, {"mode": mode}, ("a", "ind", "v"), c, pre=pre, post=post, residuals=res,
                  layout={"index_dtypes": _INT, "rank": (1, 1), "to_source": _put_args})


def _put_args(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
    d, i, u = canon["data"], canon["indices"], canon["updates"]
    if d.size and d.size % 2 == 0 and rng.random() < 0.5:
        d = d.reshape(2, -1)
    if u.size and rng.random() < 0.3:
        u = u[: int(rng.integers(1, u.size + 1))]  # put cycles a shorter v
    return {"a": d, "ind": i, "v": u}


@source("numpy.put_along_axis")
def put_along_axis(axis: int | None) -> Source:
    op = "numpy.put_along_axis"
    axis = check_int(op, "axis", axis, optional=True)
    if axis is None:
        pre = [Step.adapt("flatten", "flat", "arr", why="axis=None writes the flattened array (1-d indices)")]
        c = canonical("scatter_elements", data="flat", indices="indices", updates="values", out="y", axis=0,
                      broadcast=True)
        post = [Step.adapt("reshape_like", "out", "y", "arr", why="back to arr's shape")]
        return Source(op, {"axis": None}, ("arr", "indices", "values"), c, pre=pre, post=post,
                      layout={"index_dtypes": _INT, "rank": (1, 1), "updates_broadcast": 0.3})
    c = canonical("scatter_elements", data="arr", indices="indices", updates="values", axis=axis, broadcast=True)
    return Source(op, {"axis": axis}, ("arr", "indices", "values"), c,
                  layout={"index_dtypes": _INT, "updates_broadcast": 0.3})


def _ufunc_at(op: str, reduction: str, form: str) -> Source:
    form = _form(op, form)
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
    return Source(op, {}, ("a", "indices", "b"), c, pre=pre, residuals=[_PROMOTE, _BOOL_MASK], layout=layout)


def _form(op: str, form: Any) -> str:
    if form not in _FORMS:
        raise UnsupportedError(
            f"translate {op}: index form {form!r} is not translated; covered: 'array' (one integer array, a[I]) "
            "and 'tuple' (a tuple of integer arrays, a[I0, I1, ...]); slices, Ellipsis, None and boolean masks "
            "select by position, which no canonical gather/scatter call expresses"
        )
    return str(form)


@source("numpy.add_at")
def add_at(form: str = "array") -> Source:
    return _ufunc_at("numpy.add_at", "add", form)


@source("numpy.subtract_at")
def subtract_at(form: str = "array") -> Source:
    return _ufunc_at("numpy.subtract_at", "sub", form)


@source("numpy.multiply_at")
def multiply_at(form: str = "array") -> Source:
    return _ufunc_at("numpy.multiply_at", "mul", form)


@source("numpy.maximum_at")
def maximum_at(form: str = "array") -> Source:
    return _ufunc_at("numpy.maximum_at", "max", form)


@source("numpy.minimum_at")
def minimum_at(form: str = "array") -> Source:
    return _ufunc_at("numpy.minimum_at", "min", form)
