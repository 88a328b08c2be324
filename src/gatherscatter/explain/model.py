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

import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..core.loops import Move, gather_trace, scatter_trace
from ..core.policy import Bounds, Negative, Policy
from ..core.shape import IndexSpec, gather_shape
from ..dialects._registry import Lowering
from ..errors import GatherScatterError
from .adapter import Binding
from .facts import facts, policy_text
from .lines import fmt_value as _fmt
from .lines import fmt_values
from .lines import tag as _tag

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
    accepts_negative: bool = True
    by_op: bool = False
    """The op itself moved the index before indexing (``numpy.add_at`` wraps, ``lax`` clamps)."""
    """Whether the op accepts negative indices (``[-size, size-1]``) or only ``[0, size-1]``."""

    @property
    def valid(self) -> str:
        """The indices the axis accepts: ``'[-3, 2]'`` or ``'[0, 2]'``."""
        lo = -self.size if self.accepts_negative else 0
        return f"[{lo}, {self.size - 1}]"


@dataclass(repr=False)
class Explanation:
    """Everything the renderers draw for one op call (see the module docstring).

    ``str()`` / ``repr()`` give the text explanation; Jupyter shows the picture
    (``_repr_svg_``, ``_repr_html_``).
    """

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
    # the op's own names of the tensors (``{"data": "params", "indices": "indices", ...}``)
    names: dict[str, str] = field(default_factory=dict)
    # adapter steps the op runs before / after the primitive: (call, why)
    steps: list[tuple[str, str]] = field(default_factory=list)
    post_steps: list[tuple[str, str]] = field(default_factory=list)
    # the axis of the shown indices holding index tuples (None: the last one)
    index_axis: int | None = None
    include_self: bool = True
    # the op reads the shown indices in another shape (expand_dims, flatten ...): formulas name that I'
    indices_reshaped: bool = False
    _groups: dict[tuple[str, Pos], int] | None = field(default=None, repr=False, compare=False)

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

    def text(self, width: int = 100, *, loop: bool = True) -> str:
        """The plain-text explanation at ``width`` columns."""
        from .lines import plain
        from .text import explanation_lines

        return plain(explanation_lines(self, width, loop=loop))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text(loop=False).rstrip("\n")

    def svg(self) -> str | None:
        """The picture as an SVG document (None: too large to draw; see ``text()``)."""
        from .svg import svg_text
        from .text import too_large

        return None if too_large(self) is not None else svg_text(self)

    def png(self) -> bytes | None:
        """The picture as PNG bytes (needs Pillow; None: too large to draw)."""
        from .png import png_bytes
        from .text import too_large

        return None if too_large(self) is not None else png_bytes(self)

    def _repr_svg_(self) -> str | None:
        svg = self.svg()
        return None if svg is None else svg.split("?>", 1)[-1].lstrip()

    def _repr_html_(self) -> str:
        from html import escape

        svg = self._repr_svg_()
        body = svg if svg is not None else ""
        details = escape(self.text(loop=True))
        return (
            f'<div class="gatherscatter-explanation">{body}'
            f"<details><summary>text</summary><pre>{details}</pre></details></div>"
        )

    def name(self, tensor: str) -> str:
        """The op's own name of a tensor role (``'params'`` for TF's data)."""
        return self.names.get(tensor, tensor)

    def colour_groups(self) -> dict[tuple[str, Pos], int]:
        """``(tensor, position) -> colour group`` for every coloured cell.

        A group is what one index (tuple) moved: for a gather, the data cells read
        through the same set of index cells (a whole slice for Gather / GatherND rows,
        one cell for the element ops), the output cells they reached and those index
        cells; for a scatter, the updates sent by the same index cells and the output
        cells they landed on. Groups are numbered in row-major order of their first
        source cell.
        """
        if self._groups is not None:
            return self._groups
        out: dict[tuple[str, Pos], int] = {}
        if not self.mapped:
            return out
        self._groups = out
        key: dict[Pos, frozenset[Pos]] = {}
        if self.kind == "gather":
            readers: dict[Pos, set[Pos]] = {}
            for o, s in self.sources.items():
                if s is not None:
                    readers.setdefault(s, set()).update(self.index_of.get(o, []))
            key = {s: frozenset(v) for s, v in readers.items()}
            src_tensor = "data"
        else:
            for u in set(self.landing) | {p for ps in self.contributors.values() for p in ps}:
                key[u] = frozenset(self.update_index.get(u, []))
            src_tensor = "updates"
        number: dict[frozenset[Pos], int] = {}
        for cell in sorted(key):
            number.setdefault(key[cell], len(number))
        for cell, k in key.items():
            out[(src_tensor, cell)] = number[k]
        if self.kind == "gather":
            for o, s in self.sources.items():
                if s is not None:
                    out[("output", o)] = number[key[s]]
        else:
            for o, ups in self.contributors.items():
                w = self.winner(o)
                out[("output", o)] = number[key[w if w is not None else ups[-1]]]
        index_groups: dict[Pos, set[int]] = {}
        for k, n in number.items():
            for i in k:
                index_groups.setdefault(i, set()).add(n)
        for i, ns in index_groups.items():
            if len(ns) == 1:
                out[("indices", i)] = next(iter(ns))
        return out

    def tag_of(self, tensor: str, pos: Pos) -> str | None:
        """The letter tag of a cell's colour group (None: not coloured)."""
        n = self.colour_groups().get((tensor, pos))
        return None if n is None else _tag(n)

    def collision_text(self, out: Pos) -> str:
        """What happened at an output cell several updates reached, every contributor in order.

        ``'A=10, C=30: duplicates=last keeps C=30, A is overwritten'``;
        ``'5 (data) + A=10 + C=30 = 45'``; ``'max(A=1, B=7) = 7'`` (``include_self=False``).
        """
        assert self.updates is not None
        assert self.output is not None
        ups = self.contributors.get(out, [])
        named = [f"{self.tag_of('updates', u) or '?'}={_fmt(self.updates[u])}" for u in ups]
        result = _fmt(self.output[out])
        if self.reduction == "none":
            w = self.winner(out)
            wi = ups.index(w) if w in ups else len(ups) - 1
            losers = [n for i, n in enumerate(named) if i != wi]
            return f"{', '.join(named)}: duplicates={self.duplicates} keeps {named[wi]}; " + (
                f"{', '.join(losers)} {'is' if len(losers) == 1 else 'are'} overwritten"
            )
        terms = list(named)
        start = self.initial.get(out)
        if self.include_self and start is not None and self.data is not None:
            terms.insert(0, f"{_fmt(self.data[start])} ({self.name('data')})")
        sym = {"add": " + ", "sub": " - ", "mul": " * "}.get(self.reduction)
        body = sym.join(terms) if sym is not None else f"{self.reduction}({', '.join(terms)})"
        tail = "" if self.include_self or self.data is None else f" ({self.name('data')} value not included)"
        return f"{body} = {result}{tail}"

    def group_count(self) -> int:
        """How many colour groups the picture uses."""
        return len(set(self.colour_groups().values()))

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


