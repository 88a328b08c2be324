"""Calling any registered op with neutral arguments (data, indices, updates, axis, ...).

The ``table`` and ``compare`` commands run one probe through every op of a family;
each op names its arguments in its framework's vocabulary (``params``, ``input``,
``x``, ``a``; ``index``, ``idx``; ``src``, ``values``; ``dim``). :func:`bind` maps
the neutral roles onto an op's parameters as :func:`~gatherscatter.explain.facts.facts`
states them:

* an op with no data tensor (``tensorflow.scatter_nd(indices, updates, shape)``)
  gets the probe data's shape (the op starts from zeros);
* a role held by an unusual parameter (``mxnet.scatter_nd(data, indices, shape)``:
  its ``data`` *is* the updates) follows the facts;
* ops taking a tuple of index arrays (``torch.index_put``, the JAX ``.at[]`` and
  NumPy ``ufunc.at`` function forms) get an index array with tuples on its last
  axis split into that tuple;
* ops with a required parameter no probe provides (JAX ``lax`` dimension numbers,
  ``torch.scatter_reduce``'s ``reduce``) raise :class:`ProbeError` naming it.

Nothing here imports a framework or branches on an op's name.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..dialects._registry import DialectOp, Lowering
from ..errors import UnsupportedError
from .facts import DATA_NAMES, INDEX_NAMES, UPDATE_NAMES, facts

__all__ = [
    "AXIS_NAMES",
    "DATA_NAMES",
    "INDEX_NAMES",
    "UPDATE_NAMES",
    "Binding",
    "ProbeError",
    "Roles",
    "bind",
    "bind_call",
    "missing_params",
    "parameters",
]

AXIS_NAMES = ("axis", "dim")


class ProbeError(Exception):
    """The op cannot take this probe; ``str(exc)`` says why (shown in tables)."""


@dataclass(frozen=True)
class Roles:
    """Neutral arguments: arrays by role, attributes by neutral name (``axis``, ``batch_dims``...)."""

    data: Any = None
    indices: Any = None
    updates: Any = None
    attrs: Mapping[str, Any] = field(default_factory=dict)


def parameters(op: DialectOp) -> dict[str, inspect.Parameter]:
    """The op's own parameters (those of its lowering function), in order."""
    from .facts import parameters as _parameters

    return _parameters(op)


@dataclass(frozen=True)
class Binding:
    """One op call: keyword arguments in the op's vocabulary, and which parameter holds which role.

    ``data_param`` is None when the op has no data input (``tf.scatter_nd``);
    ``index_form`` is ``"tuple"`` when the op takes a tuple of index arrays.
    """

    op: DialectOp
    kwargs: Mapping[str, Any]
    data_param: str | None
    indices_param: str
    updates_param: str | None
    index_form: Literal["array", "tuple"] = "array"
    notes: tuple[str, ...] = ()
    shape_param: str | None = None

    def _args(self) -> tuple[list[Any], dict[str, Any]]:
        kw = dict(self.kwargs)
        args: list[Any] = []
        for name, p in parameters(self.op).items():
            if p.kind is inspect.Parameter.POSITIONAL_ONLY and name in kw:
                args.append(kw.pop(name))
        return args, kw

    def lower(self) -> Lowering:
        """The op's lowering for these arguments (raises what the op raises)."""
        args, kw = self._args()
        return self.op.lower(*args, **kw)

    def call(self) -> np.ndarray[Any, Any]:
        """Run the op."""
        return self.lower().run()

    def with_arrays(self, data: Any = None, updates: Any = None) -> Binding:
        """The same call with other data and/or updates arrays (same shapes), e.g. cell ids."""
        kw = dict(self.kwargs)
        if data is not None and self.data_param is not None:
            kw[self.data_param] = data
        if updates is not None and self.updates_param is not None:
            kw[self.updates_param] = updates
        return replace(self, kwargs=kw)

    @property
    def attrs(self) -> dict[str, Any]:
        """The keyword arguments that are not arrays of a role (axis, opset, mode ...)."""
        roles = {self.data_param, self.indices_param, self.updates_param, self.shape_param}
        return {k: v for k, v in self.kwargs.items() if k not in roles}

    @property
    def indices_array(self) -> np.ndarray[Any, Any]:
        """The indices as one array (a tuple of index arrays stacked on a last axis)."""
        value = self.kwargs[self.indices_param]
        if self.index_form == "tuple":
            return np.stack([np.asarray(v) for v in np.broadcast_arrays(*value)], axis=-1)
        return np.asarray(value)


def _pick(params: Mapping[str, inspect.Parameter], names: tuple[str, ...], taken: set[str]) -> str | None:
    for name in params:
        if name in names and name not in taken:
            return name
    return None


def _split_tuple(indices: Any) -> tuple[np.ndarray[Any, Any], ...]:
    arr = np.asarray(indices)
    if arr.ndim == 0:
        return (arr,)
    return tuple(arr[..., j] for j in range(arr.shape[-1]))


