"""``gs.vjp``: run any registered op and return its pullback.

The op is lowered once; the pullback maps the user's cotangent back through
the dialect's ``post`` adapter (learned by probing, see :mod:`._probe`),
through the primitive's rule (:mod:`.rules`) and through the dialect's
pre-processing of data and updates (also learned by probing). Framework
conventions and restrictions are looked up here by framework and op name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.policy import Bounds, Reduction
from ..dialects._record import LazyTable
from ..dialects._registry import DialectOp, Lowering, get_op
from ..errors import ArgumentError, ShapeError, UnsupportedError
from ._probe import AffineMap, learn_map, transpose
from .rules import MATH, Convention, element_positions, gather_vjp, scatter_vjp

__all__ = ["CONVENTIONS", "Pullback", "convention_of", "vjp"]

Array = np.ndarray[Any, Any]

def convention_of(op: DialectOp) -> Convention:
    """The gradient convention ``op``'s record states (``op.record.grad``); :data:`~.rules.MATH` by default."""
    g = op.record.grad
    if g.autograd is None:
        return MATH
    return Convention(g.autograd, overwrite=g.duplicates, ties=g.ties)  # type: ignore[arg-type]


def _conventions() -> dict[str, Convention]:
    """The convention of every framework whose autograd differs from the mathematics (from the records)."""
    from ..dialects._registry import ops

    out: dict[str, Convention] = {}
    for op in ops():
        c = convention_of(op)
        if c is not MATH:
            out.setdefault(op.info.framework, c)
    return out


CONVENTIONS: dict[str, Convention] = LazyTable(_conventions)
"""Frameworks whose autograd we reproduce, read from the op records; every other framework
(and the neutral API) uses the mathematically correct convention :data:`~.rules.MATH`."""


class Pullback:
    """``pullback(cotangent)`` -> one entry per positional argument of the call.

    Differentiable array inputs get an array of their shape (their dtype when
    floating, float64 otherwise); indices and every other argument get None.
    :meth:`named` returns the gradients of every differentiable input by
    parameter name, including those passed by keyword.
    """

    def __init__(
        self,
        label: str,
        out: Array,
        n_positional: int,
        slots: dict[str, int | None],
        compute: Callable[[Array], dict[str, Array]],
    ) -> None:
        self._label = label
        self._out_shape = tuple(out.shape)
        self._n = n_positional
        self._slots = slots
        self._compute = compute

    def named(self, cotangent: Any) -> dict[str, Array]:
        """Gradients of every differentiable input, by parameter name."""
        ct = np.asarray(cotangent)
        if ct.shape != self._out_shape:
            raise ShapeError(
                f"{self._label}: the cotangent must have the output's shape {list(self._out_shape)}; "
                f"got {list(ct.shape)}"
            )
        if ct.dtype.kind not in "biuf":
            raise UnsupportedError(f"{self._label}: the cotangent must be real (got dtype {ct.dtype})")
        return self._compute(np.asarray(ct, np.float64))

    def __call__(self, cotangent: Any) -> tuple[Array | None, ...]:
        grads = self.named(cotangent)
        res: list[Array | None] = [None] * self._n
        for name, slot in self._slots.items():
            if slot is not None:
                res[slot] = grads[name]
        return tuple(res)


def _jax_mode(value: Any) -> Any:
    from ..dialects.jax._common import GatherScatterMode

    return None if value is None else GatherScatterMode.from_any(value).name


def _gather_oob_alternative(op: DialectOp, bound: inspect.BoundArguments, low: Lowering) -> dict[str, Any] | None:
    """Arguments of the same call that fill where the forward clamped but autograd drops.

    JAX ``promise_in_bounds`` gathers and TF ``device='xla'`` gathers clamp
    out-of-range reads, yet their transpose (an XLA scatter-add) drops the
    cotangent of those elements; we find them by re-lowering in fill mode.
    """
    fw = op.info.framework
    if op.info.kind != "gather" or low.policy.bounds is not Bounds.CLIP:
        return None
    args = bound.arguments
    if fw == "jax" and "mode" in args and _jax_mode(args["mode"]) in (None, "PROMISE_IN_BOUNDS"):
        return {"mode": "fill"}
    if fw == "tensorflow" and args.get("device") == "xla":
        return {"device": "gpu"}
    return None


def _check_restrictions(op: DialectOp, bound: inspect.BoundArguments, low: Lowering) -> None:
    """Raise where the framework's autograd has no derivative."""
    name = op.info.qualname
    args = bound.arguments
    red = low.policy.reduction if low.primitive == "scatter" else None
    rules = op.record.grad.restrictions
    if "no_reduce" in rules and args.get("reduce") is not None:
        raise UnsupportedError(
            f"{name}: {op.info.framework} defines no derivative for {op.info.name}(reduce=...) "
            "('the derivative for scatter with reduce is not implemented'); use scatter_reduce"
        )
    if "src_is_index_shaped" in rules:
        src_shape, index_shape = np.shape(args["src"]), np.shape(args["index"])
        if src_shape != index_shape:
            raise UnsupportedError(
                f"{name}: {op.info.framework}'s backward is only implemented for src.shape == index.shape "
                f"(got src shape {list(src_shape)}, index shape {list(index_shape)})"
            )
    if op.info.framework == "jax" and red is Reduction.MUL:
        t = element_positions(low).reshape(-1)
        t = t[t >= 0]
        if np.unique(t).size != t.size:
            raise UnsupportedError(
                f"{name}: JAX implements scatter_mul gradients only for unique indices (unique_indices=True); "
                "these indices hit a position twice"
            )
    if (
        op.info.framework == "jax"
        and low.primitive == "scatter"
        and _jax_mode(args.get("mode")) == "PROMISE_IN_BOUNDS"
        and (element_positions(low) < 0).any()
    ):
        raise UnsupportedError(
            f"{name}: mode='promise_in_bounds' with out-of-range indices: JAX documents that its "
            "gradients are not correct there; no gradient"
        )


