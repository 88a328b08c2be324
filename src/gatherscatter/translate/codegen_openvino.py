"""OpenVINO code for a translation: a script that builds an ``ov.Model`` from ``openvino.opset15`` calls.

The model's Parameters take the ranks and element types of an example call
(dims are dynamic, except the last dim of integer inputs: index tuples need a
static length); a source argument given as a tuple of arrays becomes one
Parameter per array, and a shape argument (a tuple of ints) a 1-D int64
Parameter. Every step is one opset call or a small helper written in opset
calls (shape arithmetic with ``ShapeOf``/``Gather``/``Concat``, coordinates
with ``Range``/``Broadcast``), defined in the script. The script compiles the model for the CPU and defines
``translated(<source inputs>)`` which runs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import UnsupportedError
from .adapters import OvVocab
from .codegen import SHARED_HELPERS, CodeTarget, adapter_emitters, compile_function, function_code
from .codegen_python import op_calls
from .onnx_export import default_example, nd_index_inputs

if TYPE_CHECKING:
    from . import Translation

__all__ = ["build", "script"]

T = "openvino"

HEADER = "import functools\nimport math\n\nimport numpy as np\nimport openvino as ov\nimport openvino.opset15 as ops"

_BASE = {
    "_rank": '''def _rank(x):
    """The static rank of a node's output."""
    return x.get_output_partial_shape(0).rank.get_length()
''',
    "_dtype": '''def _dtype(x):
    """The NumPy dtype of a node's output element type."""
    return np.dtype(x.get_output_element_type(0).to_dtype())
''',
    "_c": '''def _c(value, like):
    """A constant of ``like``'s element type (a NumPy dtype or a node)."""
    dt = like if isinstance(like, np.dtype) else _dtype(like)
    return ops.constant(np.asarray(value).astype(dt))
''',
    "_i64": '''def _i64(values):
    """An int64 constant (a list or a number)."""
    return ops.constant(np.asarray(values, dtype=np.int64))
''',
    "_shape": '''def _shape(x, lo=None, hi=None):
    """``x.shape[lo:hi]`` as a 1-D int64 node."""
    s = ops.shape_of(x, "i64")
    if lo is None and hi is None:
        return s
    r = _rank(x)
    lo = 0 if lo is None else (lo % r if lo < 0 else lo)
    hi = r if hi is None else (hi % r if hi < 0 else min(hi, r))
    if hi <= lo:
        return _i64(np.zeros(0, np.int64))
    return ops.slice(s, _i64([lo]), _i64([hi]), _i64([1]))
''',
    "_concat": '''def _concat(parts):
    """Concatenate 1-D int64 shape nodes (``None`` parts skipped; nothing left: an empty shape)."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return _i64(np.zeros(0, np.int64))
    return parts[0] if len(parts) == 1 else ops.concat(parts, 0)
''',
    "_sizes": '''def _sizes(data, i, axis=None, batch_dims=0):
    """The addressed axis size(s) in ``i``'s element type: 0-d for ``axis``, ``data.shape[b:b+k]`` for tuples."""
    if axis is not None:
        return ops.convert(ops.gather(ops.shape_of(data, "i64"), _i64(axis % _rank(data)), _i64(0)), _dtype(i))
    k = i.get_output_partial_shape(0)[-1].get_length()
    return ops.convert(_shape(data, batch_dims, batch_dims + k), _dtype(i))
''',
    "_iota": '''def _iota(shape, d, rank):
    """The int64 index grid of dim ``d`` over a runtime shape (1-D node) of static rank."""
    n = ops.gather(shape, _i64(d), _i64(0))
    line = ops.reshape(ops.range(_i64(0), n, _i64(1), "i64"), _i64([1] * d + [-1] + [1] * (rank - d - 1)), False)
    return ops.broadcast(line, shape)
''',
    "_sum": '''def _sum(seq):
    """The sum of the nodes of ``seq`` (broadcast)."""
    return functools.reduce(ops.add, seq)
''',
    "_minmax": '''def _minmax(op, x, y):
    """ops.maximum/ops.minimum, with NaN propagated (Maximum/Minimum drop it)."""
    out = op(x, y)
    if _dtype(x).kind == "f":
        out = ops.select(ops.logical_or(ops.is_nan(x), ops.is_nan(y)), ops.add(x, y), out)
    return out
''',
    "_strides": '''def _strides(data, k):
    """Row-major strides of ``data.shape[:k]`` (1-D int64)."""
    return _concat([ops.reduce_prod(_shape(data, d + 1, k), _i64([0]), True) if d + 1 < k else _i64([1])
                    for d in range(k)])
''',
    "_align": '''def _align(mask, y, lead):
    """``mask`` with size-1 dims added so its dims sit at dim ``lead`` of ``y``."""
    axes = list(range(lead)) + list(range(lead + _rank(mask), _rank(y)))
    return ops.unsqueeze(mask, _i64(axes)) if axes else mask