def bind(
    op: DialectOp,
    roles: Roles,
    *,
    version: Any = None,
    index_form: Literal["neutral", "native"] = "neutral",
) -> Binding:
    """Map neutral roles onto ``op``'s parameters; :class:`ProbeError` when impossible.

    ``index_form="neutral"``: ``roles.indices`` is one array with index tuples on its last
    axis (split into a tuple for ops that take one); ``"native"``: it is passed as the op
    takes it (for a tuple op, a list whose items are the index arrays).
    Unknown attributes raise :class:`ProbeError` naming the op's parameters.
    """
    params = parameters(op)
    qual = op.info.qualname
    kwargs: dict[str, Any] = {}
    notes: list[str] = []
    taken: set[str] = set()
    try:
        f = facts(op, dict(roles.attrs))
    except UnsupportedError as exc:  # no parameter plays the indices (an op without a description yet ...)
        raise ProbeError(str(exc).removeprefix(f"{qual} has ")) from None
    data_p, idx_p, shape_p = f.data, f.indices, f.shape
    upd_p = f.updates if op.info.kind == "scatter" else None
    for p in (data_p, idx_p, upd_p, shape_p):
        if p is not None:
            taken.add(p)
    if data_p is not None:
        kwargs[data_p] = roles.data
    if shape_p is not None and roles.data is not None:
        kwargs[shape_p] = list(np.shape(roles.data))
        notes.append("no data input: starts from zeros of the data's shape")
    form: Literal["array", "tuple"] = "array"
    if f.index_form != "array":
        form = "tuple"
        if index_form == "neutral":
            kwargs[idx_p] = _split_tuple(roles.indices)
            notes.append("index tuples passed as a tuple of index arrays")
        elif isinstance(roles.indices, tuple) or f.index_form == "sequence":
            kwargs[idx_p] = tuple(np.asarray(v) for v in roles.indices)
        else:  # NumPy's one-array form: rows along the first axis
            form = "array"
            kwargs[idx_p] = roles.indices
    else:
        kwargs[idx_p] = roles.indices
    if upd_p is not None:
        if roles.updates is None:
            raise ProbeError(f"{upd_p} is required (no updates given)")
        kwargs[upd_p] = roles.updates
    elif op.info.kind == "scatter" and "value" in params and roles.updates is not None:
        # a scatter of one scalar (torch.index_fill): the first update is the value
        kwargs["value"] = np.asarray(roles.updates).reshape(-1)[0].item() if np.size(roles.updates) else 0
        taken.add("value")
        notes.append("takes one scalar value: the first update")

    for name, value in roles.attrs.items():
        target = name
        if name not in params and name in AXIS_NAMES:
            target = next((n for n in AXIS_NAMES if n in params), name)
        if target not in params or target in taken:
            raise ProbeError(f"no {name} parameter")
        kwargs[target] = value
        taken.add(target)

    vkw = op.info.version_kw
    if version is not None:
        if vkw is None:
            raise ProbeError(f"{qual} has no versions to select")
        kwargs[vkw] = version
        taken.add(vkw)

    for name in missing_params(params, kwargs):  # a required attribute with named values: the record's probe
        value = _probed_value(op, name)
        if value is not None:
            kwargs[name] = value
            notes.append(f"{name}={value!r} (the first value the op's record probes)")
    missing = missing_params(params, kwargs)
    if missing:
        raise ProbeError(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} required")
    return Binding(op, kwargs, data_p, idx_p, upd_p, form, tuple(notes), shape_p)


def _probed_value(op: DialectOp, name: str) -> Any:
    """The value of the required attribute ``name`` in the first variant of ``op``'s record that sets it, when the
    attribute takes finitely many named values (``x.at[].apply``'s ``func``, ``ufunc.at``'s ``ufunc``); else None."""
    rec = op.record
    try:
        attr = rec.attr(name)
    except KeyError:
        return None
    if not attr.values:
        return None
    return next((v[name] for v in rec.variants if name in v), attr.values[0])


def missing_params(params: Mapping[str, inspect.Parameter], given: Mapping[str, Any]) -> list[str]:
    """The required parameters (no default, not ``*args`` / ``**kwargs``) that ``given`` leaves out, in order."""
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [n for n, p in params.items() if p.default is inspect.Parameter.empty and p.kind not in variadic
            and n not in given]


def bind_call(op: DialectOp, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Binding:
    """A :class:`Binding` for a call written in the op's own terms (``op(*args, **kwargs)``)."""
    sig = inspect.signature(op.lower)
    bound = sig.bind(*args, **kwargs)
    values = dict(bound.arguments)
    f = facts(op)
    roles = {f.data, f.indices, f.updates, f.shape}
    f = facts(op, {k: v for k, v in values.items() if k not in roles})
    form: Literal["array", "tuple"] = "array"
    if f.index_form == "sequence" or (f.index_form == "expression" and isinstance(values.get(f.indices), tuple)):
        form = "tuple"
    data_p = f.data if f.data in values else None
    upd_p = f.updates if f.updates in values else None
    return Binding(op, values, data_p, f.indices, upd_p, form, (), f.shape if f.shape in values else None)