def vjp(op: Any, *args: Any, **kwargs: Any) -> tuple[Array, Pullback]:
    """``(out, pullback)`` for ``op(*args, **kwargs)``; see :mod:`gatherscatter.grad`.

    >>> import numpy as np, gatherscatter as gs
    >>> out, pb = gs.vjp(gs.torch.gather, np.array([1.0, 2.0, 3.0]), 0, np.array([1, 1, 2]))
    >>> pb(np.ones(3))
    (array([0., 2., 1.]), None, None)
    """
    dop = get_op(op)
    label = dop.info.qualname
    sig = inspect.signature(dop.lower)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    if bound.arguments.get("out") is not None:
        raise ArgumentError(f"{label}: vjp does not take out= (it returns a new output and a pullback)")
    low = dop.lower(*args, **kwargs)
    out = low.run()
    if out.dtype.kind != "f":
        raise UnsupportedError(
            f"{label}: no gradient for a {out.dtype} output (integer, bool, complex and non-numeric "
            "data are not differentiable here)"
        )
    _check_restrictions(dop, bound, low)
    if low.nonlinear:
        raise UnsupportedError(
            f"{label}: no gradient: its output is {low.nonlinear}, an element-wise step after the scatter that is "
            "not linear in the scatter's result (gs.vjp differentiates the gather/scatter primitives through "
            "linear adapters only)"
        )
    params = list(sig.parameters)
    names = [n for n in dop.info.differentiable if bound.arguments.get(n) is not None]
    values = [np.asarray(bound.arguments[n]) for n in names]
    for n, v in zip(names, values, strict=True):
        if v.dtype.kind not in "biuf":
            raise UnsupportedError(f"{label}: {n} of dtype {v.dtype} is not differentiable")
    shapes = [tuple(v.shape) for v in values]
    slots = {n: (params.index(n) if params.index(n) < len(args) else None) for n in names}

    def lower_with(xs: Sequence[Array]) -> Lowering:
        b = sig.bind(*args, **kwargs)
        for n, x in zip(names, xs, strict=True):
            b.arguments[n] = x
        return dop.lower(*b.args, **b.kwargs)

    def field_map(field: str) -> AffineMap | None:
        return learn_map(f"{label} ({field})", shapes, lambda xs: getattr(lower_with(xs), field))

    conv = convention_of(dop)
    maps: list[tuple[AffineMap, str]] = []
    post_map: AffineMap | None = None
    prim_mask: Array | None = None
    prim_out: Array | None = None
    if low.result is None:
        prim_out = low.run_primitive()
        post = low.post
        if post is not None:
            pshape = tuple(prim_out.shape)
            post_map = learn_map(f"{label} (output adapter)", [pshape], lambda xs: post(xs[0]))
        for field in ("data", "updates"):
            m = field_map(field)
            if m is not None:
                maps.append((m, field))
        alt = _gather_oob_alternative(dop, bound, low)
        if alt is not None:
            b2 = sig.bind(*args, **kwargs)
            b2.arguments.update(alt)
            alt_low = dop.lower(*b2.args, **b2.kwargs)
            alt_pos = element_positions(alt_low)
            if alt_pos.shape != prim_out.shape:
                raise UnsupportedError(f"{label}: cannot locate the out-of-range reads whose gradient is dropped")
            prim_mask = (alt_pos >= 0).reshape(-1)
    elif out.size:
        m = field_map("result")
        if m is not None:
            maps.append((m, "result"))

    def compute(ct: Array) -> dict[str, Array]:
        cots: dict[str, Array] = {}
        if low.result is None:
            assert prim_out is not None
            g = ct.reshape(-1) if post_map is None else transpose(post_map, ct, 0, prim_out.size)
            if prim_mask is not None:
                g = np.where(prim_mask, g, 0.0)
            g = g.reshape(prim_out.shape)
            if low.primitive == "gather":
                cots["data"] = gather_vjp(low, g)
            else:
                cots["data"], cots["updates"] = scatter_vjp(low, prim_out, g, conv)
        else:
            cots["result"] = ct
        res: dict[str, Array] = {}
        for k, (n, v) in enumerate(zip(names, values, strict=True)):
            acc = np.zeros(v.size, np.float64)
            for m, field in maps:
                acc += transpose(m, cots[field], k, v.size)
            dtype = v.dtype if v.dtype.kind == "f" else np.dtype(np.float64)
            res[n] = acc.reshape(v.shape).astype(dtype)
        return res

    return out, Pullback(label, out, len(args), slots, compute)
