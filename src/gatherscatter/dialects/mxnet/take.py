"""MXNet ``take`` (MXNet 1.9.1)."""

from __future__ import annotations

from typing import Any

from ...core.policy import CLIP, MODULO, STRICT
from ...core.shape import IndexSpec, normalize_axis
from ...errors import ArgumentError, UnsupportedError
from .._record import Description, Step, canonical, check_choice, check_int
from .._registry import Lowering, dialect_op, divergence_table
from ._common import DATA, INDEX, first_bad, mx_array, mx_context, raise_bad, truncate
from ._describe import _CAST, _FLOAT_RAISE, _INDEX, _MODES

_POLICIES = {"clip": CLIP, "wrap": MODULO, "raise": STRICT}

divergence_table("mxnet.take", r'''
[[divergence]]
case = "mode='raise' with int8 (uint8) indices on an axis longer than 128 (256)"
when = "dtype"
reference = "MXNet 1.9.1 CPU"
theirs = """
rejects valid indices ('take operator contains indices out of bound'): the bound s-1 is cast to the index dtype \
and overflows (int8: 199 -> -57)"""
ours = "accepts every index in [0, s-1]"
evidence = """
measured: take(arange(200), int8 [5], mode='raise') raises, take(arange(128), int8 [5]) works; indexing_op.h \
TakeOpForward (IType max = static_cast<IType>(s - 1))"""
kind = "oracle"
[divergence.example]
call = "mxnet.nd.take"
kwargs = { mode = "raise" }
dtypes = { a = "float32", indices = "int8" }
theirs = { raises = "MXNetError" }
ours = { equals = [0] }
[divergence.example.args]
a = [  # 129 elements: s - 1 = 128 is -128 as int8
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
]
indices = [0]

[[divergence]]
case = "NaN, infinite or |index| >= 2**63 float indices"
when = "float_index nonfinite"
reference = "MXNet 1.9.1 CPU"
theirs = """
casts with undefined behaviour: x86 gives -2**63, so clip reads element 0 and wrap/raise read element (-2**63 mod \
s); mode='raise' does not catch NaN"""
ours = "IndexOutOfRangeError naming the value and position"
evidence = "measured: take([10,20,30], [nan]) -> [10], mode='wrap' -> [20], take(.., [1e20]) -> [10]"
kind = "undefined"
[divergence.example]
call = "mxnet.nd.take"
args = { a = [10, 20, 30], indices = ["nan"] }
dtypes = { a = "float32", indices = "float32" }
theirs = { equals = [10] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "empty or 0-d a / indices, int16/uint16/uint32/uint64/complex/bfloat16 data"
when = "empty scalar dtype"
reference = "MXNet 1.9.1"
theirs = "cannot be expressed (shape inference fails on a 0 dim; nd.array raises KeyError for the dtype)"
ours = "UnsupportedError / DTypeError before anything runs"
evidence = "docs/behavior-matrix.md#s3 and docs/behavior-matrix.md#t6-1 (mx.nd.take empty and 0-d rows)"
kind = "choice"
[divergence.example]
call = "mxnet.nd.take"
args = { a = [1, 2], indices = [0] }
dtypes = { a = "int16", indices = "int64" }
theirs = { raises = "KeyError" }
ours = { raises = "DTypeError" }
''')


def _describe(axis: int = 0, mode: str = "clip") -> Description:
    op = "mxnet.take"
    axis = check_int(op, "axis", axis)
    neg, bounds = _MODES[check_choice(op, "mode", mode, tuple(_MODES))]
    pre = [Step.adapt("cast", "idx", "indices", dtype="int64", why=_CAST)]
    c = canonical("gather", data="a", indices="idx", axis=axis, negative=neg, bounds=bounds)
    return Description(op, {"axis": axis, "mode": mode}, ("a", "indices"), c, pre=pre,
                  residuals=[_FLOAT_RAISE] if mode == "raise" else [],
                  layout={"index_dtypes": _INDEX, "fractional": 0.3})


