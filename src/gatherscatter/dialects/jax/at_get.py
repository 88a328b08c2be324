"""JAX ``x.at[idx].get()`` (function form ``at_get``)."""

from __future__ import annotations

from typing import Any

from ...errors import UnsupportedError
from .._record import Description, Residual, Step, canonical, tuple_index_args
from .._registry import Lowering, dialect_op, divergence
from ._at import at_context, at_divergences, lower_get
from ._common import GatherScatterMode
from ._describe import _BOOL_MASK, _INT, _fill_value, _form, _gather, _mode

at_divergences("jax.at_get")
divergence(
    op="jax.at_get",
    case="out-of-range indices with the default mode (promise_in_bounds)",
    reference="JAX documentation",
    theirs="implementation-defined (a promise); XLA on CPU clamps each index into [0, s-1] after the "
    "negative wrap (x[5] on size 3 reads x[2]; x[-7] reads x[0])",
    ours="clamp after wrapping negatives once, as XLA on CPU",
    evidence="behavior-matrix §5 surprise 4, 6.3 and 6.10; semantics.md §2.3, §7.3",
    kind="undefined",
)
divergence(
    op="jax.at_get",
    case="mode='one_hot'",
    reference="JAX 0.10",
    theirs="AssertionError (one_hot exists only for jnp.take_along_axis)",
    ours="UnsupportedError naming the mode",
    evidence="jax/_src/lax/slicing.py _gather_lower (assert mode in PROMISE_IN_BOUNDS, CLIP)",
    kind="undefined",
)


def _describe(form: str = "array", mode: Any = None, fill_value: Any = None) -> Description:
    op = "jax.at_get"
    form = _form(op, form)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    fill_value = _fill_value(op, fill_value)
    fill = m is GatherScatterMode.FILL_OR_DROP
    pre: list[Step] = []
    if form == "array":
        base = canonical("gather", data="x", indices="idx", axis=0)
        layout: dict[str, Any] = {"index_dtypes": _INT, "index_ndim": (0, 2)}
    else:
        pre.append(Step.adapt("stack_last", "tuples", "idx", why="x[I0, I1, ...]: one index tuple per position"))
        base = canonical("gather_nd", data="x", indices="tuples")
        layout = {"index_dtypes": _INT, "to_source": tuple_index_args("x", "idx")}
    p2, c, post = _gather(base, fill=fill and mode is not None, fill_value=fill_value, wrap=True)
    res = [Residual("empty", "returns zeros for an empty result, and raises for an integer index into a size-0 "
                    "axis", "computes its own empty result or raises"), _BOOL_MASK]
    attrs: dict[str, Any] = {"mode": mode, "fill_value": fill_value}
    return Description(op, attrs, ("x", "idx"), c, pre=pre + p2, post=post, residuals=res, layout=layout)


@dialect_op(
    "jax", "at_get", family="gather_nd", kind="gather", versions=("0.10",), differentiable=("x",), describe=_describe,
)
def at_get(x: Any, idx: Any, mode: Any = None, fill_value: Any = None) -> Lowering:
    """JAX ``x.at[idx].get()`` (= ``x[idx]``): NumPy-style indexing with JAX's out-of-range rules.

    Provenance: ``jax.numpy.ndarray.at`` / ``jax.numpy`` indexing (jax 0.10), with
    ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].get(...)`` calls this.

    ``idx`` is anything NumPy accepts in ``x[idx]`` (ints, slices, ``...``, ``None``,
    integer arrays, boolean masks, tuples), except that a non-tuple list is an
    error (use a tuple or an array), and scalar booleans do not count when JAX
    decides whether advanced indices are adjacent. Negative indices wrap once.
    Modes: ``None``/``'promise_in_bounds'``/``'clip'``: clamp to ``[0, s-1]`` (XLA's
    behaviour); ``'fill'``/``'drop'``: out-of-range positions give ``fill_value``
    (default NaN, ``iinfo.min``, ``iinfo.max`` or True by dtype). Indexing an axis
    of size 0 with an integer is an error.

    Equivalent loop (``c_d`` are the per-axis coordinates of ``x[idx]``)::

        for j in ndindex(result_shape):
            k = [c_d[j] + s_d if c_d[j] < 0 else c_d[j] for d in axes]
            Y[j] = x[clamp(k)]               # fill mode: fill_value if any k_d is outside [0, s_d-1]

    Differs from NumPy ``x[idx]`` (raises on out-of-range) and from ``jnp.take``
    (fills by default; clip there does not wrap negatives).

    >>> import gatherscatter as gs
    >>> x = [[1, 2, 3], [4, 5, 6]]
    >>> gs.jax.at_get(x, (slice(None), [2, 0])).tolist()
    [[3, 1], [6, 4]]
    >>> gs.jax.at(x)[(5, -1)].get().tolist()
    6
    >>> gs.jax.at([1.0, 2.0])[(slice(None), None)].get().shape
    (2, 1)
    >>> gs.jax.at([1.0, 2.0])[([0, 2],)].get(mode="fill", fill_value=-1.0).tolist()
    [1.0, -1.0]
    """
    return lower_get(at_context("get"), x, idx, mode, fill_value)
