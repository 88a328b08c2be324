"""What every JAX op shares: naming, dtypes, fill values, modes, type promotion, casts.

JAX ops here behave as JAX with ``jax_enable_x64=True`` (64-bit dtypes kept).
Checked against jax/jaxlib 0.10.2 on CPU (sources read at 0.10.2:
``jax/_src/numpy/indexing.py``, ``jax/_src/lax/slicing.py``, ``jax/_src/ops/scatter.py``,
``jax/_src/dtypes.py``).
"""

from __future__ import annotations

import enum
import functools
from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.policy import Reduction
from ...core.shape import dtype_name
from ...errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError, UnsupportedError
from .._common import COMPLEX, NUMERIC, apply_counted_loop, data_array
from .._record import GradConventions
from .._registry import Lowering, divergence, divergence_table

__all__ = [
    "JAX_DTYPES",
    "JAX_VERSION",
    "MODE_VALUES",
    "GatherScatterMode",
    "check_data",
    "common_divergences",
    "default_fill",
    "fill_value_of",
    "index_example",
    "int32_index_divergence",
    "jax_cast",
    "jax_context",
    "narrow_index_divergence",
    "parse_mode",
    "promote",
]

JAX_VERSION = "jax 0.10"
"""The JAX version these ops reproduce (observed: jax/jaxlib 0.10.2, CPU, x64)."""

JAX_DTYPES = NUMERIC | COMPLEX | frozenset({"bool", "bfloat16"})

MODE_VALUES = ("clip", "fill", "drop", "promise_in_bounds")
"""The ``mode`` strings a gather/scatter accepts (``jax.lax.GatherScatterMode``; None: the op's default)."""


@memo
def jax_context(op: str, **names: str) -> OpContext:
    """Message naming: ``jax.numpy.take (jax 0.10)`` with JAX's argument names."""
    return OpContext(op=op, version=JAX_VERSION, **names)


def check_data(ctx: OpContext, value: Any, name: str | None = None) -> np.ndarray[Any, Any]:
    """The data argument as an array of a dtype JAX accepts (strings and objects do not stage)."""
    arr = data_array(ctx, value, name)
    got = dtype_name(arr.dtype)
    if got not in JAX_DTYPES:
        raise DTypeError(
            f"{ctx.label}: {name or ctx.data} dtype {got} is not a JAX array dtype; expected one of: "
            f"{', '.join(sorted(JAX_DTYPES))}"
        )
    return arr


def _kind(dtype: np.dtype[Any]) -> str:
    """NumPy kind letter, with bfloat16 (kind 'V' in ml_dtypes) read as a float."""
    return "f" if dtype_name(dtype) == "bfloat16" else dtype.kind


def default_fill(dtype: np.dtype[Any]) -> Any:
    """JAX's gather fill value: NaN (inexact), iinfo.min (signed), iinfo.max (unsigned), True (bool)."""
    k = _kind(dtype)
    if k in "fc":
        return np.nan
    if k == "i":
        return int(np.iinfo(dtype).min)
    if k == "u":
        return int(np.iinfo(dtype).max)
    return True


def fill_value_of(ctx: OpContext, dtype: np.dtype[Any], value: Any) -> Any:
    """The fill value a fill-mode gather uses (``None``: :func:`default_fill`).

    JAX converts it as ``numpy.asarray(value).astype(dtype)`` (1.5 -> 1, 300 -> 44
    for uint8); a complex value for real data and non-scalars are refused.
    """
    if value is None:
        return default_fill(dtype)
    arr = np.asarray(value)
    if arr.ndim != 0:
        raise ArgumentError(f"{ctx.label}: fill_value must be a scalar; got shape {list(arr.shape)}")
    if arr.dtype == object and isinstance(value, int):
        raise DTypeError(f"{ctx.label}: fill_value {value!r} does not fit a 64-bit integer")
    if arr.dtype.kind not in "biufc" and dtype_name(arr.dtype) != "bfloat16":
        raise DTypeError(f"{ctx.label}: fill_value must be a number or bool; got {value!r}")
    if arr.dtype.kind == "c" and _kind(dtype) != "c":
        raise DTypeError(f"{ctx.label}: fill_value {value!r} is complex but the data dtype is {dtype_name(dtype)}")
    return arr.item()