@dialect_op(
    "mxnet", "take", family="gather", kind="gather", versions=("1.9.1",), differentiable=("a",),
    describe=_describe, fuzz={"float_index": 0.3}, variants=({}, {"mode": "wrap"}, {"mode": "raise"}),
    values={"mode": ("raise", "wrap", "clip")},
)
def take(a: Any, indices: Any, axis: int = 0, mode: str = "clip") -> Lowering:
    """MXNet take: whole slices of ``a`` along ``axis`` (default ``mode='clip'``).

    Provenance: ``mxnet.nd.take(a, indices, axis=0, mode='clip')``, MXNet 1.9.1
    (``src/operator/tensor/indexing_op.{h,cc}``, op ``take``), the last release.

    ``Y.shape = a.shape[:axis] + indices.shape + a.shape[axis+1:]``. Indices
    may be any MXNet numeric dtype (usually float32) or bool; floats are
    truncated toward zero (2.4 reads 2, -0.5 reads 0). Modes: ``'clip'``
    clamps to ``[0, s-1]`` (so ``-1`` reads element 0, unlike NumPy's raise
    mode), ``'wrap'`` takes ``i mod s``, ``'raise'`` accepts only
    ``0 <= index <= s-1`` *before* truncation (negatives and 2.4 on size 3
    raise). Data: float16/32/64, uint8, int8, int32, int64, bool; no empty or
    0-d arrays (MXNet cannot express them). NaN/inf indices raise.

    Equivalent loop::

        for p in ndindex(a.shape[:axis]), i in ndindex(indices.shape), r in ndindex(a.shape[axis+1:]):
            k = int(trunc(indices[i]))                          # C cast
            k = min(max(k, 0), s - 1) if mode == 'clip' else k % s   # 'raise' checked first
            Y[p + i + r] = a[p + (k,) + r]

    Differs from ``numpy.take`` (mode 'raise' by default, negative indices wrap,
    ``axis=None`` flattens) and from ``onnx.Gather`` (negative indices wrap).

    >>> import gatherscatter as gs
    >>> gs.mxnet.take([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[0, 1], [1, 2]]).tolist()
    [[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [5.0, 6.0]]]
    >>> gs.mxnet.take([10.0, 20.0, 30.0], [-1.0, 0.6, 1.5, 2.4, 3.0]).tolist()
    [10.0, 10.0, 20.0, 30.0, 30.0]
    >>> gs.mxnet.take([10.0, 20.0, 30.0], [-1, 3], mode="wrap").tolist()
    [30.0, 10.0]
    """
    ctx = mx_context("take", data="a")
    if not isinstance(mode, str):
        raise ArgumentError(f"{ctx.label}: mode must be a string (got {mode!r})")
    if mode not in _POLICIES:
        raise UnsupportedError(
            f"{ctx.label}: Invalid Input: {mode!r}, valid values are: {{'clip', 'raise', 'wrap'}} (mode)"
        )
    d = mx_array(ctx, a, "a", DATA)
    i = mx_array(ctx, indices, "indices", INDEX | {"bool"})
    ax = normalize_axis(ctx, axis, d.ndim)
    s = d.shape[ax]
    if mode == "raise" and i.dtype.kind == "f":
        # MXNet checks 0 <= index <= s-1 in the index dtype, before truncating
        bad = ~((i >= 0) & (i <= s - 1)) & ~(i != i)  # NaN passes MXNet's check; truncate() rejects it
        if bad.any():
            raise_bad(ctx, i, first_bad(bad), f"is out of bounds for axis {ax} of a with size {s}: mode='raise' "
                      f"needs 0 <= index <= {s - 1} before truncation")
    idx = truncate(ctx, i, "indices")
    return Lowering("gather", d, idx, IndexSpec(axis=ax), _POLICIES[mode], ctx)
