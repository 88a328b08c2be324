"""TensorFlow ``tf.tensor_scatter_nd_update`` (op ``TensorScatterUpdate``), TF 2.21."""

from __future__ import annotations

from typing import Any

from .._record import Description
from .._registry import Lowering, dialect_op, divergence
from ._describe import _tensor_scatter
from ._scatter import lower_tensor_scatter
from ._tf import DATA_ALL, INDEX_I32_I64, TF_VERSION

_INDEX_XLA = INDEX_I32_I64 | frozenset({"int16", "uint16"})

divergence(
    op="tensorflow.tensor_scatter_nd_update",
    case="duplicate index tuples",
    reference="TF 2.21 GPU kernel / TF api_def text",
    theirs="GPU: the order of updates is nondeterministic (docstring warning); CPU and XLA: the last update "
    "wins (observed). semantics.md §6.2 quotes an api_def sentence saying duplicates are summed; the "
    "TF 2.21 raw_ops docstring says 'we pick the last update'",
    ours="the last update in row-major order wins on every device (duplicates='last')",
    evidence="behavior-matrix 6.5 and 6.9 (20/20 last-wins); semantics.md §6.2 erratum, §10.5",
    kind="undefined",
)
divergence(
    op="tensorflow.tensor_scatter_nd_update",
    case="negative or out-of-range index tuple",
    reference="TF 2.21 CPU / GPU / XLA",
    theirs="CPU raises ('indices[0] = [3] does not index into shape [3]'); GPU ignores the update "
    "(docstring); XLA drops it (observed)",
    ours="device='cpu' raises IndexOutOfRangeError; 'gpu' and 'xla' drop the update",
    evidence="behavior-matrix §5 surprise 3 and 6.5; tf.tensor_scatter_nd_update docstring",
    kind="device",
)
divergence(
    op="tensorflow.tensor_scatter_nd_update",
    case="int16 / uint16 indices",
    reference="TF 2.21 op registry vs kernels",
    theirs="the op signature lists int16, int32, int64, uint16, but eager CPU has kernels for int32/int64 only "
    "('Could not find device for node'); XLA accepts all four",
    ours="device='cpu'/'gpu': int32, int64; device='xla': int16, int32, int64, uint16",
    evidence="behavior-matrix 6.5 index dtypes; observed TF 2.21",
    kind="device",
)
divergence(
    op="tensorflow.tensor_scatter_nd_update",
    case="NumPy updates whose dtype differs from the tensor's (also _add, _sub, _min, _max)",
    reference="TF 2.21 Python wrapper",
    theirs="a NumPy array is converted to the tensor's dtype silently (a tf.Tensor of another dtype is an error)",
    ours="DTypeError for an array of another dtype (as for a tf.Tensor); Python lists and scalars take the "
    "tensor's dtype",
    evidence="observed, TF 2.21: float32 NumPy updates into a float64 tensor run",
    kind="choice",
)


def _describe(device: str = "cpu") -> Description:
    return _tensor_scatter("tensorflow.tensor_scatter_nd_update", "none", device, None)


@dialect_op(
    "tensorflow",
    "tensor_scatter_nd_update",
    family="scatter_nd",
    kind="scatter",
    versions=(TF_VERSION,),
    differentiable=("tensor", "updates"),
    describe=_describe,
)
def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, device: str = "cpu") -> Lowering:
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
    """
    return lower_tensor_scatter(
        "tensor_scatter_nd_update",
        "none",
        tensor,
        indices,
        updates,
        device,
        "",
        data=DATA_ALL,
        data_xla=DATA_ALL,
        index=INDEX_I32_I64,
        index_xla=_INDEX_XLA,
    )