class GatherScatterMode(enum.Enum):
    """``jax.lax.GatherScatterMode``: how gathers and scatters treat out-of-bounds indices.

    ``CLIP``: clamp so the whole window is in range. ``FILL_OR_DROP``: a gather
    window with any out-of-bounds element is entirely filled; a scatter window with
    any out-of-bounds element is entirely dropped. ``PROMISE_IN_BOUNDS``: a promise;
    XLA on CPU clamps gathers and drops scatters. ``ONE_HOT``: only
    ``jnp.take_along_axis`` (not supported here).
    """

    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()
    ONE_HOT = enum.auto()

    @staticmethod
    def from_any(s: Any) -> GatherScatterMode:
        """Parse a mode like JAX: ``'clip'``, ``'fill'``/``'drop'``/None, ``'promise_in_bounds'``, ``'one_hot'``."""
        if isinstance(s, GatherScatterMode):
            return s
        name = getattr(s, "name", None)
        if isinstance(name, str) and name in GatherScatterMode.__members__ and type(s).__name__ == "GatherScatterMode":
            return GatherScatterMode[name]  # a real jax.lax.GatherScatterMode
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s == "fill" or s == "drop":
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        if s == "one_hot":
            return GatherScatterMode.ONE_HOT
        raise UnsupportedError(
            f'Unknown gather mode "{s}"; expected one of: clip, fill, drop, promise_in_bounds, '
            "one_hot (or a GatherScatterMode)"
        )


def parse_mode(ctx: OpContext, mode: Any, *, default: GatherScatterMode) -> GatherScatterMode:
    """A gather/scatter ``mode`` argument (``None``: ``default``), errors naming the op."""
    if mode is None:
        return default
    try:
        return GatherScatterMode.from_any(mode)
    except UnsupportedError as exc:
        raise UnsupportedError(f"{ctx.label}: {exc}") from None


# ---------------------------------------------------------------------------------------
# type promotion (jax/_src/dtypes.py, _type_promotion_lattice, strict=False)

_LATTICE: dict[str, tuple[str, ...]] = {
    "bool": ("i*",),
    "i*": ("uint8", "int8"),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("f*",),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("f*",),
    "f*": ("bfloat16", "float16", "c*"),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "c*": ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}
_WEAK_DEFAULT = {"i*": "int64", "f*": "float64", "c*": "complex128"}


@functools.cache
def _upper(t: str) -> frozenset[str]:
    seen = {t}
    stack = [t]
    while stack:
        for u in _LATTICE[stack.pop()]:
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return frozenset(seen)


@functools.cache
def _join(a: str, b: str) -> str:
    common = _upper(a) & _upper(b)
    # the least upper bound: the common type every other common type lies above
    for t in common:
        if common <= _upper(t):
            return t
    raise AssertionError(f"no join for {a}, {b}")  # pragma: no cover - the lattice is complete


def _np_dtype(name: str) -> np.dtype[Any]:
    if name == "bfloat16":
        import ml_dtypes  # only reached with bfloat16 data, which already needs ml_dtypes

        bf16: np.dtype[Any] = np.dtype(ml_dtypes.bfloat16)
        return bf16
    return np.dtype(name)


