"""Calling an op runs what its record describes.

Every op states its canonical form once (``op.record.describe(**attrs)``:
adapters, one primitive, every policy explicit); translate, explain and grad
read that description. Here, for every op and every variant of the
translation grid, the :class:`~gatherscatter.dialects._registry.Lowering`
a real call produces on generated inputs has the primitive, the index-spec
form and the policy the description states. The outputs themselves are
compared by ``tests/translate/test_sources.py`` (the op against its
description's program); this test pins the *policy*, which an output check on
a few inputs can miss (a wrong but unexercised ``negative`` rule).

Expected values: the descriptions (hand-written from each framework's
documentation, in the op files), not the lowerings under test.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

import gatherscatter as gs
from gatherscatter.dialects._record import Canonical, Description
from gatherscatter.dialects._registry import Lowering
from gatherscatter.errors import GatherScatterError
from gatherscatter.translate.verify import sample_cases
from tests.translate.test_sources import GRID, PENDING

#: ops whose lowering encodes a description's policy differently, with the same results (checked by
#: test_sources); each entry names the differing field and why. Strict: an entry that no longer differs fails.
_FILL = (("bounds", "negative"), "fill with the dtype's default value (no fill_value): the canonical form has no "
         "such value, so the description clamps and masks (adapters); the lowering fills")
ENCODED_OTHERWISE: dict[str, tuple[tuple[str, ...], str]] = {
    **dict.fromkeys(("jax.take", "jax.take_along_axis", "jax.at_get", "keras.take", "keras.take_along_axis"), _FILL),
    "jax.lax.gather": (("bounds", "negative", "spec"), "as jax.take for the fill; and every configuration is lowered to "
                       "full coordinate tuples (an nd gather over the operand), the description names its family"),
    **{f"jax.lax.{n}": (("bounds", "spec"), "mode='clip' clamps each window start while computing the coordinates "
                        "(scatter_coordinates; the primitive then drops nothing), and every configuration is lowered "
                        "to full coordinate tuples (an nd scatter), the description names its family")
       for n in ("scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_max", "scatter_min",
                 "scatter_apply")},
    **{f"numpy.{n}": (("negative",), "the index expression is normalised by the NumPy indexing front end "
                      "(dialects/_npindex.py) before the primitive, which then rejects negatives")
       for n in ("add_at", "subtract_at", "multiply_at", "maximum_at", "minimum_at", "ufunc_at")},
    "onnx.TensorScatter": (("spec", "bounds"), "the lowering scatters whole rows, one position per (b, j) "
                           "(IndexSpec(axis, batch=1): B x sequence_length indices, not one per element of update), "
                           "and in circular mode it reduces write_indices mod s first and lets bounds='wrap' fold "
                           "w mod s + j < 2s: the description's (w mod s + j) mod s with bounds='raise'"),
    "tensorflow.gather": (("bounds", "negative"), "an empty params with device='cpu' takes the GPU kernel's path (the 'empty' "
                          "residual of the description)"),
}


def _value(x: Any) -> Any:
    return getattr(x, "value", x)


def differences(d: Description, low: Lowering) -> dict[str, tuple[Any, Any]]:
    """The fields where the lowering's primitive, index-spec form or policy differ from the description."""
    c: Canonical = d.canonical
    p, spec = low.policy, low.spec
    out: dict[str, tuple[Any, Any]] = {}
    want = "scatter" if c.is_scatter else "gather"
    if low.primitive != want:
        out["primitive"] = (low.primitive, want)
    one_d = low.data.ndim <= 1  # on a vector the axis and the element-wise forms coincide
    form_ok = {
        "gather": not spec.elementwise and (not spec.vector or spec.depth == 1),  # 1-tuples: rows
        "gather_elements": spec.elementwise or one_d,
        "scatter_elements": spec.elementwise or one_d,
        "gather_nd": not spec.elementwise,
        "scatter_nd": not spec.elementwise,
    }[c.family]
    if not form_ok:
        out["spec"] = (spec, c.family)
    if _value(p.negative) != c.negative:
        out["negative"] = (_value(p.negative), c.negative)
    if _value(p.bounds) != c.bounds:
        out["bounds"] = (_value(p.bounds), c.bounds)
    elif c.bounds == "fill":
        fv = 0 if p.fill_value is None else p.fill_value  # the core fills None as the dtype's zero
        same = fv == c.fill_value or (fv != fv and c.fill_value != c.fill_value)  # NaN fills
        if not same:
            out["fill_value"] = (p.fill_value, c.fill_value)
    if c.is_scatter:
        if _value(p.reduction) != c.reduction:
            out["reduction"] = (_value(p.reduction), c.reduction)
        if p.include_self != c.include_self:
            out["include_self"] = (p.include_self, c.include_self)
        if c.reduction == "none" and _value(p.duplicates) != c.duplicates:
            out["duplicates"] = (_value(p.duplicates), c.duplicates)
        if c.reduction == "mean" and _value(p.mean_rounding) != c.mean_rounding:
            out["mean_rounding"] = (_value(p.mean_rounding), c.mean_rounding)
    return out


