"""Call plans: a framework op's repeated call with the same signature goes straight to the kernels.

A small call spends most of its time in Python, not in the kernel: for an element gather of 32
indices per row on 256 rows (the benchmark's top-k at 1/16), the whole call took 22 µs and its kernel
6.2 µs; the dialect's checks, the registry and the core took 10 µs of the rest (session 13's measurement, in
``benchmarks/README.md``). Those layers decide the same thing for every call whose arguments have
the same types, dtypes, shapes, strides and attribute values: which kernel runs, on which views.
Only the index values can change the outcome, and the kernels check every one of them.

So the first call of a signature runs the whole path and, when the core's gather took the kernels
on the caller's own arrays (:func:`offer`), the registry keeps what the core decided (a *plan*: a
function of the data and index arrays) under the call's :func:`signature`. The next call with that
signature runs the plan. A plan answers only when every index is in ``[0, size)``; for anything
else (a bad index, a negative one even where the op wraps it: a plan never wraps, a kernel still
compiling, the accelerated path switched off) it returns None and the call takes the whole path,
which raises the op's own error, applies its policy or wraps. A plan is kept only when nothing the call
did after the gather could differ between calls: the op's result is the very array the kernel wrote,
and the core read the caller's arrays themselves (no converted copy).

``GATHERSCATTER_PLANS=0`` in the environment turns plans off (every call takes the whole path);
:func:`clear` forgets them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "Plan", "answer", "clear", "enabled", "get", "offer", "record", "recorded", "recording", "set_enabled",
    "signature", "stop",
]

Plan = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], "np.ndarray[Any, Any] | None"]
"""``plan(data, indices)``: the op's result, or None when the call must take the whole path."""

_on = os.environ.get("GATHERSCATTER_PLANS", "1") != "0"
_PLAIN = frozenset({int, str, bool, type(None)})
"""Argument types a signature keeps by value. Floats are not kept (``-0.0 == 0.0``); nor is any other
type (a list, a framework tensor): a call with one always takes the whole path."""
LIMIT = 512
"""Signatures kept at most (all are dropped when one more is needed: a caller may vary shapes without end)."""

_plans: dict[tuple[Any, ...], tuple[Plan, int | str, int | str] | int] = {}
"""Per signature: its plan and where its data and indices are among the arguments, or how many of its calls
kept none so far."""
_rec = threading.local()


def enabled() -> bool:
    """Whether calls keep and run plans (``GATHERSCATTER_PLANS``, default on)."""
    return _on


def set_enabled(on: bool) -> bool:
    """Turn plans on or off for every thread; returns the previous setting. Plans kept stay kept while off
    (:func:`clear` forgets them)."""
    global _on
    was, _on = _on, bool(on)
    return was


def _part(v: Any) -> Any:
    t = type(v)
    if t is np.ndarray:
        return (v.dtype, v.shape, v.strides)
    if t in _PLAIN:
        return (t, v)
    if t is tuple and all(type(x) in _PLAIN for x in v):
        return (t, tuple((type(x), x) for x in v))
    raise TypeError


def signature(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
    """The key of a call: the op, and each argument's dtype, shape and strides (arrays) or type and value;
    None when an argument is of another type (the call then never uses a plan)."""
    if not _on:
        return None
    try:
        return (op, tuple(map(_part, args)), tuple((k, _part(v)) for k, v in kwargs.items()))
    except TypeError:
        return None


def get(key: tuple[Any, ...]) -> tuple[Plan, int | str, int | str] | None:
    """The plan kept for ``key`` and where its data and indices are among the call's arguments."""
    e = _plans.get(key)
    return None if e is None or isinstance(e, int) else e


def answer(kept: tuple[Plan, int | str, int | str], args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> np.ndarray[Any, Any] | None:
    """Run the plan ``kept`` (:func:`get`) on this call's data and indices; None: the call takes the whole path."""
    plan, d, i = kept
    return plan(args[d] if isinstance(d, int) else kwargs[d], args[i] if isinstance(i, int) else kwargs[i])


def _misses(key: tuple[Any, ...]) -> int:
    e = _plans.get(key)
    return e if isinstance(e, int) else 0


def clear() -> None:
    """Forget every plan."""
    _plans.clear()


class _Recording:
    __slots__ = ("offers",)

    def __init__(self) -> None:
        self.offers: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], Plan]] = []


def record(key: tuple[Any, ...]) -> _Recording | None:
    """Start recording this thread's offers (the registry, around a call whose signature has no plan), or None:
    a signature whose calls kept no plan (a scatter, a converted argument, a kernel still compiling in the
    background) is recorded again only after its 1st, 2nd, 4th, 8th ... call without one, so that its calls
    do not pay for recording each time."""
    n = _misses(key)
    if n & (n - 1):  # not a power of two (0 is one: the first call records)
        _keep(key, n + 1)
        return None
    r = _Recording()
    _rec.now = r
    return r


def _keep(key: tuple[Any, ...], entry: tuple[Plan, int | str, int | str] | int) -> None:
    if key not in _plans and len(_plans) >= LIMIT:
        _plans.clear()
    _plans[key] = entry


def recording() -> bool:
    """Whether this thread's call is being recorded (the core then says what it ran: :func:`offer`)."""
    return getattr(_rec, "now", None) is not None


def offer(data: np.ndarray[Any, Any], indices: np.ndarray[Any, Any], result: np.ndarray[Any, Any],
          plan: Plan) -> None:
    """The core's gather ran the kernels on ``data`` and ``indices`` into the fresh ``result``; ``plan``
    does the same for any data and indices of this call's signature (or returns None)."""
    r = getattr(_rec, "now", None)
    if r is not None:
        r.offers.append((data, indices, result, plan))


def recorded(r: _Recording, key: tuple[Any, ...], args: tuple[Any, ...], kwargs: dict[str, Any],
             result: Any) -> None:
    """End the recording ``r``: keep its plan for ``key`` when the call's result is the one gather's output
    and that gather read two of the caller's own arguments (the caller has called :func:`stop`)."""
    kept = _kept(r, args, kwargs, result)
    _keep(key, _misses(key) + 1 if kept is None else kept)


def _kept(r: _Recording, args: tuple[Any, ...], kwargs: dict[str, Any],
          result: Any) -> tuple[Plan, int | str, int | str] | None:
    if len(r.offers) != 1:
        return None
    data, indices, res, plan = r.offers[0]
    if res is not result:
        return None
    places: list[tuple[int | str, Any]] = [*enumerate(args), *kwargs.items()]
    d: list[int | str] = [k for k, v in places if v is data]
    i: list[int | str] = [k for k, v in places if v is indices]
    if len(d) != 1 or len(i) != 1 or data is indices:  # the same array twice: which one is which is not kept
        return None
    return plan, d[0], i[0]


def stop() -> None:
    """End this thread's recording (then :func:`recorded` keeps what it found, unless the call raised)."""
    _rec.now = None