def promote(ctx: OpContext, dtype: np.dtype[Any], values: Any) -> tuple[np.ndarray[Any, Any], np.dtype[Any]]:
    """Values as JAX's ``x.at[idx].op(values)`` reads them, and the dtype the scatter runs in.

    A Python int within the range of an integer ``x`` takes ``x``'s dtype; other
    Python scalars are *weak* (int, float, complex); arrays and lists keep their
    NumPy dtype. The scatter runs in the join of ``x``'s dtype and the values'
    type on JAX's promotion lattice; the result is cast back to ``x``'s dtype.
    """
    xname = dtype_name(dtype)
    if isinstance(values, int) and _kind(dtype) in "iu":
        info = np.iinfo(dtype)
        if info.min <= values <= info.max:
            return np.asarray(values, dtype), dtype
    weak: str | None = None
    # only Python scalars are weak (NumPy scalars such as np.float64 are not, although they subclass float)
    if type(values) is int:
        if not np.iinfo(np.int64).min <= values <= np.iinfo(np.int64).max:
            raise DTypeError(f"{ctx.label}: Python int {values} too large to convert to int64")
        arr, weak = np.asarray(values, np.int64), "i*"
    elif type(values) is float:
        arr, weak = np.asarray(values, np.float64), "f*"
    elif type(values) is complex:
        arr, weak = np.asarray(values, np.complex128), "c*"
    else:
        try:
            with np.errstate(all="ignore"):
                arr = np.asarray(values)
        except (ValueError, TypeError) as exc:
            raise DTypeError(f"{ctx.label}: {ctx.updates} is not an array NumPy can read ({exc})") from None
        if dtype_name(arr.dtype) not in JAX_DTYPES:
            raise DTypeError(f"{ctx.label}: {ctx.updates} dtype {dtype_name(arr.dtype)} is not a JAX array dtype")
    vname = weak or dtype_name(arr.dtype)
    joined = _join(xname, vname)
    out = _np_dtype(_WEAK_DEFAULT.get(joined, joined))
    return jax_cast(arr, out), out


def jax_cast(arr: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """``lax.convert_element_type`` on CPU: complex -> real keeps the real part; float -> int
    truncates toward zero, saturates at the integer range and maps NaN to 0; int -> int
    wraps; anything -> bool is ``!= 0``."""
    if arr.dtype == dtype:
        return arr
    src = arr
    if src.dtype.kind == "c" and _kind(dtype) != "c":
        src = src.real
    if _kind(dtype) == "b":
        return np.asarray(src != 0)
    sk = _kind(src.dtype)
    if sk == "f" and _kind(dtype) in "iu":
        f = src.astype(np.float64)
        info = np.iinfo(dtype)
        lo, hi = float(info.min), float(info.max)
        with np.errstate(all="ignore"):
            t = np.trunc(np.where(np.isnan(f), 0.0, f))
            out = np.clip(t, lo, hi).astype(dtype)
        # float(hi) may round up past the range (2**63, 2**64): saturate explicitly
        out = np.where(t >= hi, np.array(info.max, dtype), out)
        return np.asarray(np.where(t <= lo, np.array(info.min, dtype), out), dtype)
    with np.errstate(all="ignore"):
        return np.asarray(src.astype(dtype))



# ------------------------------------------------------------------------------------------------ examples

_F3 = [1.5, 2.5, 3.5]
_GATHER_DN = {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0]}
_SCATTER_DN = {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0]}
_AT = {"set": [20, 2.5, 10], "add": [21.5, 2.5, 13.5], "subtract": [-18.5, 2.5, -6.5], "multiply": [30, 2.5, 35],
       "max": [20, 2.5, 10], "min": [1.5, 2.5, 3.5], "divide": [0.075, 2.5, 0.35],
       "power": [3325.256730079651, 2.5, 275854.7353515625]}

