"""ONNX ``ScatterElements`` (opsets 11, 13, 16, 18) and the deprecated ``Scatter`` (9)."""

from __future__ import annotations

from typing import Any

from ...core.context import OpContext
from ...core.policy import Duplicates, Policy, Reduction, parse_enum
from ...core.shape import IndexSpec, as_updates, normalize_axis
from .._common import DUPLICATES, check_updates_like_indices
from .._record import Description, canonical, check_choice, check_int
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, data_and_indices, onnx_context, op_version, parse_reduction
from ._describe import _INT, _REDUCTIONS, _opset, onnx_op

divergence_table("onnx.ScatterElements", r'''
[[divergence]]
case = "duplicate indices with reduction='none'"
when = "duplicates"
reference = "ONNX spec"
theirs = "unspecified ('indices should not have duplicate entries'); ONNX Runtime CPU: last wins"
ours = """
duplicates='last' by default (row-major order, as every CPU runtime measured); 'first' or 'raise' on request"""
evidence = """
docs/behavior-matrix.md#t6-4 and docs/behavior-matrix.md#t6-9 (ORT last-wins 20/20); docs/semantics.md#s5-3"""
kind = "undefined"
not_reproducible = """
the reference is the spec's silence: ONNX Runtime CPU and onnx.reference let the last update win, as ours"""

[[divergence]]
case = "unknown reduction string ('sum', 'mean', 'bogus')"
when = "always"
reference = "ONNX Runtime 1.31 and onnx.reference 1.23"
theirs = "run it silently as 'none' (last write wins)"
ours = "UnsupportedError naming the accepted reductions"
evidence = "docs/behavior-matrix.md#surprise-2, docs/behavior-matrix.md#t6-4 'reduction names accepted'"
kind = "oracle"
[divergence.example]
call = "onnxruntime:ScatterElements"
opset = 18
args = { data = [1, 2], indices = [0], updates = [5] }
kwargs = { reduction = "sum" }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [5, 2] }
ours = { raises = "UnsupportedError" }

[[divergence]]
case = "reduction='max'/'min' at opset 16"
when = "version"
reference = "ONNX Runtime 1.31"
theirs = "accepted in an opset-16 model"
ours = "UnsupportedError: max/min were added in opset 18"
evidence = "docs/behavior-matrix.md#surprise-2; onnx/onnx#4411"
kind = "oracle"
versions = "16"
[divergence.example]
call = "onnxruntime:ScatterElements"
opset = 16
args = { data = [1, 2], indices = [0], updates = [5] }
kwargs = { reduction = "max" }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [5, 2] }
ours = { raises = "UnsupportedError" }

[[divergence]]
case = "reduction on bool / string / complex data"
when = "dtype"
reference = "ONNX spec"
theirs = "type constraint lists every type, but 'addition'/'max' of bool, string or complex is not defined"
ours = """
bool: add=OR, mul=AND, max=OR, min=AND (numpy, onnx.reference); string: DTypeError; complex max/min: DTypeError"""
evidence = "onnx.defs schema ScatterElements-18; onnx/reference/ops/op_scatter_elements.py"
kind = "undefined"
not_reproducible = "the reference is the spec's silence (onnx.reference and NumPy compute bool as ours does)"

[[divergence]]
case = "reduction='max' or 'min' on bool data"
when = "dtype"
reference = "ONNX Runtime 1.32 CPU"
theirs = """
refuses at run time: 'bool data type is not supported with ScatterElements opset 18 when reduction is 'max'' (add \
and mul on bool run, as OR and AND, and agree with us)"""
ours = "the spec's type constraint includes bool: max=OR, min=AND (as onnx.reference and NumPy compute them)"
evidence = """
measured with onnxruntime 1.32.0 \
(tests/frameworks/test_onnx.py::test_bool_max_min_reductions_onnxruntime_refuses); onnx.defs schema \
ScatterElements-18"""
kind = "oracle"
versions = "18"
[divergence.example]
call = "onnxruntime:ScatterElements"
opset = 18
args = { data = [false, true], indices = [0], updates = [true] }
kwargs = { reduction = "max" }
dtypes = { data = "bool", indices = "int64", updates = "bool" }
theirs = { raises = "RuntimeException" }
ours = { equals = [true, true] }
''')


def _lower(
    ctx: OpContext,
    version: int,
    data: Any,
    indices: Any,
    updates: Any,
    axis: int,
    reduction: Reduction,
    duplicates: Any,
) -> Lowering:
    d, i = data_and_indices(ctx, version, data, indices, INDEX_INT32_INT64)
    u = as_updates(ctx, updates, d.dtype)
    a = normalize_axis(ctx, axis, d.ndim)
    check_updates_like_indices(ctx, i, u)
    policy = Policy(
        bounds="raise",
        negative="wrap",
        reduction=reduction,
        duplicates=parse_enum(Duplicates, duplicates),
    )
    return Lowering("scatter", d, i, IndexSpec(axis=a, batch=a, elementwise=True), policy, ctx, updates=u)


