"""TensorFlow ``tf.tensor_scatter_nd_update/add/sub/max/min`` (ops ``TensorScatter*``), TF 2.21.

The five ops differ only by their combiner, the dtypes they accept (eager and
XLA) and a few divergences: each is one row of :data:`_VARIANTS`, registered
by :func:`_register` with its own docstring. The shared lowering is
:func:`~gatherscatter.dialects.tensorflow._scatter.lower_tensor_scatter`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from .._record import Description
from .._registry import DialectOp, Lowering, divergence, divergence_table
from ._common import DATA_ALL, DATA_NUMERIC, DATA_REAL, DEVICES, INDEX_I32_I64, POLICIES, tf_op
from ._describe import _tensor_scatter
from ._scatter import lower_tensor_scatter

__all__ = [
    "tensor_scatter_nd_add",
    "tensor_scatter_nd_max",
    "tensor_scatter_nd_min",
    "tensor_scatter_nd_sub",
    "tensor_scatter_nd_update",
]

_BOOL = frozenset({"bool"})
_COMPLEX_XLA = {
    "complex64": "XLA runs it, but with an ordering of complex numbers TensorFlow does not document",
    "complex128": "XLA runs it, but with an ordering of complex numbers TensorFlow does not document",
}



def _cve_seeds() -> list[tuple[str, dict[str, Any], str]]:
    """Known crash inputs of the TensorFlow op (CVEs): every one must be an error here (the fuzzer's seeds)."""
    f32 = np.float32
    return [
        ("CVE-2022-35939 out-of-range write",
         {"tensor": np.zeros(3, f32), "indices": np.array([[3]], np.int64), "updates": np.ones(1, f32)}, "error"),
        ("CVE-2021-37687 negative index",
         {"tensor": np.zeros(3, f32), "indices": np.array([[-1]], np.int64), "updates": np.ones(1, f32)}, "error"),
        ("CVE-2021-37655 prefix mismatch",
         {"tensor": np.zeros((4, 2), f32), "indices": np.zeros((3, 1), np.int64),
          "updates": np.ones((2, 2), f32)}, "error"),
        ("-2**63",
         {"tensor": np.zeros(3, f32), "indices": np.array([[-(2**63)]], np.int64), "updates": np.ones(1, f32)},
         "error"),
    ]


class _Variant(NamedTuple):
    """One ``tf.tensor_scatter_nd_<name>``: the combiner, the data dtypes (eager, XLA), the XLA index dtypes,
    what XLA refuses, the observed XLA k=0 example (None: no such divergence) and the op's docstring."""

    name: str
    reduction: str
    data: frozenset[str]
    data_xla: frozenset[str]
    index_xla: frozenset[str]
    xla_rejects: Mapping[str, str]
    xla_k0: str | None
    doc: str


#: the docstring the four reducing variants share (their summary, data rule, loop line and tail come from the row)
_REDUCING_DOC = """TensorFlow ``tf.tensor_scatter_nd_{name}``: {summary}

    Provenance: ``tf.tensor_scatter_nd_{name}(tensor, indices, updates,
    bad_indices_policy='', name=None)`` (op ``TensorScatter{op}``), TensorFlow
    2.21, eager CPU and XLA CPU observed. Returns a new array.

    Index tuples lie on the last axis of ``indices`` (at least 2 axes on
    CPU/GPU, ``k = indices.shape[-1] <= rank(tensor)``);
    ``updates.shape == indices.shape[:-1] + tensor.shape[k:]``. Indices are
    int32 or int64. {data}
    Duplicates are all {dup} (ACCUM).
    Bad tuples: ``bad_indices_policy`` ``''``/``'DEFAULT'`` raise on CPU and
    drop on GPU, ``'ERROR'`` raises (CPU only), ``'IGNORE'`` drops everywhere;
    ``device='xla'`` always drops.

    Equivalent loop::

        Y = copy(tensor)
        for i in ndindex(indices.shape[:-1]):                 # row-major order
            t = tuple(indices[i])
            {loop}
{tail}"""


def _reducing_doc(name: str, summary: str, data: str, dup: str, loop: str, tail: str) -> str:
    """The docstring of ``tf.tensor_scatter_nd_<name>`` from :data:`_REDUCING_DOC`."""
    return _REDUCING_DOC.format(name=name, op=name.capitalize(), summary=summary, data=data, dup=dup, loop=loop,
                                tail=tail)


def _divergences(v: _Variant) -> None:
    """The divergences every reducing variant shares (in the order the compatibility page lists them)."""
    op = f"tensorflow.tensor_scatter_nd_{v.name}"
    divergence(
        op=op,
        case="negative or out-of-range index tuple",
        when=("negative", "out_of_range"),
        reference="TF 2.21 CPU / GPU / XLA",
        theirs="bad_indices_policy ''/'DEFAULT': CPU raises, GPU drops the update; 'ERROR': CPU raises (GPU "
        "unsupported); 'IGNORE': drops everywhere; XLA always drops",
        ours="the same, selected by device= and bad_indices_policy=",
        evidence=f"docs/behavior-matrix.md#surprise-3 and docs/behavior-matrix.md#t6-5; "
                 f"tf.raw_ops.TensorScatter{v.name.capitalize()} docstring",
        kind="device",
        example={"call": f"tensorflow.tensor_scatter_nd_{v.name}", "args": {"tensor": [1, 2], "indices": [[2], [-1]],
                 "updates": [5, 6]}, "kwargs": {"bad_indices_policy": "IGNORE"},
                 "dtypes": {"tensor": "int32", "indices": "int32", "updates": "int32"},
                 "theirs": {"equals": [1, 2]}, "ours": "same"},
    )
    if v.reduction in ("max", "min"):
        word = "maximum" if v.reduction == "max" else "minimum"
        kept = "[1, nan, 3]" if v.reduction == "max" else "[1, nan, 1]"
        divergence(
            op=op,
            case="NaN values and signed zeros",
            when=("nonfinite",),
            reference="TF 2.21 CPU and XLA",
            theirs="C++ '(old < upd) ? upd : old' style: a NaN update leaves the value unchanged, a NaN value stays "
            "NaN; between +0.0 and -0.0 the earlier one is kept",
            ours="NaN reproduced (a NaN update is replaced by the reduction's neutral element before the core's "
            f"np.{word}); the sign of a zero may differ (the values compare equal)",
            evidence=f"observed, TF 2.21: {op[11:]}([1, nan, 3], [[0],[1],[2]], [nan, 5, 1]) = {kept}",
            kind="choice",
            example={"call": op,
                     "args": {"tensor": [1, "nan", 3], "indices": [[0], [1], [2]], "updates": ["nan", 5, 1]},
                     "dtypes": {"tensor": "float32", "indices": "int32", "updates": "float32"},
                     "theirs": {"equals": [1, "nan", 3 if v.reduction == "max" else 1]}, "ours": "same"},
        )
        divergence_table(op, r'''
[[divergence]]
case = "complex data under XLA"
when = "dtype"
reference = "TF 2.21 XLA CPU"
theirs = "runs (eager CPU has no complex kernel), ordering undocumented"
ours = "UnsupportedError"
evidence = "observed, TF 2.21"
kind = "undefined"
''', example={"call": f"tensorflow.tensor_scatter_nd_{v.name}", "device": "xla",
                     "args": {"tensor": [[1, 2], [0, 0]], "indices": [[0]], "updates": [[2, 0]]},
                     "dtypes": {"tensor": "complex64", "indices": "int32", "updates": "complex64"},
                     "theirs": {"dtype": "complex64"}, "ours": {"raises": "UnsupportedError"}})
    divergence(
        op=op,
        case="device='xla', k = 0 (empty index tuples) and an output of exactly one element",
        when=("device", "empty"),
        reference="TF 2.21 XLA CPU",
        theirs=f"only the LAST update is applied ({v.xla_k0}); with more output elements, or k >= 1, every update is",
        ours="every update is applied, as the op is documented (and as XLA does for larger outputs)",
        evidence="observed with tf.function(jit_compile=True), TF 2.21",
        kind="undefined",
        example={"call": f"tensorflow.tensor_scatter_nd_{v.name}", "device": "xla",
                 "args": {"tensor": [{"add": 100, "sub": 100, "max": 0, "min": 9}[v.name]], "indices": [[], [], []],
                          "updates": [[5], [9], [7]] if v.name == "max" else [[5], [6], [7]]},
                 "dtypes": {"tensor": "int32", "indices": "int32", "updates": "int32"},
                 "theirs": {"equals": [{"add": 107, "sub": 93, "max": 7, "min": 7}[v.name]]},
                 "ours": {"equals": [{"add": 118, "sub": 82, "max": 9, "min": 5}[v.name]]}},
    )


def _register(v: _Variant) -> DialectOp:
    """Register ``tensorflow.tensor_scatter_nd_<name>`` from its table row."""
    name = f"tensor_scatter_nd_{v.name}"
    qualname = f"tensorflow.{name}"
    rejects = dict(v.xla_rejects) or None
    lower: Any
    if v.reduction == "none":

        def describe(device: str = "cpu") -> Description:
            return _tensor_scatter(qualname, v.reduction, device, None)

        def lower(tensor: Any, indices: Any, updates: Any, device: str = "cpu") -> Lowering:
            return lower_tensor_scatter(name, v.reduction, tensor, indices, updates, device, "", data=v.data,
                                        data_xla=v.data_xla, index=INDEX_I32_I64, index_xla=v.index_xla)

    else:
        _divergences(v)

        def describe(device: str = "cpu", bad_indices_policy: str = "") -> Description:  # type: ignore[misc]
            return _tensor_scatter(qualname, v.reduction, device, bad_indices_policy)

        def lower(
            tensor: Any, indices: Any, updates: Any, device: str = "cpu", *, bad_indices_policy: str = ""
        ) -> Lowering:
            return lower_tensor_scatter(name, v.reduction, tensor, indices, updates, device, bad_indices_policy,
                                        data=v.data, data_xla=v.data_xla, index=INDEX_I32_I64,
                                        index_xla=v.index_xla, xla_rejects=rejects)

    lower.__name__ = lower.__qualname__ = name
    lower.__doc__ = v.doc
    return tf_op(name, family="scatter_nd", kind="scatter", differentiable=("tensor", "updates"), describe=describe,
                 fuzz={"seeds": _cve_seeds}, values={"device": DEVICES, "bad_indices_policy": POLICIES})(lower)


def _extremum(r: str, xla_k0: str, example: str) -> _Variant:
    """The ``max``/``min`` row: the two differ only in their words, XLA's boolean combiner and the examples."""
    word, logic = ("maximum", "OR") if r == "max" else ("minimum", "AND")
    return _Variant(r, r, DATA_REAL, DATA_REAL | _BOOL, INDEX_I32_I64, _COMPLEX_XLA, xla_k0, _reducing_doc(
        r,
        f"keep the {word} of ``tensor`` and the ``updates``.",
        f"Real numeric data (booleans only under XLA, where {r} is {logic}; no complex, no strings).",
        "reduced",
        f"Y[t] = {r}(Y[t], updates[i])      # a NaN update changes nothing",
        f"""
    Differs from ONNX ``ScatterND(reduction='{r}')`` (NumPy-style NaN propagation, negative
    indices wrap).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_{r}([5, 5, 5, 5], [[0], [0], [2]], [2, 4, 7]).tolist()
    {example}
    """,
    ))


_VARIANTS = [
    _Variant(
        "add",
        "add",
        DATA_NUMERIC,
        DATA_NUMERIC | _BOOL,
        INDEX_I32_I64,
        {},
        'tensor_scatter_nd_add([100], zeros((3, 0)), [[5], [6], [7]]) gives [107], not [118]',
        _reducing_doc(
            "add",
            'add ``updates`` into a copy of ``tensor``.',
            'Numeric data (booleans only under XLA, where add is OR; no strings).',
            "added",
            'Y[t] += updates[i]',
            """
    Differs from ``tf.scatter_nd`` (starts from zeros) and ONNX ``ScatterND(reduction='add')``
    (negative indices wrap there).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_add([1, 1, 1, 1, 1, 1, 1, 1], [[4], [3], [1], [7]], [9, 10, 11, 12]).tolist()
    [1, 12, 1, 11, 10, 1, 1, 13]
    >>> gs.tensorflow.tensor_scatter_nd_add([1, 1, 1, 1], [[1], [1], [2]], [10, 20, 30]).tolist()
    [1, 31, 31, 1]
    """,
        ),
    ),
    _extremum("max", 'tensor_scatter_nd_max([0], zeros((3, 0)), [[5], [9], [7]]) gives [7], not [9]', "[5, 5, 7, 5]"),
    _extremum("min", 'tensor_scatter_nd_min([9], zeros((3, 0)), [[5], [6], [7]]) gives [7], not [5]', "[2, 5, 5, 5]"),
    _Variant(
        "sub",
        "sub",
        DATA_NUMERIC,
        DATA_NUMERIC,
        INDEX_I32_I64,
        {"bool": "tensor_scatter_nd_sub on bool crashes TF 2.21's XLA compiler (segfault)"},
        'tensor_scatter_nd_sub([100], zeros((3, 0)), [[5], [6], [7]]) gives [93], not [82]',
        _reducing_doc(
            "sub",
            'subtract ``updates`` from a copy of ``tensor``.',
            "Numeric data (no booleans: bool crashes TF's XLA compiler with a segfault; no strings).",
            "subtracted",
            'Y[t] -= updates[i]',
            """
    Differs from ONNX ``ScatterND``, which has no ``sub`` (OpenVINO ScatterNDUpdate-15 has one).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_sub([5, 5, 5], [[0], [0]], [2, 3]).tolist()
    [0, 5, 5]
    """,
        ),
    ),
    _Variant(
        "update",
        "none",
        DATA_ALL,
        DATA_ALL,
        INDEX_I32_I64 | frozenset({"int16", "uint16"}),
        {},
        None,
        """TensorFlow ``tf.tensor_scatter_nd_update``: write slices into a copy of ``tensor``.

    Provenance: ``tf.tensor_scatter_nd_update(tensor, indices, updates,
    name=None)`` (op ``TensorScatterUpdate``), TensorFlow 2.21, eager CPU and
    XLA CPU observed. Returns a new array.

    Index tuples lie on the last axis of ``indices`` (at least 2 axes on
    CPU/GPU, ``k = indices.shape[-1] <= rank(tensor)``);
    ``updates.shape == indices.shape[:-1] + tensor.shape[k:]``. Indices are
    int32/int64 (XLA also int16/uint16). Any data dtype, strings included
    (not under XLA). Duplicates: the last update in row-major order wins (CPU
    and XLA observed; GPU order is nondeterministic). Bad tuples raise on CPU
    and are dropped on GPU and XLA.

    Equivalent loop::

        Y = copy(tensor)
        for i in ndindex(indices.shape[:-1]):                 # row-major order
            Y[tuple(indices[i])] = updates[i]

    Differs from ``tf.scatter_nd`` (zeros start, duplicates summed) and from
    ONNX ``ScatterND`` (negative indices wrap there).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_update([0, 0, 0, 0, 0, 0, 0, 0], [[1], [3], [4], [7]], [9, 10, 11, 12]).tolist()
    [0, 9, 0, 10, 11, 0, 0, 12]
    >>> gs.tensorflow.tensor_scatter_nd_update([1, 2, 3], [[0], [5]], [7, 8], device="xla").tolist()
    [7, 2, 3]
    """,
    ),
]

tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min, tensor_scatter_nd_sub, tensor_scatter_nd_update = (
    _register(v) for v in _VARIANTS
)


divergence_table("tensorflow.tensor_scatter_nd_update", r'''
[[divergence]]
case = "duplicate index tuples"
when = "duplicates"
reference = "TF 2.21 GPU kernel / TF api_def text"
theirs = """
GPU: the order of updates is nondeterministic (docstring warning); CPU and XLA: the last update wins (observed). \
docs/semantics.md#s6-2 quotes an api_def sentence saying duplicates are summed; the TF 2.21 raw_ops docstring says \
'we pick the last update'"""
ours = "the last update in row-major order wins on every device (duplicates='last')"
evidence = """
docs/behavior-matrix.md#t6-5 and docs/behavior-matrix.md#t6-9 (20/20 last-wins); docs/semantics.md#s6-2 erratum, \
docs/semantics.md#pitfall-5"""
kind = "undefined"
[divergence.example]
call = "tensorflow.tensor_scatter_nd_update"
args = { tensor = [0, 0], indices = [[0], [0]], updates = [1, 2] }
dtypes = { tensor = "int32", indices = "int32", updates = "int32" }
theirs = { equals = [2, 0] }
ours = "same"

[[divergence]]
case = "negative or out-of-range index tuple"
when = "negative out_of_range"
reference = "TF 2.21 CPU / GPU / XLA"
theirs = """
CPU raises ('indices[0] = [3] does not index into shape [3]'); GPU ignores the update (docstring); XLA drops it \
(observed)"""
ours = "device='cpu' raises IndexOutOfRangeError; 'gpu' and 'xla' drop the update"
evidence = """
docs/behavior-matrix.md#surprise-3 and docs/behavior-matrix.md#t6-5; tf.tensor_scatter_nd_update docstring"""
kind = "device"
[divergence.example]
call = "tensorflow.tensor_scatter_nd_update"
device = "xla"
args = { tensor = [1, 2], indices = [[2], [-1]], updates = [5, 6] }
dtypes = { tensor = "int32", indices = "int32", updates = "int32" }
theirs = { equals = [1, 2] }
ours = "same"

[[divergence]]
case = "int16 / uint16 indices"
when = "dtype"
reference = "TF 2.21 op registry vs kernels"
theirs = """
the op signature lists int16, int32, int64, uint16, but eager CPU has kernels for int32/int64 only ('Could not \
find device for node'); XLA accepts all four"""
ours = "device='cpu'/'gpu': int32, int64; device='xla': int16, int32, int64, uint16"
evidence = "docs/behavior-matrix.md#t6-5 index dtypes; observed TF 2.21"
kind = "device"
[divergence.example]
call = "tensorflow.tensor_scatter_nd_update"
device = "xla"
args = { tensor = [1, 2], indices = [[1]], updates = [5] }
dtypes = { tensor = "int32", indices = "int16", updates = "int32" }
theirs = { equals = [1, 5] }
ours = "same"

[[divergence]]
case = "NumPy updates whose dtype differs from the tensor's (also _add, _sub, _min, _max)"
when = "dtype"
reference = "TF 2.21 Python wrapper"
theirs = "a NumPy array is converted to the tensor's dtype silently (a tf.Tensor of another dtype is an error)"
ours = """
DTypeError for an array of another dtype (as for a tf.Tensor); Python lists and scalars take the tensor's dtype"""
evidence = "observed, TF 2.21: float32 NumPy updates into a float64 tensor run"
kind = "choice"
[divergence.example]
call = "tensorflow.tensor_scatter_nd_update"
args = { tensor = [1, 2], indices = [[1]], updates = [5] }
dtypes = { tensor = "float64", indices = "int32", updates = "ndarray:float32" }
theirs = { equals = [1, 5] }
ours = { raises = "DTypeError" }
''')



