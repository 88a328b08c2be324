"""Run generated Keras code for tests/translate/test_keras_mlx_targets.py under one KERAS_BACKEND.

The parent sets KERAS_BACKEND before this process starts (Keras reads it at import) and writes a pickled
list of ``(code, args)`` to stdin: ``code`` a module defining ``translated`` (or ``out`` for an adapter),
``args`` its keyword arguments (NumPy arrays, tuples of arrays, tuples of ints). Each array becomes
``keras.ops.convert_to_tensor(a)``. Writes a pickled list of results to stdout: the output as NumPy (a
tuple for a tuple), or the string ``'error: <type>: <message>'``. Never imported by pytest itself.
"""

from __future__ import annotations

import pickle
import sys
import warnings
from typing import Any


def main() -> None:
    warnings.filterwarnings("ignore")
    import keras  # (KERAS_BACKEND is read here)
    import numpy as np
    from keras import ops

    def to(v: Any) -> Any:
        if isinstance(v, (np.ndarray, np.generic)):  # the numpy backend's tensors are NumPy arrays (its
            # convert_to_tensor would make 64-bit arrays 32-bit)
            return np.asarray(v) if keras.backend.backend() == "numpy" else ops.convert_to_tensor(np.asarray(v))
        if isinstance(v, tuple) and v and all(isinstance(x, (np.ndarray, np.generic)) for x in v):
            return tuple(to(x) for x in v)
        return v

    def back(v: Any) -> Any:
        if isinstance(v, (tuple, list)):
            return tuple(back(x) for x in v)
        if isinstance(v, (int, float, bool)):
            return v
        return np.asarray(ops.convert_to_numpy(v))

    jobs = pickle.load(sys.stdin.buffer)
    functions: dict[tuple[str, str], Any] = {}
    out = []
    for n, (code, name, args) in enumerate(jobs):
        if n and n % 40 == 0 and keras.backend.backend() == "jax":  # bound the memory of JAX's compile caches
            import jax

            jax.clear_caches()
            functions.clear()
        try:
            if (code, name) not in functions:
                namespace: dict[str, Any] = {}
                exec(compile(code, "<generated>", "exec"), namespace)
                functions[(code, name)] = namespace[name]
            out.append(back(functions[(code, name)](**{k: to(v) for k, v in args.items()})))
        except Exception as exc:  # the framework's own error is a result
            lines = [line for line in str(exc).splitlines() if line.strip()]
            out.append(f"error: {type(exc).__name__}: {(lines[-1] if lines else '')[:300]}")
    sys.stdout.flush()
    pickle.dump(out, sys.stdout.buffer)


if __name__ == "__main__":
    main()
