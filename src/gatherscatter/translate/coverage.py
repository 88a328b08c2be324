"""``docs/translation.md``: how translation works, and the coverage matrix, generated.

The matrix is computed, not written: every registered op with a source
description is translated (with representative attributes, :data:`VARIANTS`)
into every target framework, and each cell says what the planner produced:
an exact translation (with the input conditions under which a listed
divergence still applies), the closest translation (with the reason it is not
exact), or none (with the reason). Regenerate with
``gatherscatter translate --matrix --out docs/translation.md``; a test fails
when the committed page is stale. That every "exact" claim holds is checked by
the test suite, which runs ``Translation.verify`` on every pair.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from ..dialects._registry import ops
from ..errors import GatherScatterError
from .model import WHEN

__all__ = ["FAMILIES", "TARGET_ORDER", "VARIANTS", "Cell", "calls", "coverage", "translation_markdown"]

TARGET_ORDER = ("onnx", "torch", "tensorflow", "jax", "numpy", "paddle", "openvino", "mxnet", "caffe2",
                "gatherscatter")
"""The matrix's columns."""

FAMILIES = ("gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd", "scatter_axis", "general")

#: one letter per residual condition, in the order of :data:`~.model.WHEN`
CONDITION_CODE = {"negative": "N", "out_of_range": "R", "duplicates": "D", "dtype": "T", "float_index": "F",
                  "empty": "E", "nonfinite": "X", "scalar": "S"}


def _code(when: str) -> str:
    return CONDITION_CODE.get(when, when)

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "torch.gather": [{"dim": 1}],
    "torch.index_add": [{"dim": 0, "alpha": 2}],
    "torch.index_copy": [{"dim": 0}],
    "torch.index_fill": [{"dim": 1, "value": -1.0}],
    "torch.index_reduce": [{"dim": 0, "reduce": r, "include_self": s} for r in ("prod", "mean", "amax", "amin")
                           for s in (True, False)],
    "torch.index_select": [{"dim": 1}],
    "torch.scatter": [{"dim": 0}, {"dim": 0, "value": 1.5}, {"dim": 0, "reduce": "add"},
                      {"dim": 0, "reduce": "multiply"}],
    "torch.scatter_add": [{"dim": 0}],
    "torch.scatter_reduce": [{"dim": 0, "reduce": r, "include_self": s}
                             for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)],
    "torch.index_put": [{}, {"accumulate": True}],
    "numpy.take": [{}, {"axis": 0}, {"axis": 0, "mode": "clip"}, {"axis": 0, "mode": "wrap"}],
    "numpy.put": [{}, {"mode": "clip"}, {"mode": "wrap"}],
    "numpy.put_along_axis": [{"axis": 1}],
    "numpy.take_along_axis": [{"axis": 1}],
    "mxnet.take": [{}, {"mode": "wrap"}, {"mode": "raise"}],
    "mxnet.pick": [{}, {"mode": "wrap"}],
    "tensorflow.gather": [{"axis": 1}, {"axis": 1, "batch_dims": 1}, {"axis": 2, "batch_dims": 1},
                          {"axis": 0, "device": "gpu"}, {"axis": 0, "device": "xla"}],
    "tensorflow.gather_nd": [{}, {"batch_dims": 1}, {"device": "gpu"}],
    "tensorflow.scatter_nd": [{}, {"device": "gpu"}],
    "onnx.Gather": [{"axis": 1}],
    "onnx.GatherElements": [{"axis": 1}],
    "onnx.GatherND": [{}, {"batch_dims": 1}],
    "onnx.ScatterElements": [{"axis": 0, "reduction": r} for r in ("none", "add", "mul", "max", "min")],
    "onnx.ScatterND": [{"reduction": r} for r in ("none", "add", "mul", "max", "min")],
    "openvino.Gather": [{"axis": 0, "op_version": v} for v in (1, 7, 8)] + [{"axis": 1, "batch_dims": 1}],
    "openvino.GatherElements": [{"axis": 1}],
    "openvino.GatherND": [{"op_version": 5}, {"op_version": 8}, {"batch_dims": 1}],
    "openvino.ScatterElementsUpdate": [{"axis": 0, "reduction": r, "use_init_val": s}
                                       for r in ("none", "sum", "mean", "max") for s in (True, False)
                                       if r != "none" or s],
    "openvino.ScatterNDUpdate": [{"reduction": r} for r in ("none", "sum", "sub", "prod", "min", "max")],
    "openvino.ScatterUpdate": [{"axis": 0}, {"axis": 1}],
    "paddle.gather": [{}, {"axis": 1}],
    "paddle.index_select": [{"axis": 1}],
    "paddle.put_along_axis": [{"axis": 0, "reduce": r, "include_self": s}
                              for r in ("assign", "add", "mul", "mean", "amax", "amin") for s in (True, False)
                              if r != "assign" or s],
    "paddle.scatter": [{}, {"overwrite": False}],
    "paddle.take": [{}, {"mode": "wrap"}, {"mode": "clip"}],
    "paddle.take_along_axis": [{"axis": 1}],
    "jax.take": [{"axis": 0}, {"axis": 0, "mode": "clip"}, {"axis": 0, "mode": "fill", "fill_value": -1}],
    "jax.take_along_axis": [{"axis": 1}],
    "caffe2.Gather": [{}, {"wrap_indices": True}],
    "gatherscatter.take": [{}, {"bounds": "clip"}, {"bounds": "fill", "fill_value": 0}],
    "gatherscatter.take_along_axis": [{"axis": 1}],
    "gatherscatter.gather_nd": [{}, {"batch_dims": 1}, {"index_axis": 0}],
    "gatherscatter.scatter_along_axis": [{"axis": 0, "reduction": r} for r in ("none", "add", "mean")]
    + [{"axis": 0, "reduction": "max", "include_self": False}, {"axis": 0, "reduction": "add", "bounds": "drop"}],
    "gatherscatter.scatter_nd": [{"reduction": r} for r in ("none", "add", "mean")],
}
"""Representative attributes per op (an op not listed is called with its defaults)."""


