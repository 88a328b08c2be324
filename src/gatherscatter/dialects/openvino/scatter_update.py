"""OpenVINO ``ScatterUpdate`` (version 3)."""

from __future__ import annotations

from typing import Any

from ...core.policy import Bounds, Duplicates, Negative, Policy, parse_enum
from ...core.shape import IndexSpec
from .._common import DUPLICATES
from .._record import Description, Step, canonical, check_choice, check_int, moved_axis_args
from .._registry import Lowering, divergence_table
from ._common import axis_scatter_inputs, ov_context, ov_version, plugin_divergences
from ._describe import _INT, openvino_op

divergence_table("openvino.ScatterUpdate", r'''
[[divergence]]
case = "index outside [0, s-1] (negative or too large)"
when = "negative out_of_range"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = """
-1 raises cleanly, but an out-of-range index crashes the process or is silently ignored, varying from run to run"""
ours = "IndexOutOfRangeError for every index outside [0, s-1], as the spec says"
evidence = """
scatter-update-3.rst ('If an index points to a non-existing output tensor element or is negative, then an \
exception is raised'); docs/behavior-matrix.md#t6-6 and docs/behavior-matrix.md#appendix"""
kind = "undefined"
not_reproducible = "the process dies, or the update is dropped, varying from run to run"

[[divergence]]
case = "0-D (scalar) indices"
when = "scalar"
reference = "OpenVINO 2026.4 CPU plugin"
theirs = "compile_model rejects it ('do not support scalar input'); constant folding computes it"
ours = "computed as the spec's first example says: data[..., indices, ...] = updates[...]"
evidence = "scatter-update-3.rst ('indices is a 0D tensor'); checked on 2026.4.1"
kind = "spec"
[divergence.example]
call = "openvino:ScatterUpdate"
opset = 3
args = { data = [0, 0, 0], indices = 1, updates = 5, axis = 0 }
dtypes = { data = "float32", indices = "int64", updates = "float32" }
theirs = { raises = "Exception" }
ours = { equals = [0, 5, 0] }

[[divergence]]
case = "duplicate indices"
when = "duplicates"
reference = "OpenVINO spec and 2026.4 CPU plugin"
theirs = """
'the order of updating the values is undefined'; with 2 threads the CPU plugin is last-wins in 10 of 20 runs"""
ours = "duplicates='last' (row-major order of indices) by default; 'first' or 'raise' on request"
evidence = """
scatter-update-3.rst; docs/behavior-matrix.md#surprise-5, docs/behavior-matrix.md#t6-6 and \
docs/behavior-matrix.md#t6-9"""
kind = "undefined"
not_reproducible = "the CPU plugin's order varies from run to run (last-wins in 10 of 20): no stable outcome"
''')
plugin_divergences("openvino.ScatterUpdate")


def _describe(axis: int, version: int = 3) -> Description:
    op = "openvino.ScatterUpdate"
    axis = check_int(op, "axis", axis)
    v = check_choice(op, "version", version, (3,))
    pre = [Step.adapt("moveaxis", "data0", "data", source=axis, destination=0,
                      why="ScatterUpdate writes whole slices along axis: move it first (docs/semantics.md#e17)"),
           Step.adapt("expand_dims", "tuples", "indices", axis=-1, why="one-component index tuples"),
           Step.adapt("moveaxis_block", "upd", "updates", "indices", "data", axis=axis,
                      why="the updates' index dims sit at axis: move them first")]
    c = canonical("scatter_nd", data="data0", indices="tuples", updates="upd", out="y", negative="raise",
                  duplicates_specified=False)
    post = [Step.adapt("moveaxis", "out", "y", source=0, destination=axis, why="move axis back")]
    need = axis + 1 if axis >= 0 else -axis
    return Description(op, {"axis": axis, "version": v}, ("data", "indices", "updates"), c, pre=pre, post=post,
                  layout={"index_dtypes": _INT + ("int16",), "k": 1, "rank": (need, need + 1),
                          "to_source": moved_axis_args(axis, "data", "indices", "updates")})


@openvino_op("ScatterUpdate", family="scatter_axis", versions=(3,), differentiable=("data", "updates"),
             describe=_describe, fuzz={"distinct_targets": 0.6, "index_shape": "any"},
             variants=({"axis": 0}, {"axis": 1}), values={"duplicates": DUPLICATES})
def ScatterUpdate(
    data: Any, indices: Any, updates: Any, axis: Any, version: int = 3, *, duplicates: str = "last"
) -> Lowering:
    """OpenVINO ScatterUpdate: overwrite whole slices along ``axis`` (the inverse of Gather).

    Version: ScatterUpdate-3 (opset3 to opset17). ``axis`` is an input: an int,
    a 0-d or a 1-element 1-D integer array.

    ``updates.shape == data.shape[:axis] + indices.shape + data.shape[axis+1:]``;
    indices of any integer type in ``[0, s-1]`` (a negative or out-of-range index
    raises, as the spec says). Duplicates: undefined order in OpenVINO; the last
    in row-major order of ``indices`` wins here (``duplicates='first'`` / ``'raise'``).

    Equivalent loop::

        Y = copy(data)
        for p in ndindex(data.shape[:axis]), i in ndindex(indices.shape), t in ndindex(data.shape[axis+1:]):
            Y[p + (indices[i],) + t] = updates[p + i + t]

    Differs from ``torch.index_copy`` (1-D index only, ``dim`` first) and Paddle
    ``scatter`` (axis 0 only, negative indices wrap).

    >>> import gatherscatter as gs
    >>> data = [[-1.0, 1.0, -1.0, 3.0, 4.0], [-1.0, 6.0, -1.0, 8.0, 9.0], [-1.0, 11.0, 1.0, 13.0, 14.0]]
    >>> gs.openvino.ScatterUpdate(data, [0, 2], [[1.0, 1.0], [1.0, 1.0], [1.0, 2.0]], 1).tolist()
    [[1.0, 1.0, 1.0, 3.0, 4.0], [1.0, 6.0, 1.0, 8.0, 9.0], [1.0, 11.0, 2.0, 13.0, 14.0]]
    """
    v = ov_version("ScatterUpdate", version)
    ctx = ov_context("ScatterUpdate", v)
    d, i, u, a = axis_scatter_inputs(ctx, data, indices, updates, axis)
    policy = Policy(bounds=Bounds.RAISE, negative=Negative.RAISE, duplicates=parse_enum(Duplicates, duplicates))
    return Lowering("scatter", d, i, IndexSpec(axis=a), policy, ctx, updates=u)
