"""The op facts ``explain`` uses, read in ONE place.

Everything ``explain`` needs to know about an op beyond the arrays it is given —
which parameter plays which role, where its index tuples live, which adapters run
before and after the primitive, which policy the op really applies — comes from
:func:`facts`. It reads the op's own record: its description
(``op.record.describe``: ``inputs``, ``pre`` / ``post`` adapter steps, the canonical
call with explicit policies), the argument roles read from that description's steps
(:meth:`~gatherscatter.dialects._record.Description.arg_roles`), ``op.record.fuzz``
(``npindex``: NumPy's index expressions), the registry's ``op.info`` and the
lowering's signature (:func:`inspect.signature`). Only ops registered without a
description (segment and embedding ops), and calls whose attributes the description
refuses, fall back to parameter names.

Nothing here (nor anywhere in ``explain``) branches on an op's name.

>>> from gatherscatter.dialects._registry import get_op
>>> f = facts(get_op("mxnet.gather_nd"))
>>> f.data, f.indices, f.index_axis
('data', 'indices', 0)
>>> facts(get_op("tensorflow.scatter_nd")).shape
'shape'
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Literal

from ..dialects._record import ROLE_NAMES
from ..dialects._registry import DialectOp

__all__ = ["Facts", "attribute_params", "facts", "parameters", "policy_text"]

# Parameter names read ONLY where no description states the roles (ops without one yet: segment and
# embedding ops; attributes the description refuses): every other call's roles come from its description.
DATA_NAMES, INDEX_NAMES, UPDATE_NAMES = ROLE_NAMES["data"], ROLE_NAMES["indices"], ROLE_NAMES["updates"]
ID_NAMES = ROLE_NAMES["ids"]

IndexForm = Literal["array", "sequence", "expression"]

#: the policy fields ``explain`` shows (those of a canonical description; the last two are not Policy fields)
POLICY_FIELDS = ("negative", "bounds", "reduction", "include_self", "duplicates", "mean_rounding",
                 "duplicates_specified", "fill_value")

# the description's argument naming the index form ("array" | "tuple") of ops taking NumPy's index forms
_FORM_ARG = "form"


@dataclass(frozen=True)
class Facts:
    """What ``explain`` knows of one op (for one set of attributes).

    ``data`` / ``indices`` / ``updates`` / ``shape``: the op's parameter playing that
    role (None: none); ``shape`` is set when the op has no data tensor and starts from
    a fresh tensor of that shape. ``index_axis``: the axis of the user's ``indices``
    holding the index tuples (0 for first-axis layouts; None: the last axis, or no
    tuples). ``index_form``: ``"array"`` (one index array), ``"sequence"`` (a tuple of
    index arrays, one per indexed axis), ``"expression"`` (NumPy's index forms: one
    array indexing the first axis, or a tuple of arrays). ``steps`` / ``post``: the
    adapter steps before and after the primitive, as ``(call, why)``. ``policy``: the
    op's own policy as ``{field: value}`` (from its canonical description), or None.
    """

    op: DialectOp
    inputs: tuple[str, ...]
    data: str | None
    indices: str
    updates: str | None
    shape: str | None
    index_axis: int | None
    index_form: IndexForm
    steps: tuple[tuple[str, str], ...] = ()
    post: tuple[tuple[str, str], ...] = ()
    policy: dict[str, Any] | None = None


def parameters(op: DialectOp) -> dict[str, inspect.Parameter]:
    """The op's own parameters (those of its lowering function), in order."""
    return dict(inspect.signature(op.lower).parameters)


def attribute_params(op: DialectOp) -> dict[str, inspect.Parameter]:
    """The op's parameters that are not tensors of a role (axis, mode, opset ...)."""
    f = facts(op)
    roles = {f.data, f.indices, f.updates, f.shape}
    return {n: p for n, p in parameters(op).items() if n not in roles}


def _source(op: DialectOp, attrs: dict[str, Any]) -> Any:
    """The op's own description (``op.record.describe``) with ``attrs`` (None: the op has none yet)."""
    from ..errors import GatherScatterError

    describe = op.record.describe
    sig = inspect.signature(describe).parameters
    # the op's own defaults for what the call leaves out (jax.take's mode=None is not the describer's)
    defaults = {
        n: p.default for n, p in parameters(op).items() if p.default is not inspect.Parameter.empty and n in sig
    }
    kw = {**defaults, **{k: v for k, v in attrs.items() if k in sig}}
    try:
        d = describe(**kw)
        # a sequence of primitives (Description.before) is not one drawing: explain shows the lowered primitive
        return None if d.before else d
    except (GatherScatterError, TypeError, ValueError):
        pass
    # required attributes missing (``dim`` of torch.gather): the roles do not depend on them
    for fill in (0, "sum"):
        trial = dict(kw)
        for n, p in sig.items():
            if p.default is inspect.Parameter.empty and n not in trial:
                trial[n] = 0 if n in ("dim", "axis") else fill
        try:
            d = describe(**trial)
            return None if d.before else d
        except (GatherScatterError, TypeError, ValueError):
            continue
    return None


def _first_required(op: DialectOp, params: list[str], taken: set[str]) -> str | None:
    """The first required parameter not yet given a role (an undescribed op's indices: torch.embedding's input)."""
    sig = parameters(op)
    return next((n for n in params if n not in taken and sig[n].default is inspect.Parameter.empty), None)


def _pick(names: tuple[str, ...], params: list[str], taken: set[str]) -> str | None:
    for n in params:
        if n in names and n not in taken:
            return n
    return None


