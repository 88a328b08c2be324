"""Call plans: a framework op's repeated call with the same signature goes straight to the kernels.

A small call spends most of its time in Python, not in the kernel: for an element gather of 32
indices per row on 256 rows (the benchmark's top-k at 1/16), the whole call took 22 µs and its kernel
6.2 µs; the dialect's checks, the registry and the core took 10 µs of the rest (session 13's measurement, in
``benchmarks/README.md``). Those layers decide the same thing for every call whose arguments have
the same types, dtypes, shapes, strides and attribute values: which kernel runs, on which views.
Only the index values can change the outcome, and the kernels check every one of them.

So the first call of a signature runs the whole path and, when the core's gather or scatter took the
kernels on the caller's own arrays (:func:`offer`), the registry keeps what the core decided (a *plan*: a
function of those arrays) under the call's :func:`signature`. The next call with that signature runs the
plan. A plan answers only when every index is in ``[0, size)``; for anything else (a bad index, a negative
one even where the op wraps it: a plan never wraps, a kernel still compiling, the accelerated path switched
off, an ``out=`` the core would refuse or treat otherwise) it returns None and the call takes the whole path,
which raises the op's own error, applies its policy or wraps. A plan is kept only when nothing the call did
after the kernels could differ between calls: the op's result is the very array the kernel wrote, and the
core read the caller's arrays themselves (no converted copy).

Scatters (session 23): a ScatterND of 1,024 rows of 1 KiB into a 16 MiB cache in place (``out=data``) took
188 µs, of which the kernel 98 µs; with its plan, 125 µs (torch's ``index_copy_`` 125 µs, NumPy's
assignment 101 µs), and a scatter of two rows 45 -> 11 µs. Each call of a plan with an ``out=`` checks
what the signature does not fix (writeable; the data itself, or sharing no memory with an input).

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
    "signature", "stop", "values_read",
]

Plan = Callable[..., "np.ndarray[Any, Any] | None"]
"""``plan(*arrays)``: the op's result, or None when the call must take the whole path. A gather's plan takes
``(data, indices)``, a scatter's ``(data, indices, updates)`` and, when the call wrote into an ``out=``, that
array last (:func:`offer`)."""
Places = tuple["int | str", ...]
"""Where each array a plan takes is among a call's arguments: a position or a keyword."""

_on = os.environ.get("GATHERSCATTER_PLANS", "1") != "0"
_PLAIN = frozenset({int, str, bool, type(None)})
"""Argument types a signature keeps by value. Floats are not kept (``-0.0 == 0.0``); nor is any other
type (a list, a framework tensor): a call with one always takes the whole path."""
LIMIT = 512
"""Signatures kept at most (all are dropped when one more is needed: a caller may vary shapes without end)."""

_plans: dict[tuple[Any, ...], tuple[Plan, Places] | int] = {}
"""Per signature: its plan and where the arrays it takes are among the arguments, or how many of its calls kept
none so far."""
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


def get(key: tuple[Any, ...]) -> tuple[Plan, Places] | None:
    """The plan kept for ``key`` and where the arrays it takes are among the call's arguments."""
    e = _plans.get(key)
    return None if e is None or isinstance(e, int) else e


def answer(kept: tuple[Plan, Places], args: tuple[Any, ...], kwargs: dict[str, Any]) -> np.ndarray[Any, Any] | None:
    """Run the plan ``kept`` (:func:`get`) on this call's arrays; None: the call takes the whole path."""
    plan, places = kept
    return plan(*[args[p] if isinstance(p, int) else kwargs[p] for p in places])


def _misses(key: tuple[Any, ...]) -> int:
    e = _plans.get(key)
    return e if isinstance(e, int) else 0


def clear() -> None:
    """Forget every plan."""
    _plans.clear()


_Offer = tuple[tuple[np.ndarray[Any, Any], ...], "np.ndarray[Any, Any] | None", np.ndarray[Any, Any], Plan]


class _Recording:
    __slots__ = ("offers", "values")

    def __init__(self) -> None:
        self.offers: list[_Offer] = []
        self.values = False  # the lowering decided something from array values (values_read)