def _variants(qualname: str) -> list[dict[str, Any]]:
    return [{("version" if k == "op_version" else k): v for k, v in a.items()} for a in GRID[qualname]]


@pytest.mark.parametrize("qualname", sorted(GRID))
def test_the_call_runs_the_description(qualname: str) -> None:
    op = gs.dialects._registry.get_op(qualname)
    seen: dict[str, list[str]] = defaultdict(list)
    lowered = 0
    for attrs in _variants(qualname):
        try:
            d = op.record.describe(**attrs)
        except GatherScatterError:
            continue  # a combination the description refuses (named in test_sources)
        for case in sample_cases(d, n=8, seed=3):
            try:
                low = op.lower(**case.args, **d.attrs)
            except GatherScatterError:
                continue  # the op rejects this input: no primitive runs
            if low.result is not None:
                continue  # answered without the primitive (empty inputs)
            lowered += 1
            for name, (got, want) in differences(d, low).items():
                seen[name].append(f"{attrs} {case.kind}: lowering {got!r}, description {want!r}")
    assert lowered, f"{qualname}: no generated call reached the primitive"
    allowed = ENCODED_OTHERWISE.get(qualname)
    unexpected = {k: v[:3] for k, v in seen.items() if allowed is None or k not in allowed[0]}
    assert not unexpected, f"{qualname}: the call does not run its description: {unexpected}"
    if allowed is not None:
        assert set(allowed[0]) & set(seen), f"{qualname}: now runs its description exactly; remove it from ENCODED_OTHERWISE"


def test_every_op_has_a_record_with_a_description() -> None:
    for op in gs.ops():
        if op.info.qualname in PENDING:
            with pytest.raises(gs.UnsupportedError, match="has no description yet"):
                op.record.describe()
            continue
        assert callable(op.record.describe), op.info.qualname
        assert op.record.describe.__qualname__ != "_undescribed.<locals>.describe", f"{op.info.qualname}: describe="
        required = [a.name for a in op.record.attrs if a.required]
        assert all(any(name in v for v in GRID[op.info.qualname]) for name in required), op.info.qualname


def test_every_divergence_says_when_it_applies() -> None:
    """Divergence records carry a machine-readable condition from the residuals' vocabulary."""
    from gatherscatter.dialects._record import WHEN

    records = gs.divergences()
    assert len(records) >= 200
    for d in records:
        assert d.when, f"{d.op}: {d.case!r} has no when="
        assert set(d.when) <= set(WHEN), (d.op, d.when)
    # spot checks against the records' own wording (hand-read)
    by_case = {(d.op, d.case): d.when for d in records}
    assert by_case[("onnx.Gather", "negative index at opsets 1-10")] == ("negative",)
    assert by_case[("tensorflow.gather", "negative or out-of-range index")] == ("negative", "out_of_range")
    assert by_case[("onnx.ScatterND", "duplicate index tuples with reduction='none'")] == ("duplicates",)
    with pytest.raises(ValueError, match="unknown condition"):
        gs.dialects._registry.Divergence("x.y", "c", "r", "t", "o", "e", when=("sometimes",))