def _steps(steps: Any) -> tuple[tuple[str, str], ...]:
    return tuple((s.describe(), s.why) for s in steps)


def _freeze(attrs: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in attrs.items()))


def facts(op: DialectOp, attrs: dict[str, Any] | None = None, *, index_tuple: bool = False) -> Facts:
    """The :class:`Facts` of ``op`` called with the non-tensor ``attrs`` (axis, mode ...).

    ``index_tuple``: the call passes a tuple of index arrays (NumPy's ``a[I0, I1]`` form);
    descriptions that take the index form as a ``form`` argument describe that form.
    """
    attrs = dict(attrs or {})
    if index_tuple:
        attrs[_FORM_ARG] = "tuple"
    try:
        return _facts_cached(op.info.qualname, _freeze(attrs), tuple(attrs.items()))
    except TypeError:  # unhashable attribute values: no cache
        return _facts(op, attrs)


@functools.lru_cache(maxsize=512)
def _facts_cached(qualname: str, key: Any, items: tuple[tuple[str, Any], ...]) -> Facts:
    from ..dialects._registry import get_op

    return _facts(get_op(qualname), dict(items))


def _facts(op: DialectOp, attrs: dict[str, Any]) -> Facts:
    params = list(parameters(op))
    src = _source(op, attrs)
    inputs = tuple(src.inputs) if src is not None else tuple(params)
    pre = list(src.pre) if src is not None else []
    if src is not None:  # the roles the description's steps give its inputs
        by_role: dict[str, str] = {}
        for name, role in src.arg_roles().items():
            by_role.setdefault(role, name)
        data_p, shape_p = by_role.get("data"), by_role.get("shape")
        # the ids of segment and embedding ops reach the primitive through adapters: found by name
        idx_p: str | None = by_role.get("indices") or _pick(ID_NAMES, [n for n in inputs if n in params], set())
        upd_p = by_role.get("updates") if op.info.kind == "scatter" else None
    else:  # no description (none yet, or it refuses these attributes): the differentiable tensor is the data
        taken: set[str] = set()
        diff = [n for n in op.info.differentiable if n in params]
        data_p = diff[0] if diff else _pick(DATA_NAMES, params, taken)
        shape_p = None
        if data_p is not None:
            taken.add(data_p)
        idx_p = _pick(INDEX_NAMES, params, taken) or _pick(ID_NAMES, params, taken) or _first_required(
            op, params, taken)
        if idx_p is not None:
            taken.add(idx_p)
        upd_p = _pick(UPDATE_NAMES, params, taken) if op.info.kind == "scatter" else None
    if idx_p is None:
        from ..errors import UnsupportedError

        raise UnsupportedError(f"{op.info.qualname} has no indices parameter (parameters: {', '.join(params)})")
    index_axis: int | None = None
    form: IndexForm = "array"
    policy: dict[str, Any] | None = None
    if src is not None:
        ax = src.layout.get("index_axis")
        index_axis = int(ax) if ax is not None and int(ax) != -1 else None
        on_idx = [s for s in pre if idx_p in dict(s.args).values()]
        if any(s.name == "stack_last" for s in on_idx):
            form = "sequence"
        elif any(s.name == "expand_dims" for s in on_idx) and (
            any(s.name == "broadcast_updates" for s in pre)
            or (op.info.kind == "gather" and src.layout.get("to_source") is not None)
        ):
            form = "expression"
        if op.record.fuzz.get("npindex"):  # ``.at[idx]``: NumPy's index forms (one array, or a tuple of arrays)
            form = "expression"
        c = src.canonical
        # a description with steps after the canonical call (JAX's fill masks) is a program: its canonical
        # policy alone is not the op's; the lowered policy is shown then
        policy = None if src.post else {k: getattr(c, k) for k in POLICY_FIELDS}
    return Facts(
        op=op,
        inputs=inputs,
        data=data_p,
        indices=idx_p,
        updates=upd_p,
        shape=shape_p,
        index_axis=index_axis,
        index_form=form,
        steps=_steps(pre),
        post=_steps(src.post) if src is not None else (),
        policy=policy,
    )


def policy_text(f: Facts, kind: str, lowered: Any) -> str:
    """The op's policy in one line: its canonical description's, else the lowered primitive's.

    The lowered policy can differ from what the op does to the caller's indices when the
    op adapts them first (``numpy.add_at`` wraps negatives itself, then lowers with
    ``negative=raise``): the canonical description states the op's behaviour.
    """
    p = f.policy
    if p is None:  # the lowered primitive's policy (a fill value None is the dtype's zero there)
        p = {k: getattr(getattr(lowered, k), "value", getattr(lowered, k)) for k in POLICY_FIELDS[:-2]}
        p.update(duplicates_specified=True, fill_value=0 if lowered.fill_value is None else lowered.fill_value)
    bounds = p["bounds"]
    if bounds == "fill":
        value = p["fill_value"] if p["fill_value"] is not None else lowered.fill_value
        bounds += f"({value!r})" if value is not None else "(0)"
    neg = p["negative"]
    parts = [f"bounds={bounds}", "negative=" + ("treated by bounds" if neg == "bounds" else neg)]
    parts.append(f"reduction={p['reduction']}")
    if kind == "scatter":
        if p["reduction"] == "none":
            dup = p["duplicates"]
            parts.append(f"duplicates={dup}" + ("" if p["duplicates_specified"] else " (the op leaves it unspecified)"))
        else:
            parts.append(f"include_self={p['include_self']}")
        if p["reduction"] == "mean":
            parts.append(f"mean_rounding={p['mean_rounding']}")
    else:
        parts.pop()
    return ", ".join(parts)
