"""The equivalences docs/semantics.md#e1..docs/semantics.md#e21 of docs/semantics.md#s9, each checked numerically, and
in the translations that use them.

Every test has two halves:

1. the identity itself, checked independently of ``gs.translate``: the right-hand side is composed
   by hand from our dialect ops (each verified against its real framework elsewhere) and NumPy, and
   compared with the left-hand side on generated inputs with negative and duplicate indices and edge
   shapes (size-1 and empty dims, 0-d indices where legal);
2. where ``gs.translate`` produces the identity, the translation's ops and adapters follow it and
   ``verify`` passes.

docs/semantics.md#e17, docs/semantics.md#e18 and docs/semantics.md#e20 are marked "–" (not checked) in the spec; they
are checked here, with what was
found in each test's docstring.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.translate.ir import ADAPTERS

N = 40  # generated cases per identity
VERIFY_N = 90  # verify() cases per translation


def same(x, y) -> bool:
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f"))


def rngs(n: int = N, seed: int = 0) -> Iterator[np.random.Generator]:
    for k in range(n):
        yield np.random.default_rng(1000 * seed + k)


def shape(rng, rank: int, lo: int = 1, hi: int = 4) -> tuple[int, ...]:
    return tuple(int(rng.integers(lo, hi)) for _ in range(rank))


def data(rng, shp, dtype=np.float64) -> np.ndarray:
    v = rng.integers(-9, 10, size=shp)
    return v.astype(dtype) if np.dtype(dtype).kind in "iu" else (v + rng.random(shp)).astype(dtype)


def idx(rng, size: int, shp, *, negative: bool = True, dup: bool = False) -> np.ndarray:
    lo = -size if negative else 0
    hi = min(size, 2) if dup else size
    return rng.integers(lo, max(hi, lo + 1), size=shp).astype(np.int64)


def steps_named(t) -> list[str]:
    return [s.name for s in t.steps]


def assert_verified(t, n: int = VERIFY_N) -> None:
    report = t.verify(n=n)
    assert report.ok, str(report)
    assert report.agree >= n // 3, str(report)


def reductions_of(t) -> list[str]:
    return [s.attr_map.get("reduction", "none") for s in t.steps if s.kind == "op"]


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e1


def test_e1_gather_is_transposed_gather_nd():
    for rng in rngs(seed=1):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        a = int(rng.integers(0, r))
        q = int(rng.integers(0, 3))
        i = idx(rng, d.shape[a], shape(rng, q, lo=0 if rng.random() < 0.2 else 1))
        lhs = gs.onnx.Gather(d, i, axis=a)
        g = gs.onnx.GatherND(np.moveaxis(d, a, 0), i[..., None])
        rhs = np.moveaxis(g, list(range(q)), list(range(a, a + q)))
        assert same(lhs, rhs), (d.shape, a, i)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e2


def test_e2_flat_take_is_gather_of_the_reshaped_data():
    for rng in rngs(seed=2):
        d = data(rng, shape(rng, int(rng.integers(1, 4))))
        i = idx(rng, d.size, shape(rng, int(rng.integers(0, 3))))
        rhs = gs.onnx.Gather(d.reshape(-1), i, axis=0)
        assert same(gs.numpy.take(d, i), rhs)
        assert same(gs.torch.take(d, i), rhs)
        assert same(gs.paddle.take(d, i, mode="raise"), rhs)


@pytest.mark.parametrize("op", ["numpy.take", "torch.take", "paddle.take"])
def test_e2_translations(op):
    t = gs.translate(op, to="onnx")
    assert t.ops == ["onnx.Gather"]
    assert "flatten" in steps_named(t)
    assert t.steps[[s.name for s in t.steps].index("onnx.Gather")].attr_map["axis"] == 0
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e3


def test_e3_torch_gather_is_gather_elements_and_the_reverse_needs_normalised_indices():
    for rng in rngs(seed=3):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        dim = int(rng.integers(0, r))
        ishape = tuple(int(rng.integers(1, n + 1)) for n in d.shape)  # torch allows a smaller index
        ishape = ishape[:dim] + (int(rng.integers(1, 4)),) + ishape[dim + 1 :]
        i = idx(rng, d.shape[dim], ishape, negative=False).astype(rng.choice([np.int64, np.int32]))
        assert same(gs.torch.gather(d, dim, i), gs.onnx.GatherElements(d, i.astype(np.int64), axis=dim))
        # reverse: ONNX wraps negatives, torch raises on them: normalise I + s * (I < 0) first
        j = idx(rng, d.shape[dim], ishape)
        normalised = np.where(j < 0, j + d.shape[dim], j)
        assert same(gs.onnx.GatherElements(d, j, axis=dim), gs.torch.gather(d, dim, normalised))
        if (j < 0).any():
            with pytest.raises(gs.IndexOutOfRangeError):
                gs.torch.gather(d, dim, j)


def test_e3_translations():
    t = gs.translate("torch.gather", to="onnx", dim=1)
    assert t.ops == ["onnx.GatherElements"]
    assert_verified(t)
    back = gs.translate("onnx.GatherElements", to="torch", axis=1)
    assert back.ops == ["torch.gather"]
    names = steps_named(back)
    assert "normalize_negative" in names and names.index("normalize_negative") < names.index("torch.gather")
    assert_verified(back)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e4


def coordinates(i: np.ndarray, axis: int) -> np.ndarray:
    """C = stack(meshgrid(iota(I.shape)), -1) with C[..., axis] = I, written from the spec."""
    grids = list(np.meshgrid(*[np.arange(n) for n in i.shape], indexing="ij"))
    grids[axis] = i
    return np.stack([g.astype(np.int64) for g in grids], axis=-1)


def test_e4_gather_elements_is_gather_nd_of_coordinates():
    for rng in rngs(seed=4):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        a = int(rng.integers(0, r))
        ishape = tuple(int(rng.integers(1, n + 1)) for n in d.shape)
        ishape = ishape[:a] + (int(rng.integers(0 if rng.random() < 0.15 else 1, 4)),) + ishape[a + 1 :]
        i = idx(rng, d.shape[a], ishape)
        c = coordinates(i, a)
        assert same(gs.onnx.GatherElements(d, i, axis=a), gs.onnx.GatherND(d, c))
        assert same(ADAPTERS["coordinates"].run(i, axis=a), c)  # the adapter is docs/semantics.md#e4's C


def test_e4_translation_to_a_framework_without_gather_elements():
    """TensorFlow has no GatherElements: torch.gather goes through element coordinates and gather_nd."""
    t = gs.translate("torch.gather", to="tensorflow", dim=1)
    assert t.ops == ["tensorflow.gather_nd"]
    assert {"coordinates", "nd_coordinates", "take_coordinates"} & set(steps_named(t))
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e5


def test_e5_tf_scatter_nd_is_scatter_nd_add_into_zeros():
    for rng in rngs(seed=5):
        dshape = shape(rng, int(rng.integers(1, 4)))
        k = int(rng.integers(1, len(dshape) + 1))
        lead = shape(rng, int(rng.integers(1, 3)))  # TF: indices have at least 2 axes
        i = np.stack([idx(rng, dshape[c], lead, negative=False, dup=rng.random() < 0.5) for c in range(k)], -1)
        u = data(rng, lead + dshape[k:])
        lhs = gs.tensorflow.scatter_nd(i, u, dshape)
        zeros = np.zeros(dshape, u.dtype)
        assert same(lhs, gs.onnx.ScatterND(zeros, i, u, reduction="add"))
        assert same(lhs, gs.tensorflow.tensor_scatter_nd_add(zeros, i, u))


def test_e5_translation():
    t = gs.translate("tensorflow.scatter_nd", to="onnx")
    assert t.ops == ["onnx.ScatterND"] and reductions_of(t) == ["add"]
    assert steps_named(t)[0] == "zeros"
    assert t.exact
    assert_verified(t)
    old = gs.translate("tensorflow.scatter_nd", to="onnx", version=13)  # no reduction before opset 16
    assert not old.exact and any("opset 16" in d for d in old.divergences)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e6


def test_e6_mxnet_gather_nd_and_scatter_nd_are_onnx_with_the_index_axis_moved():
    checked = 0
    for rng in rngs(seed=6):
        d = data(rng, shape(rng, int(rng.integers(1, 4))))
        k = int(rng.integers(1, d.ndim + 1))
        lead = shape(rng, int(rng.integers(1, 3)))
        i = np.stack([idx(rng, d.shape[c], lead) for c in range(k)], 0).astype(np.float32)  # tuples on axis 0
        moved = np.moveaxis(i, 0, -1).astype(np.int64)
        assert same(gs.mxnet.gather_nd(d, i), gs.onnx.GatherND(d, moved))
        # scatter_nd: no duplicates (unspecified on both sides), non-negative (MXNet scatter_nd rejects them)
        j = np.stack([idx(rng, d.shape[c], lead, negative=False) for c in range(k)], 0)
        rows = np.moveaxis(j, 0, -1).reshape(-1, k)
        if len({tuple(x) for x in rows}) < len(rows):
            continue
        u = data(rng, lead + d.shape[k:])
        rhs = gs.onnx.ScatterND(np.zeros(d.shape, u.dtype), np.moveaxis(j, 0, -1).astype(np.int64), u)
        assert same(gs.mxnet.scatter_nd(u, j.astype(np.float32), d.shape), rhs)
        checked += 1
    assert checked >= N // 4


def test_e6_translations():
    t = gs.translate("mxnet.gather_nd", to="onnx")
    assert t.ops == ["onnx.GatherND"]
    names = steps_named(t)
    assert names.index("moveaxis") < names.index("cast") < names.index("onnx.GatherND")
    assert t.steps[0].attr_map == {"source": 0, "destination": -1}
    assert_verified(t)
    s = gs.translate("mxnet.scatter_nd", to="onnx")
    assert s.ops == ["onnx.ScatterND"] and {"moveaxis", "cast"} <= set(steps_named(s))
    assert_verified(s)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e7


def test_e7_batched_gather_is_gather_nd_with_batch_dims():
    for rng in rngs(seed=7):
        r = int(rng.integers(2, 5))
        d = data(rng, shape(rng, r))
        b = int(rng.integers(1, r))
        axis = int(rng.integers(b, r))
        i = idx(rng, d.shape[axis], d.shape[:b] + shape(rng, int(rng.integers(0, 3))), negative=False)
        lhs = gs.tensorflow.gather(d, i, axis=axis, batch_dims=b)
        if axis == b:
            assert same(lhs, gs.onnx.GatherND(d, i[..., None], batch_dims=b))
        moved = np.moveaxis(d, axis, b)  # axis > b: transpose axis to b first ...
        g = gs.onnx.GatherND(moved, i[..., None], batch_dims=b)
        q = i.ndim
        back = np.moveaxis(g, list(range(b, q)), list(range(axis, axis + q - b)))  # ... and back after
        assert same(lhs, back), (d.shape, i.shape, axis, b)


@pytest.mark.parametrize(("axis", "batch_dims"), [(1, 1), (2, 1), (2, 2), (3, 1)])
def test_e7_translations(axis, batch_dims):
    """axis == batch_dims: docs/semantics.md#e7 literally. Otherwise the planner reads each output element at its
    coordinates
    (docs/semantics.md#e1's gather-as-gather_nd with full index tuples), which needs no knowledge of the ranks at plan
    time."""
    t = gs.translate("tensorflow.gather", to="onnx", axis=axis, batch_dims=batch_dims)
    assert t.ops == ["onnx.GatherND"]
    nd = t.steps[steps_named(t).index("onnx.GatherND")]
    if axis == batch_dims:
        assert nd.attr_map["batch_dims"] == batch_dims and "expand_dims" in steps_named(t)
    else:
        assert nd.attr_map["batch_dims"] == 0 and "take_coordinates" in steps_named(t)
    assert_verified(t)
    old = gs.translate("tensorflow.gather", to="onnx", axis=axis, batch_dims=batch_dims, version=11)
    assert "take_coordinates" in steps_named(old)  # GatherND's batch_dims needs opset 12
    assert_verified(old)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e8


def test_e8_batched_gather_nd_agrees_across_tf_onnx_openvino():
    for rng in rngs(seed=8):
        r = int(rng.integers(2, 5))
        d = data(rng, shape(rng, r))
        b = int(rng.integers(0, r))
        k = int(rng.integers(1, r - b + 1))
        lead = d.shape[:b] + shape(rng, int(rng.integers(0, 3)))
        i = np.stack([idx(rng, d.shape[b + c], lead, negative=False) for c in range(k)], -1)
        ref = gs.onnx.GatherND(d, i, batch_dims=b)
        assert same(gs.tensorflow.gather_nd(d, i, batch_dims=b), ref)
        assert same(gs.openvino.GatherND(d, i, batch_dims=b, version=8), ref)
        # GatherND-5 flattens the batch dims: a trailing Reshape restores them
        v5 = gs.openvino.GatherND(d, i, batch_dims=b, version=5)
        assert same(v5.reshape(ref.shape), ref)
        if b > 1 and ref.size:
            assert v5.shape != ref.shape


def test_e8_translations():
    t = gs.translate("tensorflow.gather_nd", to="onnx", batch_dims=1)
    assert t.ops == ["onnx.GatherND"] and t.steps[-1].attr_map["batch_dims"] == 1
    assert_verified(t)
    ov = gs.translate("tensorflow.gather_nd", to="openvino", batch_dims=1)
    assert ov.ops == ["openvino.GatherND"]
    assert_verified(ov)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e9
# docs/semantics.md#e10 docs/semantics.md#e11

TORCH_TO_ONNX = {"sum": "add", "prod": "mul", "amax": "max", "amin": "min"}
IDENTITY = {"add": 0.0, "mul": 1.0, "max": -np.inf, "min": np.inf}  # docs/semantics.md#e10's neutral elements (float)


def scatter_case(rng, *, dtype=np.float64):
    r = int(rng.integers(1, 4))
    d = data(rng, shape(rng, r), dtype)
    dim = int(rng.integers(0, r))
    ishape = d.shape[:dim] + (int(rng.integers(1, 5)),) + d.shape[dim + 1 :]
    i = idx(rng, d.shape[dim], ishape, negative=False, dup=rng.random() < 0.6)
    u = data(rng, ishape, dtype)
    return d, dim, i, u


def test_e9_scatter_reduce_with_self_is_scatter_elements_with_reduction():
    for rng in rngs(seed=9):
        d, dim, i, u = scatter_case(rng)
        for r, onnx_r in TORCH_TO_ONNX.items():
            lhs = gs.torch.scatter_reduce(d, dim, i, u, r, include_self=True)
            assert same(lhs, gs.onnx.ScatterElements(d, i, u, axis=dim, reduction=onnx_r)), r
        assert same(gs.torch.scatter_add(d, dim, i, u), gs.onnx.ScatterElements(d, i, u, axis=dim, reduction="add"))


@pytest.mark.parametrize("reduce", sorted(TORCH_TO_ONNX))
def test_e9_translations(reduce):
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce=reduce)
    assert t.ops == ["onnx.ScatterElements"] and reductions_of(t) == [TORCH_TO_ONNX[reduce]]
    assert_verified(t)
    needed = 18 if reduce in ("amax", "amin") else 16
    old = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce=reduce, version=needed - 2)
    assert not old.exact and any(str(needed) in d for d in old.divergences)


def test_e10_include_self_false_is_identity_prefill_then_reduce():
    for rng in rngs(seed=10):
        d, dim, i, u = scatter_case(rng)
        for r, onnx_r in TORCH_TO_ONNX.items():
            ident = np.full(u.shape, IDENTITY[onnx_r])
            base = gs.onnx.ScatterElements(d, i, ident, axis=dim)  # reduction none: write the identity
            rhs = gs.onnx.ScatterElements(base, i, u, axis=dim, reduction=onnx_r)
            assert same(gs.torch.scatter_reduce(d, dim, i, u, r, include_self=False), rhs), r


def test_e10_integer_identities_are_the_dtype_extremes():
    for rng in rngs(seed=11):
        d, dim, i, u = scatter_case(rng, dtype=np.int32)
        for r, ident in (("amax", np.iinfo(np.int32).min), ("amin", np.iinfo(np.int32).max)):
            base = gs.onnx.ScatterElements(d, i, np.full(u.shape, ident, np.int32), axis=dim)
            rhs = gs.onnx.ScatterElements(base, i, u, axis=dim, reduction=TORCH_TO_ONNX[r])
            assert same(gs.torch.scatter_reduce(d, dim, i, u, r, include_self=False), rhs)


@pytest.mark.parametrize("reduce", sorted(TORCH_TO_ONNX))
def test_e10_translations(reduce):
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=1, reduce=reduce, include_self=False)
    assert t.ops == ["onnx.ScatterElements"] * 2
    assert reductions_of(t) == ["none", TORCH_TO_ONNX[reduce]]
    pre = [s for s in t.steps if s.name == "identity_like"]
    assert len(pre) == 1 and pre[0].attr_map["reduction"] == TORCH_TO_ONNX[reduce]
    assert_verified(t)


def mean_by_hand(d, dim, i, u, include_self: bool):
    """docs/semantics.md#e11 from ONNX ops: sum / count, D where nothing was written; integers floor-divide."""
    base = d if include_self else gs.onnx.ScatterElements(d, i, np.zeros_like(u), axis=dim)
    total = gs.onnx.ScatterElements(base, i, u, axis=dim, reduction="add")
    ones = np.ones_like(d) if include_self else np.zeros_like(d)
    count = gs.onnx.ScatterElements(ones, i, np.ones_like(u), axis=dim, reduction="add")
    safe = np.where(count == 0, 1, count)
    q = total // safe if d.dtype.kind in "iu" else total / safe
    return np.where(count == 0, d, q).astype(d.dtype)


def test_e11_mean_is_sum_over_count():
    for rng in rngs(seed=12):
        for dtype in (np.float64, np.int64):
            d, dim, i, u = scatter_case(rng, dtype=dtype)
            for s in (True, False):
                lhs = gs.torch.scatter_reduce(d, dim, i, u, "mean", include_self=s)
                assert same(lhs, mean_by_hand(d, dim, i, u, s)), (dtype, s)


@pytest.mark.parametrize("include_self", [True, False])
def test_e11_translations(include_self):
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean", include_self=include_self)
    assert reductions_of(t) == (["add", "add"] if include_self else ["none", "add", "add"])
    assert steps_named(t)[-1] == "divide_counts"
    assert_verified(t, 150)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e12


def test_e12_index_put_is_scatter_nd_of_stacked_broadcast_indices():
    for rng in rngs(seed=13):
        d = data(rng, shape(rng, int(rng.integers(1, 4))))
        k = int(rng.integers(1, d.ndim + 1))
        b1 = shape(rng, int(rng.integers(1, 3)))
        parts = [idx(rng, d.shape[c], b1 if c % 2 == 0 else b1[-1:], dup=True) for c in range(k)]
        bshape = np.broadcast_shapes(*[p.shape for p in parts])
        v = data(rng, (1,) if rng.random() < 0.3 else bshape + d.shape[k:])
        stacked = np.stack(np.broadcast_arrays(*parts), -1)
        vb = np.broadcast_to(v, bshape + d.shape[k:])
        rows = np.where(stacked < 0, stacked + np.array(d.shape[:k]), stacked).reshape(-1, k)
        if len({tuple(x) for x in rows}) == len(rows):  # overwrite: duplicates are unspecified in ONNX
            assert same(gs.torch.index_put(d, tuple(parts), v), gs.onnx.ScatterND(d, stacked, vb))
        acc = gs.torch.index_put(d, tuple(parts), v, accumulate=True)
        assert same(acc, gs.onnx.ScatterND(d, stacked, vb, reduction="add"))


@pytest.mark.parametrize("accumulate", [False, True])
def test_e12_translations(accumulate):
    t = gs.translate("torch.index_put", to="onnx", accumulate=accumulate)
    assert t.ops == ["onnx.ScatterND"] and reductions_of(t) == ["add" if accumulate else "none"]
    assert "stack_last" in steps_named(t)
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e13


def test_e13_index_select_is_gather_and_index_add_is_moved_scatter_nd():
    for rng in rngs(seed=14):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        dim = int(rng.integers(0, r))
        i = idx(rng, d.shape[dim], (int(rng.integers(0, 5)),), negative=False, dup=True)
        assert same(gs.torch.index_select(d, dim, i), gs.onnx.Gather(d, i, axis=dim))
        s = data(rng, d.shape[:dim] + i.shape + d.shape[dim + 1 :])
        alpha = float(rng.integers(-2, 3))
        lhs = gs.torch.index_add(d, dim, i, s, alpha=alpha)
        nd = gs.onnx.ScatterND(np.moveaxis(d, dim, 0), i[:, None], np.moveaxis(alpha * s, dim, 0), reduction="add")
        assert same(lhs, np.moveaxis(nd, 0, dim))


def test_e13_translations():
    t = gs.translate("torch.index_select", to="onnx", dim=1)
    assert t.ops == ["onnx.Gather"]
    assert_verified(t)
    a = gs.translate("torch.index_add", to="onnx", dim=1, alpha=2)
    assert len(a.ops) == 1 and a.ops[0] in ("onnx.ScatterND", "onnx.ScatterElements")
    assert reductions_of(a) == ["add"] and "scale" in steps_named(a)
    assert_verified(a)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e14


def test_e14_take_along_axis_is_gather_elements_of_expanded_indices():
    for rng in rngs(seed=15):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        a = int(rng.integers(0, r))
        ishape = tuple(1 if rng.random() < 0.4 else n for n in d.shape)  # size-1 dims broadcast
        ishape = ishape[:a] + (int(rng.integers(1, 4)),) + ishape[a + 1 :]
        i = idx(rng, d.shape[a], ishape)
        full = d.shape[:a] + (i.shape[a],) + d.shape[a + 1 :]
        rhs = gs.onnx.GatherElements(d, np.broadcast_to(i, full), axis=a)
        assert same(gs.numpy.take_along_axis(d, i, axis=a), rhs)
        assert same(gs.jax.take_along_axis(d, i, axis=a), rhs)
        assert same(gs.torch.take_along_dim(d, i, dim=a), rhs)  # wraps negatives, unlike torch.gather


def test_e14_translations():
    t = gs.translate("numpy.take_along_axis", to="onnx", axis=1)
    assert t.ops == ["onnx.GatherElements"]
    assert {"broadcast_indices", "broadcast_data"} & set(steps_named(t))
    assert_verified(t)
    to_torch = gs.translate("numpy.take_along_axis", to="torch", axis=1)
    assert "normalize_negative" in steps_named(to_torch) or to_torch.ops == ["torch.take_along_dim"]
    assert_verified(to_torch)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e15


def test_e15_adjacent_advanced_indexing_is_gather_nd_of_stacked_indices():
    for rng in rngs(seed=16):
        d = data(rng, shape(rng, int(rng.integers(2, 4))))
        s = shape(rng, int(rng.integers(1, 3)))
        i0, i1 = idx(rng, d.shape[0], s), idx(rng, d.shape[1], s[-1:])
        lhs = d[i0, i1]  # NumPy's own indexing is the oracle
        stacked = np.stack(np.broadcast_arrays(i0, i1), -1)
        assert same(lhs, gs.onnx.GatherND(d, stacked))
        assert same(gs.jax.at_get(d, (i0, i1)), lhs)


def test_e15_translation():
    t = gs.translate("jax.at_get", to="onnx", form="tuple")
    assert t.ops == ["onnx.GatherND"] and "stack_last" in steps_named(t)
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e16


def test_e16_scatter_elements_is_scatter_nd_of_coordinates():
    for rng in rngs(seed=17):
        d, dim, i, u = scatter_case(rng)
        c = coordinates(i, dim)
        for red in ("add", "mul", "max", "min"):
            assert same(gs.onnx.ScatterElements(d, i, u, axis=dim, reduction=red),
                        gs.onnx.ScatterND(d, c, u, reduction=red)), red
        j = idx(rng, d.shape[dim], i.shape)
        if len({tuple(x) for x in coordinates(np.where(j < 0, j + d.shape[dim], j), dim).reshape(-1, d.ndim)}) \
                == j.size:
            assert same(gs.onnx.ScatterElements(d, j, u, axis=dim), gs.onnx.ScatterND(d, coordinates(j, dim), u))


@pytest.mark.parametrize("reduction", ["none", "add", "max"])
def test_e16_translation_to_tensorflow(reduction):
    t = gs.translate("onnx.ScatterElements", to="tensorflow", axis=1, reduction=reduction)
    assert all(op.startswith("tensorflow.tensor_scatter_nd_") for op in t.ops)
    assert {"coordinates", "nd_coordinates"} & set(steps_named(t))
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e17


def test_e17_openvino_scatter_update_is_scatter_nd_of_unsqueezed_indices():
    """Checked here (the spec leaves docs/semantics.md#e17 unchecked). Found: exact for axis 0 with non-negative indices
    and
    no duplicates, index of any rank; other axes after moving the axis to the front (data) and the index
    block to the front (updates), then back. ScatterUpdate-3 rejects negative indices where ScatterND wraps
    them. TF v1 ``scatter_update`` is not a registered op here, so that third side is not checked."""
    checked = 0
    for rng in rngs(seed=18):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        a = int(rng.integers(0, r))
        ishape = shape(rng, int(rng.integers(0, 3)))
        i = rng.permutation(d.shape[a])[: int(np.prod(ishape, dtype=int))]
        if i.size < int(np.prod(ishape, dtype=int)):
            continue
        i = i.reshape(ishape).astype(np.int64)
        u = data(rng, d.shape[:a] + i.shape + d.shape[a + 1 :])
        lhs = gs.openvino.ScatterUpdate(d, i, u, axis=a)
        q = i.ndim
        moved_u = np.moveaxis(u, list(range(a, a + q)), list(range(q)))
        nd = gs.onnx.ScatterND(np.moveaxis(d, a, 0), i[..., None], moved_u)
        assert same(lhs, np.moveaxis(nd, 0, a))
        if a == 0:
            assert same(lhs, gs.onnx.ScatterND(d, i[..., None], u))
        checked += 1
    assert checked >= N // 4
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.openvino.ScatterUpdate(np.zeros((2, 3)), [-1], np.ones((1, 3)), axis=0)


def test_e17_translation():
    t = gs.translate("openvino.ScatterUpdate", to="onnx", axis=0)
    assert len(t.ops) == 1 and t.ops[0] in ("onnx.ScatterND", "onnx.ScatterElements")
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e18


def test_e18_onnx_scatter_9_is_scatter_elements_11():
    """Checked here (the spec leaves docs/semantics.md#e18 unchecked). Found: Scatter-9 and ScatterElements-11
    (reduction
    none) agree on every generated input, negative indices included (both wrap them once) and out-of-range
    ones (both raise)."""
    for rng in rngs(seed=19):
        d, dim, i, u = scatter_case(rng)
        j = idx(rng, d.shape[dim], i.shape)
        assert same(gs.onnx.Scatter(d, j, u, axis=dim), gs.onnx.ScatterElements(d, j, u, axis=dim, opset=11))
        bad = j.copy()
        bad.reshape(-1)[0] = d.shape[dim]
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.Scatter(d, bad, u, axis=dim)
        with pytest.raises(gs.IndexOutOfRangeError):
            gs.onnx.ScatterElements(d, bad, u, axis=dim, opset=11)


def test_e18_translation():
    t = gs.translate("onnx.Scatter", to="onnx", axis=1)
    assert t.ops == ["onnx.ScatterElements"] and reductions_of(t) == ["none"]
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e19


def test_e19_paddle_scatter():
    for rng in rngs(seed=20):
        d = data(rng, shape(rng, int(rng.integers(1, 4))))
        i = idx(rng, d.shape[0], (int(rng.integers(1, 5)),), negative=False, dup=rng.random() < 0.6)
        u = data(rng, i.shape + d.shape[1:])
        nd = i[:, None]
        if len(set(i.tolist())) == i.size:
            assert same(gs.paddle.scatter(d, i, u, overwrite=True), gs.onnx.ScatterND(d, nd, u))
        zeroed = gs.onnx.ScatterND(d, nd, np.zeros_like(u))
        rhs = gs.onnx.ScatterND(zeroed, nd, u, reduction="add")
        assert same(gs.paddle.scatter(d, i, u, overwrite=False), rhs)  # docs/semantics.md#pitfall-10: the old rows are
                                                                       # dropped


@pytest.mark.parametrize("overwrite", [True, False])
def test_e19_translations(overwrite):
    t = gs.translate("paddle.scatter", to="onnx", overwrite=overwrite)
    if overwrite:
        assert reductions_of(t) == ["none"]
    else:
        assert reductions_of(t) == ["none", "add"]  # zero the targeted rows, then add
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e20


def test_e20_zero_fill_and_clamp_gathers_in_onnx():
    """Checked here (the spec leaves docs/semantics.md#e20 unchecked). Found: exact for TF-GPU (negative indices are out
    of
    range: zero) and XLA/JAX clamping (-1 clamps to 0, no wrapping) as written. OpenVINO Gather-8 wraps
    negative indices first, so its form is Where(valid(I'), Gather(D, Clip(I')), 0) with I' = I + s*(I<0);
    without that normalisation the formula gives 0 where Gather-8 reads from the end."""
    for rng in rngs(seed=21):
        r = int(rng.integers(1, 4))
        d = data(rng, shape(rng, r))
        a = int(rng.integers(0, r))
        s = d.shape[a]
        i = rng.integers(-s - 2, s + 3, size=shape(rng, int(rng.integers(0, 3)))).astype(np.int64)
        clipped = np.clip(i, 0, s - 1)
        valid = (i >= 0) & (i < s)
        g = gs.onnx.Gather(d, clipped, axis=a)
        mask = valid.reshape((1,) * a + i.shape + (1,) * (d.ndim - a - 1))
        zero_fill = np.where(mask, g, np.zeros((), d.dtype))
        assert same(gs.tensorflow.gather(d, i, axis=a, device="gpu"), zero_fill)
        assert same(gs.tensorflow.gather(d, i, axis=a, device="xla"), g)
        assert same(gs.jax.take(d, i, axis=a, mode="clip"), g)
        wrapped = np.where((i < 0) & (i >= -s), i + s, i)
        ok = (wrapped >= 0) & (wrapped < s)
        g8 = gs.onnx.Gather(d, np.clip(wrapped, 0, s - 1), axis=a)
        ov = np.where(ok.reshape((1,) * a + i.shape + (1,) * (d.ndim - a - 1)), g8, np.zeros((), d.dtype))
        assert same(gs.openvino.Gather(d, i, axis=a, version=8), ov)


@pytest.mark.parametrize(("op", "attrs"), [("tensorflow.gather", {"axis": 0, "device": "gpu"}),
                                           ("openvino.Gather", {"axis": 1, "op_version": 8})])
def test_e20_zero_fill_translations(op, attrs):
    t = gs.translate(op, to="onnx", **attrs)
    assert t.ops == ["onnx.Gather"]
    names = steps_named(t)
    assert {"valid_mask", "clip_index", "mask_result"} <= set(names)
    assert names.index("clip_index") < names.index("onnx.Gather") < names.index("mask_result")
    assert_verified(t)


@pytest.mark.parametrize(("op", "attrs"), [("tensorflow.gather", {"axis": 0, "device": "xla"}),
                                           ("jax.take", {"axis": 0, "mode": "clip"})])
def test_e20_clamp_translations(op, attrs):
    t = gs.translate(op, to="onnx", **attrs)
    assert t.ops == ["onnx.Gather"] and "clip_index" in steps_named(t) and "mask_result" not in steps_named(t)
    assert_verified(t)


# ---------------------------------------------------------------------------------------------- docs/semantics.md#e21


def test_e21_every_family_through_lax_dimension_numbers():
    lax = gs.jax.lax
    for rng in rngs(seed=22):
        d = data(rng, shape(rng, 3))
        a = int(rng.integers(0, 3))
        # gather (take along axis a): collapse axis a, window the others
        i = idx(rng, d.shape[a], shape(rng, 2), negative=False)
        offs = tuple(x for x in range(3) if x != a)
        dn = lax.GatherDimensionNumbers(offset_dims=tuple(range(a)) + tuple(range(a + 2, 4)),
                                        collapsed_slice_dims=(a,), start_index_map=(a,))
        sizes = tuple(1 if x == a else d.shape[x] for x in range(3))
        assert offs  # the windows cover every other axis
        assert same(lax.gather(d, i[..., None], dn, sizes), gs.onnx.Gather(d, i, axis=a))
        # gather_nd (k = 2 leading dims): collapse both, window the rest
        j = np.stack([idx(rng, d.shape[c], (3,), negative=False) for c in range(2)], -1)
        dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
        assert same(lax.gather(d, j, dn, (1, 1, d.shape[2])), gs.onnx.GatherND(d, j))
        # gather_elements on axis a: the other axes are batching dims
        e = idx(rng, d.shape[a], d.shape, negative=False)
        bdims = tuple(x for x in range(3) if x != a)
        dn = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(a,), start_index_map=(a,),
                                        operand_batching_dims=bdims, start_indices_batching_dims=bdims)
        assert same(lax.gather(d, e[..., None], dn, (1, 1, 1)), gs.onnx.GatherElements(d, e, axis=a))
        # scatter_nd add (duplicates sum)
        u = data(rng, (3, d.shape[2]))
        sdn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0, 1),
                                          scatter_dims_to_operand_dims=(0, 1))
        assert same(lax.scatter_add(d, j, u, sdn), gs.onnx.ScatterND(d, j, u, reduction="add"))
        # scatter_elements max on axis a
        ue = data(rng, e.shape)
        sdn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(a,),
                                          scatter_dims_to_operand_dims=(a,), operand_batching_dims=bdims,
                                          scatter_indices_batching_dims=bdims)
        assert same(lax.scatter_max(d, e[..., None], ue, sdn), gs.onnx.ScatterElements(d, e, ue, axis=a,
                                                                                      reduction="max"))


def test_e21_translation_from_lax_gather():
    dn = gs.jax.lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    try:
        t = gs.translate("jax.lax.gather", to="onnx", dimension_numbers=dn, slice_sizes=(1, 3))
    except gs.UnsupportedError as e:
        pytest.skip(f"jax.lax.gather has no source description: {e}")
    assert t.ops and all(op.startswith("onnx.Gather") for op in t.ops)
    assert_verified(t)