FUZZ_KEYS = {
    "flat", "axis_none", "fixed_axis", "min_rank", "index_shape", "negative", "float_index", "index_axis",
    "drops_axis", "npindex", "tuple_index", "nonempty_tuples", "scalar_updates", "distinct_targets",
    "valid_versions", "choices", "seeds",
}


def test_record_fields_are_well_formed() -> None:
    """variants describe cleanly, fuzz hints use the documented keys, grad conventions name their autograd."""
    autograd = {"torch": ("torch", "all", "torch"), "tensorflow": ("tensorflow", "all", "split"),
                "jax": ("jax", "winner", "split")}  # the frameworks' autograd, read from their docs (grad/__init__)
    for op in gs.ops():
        rec = op.record
        for v in rec.variants:
            assert isinstance(rec.describe(**v), Description), (op.info.qualname, v)
        assert set(rec.fuzz) <= FUZZ_KEYS, (op.info.qualname, set(rec.fuzz) - FUZZ_KEYS)
        g = rec.grad
        want = autograd.get(op.info.framework, (None, "winner", "split"))
        assert (g.autograd, g.duplicates, g.ties) == want, op.info.qualname
    seeds = gs.dialects._registry.get_op("tensorflow.scatter_nd").record.fuzz["seeds"]()
    assert all(expect == "error" for _, _, expect in seeds)
    assert gs.dialects._registry.get_op("torch.scatter").record.grad.restrictions == ("no_reduce",)


@pytest.mark.parametrize(
    ("qualname", "roles"),
    [  # read from each framework's documentation of the op's parameters
        ("torch.scatter", {"input": "data", "index": "indices", "src": "updates"}),
        ("torch.index_fill", {"input": "data", "index": "indices"}),
        ("tensorflow.scatter_nd", {"indices": "indices", "updates": "updates", "shape": "shape"}),
        ("mxnet.scatter_nd", {"data": "updates", "indices": "indices", "shape": "shape"}),
        ("numpy.put", {"a": "data", "ind": "indices", "v": "updates"}),
        ("jax.lax.gather", {"operand": "data", "start_indices": "indices"}),
    ],
)
def test_argument_roles_come_from_the_record(qualname: str, roles: dict[str, str]) -> None:
    assert gs.dialects._registry.get_op(qualname).record.arg_roles == roles


def test_every_op_names_its_data_and_indices() -> None:
    for op in gs.ops():
        if op.info.qualname in PENDING:
            continue  # roles are read from the description
        got = set(op.record.arg_roles.values())
        assert "indices" in got, op.info.qualname
        assert got & {"data", "shape"}, op.info.qualname
        assert got <= {"data", "indices", "updates", "shape"}, op.info.qualname


def test_versions_say_what_they_add() -> None:
    """From the ONNX operator changelog and the OpenVINO opset specs (the ops' docstrings cite them)."""
    from gatherscatter.dialects._record import Version

    rec = gs.dialects._registry.get_op("onnx.ScatterElements").record
    assert rec.versions == (Version("11"), Version("13", "bfloat16"), Version("16", "reduction add, mul"),
                            Version("18", "reduction max, min"))
    assert gs.dialects._registry.get_op("openvino.Gather").record.versions[1] == Version("7", "batch_dims")
    for op in gs.ops():
        assert tuple(v.name for v in op.record.versions) == op.info.versions, op.info.qualname


def test_attributes_carry_their_name_maps() -> None:
    """torch's reduce names (torch docs: 'sum', 'prod', 'mean', 'amax', 'amin') map to the core reductions."""
    reduce = gs.dialects._registry.get_op("torch.scatter_reduce").record.attr("reduce")
    assert reduce.required
    assert reduce.aliases["amax"] == "max"
    assert reduce.aliases["sum"] == "add"
    assert {"sum", "prod", "mean", "amax", "amin"} <= set(reduce.values)
    ov = gs.dialects._registry.get_op("openvino.ScatterNDUpdate").record.attr("reduction")
    assert ov.default == "none"
    assert ov.aliases == {"none": "none", "sum": "add", "sub": "sub", "prod": "mul", "min": "min", "max": "max"}