@dataclass
class Cell:
    """One (source call, target) result."""

    status: str  # "exact" | "closest" | "none"
    conditions: list[str] = field(default_factory=list)  # residual conditions (WHEN keys) besides "always"
    reason: str = ""
    ops: list[str] = field(default_factory=list)


def _lax_variants() -> dict[str, list[dict[str, Any]]]:
    """``lax.gather``/``lax.scatter*`` rows: the nd (gather_nd / ScatterND) configuration of E21."""
    from ..dialects.jax.lax import GatherDimensionNumbers, ScatterDimensionNumbers

    g = GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    sc = ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    out: dict[str, list[dict[str, Any]]] = {"jax.lax.gather": [{"dimension_numbers": g, "slice_sizes": (1, 3)}]}
    for name in ("scatter", "scatter_add", "scatter_mul", "scatter_max", "scatter_min"):
        out[f"jax.lax.{name}"] = [{"dimension_numbers": sc}]
    return out


def calls() -> list[tuple[str, dict[str, Any]]]:
    """The matrix's rows: every op with a source description, with its :data:`VARIANTS` (or defaults)."""
    from .sources import SOURCES, _load

    _load()
    lax = _lax_variants()
    rows: list[tuple[str, dict[str, Any]]] = []
    for op in ops():
        q = op.info.qualname
        if q not in SOURCES:
            continue
        variants = VARIANTS.get(q) or lax.get(q)
        if variants is None:
            params = inspect.signature(SOURCES[q]).parameters
            if any(p.default is inspect.Parameter.empty for p in params.values()):
                continue  # needs attributes nobody chose a representative value for
            variants = [{}]
        rows += [(q, dict(v)) for v in variants]
    return rows


def _cell(op: str, attrs: dict[str, Any], target: str) -> Cell:
    from . import translate

    try:
        t = translate(op, to=target, **attrs)
    except GatherScatterError as e:
        return Cell("none", reason=" ".join(str(e).split()))
    conds = [w for w in WHEN if w != "always" and any(r.when == w for r in t.residuals)]
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


