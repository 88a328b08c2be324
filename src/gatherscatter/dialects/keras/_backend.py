"""Keras 3 backends: the ``backend=`` keyword every ``gs.keras`` op takes, and the facts that differ by backend.

``keras.ops`` runs the same call on whichever backend ``KERAS_BACKEND`` selects, and the
answer differs (measured with Keras 3.15.1 on CPU): how negative and out-of-range indices
behave, the dtypes (Keras' JAX backend runs JAX with 32-bit defaults), empty segments.
:data:`INDEX_RULES` tables what each op does per backend.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from ...core.context import OpContext, memo
from ...core.shape import as_array, as_index_array
from ...errors import (
    ArgumentAttributeError,
    ArgumentError,
    DTypeError,
    DTypeOverflowError,
    DTypeRuntimeError,
    DTypeValueError,
    GatherScatterError,
    IndexDTypeError,
    IndexShapeError,
    ShapeError,
    ShapeRuntimeError,
    UnsupportedError,
)
from .._common import data_array
from .._record import Canonical, Description, Residual, Step, check_choice

__all__ = [
    "ARRAY_FLOAT_INDICES",
    "BACKENDS",
    "INDEX_RULES",
    "KERAS_VERSION",
    "NARROW",
    "PYTHON_ARGS",
    "PYTHON_INDEX_KINDS",
    "PYTHON_RULES",
    "cast_updates",
    "convert_python",
    "index_policy",
    "jax32",
    "keras_context",
    "keras_description",
    "parse_backend",
    "python_arg",
    "torch_scalar_x",
]

KERAS_VERSION = "3.15"
"""The Keras release measured (3.15.1; backends: jax 0.10, TF 2.21, torch 2.13, NumPy 2.4)."""

BACKENDS = ("jax", "tensorflow", "torch", "numpy")

#: (op, backend) -> (negative indices, out-of-range indices): 'wrap' once / 'modulo' / 'raise' / 'fill' / 'drop'
INDEX_RULES: dict[tuple[str, str], tuple[str, str]] = {
    ("take", "jax"): ("wrap", "fill"),
    ("take", "tensorflow"): ("wrap", "raise"),
    ("take", "torch"): ("wrap", "raise"),  # axis=None: wraps by x.shape[0] (a Keras bug), then raises
    ("take", "numpy"): ("wrap", "raise"),
    ("take_along_axis", "jax"): ("wrap", "fill"),
    ("take_along_axis", "tensorflow"): ("wrap", "raise"),
    ("take_along_axis", "torch"): ("modulo", "modulo"),
    ("take_along_axis", "numpy"): ("wrap", "raise"),
    ("scatter", "jax"): ("wrap", "drop"),
    ("scatter", "tensorflow"): ("raise", "raise"),
    ("scatter", "torch"): ("wrap", "raise"),
    ("scatter", "numpy"): ("wrap", "raise"),
    ("scatter_update", "jax"): ("wrap", "drop"),
    ("scatter_update", "tensorflow"): ("raise", "raise"),
    ("scatter_update", "torch"): ("wrap", "raise"),
    ("scatter_update", "numpy"): ("wrap", "raise"),
    ("segment", "jax"): ("drop", "drop"),
    ("segment", "tensorflow"): ("drop", "raise"),
    ("segment", "torch"): ("drop", "drop"),
    ("segment", "numpy"): ("drop", "raise"),
}

_JAX32 = {"int64": np.int32, "uint64": np.uint32, "float64": np.float32, "complex128": np.complex64}


def parse_backend(name: str, backend: Any) -> str:
    """One of :data:`BACKENDS` (Keras' own names)."""
    if not isinstance(backend, str):
        raise ArgumentError(f"keras.ops.{name}: backend must be a string (got {backend!r})")
    if backend not in BACKENDS:
        raise UnsupportedError(
            f"keras.ops.{name}: unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)} "
            f"(the values of KERAS_BACKEND)"
        )
    return backend


@memo
def keras_context(name: str, backend: str, **names: str) -> OpContext:
    """Message naming: ``keras.ops.take (Keras 3.15, backend='jax')``."""
    return OpContext(op=f"keras.ops.{name}", version=f"Keras {KERAS_VERSION}, backend={backend!r}", **names)


def jax32(arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Keras' JAX backend runs JAX without x64: 64-bit arrays become 32-bit."""
    t = _JAX32.get(arr.dtype.name)
    return arr.astype(t) if t is not None else arr


def backend_inputs(name: str, backend: Any, data: Any, indices: Any, /, **names: str
                   ) -> tuple[str, OpContext, np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The prologue of an op reading data and indices: the checked backend, the message context (``names``: the
    arguments' names, as :class:`OpContext` takes them) and the two arrays (32-bit on the jax backend; Python
    lists and scalars read as the backend reads them: :func:`python_arg`)."""
    b = parse_backend(name, backend)
    ctx = keras_context(name, b, **names)
    data = python_arg(ctx, name, b, ctx.data, data)
    indices = python_arg(ctx, name, b, "indices", indices)
    d = data_array(ctx, data)
    i = array_float_indices(ctx, name, b, indices)
    i = as_index_array(ctx, i, "indices")
    if b == "jax":
        d, i = jax32(d), jax32(i)
    return b, ctx, d, i


# ------------------------------------------------------------------------------------------------ descriptions

_CANON = {"wrap": "wrap", "raise": "raise", "drop": "bounds", "modulo": "bounds"}


def index_policy(op: str, backend: str) -> dict[str, str]:
    """The canonical ``negative``/``bounds`` of ``op`` on ``backend``, read from :data:`INDEX_RULES`
    (``'fill'``: the caller clamps and masks, as JAX's default fill has no canonical value)."""
    check_choice(f"keras.{op}", "backend", backend, BACKENDS)
    neg, oob = INDEX_RULES[(op, backend)]
    return {"negative": _CANON[neg], "bounds": "wrap" if oob == "modulo" else oob}


NARROW = Residual("dtype", "computes 64-bit data and indices in 32 bits (JAX without x64; the numpy backend's "
                   "convert_to_tensor for scatter values) and returns 32-bit results", "keeps 64-bit dtypes")


_EMPTY_AXIS = Residual("empty", "reads the fill value everywhere when the axis has size 0 (backend='jax')",
                       "raises: an index into a size-0 axis")


def gather_description(op: str, backend: str, attrs: dict[str, Any], base: Canonical, pre: list[Step],
                       inputs: tuple[str, ...], mask: dict[str, Any] | None = None, **layout: Any) -> Description:
    """``take``/``take_along_axis``: ``base`` with the backend's index rules; the jax backend's default fill
    (NaN, the integer minimum) clamps, then masks, as :mod:`gatherscatter.dialects.jax` describes it."""
    from ..jax._describe import _gather

    kw = index_policy(op, backend)
    post: list[Step] = []
    if kw["bounds"] == "fill":
        p2, c, post = _gather(base, fill=True, fill_value=None, wrap=True, **(mask or {}))
        pre = pre + p2
    else:
        c = base.with_(**kw)
    return keras_description(op, attrs, inputs, c, pre=pre, post=post, narrow=backend == "jax",
                             residuals=(_EMPTY_AXIS,) if backend == "jax" else (), **layout)


def keras_description(op: str, attrs: dict[str, Any], inputs: tuple[str, ...], c: Canonical, *, narrow: bool,
                      pre: list[Step] | None = None, post: list[Step] | None = None,
                      residuals: tuple[Residual, ...] = (), roles: dict[str, str] | None = None,
                      **layout: Any) -> Description:
    """A Keras op's description; ``narrow``: the backend computes 64-bit inputs in 32 bits (a residual; the
    generator then draws 32-bit data)."""
    res = list(residuals)
    if narrow:
        res.append(NARROW)
        layout.setdefault("data_dtypes", ("float32", "int32"))
        layout["index_dtypes"] = ("int32",)
    layout.setdefault("index_dtypes", ("int32", "int64"))
    return Description(f"keras.{op}", attrs, inputs, c, pre=pre or [], post=post or [], residuals=res,
                       roles=roles or {}, layout=layout)


# ------------------------------------------------------------------------------------------ Python-list arguments

#: backend -> how Keras' ``convert_to_tensor`` reads a Python bool / int / float, or a list / tuple nest of them
#: (measured, Keras 3.15.1, floatx float32): the dtype of all-bool, integer and float nests (bools with numbers
#: count as numbers); ``int_past``: an int outside int32 ('int64', or the exception the backend raises; torch reads
#: a lone Python int past int32 as int64); ``float_past``: a float past float32's range ('inf' or the exception);
#: ``bool_mix``: bools mixed with numbers ('promote' or the exception); ``numpy_float``: NumPy float scalars in a
#: list ('float32', or 'keep' their dtype).  An empty list is float32 on every backend.
PYTHON_RULES: dict[str, dict[str, str]] = {
    "jax": {"bool": "bool", "int": "int32", "float": "float32", "int_past": "OverflowError", "float_past": "inf",
            "bool_mix": "promote", "numpy_float": "float32"},
    "tensorflow": {"bool": "bool", "int": "int32", "float": "float32", "int_past": "int64",
                   "float_past": "ValueError", "bool_mix": "ValueError", "numpy_float": "keep"},
    "torch": {"bool": "bool", "int": "int32", "float": "float32", "int_past": "RuntimeError", "float_past": "inf",
              "bool_mix": "promote", "numpy_float": "float32"},
    "numpy": {"bool": "bool", "int": "int32", "float": "float32", "int_past": "OverflowError", "float_past": "inf",
              "bool_mix": "promote", "numpy_float": "float32"},
}

#: (op, backend) -> {argument: how that backend's op reads it when it is a Python list, tuple or scalar}:
#: 'convert' (:data:`PYTHON_RULES`), 'numpy' (NumPy's own ``np.asarray``: int64 / float64), 'int64' (converted
#: straight to int64, floats truncated), 'cast' (to the data's dtype, as the backend casts), or the built-in
#: exception the backend raises (it reads ``.dtype`` / ``.shape`` of the argument, or indexes into a list)
PYTHON_ARGS: dict[tuple[str, str], dict[str, str]] = {
    **{(op, b): {"x": "convert", "indices": "convert"} for op in ("take", "take_along_axis")
       for b in ("jax", "tensorflow", "torch")},
    ("take", "numpy"): {"x": "numpy", "indices": "numpy"},
    ("take_along_axis", "numpy"): {"x": "AttributeError", "indices": "AttributeError"},
    ("scatter", "jax"): {"values": "AttributeError", "indices": "TypeError"},
    ("scatter", "tensorflow"): {"values": "convert", "indices": "convert"},
    ("scatter", "torch"): {"values": "convert", "indices": "convert"},
    ("scatter", "numpy"): {"values": "convert", "indices": "convert"},
    ("scatter_update", "jax"): {"inputs": "convert", "indices": "convert", "updates": "cast"},
    ("scatter_update", "tensorflow"): {"inputs": "convert", "indices": "convert", "updates": "cast"},
    ("scatter_update", "torch"): {"inputs": "convert", "indices": "int64", "updates": "cast"},
    ("scatter_update", "numpy"): {"inputs": "TypeError", "indices": "numpy", "updates": "cast"},
    **{("segment", b): {"data": "AttributeError", "segment_ids": "AttributeError"} for b in BACKENDS},
}

#: (op, backend) -> what the op then does with Python indices read as (bool, float, an empty list): 'int' (read
#: as 0/1 / truncated toward 0: torch's ``.long()``, TF's cast to int64, ``np.take``'s intp conversion) or the
#: built-in exception it raises (an empty Python list reads as float32 with no index tuple on its last axis)
PYTHON_INDEX_KINDS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("take", "jax"): ("int", "ValueError", "int"),
    ("take", "tensorflow"): ("TypeError", "Exception", "Exception"),
    ("take", "torch"): ("int", "int", "int"),
    ("take", "numpy"): ("int", "int", "int"),
    ("take_along_axis", "jax"): ("TypeError", "TypeError", "TypeError"),
    ("take_along_axis", "tensorflow"): ("int", "int", "int"),
    ("take_along_axis", "torch"): ("int", "int", "int"),
    ("scatter", "tensorflow"): ("TypeError", "Exception", "Exception"),
    ("scatter", "torch"): ("IndexError", "IndexError", "RuntimeError"),
    ("scatter", "numpy"): ("IndexError", "IndexError", "ValueError"),
    ("scatter_update", "jax"): ("IndexError", "TypeError", "ValueError"),
    ("scatter_update", "tensorflow"): ("Exception", "Exception", "Exception"),
    ("scatter_update", "torch"): ("int", "int", "IndexError"),
    ("scatter_update", "numpy"): ("IndexError", "IndexError", "ValueError"),
}

#: (op, backend) -> what the op does with a floating-point index ARRAY (float16/32/64; measured, Keras 3.15.1):
#: 'trunc' (cast to int64: truncated toward 0, NaN, infinities and values past int64 read as the int64 minimum,
#: then the backend's usual index rules: torch's ``.long()``, TF's ``convert_to_tensor(indices, 'int64')``) or
#: the built-in exception the backend raises (jnp.take: ValueError, jnp.take_along_axis: TypeError, tf.gather:
#: InvalidArgumentError (an Exception), np.take: TypeError, np.take_along_axis: IndexError)
ARRAY_FLOAT_INDICES: dict[tuple[str, str], str] = {
    ("take", "jax"): "ValueError", ("take", "tensorflow"): "Exception", ("take", "torch"): "trunc",
    ("take", "numpy"): "TypeError",
    ("take_along_axis", "jax"): "TypeError", ("take_along_axis", "tensorflow"): "trunc",
    ("take_along_axis", "torch"): "trunc", ("take_along_axis", "numpy"): "IndexError",
}

_ERRORS: dict[str, type[GatherScatterError]] = {
    "TypeError": DTypeError, "Exception": DTypeError, "ValueError": DTypeValueError, "IndexError": IndexDTypeError,
    "OverflowError": DTypeOverflowError, "RuntimeError": DTypeRuntimeError, "AttributeError": ArgumentAttributeError,
}
#: the builtin class each backend raises for a shape its indexing refuses (a value tensor that does not broadcast)
SHAPE_ERRORS: dict[str, type[ShapeError]] = {"jax": ShapeError, "tensorflow": ShapeError, "torch": ShapeRuntimeError,
                                             "numpy": ShapeError}
_I32 = np.iinfo(np.int32)
_F32_MAX = float(np.finfo(np.float32).max)


def is_python(value: Any) -> bool:
    """A Python bool / int / float, list or tuple (not a NumPy scalar or array): what Keras converts itself."""
    return isinstance(value, (list, tuple, bool, int, float)) and not isinstance(value, np.generic)


def _raise(ctx: OpContext, cls: str, name: str, rule: str, value: Any) -> NoReturn:
    text = repr(value)
    raise _ERRORS[cls](f"{ctx.label}: {name} {text[:60] + ('...' if len(text) > 60 else '')} is refused: {rule} "
                       f"(Keras raises {cls} here)")


def convert_python(ctx: OpContext, backend: str, value: Any, name: str) -> np.ndarray[Any, Any]:
    """``keras.ops.convert_to_tensor(value)`` on ``backend`` for a Python value (:data:`PYTHON_RULES`).

    >>> ctx = keras_context("take", "torch")
    >>> [str(convert_python(ctx, b, [1, 2.5], "x").dtype) for b in ("torch", "numpy")]
    ['float32', 'float32']
    >>> convert_python(ctx, "tensorflow", [2**40], "x").dtype, convert_python(ctx, "torch", 2**40, "x").dtype
    (dtype('int64'), dtype('int64'))
    """
    rule = PYTHON_RULES[backend]
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise ShapeError(f"{ctx.label}: {name} is a ragged or unreadable Python sequence ({exc})") from None
    if a.dtype.kind == "O":  # ints past int64
        _raise(ctx, "ValueError" if rule["int_past"] == "int64" else rule["int_past"], name,
               "an integer past int64", value)
    if a.size == 0:
        return a.astype(np.float32)
    if rule["bool_mix"] != "promote" or rule["numpy_float"] == "keep":
        items = np.asarray(value, dtype=object).ravel() if isinstance(value, (list, tuple)) else [value]
        kinds = {type(v) for v in items}
        if a.dtype.kind != "b" and (bool in kinds or np.bool_ in kinds) and rule["bool_mix"] != "promote":
            _raise(ctx, rule["bool_mix"], name, "bools mixed with numbers in one Python sequence", value)
        floats = [np.asarray(v).dtype for v in items if isinstance(v, (np.generic, np.ndarray))
                  and np.asarray(v).dtype.kind == "f"]
        if floats and rule["numpy_float"] == "keep":
            return a.astype(np.result_type(*floats))
    if a.dtype.kind == "b":
        return a
    if a.dtype.kind in "iu":
        if a.min() >= _I32.min and a.max() <= _I32.max:
            return a.astype(np.int32)
        if rule["int_past"] == "int64" or (backend == "torch" and a.ndim == 0):
            return a.astype(np.int64)
        _raise(ctx, rule["int_past"], name, f"an integer outside {rule['int']}", value)
    if a.dtype.kind == "f":
        if rule["float_past"] != "inf" and bool(np.any(np.abs(a[np.isfinite(a)]) > _F32_MAX)):
            _raise(ctx, rule["float_past"], name, "a float past float32's range", value)
        with np.errstate(over="ignore"):
            return a.astype(np.float32)
    return a


def python_arg(ctx: OpContext, op: str, backend: str, arg: str, value: Any, name: str | None = None) -> Any:
    """``value`` as the backend's ``op`` reads a Python value in ``arg`` (:data:`PYTHON_ARGS`); other values
    (NumPy arrays and scalars) are returned unchanged, for the op's own reading."""
    if not is_python(value):
        return value
    how = PYTHON_ARGS[(op, backend)][arg]
    name = name or arg
    if how == "convert":
        a = convert_python(ctx, backend, value, name)
    elif how == "numpy" or how == "int64":
        a = as_array(ctx, value, name)
        if how == "numpy" and a.size == 0 and a.dtype.kind == "f":
            a = a.astype(np.int64)
    elif how == "cast":
        return value
    else:  # refused: the backend reads .shape / .dtype of it, or assigns into it
        why = f"the {backend} backend reads it as an array (.shape / .dtype / item assignment)"
        if how == "TypeError":
            raise ArgumentError(f"{ctx.label}: {name} {value!r:.60} is refused: {why} (Keras raises TypeError here)")
        _raise(ctx, how, name, why, value)
    kinds = PYTHON_INDEX_KINDS.get((op, backend))
    if kinds is None or arg not in ("indices", "segment_ids"):
        return a
    if a.size == 0 and isinstance(value, (list, tuple)):
        if kinds[2] != "int":
            _raise(ctx, kinds[2], name, "an empty Python list (float32, with no index tuple)", value)
        return a.astype(np.int64)
    if a.dtype.kind == "b":
        if kinds[0] != "int":
            _raise(ctx, kinds[0], name, "bool indices", value)
        return a.astype(np.int64)
    if a.dtype.kind == "f":
        if kinds[1] != "int":
            _raise(ctx, kinds[1], name, "float indices", value)
        if not np.all(np.isfinite(a)):
            _raise(ctx, "ValueError", name, "non-finite float indices", value)
        return np.trunc(a).astype(np.int64)
    return a


def array_float_indices(ctx: OpContext, op: str, backend: str, indices: Any) -> Any:
    """A floating-point index array as ``op`` on ``backend`` reads it (:data:`ARRAY_FLOAT_INDICES`); other
    values unchanged.

    >>> ctx = keras_context("take_along_axis", "tensorflow")
    >>> array_float_indices(ctx, "take_along_axis", "tensorflow", np.float32([1.9, -1.5, np.nan])).tolist()
    [1, -1, -9223372036854775808]
    """
    how = ARRAY_FLOAT_INDICES.get((op, backend))
    if how is None or is_python(indices) or not isinstance(indices, (np.ndarray, np.generic)) \
            or indices.dtype.kind != "f":
        return indices
    if how != "trunc":
        _raise(ctx, how, "indices", f"a {indices.dtype} index array (the {backend} backend takes integer indices)",
               indices)
    a = np.asarray(indices, np.float64)
    ok = np.isfinite(a) & (np.abs(a) < 2.0**63)
    out = np.full(a.shape, np.iinfo(np.int64).min, np.int64)
    out[ok] = np.trunc(a[ok])
    return out


def cast_updates(ctx: OpContext, backend: str, value: Any, dtype: np.dtype[Any], name: str) -> np.ndarray[Any, Any]:
    """Python ``updates`` of ``scatter_update`` in the inputs' ``dtype``, as each backend casts them: jax converts
    (:data:`PYTHON_RULES`), then casts (floats truncated, saturating); torch converts with the dtype (truncated;
    past the range: RuntimeError); tensorflow refuses floats for integer inputs (TypeError) and wraps ints;
    numpy assigns (truncated; past the range: OverflowError)."""
    if backend == "jax":
        a = convert_python(ctx, backend, value, name)
    else:
        try:
            a = np.asarray(value)
        except (ValueError, TypeError) as exc:
            raise ShapeError(f"{ctx.label}: {name} is a ragged or unreadable Python sequence ({exc})") from None
        if a.size == 0:
            a = a.astype(np.float32)
    if a.dtype.kind == "O":
        _raise(ctx, "OverflowError", name, "an integer past int64", value)
    if dtype.kind in "iu" and a.dtype.kind == "f":
        if backend == "tensorflow":
            _raise(ctx, "TypeError", name, f"floats for {dtype} inputs", value)
        info = np.iinfo(dtype)
        if backend == "jax":
            t: np.ndarray[Any, Any] = np.nan_to_num(np.trunc(a.astype(np.float64)), nan=0.0)
            out: np.ndarray[Any, Any] = np.clip(t, info.min, info.max).astype(dtype)
            return out
        t = np.asarray(np.trunc(a))
        if t.size and (not np.all(np.isfinite(t)) or t.min() < info.min or t.max() > info.max):
            _raise(ctx, "RuntimeError" if backend == "torch" else "OverflowError", name, f"a value outside {dtype}",
                   value)
        return t.astype(dtype)
    if dtype.kind in "iu" and a.dtype.kind in "iu":
        info = np.iinfo(dtype)
        if backend != "tensorflow" and a.size and (a.min() < info.min or a.max() > info.max):
            _raise(ctx, "RuntimeError" if backend == "torch" else "OverflowError", name, f"a value outside {dtype}",
                   value)
        return a.astype(dtype)  # tensorflow: wraps
    with np.errstate(over="ignore"):
        return a.astype(dtype)


def torch_scalar_x(ctx: OpContext, x: Any, d: np.ndarray[Any, Any]) -> None:
    """The torch backend reads ``x.shape[0]`` (or ``x.shape[axis]``) of a 0-d ``x`` (a Python scalar or a 0-d
    array), whatever the indices and axis: IndexError (measured, Keras 3.15.1)."""
    if d.ndim == 0:
        what = "a Python scalar" if is_python(x) else "a 0-d array"
        raise IndexShapeError(f"{ctx.label}: x {x!r:.60} is {what}: the torch backend reads x.shape[0] of it "
                              "(torch: 'tuple index out of range')")
