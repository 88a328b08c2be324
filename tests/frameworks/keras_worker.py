"""Run keras.ops calls under one KERAS_BACKEND (set by the parent before this process starts).

Reads a pickled list of (op, args, kwargs) from stdin; writes a pickled list of results (a NumPy array, or
the string 'error: <type>') to stdout. Never imported by pytest itself.
"""

from __future__ import annotations

import pickle
import sys
import warnings


def main() -> None:
    warnings.filterwarnings("ignore")
    import keras  # noqa: F401  (KERAS_BACKEND is read here)
    from keras import ops

    cases = pickle.load(sys.stdin.buffer)
    out = []
    for op, args, kwargs in cases:
        try:
            out.append(ops.convert_to_numpy(getattr(ops, op)(*args, **kwargs)))
        except Exception as exc:
            out.append(f"error: {type(exc).__name__}")
    sys.stdout.flush()
    pickle.dump(out, sys.stdout.buffer)


if __name__ == "__main__":
    main()
