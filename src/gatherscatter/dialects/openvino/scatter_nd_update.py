"""OpenVINO ``ScatterNDUpdate`` (versions 3, 15)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Bounds, Duplicates, Negative, Policy, parse_enum
from ...core.shape import IndexSpec, as_updates
from ...errors import ShapeError
from .._common import DUPLICATES
from .._record import Description, canonical, check_choice
from .._registry import Lowering, divergence_table
from ._common import INT32_INT64, nd_inputs, ov_context, ov_version, parse_reduction, plugin_divergences, reductions
from ._describe import _INT, _reduction, openvino_op

_REDUCTIONS_15 = reductions("none", "sum", "sub", "prod", "min", "max")

divergence_table("openvino.ScatterNDUpdate", r'''
[[divergence]]
case = "negative index in [-s, -1]"
when = "negative"
reference = "OpenVINO 2026.4 CPU plugin and constant folding"
theirs = "wrap it (the ScatterNDUpdate-15 code path); the -3 spec requires [0, s_j - 1]"
ours = "IndexOutOfRangeError (use version=15 for negative indices)"
evidence = "scatter-nd-update-3.rst; docs/semantics.md#s6-3 ('Observed 2026.4 CPU plugin wraps -1')"
kind = "spec"
versions = "3"
[divergence.example]
call = "openvino:ScatterNDUpdate"
opset = 3
args = { data = [0, 0, 0], indices = [[-1]], updates = [5] }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [0, 0, 5] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "duplicate index tuples with reduction='none'"
when = "duplicates"
reference = "OpenVINO spec and 2026.4 CPU plugin"
theirs = """
undefined ('the result is undefined' in -3, 'order of updating is undefined' in -15); the CPU plugin with 2 \
threads is last-wins in 14 of 20 runs only"""
ours = "duplicates='last' (row-major order of the index tuples) by default; 'first' or 'raise' on request"
evidence = """
scatter-nd-update-3.rst, -15.rst; docs/behavior-matrix.md#surprise-5 and docs/behavior-matrix.md#t6-9; \
openvinotoolkit/openvino#25440"""
kind = "undefined"
not_reproducible = "the CPU plugin's order varies from run to run (last-wins in 14 of 20): no stable outcome"

[[divergence]]
case = """
spec examples: XML 1 (none) and 4 (prod), indices [0, 2, -3, -3, 0] on data [1, 2, 3, 4]; text example 1, indices \
[[4], [3], [1], [7], [-2], [-4]] on data [1..8]"""
when = "always"
reference = "ScatterNDUpdate-15 spec text"
theirs = """
XML 1 shows [50, 20, 20, 4], XML 4 [500, 3600, 40, 4], text 1 [1, 11, 3, 10, 4, 6, 13, 12]: no update order \
produces them"""
ours = """
[50, 40, 20, 4], [500, 2400, 60, 4] and [1, 11, 3, 10, 14, 6, 13, 12] (-4 is 4: updated by 9 then 14), as the CPU \
plugin and constant folding compute"""
evidence = "scatter-nd-update-15.rst; docs/semantics.md#s6-3 and docs/semantics.md#pitfall-18; checked on 2026.4.1"
kind = "spec"
versions = "15"
[divergence.example]
call = "openvino:ScatterNDUpdate"
opset = 15
args = { data = [1, 2, 3, 4], indices = [[0], [2], [-3], [-3], [0]], updates = [10, 20, 30, 40, 50] }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [50, 40, 20, 4] }
ours = "same"

[[divergence]]
case = "indices.shape[-1] == 0 (empty index tuples address the whole data)"
when = "empty"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "ignores the updates and returns data unchanged"
ours = """
each empty tuple addresses the whole tensor (updates.shape = indices.shape[:-1] + data.shape), as the spec's NumPy \
snippet does"""
evidence = "scatter-nd-update-15.rst (NumPy snippet); checked on 2026.4.1 (data [1,2,3], indices (2,0), sum)"
kind = "undefined"
[divergence.example]
call = "openvino:ScatterNDUpdate"
opset = 15
args = { data = [1, 2, 3], indices = [[], []], updates = [[1, 1, 1], [2, 2, 2]] }
kwargs = { reduction = "sum" }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [1, 2, 3] }
ours = { equals = [4, 5, 6] }

[[divergence]]
case = "data with a zero-size dimension addressed by the index tuples"
when = "empty"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "returns the empty data without looking at the indices"
ours = """
IndexOutOfRangeError: no index is valid on an axis of size 0 (spec: 'If an index points to non-existing element \
then exception is raised')"""
evidence = "scatter-nd-update-15.rst; tests/frameworks/test_openvino.py (data (0, 3), indices [[[1]], [[1]]])"
kind = "spec"
[divergence.example]
call = "openvino:ScatterNDUpdate"
opset = 15
args = { data = [], indices = [[1]], updates = [5] }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { equals = [] }
ours = { raises = "IndexOutOfRangeError" }