#: one plain call of each JAX op on float data with int indices (the framework callable, the arguments with the
#: names of the data and index arguments, and the result, by hand), from which the records every JAX op shares
#: build their examples (tests/dialects/test_divergences_strict.py)
_BASE: dict[str, dict[str, Any]] = {
    "jax.take": {"call": "jax.numpy.take", "args": {"a": _F3, "indices": [2, 0]}, "result": [3.5, 1.5]},
    "jax.take_along_axis": {"call": "jax.numpy.take_along_axis", "args": {"arr": _F3, "indices": [2, 0], "axis": 0},
                            "result": [3.5, 1.5]},
    "jax.lax.gather": {"call": "jax.lax.gather", "args": {"operand": _F3, "start_indices": [[2], [0]],
                       "dimension_numbers": _GATHER_DN, "slice_sizes": [1]}, "result": [3.5, 1.5]},
    **{f"jax.lax.scatter{s}": {"call": f"jax.lax.scatter{s}", "args": {"operand": _F3, "scatter_indices": [[2], [0]],
       "updates": [10, 20], "dimension_numbers": _SCATTER_DN}, "result": _AT[r]}
       for s, r in (("", "set"), ("_add", "add"), ("_sub", "subtract"), ("_mul", "multiply"), ("_max", "max"),
                    ("_min", "min"))},
    "jax.at_get": {"call": "jax.numpy.ndarray.at.get", "args": {"x": _F3, "idx": [2, 0]}, "result": [3.5, 1.5]},
    **{f"jax.at_{r}": {"call": f"jax.numpy.ndarray.at.{r}", "args": {"x": _F3, "idx": [2, 0], "values": [10, 20]},
       "result": _AT[r]} for r in _AT},  # divide, power: jax.at_divide, jax.at_power
    **{f"jax.{n}": {"call": f"jax.ops.{n}", "args": {"data": _F3, "segment_ids": [0, 0, 1], "num_segments": 2},
       "result": r} for n, r in (("segment_sum", [4, 3.5]), ("segment_prod", [3.75, 3.5]),
                                 ("segment_max", [2.5, 3.5]), ("segment_min", [1.5, 3.5]))},
}
_ARRAYS = {"a": "float64", "arr": "float64", "operand": "float64", "x": "float64", "data": "float64",
           "updates": "float64", "values": "float64", "indices": "int64", "start_indices": "int64",
           "scatter_indices": "int64", "idx": "int64", "segment_ids": "int64"}


def index_example(op: str, case: str) -> dict[str, Any]:
    """The example of a shared index record: ``'int32'`` (index 2**32 read modulo 2**32 by JAX; ours: out of
    range, so the fill value -1 or a dropped update), ``'narrow'`` (an int8 index -1 on an axis of size 300),
    ``'bool_scalar'`` (a NumPy bool scalar as the whole index of ``x.at``)."""
    base = _BASE[op]
    call, names = base["call"], list(base["args"])
    data, idx = names[0], names[1]
    scatter = "values" in base["args"]
    kind = call.rsplit(".", 1)[1]
    if case == "int32":
        args: dict[str, Any] = {data: [10, 20, 30], idx: [[2**32]] if "lax" in call else [2**32]}
        args.update({k: v for k, v in base["args"].items() if k not in args and k != "values"})
        dtypes = {data: "int32", idx: "int64"}
        if scatter:
            args["values"] = 5 if kind in ("min", "divide", "power") else 50
            dtypes["values"] = "int32"
            new = {"set": 50, "add": 60, "subtract": -40, "multiply": 500, "max": 50, "min": 5, "divide": 2,
                   "power": 100000}[kind]
            return {"call": call, "args": args, "dtypes": dtypes, "theirs": {"equals": [new, 20, 30]},
                    "ours": {"equals": [10, 20, 30]}}
        return {"call": call, "args": args, "kwargs": {"mode": "fill", "fill_value": -1}, "dtypes": dtypes,
                "theirs": {"equals": [10]}, "ours": {"equals": [-1]}}
    if case == "narrow":
        args = {data: list(range(300)), idx: [-1], **({"values": [7]} if scatter else {})}
        dtypes = {data: "int64", idx: "int8", **({"values": "int64"} if scatter else {})}
        ours = {"dtype": "float64" if kind == "divide" else "int64"} if scatter else {"equals": [299]}
        theirs = {"raises": "OverflowError"} if "ndarray.at" in call else {"equals": [43]}
        return {"call": call, "args": args, "dtypes": dtypes, "theirs": theirs, "ours": ours}
    values = {"get": None, "set": 10, "add": 10, "subtract": 10, "multiply": 10, "max": 10, "min": 2, "divide": 10,
              "power": 10}[kind]
    result = {"get": [_F3], "set": [10, 10, 10], "add": [11.5, 12.5, 13.5], "subtract": [-8.5, -7.5, -6.5],
              "multiply": [15, 25, 35], "max": [10, 10, 10], "min": [1.5, 2, 2], "divide": [0.15, 0.25, 0.35],
              "power": [57.6650390625, 9536.7431640625, 275854.7353515625]}[kind]
    args = {data: _F3, idx: True, **({"values": values} if values is not None else {})}
    return {"call": call, "args": args, "dtypes": {data: "float64", idx: "scalar:bool"},
            "theirs": {"raises": "AssertionError"}, "ours": {"equals": result}}


