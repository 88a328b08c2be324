"""The fuzzer's oracle: is this call's outcome acceptable?

Every call must end in a correct result or a :class:`~gatherscatter.errors.GatherScatterError`.
:func:`run_case` runs one call and classifies it; a failure is

* ``exception``: any other exception (``MemoryError``, a bare ``ValueError`` ...);
* ``modified-input``: an input array changed (its bytes, shape, strides,
  dtype or flags) or an input list/tuple changed;
* ``not-an-array`` / ``not-writeable`` / ``shares-memory``: the result is not
  a new, writeable array that shares no memory with any input;
* ``backend-mismatch``: the NumPy and the numba backends disagree (a
  different value, bit for bit except NaN == NaN, dtype, shape, or error);
* ``loop-mismatch``: the op's own lowering, executed by the readable loops of
  :mod:`gatherscatter.core.loops`, gives another value, or errors;
* ``expected-error`` / ``expected-result``: a seed whose outcome is known
  (a TensorFlow CVE input must raise) ended the other way.

Crashes and hangs are detected by the runner (worker processes, per-call timeout).
"""

from __future__ import annotations

import importlib
import itertools
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import backends
from ..core.loops import gather_loop, scatter_loop
from ..core.shape import prod
from ..errors import GatherScatterError
from .repro import raw_bytes

__all__ = ["FuzzFailure", "Outcome", "check_call", "pattern", "resolve_op", "run_case", "same"]

Array = np.ndarray[Any, Any]

LOOP_LIMIT = 4096
"""Largest output (gathers) or update count (scatters) cross-checked with the element loops."""


class FuzzFailure(AssertionError):  # noqa: N818 - a test failure, named like pytest's Failed
    """A call whose outcome the fuzzer's oracle does not accept (raised by :func:`check_call`)."""


@dataclass
class Outcome:
    """How one call ended.

    ``status``: ``result`` (a correct result), ``typed`` (a GatherScatterError;
    ``error`` is its class), ``failure`` (``kind`` says which, ``error`` the
    exception type if any, ``message`` what happened).
    """

    status: str
    error: str = ""
    kind: str = ""
    message: str = ""
    detail: str = ""
    expect: str = "any"

    def describe(self) -> str:
        """One line: ``failure exception: ValueError: ...``."""
        if self.status == "result":
            return "result"
        if self.status == "typed":
            return f"typed {self.error}: {self.message}"
        err = f"{self.error}: " if self.error else ""
        return f"failure {self.kind}: {err}{self.message}"


def resolve_op(ref: Any) -> Any:
    """The op for ``'onnx.Gather'`` (the registry) or ``'package.module:attr'`` (any callable op)."""
    if not isinstance(ref, str):
        return ref
    if ":" in ref:
        mod, _, attr = ref.partition(":")
        obj: Any = importlib.import_module(mod)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    from ..dialects._registry import get_op

    return get_op(ref)


def pattern(message: str) -> str:
    """``message`` with numbers, addresses and quoted values blurred: the key failures are grouped by."""
    m = re.sub(r"0x[0-9a-fA-F]+", "0x#", message.splitlines()[0] if message else "")
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r"\[[-\d, .e+nainf]*\]", "[…]", m)
    m = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "#", m)
    return m[:160]


# --------------------------------------------------------------------------- snapshots


def _snap(v: Any, depth: int = 0) -> Any:
    if isinstance(v, np.ndarray):
        flags = (v.flags.c_contiguous, v.flags.f_contiguous, v.flags.writeable, v.flags.aligned)
        objs = tuple(repr(x) for x in itertools.islice(v.flat, 256)) if v.dtype.hasobject and v.size else ()
        return ("nd", v.dtype.str, v.dtype.descr, v.shape, v.strides, flags, v.ctypes.data, raw_bytes(v), objs)
    if depth > 8:
        return ("deep", type(v).__name__)
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, len(v), tuple(_snap(x, depth + 1) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((k, _snap(x, depth + 1)) for k, x in v.items()))
    try:
        return ("v", type(v).__name__, repr(v))
    except Exception:
        return ("id", id(v))


