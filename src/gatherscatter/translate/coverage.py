"""``docs/translation.md``: how translation works, and the coverage matrix, generated.

The matrix is computed, not written: every registered op (with the variants its
record names as worth probing) translated into every target framework (the page
says what a cell means). Regenerate with ``gatherscatter translate --matrix --out
docs/translation.md``; a test fails when the committed page is stale, and the test
suite runs ``Translation.verify`` on every pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..dialects._registry import FAMILIES, ops
from ..errors import GatherScatterError
from .model import WHEN

__all__ = ["FAMILIES", "TARGET_ORDER", "Cell", "calls", "coverage", "translation_markdown"]

TARGET_ORDER = ("onnx", "torch", "tensorflow", "tflite", "jax", "lax", "numpy", "paddle", "openvino", "mxnet",
                "caffe2", "keras", "mlx", "gatherscatter")
"""The matrix's columns."""

#: the page's text before the tables (``{legend}``: the condition letters), kept as Markdown beside this module
INTRO = Path(__file__).with_name("translation_intro.md")

#: one letter per residual condition, in the order of :data:`~.model.WHEN`
CONDITION_CODE = {"negative": "N", "out_of_range": "R", "duplicates": "D", "dtype": "T", "float_index": "F",
                  "empty": "E", "nonfinite": "X", "scalar": "S"}


@dataclass
class Cell:
    """One (source call, target) result."""

    status: str  # "exact" | "closest" | "none"
    conditions: list[str] = field(default_factory=list)  # residual conditions (WHEN keys) besides "always"
    reason: str = ""
    ops: list[str] = field(default_factory=list)


def calls() -> list[tuple[str, dict[str, Any]]]:
    """The matrix's rows: every op, with the variants its record names as worth probing (or its defaults)."""
    rows: list[tuple[str, dict[str, Any]]] = []
    for op in ops():
        q = op.info.qualname
        # its defaults when it names no variants, unless it needs attributes nobody chose a representative value for
        variants = list(op.record.variants) or ([] if any(a.required for a in op.record.attrs) else [{}])
        # the op's own version keyword is translate's ``op_version`` (``version`` is the target's)
        own = "op_version" if op.info.version_kw == "version" else None
        rows += [(q, {(own if own and k == "version" else k): x for k, x in v.items()}) for v in variants]
    return rows


def _cell(op: str, attrs: dict[str, Any], target: str) -> Cell:
    from . import translate

    try:
        t = translate(op, to=target, **attrs)
    except GatherScatterError as e:
        return Cell("none", reason=" ".join(str(e).split()))
    # input conditions only (the legend's): device/version/invalid residuals are in t.divergences
    conds = [w for w in WHEN if w in CONDITION_CODE and any(r.when == w for r in t.residuals)]
    if t.exact:
        return Cell("exact", conds, ops=t.ops)
    why = [f"source {r.source}, target {r.target}" + (f" ({r.note})" if r.note else "")
           for r in t.residuals if r.when == "always"] + list(t.plan.notes)
    if not why:  # the planner marked it inexact: its conditional residuals say where
        why = [str(r) for r in t.plan.residuals] or ["the target planner marks it inexact"]
    return Cell("closest", conds, "; ".join(why), ops=t.ops)


def coverage() -> list[tuple[str, dict[str, Any], dict[str, Cell]]]:
    """Every row of :func:`calls` with its cell per target of :data:`TARGET_ORDER`."""
    return [(op, attrs, {tg: _cell(op, attrs, tg) for tg in TARGET_ORDER}) for op, attrs in calls()]


def _call_text(op: str, attrs: dict[str, Any]) -> str:
    def lit(k: str, v: Any) -> str:
        if k == "dimension_numbers":  # the non-default fields only
            fields = {f: getattr(v, f) for f in v._fields if getattr(v, f) != ()}
            return f"{type(v).__name__}({', '.join(f'{f}={x!r}' for f, x in fields.items())})"
        return repr(v)

    return f"`{op}({', '.join(f'{k}={lit(k, v)}' for k, v in attrs.items())})`"


def _esc(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def translation_markdown() -> str:
    """The whole ``docs/translation.md`` page."""
    from . import frameworks

    legend = ", ".join(f"`{CONDITION_CODE[w]}` {text}" for w, text in WHEN.items() if w in CONDITION_CODE)
    out = [INTRO.read_text(encoding="utf-8").replace("{legend}", legend)]
    rows = coverage()
    targets = [t for t in TARGET_ORDER if t in frameworks()]
    notes: dict[str, int] = {}

    def render(c: Cell) -> str:
        codes = " ".join(CONDITION_CODE[w] for w in c.conditions)
        if c.status == "exact":
            return f"✓ {codes}".rstrip()
        n = notes.setdefault(c.reason, len(notes) + 1)
        return f"{'≈' if c.status == 'closest' else '✗'} {codes} [{n}]".replace("  ", " ")

    fam_of = {op.info.qualname: op.info.family for op in ops()}
    families = {f: [r for r in rows if fam_of.get(r[0]) == f] for f in FAMILIES}
    families = {f: fam_rows for f, fam_rows in families.items() if fam_rows}
    rule = "|---|" + "---|" * len(targets)
    out += ["### By family", "", "Source calls per family translated exactly / closest / not at all.", "",
            "| family | " + " | ".join(targets) + " |", rule]
    for fam, fam_rows in families.items():
        counts = [[r[2][tg].status for r in fam_rows] for tg in targets]
        out.append(f"| {fam} ({len(fam_rows)}) | " + " | ".join(
            f"{st.count('exact')} / {st.count('closest')} / {st.count('none')}" for st in counts) + " |")
    out.append("")
    for fam, fam_rows in families.items():
        out += [f"### {fam}", "", "| source call | " + " | ".join(targets) + " |", rule]
        out += [f"| {_call_text(op, attrs)} | " + " | ".join(render(cells[tg]) for tg in targets) + " |"
                for op, attrs, cells in fam_rows]
        out.append("")
    if notes:
        out += ["### Notes", "", *[f"{n}. {_esc(text)}" for text, n in notes.items()], ""]
    described = {r[0] for r in rows}
    missing = [op.info.qualname for op in ops() if op.info.qualname not in described]
    if missing:
        out += ["### Ops without a source description", "", ", ".join(f"`{q}`" for q in missing) + ".", ""]
    return "\n".join(out)

