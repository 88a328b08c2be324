"""TensorFlow ``tf.tensor_scatter_nd_max`` (op ``TensorScatterMax``), TF 2.21."""

from __future__ import annotations

from typing import Any

from .._record import Description
from .._registry import Lowering, dialect_op, divergence
from ._describe import _tensor_scatter
from ._scatter import lower_tensor_scatter
from ._tf import DATA_REAL, INDEX_I32_I64, TF_VERSION

_DATA_XLA = DATA_REAL | frozenset({"bool"})
_XLA_REJECTS = {
    "complex64": "XLA runs it, but with an ordering of complex numbers TensorFlow does not document",
    "complex128": "XLA runs it, but with an ordering of complex numbers TensorFlow does not document",
}

divergence(
    op="tensorflow.tensor_scatter_nd_max",
    case="negative or out-of-range index tuple",
    reference="TF 2.21 CPU / GPU / XLA",
    theirs="bad_indices_policy ''/'DEFAULT': CPU raises, GPU drops the update; 'ERROR': CPU raises (GPU "
    "unsupported); 'IGNORE': drops everywhere; XLA always drops",
    ours="the same, selected by device= and bad_indices_policy=",
    evidence="behavior-matrix §5 surprise 3 and 6.5; tf.raw_ops.TensorScatterMax docstring",
    kind="device",
)
divergence(
    op="tensorflow.tensor_scatter_nd_max",
    case="NaN values and signed zeros",
    reference="TF 2.21 CPU and XLA",
    theirs="C++ '(old < upd) ? upd : old' style: a NaN update leaves the value unchanged, a NaN value stays "
    "NaN; between +0.0 and -0.0 the earlier one is kept",
    ours="NaN reproduced (a NaN update is replaced by the reduction's neutral element before the core's "
    "np.maximum); the sign of a zero may differ (the values compare equal)",
    evidence="observed, TF 2.21: tensor_scatter_nd_max([1, nan, 3], [[0],[1],[2]], [nan, 5, 1]) = [1, nan, 3]",
    kind="choice",
)
divergence(
    op="tensorflow.tensor_scatter_nd_max",
    case="complex data under XLA",
    reference="TF 2.21 XLA CPU",
    theirs="runs (eager CPU has no complex kernel), ordering undocumented",
    ours="UnsupportedError",
    evidence="observed, TF 2.21",
    kind="undefined",
)

divergence(
    op="tensorflow.tensor_scatter_nd_max",
    case="device='xla', k = 0 (empty index tuples) and an output of exactly one element",
    reference="TF 2.21 XLA CPU",
    theirs="only the LAST update is applied "
    "(tensor_scatter_nd_max([0], zeros((3, 0)), [[5], [9], [7]]) gives [7], not [9])"
    "; with more output elements, or k >= 1, every update is",
    ours="every update is applied, as the op is documented (and as XLA does for larger outputs)",
    evidence="observed with tf.function(jit_compile=True), TF 2.21",
    kind="undefined",
)


def _describe(device: str = "cpu", bad_indices_policy: str = "") -> Description:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_max", "max", device, bad_indices_policy)


@dialect_op(
    "tensorflow",
    "tensor_scatter_nd_max",
    family="scatter_nd",
    kind="scatter",
    versions=(TF_VERSION,),
    differentiable=("tensor", "updates"),
    describe=_describe,
)
def tensor_scatter_nd_max(
    tensor: Any, indices: Any, updates: Any, device: str = "cpu", *, bad_indices_policy: str = ""
) -> Lowering:
    """TensorFlow ``tf.tensor_scatter_nd_max``: keep the maximum of ``tensor`` and the ``updates``.

    Provenance: ``tf.tensor_scatter_nd_max(tensor, indices, updates,
    bad_indices_policy='', name=None)`` (op ``TensorScatterMax``), TensorFlow
    2.21, eager CPU and XLA CPU observed. Returns a new array.

    Index tuples lie on the last axis of ``indices`` (at least 2 axes on
    CPU/GPU, ``k = indices.shape[-1] <= rank(tensor)``);
    ``updates.shape == indices.shape[:-1] + tensor.shape[k:]``. Indices are
    int32 or int64. Real numeric data (booleans only under XLA, where max is OR;
    no complex, no strings). Duplicates are all reduced (ACCUM).
    Bad tuples: ``bad_indices_policy`` ``''``/``'DEFAULT'`` raise on CPU and
    drop on GPU, ``'ERROR'`` raises (CPU only), ``'IGNORE'`` drops everywhere;
    ``device='xla'`` always drops.

    Equivalent loop::

        Y = copy(tensor)
        for i in ndindex(indices.shape[:-1]):                 # row-major order
            t = tuple(indices[i])
            Y[t] = max(Y[t], updates[i])      # a NaN update changes nothing

    Differs from ONNX ``ScatterND(reduction='max')`` (NumPy-style NaN propagation, negative
    indices wrap).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_max([5, 5, 5, 5], [[0], [0], [2]], [2, 4, 7]).tolist()
    [5, 5, 7, 5]
    """
    return lower_tensor_scatter(
        "tensor_scatter_nd_max",
        "max",
        tensor,
        indices,
        updates,
        device,
        bad_indices_policy,
        data=DATA_REAL,
        data_xla=_DATA_XLA,
        index=INDEX_I32_I64,
        index_xla=INDEX_I32_I64,
        xla_rejects=_XLA_REJECTS,
    )
