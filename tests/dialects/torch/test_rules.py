"""The torch dialect as a whole: registry, shared rules (scalars, counts), views, no mutation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects.torch import _common as _rules

OPS = {
    "gather": ("gather_elements", "gather"), "index_add": ("scatter_axis", "scatter"),
    "index_copy": ("scatter_axis", "scatter"), "index_fill": ("scatter_axis", "scatter"),
    "index_put": ("scatter_nd", "scatter"), "index_reduce": ("scatter_axis", "scatter"),
    "index_select": ("gather", "gather"), "scatter": ("scatter_elements", "scatter"),
    "scatter_add": ("scatter_elements", "scatter"), "scatter_reduce": ("scatter_elements", "scatter"),
    "take": ("gather", "gather"), "take_along_dim": ("gather_elements", "gather"),
    "segment_reduce": ("scatter_axis", "scatter"), "embedding": ("gather", "gather"),
    "embedding_bag": ("scatter_axis", "scatter"),
}


def test_registry_and_public_surface():
    assert gs.torch.__all__ == sorted(gs.torch.__all__) == sorted(OPS)
    for op in gs.ops("torch"):
        name = op.info.name
        assert (op.info.family, op.info.kind) == OPS[name]
        assert op.info.versions == ("2.13",)
        assert gs.get_op(f"torch.{name}") is getattr(gs.torch, name)
        doc = op.__doc__ or ""
        assert "Equivalent loop" in doc and "Differs from" in doc and ">>>" in doc and "torch" in doc
        first = {"segment_reduce": "data", "embedding": "weight", "embedding_bag": "weight"}.get(name, "input")
        assert op.info.differentiable[0] == first


def test_divergences_recorded():
    ops = {d.op for d in gs.divergences() if d.op.startswith("torch.")}
    assert {"torch.scatter", "torch.index_put", "torch.index_copy", "torch.take_along_dim", "torch.index_add",
            "torch.index_reduce", "torch.scatter_reduce"} <= ops
    for d in gs.divergences():
        if d.op.startswith("torch."):
            assert d.evidence and d.kind in ("undefined", "oracle", "spec", "device", "choice")


def test_lowering_is_reusable():
    low = gs.torch.gather.lower([[1, 2], [3, 4]], 1, [[1], [0]])
    assert low.primitive == "gather" and low.spec.elementwise and low.policy.negative.value == "raise"
    assert low.run().tolist() == [[2], [3]]
    low = gs.torch.index_put.lower(np.zeros((2, 2)), ([0, 1], [1, 0]), 1.0, accumulate=True)
    assert low.primitive == "scatter" and low.spec.vector and low.spec.depth == 2
    assert low.policy.reduction.value == "add"
    assert gs.torch.scatter_reduce.lower([1.0], 0, [0], [2.0], "mean").policy.reduction.value == "mean"


F16_MAX = 65504.0
SCALARS = [  # (value, dtype, expected) measured on torch 2.13 (torch.scatter(..., value=v)); None = raises
    (2.7, np.int64, 2), (-2.7, np.int64, -2), (-1, np.uint8, 255), (-255, np.uint8, 1), (-256, np.uint8, None),
    (256, np.uint8, None), (-2.7, np.uint8, None), (2.7, np.uint8, 2), (-129, np.int8, None), (-128, np.int8, -128),
    (127.9, np.int8, None), (True, np.float32, 1.0), (2, np.bool_, True), (0.0, np.bool_, False),
    (math.nan, np.bool_, True), (math.nan, np.int32, None), (math.inf, np.int64, None), (math.inf, np.float16, math.inf),
    (70000.0, np.float16, None), (F16_MAX, np.float16, F16_MAX), (1e40, np.float32, None), (2**31, np.int32, None),
    (2**64 - 1, np.float32, float(2**64)), (2**64 - 1, np.int64, None), (1 + 0j, np.int64, 1), (1 + 2j, np.float64, None),
    (1 + 2j, np.complex64, 1 + 2j), (np.array(3.5), np.float32, 3.5), (np.float64(2.5), np.int32, 2),
]


@pytest.mark.parametrize(("value", "dtype", "expected"), SCALARS)
def test_python_scalar_conversion(value, dtype, expected):
    ctx = _rules.torch_context("scatter")
    if expected is None:
        with pytest.raises(gs.DTypeError, match=r"cannot be converted|complex"):
            _rules.to_scalar(ctx, value, np.dtype(dtype))
        return
    out = _rules.to_scalar(ctx, value, np.dtype(dtype))
    assert out.dtype == dtype and out.shape == () and out.item() == expected


def test_scalar_conversion_rejects_non_numbers():
    ctx = _rules.torch_context("scatter")
    with pytest.raises(gs.ArgumentError, match="must be a number"):
        _rules.to_scalar(ctx, "1", np.dtype(np.float32))
    with pytest.raises(gs.ShapeError, match="0-d array"):
        _rules.to_scalar(ctx, np.ones(2), np.dtype(np.float32))
    with pytest.raises(gs.ArgumentError, match="64-bit"):
        _rules.to_scalar(ctx, 2**70, np.dtype(np.float64))


@pytest.mark.parametrize(("exact", "dtype", "sequential", "expected"), [
    ([0, 3, 201], np.int8, False, [1, 3, -55]),         # 0 -> 1, 201 wraps
    ([256, 255], np.uint8, False, [1, 255]),             # 256 wraps to 0 -> 1
    ([3001, 5], np.float16, False, [3000, 5]),           # rounded once
    ([3001, 5], np.float16, True, [2048, 5]),            # n + 1 stops growing at 2048
    ([300], np.float32, True, [300]),
])
def test_count_in_dtype(exact, dtype, sequential, expected):
    out = _rules.count_in_dtype(np.array(exact), np.dtype(dtype), sequential=sequential)
    assert out.dtype == dtype and out.tolist() == expected


def test_inputs_never_modified_and_outputs_new():
    x = np.arange(12.0).reshape(3, 4)
    keep = x.copy()
    calls = [
        lambda: gs.torch.scatter(x, 0, [[1, 2]], src=np.ones((1, 2))),
        lambda: gs.torch.scatter_add(x, 1, [[0, 0]], np.ones((1, 2))),
        lambda: gs.torch.scatter_reduce(x, 1, [[0, 0]], np.ones((1, 2)), "amax"),
        lambda: gs.torch.index_put(x, ([0, 1],), np.ones(4)),
        lambda: gs.torch.index_add(x, 0, [2], np.ones((1, 4))),
        lambda: gs.torch.index_copy(x, 0, [2], np.ones((1, 4))),
        lambda: gs.torch.index_fill(x, 0, [2], 1.0),
        lambda: gs.torch.index_reduce(x, 0, [2], np.ones((1, 4)), "prod"),
        lambda: gs.torch.index_select(x, 0, [2]),
        lambda: gs.torch.take(x, [2]),
        lambda: gs.torch.scatter(x, 0, np.zeros((0, 4), np.int64), src=np.ones((1, 4))),  # empty-index shortcut
    ]
    for call in calls:
        out = call()
        assert not np.shares_memory(out, x)
        np.testing.assert_array_equal(x, keep)


def test_views_are_read_without_copying_the_data():
    # a broadcast view of 5e12 elements: take and take_along_dim(dim=None) must not flatten it
    big = np.broadcast_to(np.arange(5.0), (10**6, 10**6, 5))
    assert gs.torch.take(big, [0, 7, -1]).tolist() == [0.0, 2.0, 4.0]
    assert gs.torch.take_along_dim(big, [[3, 4]]).tolist() == [3.0, 4.0]
    t = np.arange(12.0).reshape(3, 4).T  # non-contiguous
    np.testing.assert_array_equal(gs.torch.take(t, [0, 1, -1, 5]), np.take(t, [0, 1, -1, 5]))
    with pytest.raises(gs.IndexOutOfRangeError, match=r"index\[0\] = 12 .*size 12"):
        gs.torch.take(t, [12])
    with pytest.raises(gs.IndexOutOfRangeError, match="does not accept negative"):
        gs.torch.take_along_dim(t, [-1])


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
def test_gradients_through_the_float32_accumulator_and_mean_count(dtype):
    # float16 sums run on float32 copies and mean divides by a count in post: both must stay differentiable
    x, idx, src = np.array([1.0, 2, 3, 4], dtype), np.array([0, 1, 0, 1, 2, 1]), np.arange(1.0, 7.0).astype(dtype)
    _, pull = gs.vjp(gs.torch.scatter_reduce, x, 0, idx, src, "mean", include_self=False)
    dx, _, _, dsrc, _ = pull(np.ones(4, dtype))
    np.testing.assert_allclose(dx, [0, 0, 0, 1])
    np.testing.assert_allclose(dsrc, [1 / 2, 1 / 3, 1 / 2, 1 / 3, 1, 1 / 3], rtol=1e-3)
    _, pull = gs.vjp(gs.torch.scatter_add, x, 0, idx, src)
    np.testing.assert_allclose(pull(np.ones(4, dtype))[3], np.ones(6))
    _, pull = gs.vjp(gs.torch.index_add, np.ones((2, 2), dtype), 0, np.array([1, 1]), np.ones((2, 2), dtype))
    np.testing.assert_allclose(pull(np.ones((2, 2), dtype))[3], np.ones((2, 2)))
