"""ONNX ``ScatterND`` (opsets 11, 13, 16, 18)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Duplicates, Policy, parse_enum
from ...core.shape import IndexSpec, as_updates
from ...errors import ShapeError
from .._common import DUPLICATES
from .._record import Description, canonical, check_choice
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT64, data_and_indices, onnx_context, op_version, parse_reduction
from ._describe import _I64, _REDUCTIONS, _opset, onnx_op

divergence_table("onnx.ScatterND", r'''
[[divergence]]
case = "duplicate index tuples with reduction='none'"
when = "duplicates"
reference = "ONNX spec"
theirs = "unspecified; ONNX Runtime CPU: last wins (and warns)"
ours = "duplicates='last' by default (row-major order); 'first' or 'raise' on request"
evidence = "docs/semantics.md#s6-1; docs/behavior-matrix.md#t6-5 and docs/behavior-matrix.md#t6-9"
kind = "undefined"
not_reproducible = "the reference is the spec's silence: ONNX Runtime CPU lets the last update win, as ours"

[[divergence]]
case = "reduction='add' with duplicate indices and 2 intra-op threads"
when = "duplicates"
reference = "ONNX Runtime 1.31 CPU"
theirs = "loses updates (data race): wrong sums in 3-4 rows per call"
ours = "deterministic row-major accumulation"
evidence = "docs/behavior-matrix.md#perf-8; microsoft/onnxruntime#18048, #23396"
kind = "oracle"
not_reproducible = "a data race: nondeterministic, and only on large inputs with several threads"

[[divergence]]
case = "reduction='max' or 'min' on bool data"
when = "dtype"
reference = "ONNX Runtime 1.32 CPU"
theirs = """
refuses at run time: 'bool data type is not supported with ScatterND opset 18 when reduction is 'max'' (add and \
mul on bool run, as OR and AND, and agree with us)"""
ours = "the spec's type constraint includes bool: max=OR, min=AND (as onnx.reference and NumPy compute them)"
evidence = """
measured with onnxruntime 1.32.0 \
(tests/frameworks/test_onnx.py::test_bool_max_min_reductions_onnxruntime_refuses); onnx.defs schema ScatterND-18"""
kind = "oracle"
versions = "18"
[divergence.example]
call = "onnxruntime:ScatterND"
opset = 18
args = { data = [false, true], indices = [[0]], updates = [true] }
kwargs = { reduction = "max" }
dtypes = { data = "bool", indices = "int64", updates = "bool" }
theirs = { raises = "RuntimeException" }
ours = { equals = [true, true] }
''')


def _describe(reduction: str = "none", opset: int | None = None) -> Description:
    check_choice("onnx.ScatterND", "reduction", reduction, _REDUCTIONS)
    c = canonical("scatter_nd", updates="updates", reduction=reduction, duplicates_specified=False)
    return Description("onnx.ScatterND", {"reduction": reduction, **_opset(opset)}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _I64})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"reduction": r} for r in ("none", "add", "mul", "max", "min")]
)


@onnx_op("ScatterND", family="scatter_nd", versions=(11, 13, 16, 18),
         adds={13: "bfloat16", 16: "reduction add, mul", 18: "reduction max, min"}, differentiable=("data", "updates"),
         describe=_describe, values={"reduction": _REDUCTIONS, "duplicates": DUPLICATES}, variants=_PROBE)
def ScatterND(
    data: Any,
    indices: Any,
    updates: Any,
    reduction: str = "none",
    opset: int | None = None,
    *,
    duplicates: str = "last",
) -> Lowering:
    """ONNX ScatterND: write (or reduce) slices addressed by index tuples into a copy of ``data``.

    Versions: ScatterND-11, -13 (bfloat16), -16 (``reduction`` none, add, mul),
    -18 (max, min). ``opset=None``: the newest. Indices are int64 only.

    With ``k = indices.shape[-1]`` (``1 <= k <= rank(data)``):
    ``updates.shape == indices.shape[:-1] + data.shape[k:]``. A 1-D ``indices``
    is ONE index tuple. Negative indices wrap once; outside ``[-s, s-1]`` raises.
    Duplicates with ``reduction='none'`` are unspecified by ONNX; the last
    update in row-major order wins (``duplicates='last'``).

    Equivalent loop::

        Y = copy(data)
        for i in ndindex(indices.shape[:-1]):
            t = tuple(x + s_j if x < 0 else x for j, x in enumerate(indices[i]))
            Y[t] = updates[i] if reduction == 'none' else f(Y[t], updates[i])

    Differs from ``tf.scatter_nd`` (zeros + sum of duplicates: ONNX needs
    ``reduction='add'`` on zeros) and MXNet ``scatter_nd`` (tuples on the first axis).

    >>> import gatherscatter as gs
    >>> gs.onnx.ScatterND([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12]).tolist()
    [1, 11, 3, 10, 9, 6, 7, 12]
    """
    opset, version = op_version("ScatterND", (11, 13, 16, 18), opset)
    ctx = onnx_context("ScatterND", opset, version)
    red = parse_reduction(ctx, "ScatterND", reduction, version)
    d, i = data_and_indices(ctx, version, data, indices, INDEX_INT64)
    u = as_updates(ctx, updates, d.dtype)
    if i.ndim < 1:
        raise ShapeError(f"{ctx.label}: indices must have rank q >= 1; got a 0-d array")
    k = i.shape[-1]
    if not 1 <= k <= d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] (the index tuple length) must be in [1, rank(data)] = "
            f"[1, {d.ndim}]; got {k} (indices shape {list(i.shape)}, data shape {list(d.shape)})"
        )
    policy = Policy(bounds="raise", negative="wrap", reduction=red, duplicates=parse_enum(Duplicates, duplicates))
    return Lowering("scatter", d, i, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=u)
