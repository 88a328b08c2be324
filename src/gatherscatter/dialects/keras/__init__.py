"""Keras 3 ``keras.ops`` gather/scatter ops, with ``backend='jax' | 'tensorflow' | 'torch' | 'numpy'``.

``keras.ops`` gives different answers depending on ``KERAS_BACKEND``: how negative and
out-of-range indices behave, dtypes (the JAX backend runs 32-bit), empty segments. Each
op here takes ``backend=`` (default ``'tensorflow'``, Keras' default) and reproduces that
backend, as measured with Keras 3.15.1 on CPU, Python-list arguments included: each backend's
``convert_to_tensor`` makes Python ints int32 and floats float32 (``PYTHON_RULES`` in
``_backend.py``), where NumPy would make them 64-bit.

>>> import gatherscatter as gs
>>> gs.keras.take([10.0, 20.0, 30.0], [5], backend="jax").tolist()
[nan]
"""

from ._backend import BACKENDS, KERAS_VERSION
from .scatter import scatter
from .scatter_update import scatter_update
from .segment import segment_max, segment_sum
from .take import take
from .take_along_axis import take_along_axis

__all__ = [
    "BACKENDS", "KERAS_VERSION", "scatter", "scatter_update", "segment_max", "segment_sum", "take", "take_along_axis",
]
