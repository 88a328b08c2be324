"""Brute-force segment reductions, written from the frameworks' docs (no gatherscatter import).

One Python loop over the rows of ``data`` in order; every framework rule
(what an empty segment holds, which ids are dropped or clipped, how a mean
divides) is a parameter, so each framework's oracle is a one-line call.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_OPS = {
    "sum": lambda a, b: a + b,
    "prod": lambda a, b: a * b,
    "max": lambda a, b: b if (b > a or np.isnan(b)) and not np.isnan(a) else a,
    "min": lambda a, b: b if (b < a or np.isnan(b)) and not np.isnan(a) else a,
}


def segment_reduce(
    data: Any,
    ids: Any,
    num_segments: int,
    reduce: str,
    empty: Any,
    *,
    out_of_range: str = "drop",
    mean: str = "none",
    initial: Any = None,
) -> np.ndarray[Any, Any]:
    """``reduce`` in sum/prod/max/min/mean/sqrt_n; ``out_of_range`` 'drop' or 'clip' (negative ids too).

    ``mean``: 'trunc' (integer sums divided toward zero, TF/Paddle sorted), 'float' (true division);
    ``initial``: torch's ``initial`` (starts every segment, and a mean divides by the row count only).
    """
    d = np.asarray(data)
    i = np.asarray(ids).reshape(-1)
    rest = d.shape[np.asarray(ids).ndim :]
    rows = d.reshape((i.size, *rest))
    acc: list[list[Any]] = [[] for _ in range(num_segments)]
    for j in range(i.size):
        s = int(i[j])
        if not 0 <= s < num_segments:
            if out_of_range != "clip" or num_segments == 0:
                continue
            s = min(max(s, 0), num_segments - 1)
        acc[s].append(rows[j])
    base = "sum" if reduce in ("mean", "sqrt_n") else reduce
    out = []
    for seg in acc:
        cells = np.empty(rest, dtype=object)
        for pos in np.ndindex(*rest):
            vals = [r[pos] for r in seg]
            if initial is not None:
                vals = [d.dtype.type(initial), *vals]
            if not vals or (not seg and reduce in ("mean", "sqrt_n")):
                cells[pos] = empty if initial is None else d.dtype.type(initial)
                continue
            v = vals[0]
            for w in vals[1:]:
                v = _OPS[base](v, w)
            if reduce in ("mean", "sqrt_n"):
                n = len(seg)
                if reduce == "sqrt_n":
                    v = v / math.sqrt(n)
                elif d.dtype.kind in "iu" and mean == "trunc":
                    v = int(v) // n if int(v) >= 0 else -((-int(v)) // n)
                else:
                    v = v / n
            cells[pos] = v
        out.append(cells)
    return np.array(out, dtype=object).reshape((num_segments, *rest))
