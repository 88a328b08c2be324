"""Keras 3 backends: the ``backend=`` keyword every ``gs.keras`` op takes, and the facts that differ by backend.

``keras.ops`` runs the same call on whichever backend ``KERAS_BACKEND`` selects, and the
answer differs (measured with Keras 3.15.1 on CPU): how negative and out-of-range indices
behave, the dtypes (Keras' JAX backend runs JAX with 32-bit defaults), empty segments.
:data:`INDEX_RULES` tables what each op does per backend.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.context import OpContext
from ...core.shape import as_index_array
from ...errors import ArgumentError, UnsupportedError
from .._common import data_array
from .._record import Canonical, Description, Residual, Step, check_choice

__all__ = [
    "BACKENDS",
    "INDEX_RULES",
    "KERAS_VERSION",
    "NARROW",
    "index_policy",
    "jax32",
    "keras_context",
    "keras_description",
    "parse_backend",
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
    arguments' names, as :class:`OpContext` takes them) and the two arrays (32-bit on the jax backend)."""
    b = parse_backend(name, backend)
    ctx = keras_context(name, b, **names)
    d = data_array(ctx, data)
    i = as_index_array(ctx, indices, "indices")
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
