"""The explanation model: which source cell went to which output cell, and why.

:func:`explain` runs one op call and records, in the caller's coordinates:

* for a gather, the data cell each output cell was read from (None: filled);
* for a scatter, the output cell each update landed on (None: dropped), in the
  order the updates are applied, which updates collided on one cell and which one
  the policy kept (or that a reduction combined them all);
* every negative or out-of-range index and what the op's policy did with it;
* the output-shape formula with the numbers filled in, and the equivalent loop.

It is pure (no printing): the text, terminal, SVG and PNG renderers draw it.

How cells are followed through an op: the op is lowered once with the real
arguments (to trace the primitive with :func:`~gatherscatter.core.loops.gather_trace`
/ :func:`~gatherscatter.core.loops.scatter_trace`) and once more with the data and
updates replaced by cell numbers (``1, 2, ...`` as float64, the same shapes); the
numbered lowering tells which caller cell sits at each position of the arrays the
primitive sees, whatever reshaping, transposing or copying the dialect did, and the
op's ``post`` step applied to numbered primitive positions tells where each
primitive output cell ends up in the framework's output.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..core.loops import Move, gather_trace, scatter_trace
from ..core.policy import Bounds, Negative, Policy
from ..core.shape import IndexSpec, gather_shape
from ..dialects._registry import Lowering
from ..errors import GatherScatterError
from .adapter import Binding

__all__ = ["BadIndex", "Explanation", "Pos", "explain", "loop_text", "short_error"]

Pos = tuple[int, ...]


@dataclass(frozen=True)
class BadIndex:
    """A negative or out-of-range index entry and what the op's policy did with it.

    ``position``: in the displayed indices (including the tuple component);
    ``outcome``: ``'wraps to 2'``, ``'clipped to 2'``, ``'filled'``, ``'dropped'``,
    ``'error'``; ``negative_only``: the index was negative but valid (it wrapped).
    """

    position: Pos
    value: int
    size: int
    axis: int
    outcome: str
    negative_only: bool = False


@dataclass
class Explanation:
    """Everything the renderers draw for one op call (see the module docstring)."""

    op: str
    label: str
    kind: Literal["gather", "scatter"]
    family: str
    attrs: dict[str, Any]
    data: np.ndarray[Any, Any] | None
    indices: np.ndarray[Any, Any]
    index_vector: bool
    updates: np.ndarray[Any, Any] | None
    output: np.ndarray[Any, Any] | None = None
    error: str | None = None
    policy: str = ""
    reduction: str = "none"
    duplicates: str = "last"
    # gather: output cell -> data cell (None: filled); scatter: see contributors
    sources: dict[Pos, Pos | None] = field(default_factory=dict)
    # gather: output cell -> the index cells (every tuple component) that drove it
    index_of: dict[Pos, list[Pos]] = field(default_factory=dict)
    # scatter: output cell -> update cells landing there, in application order
    contributors: dict[Pos, list[Pos]] = field(default_factory=dict)
    # scatter: update cell -> output cell (None: dropped)
    landing: dict[Pos, Pos | None] = field(default_factory=dict)
    # scatter: update cell -> the index cells (every tuple component) that sent it
    update_index: dict[Pos, list[Pos]] = field(default_factory=dict)
    # scatter: output cell -> the data cell its starting value came from (None: a constant)
    initial: dict[Pos, Pos | None] = field(default_factory=dict)
    bad: list[BadIndex] = field(default_factory=list)
    shape_formula: list[str] = field(default_factory=list)
    loop: str = ""
    notes: list[str] = field(default_factory=list)
    mapped: bool = False

    # ---- derived views used by every renderer ----

    def source_cells(self) -> list[Pos]:
        """The cells that get a colour: data cells read (gather) or update cells (scatter), row-major."""
        if self.kind == "gather":
            cells = {p for p in self.sources.values() if p is not None}
        else:
            cells = set(self.landing) | {p for ps in self.contributors.values() for p in ps}
        return sorted(cells)

    def colour_index(self) -> dict[Pos, int]:
        """Source cell -> colour number (0, 1, ...), in row-major order of the source cells."""
        return {p: n for n, p in enumerate(self.source_cells())}

    def winner(self, out: Pos) -> Pos | None:
        """The update whose value an output cell keeps (scatter without reduction)."""
        ups = self.contributors.get(out, [])
        if not ups or self.reduction != "none":
            return None
        return ups[0] if self.duplicates == "first" else ups[-1]

    def collisions(self) -> dict[Pos, list[Pos]]:
        """Output cells that more than one update landed on."""
        return {o: u for o, u in self.contributors.items() if len(u) > 1}

    def index_keys(self) -> dict[Pos, list[Pos]]:
        """Index cell (as displayed) -> the source cells it moved."""
        out: dict[Pos, list[Pos]] = {}
        if self.kind == "gather":
            for o, cells in self.index_of.items():
                s = self.sources.get(o)
                if s is not None:
                    for i in cells:
                        out.setdefault(i, []).append(s)
        else:
            for u, cells in self.update_index.items():
                for i in cells:
                    out.setdefault(i, []).append(u)
        return out

    @property
    def ok(self) -> bool:
        return self.error is None


def short_error(exc: BaseException, limit: int = 160, *, op: str | None = None) -> str:
    """``'IndexOutOfRangeError: indices[1] = 3 is out of range ...'``, shortened.

    With ``op`` (``'onnx.Gather'``), the message's own leading op label
    (``'onnx.Gather (opset 28, Gather-13): '``) is dropped: the caller shows the op already.
    """
    msg = " ".join(str(exc).split())
    if op is not None and (msg.startswith(op) or msg.startswith(op.split(".")[0] + ".")):
        head, sep, rest = msg.partition("): ")
        if not sep or len(head) > 80:
            head, sep, rest = msg.partition(": ")
        if sep and len(head) <= 80:
            msg = rest
    if len(msg) > limit:
        msg = msg[: limit - 1].rstrip() + "…"
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


# ---------------------------------------------------------------- loops and formulas


def loop_text(lower_doc: str | None) -> str:
    """The ``Equivalent loop::`` literal block of an op's docstring, dedented ('' when absent)."""
    if not lower_doc:
        return ""
    lines = lower_doc.splitlines()
    starts = [n for n, ln in enumerate(lines) if ln.strip().endswith("Equivalent loop::")]
    if not starts:
        return ""
    n = starts[0]
    head = len(lines[n]) - len(lines[n].lstrip())
    block: list[str] = []
    for line in lines[n + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= head:
            break
        block.append(line.rstrip())
    while block and not block[-1].strip():
        block.pop()
    while block and not block[0].strip():
        block.pop(0)
    indent = min((len(ln) - len(ln.lstrip()) for ln in block if ln.strip()), default=0)
    return "\n".join(ln[indent:] for ln in block)


def _generic_loop(kind: str, spec: IndexSpec, policy: Policy) -> str:
    """A loop written from the lowered spec, for ops whose docstring has none."""
    a, b, k = spec.axis, spec.batch, spec.depth
    if spec.elementwise:
        head = "for j in ndindex(indices.shape):"
        cell = f"data[j[:{a}] + (norm(indices[j]),) + j[{a + 1}:]]"
        lhs, rhs = ("Y[j]", cell) if kind == "gather" else (cell, "updates[j]")
    elif spec.vector:
        head = f"for i in ndindex(indices.shape[:-1]), r in ndindex(data.shape[{b + k}:]):"
        cell = f"data[i[:{b}] + tuple(norm(x) for x in indices[i]) + r]"
        lhs, rhs = ("Y[i + r]", cell) if kind == "gather" else (cell, "updates[i + r]")
    else:
        head = (
            f"for p in ndindex(data.shape[:{a}]), i in ndindex(indices.shape[{b}:]), "
            f"r in ndindex(data.shape[{a + 1}:]):"
        )
        cell = f"data[p + (norm(indices[p[:{b}] + i]),) + r]"
        lhs, rhs = ("Y[p + i + r]", cell) if kind == "gather" else (cell, "updates[p + i + r]")
    lines = [] if kind == "gather" else ["Y = copy(data)"]
    lines += [head, f"    {lhs} = {rhs}", f"# norm(x): negative={policy.negative.value}, bounds={policy.bounds.value}"]
    return "\n".join(lines)


def _shape(t: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in t) + ("," if len(t) == 1 else "") + ")"


def shape_formula(kind: str, low: Lowering, out_shape: tuple[int, ...] | None, reshaped: bool) -> list[str]:
    """The output-shape rule of the lowered primitive with the numbers filled in."""
    spec = low.spec
    ds, ishape = tuple(low.data.shape), tuple(low.indices.shape)
    g = gather_shape(ds, ishape, spec)
    dname = "data" if not reshaped else "data (as the op lowers it)"
    lines: list[str] = []
    if spec.elementwise:
        rule = f"indices.shape = {_shape(ishape)}"
    else:
        b, a, k = spec.batch, spec.axis, spec.depth
        parts = []
        nums = []
        if b:
            parts.append(f"data.shape[:{b}]")
            nums.append(_shape(ds[:b]))
        if a > b:
            parts.append(f"data.shape[{b}:{a}]")
            nums.append(_shape(ds[b:a]))
        if spec.vector:
            parts.append(f"indices.shape[{b or ''}:-1]")
        else:
            parts.append(f"indices.shape[{b}:]" if b else "indices.shape")
        nums.append(_shape(ishape[b:-1] if spec.vector else ishape[b:]))
        parts.append(f"data.shape[{a + k}:]")
        nums.append(_shape(ds[a + k :]))
        rule = " + ".join(parts) + " = " + " + ".join(nums) + f" = {_shape(g)}"
    if spec.vector:
        lines.append(f"k = indices.shape[-1] = {spec.depth} index components per tuple; batch_dims = {spec.batch}")
    if reshaped:
        lines.append(f"data as the op lowers it: shape {_shape(ds)}")
    if kind == "gather":
        lines.insert(0, f"output.shape = {rule}")
        if out_shape is not None and tuple(out_shape) != g:
            lines.append(f"then reshaped by the op to {_shape(tuple(out_shape))}")
    else:
        lines.insert(0, f"output.shape = {dname}.shape = {_shape(ds)}")
        lines.insert(1, f"updates.shape = {rule}")
    return lines


# ---------------------------------------------------------------- index analysis


def _bad_indices(low: Lowering, to_display: dict[Pos, Pos] | None) -> list[BadIndex]:
    spec, pol = low.spec, low.policy
    ind = np.asarray(low.indices)
    sizes = tuple(low.data.shape[spec.axis : spec.axis + spec.depth])
    out: list[BadIndex] = []
    if ind.dtype.kind not in "iu" or ind.size == 0 or ind.size > 100_000:
        return out
    for pos in np.ndindex(*ind.shape):
        v = int(ind[pos])
        j = pos[-1] if spec.vector else 0
        if j >= len(sizes):
            continue
        s = sizes[j]
        if 0 <= v < s:
            continue
        shown = to_display.get(pos, pos) if to_display is not None else pos
        axis = spec.axis + j
        if -s <= v < 0 and pol.negative is Negative.WRAP:
            out.append(BadIndex(shown, v, s, axis, f"wraps to {v + s}", negative_only=True))
            continue
        if v < 0 and pol.negative is Negative.RAISE:
            out.append(BadIndex(shown, v, s, axis, "error (negative indices are refused)"))
            continue
        c = v + s if (v < 0 and pol.negative is Negative.WRAP) else v
        b = pol.bounds
        if s == 0 or b is Bounds.RAISE:
            outcome = "error"
        elif b is Bounds.WRAP:
            outcome = f"wraps to {c % s}"
        elif b is Bounds.CLIP:
            outcome = f"clipped to {min(max(c, 0), s - 1)}"
        elif b is Bounds.FILL:
            outcome = "filled" if low.primitive == "gather" else "dropped"
        else:
            outcome = "dropped"
        out.append(BadIndex(shown, v, s, axis, outcome))
    return out


def _index_map(low_idx: np.ndarray[Any, Any], shown: np.ndarray[Any, Any]) -> dict[Pos, Pos] | None:
    """Lowered index position -> displayed index position (None: unknown)."""
    li = np.asarray(low_idx)
    if li.shape == shown.shape and np.array_equal(li, shown):
        return None  # identity
    if li.size and shown.size and np.shares_memory(li, shown) and shown.flags.c_contiguous:
        base = shown.__array_interface__["data"][0]
        start = li.__array_interface__["data"][0]
        item = shown.itemsize
        m: dict[Pos, Pos] = {}
        for pos in np.ndindex(*li.shape):
            off = start - base + sum(p * st for p, st in zip(pos, li.strides, strict=True))
            flat = off // item
            if off % item or not 0 <= flat < shown.size:
                return {}
            m[pos] = tuple(int(x) for x in np.unravel_index(flat, shown.shape))
        return m
    return {}


# ---------------------------------------------------------------- cell following


def _ids(shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape, dtype=np.int64))
    return np.arange(1, n + 1).astype(dtype).reshape(shape)


