"""Shared machinery of the framework target planners (torch, tensorflow, jax, numpy, ...).

A planner describes its ops by their *index semantics* -- how they read a
negative index and an out-of-range one, per mode where the op has modes
(JAX ``mode=``, NumPy ``mode=``, MXNet ``mode=``) -- and :class:`Plan` picks
the mode that computes the canonical call natively, or adds the adapters of
:func:`..plan.adapt_indices` around the op's default mode.

Two ways to reach an op:

* *direct*: the target op has the canonical family's shape semantics (a
  gather along an axis, an element-wise gather, tuples on the last axis);
  indices are adapted in the canonical form (``axis``/``batch_dims``);
* *coordinates*: the indices are first expanded to full element coordinates
  (``coordinates`` docs/semantics.md#e4/docs/semantics.md#e16, ``take_coordinates``
  docs/semantics.md#e1/docs/semantics.md#e7, ``nd_coordinates``), so
  an nd op without ``batch_dims`` -- or a flat op after ``ravel_tuples`` --
  computes the family; the index policy is then adapted on the coordinates
  (the extra iota components are always in range, so this is the same policy).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...dialects._segment import _FINITE_EMPTY as FINITE_EMPTY
from ..ir import Step
from ..model import Canonical, Residual, TargetPlan
from ..plan import IndexAdaptation, Names, ScatterCall, adapt_indices, decompose_reduction, index_kw

# Canonical, Names, Step, TargetPlan: re-exported for the planners, which need nothing else from the package
__all__ = ["RAISE", "WRAP_RAISE", "Canonical", "Mode", "Names", "Plan", "Step", "TargetPlan", "duplicates_residual",
           "include_self", "matches", "native_reductions", "zero_fill"]

Mode = tuple[str, str]
"""``(negative, bounds)``: how an op (in one mode) reads negative and out-of-range indices."""

RAISE: dict[Any, Mode] = {None: ("raise", "raise")}  # also flat offsets: a negative component is out of range
WRAP_RAISE: dict[Any, Mode] = {None: ("wrap", "raise")}


def matches(c_neg: str, c_bounds: str, neg: str, bounds: str) -> bool:
    """True when an op reading indices as ``(neg, bounds)`` computes the policy ``(c_neg, c_bounds)``."""
    if bounds != c_bounds:
        return False
    if neg == c_neg:
        return True
    if bounds == "wrap":  # i mod s: a negative index wraps either way
        return c_neg in ("wrap", "bounds") and neg in ("wrap", "bounds")
    # a negative index that counts as out of range raises when out-of-range raises
    return bounds == "raise" and {c_neg, neg} == {"raise", "bounds"}


def include_self(c: Canonical, reduction: str) -> bool:
    """``include_self`` of one reducing call: the source's for its own reduction, True inside
    docs/semantics.md#e11 (a sub scatter adds)."""
    own = "add" if c.reduction == "sub" else c.reduction
    return c.include_self if reduction == own else True


def native_reductions(c: Canonical) -> frozenset[str]:
    """The reductions of a ``scatter_reduce``-like op (integer means round down: native only for a floor mean)."""
    return frozenset({"none", "add", "mul", "max", "min"} | ({"mean"} if c.mean_rounding == "floor" else set()))


def duplicates_residual(c: Canonical, target_specified: bool, target: str) -> list[Residual]:
    """The duplicate-overwrite residual: the source specifies an order, the target does not (or vice versa)."""
    if not c.is_scatter or c.reduction != "none":
        return []
    if c.duplicates_specified and not target_specified:
        return [Residual("duplicates", f"keeps the {c.duplicates} update", f"leaves the winner unspecified ({target}; "
                         "every CPU kernel measured is last-wins, threaded/GPU kernels are not)")]
    if c.duplicates == "raise":
        return [Residual("duplicates", "raises", f"keeps one of them ({target})")]
    return []


def zero_fill(c: Canonical) -> bool:
    """True when ``c``'s fill value (None: the neutral API's 0) is a scalar zero."""
    v = c.fill_value
    return v is None or (np.ndim(v) == 0 and not isinstance(v, str) and bool(np.asarray(v) == 0))