def shape_formula(
    kind: str,
    low: Lowering,
    out_shape: tuple[int, ...] | None,
    reshaped: bool,
    names: dict[str, str] | None = None,
    index_axis: int | None = None,
    shown_indices: tuple[int, ...] | None = None,
) -> list[str]:
    """The output-shape rule of the lowered primitive with the numbers filled in, in the op's own names.

    ``index_axis=0`` (MXNet): the index tuples run down the first axis of the caller's
    indices, so the rule reads ``indices.shape[1:]`` and ``M = indices.shape[0]``.
    """
    nm = names or {}
    D, Ix, U = nm.get("data", "data"), nm.get("indices", "indices"), nm.get("updates", "updates")
    user_d = D
    if reshaped:
        D = f"{D}'"
    spec = low.spec
    ds, ishape = tuple(low.data.shape), tuple(low.indices.shape)
    g = gather_shape(ds, ishape, spec)
    dname = D
    lines: list[str] = []
    first_axis = spec.vector and index_axis == 0 and spec.batch == 0
    relaid = shown_indices is not None and tuple(shown_indices) != ishape and not first_axis
    if relaid:
        Ix = f"{Ix}'"
    if spec.elementwise:
        rule = f"{Ix}.shape = {_shape(ishape)}"
    else:
        b, a, k = spec.batch, spec.axis, spec.depth
        parts = []
        nums = []
        if b:
            parts.append(f"{D}.shape[:{b}]")
            nums.append(_shape(ds[:b]))
        if a > b:
            parts.append(f"{D}.shape[{b}:{a}]")
            nums.append(_shape(ds[b:a]))
        if first_axis:
            parts.append(f"{Ix}.shape[1:]")
        elif spec.vector:
            parts.append(f"{Ix}.shape[{b or ''}:-1]")
        else:
            parts.append(f"{Ix}.shape[{b}:]" if b else f"{Ix}.shape")
        nums.append(_shape(ishape[b:-1] if spec.vector else ishape[b:]))
        parts.append(f"{D}.shape[{'M' if first_axis else a + k}:]")
        nums.append(_shape(ds[a + k :]))
        rule = " + ".join(parts) + " = " + " + ".join(nums) + f" = {_shape(g)}"
    if first_axis:
        lines.append(f"M = {Ix}.shape[0] = {spec.depth}: each column of {Ix} (down the first axis) is one index tuple")
    elif spec.vector:
        lines.append(
            f"k = {Ix}.shape[-1] = {spec.depth}: each row of {Ix} (along the last axis) is one index tuple; "
            f"batch_dims = {spec.batch}"
        )
    if relaid:
        lines.append(f"{Ix} = {nm.get('indices', 'indices')} as the op reads it: shape {_shape(ishape)}")
    if reshaped:
        lines.append(f"{D} = {user_d} as the op lowers it: shape {_shape(ds)}")
    if kind == "gather":
        lines.insert(0, f"output.shape = {rule}")
        if out_shape is not None and tuple(out_shape) != g:
            lines.append(f"then reshaped by the op to {_shape(tuple(out_shape))}")
    else:
        if reshaped and out_shape is not None and tuple(out_shape) != ds:
            lines.insert(0, f"output.shape = {user_d}.shape = {_shape(tuple(out_shape))} (written as {D})")
        else:
            lines.insert(0, f"output.shape = {dname}.shape = {_shape(ds)}")
        lines.insert(1, f"{U}.shape = {rule}")
    return lines


