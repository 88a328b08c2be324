"""TensorFlow ``tf.tensor_scatter_nd_sub`` (op ``TensorScatterSub``), TF 2.21."""

from __future__ import annotations

from typing import Any

from .._record import Description
from .._registry import Lowering, dialect_op, divergence
from ._describe import _tensor_scatter
from ._scatter import lower_tensor_scatter
from ._tf import DATA_NUMERIC, INDEX_I32_I64, TF_VERSION

divergence(
    op="tensorflow.tensor_scatter_nd_sub",
    case="negative or out-of-range index tuple",
    reference="TF 2.21 CPU / GPU / XLA",
    theirs="bad_indices_policy ''/'DEFAULT': CPU raises, GPU drops the update; 'ERROR': CPU raises (GPU "
    "unsupported); 'IGNORE': drops everywhere; XLA always drops",
    ours="the same, selected by device= and bad_indices_policy=",
    evidence="behavior-matrix §5 surprise 3 and 6.5; tf.raw_ops.TensorScatterSub docstring",
    kind="device",
)

divergence(
    op="tensorflow.tensor_scatter_nd_sub",
    case="device='xla', k = 0 (empty index tuples) and an output of exactly one element",
    reference="TF 2.21 XLA CPU",
    theirs="only the LAST update is applied "
    "(tensor_scatter_nd_sub([100], zeros((3, 0)), [[5], [6], [7]]) gives [93], not [82])"
    "; with more output elements, or k >= 1, every update is",
    ours="every update is applied, as the op is documented (and as XLA does for larger outputs)",
    evidence="observed with tf.function(jit_compile=True), TF 2.21",
    kind="undefined",
)


def _describe(device: str = "cpu", bad_indices_policy: str = "") -> Description:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_sub", "sub", device, bad_indices_policy)


@dialect_op(
    "tensorflow",
    "tensor_scatter_nd_sub",
    family="scatter_nd",
    kind="scatter",
    versions=(TF_VERSION,),
    differentiable=("tensor", "updates"),
    describe=_describe,
)
def tensor_scatter_nd_sub(
    tensor: Any, indices: Any, updates: Any, device: str = "cpu", *, bad_indices_policy: str = ""
) -> Lowering:
    """TensorFlow ``tf.tensor_scatter_nd_sub``: subtract ``updates`` from a copy of ``tensor``.

    Provenance: ``tf.tensor_scatter_nd_sub(tensor, indices, updates,
    bad_indices_policy='', name=None)`` (op ``TensorScatterSub``), TensorFlow
    2.21, eager CPU and XLA CPU observed. Returns a new array.

    Index tuples lie on the last axis of ``indices`` (at least 2 axes on
    CPU/GPU, ``k = indices.shape[-1] <= rank(tensor)``);
    ``updates.shape == indices.shape[:-1] + tensor.shape[k:]``. Indices are
    int32 or int64. Numeric data (no booleans: bool crashes TF's XLA compiler
    with a segfault; no strings). Duplicates are all subtracted (ACCUM).
    Bad tuples: ``bad_indices_policy`` ``''``/``'DEFAULT'`` raise on CPU and
    drop on GPU, ``'ERROR'`` raises (CPU only), ``'IGNORE'`` drops everywhere;
    ``device='xla'`` always drops.

    Equivalent loop::

        Y = copy(tensor)
        for i in ndindex(indices.shape[:-1]):                 # row-major order
            t = tuple(indices[i])
            Y[t] -= updates[i]

    Differs from ONNX ``ScatterND``, which has no ``sub`` (OpenVINO ScatterNDUpdate-15 has one).

    >>> import gatherscatter as gs
    >>> gs.tensorflow.tensor_scatter_nd_sub([5, 5, 5], [[0], [0]], [2, 3]).tolist()
    [0, 5, 5]
    """
    return lower_tensor_scatter(
        "tensor_scatter_nd_sub",
        "sub",
        tensor,
        indices,
        updates,
        device,
        bad_indices_policy,
        data=DATA_NUMERIC,
        data_xla=DATA_NUMERIC,
        index=INDEX_I32_I64,
        index_xla=INDEX_I32_I64,
        xla_rejects={"bool": "tensor_scatter_nd_sub on bool crashes TF 2.21's XLA compiler (segfault)"},
    )
