"""gs.numpy as a package: public surface, registry entries, divergence records."""

from __future__ import annotations

import gatherscatter as gs

NAMES = ["add_at", "maximum_at", "minimum_at", "multiply_at", "put", "put_along_axis", "subtract_at", "take",
         "take_along_axis", "ufunc_at"]


def test_all_is_sorted_and_complete():
    # ufunc_at, the generic entry point, is a registered op too (session 7)
    assert gs.numpy.__all__ == sorted(gs.numpy.__all__) == sorted(NAMES)


def test_registry_entries():
    ops = {op.info.name: op for op in gs.ops("numpy")}
    assert sorted(ops) == NAMES
    assert ops["take"].info.family == "gather" and ops["take"].info.kind == "gather"
    assert ops["take_along_axis"].info.family == "gather_elements"
    assert ops["put_along_axis"].info.family == "scatter_elements"
    assert ops["put"].info.family == "scatter_axis" and ops["add_at"].info.family == "general"
    for op in ops.values():
        assert op.info.versions == ("2.4",)
        assert "NumPy 2.4" in op.__doc__ and "Equivalent loop" in op.__doc__ and "Differs from" in op.__doc__


def test_divergences_recorded():
    for name in ("take", "take_along_axis", "put_along_axis", "put", "add_at", "maximum_at"):
        assert gs.divergences(f"numpy.{name}"), name


def test_ufunc_at_lowers_to_a_flat_scatter():
    low = gs.numpy.add_at.lower([[1, 2], [3, 4]], (slice(None), 0), 5)
    assert low.primitive == "scatter" and low.policy.reduction.value == "add"
    assert low.indices.tolist() == [0, 2] and low.data.shape == (4,)