[[divergence]]
case = "0-D expected updates given as a tensor with one element"
when = "scalar"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "rejects it ('do not have matched tensor rank relationship'); constant folding accepts it"
ours = "accepted, as the spec says ('If expected updates rank is 0D it can be a tensor with single element')"
evidence = "scatter-nd-update-3.rst, -15.rst; checked on 2026.4.1 (data (2,2), indices [1, 0], updates [5])"
kind = "spec"
[divergence.example]
call = "openvino:ScatterNDUpdate"
opset = 15
args = { data = [[0, 0], [0, 0]], indices = [1, 0], updates = [5] }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { raises = "Exception" }
ours = { equals = [[0, 0], [5, 0]] }

''')
plugin_divergences("openvino.ScatterNDUpdate", unchecked_one_thread=True)


def _describe(reduction: str = "none", version: int = 15) -> Description:
    op = "openvino.ScatterNDUpdate"
    v = check_choice(op, "version", version, (3, 15))
    r = _reduction(op, reduction, _REDUCTIONS_15 if v == 15 else {"none": "none"})
    c = canonical("scatter_nd", updates="updates", reduction=r, negative="wrap" if v == 15 else "raise",
                  duplicates_specified=False)
    return Description(op, {"reduction": reduction, "version": v}, ("data", "indices", "updates"), c,
                  layout={"index_dtypes": _INT})


_PROBE: tuple[dict[str, Any], ...] = tuple(
    [{"reduction": r} for r in ("none", "sum", "sub", "prod", "min", "max")]
)


@openvino_op("ScatterNDUpdate", family="scatter_nd", versions=(3, 15),
             adds={15: "reduction (sum, sub, prod, min, max); negative indices"}, differentiable=("data", "updates"),
             describe=_describe, values={"reduction": _REDUCTIONS_15, "duplicates": DUPLICATES}, variants=_PROBE)
def ScatterNDUpdate(
    data: Any,
    indices: Any,
    updates: Any,
    reduction: str = "none",
    version: int = 15,
    *,
    duplicates: str = "last",
) -> Lowering:
    """OpenVINO ScatterNDUpdate: write (or reduce) slices addressed by index tuples into a copy of ``data``.

    Versions: ScatterNDUpdate-3 (opset4 to opset14; indices in ``[0, s_j-1]``),
    -15 (opset15 to opset17: ``reduction`` none, sum, sub, prod, min, max;
    indices in ``[-s_j, s_j-1]``). Indices are int32 or int64 only.

    With ``k = indices.shape[-1] <= rank(data)``:
    ``updates.shape == indices.shape[:-1] + data.shape[k:]`` (a 1-element tensor
    is accepted where that shape is ``()``). A 1-D ``indices`` is one index tuple.
    Indices outside the range raise. Booleans: sum = OR, sub = XOR, prod = AND,
    max = OR, min = AND. Duplicates without a reduction: undefined in OpenVINO;
    the last in row-major order wins here (``duplicates='first'`` / ``'raise'``).

    Equivalent loop::

        Y = copy(data)
        for i in ndindex(indices.shape[:-1]):
            t = tuple(norm(x, s_j) for j, x in enumerate(indices[i]))
            Y[t] = updates[i] if reduction == 'none' else f(Y[t], updates[i])

    Differs from ONNX ScatterND (int64 indices only, no ``sub``, names add/mul)
    and ``tf.tensor_scatter_nd_*`` (no negative indices).

    >>> import gatherscatter as gs
    >>> gs.openvino.ScatterNDUpdate([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12]).tolist()
    [1, 11, 3, 10, 9, 6, 7, 12]
    >>> gs.openvino.ScatterNDUpdate([1, 2, 3, 4], [[0], [2], [-3], [-3], [0]], [10, 20, 30, 40, 50], "sub").tolist()
    [-59, -68, -17, 4]
    """
    v = ov_version("ScatterNDUpdate", version)
    ctx = ov_context("ScatterNDUpdate", v)
    red = parse_reduction(ctx, reduction, _REDUCTIONS_15, v, since=15)
    d, i = nd_inputs(ctx, data, indices, INT32_INT64)
    u = as_updates(ctx, updates, d.dtype)
    k = i.shape[-1]
    if k > d.ndim:
        raise ShapeError(
            f"{ctx.label}: indices.shape[-1] (the index tuple length) must be at most rank(data) = {d.ndim}; "
            f"got {k} (indices shape {list(i.shape)}, data shape {list(d.shape)})"
        )
    expected = tuple(i.shape[:-1]) + tuple(d.shape[k:])
    if expected == () and u.shape != () and u.size == 1:
        u = u.reshape(())
    if u.shape != expected:
        raise ShapeError(
            f"{ctx.label}: updates must have shape indices.shape[:-1] + data.shape[k:] = {list(expected)} "
            f"(k = indices.shape[-1] = {k}); got updates shape {list(u.shape)}"
        )
    policy = Policy(
        bounds=Bounds.RAISE,
        negative=Negative.WRAP if v == 15 else Negative.RAISE,
        reduction=red,
        duplicates=parse_enum(Duplicates, duplicates),
    )
    return Lowering("scatter", d, i, IndexSpec(axis=0, depth=k, vector=True), policy, ctx, updates=u)
