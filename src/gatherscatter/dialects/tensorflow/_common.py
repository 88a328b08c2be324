"""TensorFlow devices, dtypes, argument checks and TF-style index errors shared by the TF ops.

Every TF op takes ``device='cpu' | 'gpu' | 'xla'``, because TensorFlow's answer
to a bad index depends on where the op runs (behavior-matrix §5 surprise 3):

``'cpu'`` (default)
    eager CPU kernels: a negative or out-of-range index raises
    (``indices[1] = -1 is not in [0, 3)``).
``'gpu'``
    the documented GPU kernels: gathers return 0 for a bad index, scatters
    drop the update. Never observed here (no GPU); taken from the TF docs.
``'xla'``
    ``tf.function(jit_compile=True)`` on CPU (observed): gathers clamp each
    index into ``[0, s-1]`` (so ``-1`` reads element 0), scatters drop bad
    updates.

The behaviour was measured on TensorFlow 2.21 (CPU and XLA CPU).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.shape import as_index_array, dtype_name, prod
from ...errors import ArgumentError, DTypeError, IndexOutOfRangeError, ShapeError, UnsupportedError
from .._common import COMPLEX, NUMERIC, STRINGS
from .._record import GradConventions

__all__ = [
    "DATA_ALL",
    "DATA_NUMERIC",
    "DATA_REAL",
    "DEVICES",
    "INDEX_I16_I32_I64",
    "INDEX_I32_I64",
    "TF_VERSION",
    "check_data",
    "check_int_overflow",
    "check_scalar_bounds",
    "check_tuple_bounds",
    "index_array",
    "is_string",
    "parse_bad_indices_policy",
    "parse_device",
    "shape_text",
    "tf_context",
    "valid_empty_output",
]

TF_VERSION = "2.21"
"""The TensorFlow version whose CPU and XLA behaviour these ops reproduce."""

DEVICES = ("cpu", "gpu", "xla")

INDEX_I16_I32_I64 = frozenset({"int16", "int32", "int64"})
INDEX_I32_I64 = frozenset({"int32", "int64"})

DATA_ALL = NUMERIC | COMPLEX | STRINGS | frozenset({"bool", "bfloat16"})
DATA_NUMERIC = NUMERIC | COMPLEX | frozenset({"bfloat16"})
DATA_REAL = NUMERIC | frozenset({"bfloat16"})

_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")


def parse_device(name: str, device: Any) -> str:
    """``'cpu'``, ``'gpu'`` or ``'xla'`` (case-sensitive, like TF's own strings)."""
    if not isinstance(device, str):
        raise ArgumentError(f"tensorflow.{name}: device must be a string (got {device!r})")
    if device not in DEVICES:
        raise UnsupportedError(
            f"tensorflow.{name}: unknown device {device!r}; expected one of: cpu (eager CPU kernels, "
            f"bad indices raise), gpu (documented GPU kernels: gathers return 0, scatters drop), "
            f"xla (tf.function(jit_compile=True): gathers clamp, scatters drop)"
        )
    return device


def tf_context(name: str, device: str, *, data: str = "params") -> OpContext:
    """Message naming: ``tensorflow.gather (TF 2.21, device='cpu')``."""
    return OpContext(op=f"tensorflow.{name}", version=f"TF {TF_VERSION}, device={device!r}", data=data, axis="axis")


def is_string(arr: np.ndarray[Any, Any]) -> bool:
    """Whether ``arr`` holds strings (``str``, ``bytes`` or Python objects)."""
    return arr.dtype.kind in "USO"


def check_data(
    ctx: OpContext, arr: np.ndarray[Any, Any], allowed: frozenset[str], device: str, *, name: str | None = None
) -> None:
    """The op's data dtypes on ``device`` (XLA compiles no strings; no TF GPU kernel takes strings)."""
    label = name or ctx.data
    got = dtype_name(arr.dtype)
    if got not in allowed:
        raise DTypeError(
            f"{ctx.label}: {label} dtype {got} has no TensorFlow kernel for this op; expected one of: "
            f"{', '.join(sorted(allowed))}"
        )
    if arr.dtype.kind == "O" and arr.size:
        # an object array is a tf.string tensor only when it holds str or bytes (read its distinct cells only:
        # a zero-stride view may be enormous)
        cells = np.asarray(arr[tuple(slice(0, 1) if s == 0 else slice(None) for s in arr.strides)])
        bad = next((x for x in cells.flat if not isinstance(x, (str, bytes))), None)
        if bad is not None:
            raise DTypeError(
                f"{ctx.label}: {label} is an object array holding {type(bad).__name__} values; TensorFlow reads "
                f"object arrays as tf.string and needs str or bytes (pass a numeric dtype for numbers)"
            )
    if is_string(arr) and device == "xla":
        raise DTypeError(
            f"{ctx.label}: {label} dtype {got}: XLA (jit_compile=True) cannot compile string tensors "
            f"('Detected unsupported operations when trying to compile graph'); use device='cpu'"
        )
    if is_string(arr) and device == "gpu":
        raise DTypeError(
            f"{ctx.label}: {label} dtype {got}: TensorFlow has no GPU kernel for string tensors and "
            f"places such ops on the CPU; use device='cpu' for the behaviour you would get"
        )


def index_array(ctx: OpContext, indices: Any, allowed: frozenset[str], device: str) -> np.ndarray[Any, Any]:
    """``indices`` as an integer array whose dtype the op accepts on ``device``."""
    try:
        return as_index_array(ctx, indices, "indices", allowed)
    except DTypeError as exc:
        raise DTypeError(f"{exc} (TF attr 'Tindices' on device={device!r})") from None


def parse_bad_indices_policy(ctx: OpContext, policy: Any, device: str) -> str:
    """TF's ``bad_indices_policy``: ``'raise'``, ``'ignore'`` or ``'default'`` for ``device``.

    ``''``/``'DEFAULT'`` raise on CPU and ignore on GPU; ``'ERROR'`` raises (GPU
    does not support it); ``'IGNORE'`` ignores everywhere. XLA honours
    ``'IGNORE'`` and otherwise keeps its own clamp/drop behaviour (observed).
    """
    if not isinstance(policy, str):
        raise ArgumentError(f"{ctx.label}: bad_indices_policy must be a string (got {policy!r})")
    if policy not in _POLICIES:
        raise UnsupportedError(
            f"{ctx.label}: unknown bad_indices_policy {policy!r}; expected one of: '' (= 'DEFAULT'), "
            f"'DEFAULT', 'ERROR', 'IGNORE' (upper case, as TensorFlow spells them)"
        )
    if policy == "IGNORE":
        return "ignore"
    if policy == "ERROR":
        if device == "gpu":
            raise UnsupportedError(
                f"{ctx.label}: bad_indices_policy='ERROR' is not supported on GPU (TF docs: 'raises "
                f"error; GPU does not support this value'); use 'DEFAULT' or 'IGNORE'"
            )
        return "raise" if device == "cpu" else "default"
    return "raise" if device == "cpu" else "default"


def _pos(pos: tuple[int, ...]) -> str:
    return f"indices[{','.join(str(p) for p in pos)}]" if pos else "indices"


def check_scalar_bounds(ctx: OpContext, indices: np.ndarray[Any, Any], size: int, where: str) -> None:
    """Raise TF's CPU error for the first index outside ``[0, size)`` (row-major order)."""
    if indices.size == 0:
        return
    lo, hi = int(indices.min()), int(indices.max())
    if lo >= 0 and hi < size:
        return
    bad = (indices < 0) | (indices >= size)
    flat = int(np.argmax(bad.reshape(-1)))
    pos = tuple(int(p) for p in np.unravel_index(flat, indices.shape)) if indices.ndim else ()
    value = int(indices.reshape(-1)[flat])
    raise IndexOutOfRangeError(
        f"{ctx.label}: {_pos(pos)} = {value} is not in [0, {size}) ({where} has size {size}; "
        f"TensorFlow on CPU rejects negative and out-of-range indices: device='gpu' returns 0 "
        f"there, device='xla' clamps)",
        value=value,
        position=pos,
        valid=(0, size - 1) if size else None,
    )


def check_tuple_bounds(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    sizes: tuple[int, ...],
    shape_text: str,
    *,
    scatter: bool,
    policy_hint: bool = True,
) -> None:
    """Raise TF's CPU error for the first index tuple (last axis) that leaves ``sizes``.

    ``indices[1] = [-1, 0] does not index into param shape [3,3]`` (gathers) or
    ``indices[0] = [3] does not index into shape [3]`` (scatters).
    """
    k = len(sizes)
    if indices.size == 0 or k == 0:
        return
    lim = np.asarray(sizes, dtype=np.int64)
    if int(indices.min()) >= 0 and bool((indices.max(axis=tuple(range(indices.ndim - 1))) < lim).all()):
        return
    bad_t = ((indices < 0) | (indices >= lim)).any(axis=-1)
    lead = indices.shape[:-1]
    flat = int(np.argmax(bad_t.reshape(-1)))
    pos = tuple(int(p) for p in np.unravel_index(flat, lead)) if lead else ()
    tup = indices.reshape(-1, k)[flat]
    comp = int(np.argmax((tup < 0) | (tup >= lim)))
    value = int(tup[comp])
    what = "shape" if scatter else "param shape"
    action = "device='gpu' and 'xla' drop the update" if scatter else "device='gpu' returns 0, device='xla' clamps"
    raise IndexOutOfRangeError(
        f"{ctx.label}: {_pos(pos)} = [{', '.join(str(int(v)) for v in tup)}] does not index into "
        f"{what} {shape_text} (component {comp} = {value} is not in [0, {sizes[comp]}); TensorFlow on "
        f"CPU rejects negative and out-of-range indices: {action}"
        + (
            f"; bad_indices_policy='IGNORE' {'drops' if scatter else 'zeroes'} them on every device)"
            if policy_hint
            else ")"
        ),
        value=value,
        position=pos + (comp,),
        valid=(0, sizes[comp] - 1) if sizes[comp] else None,
    )


def shape_text(shape: tuple[int, ...]) -> str:
    """TF's compact shape text: ``[3,3]``."""
    return "[" + ",".join(str(n) for n in shape) + "]"


def valid_empty_output(num_inputs: int, num_indices: int, num_updates: int) -> bool:
    """TF's ``ValidEmptyOutputShape``: indices and updates both empty, or all three non-empty."""
    if num_indices == 0 and num_updates == 0:
        return True
    return num_inputs != 0 and num_indices != 0 and num_updates != 0


def check_int_overflow(ctx: OpContext, shape: tuple[int, ...], name: str) -> None:
    """A shape whose element count does not fit int64 (TF: 'would have more than 2**63 - 1 elements')."""
    if prod(shape) > 2**63 - 1:
        raise ShapeError(f"{ctx.label}: {name} {list(shape)} would have more than 2**63 - 1 elements")

#: the gradient conventions of tensorflow autograd, which every tensorflow op states in its record
GRAD = GradConventions(autograd="tensorflow", duplicates="all", ties="split")