def _describe_scatter_elements(axis: int = 0, reduction: str = "none", opset: int | None = None) -> Description:
    axis = check_int("onnx.ScatterElements", "axis", axis)
    check_choice("onnx.ScatterElements", "reduction", reduction, _REDUCTIONS)
    c = canonical("scatter_elements", updates="updates", axis=axis, reduction=reduction,
                  duplicates_specified=False)
    return Description("onnx.ScatterElements", {"axis": axis, "reduction": reduction, **_opset(opset)},
                  ("data", "indices", "updates"), c, layout={"index_dtypes": _INT, "smaller_index": True})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"axis": 0, "reduction": r} for r in ("none", "add", "mul", "max", "min")]
)


@onnx_op("ScatterElements", family="scatter_elements", versions=(11, 13, 16, 18),
         adds={13: "bfloat16", 16: "reduction add, mul", 18: "reduction max, min"}, differentiable=("data", "updates"),
         describe=_describe_scatter_elements, values={"reduction": _REDUCTIONS, "duplicates": DUPLICATES},
         variants=_PROBE)
def ScatterElements(
    data: Any,
    indices: Any,
    updates: Any,
    axis: int = 0,
    reduction: str = "none",
    opset: int | None = None,
    *,
    duplicates: str = "last",
) -> Lowering:
    """ONNX ScatterElements: write (or reduce) one update per index into a copy of ``data``.

    Versions: ScatterElements-11, -13 (bfloat16), -16 (``reduction`` none, add,
    mul), -18 (max, min). ``opset=None``: the newest.

    ``indices`` and ``updates`` have the same shape and the rank of ``data``;
    on dims other than ``axis`` they may be shorter than ``data``. Negative
    indices wrap once; outside ``[-s, s-1]`` raises. Unknown reduction strings
    raise (ONNX runtimes silently treat them as 'none').

    Duplicates with ``reduction='none'`` are unspecified by ONNX; we apply the
    updates in row-major order so the last wins (``duplicates='last'``, what
    ONNX Runtime CPU does); ``duplicates='first'`` or ``'raise'`` on request.

    Equivalent loop::

        Y = copy(data)
        for j in ndindex(indices.shape):
            k = indices[j]; k = k + s if k < 0 else k
            t = j[:axis] + (k,) + j[axis+1:]
            Y[t] = updates[j] if reduction == 'none' else f(Y[t], updates[j])

    >>> import gatherscatter as gs
    >>> gs.onnx.ScatterElements([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 3]], [[1.1, 2.1]], axis=1).tolist()
    [[1.0, 1.1, 3.0, 2.1, 5.0]]
    >>> gs.onnx.ScatterElements([[1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 1]], [[1.1, 2.1]], axis=1, reduction="add").tolist()
    [[1.0, 5.2, 3.0, 4.0, 5.0]]
    """
    opset, version = op_version("ScatterElements", (11, 13, 16, 18), opset)
    ctx = onnx_context("ScatterElements", opset, version)
    red = parse_reduction(ctx, "ScatterElements", reduction, version)
    return _lower(ctx, version, data, indices, updates, axis, red, duplicates)


def _describe_scatter(axis: int = 0, opset: int = 9) -> Description:
    axis = check_int("onnx.Scatter", "axis", axis)
    c = canonical("scatter_elements", updates="updates", axis=axis, duplicates_specified=False)
    return Description("onnx.Scatter", {"axis": axis, **_opset(opset)}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _INT, "smaller_index": True})


@onnx_op("Scatter", family="scatter_elements", versions=(9,), differentiable=("data", "updates"),
         describe=_describe_scatter, fuzz={"valid_versions": (9, 10)}, values={"duplicates": DUPLICATES})
def Scatter(
    data: Any, indices: Any, updates: Any, axis: int = 0, opset: int = 9, *, duplicates: str = "last"
) -> Lowering:
    """ONNX Scatter (deprecated): ScatterElements-11 under its opset-9 name.

    Scatter-9 exists at opsets 9 and 10 and was removed at opset 11 in favour of
    ScatterElements (onnx/onnx#2143), with the same semantics and no reduction.
    Negative indices wrap once (as ONNX Runtime runs it); outside ``[-s, s-1]``
    raises.

    Equivalent loop: as :func:`ScatterElements` with ``reduction='none'``.

    >>> import gatherscatter as gs
    >>> gs.onnx.Scatter([[0.0, 0.0, 0.0]] * 3, [[1, 0, 2], [0, 2, 1]], [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]).tolist()
    [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]]
    """
    opset, version = op_version("Scatter", (9,), opset, removed_at=11)
    ctx = onnx_context("Scatter", opset, version)
    return _lower(ctx, version, data, indices, updates, axis, Reduction.NONE, duplicates)