# ---------------------------------------------------------------- index analysis


def _bad_indices(
    low: Lowering, to_display: dict[Pos, Pos] | None, shown: np.ndarray[Any, Any], op_negative: str | None
) -> list[BadIndex]:
    """Every negative or out-of-range index and its fate, at its shown position with its shown value.

    The shown value can differ from the lowered one when the op adapts its indices first
    (``numpy.add_at`` wraps negatives, then lowers with ``negative=raise``): the outcome is
    what happens to the shown value.
    """
    spec, pol = low.spec, low.policy
    ind = np.asarray(low.indices)
    sizes = tuple(low.data.shape[spec.axis : spec.axis + spec.depth])
    out: list[BadIndex] = []
    if ind.dtype.kind not in "iu" or ind.size == 0 or ind.size > 100_000:
        return out
    shown_ok = shown.dtype.kind in "iu" or (shown.dtype.kind == "f" and shown.size > 0)
    for pos in np.ndindex(*ind.shape):
        low_v = int(ind[pos])
        j = pos[-1] if spec.vector else 0
        if j >= len(sizes):
            continue
        s = sizes[j]
        at = to_display.get(pos, pos) if to_display is not None else pos
        v = low_v
        if shown_ok and at is not None and len(at) == shown.ndim:
            try:
                v = int(shown[at])
            except (IndexError, ValueError, OverflowError):
                v = low_v
        adapted = v != low_v
        accepts_negative = pol.negative is Negative.WRAP or (adapted and v < 0 and low_v == v + s)
        if op_negative in ("raise",) and not adapted:
            accepts_negative = False
        if 0 <= v < s:
            continue
        axis = spec.axis + j
        if adapted and 0 <= low_v < s:
            how = "wraps" if low_v == v + s else ("clipped" if low_v in (0, s - 1) else "moves")
            out.append(BadIndex(at, v, s, axis, f"{how} to {low_v}", negative_only=v < 0 and low_v == v + s,
                                accepts_negative=accepts_negative, by_op=True))
            continue
        v = low_v
        if -s <= v < 0 and pol.negative is Negative.WRAP:
            out.append(BadIndex(at, v, s, axis, f"wraps to {v + s}", negative_only=True))
            continue
        if v < 0 and pol.negative is Negative.RAISE:
            out.append(BadIndex(at, v, s, axis, "error (negative indices are refused)", accepts_negative=False))
            continue
        c = v + s if (v < 0 and pol.negative is Negative.WRAP) else v
        b = pol.bounds
        if b is Bounds.RAISE or (s == 0 and b in (Bounds.WRAP, Bounds.CLIP)):
            outcome = "error"
        elif b is Bounds.WRAP:
            outcome = f"wraps to {c % s}"
        elif b is Bounds.CLIP:
            outcome = f"clipped to {min(max(c, 0), s - 1)}"
        elif b is Bounds.FILL:
            outcome = "filled" if low.primitive == "gather" else "dropped"
        else:
            outcome = "dropped"
        out.append(BadIndex(at, v, s, axis, outcome, accepts_negative=pol.negative is Negative.WRAP))
    return out


