"""``np.<ufunc>.at(a, indices, b)``: add, subtract, multiply, maximum, minimum as ops, any ufunc generically.

NumPy's ``ufunc.at`` (``ufunc_at`` in ``numpy/_core/src/umath/ufunc_object.c``)
applies ``a[t] = cast_a(f(cast_L(a[t]), cast_L(b_j)))`` once per selected
element, unbuffered, in row-major order of ``a[indices]``:

* ``b`` is read with ``np.asarray`` and broadcast to the shape of ``a[indices]``;
* the loop dtype ``L`` comes from promoting ``a.dtype`` with ``np.asarray(b).dtype``
  (NEP 50, with ``b`` no longer a weak scalar: a Python ``0.1`` runs float32
  data in the float64 loop, Python ``300`` runs int8 data in the int64 loop;
  measured on NumPy 2.4.6);
* the result is cast back to ``a.dtype`` with ``casting='unsafe'`` after every
  single update.

The scatter primitive applies one reduction in one dtype. The lowering is
exact whenever that per-update cast back cannot change the outcome (``L`` is
``a.dtype``; integer add/sub/mul are modular; float max/min round
monotonically; ``b`` holds values ``a.dtype`` represents and ``L`` carries at
least ``2p+2`` bits, so the double rounding is innocuous). Otherwise it runs
in ``L`` and casts the result back, which is exact when no element is selected
twice; with repeated elements it raises :class:`UnsupportedError` (the generic
:func:`ufunc_at` computes that case, and every other ufunc ``ufunc.at`` takes,
round by round: the k-th selection of each element in round k).

Data of non-native byte order runs in the native dtype and is given back in its
own byte order, as NumPy gives it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, as_array, dtype_name, prod
from ...errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError, UnsupportedError
from .._common import BLOCK, data_array, func_name
from .._record import Description, Step
from .._registry import DialectOp, Lowering, dialect_op, divergence, divergence_table
from ._common import np_context, quiet_cast
from ._describe import _ufunc_at
from ._index import row_offsets

__all__ = ["add_at", "lower_at", "maximum_at", "minimum_at", "multiply_at", "subtract_at", "ufunc_at"]

for _name in ("add", "subtract", "multiply", "maximum", "minimum"):
    divergence(
        op=f"numpy.{_name}_at",
        case="a of object, str or bytes dtype",
        when=("dtype",),
        reference="NumPy 2.4",
        theirs=f"np.{_name}.at applies the Python operator (object) or the string ufunc, truncating to "
        "the array's itemsize",
        ours="UnsupportedError: the gatherscatter scatter primitive has no reductions for object/str/bytes",
        evidence="core/scatter.py reduction_ufunc; measured np.add.at(np.array(['a', 'bb']), [0], 'c') -> ['ac', 'bb']",
        kind="choice",
        tags=("core-gap",),
        example={"call": f"numpy.{_name}.at", "args": {"a": [1, 2], "indices": [0], "b": [5]},
                 "dtypes": {"a": "object", "indices": "int64", "b": "int64"}, "inplace": True,
                 "theirs": {"dtype": "object"}, "ours": {"raises": "UnsupportedError"}},
    )
    divergence_table(f"numpy.{_name}_at", r'''
[[divergence]]
case = """
b promotes a to a wider loop dtype that the per-update cast back can change, with an element selected twice (e.g. \
float64 b with inexact values into float32 a, float b into int a)"""
when = "dtype"
reference = "NumPy 2.4"
theirs = "rounds / truncates back to a.dtype after every single update"
ours = "UnsupportedError naming the cast to make (b.astype(a.dtype)); exact without repeated elements"
evidence = """
numpy/_core/src/umath/ufunc_object.c ufunc_at (NPY_UNSAFE_CASTING, one element at a time); measured \
np.add.at(np.zeros(1, int), [0, 0], [0.6, 0.6]) -> [0]"""
kind = "choice"
''', example={"call": f"numpy.{_name}.at", "args": {"a": [0], "indices": [0, 0], "b": [0.6, 0.6]},
                 "dtypes": {"a": "int64", "indices": "int64", "b": "float64"}, "inplace": True,
                 "theirs": {"equals": [0]}, "ours": {"raises": "UnsupportedError"}})
divergence_table("numpy.add_at", r'''
[[divergence]]
case = "b=None passed explicitly (also subtract_at, multiply_at, maximum_at, minimum_at and ufunc_at)"
when = "always"
reference = "NumPy 2.4"
theirs = """
np.add.at(a, idx, None) reads None as a 0-d object b: TypeError from the Python operator (b omitted instead: \
ValueError 'second operand needed for ufunc')"""
ours = """
None is b omitted: ArgumentValueError, which is both a TypeError and a ValueError, so either NumPy error class \
catches it"""
evidence = """
measured, NumPy 2.4.6: np.add.at(np.zeros(3), [0], None) -> TypeError; np.add.at(np.zeros(3), [0]) -> ValueError"""
kind = "choice"
not_reproducible = """
both sides raise (only the error class differs, and ours derives from NumPy's), and the example format has no \
None; tests/dialects/numpy/test_ufunc_at.py checks both classes"""
''')
divergence_table("numpy.maximum_at", r'''
[[divergence]]
case = "complex a"
when = "dtype"
reference = "NumPy 2.4"
theirs = "orders complex numbers lexicographically (real part, then imaginary)"
ours = "UnsupportedError: the core's max/min reductions refuse complex data"
evidence = "core/scatter.py reduction_ufunc; measured np.maximum.at(zeros(3, complex), [0, 0], [1+2j, 2]) -> 2"
kind = "choice"
tags = "core-gap"
[divergence.example]
call = "numpy.maximum.at"
args = { a = [[0, 0], [0, 0]], indices = [0, 0], b = [[1, 2], [2, 0]] }
dtypes = { a = "complex128", indices = "int64", b = "complex128" }
inplace = true
theirs = { equals = [[2, 0], [0, 0]] }
ours = { raises = "UnsupportedError" }
''')
divergence_table("numpy.minimum_at", r'''
[[divergence]]
case = "complex a"
when = "dtype"
reference = "NumPy 2.4"
theirs = "orders complex numbers lexicographically (real part, then imaginary)"
ours = "UnsupportedError: the core's max/min reductions refuse complex data"
evidence = "core/scatter.py reduction_ufunc"
kind = "choice"
tags = "core-gap"
[divergence.example]
call = "numpy.minimum.at"
args = { a = [[0, 0], [0, 0]], indices = [0, 0], b = [[-1, 2], [-1, 0]] }
dtypes = { a = "complex128", indices = "int64", b = "complex128" }
inplace = true
theirs = { equals = [[-1, 0], [0, 0]] }
ours = { raises = "UnsupportedError" }
''')


def _bits(dt: np.dtype[Any]) -> int:
    """Significand bits of a float or complex dtype (per component)."""
    if dt.kind == "c":
        dt = np.dtype(f"f{dt.itemsize // 2}")
    return int(np.finfo(dt).nmant) + 1


def _representable(b: np.ndarray[Any, Any], dt: np.dtype[Any]) -> bool:
    """Every value of ``b`` survives a round trip through ``dt``."""
    back = quiet_cast(quiet_cast(b, dt), b.dtype)
    with np.errstate(all="ignore"):
        eq = back == b
        if b.dtype.kind in "fc":
            eq |= np.isnan(b) & np.isnan(back)
    return bool(np.all(eq))


def _promote(ctx: Any, ufunc: np.ufunc, a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> tuple[Any, ...]:
    """The loop dtypes NumPy 2.4's ``ufunc.at`` uses: NEP 50 promotion of ``a.dtype`` with ``np.asarray(b).dtype``.

    ``b`` is an array by then, so a Python ``0.1`` is float64 (not a weak scalar): ``np.add.at`` on float32
    data with ``0.1`` runs the float64 loop and rounds back after every update.
    """
    da, db = a.dtype, b.dtype
    try:
        return tuple(ufunc.resolve_dtypes((da, db, None), casting="unsafe"))
    except TypeError as exc:
        raise DTypeError(
            f"{ctx.label}: no {ufunc.__name__} loop for a dtype {dtype_name(a.dtype)} and b dtype "
            f"{dtype_name(b.dtype)} ({exc})"
        ) from None


def _broadcast_b(ctx: Any, bb: np.ndarray[Any, Any], rshape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """``b`` broadcast to the shape of ``a[indices]``."""
    try:
        return np.broadcast_to(bb, rshape)
    except ValueError:
        raise ShapeError(
            f"{ctx.label}: b of shape {list(bb.shape)} is not broadcastable to the shape of a[indices], "
            f"{list(rshape)}"
        ) from None


def _native(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``x`` in native byte order (a copy only when it is not)."""
    return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))


def _exact_in_a(red: Reduction, a: np.dtype[Any], loop: np.dtype[Any], b: np.ndarray[Any, Any]) -> bool:
    """Whether computing in ``a.dtype`` with ``b`` cast first equals NumPy's per-update casts."""
    ka, kl = a.kind, loop.kind
    if ka in "iu" and kl in "iu" and red in (Reduction.ADD, Reduction.SUB, Reduction.MUL):
        return True  # modular arithmetic
    if ka == "f" and kl == "f" and red in (Reduction.MAX, Reduction.MIN):
        return True  # rounding is monotone
    if ka not in "biufc" or kl not in "biufc" or not _representable(b, a):
        return False
    if red in (Reduction.MAX, Reduction.MIN):
        return ka != "c"
    if ka in "biu" and kl in "biu":
        return True
    if ka == kl == "f" or (ka == kl == "c" and red in (Reduction.ADD, Reduction.SUB)):
        return _bits(loop) >= 2 * _bits(a) + 2
    return False


class _NotOneScatterError(UnsupportedError):
    """What one scatter cannot compute (per-update casts with a repeated element, complex max/min):
    :func:`ufunc_at` computes it round by round."""


def lower_at(name: str, ufunc: np.ufunc, red: Reduction, a: Any, indices: Any, b: Any) -> Lowering:
    """The lowering shared by ``add_at`` ... ``minimum_at``: a flat scatter with reduction ``red``."""
    ctx = np_context(f"{name}_at", data="a", updates="b")
    ctx = ctx.with_(op=f"numpy.{name}.at")
    d = data_array(ctx, a)
    if b is None:
        raise ArgumentValueError(f"{ctx.label}: second operand needed for ufunc (b is None)")
    bb = as_array(ctx, b, "b")
    # non-native byte order: computed in the native dtype, the result given back in a's own byte order (as NumPy)
    given = d.dtype
    d, bb = _native(d), _native(bb)
    kind = d.dtype.kind
    # NumPy resolves the loop first (no loop: TypeError), then builds the index (IndexError, ...)
    in0, in1, out = _promote(ctx, ufunc, d, bb)
    # trailing axes taken whole stay rows: the offsets cover a[index] without them
    offsets, tail = row_offsets(ctx, d.shape, indices)
    rshape = offsets.shape + tail
    if kind in "OUST" or bb.dtype.kind in "OUST":
        got = dtype_name(d.dtype) if kind in "OUST" else dtype_name(bb.dtype)
        raise UnsupportedError(
            f"{ctx.label}: {got} operands are not supported: the gatherscatter scatter primitive has no "
            f"reductions for object, str or bytes data (NumPy applies the Python/string operator)"
        )
    if kind == "c" and red in (Reduction.MAX, Reduction.MIN):
        raise _NotOneScatterError(
            f"{ctx.label}: complex a is not supported: NumPy orders complex numbers lexicographically, and the "
            f"gatherscatter max/min reductions refuse complex data"
        )
    bshaped = _broadcast_b(ctx, bb, rshape)
    policy = Policy(bounds="raise", negative="raise", reduction=red)
    spec = IndexSpec(axis=0)
    shape = d.shape
    flat = d.reshape(-1, prod(tail)) if tail else d.reshape(-1)
    ushape = offsets.shape + ((prod(tail),) if tail else ())
    if not (in0 == in1 == out):
        raise UnsupportedError(
            f"{ctx.label}: the {ufunc.__name__} loop for a dtype {dtype_name(d.dtype)} and b dtype "
            f"{dtype_name(bb.dtype)} takes mixed operand dtypes ({in0}, {in1} -> {out}); gatherscatter "
            f"scatters need one dtype"
        )
    loop = np.dtype(out)
    # complex -> real casts discard the imaginary part, as NumPy does (quiet_cast: no global warning filters)
    with np.errstate(all="ignore"):
        b_loop = quiet_cast(bshaped, loop) if bshaped.dtype != loop else bshaped
        if loop == d.dtype or _exact_in_a(red, d.dtype, loop, b_loop):
            upd = b_loop if loop == d.dtype else quiet_cast(b_loop, d.dtype)
            u2 = upd.reshape(ushape)
            return Lowering("scatter", flat, offsets, spec, policy, ctx, updates=u2,
                            post=lambda y: y.reshape(shape).astype(given, copy=False))
        hint = f"cast b to {dtype_name(d.dtype)} first (b.astype(a.dtype)) if that is what you mean"
        if offsets.size > 1 and np.unique(offsets.reshape(-1)).size < offsets.size:
            raise _NotOneScatterError(
                f"{ctx.label}: a has dtype {dtype_name(d.dtype)} but the {ufunc.__name__} loop runs in "
                f"{dtype_name(loop)} (b has dtype {dtype_name(bb.dtype)}) and some element is selected more "
                f"than once: NumPy casts back to {dtype_name(d.dtype)} after every single update, which one "
                f"scatter cannot reproduce; {hint}"
            )
        wide = quiet_cast(flat, loop)
        if not _representable(flat, loop):
            raise UnsupportedError(
                f"{ctx.label}: a has dtype {dtype_name(d.dtype)} but the {ufunc.__name__} loop runs in "
                f"{dtype_name(loop)}, which cannot hold every value of a exactly; {hint}"
            )
    dt = given

    def post(y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        res: np.ndarray[Any, Any] = quiet_cast(y, dt).reshape(shape)
        return res

    return Lowering("scatter", wide, offsets, spec, policy, ctx, updates=b_loop.reshape(ushape), post=post)


# ------------------------------------------------------------------------------------------------ the five ops


class _Variant(NamedTuple):
    """One ``np.<ufunc>.at``: the ufunc's name, the core reduction, its canonical name and its docstring's own parts
    (the update as an expression of ``a[t]`` and ``b``, the loop's update line, the tail)."""

    ufunc: str
    reduction: Reduction
    canonical: str
    expr: str
    loop: str
    tail: str


def _register(v: _Variant) -> DialectOp:
    """Register ``numpy.<ufunc>_at`` from its table row."""
    name = f"{v.ufunc}_at"
    qualname = f"numpy.{name}"
    ufunc = getattr(np, v.ufunc)

    def describe(form: str = "array") -> Description:
        return _ufunc_at(qualname, v.canonical, form)

    def lower(a: Any, indices: Any, b: Any = None) -> Lowering:
        return lower_at(v.ufunc, ufunc, v.reduction, a, indices, b)

    lower.__name__ = lower.__qualname__ = name
    lower.__doc__ = _DOC.format(expr=v.expr, ufunc=v.ufunc, loop=v.loop, tail=v.tail)
    return dialect_op("numpy", name, family="general", kind="scatter", versions=("2.4",), differentiable=("a", "b"),
                      describe=describe)(lower)


#: the docstring every ufunc.at op shares (its summary, loop line and tail come from its row)
_DOC = """NumPy {ufunc}.at: unbuffered ``{expr}`` at every element ``a[indices]`` selects.

    Provenance: ``numpy.{ufunc}.at(a, indices, b)`` (``ufunc.at``), NumPy 2.4;
    NumPy works in place, gatherscatter returns the updated copy.

    ``indices`` is any NumPy index expression: an int, a slice, ``...``,
    ``None``, an integer or boolean array (lists are arrays), or a tuple of
    these; negative entries count from the back, anything outside
    ``[-n, n-1]`` raises. ``b`` is broadcast to the shape of ``a[indices]``.
    Every selected element is updated once per time it is selected, in
    row-major order of ``a[indices]`` (repeated elements accumulate). Dtypes
    follow NumPy: the loop dtype promotes ``a`` with ``np.asarray(b)`` (NEP 50)
    and the result is cast back to ``a.dtype`` unsafely after each update
    (see ``gatherscatter.dialects.numpy.at``); data of non-native byte order
    keeps it. Without ``b``: NumPy's "second operand needed" (a ValueError).

    Equivalent loop::

        Y = a.copy()
        sel = arange(a.size).reshape(a.shape)[indices]      # flat positions, any index expression
        for j in ndindex(sel.shape):
            t = unravel_index(sel[j], a.shape)
            Y[t] = {loop}                   # b_j = broadcast(b, sel.shape)[j]
{tail}"""


def _extremum_tail(ufunc: str, word: str, args: str, result: str) -> str:
    """The docstring tail of ``maximum_at`` / ``minimum_at``."""
    return f"""
    Differs from ``torch.scatter_reduce(reduce='a{word}')`` (per-axis indices,
    ``include_self``); NaN propagates as in ``np.{ufunc}``. Complex ``a`` is
    refused (NumPy orders complex lexicographically; the core has no such {word});
    :func:`ufunc_at` computes it.

    >>> import gatherscatter as gs
    >>> gs.numpy.{ufunc}_at({args}).tolist()
    {result}
    """


_VARIANTS = [
    _Variant(
        "add",
        Reduction.ADD,
        "add",
        'a[t] + b',
        'Y[t] + b_j',
        """
    Differs from ``a[indices] += b`` (a repeated element is incremented once),
    from ``torch.index_put(accumulate=True)`` (no slices, no dtype promotion) and
    from ``jax.numpy``'s ``x.at[idx].add`` (drops out-of-range updates).

    >>> import gatherscatter as gs
    >>> gs.numpy.add_at([1, 2, 3, 4], [0, 1, 2, 2], 1).tolist()
    [2, 3, 5, 4]
    >>> gs.numpy.add_at([[0, 0, 0], [0, 0, 0]], (slice(None), [0, 0]), 1).tolist()
    [[2, 0, 0], [2, 0, 0]]
    """,
    ),
    _Variant(
        "maximum",
        Reduction.MAX,
        "max",
        'max(a[t], b)',
        'maximum(Y[t], b_j)',
        _extremum_tail("maximum", "max", "[1, 5, 3], [0, 0, 2], [4, 2, 9]", "[4, 5, 9]"),
    ),
    _Variant(
        "minimum",
        Reduction.MIN,
        "min",
        'min(a[t], b)',
        'minimum(Y[t], b_j)',
        _extremum_tail("minimum", "min", "[1, 5, 3], [1, 1], [4, 2]", "[1, 2, 3]"),
    ),
    _Variant(
        "multiply",
        Reduction.MUL,
        "mul",
        'a[t] * b',
        'Y[t] * b_j',
        """
    Differs from ``a[indices] *= b`` (a repeated element is multiplied once) and
    from ``torch.scatter_reduce(reduce='prod')`` (per-axis indices, ``include_self``).

    >>> import gatherscatter as gs
    >>> gs.numpy.multiply_at([1, 2, 3, 4], [2, 3], 2).tolist()
    [1, 2, 6, 8]
    """,
    ),
    _Variant(
        "subtract",
        Reduction.SUB,
        "sub",
        'a[t] - b',
        'Y[t] - b_j',
        """
    Differs from ``a[indices] -= b`` (a repeated element is decremented once);
    bool data is refused, as NumPy refuses boolean subtract (OpenVINO/ONNX
    style XOR is not what NumPy does).

    >>> import gatherscatter as gs
    >>> gs.numpy.subtract_at([1, 2, 3, 4], [0, 1, 2, 2], 1).tolist()
    [0, 1, 1, 4]
    """,
    ),
]

add_at, maximum_at, minimum_at, multiply_at, subtract_at = (_register(v) for v in _VARIANTS)


#: the ufuncs with a registered op (a core reduction: translatable, differentiable); ``ufunc_at`` runs these
_TABLE: dict[str, DialectOp] = {
    "add": add_at, "maximum": maximum_at, "minimum": minimum_at, "multiply": multiply_at, "subtract": subtract_at,
}


def _rank(off: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """How many times each entry's value occurred before it (0 for a first occurrence), in row-major order."""
    order = np.argsort(off, kind="stable")
    srt = off[order]
    start = np.r_[0, np.flatnonzero(srt[1:] != srt[:-1]) + 1]
    run = np.repeat(start, np.diff(np.r_[start, srt.size]))
    rank = np.empty(off.size, np.int64)
    rank[order] = np.arange(off.size) - run
    return rank


#: exponents for which NumPy's power loops take a fast path when the exponent is a stride-0 operand (square,
#: sqrt, reciprocal: results differ in the last bits from the vector loop); ``ufunc.at`` calls its loop one
#: element at a time, which takes them (measured on NumPy 2.4.6: ``np.power.at`` matches ``x * x`` for 2)
_POWER_FAST = (2.0, 0.5, -1.0)


def _call(ufunc: np.ufunc, dts: tuple[Any, ...], x: np.ndarray[Any, Any], *b: np.ndarray[Any, Any]) -> Any:
    """``ufunc(x, *b)`` in the loop ``dts``, as ``ufunc.at`` calls it element by element."""
    try:
        res = ufunc(x, *b, signature=dts, casting="unsafe")
        if b and ufunc in (np.power, np.float_power) and b[0].dtype.kind in "fc":
            for e in _POWER_FAST:
                m = b[0] == e
                if m.any():
                    res[m] = ufunc(x[m], np.array(e, b[0].dtype), signature=dts, casting="unsafe")
    except ValueError as exc:  # NumPy's loop refuses a value (integers to negative integer powers ...)
        raise ArgumentValueError(f"numpy.{ufunc.__name__}.at (numpy 2.4): {exc}") from None
    return res


def _accepted(f: Any) -> bool:
    """Whether NumPy's ``ufunc.at`` takes ``f``: a ufunc with one output, one or two inputs, no core signature."""
    return isinstance(f, np.ufunc) and f.nout == 1 and f.nin in (1, 2) and f.signature is None


#: every ufunc ``ufunc.at`` takes, by its NumPy name (``ufunc_at``'s ``ufunc`` attribute)
UFUNCS: tuple[str, ...] = tuple(sorted(n for n in dir(np)
                                       if _accepted(getattr(np, n)) and getattr(np, n).__name__ == n))
#: the unary ones (described as a counting scatter and ``apply_counted``)
UNARY: tuple[str, ...] = tuple(n for n in UFUNCS if getattr(np, n).nin == 1)
#: the binary ufuncs a core reduction describes (their own registered op: add_at ...)
_REDUCTIONS = {"add": "add", "subtract": "sub", "multiply": "mul", "maximum": "max", "minimum": "min"}


def _has_loop(f: np.ufunc, dt: np.dtype[Any]) -> bool:
    try:
        f.resolve_dtypes((dt, None), casting="unsafe")
    except TypeError:
        return False
    return True


def _describe_ufunc_at(ufunc: Any, form: str = "array") -> Description:
    op = "numpy.ufunc_at"
    name = func_name(op, ufunc, UFUNCS)
    if name in _REDUCTIONS:
        d = _ufunc_at(op, _REDUCTIONS[name], form)
        d.attrs = {"ufunc": name}
        return d
    if name not in UNARY:
        raise UnsupportedError(
            f"translate {op}: ufunc={name!r} has no canonical form: NumPy applies it once per selected element in "
            "turn (a op b1 op b2, cast back to a.dtype after each), which no scatter reduction followed by one "
            f"element-wise step reproduces; described: {sorted(_REDUCTIONS)} and the unary ufuncs"
        )
    d = _ufunc_at(op, "add", form)
    pre = [Step.adapt("zeros_like", "z", "a", why="count the selections of each element"),
           Step.adapt("cast", "counts0", "z", dtype="int64", why="the counts are integers"),
           d.pre[0],  # the index tuples
           Step.adapt("full_slices", "ones", "tuples", "counts0", value=1, why="one count per selection")]
    c = d.canonical.with_(data="counts0", updates="ones", out="count")
    post = [Step.adapt("apply_counted", "out", "a", "count", func=name, why=f"{name} once per selection")]
    layout = dict(d.layout)
    inner = layout["to_source"]

    def to_source(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        args: dict[str, Any] = inner(canon, rng)
        args.pop("b", None)
        return args

    layout["to_source"] = to_source
    f = getattr(np, name)
    layout["data_dtypes"] = tuple(t for t in ("float64", "float32", "int64", "int32") if _has_loop(f, np.dtype(t)))
    return Description(op, {"ufunc": name}, ("a", "indices"), c, pre=pre, post=post, residuals=d.residuals[1:],
                       layout=layout)


@dialect_op("numpy", "ufunc_at", family="general", kind="scatter", versions=("2.4",), differentiable=("a", "b"),
            describe=_describe_ufunc_at, values={"ufunc": UFUNCS},
            variants=({"ufunc": "add"}, {"ufunc": "maximum"}, {"ufunc": "negative"}, {"ufunc": "square"}),
            fuzz={"npindex": True, "choices": {"ufunc": ([np.add, np.negative, np.square, np.maximum, "multiply"],
                                                         [np.divmod, "nope", 3])}})
def ufunc_at(ufunc: Any, a: Any, indices: Any, b: Any = None) -> Lowering:
    """NumPy ``ufunc.at``: ``ufunc(a[t], b_j)`` (or ``ufunc(a[t])``) unbuffered at every selected element.

    Provenance: ``numpy.<ufunc>.at(a, indices, b=None)``, NumPy 2.4, for every
    ufunc NumPy's ``ufunc.at`` takes: one output, no core signature, binary
    (``divide``, ``floor_divide``, ``power``, ``fmax``, ``fmin``,
    ``logaddexp``, ``arctan2``, ``copysign``, ...) with ``b``, or unary
    (``negative``, ``sqrt``, ...) without it. NumPy works in place;
    gatherscatter returns the updated copy.

    ``add``, ``subtract``, ``multiply``, ``maximum`` and ``minimum`` run their
    registered ops (:func:`add_at` ...: one scatter with a core reduction,
    same results, errors and recorded divergences). Any other ufunc is
    applied round by round: the k-th time an element is selected is handled
    in round k, so each round updates distinct elements and the order of
    updates is NumPy's row-major order (one vectorised ufunc call per round:
    the cost grows with how often the most-selected element is selected). Dtypes follow NumPy: the loop dtypes
    come from ``ufunc.resolve_dtypes`` (a 0-d ``b`` by value against an n-d
    ``a``), and every update is cast back to ``a.dtype`` unsafely (numerical
    warnings are not emitted).

    Equivalent loop::

        Y = a.copy()
        sel = arange(a.size).reshape(a.shape)[indices]
        for j in ndindex(sel.shape):
            t = unravel_index(sel[j], a.shape)
            Y[t] = ufunc(Y[t], b_j)        # b_j = broadcast(b, sel.shape)[j]; ufunc(Y[t]) if unary

    Differs from ``ufunc(a[indices], b)`` assigned back (a repeated element is
    updated once) and from JAX's ``x.at[idx].divide/power/apply`` (drop
    out-of-range updates; divide and power combine repeated values first).

    ``ufunc`` is the ufunc or its NumPy name (``'divide'``). Description (the
    record's ``ufunc`` attribute takes every name of :data:`UFUNCS`): the five
    above as their ops; a unary ufunc as a counting scatter (ones added into
    int64 zeros) and the adapter ``apply_counted(a, counts, ufunc)``; any other
    binary ufunc has no canonical form (UnsupportedError from ``describe``,
    saying why), and ``gs.vjp`` refuses every ufunc but the five.

    >>> import numpy as np, gatherscatter as gs
    >>> gs.numpy.ufunc_at(np.divide, [8.0, 8.0, 8.0], [0, 0, 2], 2).tolist()
    [2.0, 8.0, 4.0]
    >>> gs.numpy.ufunc_at(np.negative, [1, 2, 3], [0, 0, 1]).tolist()
    [1, -2, 3]
    """
    ctx = np_context("ufunc_at", data="a", updates="b")
    if isinstance(ufunc, str):
        if ufunc not in UFUNCS:
            raise ArgumentValueError(f"{ctx.label}: ufunc={ufunc!r} is not the name of a ufunc ufunc.at takes")
        ufunc = getattr(np, ufunc)
    if not isinstance(ufunc, np.ufunc):
        raise ArgumentError(f"{ctx.label}: ufunc must be a numpy ufunc such as np.add (got {ufunc!r})")
    ctx = ctx.with_(op=f"numpy.{ufunc.__name__}.at")
    if ufunc.signature is not None:
        raise DTypeError(f"{ctx.label}: {ufunc.__name__}.at does not support ufunc with non-trivial signature: "
                         f"{ufunc.signature}")
    if ufunc.nout != 1 or ufunc.nin not in (1, 2):
        raise ArgumentValueError(f"{ctx.label}: only single output ufuncs are supported (nin={ufunc.nin}, "
                                 f"nout={ufunc.nout})")
    uname = str(ufunc.__name__)
    if uname in _TABLE and getattr(np, uname, None) is ufunc:
        try:
            low: Lowering = _TABLE[uname].lower(a, indices, b)
            return low
        except _NotOneScatterError:
            pass  # the one scatter cannot cast back after every update: the rounds below do
    d = data_array(ctx, a)
    given = d.dtype
    if ufunc.nin == 2 and b is None:
        raise ArgumentValueError(f"{ctx.label}: second operand needed for ufunc (b is None)")
    if ufunc.nin == 1 and b is not None:
        raise ArgumentValueError(f"{ctx.label}: second operand provided when ufunc is unary")
    d = _native(d)
    bb = None if b is None else _native(as_array(ctx, b, "b"))
    if d.dtype.kind in "OUST" or (bb is not None and bb.dtype.kind in "OUST"):
        raise UnsupportedError(f"{ctx.label}: object, str or bytes operands are not supported")
    if bb is not None:
        dts = _promote(ctx, ufunc, d, bb)
    else:
        try:
            dts = tuple(ufunc.resolve_dtypes((d.dtype, None), casting="unsafe"))
        except TypeError as exc:
            raise DTypeError(
                f"{ctx.label}: no {ufunc.__name__} loop for a dtype {dtype_name(d.dtype)} ({exc})"
            ) from None
    offsets, tail = row_offsets(ctx, d.shape, indices)
    rshape = offsets.shape + tail
    work = d.reshape(-1, prod(tail))
    off = offsets.reshape(-1)
    args: list[np.ndarray[Any, Any]] = []
    if bb is not None:
        bshaped = _broadcast_b(ctx, bb, rshape)
        args.append(quiet_cast(np.ascontiguousarray(bshaped).reshape(off.size, prod(tail)), dts[1]))
    policy = Policy(bounds="raise", negative="raise", reduction=Reduction.ADD)
    counts0 = np.zeros(work.shape[0], np.int64)
    low = Lowering("scatter", counts0, off, IndexSpec(axis=0), policy, ctx, updates=np.ones(off.size, np.int64),
                   nonlinear=f"{ufunc.__name__} applied once per selection")

    def rounds(rank: np.ndarray[Any, Any], rows_of: Any) -> np.ndarray[Any, Any]:
        """Round k applies the ufunc to the elements selected a k-th time (``rank == k``), in NumPy's order."""
        w = work.copy()
        with np.errstate(all="ignore"):
            for k in range(int(rank.max(initial=-1)) + 1):
                pick = np.flatnonzero(rank == k)
                rows = rows_of(pick)
                x = quiet_cast(w[rows], dts[0])
                res = _call(ufunc, dts, x, *(v[pick] for v in args))
                w[rows] = quiet_cast(res, w.dtype)
        out: np.ndarray[Any, Any] = w.reshape(d.shape).astype(given, copy=False)
        return out

    if ufunc.nin == 1:  # the description: count the selections, then apply the ufunc that many times

        def counted(counts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            w = work.copy()
            with np.errstate(all="ignore"):
                step = max(BLOCK // max(w.shape[1], 1), 1)  # blocks of rows: the selections stay small
                for lo in range(0, w.shape[0], step):
                    wb, cb = w[lo : lo + step], counts[lo : lo + step]
                    for k in range(1, int(cb.max(initial=0)) + 1):
                        sel = cb >= k
                        wb[sel] = quiet_cast(_call(ufunc, dts, quiet_cast(wb[sel], dts[0])), w.dtype)
            out: np.ndarray[Any, Any] = w.reshape(d.shape).astype(given, copy=False)
            return out

        low.post = counted
        return low
    low.result = rounds(_rank(off) if off.size else off, lambda pick: off[pick])
    return low