@dataclass
class Plan:
    """A target plan under construction: steps, residuals, fresh names."""

    c: Canonical
    names: Names
    tp: TargetPlan

    @classmethod
    def start(cls, framework: str, c: Canonical, names: Names) -> Plan:
        return cls(c, names, TargetPlan(framework, []))

    # -------------------------------------------------------------------------------------------- steps

    def adapt(self, name: str, prefix: str, *args: str, why: str, **attrs: Any) -> str:
        return self.adapt_to(self.names(prefix), name, *args, why=why, **attrs)

    def adapt_to(self, out: str, name: str, *args: str, why: str, **attrs: Any) -> str:
        self.tp.steps.append(Step.adapt(name, out, *args, why=why, **attrs))
        return out

    def op(self, qualname: str, out: str, args: dict[str, str], why: str = "", **attrs: Any) -> str:
        self.tp.steps.append(Step.op(qualname, out, args, why=why, **attrs))
        return out

    def residual(self, when: str, source: str, target: str, note: str = "") -> None:
        self.keep(Residual(when, source, target, note))

    def keep(self, *rs: Residual) -> None:
        """List each of ``rs`` not listed yet."""
        self.tp.residuals += [r for r in dict.fromkeys(rs) if r not in self.tp.residuals]

    def note(self, text: str) -> None:
        self.tp.notes.append(text)

    # ------------------------------------------------------------------------------------------ indices

    def float_cast(self, i: str, target: str) -> str:
        """Cast float indices (MXNet sources) to integers."""
        if self.c.index_dtype == "int":
            return i
        return self.adapt("cast", "i", i, dtype="int64", why=f"{target} takes integer indices")

    def index_cast(self, i: str, target: str) -> str:
        """Cast indices to int64 for a target op that takes int32/int64 only (sources pass int8/int16/uint8
        or float indices too); int32 and int64 indices are unchanged in value."""
        why = f"{target} takes integer indices" if self.c.index_dtype != "int" else \
            f"{target} takes int32/int64 indices only"
        return self.adapt("cast", "i", i, dtype="int64", why=why)

    def policy(self, c: Canonical, modes: dict[Any, Mode], fallback: Any, *, target: str = "") -> tuple[
            Any, IndexAdaptation]:
        """Pick the op mode computing ``c``'s index policy natively, else adapt around ``fallback``.

        ``modes`` maps a mode (the value passed to the op, or ``None`` for an op
        without modes) to its ``(negative, bounds)``; bounds ``'zero'`` is a fill
        with 0 (OpenVINO Gather-8), ``'fill'`` a fill with any value the op is given.
        """

        def ok(neg: str, b: str, c_neg: str) -> bool:
            if b == "zero":
                return c.bounds == "fill" and zero_fill(c) and matches(c_neg, "fill", neg, "fill")
            return matches(c_neg, c.bounds, neg, b)

        # a source that wraps negatives: after adding s once to them, its policy with negatives out of range
        for c_neg in (c.negative, "bounds") if c.negative == "wrap" else (c.negative,):
            for m, (neg, b) in modes.items():
                if ok(neg, b, c_neg):
                    ad = IndexAdaptation(indices=c.indices, updates=c.updates)
                    if c_neg != c.negative:
                        ad.indices = self.names("i")
                        ad.pre.append(Step.adapt("normalize_negative", ad.indices, c.indices, c.data, why=(
                            f"{target} does not wrap negative indices{' in this mode' if m is not None else ''}: "
                            "add the axis size once"), **index_kw(c)))
                    return m, ad
        neg, b = modes[fallback]
        neg = "raise" if (neg, b) == ("bounds", "raise") else neg  # such a negative raises with the out-of-range ones
        return fallback, adapt_indices(c, self.names, negative=neg, bounds=b)

    def apply(self, ad: IndexAdaptation) -> tuple[str, str | None]:
        self.tp.steps += ad.pre
        self.keep(*ad.residuals)
        return ad.indices, ad.updates

    def indices(self, c: Canonical, modes: dict[Any, Mode], fallback: Any = None, *, target: str,
                cast: str = "") -> tuple[Any, IndexAdaptation, str, str | None]:
        """:meth:`policy` then :meth:`apply` (the indices first cast to int64 for the op ``cast`` names, as
        :meth:`index_cast`): the mode, the adaptation, the indices and the updates."""
        if cast:
            c = c.with_(indices=self.index_cast(c.indices, cast))
        mode, ad = self.policy(c, modes, fallback, target=target)
        return (mode, ad, *self.apply(ad))

    @staticmethod
    def scatter_call(ops: str | dict[str, str], data: str, index: str, updates: str, **attrs: Any) -> ScatterCall:
        """The target scatter :meth:`reduce` calls: ``ops`` (or ``ops[reduction]``) with its data, index and updates
        keywords and ``attrs`` (an attribute given as a function: its value for the reduction)."""

        def call(d: str, i: str, u: str, reduction: str, out: str) -> list[Step]:
            kw = {k: a(reduction) if callable(a) else a for k, a in attrs.items()}
            op = ops if isinstance(ops, str) else ops[reduction]
            return [Step.op(op, out, {data: d, index: i, updates: u}, **kw)]

        return call

    def reduce(self, c: Canonical, call: Any, **kw: Any) -> None:
        """The scatter of ``c`` as :func:`~..plan.decompose_reduction` writes it with the target's ``call``."""
        self.tp.steps += decompose_reduction(c, self.names, call, **kw)

    def finish_gather(self, c: Canonical, result: str, ad: IndexAdaptation) -> None:
        """Mask the result (the op wrote ``result``) where fill indices were out of range."""
        if ad.post_mask is None:
            return
        # gather: the indices' dims sit at ``axis`` in the output (at 0 when batch dims lead both)
        lead = (c.axis or 0) if c.family == "gather" and c.batch_dims == 0 else 0
        # a negative axis: -axis-1 data dims follow the indices' dims
        where = {"lead": lead} if lead >= 0 else {"trail": -lead - 1}
        value = 0 if c.fill_value is None else c.fill_value  # the neutral API fills 0 by default
        self.adapt_to(c.out, "mask_result", result, ad.post_mask, **where, value=value,
                      why=f"out-of-range indices read the fill value {c.fill_value!r}")

    def flat_index_gather(self, c: Canonical, modes: dict[Any, Mode], qualname: str, data_kw: str,
                          axis_kw: str) -> None:
        """A gather (batch_dims 0) with an op that takes a 1-D index along an axis
        (``paddle.gather``, ``torch.index_select``): flatten the index, then give the
        axis the index's shape back."""
        _, ad, i, _ = self.indices(c, modes, target=qualname, cast=qualname)
        flat = self.adapt("flatten", "i", i, why=f"{qualname} takes a 1-D index")
        attrs: dict[str, Any] = {axis_kw: c.axis}
        y = self.op(qualname, self.names("y"), {data_kw: c.data, "index": flat}, **attrs)
        res = self.out_name(ad)
        self.adapt_to(res, "unflatten_index", y, i, axis=c.axis, why="give the axis the index's shape (a 0-d index "
                      "drops it)")
        self.finish_gather(c, res, ad)

    def along_axis_gather(self, c: Canonical, modes: dict[Any, Mode], fallback: Any, qualname: str, target: str,
                          attrs: Any = None, arr: str = "arr", broadcast: bool = False, cast: str = "",
                          axis_kw: str = "axis", **kw: Any) -> None:
        """A GatherElements with a ``take_along_axis`` (its data and axis keywords ``arr``, ``axis_kw``) that
        broadcasts (NumPy, JAX, MLX, torch; else ``broadcast``: broadcast first): a source that does not broadcast
        reads only the block the index covers. ``attrs(mode)``: the op's attributes besides the axis (else ``kw``);
        ``cast``: as :meth:`indices`."""
        mode, ad, i, _ = self.indices(c, modes, fallback, target=target, cast=cast)
        d = c.data
        if broadcast:
            i, d, _ = self.broadcast_elements(c, i, d, None, target)
        if not c.broadcast:
            d = self.adapt("slice_to_index", "d", d, i, axis=c.axis, why="the source does not broadcast: read only "
                           f"the block the index covers ({target} would broadcast a smaller index, or refuse it)")
        ax: dict[str, Any] = {axis_kw: c.axis}
        self.gather_op(c, ad, qualname, {arr: d, "indices": i}, **ax, **(attrs(mode) if attrs else kw))

    def gather_op(self, c: Canonical, ad: IndexAdaptation, qualname: str, args: dict[str, str], why: str = "",
                  **attrs: Any) -> None:
        """The gather op of a plan (into a fresh name when fill indices are masked after it), then that mask."""
        res = self.out_name(ad)
        self.op(qualname, res, args, why, **attrs)
        self.finish_gather(c, res, ad)

    def out_name(self, ad: IndexAdaptation) -> str:
        return self.names("y") if ad.post_mask else self.c.out

    # --------------------------------------------------------------------------------------- residuals

    def duplicates(self, c: Canonical, specified: bool, target: str) -> None:
        """The duplicate-overwrite residual of a target whose overwrite scatter is last-wins (specified or not)."""
        if not c.is_scatter or c.reduction != "none":
            return
        if c.duplicates == "first":
            self.residual("duplicates", "keeps the first update", f"keeps the last ({target})" if specified else
                          f"leaves the winner unspecified ({target}; CPU kernels are last-wins)")
            return
        self.keep(*duplicates_residual(c, specified, target))

    def meet(self, c: Canonical, source: str, target: str) -> None:
        """A reduction exact only without duplicates: a bounds policy can send two updates to one position."""
        if c.bounds in ("clip", "wrap", "drop"):
            for when in ("out_of_range", "negative") if c.negative == "bounds" else ("out_of_range",):
                self.residual(when, source, f"{target} when the policy makes two indices meet")

    # ------------------------------------------------------------------------------------ coordinates

    def _offsets(self, c: Canonical, modes: dict[Any, Mode], target: str) -> tuple[
            Canonical, IndexAdaptation, str, str | None]:
        """Element coordinates of ``c`` (broadcast first: ``target`` does not), ``target``'s index policy on them,
        and their row-major offsets into the flattened data (a tuple out of range maps past the end, so ``target``
        raises)."""
        i, d, u = self.broadcast_elements(c, c.indices, c.data, c.updates, target)
        c2, _ = self.element_coordinates(c.with_(indices=i, updates=u), i, d)
        _, ad, i, u = self.indices(c2, modes, target=f"{target} at flat offsets")
        off = self.adapt("ravel_tuples", "off", i, d, why=f"flat offsets (a tuple out of range maps past the "
                         f"end, so {target} raises)")
        return c2, ad, off, u

    def flat_gather(self, c: Canonical, modes: dict[Any, Mode], qualname: str, kws: tuple[str, str], why: str,
                    flatten: bool = False, **attrs: Any) -> None:
        """A gather as ``qualname`` (its data and index keywords ``kws``) at the flat offsets of the elements it
        reads, from the data (``flatten``: from the data flattened first)."""
        c2, ad, off, _ = self._offsets(c, modes, qualname)
        d = self.adapt("flatten", "flat", c2.data, why=why) if flatten else c2.data
        self.gather_op(c2, ad, qualname, {kws[0]: d, kws[1]: off}, why="" if flatten else why, **attrs)

    def scatter_tuples(self, c: Canonical, modes: dict[Any, Mode], fallback: Any, target: str, *, why: str = "",
                       always: bool = False, cast: Callable[[str], str] | None = None) -> tuple[
            Any, Canonical, str, str, str]:
        """A scatter as index tuples without batch dims for ``target``: indices broadcast (``broadcast=True``),
        element coordinates for an element-wise or batched scatter (``always``: every scatter; ``why``: why, for
        the element-wise one) else ``cast(indices)``, then ``target``'s index policy. Returns the mode, the
        tuple call, its data, indices and updates."""
        i, d, u0 = self.broadcast_elements(c, c.indices, c.data, c.updates, target)
        c = c.with_(indices=i, updates=u0)
        if always or c.family == "scatter_elements" or c.batch_dims:
            c, _ = self.element_coordinates(c, i, d, why=why if c.family == "scatter_elements" else "")
        elif cast is not None:
            c = c.with_(indices=cast(i))
        mode, _, idx, u = self.indices(c, modes, fallback, target=target)
        assert u is not None
        return mode, c, d, idx, u

    def flat_scatter(self, c: Canonical, modes: dict[Any, Mode], target: str, why: str,
                     scatter: Callable[[Canonical, str, str, str, str], None]) -> None:
        """An nd scatter ``c`` as ``scatter(coordinate call, flat data, offsets, updates, out)``, a 1-D scatter
        into the flattened data at flat offsets (``why``: why the data is flattened), reshaped back."""
        c2, _, off, u = self._offsets(c, modes, target)
        assert u is not None
        off1 = self.adapt("flatten", "off", off, why="1-D indices")
        u1 = self.adapt("flatten", "u", u, why="the updates in the same order")
        y = self.names("y")
        scatter(c2, self.adapt("flatten", "flat", c.data, why=why), off1, u1, y)
        self.adapt_to(c.out, "reshape_like", y, c.data, why="back to the data's shape")

    def nd_call(self, c: Canonical, *, why: str = "", cast: str = "") -> Canonical:
        """``c`` as an nd call without batch dims: element coordinates (``why``) for a gather along an axis or with
        batch dims, else ``c`` itself (its indices cast to int64 for the op ``cast`` names, as :meth:`index_cast`)."""
        if c.family == "gather" or c.batch_dims:
            return self.element_coordinates(c, c.indices, c.data, why=why)[0]
        return c.with_(indices=self.index_cast(c.indices, cast)) if cast else c

    def element_coordinates(self, c: Canonical, i: str, data: str, *, why: str = "") -> tuple[Canonical, str]:
        """Expand ``i`` to element coordinates (int64, one component per data dim) and return the
        equivalent canonical call over them: an nd call with ``batch_dims=0`` and ``k = rank(data)``."""
        fam = c.family
        if fam in ("gather_elements", "scatter_elements"):
            C = self.adapt("coordinates", "coords", i, why=why or "full index tuples for the element-wise index: its "
                           "own position on every other axis (docs/semantics.md#e4/docs/semantics.md#e16)", axis=c.axis)
        elif fam == "gather":
            C = self.adapt("take_coordinates", "coords", i, data, why=why or "element coordinates of the gather "
                           "(docs/semantics.md#e1/docs/semantics.md#e7: batch dims and the axis become index tuples)",
                           axis=c.axis, batch_dims=c.batch_dims)
        else:
            C = self.adapt("nd_coordinates", "coords", i, data, why=why or "element coordinates of the index "
                           "tuples (batch dims and trailing slice dims become components)",
                           batch_dims=c.batch_dims)
        nd = "scatter_nd" if c.is_scatter else "gather_nd"
        return c.with_(family=nd, indices=C, data=data, axis=None, batch_dims=0, broadcast=False), C

    def gather_coordinates(self, c: Canonical, target: str, why: str = "") -> Canonical:
        """A gather ``c`` as an nd gather at element coordinates (``why``), broadcast first (``target`` does not)."""
        i, d, _ = self.broadcast_elements(c, c.indices, c.data, None, target)
        return self.element_coordinates(c.with_(indices=i, data=d), i, d, why=why)[0]

    def broadcast_elements(self, c: Canonical, i: str, data: str, updates: str | None,
                           target: str) -> tuple[str, str, str | None]:
        """Broadcast indices (and data or updates) for a ``broadcast=True`` element-wise call."""
        if not c.broadcast:
            return i, data, updates
        n = self.adapt("broadcast_indices", "i", i, data, axis=c.axis, why=f"{target} does not broadcast the "
                       "indices against the data (docs/semantics.md#e14)")
        if updates is None:
            d = self.adapt("broadcast_data", "d", data, i, axis=c.axis, why="nor the data against the indices")
            return n, d, None
        u = self.adapt("broadcast_data", "u", updates, n, axis=None, why="updates take the indices' shape")
        return n, data, u


def settle(d: Any) -> Any:
    """(A target module's ``settle``, for targets that fill the finite limit exactly: TFLite, Keras, TF.)
    Description ``d`` with TF's empty max/min segment (the finite lowest/highest, its residual) filled exactly."""
    pre = [replace(s, attrs=(*s.attrs, ("finite", True))) if s.name == "full_rows" else s for s in d.pre]
    ok = FINITE_EMPTY in d.residuals
    return replace(d, pre=pre, residuals=[r for r in d.residuals if r != FINITE_EMPTY]) if ok else d