def _inputs(v: Any, out: list[Array]) -> list[Array]:
    if isinstance(v, np.ndarray):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _inputs(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _inputs(x, out)
    return out


# --------------------------------------------------------------------------- comparison


def _bits(a: Array) -> Array:
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    return a


def same(x: Array, y: Array, *, complex_rounding: bool = False) -> str | None:
    """None when ``x`` and ``y`` are the same array (dtype, shape, bits; NaN == NaN), else why not.

    ``complex_rounding``: complex values may differ by a few ulps (NumPy's scalar complex multiply,
    used by the element loops, rounds differently from its array loops).
    """
    if x.dtype != y.dtype:
        return f"dtype {x.dtype.str} != {y.dtype.str}"
    if x.shape != y.shape:
        return f"shape {list(x.shape)} != {list(y.shape)}"
    if x.size == 0:
        return None
    if x.dtype.hasobject:
        for n, (p, q) in enumerate(zip(x.reshape(-1).tolist(), y.reshape(-1).tolist(), strict=True)):
            if type(p) is not type(q) or (p != q and not (p != p and q != q)):
                return f"element {n}: {p!r} != {q!r}"
        return None
    if x.dtype.kind == "c" and complex_rounding:
        eps = float(np.finfo(x.dtype).eps)
        with np.errstate(all="ignore"):
            diff = ~np.isclose(x, y, rtol=16 * eps, atol=0.0, equal_nan=True).reshape(-1)
            diff &= ~(x == y).reshape(-1)
    elif x.dtype.kind in "fc":
        a, b = _bits(x), _bits(y)
        raw_a = a.view(np.dtype(f"V{a.itemsize}")).reshape(-1)
        raw_b = b.view(np.dtype(f"V{b.itemsize}")).reshape(-1)
        diff = (raw_a != raw_b) & ~(np.isnan(a.reshape(-1)) & np.isnan(b.reshape(-1)))
    else:
        diff = np.ascontiguousarray(x).reshape(-1) != np.ascontiguousarray(y).reshape(-1)
    if not diff.any():
        return None
    n = int(np.argmax(diff))
    pos = tuple(int(p) for p in np.unravel_index(n // (2 if x.dtype.kind == "c" else 1), x.shape))
    return f"first difference at {list(pos)}: {x[pos]!r} != {y[pos]!r} ({int(diff.sum())} differ)"


# --------------------------------------------------------------------------- one call


def _call(op: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, BaseException | None]:
    try:
        return op(*args, **kwargs), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return None, exc


def _fail(kind: str, message: str, exc: BaseException | None = None) -> Outcome:
    detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)) if exc is not None else ""
    return Outcome("failure", error=type(exc).__name__ if exc is not None else "", kind=kind, message=message,
                   detail=detail)


def _check_result(out: Any, inputs: list[Array]) -> Outcome | None:
    if not isinstance(out, np.ndarray):
        return _fail("not-an-array", f"returned {type(out).__name__}, not a NumPy array")
    if not out.flags.writeable:
        return _fail("not-writeable", "the result is read-only")
    for n, x in enumerate(inputs):
        if np.may_share_memory(out, x):
            try:
                shares = bool(np.shares_memory(out, x, max_work=100_000))  # type: ignore[arg-type]
            except np.exceptions.TooHardError:
                shares = True
            if shares:
                return _fail("shares-memory", f"the result shares memory with input array #{n}")
    return None


def _with_backend(name: str, fn: Callable[[], Any]) -> Any:
    prev = backends._backend
    backends.set_backend(name)
    try:
        return fn()
    finally:
        backends._backend = prev


def _numba_available() -> bool:
    return backends._load() is not None


def _loop_value(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], size: int) -> Array | None:
    """The op's lowering executed by the element loops (None when skipped: a short-cut or too big)."""
    lw = op.lower(*args, **kwargs)
    if lw.result is not None:
        return None
    n = size if lw.primitive == "gather" else (lw.updates.size if lw.updates is not None else 0)
    if n > LOOP_LIMIT or prod(lw.indices.shape) > LOOP_LIMIT:
        return None
    if lw.primitive == "gather":
        res = gather_loop(lw.data, lw.indices, lw.spec, lw.policy, lw.ctx)
    else:
        res = scatter_loop(lw.data, lw.indices, lw.updates, lw.spec, lw.policy, lw.ctx)
    if lw.post is not None:
        res = lw.post(res)
    return np.asarray(res)