''',
    "_moveaxis": '''def _moveaxis(x, source, destination):
    """np.moveaxis as a Transpose (static rank): the axis order np.moveaxis gives a shape (1, 2, ..., rank)."""
    order = np.moveaxis(np.broadcast_to(0, range(1, _rank(x) + 1)), source, destination).shape
    return ops.transpose(x, _i64([n - 1 for n in order]))
''',
    "_broadcast_off_axis": '''def _broadcast_off_axis(x, other, axis):
    """Broadcast ``x`` against ``other`` on every dim but ``axis`` (equal ranks), keeping ``x``'s axis size."""
    a = axis % _rank(x)
    shape = _concat([_shape(other, 0, a), _shape(x, a, a + 1), _shape(other, a + 1)])
    return ops.broadcast(x, shape, broadcast_spec="BIDIRECTIONAL")
''',
    "_div": '''def _div(total, safe, rounding):
    """``total / safe`` in ``total``'s dtype (integers: floor or trunc, ``safe`` non-zero)."""
    q = ops.divide(total, safe)
    if _dtype(total).kind in "iu":
        # integer Divide rounds one way or the other: fix it up from the remainder
        rest = ops.subtract(total, ops.multiply(q, safe))
        inexact = ops.not_equal(rest, _c(0, rest))
        neg_rest = ops.less(rest, _c(0, rest))
        other = ops.less(safe if rounding == "floor" else total, _c(0, total))
        fix = ops.logical_and(inexact, ops.logical_xor(neg_rest, other))
        step = _c(-1 if rounding == "floor" else 1, q)
        q = ops.select(fix, ops.add(q, step), q)
    return q
''',
}


#: the OpenVINO code target: opset calls (and helpers written in them) building an ov.Model
TARGET = CodeTarget(T, HEADER, "ops", {**SHARED_HELPERS, **_BASE}, adapter_emitters(OvVocab()), op_calls(T))
ADAPTER_EMIT = TARGET.adapters


# ------------------------------------------------------------------------------------------------- scripts


def script(t: Translation, example: dict[str, Any] | None = None) -> str:
    """Python source that builds ``t`` as an ``ov.Model`` for ``example``'s ranks and dtypes, compiles it for
    the CPU and defines ``translated(<source inputs>)`` (default example: the first in-range generated case)."""
    if t.target != T:
        raise UnsupportedError(f"openvino codegen: the translation targets {t.target}, not openvino")
    example = default_example(t) if example is None else example
    nd = nd_index_inputs(t)
    params: list[str] = []  # the statements binding the inputs
    plist: list[str] = []  # the Parameters
    feed: list[str] = []  # the arrays passed to the compiled model

    def parameter(name: str, dims: list[int], dtype: Any, value: str) -> None:
        params.append(f"{name} = ops.parameter({dims}, np.{np.dtype(dtype).name}, name='{name}')")
        plist.append(name)
        feed.append(value)

    for name in t.source.inputs:
        v = example[name]
        if isinstance(v, (tuple, list)) and all(isinstance(x, (int, np.integer)) for x in v):  # a shape
            parameter(name, [len(v)], np.int64, f"np.asarray({name}, dtype=np.int64)")
        elif isinstance(v, (tuple, list)):  # a tuple of index arrays: one Parameter each
            for j, x in enumerate(v):
                parameter(f"{name}_{j}", [-1] * np.ndim(x), np.asarray(x).dtype, f"np.asarray({name}[{j}])")
            params.append(f"{name} = ({', '.join(f'{name}_{j}' for j in range(len(v)))}{',' if len(v) == 1 else ''})")
        else:
            arr = np.asarray(v)
            dims = [-1] * arr.ndim
            if (name in nd or arr.dtype.kind in "iu") and arr.ndim:
                # index tuples need a static length (MXNet-style sources keep them on the first axis)
                at = 0 if name in nd and t.source.layout.get("index_axis") == 0 else -1
                dims[at] = int(arr.shape[at])
            parameter(name, dims, arr.dtype, f"np.asarray({name})")
    attrs = ", ".join(f"{k}={v!r}" for k, v in t.source.attrs.items())
    model = function_code(TARGET, [], t.steps, t.program.output, f"{t.source.op}({attrs}) in OpenVINO opset15, "
                          "generated by gatherscatter.translate.", "build_model", params,
                          f"return ov.Model([{t.program.output}], [{', '.join(plist)}], 'translated')")
    return model + "\n\ncompiled = ov.compile_model(build_model(), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})\n\n\n" \
        f"def translated({', '.join(t.source.inputs)}):\n" \
        '    """Run the compiled model on the source op\'s arguments."""\n' \
        f"    return compiled([{', '.join(feed)}])[0]\n"


def build(t: Translation, example: dict[str, Any]) -> Any:
    """Execute :func:`script` for ``example`` and return its ``translated`` function (needs ``openvino``)."""
    return compile_function(script(t, example))


generate = script  # the OpenVINO code of a translation (for the default example)