def _id_to_pos(v: Any, shape: tuple[int, ...]) -> Pos | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    n = int(np.prod(shape, dtype=np.int64))
    if not f.is_integer() or not 1 <= f <= n:
        return None
    return tuple(int(x) for x in np.unravel_index(int(f) - 1, shape))


def _numbered(
    binding: Binding, data: np.ndarray[Any, Any] | None, updates: np.ndarray[Any, Any] | None
) -> Lowering | None:
    """The op lowered with data and updates replaced by cell numbers (None if the op refuses)."""
    for dtype in (np.float64, np.int64):
        d = _ids(data.shape, dtype) if data is not None else None
        u = _ids(updates.shape, dtype) if updates is not None else None
        try:
            return binding.with_arrays(data=d, updates=u).lower()
        except (GatherScatterError, ValueError, TypeError, IndexError):
            continue
    return None


def _out_map(num: Lowering, prim_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> dict[Pos, Pos] | None:
    """Primitive output position -> framework output position."""
    if num.post is None:
        return None if prim_shape == out_shape else {}
    try:
        q = np.asarray(num.post(_ids(prim_shape, np.float64)))
    except Exception:  # a post step that cannot take numbers: no mapping
        return {}
    if tuple(q.shape) != tuple(out_shape):
        return {}
    m: dict[Pos, Pos] = {}
    for y in np.ndindex(*q.shape):
        p = _id_to_pos(q[y], prim_shape)
        if p is None:
            return {}
        m[p] = y
    return m


def explain(
    binding: Binding,
    *,
    data_shown: np.ndarray[Any, Any] | None = None,
    max_trace: int = 20_000,
) -> Explanation:
    """Run ``binding`` and build its :class:`Explanation` (never raises for op errors)."""
    op = binding.op
    info = op.info
    data = None
    if binding.data_param is not None:
        data = np.asarray(binding.kwargs[binding.data_param])
    elif data_shown is not None:
        data = np.asarray(data_shown)
    updates = np.asarray(binding.kwargs[binding.updates_param]) if binding.updates_param is not None else None
    if binding.index_form == "array":
        arr = np.asarray(binding.kwargs[binding.indices_param])
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)
        binding = replace(binding, kwargs={**binding.kwargs, binding.indices_param: arr})
    shown_idx = binding.indices_array
    exp = Explanation(
        op=info.qualname,
        label=info.qualname,
        kind=info.kind,
        family=info.family,
        attrs=binding.attrs,
        data=data,
        indices=shown_idx,
        index_vector=False,
        updates=updates,
        notes=list(binding.notes),
    )
    try:
        low = binding.lower()
    except GatherScatterError as exc:
        exp.error = short_error(exc, 400, op=info.qualname)
        exp.loop = loop_text(op.lower.__doc__)
        return exp
    exp.label = low.ctx.label
    exp.index_vector = low.spec.vector
    pol: Policy = low.policy
    exp.policy = pol.describe()
    exp.reduction = pol.reduction.value
    exp.duplicates = pol.duplicates.value
    exp.loop = loop_text(op.lower.__doc__) or _generic_loop(info.kind, low.spec, pol)
    if binding.index_form == "tuple":
        exp.notes.append("indices shown stacked: one index tuple per row of the last axis")

    idx_map = _index_map(low.indices, shown_idx)
    if idx_map:
        exp.notes.append(
            f"the op reads these indices rearranged to shape {list(low.indices.shape)}, index tuples on the last "
            "axis: the shape formula uses that"
        )
    exp.bad = _bad_indices(low, idx_map if idx_map else None)
    if idx_map == {}:
        exp.notes.append(f"indices shown as the op lowers them (shape {list(low.indices.shape)})")
        exp.indices = np.asarray(low.indices)
        idx_map = None
    try:
        out = low.run()
    except GatherScatterError as exc:
        exp.error = short_error(exc, 400, op=info.qualname)
    else:
        exp.output = out
    out_shape = tuple(exp.output.shape) if exp.output is not None else None
    reshaped = data is None or tuple(low.data.shape) != tuple(data.shape)
    exp.shape_formula = shape_formula(info.kind, low, out_shape, reshaped)
    if exp.error is not None or exp.output is None or low.result is not None:
        return exp
    if low.indices.size > max_trace or low.data.size > max_trace:
        exp.notes.append("too many cells to follow one by one")
        return exp
    num = _numbered(binding, data, updates)
    if num is None:
        exp.notes.append("the op refused numbered cells: the source of each cell is not shown")
        return exp
    spec = low.spec
    if info.kind == "gather":
        prim_shape = gather_shape(tuple(low.data.shape), tuple(low.indices.shape), spec)
    else:
        prim_shape = tuple(low.data.shape)
    omap = _out_map(num, prim_shape, tuple(exp.output.shape))
    if omap == {}:
        exp.notes.append("the op's final step does not keep cells apart: sources are not shown")
        return exp

    def out_pos(p: Pos) -> Pos:
        return p if omap is None else omap[p]

    def shown_index(ip: Pos) -> list[Pos]:
        cells = [ip[:-1] + (j,) for j in range(spec.depth)] if spec.vector else [ip]
        return [c if idx_map is None else idx_map.get(c, c) for c in cells]

    dshape = tuple(data.shape) if data is not None else ()
    try:
        if info.kind == "gather":
            moves: list[Move] = gather_trace(low.data, low.indices, spec, pol, low.ctx)
            for mv in moves:
                assert mv.target is not None
                y = out_pos(mv.target)
                src = None if mv.source is None else _id_to_pos(num.data[mv.source], dshape)
                exp.sources[y] = src
                exp.index_of[y] = shown_index(mv.index_pos)
        else:
            assert updates is not None
            assert num.updates is not None
            ushape = tuple(updates.shape)
            moves = scatter_trace(low.data, low.indices, spec, pol, low.ctx)
            for y in np.ndindex(*prim_shape):
                exp.initial[out_pos(y)] = _id_to_pos(num.data[y], dshape) if data is not None else None
            for mv in moves:
                assert mv.source is not None
                u = _id_to_pos(num.updates[mv.source], ushape)
                if u is None:
                    continue
                tgt = None if mv.target is None else out_pos(mv.target)
                exp.landing[u] = tgt
                exp.update_index[u] = shown_index(mv.index_pos)
                if tgt is not None:
                    exp.contributors.setdefault(tgt, []).append(u)
    except (GatherScatterError, KeyError, IndexError):
        exp.notes.append("cells could not be followed through this op")
        exp.sources.clear()
        exp.contributors.clear()
        exp.landing.clear()
        return exp
    exp.mapped = True
    return exp
