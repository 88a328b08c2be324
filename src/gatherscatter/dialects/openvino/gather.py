"""OpenVINO ``Gather`` (versions 1, 7, 8)."""

from __future__ import annotations

from typing import Any

from ...core.policy import STRICT, Bounds, Negative, Policy
from ...core.shape import IndexSpec, as_index_array, to_int
from ...errors import AxisError, UnsupportedError
from .._common import check_batch, data_array
from .._record import Description, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import ANY_INT, GATHER_TYPES, axis_input, check_data, ov_context, ov_version, plugin_divergences
from ._describe import _INT, openvino_op

_POLICY_8 = Policy(bounds=Bounds.FILL, negative=Negative.WRAP, fill_value=None)  # zero fill

divergence_table("openvino.Gather", r'''
[[divergence]]
case = "negative or out-of-range index"
when = "negative out_of_range"
reference = "OpenVINO 2026.4 CPU plugin and constant folding"
theirs = """
spec: indices lie in [0, s-1], nothing said outside; CPU kernel returns 0 for -1 and for s, while constant folding \
of the same node wraps -1 (results depend on whether indices are constants)"""
ours = "IndexOutOfRangeError for any index outside [0, s-1] (use version=8 for wrap and zero fill)"
evidence = """
gather-1.rst, gather-7.rst; docs/semantics.md#s2-3 and docs/semantics.md#pitfall-2, docs/semantics.md#pitfall-16; \
docs/behavior-matrix.md#surprise-7"""
kind = "undefined"
versions = "1, 7"
[divergence.example]
call = "openvino:Gather"
opset = 7
args = { data = [10, 20, 30], indices = [-1], axis = 0 }
kwargs = { batch_dims = 0 }
dtypes = { data = "float32", indices = "int64" }
theirs = { equals = [0] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "empty indices, or data with a zero-size dimension"
when = "empty"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = """
empty indices: compile_model dies with SIGFPE (Gather-7 too); data of shape (3, 0, k) with batch_dims=1: SIGSEGV"""
ours = "the (empty) result the spec's shape formula gives"
evidence = """
docs/behavior-matrix.md#surprise-1 and docs/behavior-matrix.md#t6-10 (2 of 2 runs SIGFPE); \
tests/frameworks/test_openvino.py; DESIGN.md OpenVINO rules"""
kind = "undefined"
versions = "8"
not_reproducible = "the process dies (SIGFPE, SIGSEGV)"

[[divergence]]
case = "batch_dims > 0 with a batch dimension of size 1"
when = "always"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "crashes the process (SIGSEGV) or returns the wrong element"
ours = "the spec's result"
evidence = "docs/behavior-matrix.md#appendix; reproduced with data (1, 3), indices (1, 2), axis 1, batch_dims 1"
kind = "undefined"
versions = "7, 8"
not_reproducible = "the process dies (SIGSEGV) or the element read varies"

[[divergence]]
case = "out-of-range index on integer data, or an axis of size 0"
when = "out_of_range"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "returns uninitialised memory (e.g. 32724 for int32 data) instead of the documented 0"
ours = "zero fill, as the Gather-8 spec says (Example 7: indices [3, 10, -20] -> [4, 0, 0])"
evidence = """
gather-8.rst; docs/behavior-matrix.md#appendix ('out-of-range indices on int32/int64 data return garbage')"""
kind = "undefined"
versions = "8"
not_reproducible = "uninitialised memory: no stable value to assert"
''')
plugin_divergences("openvino.Gather")


def _describe(axis: int, batch_dims: int = 0, version: int = 8) -> Description:
    op = "openvino.Gather"
    axis = check_int(op, "axis", axis)
    b = check_int(op, "batch_dims", batch_dims)
    v = check_choice(op, "version", version, (1, 7, 8))
    if b < 0:
        raise UnsupportedError(f"translate {op}: batch_dims={b} counts from the end of indices, whose rank a "
                               "translation does not know; give the non-negative batch_dims")
    if b and axis < 0:
        raise UnsupportedError(f"translate {op}: a negative axis ({axis}) with batch_dims={b}: give the "
                               "non-negative axis")
    kw: dict[str, Any] = (dict(negative="wrap", bounds="fill", fill_value=0) if v == 8
                          else dict(negative="raise", bounds="raise"))
    c = canonical("gather", axis=axis, batch_dims=b, **kw)
    return Description(op, {"axis": axis, "batch_dims": b, "version": v}, ("data", "indices"), c,
                  layout={"index_dtypes": _INT + ("int16", "uint8")})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"axis": 0, "version": v} for v in (1, 7, 8)] + [{"axis": 1, "batch_dims": 1}]
)