_VERB = {
    "wraps": "wraps negative indices",
    "clipped": "clips out-of-range indices",
    "moves": "moves out-of-range indices",
}


def _reshape_map(low_shape: tuple[int, ...], shown_shape: tuple[int, ...]) -> dict[Pos, Pos]:
    m: dict[Pos, Pos] = {}
    for flat, pos in enumerate(np.ndindex(*low_shape)):
        m[pos] = tuple(int(x) for x in np.unravel_index(flat, shown_shape))
    return m


def _layout_map(
    low_idx: np.ndarray[Any, Any], shown: np.ndarray[Any, Any], index_axis: int | None
) -> dict[Pos, Pos] | None:
    """Lowered index position -> shown position, from the op's index layout (None: identity; {}: unknown)."""
    li = np.asarray(low_idx)
    if li.shape == shown.shape and index_axis is None:
        return None
    if index_axis is not None and shown.ndim >= 1:
        moved = np.moveaxis(np.empty(shown.shape, dtype=np.int8), index_axis, -1).shape
        if tuple(moved) == tuple(li.shape):
            perm = list(range(shown.ndim))
            ax = perm.pop(index_axis)
            perm.append(ax)  # lowered axis n is shown axis perm[n]
            m: dict[Pos, Pos] = {}
            for pos in np.ndindex(*li.shape):
                q = [0] * shown.ndim
                for n, pv in enumerate(pos):
                    q[perm[n]] = pv
                m[pos] = tuple(q)
            return m
        if li.shape == shown.shape:
            return None
    if li.size == shown.size and li.size:
        if li.shape == shown.shape:
            return None
        return _reshape_map(tuple(li.shape), tuple(shown.shape))
    return {}


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