_INTRO = """\
# Translation between frameworks

Generated by `gatherscatter translate --matrix` from the source descriptions and target planners in
`gatherscatter.translate`. Do not edit by hand.

The most common real-world failure with these operators is translating by name: ONNX `Gather` is
not `torch.gather`, MXNet `gather_nd` is not TF `gather_nd`, `tf.scatter_nd` is not ONNX `ScatterND`
without `reduction='add'`. `gs.translate` translates by meaning instead, and proves each
translation by running both sides.

## How it works

1. **The source call, read exactly.** Each op call (`torch.scatter_reduce` with `dim=0,
   reduce='mean', include_self=False`) is described as one call of the neutral API
   (`gatherscatter.scatter_along_axis(...)`) with every policy frameworks disagree on made explicit
   (negative indices, out-of-range indices, fill value, reduction, `include_self`, duplicate
   order, integer mean rounding, index dtype), plus small layout adapters (MXNet's index tuples on
   the first axis, `torch.take`'s flattening, `tf.scatter_nd`'s zero tensor). `verify_source` checks
   that description against the op itself.
2. **The target's plan.** The target framework's planner computes that canonical call with its own
   ops and a closed set of small adapters (`normalize_negative`, `clip_index`, `valid_mask` +
   `mask_result`, `cast`, `moveaxis`, `zeros`, `identity_like` for `include_self=False` (E10),
   `divide_counts` for `mean` (E11), coordinate grids (E4/E16) ...). What no adapter can reproduce is
   a *residual divergence*: under which inputs it applies, what the source does and what the target
   does ("differs when an index is negative: source raises, target wraps it once (i + s)").
3. **The proof.** `t.verify(n)` runs the source op and the translated program (through
   gatherscatter's dialects, each verified against its real framework) on generated inputs:
   plain, negative, duplicate, out-of-range, empty and 0-d indices. Every disagreement must be
   explained by a listed divergence. ONNX translations are also exported with `onnx.helper`,
   checked with `onnx.checker` and run in onnxruntime in the test suite.

## The API

```python
import gatherscatter as gs

t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean", include_self=False)
t.steps          # the target ops and adapters, each with the reason it is there (t.plan_text())
t.ops            # ['onnx.ScatterElements', 'onnx.ScatterElements', 'onnx.ScatterElements']
t.divergences    # what stays different, one sentence each (t.residuals: structured)
t.exact          # exact on every input the source accepts (common dtypes, in-range indices)
t.code           # Python for torch/tensorflow/jax/numpy/paddle/mxnet/caffe2, opset calls for
                 # openvino, an onnx.helper script for onnx
t.onnx_model     # an onnx.ModelProto (to='onnx'); t.to_onnx(**example) for given ranks/dtypes
t.run(**args)    # the translated program on the source op's arguments
t.verify(n=200)  # VerifyReport: total, agree, both_raise, source_rejects, explained, failures
```

`op` is a name (`"mxnet.gather_nd"`) or the dialect function (`gs.mxnet.gather_nd`); `to` is a
target framework; `version=` picks the target version where it matters (an ONNX opset: 11, 13, 16,
18; default 18). Unknown attributes raise `ArgumentError` naming them; an unknown target raises
`UnsupportedError` listing the targets.

From the command line:

```
gatherscatter translate torch.scatter_reduce --to onnx --dim 0 --reduce mean --include-self false
gatherscatter translate mxnet.gather_nd --to torch --verify 200
gatherscatter translate tensorflow.scatter_nd --to onnx --version 16 --format json
```

(`--ATTR VALUE` pairs are the op's attributes: integers, `true`/`false`, `none`, strings; a
missing required `--dim`/`--axis` defaults to 0; `--op-version` is the source op's own version.)

## Coverage matrix

Rows are source calls, columns target frameworks. Cells:

- `✓` an exact translation; letters name the input conditions under which a listed divergence
  still applies (the source raises where the target computes, or the source's own quirks):
  {legend};
- `≈` the closest translation, not exact for every input: the note says why;
- `✗` no translation: the note says why.

"""


def translation_markdown() -> str:
    """The whole ``docs/translation.md`` page."""
    from . import frameworks

    legend = ", ".join(f"`{_code(w)}` {text}" for w, text in WHEN.items() if w in CONDITION_CODE)
    out = [_INTRO.replace("{legend}", legend)]
    rows = coverage()
    targets = [t for t in TARGET_ORDER if t in frameworks()]
    notes: dict[str, int] = {}

    def note(text: str) -> int:
        return notes.setdefault(text, len(notes) + 1)

    def render(c: Cell) -> str:
        codes = " ".join(_code(w) for w in c.conditions)
        if c.status == "exact":
            return f"✓ {codes}".rstrip()
        sym = "≈" if c.status == "closest" else "✗"
        return f"{sym} {codes} [{note(c.reason)}]".replace("  ", " ")

    # summary by family
    out.append("### By family")
    out.append("")
    out.append("Source calls per family translated exactly / closest / not at all.")
    out.append("")
    out.append("| family | " + " | ".join(targets) + " |")
    out.append("|---|" + "---|" * len(targets))
    fam_of = {op.info.qualname: op.info.family for op in ops()}
    for fam in FAMILIES:
        fam_rows = [r for r in rows if fam_of.get(r[0]) == fam]
        if not fam_rows:
            continue
        cells = []
        for tg in targets:
            st = [r[2][tg].status for r in fam_rows]
            cells.append(f"{st.count('exact')} / {st.count('closest')} / {st.count('none')}")
        out.append(f"| {fam} ({len(fam_rows)}) | " + " | ".join(cells) + " |")
    out.append("")
    for fam in FAMILIES:
        fam_rows = [r for r in rows if fam_of.get(r[0]) == fam]
        if not fam_rows:
            continue
        out.append(f"### {fam}")
        out.append("")
        out.append("| source call | " + " | ".join(targets) + " |")
        out.append("|---|" + "---|" * len(targets))
        for op, attrs, cells_ in fam_rows:
            out.append(f"| {_call_text(op, attrs)} | " + " | ".join(render(cells_[tg]) for tg in targets) + " |")
        out.append("")
    if notes:
        out.append("### Notes")
        out.append("")
        for text, n in notes.items():
            out.append(f"{n}. {_esc(text)}")
        out.append("")
    described = {r[0] for r in rows}
    missing = [op.info.qualname for op in ops() if op.info.qualname not in described]
    if missing:
        out.append("### Ops without a source description")
        out.append("")
        out.append(", ".join(f"`{q}`" for q in missing) + ".")
        out.append("")
    return "\n".join(out)