def shared_example(op: str, case: str) -> dict[str, Any]:
    """The example of one record every JAX op shares, from the op's plain call: ``'x64'`` (JAX's 32-bit
    default: float32 comes back for float64 data), ``'lists'`` (lists are a TypeError in JAX; for ``x.at``,
    a list ``x`` has no ``.at``)."""
    base = _BASE[op]
    dtypes = {k: _ARRAYS[k] for k in base["args"] if k in _ARRAYS}
    if case == "x64":
        return {"call": base["call"], "args": base["args"], "dtypes": dtypes, "x64": False,
                "theirs": {"dtype": "float32"}, "ours": {"dtype": "float64"}}
    if "idx" in dtypes:  # x.at[idx]: a list x has no .at; a list idx is refused by both (a non-tuple sequence)
        return {"call": base["call"], "args": base["args"], "dtypes": {"idx": "int64"},
                "theirs": {"raises": "AttributeError"}, "ours": {"equals": base["result"]}}
    return {"call": base["call"], "args": base["args"], "theirs": {"raises": "TypeError"},
            "ours": {"equals": base["result"]}}


#: why the shared records of ops that take a Python callable (x.at[].apply, lax.scatter_apply) have no example
NO_CALLABLE_EXAMPLE = "the op takes a Python callable (func), which the TOML example format cannot hold"


def _shared(op: str, case: str) -> dict[str, Any]:
    """The computed fields of a shared record: its example, or why there is none (an op without a plain call)."""
    if op not in _BASE:
        return {"not_reproducible": NO_CALLABLE_EXAMPLE}
    return {"example": shared_example(op, case)}


def common_divergences(op: str) -> None:
    """Record the divergences every JAX op shares (call at module level in the op's file)."""
    divergence_table(op, __file__, "jax_32_bit_default", **_shared(op, "x64"))
    divergence_table(op, __file__, "python_lists_as_array", **_shared(op, "lists"))


def int32_index_divergence(op: str, where: str) -> None:
    """Record that JAX narrows index values to int32 in ``where`` (we keep their true value)."""
    divergence(
        op=op,
        case="index values outside the int32 range (|i| >= 2**31) with int64/uint64 indices",
        when=("out_of_range",),
        reference="JAX 0.10 (x64, CPU)",
        theirs=f"{where} converts the indices to int32 first (the index dtype JAX picks for arrays whose "
        "dims fit int32), so they wrap modulo 2**32: index 2**32 reads element 0, 2**32+1 element 1",
        ours="indices keep their true value: anything outside the axis is out of range and follows the "
        "mode (fill, clamp or drop), as JAX documents for out-of-bounds indices",
        evidence="jax/_src/lax/slicing.py _gather_fill; jax/_src/numpy/indexing.py _index_to_gather "
        "(int_dtype_for_shape), take_along_axis (index_dtype_for_axis_size); "
        "tests/frameworks/test_jax.py::test_known_divergence_int32_indices",
        kind="spec",
        example=index_example(op, "int32"),
    )


def narrow_index_divergence(op: str, *, raises: bool = False) -> None:
    """Record that JAX's negative-index wrap misbehaves for narrow signed index dtypes."""
    theirs = (
        "OverflowError whenever the axis size does not fit the index dtype (int8 indices on an axis of "
        "size 300), even for non-negative indices"
        if raises
        else "the axis size is added in the index dtype and overflows: an int8 index -1 on an axis of size "
        "300 reads element 43"
    )
    divergence(
        op=op,
        case="signed index dtypes narrower than the axis size (int8/int16 indices on a long axis)",
        when=("dtype",),
        reference="JAX 0.10 (x64, CPU)",
        theirs=theirs,
        ours="indices are read in exact integer arithmetic (-1 reads the last element)",
        evidence="jax/_src/numpy/indexing.py _take / NDIndexer.normalize_indices (lax._const(index, size)); "
        "tests/frameworks/test_jax.py::test_known_divergence_narrow_index_dtype",
        kind="spec",
        example=index_example(op, "narrow"),
    )