@openvino_op("Gather", family="gather", versions=(1, 7, 8),
             adds={7: "batch_dims", 8: "negative indices; zero fill out of range"}, differentiable=("data",),
             describe=_describe, variants=_PROBE)
def Gather(data: Any, indices: Any, axis: Any, batch_dims: int = 0, version: int = 8) -> Lowering:
    """OpenVINO Gather: take whole slices of ``data`` along ``axis`` (TF ``gather`` with ``batch_dims``).

    Versions: Gather-1 (opset1; no ``batch_dims``), Gather-7 (``batch_dims``),
    Gather-8 (opset8 to opset17: negative indices, zero fill out of range).
    ``axis`` is an input in OpenVINO: an int, a 0-d or a 1-element 1-D integer array.

    With ``b = batch_dims`` (range ``[-min(r, q), min(r, q)]``, a negative value
    counts from ``rank(indices)``, and ``b <= axis`` after normalising both):
    ``Y.shape = data.shape[:axis] + indices.shape[b:] + data.shape[axis+1:]``;
    the first ``b`` dims of ``data`` and ``indices`` must be equal.
    Indices may have any integer type. Gather-8: ``[-s, s-1]`` is valid (negative
    counts from the back), anything else reads as 0 (``False``, ``''``).
    Gather-1/7: the spec allows ``[0, s-1]`` only and says nothing outside it;
    we raise there (the CPU plugin returns 0, constant folding wraps).

    Equivalent loop::

        for p in ndindex(data.shape[:axis]), i in ndindex(indices.shape[b:]), t in ndindex(data.shape[axis+1:]):
            k = indices[p[:b] + i]; k = k + s if k < 0 else k           # Gather-8
            Y[p + i + t] = data[p + (k,) + t] if 0 <= k < s else 0      # Gather-8

    Differs from ONNX Gather (no ``batch_dims``; out of range is an error there)
    and ``tf.gather`` (no negatives on CPU; raises out of range on CPU). The CPU
    plugin computes float64 in float32; we keep float64.

    >>> import gatherscatter as gs
    >>> gs.openvino.Gather([1, 2, 3, 4, 5], [3, 10, -20], 0).tolist()
    [4, 0, 0]
    >>> gs.openvino.Gather([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[0, 0, 4], [4, 0, 0]], 1, batch_dims=1).tolist()
    [[1, 1, 5], [10, 6, 6]]
    """
    v = ov_version("Gather", version)
    ctx = ov_context("Gather", v)
    d = data_array(ctx, data)
    check_data(ctx, d, GATHER_TYPES)
    i = as_index_array(ctx, indices, "indices", ANY_INT)
    b = to_int(ctx, "batch_dims", batch_dims)
    if v == 1 and b != 0:
        raise UnsupportedError(
            f"{ctx.label}: Gather-1 has no batch_dims attribute (added in Gather-7); got batch_dims={b}"
        )
    a = axis_input(ctx, axis, d.ndim)
    r, q = d.ndim, i.ndim
    m = min(r, q)
    if not -m <= b <= m:
        raise AxisError(
            f"{ctx.label}: batch_dims must be in [-min(rank(data), rank(indices)), min(rank(data), "
            f"rank(indices))] = [{-m}, {m}]; got batch_dims={b} (data shape {list(d.shape)}, indices "
            f"shape {list(i.shape)})"
        )
    bn = b + q if b < 0 else b
    if bn > a:
        raise AxisError(
            f"{ctx.label}: batch_dims must not exceed axis after normalisation (batch_dims' <= axis'); "
            f"got batch_dims={b} (normalised {bn}) and axis {a}"
        )
    check_batch(ctx, d, i, bn)
    spec = IndexSpec(axis=a, batch=bn)
    return Lowering("gather", d, i, spec, _POLICY_8 if v == 8 else STRICT, ctx)