def _array(value: Any) -> np.ndarray[Any, Any] | None:
    """``value`` as an array to draw (None when NumPy cannot read it: ragged lists; the op says why)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(value)
    except (ValueError, TypeError):
        return None


def _agrees(low: Lowering, shown: np.ndarray[Any, Any], m: dict[Pos, Pos]) -> bool:
    """Whether ``m`` puts every lowered index on a shown index of the same value (or one the op adapted)."""
    li = np.asarray(low.indices)
    if li.dtype.kind not in "iu" or shown.dtype.kind not in "iuf":
        return True
    spec = low.spec
    sizes = tuple(low.data.shape[spec.axis : spec.axis + spec.depth])
    for pos, at in m.items():
        lv = int(li[pos])
        try:
            sv = shown[at]
        except IndexError:
            return False
        if float(sv) == lv:
            continue
        j = pos[-1] if spec.vector else 0
        size = sizes[j] if j < len(sizes) else 0
        if not (float(sv) < 0 or float(sv) >= size or not float(sv).is_integer()):
            return False
    return True


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


def _numbers_kept(num: Lowering, data: np.ndarray[Any, Any] | None, updates: np.ndarray[Any, Any] | None) -> bool:
    """Whether the scatter sees the cell numbers themselves (moved, broadcast, cast), not values computed from them
    (MLX's ``at[].divide`` scatters reciprocals, JAX's ``at[].divide`` multiplies into ones)."""
    pairs = [(num.updates, updates), (num.data, data)]
    for got, given in pairs:
        if got is None or given is None:
            continue
        shape = tuple(np.shape(given))
        if any(_id_to_pos(v, shape) is None for v in np.unique(np.asarray(got).reshape(-1))):
            return False
    return True


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
        data = _array(binding.kwargs[binding.data_param])
    elif data_shown is not None:
        data = _array(data_shown)
    updates = _array(binding.kwargs[binding.updates_param]) if binding.updates_param is not None else None
    raw_idx = binding.kwargs.get(binding.indices_param)  # None: an optional index argument left out
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            shown_idx = binding.indices_array
        readable = raw_idx is not None and shown_idx.dtype.kind in "biuf"
    except (ValueError, TypeError, KeyError):
        readable = False
    if not readable:  # an index expression (slice, Ellipsis ...): shown as written, then as lowered
        shown_idx = np.array(" ".join(repr(raw_idx).split())[:60], dtype=object)
    f = facts(op, binding.attrs, index_tuple=binding.index_form == "tuple")
    names = {"data": f.data or (f"zeros({f.shape})" if f.shape else "data"), "indices": f.indices, "output": "output"}
    if f.updates is not None:
        names["updates"] = f.updates
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
        names=names,
        steps=list(f.steps),
        post_steps=list(f.post),
        index_axis=f.index_axis if binding.index_form == "array" else None,
    )
    if f.shape is not None:
        shape_value = binding.kwargs.get(f.shape)
        if shape_value is not None:
            exp.notes.append(f"no data tensor: the output starts from zeros of shape {fmt_values(shape_value)}")
    try:
        low = binding.lower()
    except GatherScatterError as exc:
        exp.error = short_error(exc, 400, op=info.qualname)
        exp.loop = loop_text(op.lower.__doc__)
        return exp
    exp.label = low.ctx.label
    exp.index_vector = low.spec.vector
    pol: Policy = low.policy
    exp.policy = policy_text(f, info.kind, pol)
    exp.reduction = pol.reduction.value
    exp.duplicates = pol.duplicates.value
    exp.include_self = pol.include_self
    exp.loop = loop_text(op.lower.__doc__) or _generic_loop(info.kind, low.spec, pol)
    if binding.index_form == "tuple":
        exp.notes.append(f"{f.indices} is a tuple of index arrays: shown stacked, one index tuple per row")

    if not readable:
        exp.notes.append(f"{f.indices} = {shown_idx[()]}: shown as the positions the op reads")
        exp.indices = shown_idx = np.asarray(low.indices)
    # a tuple of index arrays the op reads as one flat position each (NumPy's a[I0, I1] on a flattened a):
    # every component of a shown tuple row drove that position
    collapsed = (
        binding.index_form == "tuple"
        and readable
        and shown_idx.ndim >= 1
        and not low.spec.vector
        and tuple(np.shape(low.indices)) == tuple(shown_idx.shape[:-1])
        and shown_idx.shape[-1] > 1
    )
    idx_map = None if collapsed else _layout_map(low.indices, shown_idx, exp.index_axis)
    if collapsed:
        exp.indices_reshaped = True
        exp.notes.append(f"the op reads each row of {f.indices} (one index tuple) as one flat position")
    if idx_map and not _agrees(low, shown_idx, idx_map):
        idx_map = _index_map(low.indices, shown_idx) or {}
    if idx_map and exp.index_axis == 0:
        exp.notes.append(f"{f.indices} holds one index tuple per column (down the first axis), as given")
    op_negative = (f.policy or {}).get("negative")
    exp.bad = [] if collapsed else _bad_indices(low, idx_map if idx_map else None, shown_idx, op_negative)
    moved = sorted({b.outcome.split()[0] for b in exp.bad if b.by_op})
    if moved:
        exp.policy += f"; before that the op itself {' and '.join(_VERB[m] for m in moved)}"
    if idx_map == {}:
        exp.notes.append(f"{f.indices} shown as the op lowers them (shape {list(low.indices.shape)})")
        exp.indices = np.asarray(low.indices)
        exp.index_axis = None
        idx_map = None
    try:
        out = low.run()
    except GatherScatterError as exc:
        exp.error = short_error(exc, 400, op=info.qualname)
    else:
        exp.output = out
        if low.result is not None or out.size == 0:
            # nothing is read or written: the op checks no index (every framework skips empty work)
            exp.bad = [
                replace(b, outcome="not checked: the op reads nothing (empty output)") if b.outcome.startswith("error")
                else b
                for b in exp.bad
            ]
    out_shape = tuple(exp.output.shape) if exp.output is not None else None
    reshaped = (data is None and f.shape is None) or (data is not None and tuple(low.data.shape) != tuple(data.shape))
    exp.indices_reshaped = collapsed or (
        tuple(exp.indices.shape) != tuple(np.shape(low.indices)) and exp.index_axis is None
    )
    exp.shape_formula = shape_formula(
        info.kind, low, out_shape, reshaped, names, exp.index_axis, tuple(exp.indices.shape)
    )
    if exp.error is not None or exp.output is None or low.result is not None:
        return exp
    if low.indices.size > max_trace or low.data.size > max_trace:
        exp.notes.append("too many cells to follow one by one")
        return exp
    if info.kind == "scatter" and updates is None:
        exp.notes.append("the op writes one value, not an updates tensor: the cells it wrote are not followed")
        return exp
    num = _numbered(binding, data, updates)
    if num is None:
        exp.notes.append("the op refused numbered cells: the source of each cell is not shown")
        return exp
    if info.kind == "scatter" and not _numbers_kept(num, data, updates):
        exp.notes.append("the op computes new values from its data or updates before the scatter (a reciprocal, "
                         "ones): the source of each cell is not shown")
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
        if collapsed:
            return [ip + (j,) for j in range(exp.indices.shape[-1])]
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
                exp.update_index.setdefault(u, [])
                exp.update_index[u] += [c for c in shown_index(mv.index_pos) if c not in exp.update_index[u]]
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
