"""Run keras.ops calls under one KERAS_BACKEND (set by the parent before this process starts).

Reads a pickled list of (op, args, kwargs) from stdin; writes a pickled list to stdout, one entry per call:
``("ok", array)`` or ``("error", type name, name of the nearest built-in exception class, message)``.
Never imported by pytest itself.
"""

from __future__ import annotations

import builtins
import pickle
import sys
import warnings


def main() -> None:
    warnings.filterwarnings("ignore")
    import keras  # noqa: F401  (KERAS_BACKEND is read here)
    from keras import ops

    cases = pickle.load(sys.stdin.buffer)
    out: list[tuple[object, ...]] = []
    for op, args, kwargs in cases:
        try:
            out.append(("ok", ops.convert_to_numpy(getattr(ops, op)(*args, **kwargs))))
        except Exception as exc:
            base = next(c for c in type(exc).__mro__ if getattr(builtins, c.__name__, None) is c)
            out.append(("error", type(exc).__name__, base.__name__, str(exc)[:300]))
    sys.stdout.flush()
    pickle.dump(out, sys.stdout.buffer)


if __name__ == "__main__":
    main()
