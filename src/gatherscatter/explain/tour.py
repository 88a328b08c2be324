"""The tour: every worked example of the seed documents, explained and checked.

Each :data:`~gatherscatter.explain.seeds.SEED_EXAMPLES` entry is run through the
library, drawn with the explain picture, and its result compared with the value the
seed prints (typed in by hand in ``seeds.json``, never computed here).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dialects._registry import DialectOp, get_op
from ..errors import GatherScatterError, UnsupportedError
from . import seeds
from .adapter import bind_call
from .lines import Line, Seg, fmt_values, line, wrap
from .model import explain
from .text import explanation_lines

__all__ = ["check", "resolve", "tour_lines"]


def resolve(ex: seeds.SeedExample) -> tuple[DialectOp, dict[str, Any], str | None]:
    """The op to run for ``ex`` (its fallback while the op is not registered) and its kwargs."""
    try:
        return get_op(ex.op), dict(ex.kwargs), None
    except UnsupportedError:
        if ex.fallback is None:
            raise
        name, extra = ex.fallback
        return get_op(name), {**ex.kwargs, **extra}, f"{ex.op} is not in this version of gatherscatter yet: ran {name}"


def check(ex: seeds.SeedExample, got: np.ndarray[Any, Any] | None) -> tuple[bool, str]:
    """Whether ``got`` is what the seed prints, and the seed's value as text."""
    if ex.expected is not None:
        shown = fmt_values(np.asarray(ex.expected))
        ok = got is not None and got.shape == np.asarray(ex.expected).shape and got.tolist() == ex.expected
        if got is not None and not ok and got.dtype.kind == "f" and got.shape == np.asarray(ex.expected).shape:
            ok = bool(np.allclose(got, np.asarray(ex.expected, dtype=float), rtol=0, atol=1e-12))
        return ok, shown
    shown = f"shape {list(ex.expected_shape or ())}, " + ", ".join(f"out{list(pos)} = {v}" for pos, v in ex.expected_at)
    ok = got is not None and got.shape == ex.expected_shape and all(got[pos] == v for pos, v in ex.expected_at)
    return ok, shown


def tour_lines(width: int = 100) -> tuple[list[Line], int]:
    """The tour as styled lines, and the number of examples that do not match their seed."""
    out: list[Line] = []
    bad = 0
    examples = seeds.SEED_EXAMPLES
    for n, ex in enumerate(examples, 1):
        out.append(line(Seg(f"{n}. {ex.title}", "title")))
        out.extend(wrap(f"seed: {ex.source}", width, "   ", "dim"))
        op, kwargs, swapped = resolve(ex)
        call = ", ".join([fmt_values(np.asarray(a)) for a in ex.args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        out.extend(wrap(f"{op.info.qualname}({call})", width, "     ", first="   "))
        if swapped:
            out.extend(wrap(f"note: {swapped}", width, "   ", "dim"))
        out.append([])
        try:
            exp = explain(bind_call(op, ex.args, kwargs))
        except GatherScatterError as exc:  # pragma: no cover - bind_call only binds
            exp = None
            out.append(line(Seg(f"   error: {exc}", "err")))
        if exp is not None:
            out.extend([[Seg("   "), *ln] if ln else ln for ln in explanation_lines(exp, width - 3, loop=False)])
        got = None if exp is None else exp.output
        ok, shown = check(ex, got)
        bad += not ok
        verdict = Seg("[ok]", "ok") if ok else Seg("[MISMATCH]", "err")
        out.append(line(f"   seed prints: {shown}   ", verdict))
        if ex.note:
            out.extend(wrap(ex.note, width, "   "))
        out.append([])
    total = len(examples)
    out.append(line(Seg(f"{total - bad} of {total} seed examples reproduced.", "ok" if not bad else "err")))
    return out, bad