#: the scatter reductions JAX refuses for bool data, by the lax primitive its TypeError names
NO_BOOL = {Reduction.ADD: "add", Reduction.SUB: "sub", Reduction.MUL: "mul"}

#: the gradient conventions of jax autograd, which every jax op states in its record
GRAD = GradConventions(autograd="jax", duplicates="winner", ties="split")
#: JAX differentiates the composed ``.at[].divide/power`` (scatter_mul w.r.t. its updates) only with unique_indices=True
GRAD_UNIQUE = GradConventions(autograd="jax", duplicates="winner", ties="split", restrictions=("unique_indices",))

#: the named element-wise functions of ``x.at[].apply`` and ``lax.scatter_apply`` (NumPy ufunc names, ``jnp`` has
#: the same): the ``func`` values their descriptions, translate, explain and the fuzzer name
FUNCS = ("negative", "absolute", "square", "exp", "sin", "floor", "sign", "sqrt")


def float_funcs(name: str) -> dict[str, Any]:
    """The description layout for ``func=name``: the functions of :data:`FUNCS` that give floats for integer
    data (JAX's func must keep the dtype) are probed on floating data only."""
    return {"data_dtypes": ("float64", "float32")} if name in ("exp", "sin", "floor", "sqrt") else {}


def applied(ctx: OpContext, low: Lowering, x: np.ndarray[Any, Any], func: Any) -> Lowering:
    """``low`` (the counting scatter of ``x.at[].apply`` / ``lax.scatter_apply``) with its post step:
    :func:`apply_counted` of ``x`` (not linear: ``gs.vjp`` refuses it)."""

    def post(counts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return apply_counted(ctx, x, counts, func)

    if low.result is not None:  # every update dropped (an empty target): x as it is
        low.result = x.copy()
    low.post, low.nonlinear = post, "func applied once per update"
    return low


def apply_counted(
    ctx: OpContext, x: np.ndarray[Any, Any], counts: np.ndarray[Any, Any], func: Any
) -> np.ndarray[Any, Any]:
    """``x`` with ``func`` applied ``counts[k]`` times at each position ``k`` (``scatter_apply``).

    XLA applies ``func`` once per update that lands on a position, one after the
    other; for an element-wise ``func`` that is ``func`` applied ``counts[k]``
    times. ``func`` receives a 1-D NumPy array of the selected elements (JAX
    traces it on a scalar) and must return the same dtype (JAX's lowering
    rejects any other).
    """
    if not callable(func):
        raise ArgumentError(f"{ctx.label}: func must be callable; got {type(func).__name__}")

    def step(vals: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        try:
            with np.errstate(all="ignore"):  # XLA computes func without NumPy's floating-point warnings
                got = np.asarray(func(vals))
        except (TypeError, ValueError, ArithmeticError) as exc:  # func refuses these elements (bool negative)
            raise ArgumentValueError(
                f"{ctx.label}: func raised {type(exc).__name__} on the {dtype_name(x.dtype)} elements: {exc}"
            ) from exc
        if got.dtype != x.dtype:
            raise DTypeError(
                f"{ctx.label}: func must return the operand's dtype {dtype_name(x.dtype)}; it returned "
                f"{dtype_name(got.dtype)} (JAX: the scatter's update computation has a different result type)"
            )
        try:
            return np.broadcast_to(got, vals.shape)
        except ValueError:
            raise ShapeError(
                f"{ctx.label}: func must be element-wise: it returned shape {list(got.shape)} for "
                f"{vals.size} elements"
            ) from None

    return np.asarray(apply_counted_loop(x.copy(), counts, step))
