"""The shared parts of the ``jax.lax`` ops' descriptions (:mod:`gatherscatter.dialects._record`).

The dimension numbers must be one of the canonical configurations (see :mod:`gatherscatter.dialects.jax._describe`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.context import OpContext
from ....errors import UnsupportedError
from ..._record import Description, Residual, Step, canonical
from .._common import GatherScatterMode
from .._describe import _INT, _mode
from ._dnums import parse_scatter_dnums


def _ctx(op: str) -> OpContext:
    return OpContext(op=f"translate {op}")


def _unsupported(op: str, dn: Any, why: str) -> UnsupportedError:
    return UnsupportedError(
        f"translate {op}: dimension numbers {tuple(dn)} are not a canonical gather/scatter ({why}); covered: "
        "nd (index tuples on the last axis, leading batching dims, whole trailing windows), take/rows along one "
        "axis (one collapsed dim, whole windows elsewhere) and element-wise (every other dim batching)"
    )


def _axis_windows(op: str, dn: Any, win: tuple[int, ...], a: int, where: str) -> int | None:
    """The take/rows form along axis ``a``: the window dims must be ``0..a-1`` then, after the index dims, the rest;
    returns the number of index dims before the trailing windows (None without trailing windows)."""
    if tuple(win[:a]) != tuple(range(a)):
        raise _unsupported(op, dn, f"the window dims before the axis must lead the {where}")
    tail = tuple(win[a:])
    q_i = tail[0] - a if tail else None
    if tail and (q_i is None or q_i < 0 or tail != tuple(range(a + q_i, a + q_i + len(tail)))):
        raise _unsupported(op, dn, f"the index dims must sit at the axis in the {where}")
    return q_i


def _expand_last(data: str, index: str, extra: tuple[str, ...] = ()) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        args = {data: canon["data"], index: np.expand_dims(canon["indices"], -1)}
        for name in extra:
            args[name] = canon["updates"]
        return args

    return mapper


def _lax_scatter(op: str, reduction: str, dimension_numbers: Any, mode: Any) -> Description:
    dn = parse_scatter_dnums(_ctx(op), dimension_numbers)
    m = _mode(op, mode)
    if m is GatherScatterMode.ONE_HOT:
        raise UnsupportedError(f"translate {op}: mode='one_hot' is only defined for jnp.take_along_axis")
    attrs: dict[str, Any] = {"dimension_numbers": dimension_numbers, "mode": mode}
    win, ins, smap, ob, sb = (tuple(f) for f in dn)
    k, b = len(smap), len(ob)
    r = len(win) + len(ins) + b
    kw: dict[str, Any] = dict(reduction=reduction, negative="bounds",
                              bounds="clip" if m is GatherScatterMode.CLIP else "drop",
                              duplicates_specified=reduction != "none")
    res = [Residual("empty", "returns operand unchanged when the updates or the operand are empty",
                    "checks the indices")]
    layout: dict[str, Any] = {"index_dtypes": _INT, "nonfinite": 0.1 if reduction in ("max", "min") else 0.0}
    inputs = ("operand", "scatter_indices", "updates")
    # element-wise first: it also matches a batched nd form when the axis is the last dim
    if k == 1 and ins == smap and not win:
        a = smap[0]
        others = tuple(d for d in range(r) if d != a)
        if ob == others and sb == others:
            pre = [Step.adapt("squeeze", "idx", "scatter_indices", axis=-1, why="one-component index vectors")]
            c = canonical("scatter_elements", data="operand", indices="idx", updates="updates", axis=a, **kw)
            layout.update(full_index=True, rank=(r, r),
                          to_source=_expand_last("operand", "scatter_indices", ("updates",)))
            return Description(op, attrs, inputs, c, pre=pre, residuals=res, layout=layout)
    if k and smap == tuple(range(b, b + k)) and ins == smap and ob == tuple(range(b)) and sb == ob:
        n_win = r - b - k
        if win and win != tuple(range(win[0], win[0] + n_win)):
            raise _unsupported(op, dn, "the window dims must be the trailing update dims")
        layout.update(k=k, rank=(r, r))
        if win:
            q = win[0] + 1
            if q - 1 - b < 0:
                raise _unsupported(op, dn, "the window dims overlap the batch dims")
            layout["index_ndim"] = (q - 1 - b, q - 1 - b)
        c = canonical("scatter_nd", data="operand", indices="scatter_indices", updates="updates", batch_dims=b, **kw)
        return Description(op, attrs, inputs, c, residuals=res, layout=layout)
    if k == 1 and ins == smap and not ob and not sb:
        a = smap[0]
        q_i = _axis_windows(op, dn, win, a, "updates")
        pre = [Step.adapt("squeeze", "idx", "scatter_indices", axis=-1, why="one-component index vectors"),
               Step.adapt("moveaxis", "operand0", "operand", source=a, destination=0,
                          why="rows along the axis: move it first (docs/semantics.md#e17)"),
               Step.adapt("moveaxis_block", "upd", "updates", "idx", "operand", axis=a,
                          why="the updates' index dims sit at the axis: move them first")]
        c = canonical("scatter_nd", data="operand0", indices="scatter_indices", updates="upd", out="y", **kw)
        post = [Step.adapt("moveaxis", "out", "y", source=0, destination=a, why="move the axis back")]
        layout.update(k=1, rank=(r, r), to_source=_rows_args(a))
        if q_i is not None:
            layout["index_ndim"] = (q_i, q_i)
        return Description(op, attrs, inputs, c, pre=pre, post=post, residuals=res, layout=layout)
    raise _unsupported(op, dn, "no canonical family matches")


def _rows_args(a: int) -> Any:
    def mapper(canon: dict[str, Any], rng: Any) -> dict[str, Any]:
        d, i, u = canon["data"], canon["indices"], canon["updates"]
        q = i.ndim - 1
        perm = list(range(q, q + a)) + list(range(q)) + list(range(q + a, u.ndim))
        return {"operand": np.ascontiguousarray(np.moveaxis(d, 0, a)), "scatter_indices": i,
                "updates": np.ascontiguousarray(np.transpose(u, perm))}

    return mapper
