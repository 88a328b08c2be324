"""Hand-computed gradients (docs/semantics.md#s8) and the API contract of gs.vjp."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.grad._probe import learn_map

I = np.array  # noqa: E741 - short for index literals


@pytest.mark.parametrize(
    ("op", "args"),
    [
        (gs.torch.gather, (np.zeros(3), 0, I([1, 1, 2]))),
        (gs.torch.index_select, (np.zeros(3), 0, I([1, 1, 2]))),
        (gs.tensorflow.gather, (np.zeros(3), I([1, 1, 2]))),
        (gs.jax.take, (np.zeros(3), I([1, 1, 2]))),
        (gs.mxnet.take, (np.zeros(3), I([1, 1, 2]))),
        (gs.onnx.Gather, (np.zeros(3), I([1, 1, 2]))),
        (gs.take, (np.zeros(3), I([1, 1, 2]))),
        ("numpy.take", (np.zeros(3), I([1, 1, 2]))),
    ],
)
def test_gather_duplicates_sum(op: Any, args: tuple[Any, ...]) -> None:
    _, pb = gs.vjp(op, *args)
    assert pb(np.ones(3))[0].tolist() == [0.0, 2.0, 1.0]


# overwrite with duplicates: x = zeros(3), updates at [1, 1, 2], cotangent [1, 2, 4]
OVERWRITE = [
    ("torch", gs.torch.scatter, (np.zeros(3), 0, I([1, 1, 2]), np.ones(3)), 3, [2.0, 2.0, 4.0]),
    ("torch", gs.torch.index_copy, (np.zeros(3), 0, I([1, 1, 2]), np.ones(3)), 3, [2.0, 2.0, 4.0]),
    ("torch", gs.torch.index_put, (np.zeros(3), (I([1, 1, 2]),), np.ones(3)), 2, [2.0, 2.0, 4.0]),
    ("tensorflow", gs.tensorflow.tensor_scatter_nd_update, (np.zeros(3), I([[1], [1], [2]]), np.ones(3)), 2, [2.0, 2.0, 4.0]),
    ("jax", gs.jax.at_set, (np.zeros(3), (I([1, 1, 2]),), np.ones(3)), 2, [0.0, 2.0, 4.0]),
    ("onnx", gs.onnx.ScatterND, (np.zeros(3), I([[1], [1], [2]]), np.ones(3)), 2, [0.0, 2.0, 4.0]),
    ("openvino", gs.openvino.ScatterNDUpdate, (np.zeros(3), I([[1], [1], [2]]), np.ones(3)), 2, [0.0, 2.0, 4.0]),
    ("numpy", gs.numpy.put, (np.zeros(3), I([1, 1, 2]), np.ones(3)), 2, [0.0, 2.0, 4.0]),
    ("paddle", gs.paddle.put_along_axis, (np.zeros(3), I([1, 1, 2]), np.ones(3), 0), 2, [0.0, 2.0, 4.0]),
    ("neutral", gs.scatter_nd, (np.zeros(3), I([[1], [1], [2]]), np.ones(3)), 2, [0.0, 2.0, 4.0]),
]


@pytest.mark.parametrize(("fw", "op", "args", "upos", "expected"), OVERWRITE, ids=[f"{c[0]}-{c[1].__name__}" for c in OVERWRITE])
def test_overwrite_duplicates_convention(fw: str, op: Any, args: tuple[Any, ...], upos: int, expected: list[float]) -> None:
    _, pb = gs.vjp(op, *args)
    grads = pb(np.array([1.0, 2.0, 4.0]))
    assert grads[upos].tolist() == expected
    assert grads[0].tolist() == [1.0, 0.0, 0.0]  # overwritten positions get nothing


def test_overwrite_first_wins() -> None:
    _, pb = gs.vjp(gs.scatter_nd, np.zeros(3), I([[1], [1], [2]]), np.ones(3), duplicates="first")
    assert pb(np.array([1.0, 2.0, 4.0]))[2].tolist() == [2.0, 0.0, 4.0]


# 3-way max tie between x and two updates: 1/3 each
TIES = [
    (gs.torch.scatter_reduce, (np.array([2.0]), 0, I([0, 0]), np.array([2.0, 2.0]), "amax"), 3),
    (gs.torch.index_reduce, (np.array([2.0]), 0, I([0, 0]), np.array([2.0, 2.0]), "amin"), 3),
    (gs.tensorflow.tensor_scatter_nd_max, (np.array([2.0]), I([[0], [0]]), np.array([2.0, 2.0])), 2),
    (gs.jax.at_max, (np.array([2.0]), (I([0, 0]),), np.array([2.0, 2.0])), 2),
    (gs.onnx.ScatterElements, (np.array([2.0]), I([0, 0]), np.array([2.0, 2.0]), 0, "max"), 2),
    (gs.openvino.ScatterElementsUpdate, (np.array([2.0]), I([0, 0]), np.array([2.0, 2.0]), 0, "min"), 2),
    (gs.numpy.maximum_at, (np.array([2.0]), I([0, 0]), np.array([2.0, 2.0])), 2),
    (gs.scatter_along_axis, (np.array([2.0]), I([0, 0]), np.array([2.0, 2.0]), 0), 2),
]


@pytest.mark.parametrize(("op", "args", "upos"), TIES, ids=[t[0].__name__ for t in TIES])
def test_three_way_tie_splits_evenly(op: Any, args: tuple[Any, ...], upos: int) -> None:
    kwargs = {"reduction": "max"} if op is gs.scatter_along_axis else {}
    _, pb = gs.vjp(op, *args, **kwargs)
    grads = pb(np.array([1.0]))
    np.testing.assert_allclose(grads[0], [1 / 3])
    np.testing.assert_allclose(grads[upos], [1 / 3, 1 / 3])


def test_tie_with_excluded_self_torch_vs_maths() -> None:
    args = (np.array([2.0, 1.0]), 0, I([0, 0]), np.array([2.0, 2.0]), "amax")
    _, pb = gs.vjp(gs.torch.scatter_reduce, *args, include_self=False)
    dx, dsrc = pb(np.ones(2))[0], pb(np.ones(2))[3]
    np.testing.assert_allclose(dx, [0.0, 1.0])
    np.testing.assert_allclose(dsrc, [1 / 3, 1 / 3])  # torch counts x in the split (then drops its share)
    _, pb = gs.vjp(gs.scatter_along_axis, np.array([2.0, 1.0]), I([0, 0]), np.array([2.0, 2.0]), 0, reduction="max", include_self=False)
    np.testing.assert_allclose(pb(np.ones(2))[2], [0.5, 0.5])


def test_torch_prod_with_zero() -> None:
    _, pb = gs.vjp(gs.torch.scatter_reduce, np.array([3.0]), 0, I([0]), np.array([0.0]), "prod")
    dx, _, _, du, _ = pb(np.ones(1))
    assert dx.tolist() == [0.0]
    assert du.tolist() == [3.0]


def test_prod_two_zeros_and_zero_self() -> None:
    # y = x * u0 * u1 * u2 with x = 0, u = [0, 2, 5]: only du0 is non-zero (x*u1*u2 = 0 too)
    _, pb = gs.vjp(gs.onnx.ScatterElements, np.array([0.0]), I([0, 0, 0]), np.array([0.0, 2.0, 5.0]), 0, "mul")
    dx, _, du, _, _ = pb(np.ones(1))
    assert dx.tolist() == [0.0]
    assert du.tolist() == [0.0, 0.0, 0.0]
    _, pb = gs.vjp(gs.onnx.ScatterElements, np.array([3.0]), I([0, 0, 0]), np.array([0.0, 2.0, 5.0]), 0, "mul")
    dx, _, du, _, _ = pb(np.ones(1))
    assert dx.tolist() == [0.0]
    assert du.tolist() == [30.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("include_self", "dx", "du"),
    [
        (True, [1 / 3, 1 / 4, 1 / 2, 1.0], [1 / 3, 1 / 4, 1 / 3, 1 / 4, 1 / 2, 1 / 4]),
        (False, [0.0, 0.0, 0.0, 1.0], [1 / 2, 1 / 3, 1 / 2, 1 / 3, 1.0, 1 / 3]),
    ],
)
def test_mean_worked_example(include_self: bool, dx: list[float], du: list[float]) -> None:
    # docs/semantics.md#s5-2: D=[1,2,3,4], I=[0,1,0,1,2,1], U=[1..6]
    d, i, u = np.array([1.0, 2, 3, 4]), I([0, 1, 0, 1, 2, 1]), np.arange(1.0, 7.0)
    _, pb = gs.vjp(gs.torch.scatter_reduce, d, 0, i, u, "mean", include_self=include_self)
    g = pb(np.ones(4))
    np.testing.assert_allclose(g[0], dx)
    np.testing.assert_allclose(g[3], du)


@pytest.mark.parametrize(
    ("op", "args", "kwargs", "expected"),
    [
        (gs.jax.take, (np.zeros(3), I([0, 5])), {}, [1.0, 0.0, 0.0]),  # fill: nothing flows
        (gs.jax.at_get, (np.zeros(3), (I([0, 5]),)), {}, [1.0, 0.0, 0.0]),  # promise: clamps, drops gradient
        (gs.jax.take, (np.zeros(3), I([0, 5])), {"mode": "clip"}, [1.0, 0.0, 1.0]),
        (gs.mxnet.take, (np.zeros(3), I([0, 5])), {}, [1.0, 0.0, 1.0]),  # clip: to the clamped element
        (gs.tensorflow.gather, (np.zeros(3), I([0, 5])), {"device": "gpu"}, [1.0, 0.0, 0.0]),
        (gs.tensorflow.gather, (np.zeros(3), I([0, 5])), {"device": "xla"}, [1.0, 0.0, 0.0]),
        (gs.take, (np.zeros(3), I([0, 5])), {"bounds": "clip"}, [1.0, 0.0, 1.0]),
    ],
)
def test_out_of_range_gathers(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any], expected: list[float]) -> None:
    _, pb = gs.vjp(op, *args, **kwargs)
    assert pb(np.ones(2))[0].tolist() == expected


def test_dropped_scatter_update_gets_nothing() -> None:
    _, pb = gs.vjp(gs.jax.at_add, np.zeros(3), (I([0, 5]),), np.ones(2))
    dx, _, dv = pb(np.array([1.0, 2.0, 3.0]))
    assert dx.tolist() == [1.0, 2.0, 3.0]
    assert dv.tolist() == [1.0, 0.0]


def test_torch_index_add_alpha_scales_source() -> None:
    _, pb = gs.vjp("torch.index_add", np.zeros(3), 0, I([2, 2]), np.ones(2), alpha=-2.0)
    dx, _, _, ds = pb(np.array([1.0, 2.0, 3.0]))
    assert dx.tolist() == [1.0, 2.0, 3.0]
    assert ds.tolist() == [-6.0, -6.0]


def test_integer_data_has_no_gradient() -> None:
    with pytest.raises(gs.UnsupportedError, match="no gradient"):
        gs.vjp(gs.torch.gather, np.arange(3), 0, I([1]))


def test_pullback_contract() -> None:
    out, pb = gs.vjp(gs.onnx.ScatterND, np.zeros((2, 2)), I([[1]]), updates=np.ones((1, 2)))
    assert out.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    ct = np.array([[1.0, 2.0], [3.0, 4.0]])
    tup = pb(ct)
    assert len(tup) == 2  # one entry per positional argument; updates came by keyword
    assert tup[1] is None
    named = pb.named(ct)
    assert named["updates"].tolist() == [[3.0, 4.0]]
    assert named["data"].tolist() == [[1.0, 2.0], [0.0, 0.0]]
    with pytest.raises(gs.ShapeError, match="cotangent"):
        pb(np.ones(3))


def test_float32_gradient_keeps_dtype() -> None:
    _, pb = gs.vjp(gs.onnx.Gather, np.ones(3, np.float32), I([0, 0]))
    g = pb(np.ones(2))[0]
    assert g.dtype == np.float32
    assert g.tolist() == [2.0, 0.0, 0.0]


def test_non_linear_adapter_is_refused() -> None:
    with pytest.raises(gs.UnsupportedError, match="not a linear movement"):
        learn_map("square", [(3,)], lambda xs: xs[0] ** 2)
    with pytest.raises(gs.UnsupportedError, match="not a linear movement"):
        learn_map("sum", [(3,)], lambda xs: np.cumsum(xs[0]))


def test_affine_adapter_is_learned() -> None:
    m = learn_map("bcast", [(2,), (1,)], lambda xs: np.concatenate([np.repeat(xs[0], 2) * 3.0, xs[1] + 1.0]))
    assert m is not None
    assert m.source[0].tolist()[:4] == [0, 0, 1, 1]
    assert m.factor[0].tolist() == [3.0, 3.0, 3.0, 3.0, 0.0]
    assert m.factor[1].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
