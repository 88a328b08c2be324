"""Python emitters for the adapters, per target (NumPy, the neutral API, torch).

Each emitter returns one expression. Index-size helpers read the addressed
axis size(s) from the data at run time, so the code is rank- and shape-generic.
"""

from __future__ import annotations

from typing import Any

from .codegen import emitter
from .ir import Step

# --------------------------------------------------------------------------------- NumPy-like syntax


def _size(data: str, attrs: dict[str, Any], idx: str, np_: str) -> str:
    """The addressed size: ``data.shape[axis]`` or an array of ``data.shape[b:b+k]``."""
    if attrs.get("axis") is not None:
        return f"{data}.shape[{attrs['axis']}]"
    b = attrs.get("batch_dims") or 0
    return f"{np_}.asarray({data}.shape[{b}:{b} + {idx}.shape[-1]])"


def _numpy_like(target: str, np_: str) -> None:
    @emitter(target, "moveaxis")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.moveaxis({a['x']}, {k['source']}, {k['destination']})"

    @emitter(target, "expand_dims")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.expand_dims({a['x']}, {k['axis']})"

    @emitter(target, "flatten")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.reshape({a['x']}, -1)"

    @emitter(target, "cast")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.asarray({a['x']}).astype({np_}.{k['dtype']})"

    @emitter(target, "normalize_negative")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        i = a["i"]
        return f"{np_}.where({i} < 0, {i} + {_size(a['data'], k, i, np_)}, {i})"

    @emitter(target, "clip_index")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        i = a["i"]
        return f"{np_}.clip({i}, 0, {np_}.maximum({_size(a['data'], k, i, np_)} - 1, 0))"

    @emitter(target, "wrap_index")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        i = a["i"]
        return f"{np_}.mod({i}, {_size(a['data'], k, i, np_)})"

    @emitter(target, "valid_mask")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        i, size = a["i"], _size(a["data"], k, a["i"], np_)
        ok = f"(({i} >= 0) & ({i} < {size}))"
        return ok if k.get("axis") is not None else f"{np_}.all({ok}, axis=-1)"

    @emitter(target, "mask_result")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        y, m = a["y"], a["mask"]
        shaped = f"{m}.reshape((1,) * {k['lead']} + {m}.shape + (1,) * ({y}.ndim - {k['lead']} - {m}.ndim))"
        value = repr(k.get("value")) if k.get("value") is not None or not k.get("reduction") else \
            _identity(np_, y, k["reduction"])
        return f"{np_}.where({shaped}, {y}, {np_}.asarray({value}, dtype={y}.dtype))"

    @emitter(target, "zeros")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.zeros(tuple({a['shape']}), dtype={a['like']}.dtype)"

    @emitter(target, "zeros_like")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.zeros_like({a['x']})"

    @emitter(target, "ones_like")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.ones_like({a['x']})"

    @emitter(target, "identity_like")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.full_like({a['x']}, {_identity(np_, a['x'], k['reduction'])})"

    @emitter(target, "negative")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.negative({a['x']})"

    @emitter(target, "scale")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"({a['x']} * {np_}.asarray({k['alpha']!r}, dtype={a['x']}.dtype))"

    @emitter(target, "divide_counts")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        t, c, d = a["total"], a["count"], a["data"]
        safe = f"{np_}.where({c} == 0, 1, {c})"
        if k.get("rounding", "floor") == "floor":
            q = f"({t} // {safe} if {t}.dtype.kind in 'iu' else ({t} / {safe}).astype({t}.dtype))"
        else:
            q = f"({np_}.trunc({t} / {safe}).astype({t}.dtype) if {t}.dtype.kind in 'iu' else " \
                f"({t} / {safe}).astype({t}.dtype))"
        return f"{np_}.where({c} == 0, {d}, {q})"

    @emitter(target, "slice_like")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{a['x']}[tuple(slice(0, n) for n in {a['like']}.shape)]"

    @emitter(target, "full_updates")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.full({a['i']}.shape, {k['value']!r}, dtype={a['data']}.dtype)"

    @emitter(target, "stack_last")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"{np_}.stack({np_}.broadcast_arrays(*{a['seq']}), axis=-1)"

    @emitter(target, "unstack_last")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        return f"tuple({a['i']}[..., j] for j in range({a['i']}.shape[-1]))"

    @emitter(target, "coordinates")
    def _(s: Step, a: dict[str, str], k: dict[str, Any]) -> str:
        i, ax = a["i"], k["axis"]
        return f"{np_}.stack([{i} if d == {ax} % {i}.ndim else g for d, g in enumerate({np_}.indices({i}.shape))], -1)"


def _identity(np_: str, x: str, reduction: str) -> str:
    """Code for the neutral element of ``reduction`` in ``x``'s dtype."""
    if reduction in ("add", "sub", "mean"):
        return "0"
    if reduction == "mul":
        return "1"
    big = "min" if reduction == "max" else "max"
    inf = "-np.inf" if reduction == "max" else "np.inf"
    return (f"({np_}.iinfo({x}.dtype).{big} if {x}.dtype.kind in 'iu' else "
            f"{reduction == 'min'} if {x}.dtype.kind == 'b' else {inf})")


_numpy_like("numpy", "np")
_numpy_like("gatherscatter", "np")