def record(key: tuple[Any, ...]) -> _Recording | None:
    """Start recording this thread's offers (the registry, around a call whose signature has no plan), or None:
    a signature whose calls kept no plan (a converted argument, a post step, a kernel still compiling in the
    background) is recorded again only after its 1st, 2nd, 4th, 8th ... call without one, so that its calls
    do not pay for recording each time."""
    n = _misses(key)
    if n & (n - 1):  # not a power of two (0 is one: the first call records)
        _keep(key, n + 1)
        return None
    r = _Recording()
    _rec.now = r
    return r


def _keep(key: tuple[Any, ...], entry: tuple[Plan, Places] | int) -> None:
    if key not in _plans and len(_plans) >= LIMIT:
        _plans.clear()
    _plans[key] = entry


def recording() -> bool:
    """Whether this thread's call is being recorded (the core then says what it ran: :func:`offer`)."""
    return getattr(_rec, "now", None) is not None


def offer(arrays: tuple[np.ndarray[Any, Any], ...], result: np.ndarray[Any, Any], plan: Plan,
          out: np.ndarray[Any, Any] | None = None) -> None:
    """The core ran the kernels on ``arrays`` (a gather's data and indices, a scatter's data, indices and
    updates) into ``result``: a fresh array, or ``out`` (the call's ``out=``, possibly the data itself).
    ``plan(*arrays)``, or ``plan(*arrays, out)`` with an ``out``, does the same for any arrays of this call's
    signature, or returns None. A plan given ``out`` checks it as the core did (writeable, sharing no memory
    with the inputs unless it is the data itself, as recorded): the signature fixes its dtype, shape and
    strides only."""
    r = getattr(_rec, "now", None)
    if r is not None:
        r.offers.append((arrays, out, result, plan))


def values_read() -> None:
    """The call being recorded decided something from its arrays' values beyond each index's range (which every
    plan checks): a NaN update treated apart, ids that must be sorted, zeros given one sign. Its signature keeps no
    plan, which would skip that for other values of the same dtypes and shapes. Every lowering that looks at values
    so calls this (``tests/core/test_plans.py`` tries NaN, zeros of both signs and infinities on each kept plan)."""
    r = getattr(_rec, "now", None)
    if r is not None:
        r.values = True


def recorded(r: _Recording, key: tuple[Any, ...], args: tuple[Any, ...], kwargs: dict[str, Any],
             result: Any) -> None:
    """End the recording ``r``: keep its plan for ``key`` when the call's result is the one the kernels wrote
    and they read (and wrote, with an ``out=``) the caller's own arguments (the caller has called :func:`stop`)."""
    kept = _kept(r, args, kwargs, result)
    _keep(key, _misses(key) + 1 if kept is None else kept)


def _kept(r: _Recording, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any) -> tuple[Plan, Places] | None:
    """The plan of the one offer and the places of its arrays (one each, the arrays distinct objects: the same
    array in two roles would leave which is which unknown); an ``out`` is the caller's ``out=`` argument, or,
    being the data itself, the data's place when the call passed it once (an op that updates its data in
    place)."""
    if len(r.offers) != 1 or r.values:
        return None
    arrays, out, res, plan = r.offers[0]
    if res is not result or len({id(a) for a in arrays}) != len(arrays):
        return None
    found: list[tuple[int | str, Any]] = [*enumerate(args), *kwargs.items()]
    places: list[int | str] = []
    for a in arrays:
        at = [k for k, v in found if v is a]
        if out is a and len(at) == 2:  # out=data: data's place first, then out's
            at = at[:1]
        if len(at) != 1:
            return None
        places += at
    if out is not None:
        at = [k for k, v in found if v is out]
        if not at:  # an out the call made (a converted copy): not the caller's
            return None
        places.append(at[-1])
    return plan, tuple(places)


def stop() -> None:
    """End this thread's recording (then :func:`recorded` keeps what it found, unless the call raised)."""
    _rec.now = None