def run_case(
    op: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    expect: str = "any",
    loops: bool = True,
    numba: bool = True,
    twin: dict[str, Any] | None = None,
) -> Outcome:
    """Run ``op(*args, **kwargs)`` and classify the outcome (see the module docstring).

    ``twin``: keyword arguments of the same call on small data; when the twin
    returns a result, this call must return one too (``expect='result'``).
    """
    op = resolve_op(op)
    if twin is not None and expect == "any":
        _, twin_exc = _with_backend("numpy", lambda: _call(op, (), twin))
        expect = "result" if twin_exc is None else "any"
    res = _run(op, args, kwargs, expect, loops, numba)
    res.expect = expect
    return res


def _run(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], expect: str, loops: bool, numba: bool) -> Outcome:
    before = _snap((args, kwargs))
    inputs = _inputs((args, kwargs), [])
    out, exc = _with_backend("numpy", lambda: _call(op, args, kwargs))

    def modified(when: str) -> Outcome | None:
        if _snap((args, kwargs)) != before:
            return _fail("modified-input", f"an input was modified ({when})")
        return None

    bad = modified("by the call")
    if bad is not None:
        return bad
    use_numba = numba and _numba_available()
    if exc is not None:
        if not isinstance(exc, GatherScatterError):
            return _fail("exception", f"{str(exc)[:300]}", exc)
        if use_numba:
            out2, exc2 = _with_backend("numba", lambda: _call(op, args, kwargs))
            if type(exc2) is not type(exc):
                got = f"raised {type(exc2).__name__}: {exc2}" if exc2 is not None else "returned a result"
                return _fail("backend-mismatch", f"numpy raised {type(exc).__name__}, numba {got}"[:300], exc2)
        bad = modified("by the numba backend")
        if bad is not None:
            return bad
        if expect == "result":
            return _fail("expected-result", f"a valid call raised {type(exc).__name__}: {exc}"[:300], exc)
        return Outcome("typed", error=type(exc).__name__, message=str(exc)[:300])
    bad = _check_result(out, inputs)
    if bad is not None:
        return bad
    if expect == "error":
        return _fail("expected-error", f"returned a result of shape {list(out.shape)} where an error is expected")
    if use_numba:
        out2, exc2 = _with_backend("numba", lambda: _call(op, args, kwargs))
        bad = modified("by the numba backend")
        if bad is not None:
            return bad
        if exc2 is not None:
            why = f"numpy returned a result, numba raised {type(exc2).__name__}: {exc2}"
            return _fail("backend-mismatch", why[:300], exc2)
        bad = _check_result(out2, inputs)
        if bad is not None:
            bad.message = "numba backend: " + bad.message
            return bad
        diff = same(out, out2)
        if diff is not None:
            return _fail("backend-mismatch", f"numpy and numba results differ: {diff}")
    if loops:
        try:
            exp = _with_backend("numpy", lambda: _loop_value(op, args, kwargs, out.size))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:
            return _fail("loop-mismatch", f"the element loops raised {type(e).__name__}: {e}"[:300], e)
        bad = modified("by the lowering or the loops")
        if bad is not None:
            return bad
        if exp is not None:
            diff = same(out, exp, complex_rounding=True)
            if diff is not None:
                return _fail("loop-mismatch", f"result != the element loops on the op's lowering: {diff}")
    return Outcome("result")


def check_call(
    op: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None, *, expect: str = "any"
) -> Outcome:
    """Run the oracle on one call; raise :class:`FuzzFailure` if it fails, else return the outcome.

    >>> check_call("onnx.Gather", ([10, 20, 30], [2, -1]), {}).status
    'result'
    >>> check_call("onnx.Gather", ([10, 20, 30], [3]), {}).error
    'IndexOutOfRangeError'
    """
    res = run_case(op, tuple(args), dict(kwargs or {}), expect=expect)
    if res.status == "failure":
        raise FuzzFailure(res.describe() + ("\n" + res.detail if res.detail else ""))
    return res
