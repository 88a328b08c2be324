"""TensorFlow devices, dtypes, argument checks and TF-style index errors shared by the TF ops.

Every TF op takes ``device='cpu' | 'gpu' | 'xla'``, because TensorFlow's answer
to a bad index depends on where the op runs (docs/behavior-matrix.md#surprise-3):

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

from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.context import OpContext, memo
from ...core.indices import raise_out_of_range
from ...core.policy import Negative, Policy
from ...core.shape import as_index_array, dtype_name, prod
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._common import COMPLEX, NUMERIC, STRINGS, data_array
from .._record import GradConventions
from .._registry import DialectOp, Lowering, dialect_op

__all__ = [
    "DATA_ALL",
    "DATA_NUMERIC",
    "DATA_REAL",
    "DEVICES",
    "FLOAT8",
    "GATHER_CLIP",
    "GATHER_RAISE",
    "GATHER_ZERO",
    "INDEX_I16_I32_I64",
    "INDEX_I32_I64",
    "POLICIES",
    "TF_VERSION",
    "check_data",
    "check_int_overflow",
    "check_tuple_bounds",
    "gather_inputs",
    "index_array",
    "is_string",
    "parse_bad_indices_policy",
    "parse_device",
    "shape_text",
    "tf_context",
    "tf_op",
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
#: float8 data (ml_dtypes): TF's CPU Gather / GatherNd kernels take them, its scatters do not (measured, TF 2.21)
FLOAT8 = frozenset({"float8_e5m2", "float8_e4m3fn"})

_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")
POLICIES = _POLICIES
"""The accepted ``bad_indices_policy`` values."""

#: the policies of tf.gather / tf.gather_nd: CPU raises, GPU reads 0, XLA clamps into [0, s-1]
GATHER_RAISE = Policy(bounds="raise", negative="raise")
GATHER_ZERO = Policy(bounds="fill", negative="bounds")
GATHER_CLIP = Policy(bounds="clip", negative="bounds")


def parse_device(name: str, device: Any) -> str:
    """``'cpu'``, ``'gpu'`` or ``'xla'`` (case-sensitive, like TF's own strings)."""
    return _choice(f"tensorflow.{name}", "device", device, DEVICES,
                   "cpu (eager CPU kernels, bad indices raise), gpu (documented GPU kernels: gathers return 0, "
                   "scatters drop), xla (tf.function(jit_compile=True): gathers clamp, scatters drop)")


def _choice(label: str, what: str, value: Any, allowed: tuple[str, ...], expected: str) -> str:
    """``value`` if it is one of the strings ``allowed``: ArgumentError for a non-string, UnsupportedError else."""
    if not isinstance(value, str):
        raise ArgumentError(f"{label}: {what} must be a string (got {value!r})")
    if value not in allowed:
        raise UnsupportedError(f"{label}: unknown {what} {value!r}; expected one of: {expected}")
    return value


CPU_BOUNDS = "TensorFlow on CPU rejects negative and out-of-range indices"
"""TF's phrase for its CPU bounds errors; each op adds what the other devices do."""


@memo
def tf_context(
    name: str, device: str, *, data: str = "params", note: str = "device='gpu' returns 0 there, device='xla' clamps",
    tuple_shape: str = "",
) -> OpContext:
    """Message naming: ``tensorflow.gather (TF 2.21, device='cpu')``; bound errors in TF's words.

    TF words a bad index ``indices[1,0] = 3 is not in [0, 3)`` (half-open range,
    no space in positions) and a bad index tuple ``indices[1] = [-1, 0] does not
    index into param shape [3,3]`` (``tuple_shape``); ``note`` says what the other
    devices do.
    """
    return OpContext(
        op=f"tensorflow.{name}", version=f"TF {TF_VERSION}, device={device!r}", data=data, axis="axis",
        range_style="half_open", position_sep=",", bounds_note=f"{CPU_BOUNDS}: {note}", tuple_shape=tuple_shape,
    )


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


def gather_inputs(ctx: OpContext, params: Any, indices: Any, device: str
                  ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``params`` and ``indices`` of ``tf.gather`` / ``tf.gather_nd`` as arrays: every data dtype (float8 too on
    CPU), int16/int32/int64 indices."""
    p = data_array(ctx, params)
    check_data(ctx, p, DATA_ALL | FLOAT8 if device == "cpu" else DATA_ALL, device)
    return p, index_array(ctx, indices, INDEX_I16_I32_I64, device)


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
    _choice(ctx.label, "bad_indices_policy", policy, _POLICIES,
            "'' (= 'DEFAULT'), 'DEFAULT', 'ERROR', 'IGNORE' (upper case, as TensorFlow spells them)")
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


def check_tuple_bounds(
    ctx: OpContext,
    indices: np.ndarray[Any, Any],
    sizes: tuple[int, ...],
    shape: tuple[int, ...],
    *,
    scatter: bool,
    policy_hint: bool = True,
) -> None:
    """Raise TF's CPU error for the first index tuple (last axis) that leaves ``sizes``.

    ``indices[1] = [-1, 0] does not index into param shape [3,3]`` (gathers) or
    ``indices[0] = [3] does not index into shape [3]`` (scatters), worded by the
    core (:meth:`OpContext.index_error`). The scatters check before the
    primitive runs: string sums are computed without it.
    """
    k = len(sizes)
    if indices.size == 0 or k == 0:
        return
    lim = np.asarray(sizes, dtype=np.int64)
    if int(indices.min()) >= 0 and bool((indices.max(axis=tuple(range(indices.ndim - 1))) < lim).all()):
        return
    action = "device='gpu' and 'xla' drop the update" if scatter else "device='gpu' returns 0, device='xla' clamps"
    if policy_hint:
        action += f"; bad_indices_policy='IGNORE' {'drops' if scatter else 'zeroes'} them on every device"
    tctx = ctx.with_(tuple_shape="shape" if scatter else "param shape", bounds_note=f"{CPU_BOUNDS}: {action}")
    raise_out_of_range(tctx, indices, (indices < 0) | (indices >= lim), sizes, 0, negative=Negative.RAISE,
                       vector=True, shape=shape)


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


def tf_op(name: str, **kw: Any) -> Callable[[Callable[..., Lowering]], DialectOp]:
    """:func:`~gatherscatter.dialects._registry.dialect_op` for ``tensorflow.<name>`` with what every TensorFlow op
    shares: the version (TF 2.21) and TF's gradient conventions (:data:`GRAD`)."""
    return dialect_op("tensorflow", name, versions=(TF_VERSION,), grad=GRAD, **kw)
