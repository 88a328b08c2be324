"""JAX ``x.at[idx].get/set/add/multiply/min/max``, as functions: ``at_get`` ... ``at_max``.

``at_get`` reads (a gather); the five updates differ only by their combiner:
each is one row of :data:`_VARIANTS` (its name, its reduction and its
docstring), registered by :func:`_register`. The shared index handling is in
:mod:`gatherscatter.dialects.jax._at`; ``gs.jax.at(x)[idx]`` (``at.py``)
calls these functions.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core.policy import Reduction
from ...errors import UnsupportedError
from .._record import BOOL_MASK, Description, Residual, Step, canonical, index_form, tuple_index_args
from .._registry import DialectOp, Lowering, dialect_op, divergence_table
from ._at import at_context, at_divergences, lower_get, lower_scatter
from ._common import GRAD, MODE_VALUES, GatherScatterMode
from ._describe import _INT, _at_scatter, _fill_value, _gather, _mode

__all__ = ["at_add", "at_get", "at_max", "at_min", "at_multiply", "at_set"]


#: the fuzzer indexes these ops with NumPy index expressions
_FUZZ = {"npindex": True}


class _Variant(NamedTuple):
    """One ``x.at[idx].<name>(values)``: its name, the core reduction and the parts of its docstring."""

    name: str
    reduction: Reduction
    summary: str  # what the result is
    body: str  # the rules beyond at_set's indexing and modes
    update: str  # the loop's update line
    differs: str
    examples: str  # the doctest (one per op)


_DOC = """JAX ``x.at[idx].{name}(values)``: {summary}

    Provenance: ``jax.numpy.ndarray.at[...].{name}`` (``lax.{prim}``; jax 0.10), with
    ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].{name}(values)`` calls this.
    ``indices_are_sorted`` / ``unique_indices`` are accepted and ignored (promises);
    ``wrap_negative_indices=False`` leaves negative indices out of range.

    {body}

    Equivalent loop::

        Y = copy(x)
        for j in ndindex(result_shape):                 # row-major
            k = wrap_negative(coords(j))                # unless wrap_negative_indices=False
            if all(0 <= k_d < s_d):  {update}

    Differs from {differs}.

    >>> import gatherscatter as gs
{examples}
"""

_PRIM = {Reduction.NONE: "scatter", Reduction.ADD: "scatter_add", Reduction.SUB: "scatter_sub",
         Reduction.MUL: "scatter_mul", Reduction.MAX: "scatter_max", Reduction.MIN: "scatter_min"}


def _register(v: _Variant) -> DialectOp:
    """Register ``jax.at_<name>`` (and the divergences every ``.at`` op shares) from its table row."""
    name = f"at_{v.name}"
    qualname = f"jax.{name}"
    at_divergences(qualname)

    def describe(form: str = "array", mode: Any = None, wrap_negative_indices: bool = True) -> Description:
        return _at_scatter(qualname, v.reduction.value, form, mode, bool(wrap_negative_indices))

    def lower(x: Any, idx: Any, values: Any, mode: Any = None, *, indices_are_sorted: bool = False,
              unique_indices: bool = False, wrap_negative_indices: bool = True) -> Lowering:
        return lower_scatter(at_context(v.name), v.reduction, x, idx, values, mode, bool(wrap_negative_indices))

    lower.__name__ = lower.__qualname__ = name
    lower.__doc__ = _DOC.format(prim=_PRIM[v.reduction], **v._asdict())
    return dialect_op("jax", name, family="scatter_nd", kind="scatter", versions=("0.10",),
                      differentiable=("x", "values"), describe=describe, grad=GRAD, fuzz=_FUZZ,
                      values={"mode": MODE_VALUES})(lower)


_VARIANTS = [
    _Variant(
        "add", Reduction.ADD, "a copy of ``x`` with ``values`` added at ``x[idx]``.",
        """Indexing and modes as :func:`at_set` (out-of-range updates dropped by
    default, ``'clip'`` clamps). Every update is applied: duplicates accumulate
    (unlike NumPy's buffered ``x[idx] += v``), in row-major order. Runs in the
    promoted dtype and casts back; a bool result dtype is refused (JAX: ``add``
    does not accept bool).""",
        "Y[k] += values[j]",
        "NumPy ``x[idx] += v`` (duplicates added once) and ``np.add.at`` (raises on out-of-range)",
        """    >>> gs.jax.at_add([1.0, 1.0, 1.0, 1.0], ([1, 1, 2],), [10.0, 20.0, 30.0]).tolist()
    [1.0, 31.0, 31.0, 1.0]
    >>> gs.jax.at([1, 2, 3])[([0, 3],)].add(10).tolist()
    [11, 2, 3]""",
    ),
    *(_Variant(
        name, red, f"a copy of ``x`` where ``x[idx]`` keeps the {word[0]} of itself and ``values``.",
        f"""Indexing and modes as :func:`at_set`; duplicates all take part (the
    {word[1]} over ``x`` and every update); NaN propagates; booleans use
    {word[2]}. Runs in the promoted dtype and casts back.""",
        f"Y[k] = {name}(Y[k], values[j])",
        f"NumPy ``np.{word[1]}.at`` (raises on out-of-range indices)",
        f"""    >>> gs.jax.at_{name}([5, 5, 5, 5], ([0, 0, 2],), [2, 4, 7]).tolist()
    {result}""",
    ) for name, red, word, result in (("max", Reduction.MAX, ("larger", "maximum", "OR"), [5, 5, 7, 5]),
                                      ("min", Reduction.MIN, ("smaller", "minimum", "AND"), [2, 5, 5, 5]))),
    _Variant(
        "multiply", Reduction.MUL, "a copy of ``x`` multiplied by ``values`` at ``x[idx]``.",
        """Indexing and modes as :func:`at_set`; duplicates multiply in turn; integer
    products wrap. Runs in the promoted dtype and casts back (an int ``x`` times
    1.5 is truncated); a bool result dtype is refused (JAX: ``mul`` does not
    accept bool).""",
        "Y[k] *= values[j]",
        "NumPy ``np.multiply.at`` (raises on out-of-range)",
        """    >>> gs.jax.at_multiply([5, 5, 5, 5], ([0, 0, 2],), [2, 4, 7]).tolist()
    [40, 5, 35, 5]""",
    ),
    _Variant(
        "set", Reduction.NONE, "a copy of ``x`` with ``x[idx] = values``.",
        """``idx`` is read as in :func:`at_get`; ``values`` broadcast to the shape of
    ``x[idx]``. Negative indices wrap once. Out-of-range updates are dropped
    (``mode=None``, ``'fill'``, ``'drop'``, ``'promise_in_bounds'``); ``'clip'``
    clamps them into range. Duplicates: the last update in row-major order wins
    (JAX: implementation-defined; CPU last). The write happens in the promoted
    dtype of ``x`` and ``values`` (JAX's lattice; Python scalars are weak) and is
    cast back to ``x``'s dtype (float -> int truncates and saturates, NaN -> 0).
    An empty target returns ``x`` unchanged.""",
        "Y[k] = values[j]                # 'clip': Y[clamp(k)] = values[j]",
        "NumPy ``x[idx] = v`` (raises on out-of-range) and from ``torch.index_put`` (raises)",
        """    >>> gs.jax.at_set([1.0, 2.0, 3.0], ([0, -1, 7],), [10.0, 20.0, 30.0]).tolist()
    [10.0, 2.0, 20.0]
    >>> gs.jax.at([1, 2, 3])[([1, 1],)].set([5, 6]).tolist()
    [1, 6, 3]
    >>> gs.jax.at([1, 2, 3])[5].set(9, mode="clip").tolist()
    [1, 2, 9]""",
    ),
    _Variant(
        "subtract", Reduction.SUB, "a copy of ``x`` with ``values`` subtracted at ``x[idx]``.",
        """Indexing and modes as :func:`at_set`; duplicates all subtract in turn
    (``x - v1 - v2``), integers wrap. Runs in the promoted dtype and casts back
    (an int ``x`` minus 2.7 is truncated); a bool result dtype is refused (JAX:
    ``sub`` does not accept bool).""",
        "Y[k] -= values[j]",
        "NumPy ``x[idx] -= v`` (duplicates subtracted once) and ``np.subtract.at`` (raises on out-of-range)",
        """    >>> gs.jax.at_subtract([10, 10, 10], ([0, 0, 5],), [1, 2, 3]).tolist()
    [7, 10, 10]""",
    ),
]

at_add = _register(_VARIANTS[0])

# ------------------------------------------------------------------------------------------------ at_get

at_divergences("jax.at_get")

divergence_table("jax.at_get", __file__, "at_get")


def _describe_get(form: str = "array", mode: Any = None, fill_value: Any = None,
                  wrap_negative_indices: bool = True) -> Description:
    op = "jax.at_get"
    form = index_form(op, form, "x.at")
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
    p2, c, post = _gather(base, fill=fill and mode is not None, fill_value=fill_value,
                          wrap=bool(wrap_negative_indices))
    res = [Residual("empty", "returns zeros for an empty result, and raises for an integer index into a size-0 "
                    "axis", "computes its own empty result or raises"), BOOL_MASK]
    attrs: dict[str, Any] = {"mode": mode, "fill_value": fill_value}
    if not wrap_negative_indices:
        attrs["wrap_negative_indices"] = False
    return Description(op, attrs, ("x", "idx"), c, pre=pre + p2, post=post, residuals=res, layout=layout)


@dialect_op(
    "jax", "at_get", family="gather_nd", kind="gather", versions=("0.10",), differentiable=("x",),
    describe=_describe_get, grad=GRAD, fuzz=_FUZZ, values={"mode": MODE_VALUES, "fill_value": "number"},
)
def at_get(x: Any, idx: Any, mode: Any = None, fill_value: Any = None, *, indices_are_sorted: bool = False,
           unique_indices: bool = False, wrap_negative_indices: bool = True) -> Lowering:
    """JAX ``x.at[idx].get()`` (= ``x[idx]``): NumPy-style indexing with JAX's out-of-range rules.

    Provenance: ``jax.numpy.ndarray.at`` / ``jax.numpy`` indexing (jax 0.10), with
    ``jax_enable_x64=True``; ``gs.jax.at(x)[idx].get(...)`` calls this.

    ``idx`` is anything NumPy accepts in ``x[idx]`` (ints, slices, ``...``, ``None``,
    integer arrays, boolean masks, tuples), except that a non-tuple list is an
    error (use a tuple or an array), and scalar booleans do not count when JAX
    decides whether advanced indices are adjacent. Negative indices wrap once
    (not with ``wrap_negative_indices=False``: they are then out of range, and
    the default mode clamps them to 0). ``indices_are_sorted`` /
    ``unique_indices`` are accepted and ignored (promises).
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
    return lower_get(at_context("get"), x, idx, mode, fill_value, bool(wrap_negative_indices))



at_max, at_min, at_multiply, at_set, at_subtract = (_register(v) for v in _VARIANTS[1:])

# the divergences of single variants
divergence_table("jax.at_max", __file__, "at_max")
divergence_table("jax.at_min", __file__, "at_min")
divergence_table("jax.at_set", __file__, "at_set")
