"""gs.jax.lax.gather and scatter / scatter_add / scatter_mul / scatter_min / scatter_max."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests import strategies as gst
from tests.oracles import jax as oracle

from .helpers import assert_same

L = gs.jax.lax
GDN = L.GatherDimensionNumbers
SDN = L.ScatterDimensionNumbers
NAN = np.nan
AR5 = np.arange(5.0)
ELEM = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
WIN = GDN(offset_dims=(1,), collapsed_slice_dims=(), start_index_map=(0,))

GATHER_CASES = [
    # docs/semantics.md#s7-3 observations
    ("no negative wrap, clamp", AR5, [[7], [-3]], ELEM, (1,), {}, np.array([4.0, 0.0])),
    ("fill", AR5, [[7], [-3]], ELEM, (1,), {"mode": "fill"}, np.array([NAN, NAN])),
    ("window clip", AR5, [[4]], WIN, (2,), {"mode": "clip"}, np.array([[3.0, 4.0]])),
    ("window fill", AR5, [[4]], WIN, (2,), {"mode": "fill"}, np.array([[NAN, NAN]])),
    ("window promise clamps", AR5, [[4]], WIN, (2,), {"mode": "promise_in_bounds"}, np.array([[3.0, 4.0]])),
    (
        "docstring example",
        np.array([10, 11, 12]),
        np.array([0, 1, 1, 2, 2, 2])[:, None],
        ELEM,
        (1,),
        {},
        np.array([10, 11, 11, 12, 12, 12]),
    ),
    ("int fill is iinfo.min", np.arange(5), [[9]], ELEM, (1,), {"mode": "fill"}, np.array([-(2**63)])),
    ("fill_value", np.arange(5), [[9]], ELEM, (1,), {"mode": "fill", "fill_value": -5}, np.array([-5])),
    ("fill_value ignored by clip", np.arange(5), [[9]], ELEM, (1,), {"mode": "clip", "fill_value": -5}, np.array([4])),
    ("drop is fill", AR5, [[9]], ELEM, (1,), {"mode": "drop"}, np.array([NAN])),
    (
        "GatherScatterMode.FILL_OR_DROP",
        AR5,
        [[9]],
        ELEM,
        (1,),
        {"mode": L.GatherScatterMode.FILL_OR_DROP},
        np.array([NAN]),
    ),
    # docs/semantics.md#s7-4 recipes
    (
        "Gather(axis=1) recipe",
        np.arange(6.0).reshape(2, 3),
        [[2], [0]],
        GDN(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,)),
        (2, 1),
        {},
        np.array([[2.0, 0.0], [5.0, 3.0]]),
    ),
    (
        "GatherND recipe",
        np.arange(6.0).reshape(2, 3),
        [[1, 2], [0, 0]],
        GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)),
        (1, 1),
        {},
        np.array([5.0, 0.0]),
    ),
    (
        "GatherElements via batching",
        np.arange(6.0).reshape(2, 3),
        [[2], [0]],
        GDN((), (1,), (1,), (0,), (0,)),
        (1, 1),
        {},
        np.array([2.0, 3.0]),
    ),
    (
        "rows, trailing window",
        np.array([[1, 2], [3, 4], [5, 6]]),
        [[2], [0]],
        GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)),
        (1, 2),
        {},
        np.array([[5, 6], [1, 2]]),
    ),
    (
        "empty index vector: whole windows",
        np.arange(6.0).reshape(2, 3),
        np.zeros((2, 0), np.int64),
        GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=()),
        (2, 3),
        {},
        np.stack([np.arange(6.0).reshape(2, 3)] * 2),
    ),
    (
        "start_index_map out of order",
        np.arange(12.0).reshape(3, 4),
        [[3, 1]],
        GDN(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(1, 0)),
        (1, 1),
        {},
        np.array([7.0]),
    ),
    (
        "2-d window clamped on both dims",
        np.arange(12.0).reshape(3, 4),
        [[5, -2]],
        GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)),
        (2, 2),
        {},
        np.array([[[4.0, 5.0], [8.0, 9.0]]]),
    ),
    (
        "2-d window fill",
        np.arange(12.0).reshape(3, 4),
        [[1, 3], [1, 2]],
        GDN(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)),
        (2, 2),
        {"mode": "fill"},
        np.array([[[NAN, NAN], [NAN, NAN]], [[6.0, 7.0], [10.0, 11.0]]]),
    ),
    ("empty indices", AR5, np.zeros((0, 1), np.int64), ELEM, (1,), {}, np.zeros(0)),
    ("empty operand, size-0 windows", np.zeros(0), [[1], [0]], WIN, (0,), {"mode": "fill"}, np.zeros((2, 0))),
    ("uint64 huge start clamps", AR5, np.array([[2**64 - 1]], np.uint64), ELEM, (1,), {}, np.array([4.0])),
    ("tuple dimension numbers", AR5, [[1]], ((), (0,), (0,)), (1,), {}, np.array([1.0])),
]


@pytest.mark.parametrize(
    ("name", "op", "idx", "dn", "sizes", "kw", "want"), GATHER_CASES, ids=[c[0] for c in GATHER_CASES]
)
def test_gather_cases(name: str, op: Any, idx: Any, dn: Any, sizes: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(L.gather(op, idx, dn, sizes, **kw), want)


Z5 = np.zeros(5)
ONES5 = np.ones(5)
EL = SDN(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
W_FIRST = SDN(update_window_dims=(0,), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,))
W_LAST = SDN(update_window_dims=(1,), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,))
UPD = np.array([[1.0, 2.0], [3.0, 4.0]])

SCATTER_CASES = [
    ("default drops oob", "scatter", Z5, [[7], [1]], [5.0, 6.0], EL, {}, np.array([0.0, 6.0, 0.0, 0.0, 0.0])),
    ("negative dropped (no wrap)", "scatter", Z5, [[-1]], [5.0], EL, {}, Z5),
    ("negative clip", "scatter", Z5, [[-1]], [5.0], EL, {"mode": "clip"}, np.array([5.0, 0.0, 0.0, 0.0, 0.0])),
    # docs/semantics.md#s7-3: a window of size 2 at start 4 on length 5
    ("window partly out: dropped", "scatter", Z5, [[4]], [[1.0, 2.0]], W_LAST, {"mode": "drop"}, Z5),
    (
        "window partly out: clip",
        "scatter",
        Z5,
        [[4]],
        [[1.0, 2.0]],
        W_LAST,
        {"mode": "clip"},
        np.array([0.0, 0.0, 0.0, 1.0, 2.0]),
    ),
    ("window partly out: promise drops", "scatter", Z5, [[4]], [[1.0, 2.0]], W_LAST, {"mode": "promise_in_bounds"}, Z5),
    ("one_hot scatters like drop", "scatter", Z5, [[9]], [[7.0, 8.0]], W_LAST, {"mode": "one_hot"}, Z5),
    # overlapping windows: the later scatter index wins (XLA CPU order)
    ("overlap, window dim first", "scatter", Z5, [[0], [1]], UPD, W_FIRST, {}, np.array([1.0, 2.0, 4.0, 0.0, 0.0])),
    ("overlap, window dim last", "scatter", Z5, [[0], [1]], UPD, W_LAST, {}, np.array([1.0, 3.0, 4.0, 0.0, 0.0])),
    ("overlap add", "scatter_add", Z5, [[0], [1]], UPD, W_LAST, {}, np.array([1.0, 5.0, 4.0, 0.0, 0.0])),
    (
        "duplicates last",
        "scatter",
        Z5,
        [[1], [1], [1]],
        [10.0, 20.0, 30.0],
        EL,
        {},
        np.array([0.0, 30.0, 0.0, 0.0, 0.0]),
    ),
    (
        "add",
        "scatter_add",
        Z5,
        [[1], [2], [2], [9]],
        [7.0, 8.0, 9.0, 5.0],
        EL,
        {},
        np.array([0.0, 7.0, 17.0, 0.0, 0.0]),
    ),
    ("mul", "scatter_mul", ONES5, [[1], [2], [2]], [7.0, 8.0, 9.0], EL, {}, np.array([1.0, 7.0, 72.0, 1.0, 1.0])),
    ("min", "scatter_min", ONES5, [[1], [2]], [7.0, -8.0], EL, {}, np.array([1.0, 1.0, -8.0, 1.0, 1.0])),
    ("max", "scatter_max", ONES5, [[1], [2]], [7.0, -8.0], EL, {}, np.array([1.0, 7.0, 1.0, 1.0, 1.0])),
    ("bool max = or", "scatter_max", np.array([True, False]), [[1]], [True], EL, {}, np.array([True, True])),
    ("bool min = and", "scatter_min", np.array([True, False]), [[0]], [False], EL, {}, np.array([False, False])),
    (
        "int32 mul overflow wraps",
        "scatter_mul",
        np.full(4, 3, np.int32),
        [[0], [0]],
        np.array([2**20, 2**20], np.int32),
        EL,
        {},
        np.array([0, 3, 3, 3], np.int32),
    ),
    (
        "ScatterElements via batching",
        "scatter",
        np.zeros((2, 3)),
        [[2], [0]],
        [5.0, 6.0],
        SDN((), (1,), (1,), (0,), (0,)),
        {},
        np.array([[0.0, 0.0, 5.0], [6.0, 0.0, 0.0]]),
    ),
    (
        "row update, trailing window",
        "scatter",
        np.zeros((3, 2)),
        [[2], [0]],
        [[1.0, 2.0], [3.0, 4.0]],
        SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)),
        {},
        np.array([[3.0, 4.0], [0.0, 0.0], [1.0, 2.0]]),
    ),
    ("empty updates", "scatter_add", Z5, np.zeros((0, 1), np.int64), np.zeros(0), EL, {}, Z5),
    ("uint64 huge index dropped", "scatter", Z5, np.array([[2**64 - 1]], np.uint64), [1.0], EL, {}, Z5),
    (
        "list updates take the operand dtype",
        "scatter",
        np.zeros(3, np.float32),
        [[1]],
        [2.5],
        EL,
        {},
        np.array([0.0, 2.5, 0.0], np.float32),
    ),
]


@pytest.mark.parametrize(
    ("name", "fn", "op", "idx", "upd", "dn", "kw", "want"), SCATTER_CASES, ids=[c[0] for c in SCATTER_CASES]
)
def test_scatter_cases(name: str, fn: str, op: Any, idx: Any, upd: Any, dn: Any, kw: dict[str, Any], want: Any) -> None:
    assert_same(getattr(L, fn)(op, idx, upd, dn, **kw), want)


GATHER_ERRORS = [
    ("0-d indices", AR5, np.int64(1), ELEM, (1,), {}, gs.ShapeError, "rank >= 1"),
    ("float indices", AR5, [[1.0]], ELEM, (1,), {}, gs.DTypeError, "integer type"),
    ("bool indices", AR5, [[True]], ELEM, (1,), {}, gs.DTypeError, "integer type"),
    (
        "bad window accounting",
        AR5,
        [[1]],
        GDN((0,), (0,), (0,)),
        (1,),
        {},
        gs.ShapeError,
        "must be an offset, collapsed or batching dim",
    ),
    ("start_index_map length", AR5, [[1, 2]], ELEM, (1,), {}, gs.ShapeError, "start_index_map has 1 elements"),
    ("start_index_map range", AR5, [[1]], GDN((), (0,), (1,)), (1,), {}, gs.AxisError, "start_index_map"),
    ("offset_dims unsorted", np.zeros((2, 2)), [[0]], GDN((1, 0), (), (0,)), (1, 1), {}, gs.ShapeError, "sorted"),
    ("offset_dims range", AR5, [[1]], GDN((3,), (), (0,)), (1,), {}, gs.AxisError, "offset_dims"),
    ("slice too big", AR5, [[1]], WIN, (6,), {}, gs.ShapeError, "slice_sizes[0] = 6"),
    ("slice_sizes length", AR5, [[1]], ELEM, (1, 1), {}, gs.ShapeError, "one entry per operand dim"),
    ("collapse size 2", AR5, [[1]], ELEM, (2,), {}, gs.ShapeError, "slice size 1"),
    (
        "batching shape mismatch",
        np.zeros((2, 3)),
        np.zeros((3, 1), np.int64),
        GDN((), (1,), (1,), (0,), (0,)),
        (1, 1),
        {},
        gs.ShapeError,
        "same shape",
    ),
    (
        "batching on index vector dim",
        np.zeros((2, 3)),
        np.zeros((2, 1), np.int64),
        GDN((), (1,), (1,), (0,), (1,)),
        (1, 1),
        {},
        gs.ShapeError,
        "index vector dim",
    ),
    ("mode wrap", AR5, [[1]], ELEM, (1,), {"mode": "wrap"}, gs.UnsupportedError, 'Unknown gather mode "wrap"'),
    ("mode one_hot", AR5, [[1]], ELEM, (1,), {"mode": "one_hot"}, gs.UnsupportedError, "one_hot"),
    ("dimension numbers of the wrong type", AR5, [[1]], "x", (1,), {}, gs.ArgumentError, "GatherDimensionNumbers"),
    ("string operand", np.array(["a"]), [[0]], ELEM, (1,), {}, gs.DTypeError, "operand dtype str"),
]


@pytest.mark.parametrize(
    ("name", "op", "idx", "dn", "sizes", "kw", "err", "frag"), GATHER_ERRORS, ids=[e[0] for e in GATHER_ERRORS]
)
def test_gather_errors(
    name: str, op: Any, idx: Any, dn: Any, sizes: Any, kw: dict[str, Any], err: type, frag: str
) -> None:
    with pytest.raises(err, match=r"jax.lax.gather \(jax 0.10\)") as info:
        L.gather(op, idx, dn, sizes, **kw)
    assert frag in str(info.value)


SCATTER_ERRORS = [
    ("updates dtype", "scatter", Z5, [[0]], np.array([1], np.int64), EL, gs.DTypeError, "must equal"),
    ("bool add", "scatter_add", np.array([True]), [[0]], [True], EL, gs.DTypeError, "add does not accept dtype bool"),
    ("bool mul", "scatter_mul", np.array([True]), [[0]], [True], EL, gs.DTypeError, "mul does not accept dtype bool"),
    ("complex max", "scatter_max", np.array([1j, 2]), [[1]], [3j], EL, gs.UnsupportedError, "complex max"),
    ("updates rank", "scatter", Z5, [[0]], [[1.0]], EL, gs.ShapeError, "must have rank 1"),
    ("window bigger than operand", "scatter", Z5, [[0]], np.zeros((1, 6)), W_LAST, gs.ShapeError, "larger than"),
    ("scatter dim size", "scatter", Z5, [[0], [1]], [1.0], EL, gs.ShapeError, "must be equal"),
    ("window accounting", "scatter", Z5, [[0]], [[1.0]], SDN((1,), (0,), (0,)), gs.ShapeError, "window has 2 dims"),
    ("sdod length", "scatter", Z5, [[0, 1]], [1.0], EL, gs.ShapeError, "scatter_dims_to_operand_dims has 1"),
    (
        "inserted unsorted",
        "scatter",
        np.zeros((2, 2)),
        [[0, 0]],
        [1.0],
        SDN((), (1, 0), (0, 1)),
        gs.ShapeError,
        "sorted",
    ),
    ("float indices", "scatter", Z5, [[0.0]], [1.0], EL, gs.DTypeError, "integer type"),
]


@pytest.mark.parametrize(
    ("name", "fn", "op", "idx", "upd", "dn", "err", "frag"), SCATTER_ERRORS, ids=[e[0] for e in SCATTER_ERRORS]
)
def test_scatter_errors(name: str, fn: str, op: Any, idx: Any, upd: Any, dn: Any, err: type, frag: str) -> None:
    with pytest.raises(err, match=f"jax.lax.{fn} \\(jax 0.10\\)") as info:
        getattr(L, fn)(op, idx, upd, dn)
    assert frag in str(info.value)


def test_real_jax_dimension_numbers_are_accepted() -> None:
    class FakeJaxDN:  # duck-typed like jax.lax.GatherDimensionNumbers
        offset_dims = ()
        collapsed_slice_dims = (0,)
        start_index_map = (0,)
        operand_batching_dims = ()
        start_indices_batching_dims = ()

    assert_same(L.gather(AR5, [[2]], FakeJaxDN(), (1,)), np.array([2.0]))


# ---------------------------------------------------------------------------------------
# properties: random valid dimension numbers (collapsed, indexed windows, plain windows, batching)


@st.composite
def gather_inputs(draw: Any) -> tuple[Any, ...]:
    oshape = draw(gst.shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    r = len(oshape)
    roles = [draw(st.sampled_from(["collapsed", "indexed", "window", "batch"])) for _ in range(r)]
    sizes = []
    for d, role in enumerate(roles):
        if role in ("collapsed", "batch"):
            sizes.append(1)
        else:
            sizes.append(draw(st.integers(0 if role == "window" else 1, oshape[d])))
    sim = [d for d in range(r) if roles[d] in ("collapsed", "indexed")]
    sim = list(draw(st.permutations(sim)))
    obd = [d for d in range(r) if roles[d] == "batch"]
    extra = draw(st.lists(st.integers(1, 3), max_size=2))
    nb = len(obd) + len(extra)
    slots = list(draw(st.permutations(range(nb))))
    bshape = [0] * nb
    ibd = []
    for j, d in enumerate(obd):
        bshape[slots[j]] = oshape[d]
        ibd.append(slots[j])
    for j, n in enumerate(extra):
        bshape[slots[len(obd) + j]] = n
    cols = [draw(gst.index_arrays(tuple(bshape), oshape[d], dtype=np.int64)) for d in sim]
    idx = np.stack(cols, axis=-1) if cols else np.zeros((*bshape, 0), np.int64)
    window = [d for d in range(r) if roles[d] in ("indexed", "window")]
    out_rank = len(window) + nb
    off = sorted(draw(st.permutations(range(out_rank)))[: len(window)])
    dn = GDN(tuple(off), tuple(d for d in range(r) if roles[d] == "collapsed"), tuple(sim), tuple(obd), tuple(ibd))
    data = draw(gst.data_arrays(oshape))
    mode = draw(st.sampled_from([None, "clip", "fill", "promise_in_bounds"]))
    return data, idx, dn, tuple(sizes), mode


@given(gather_inputs())
def test_gather_property_matches_oracle(args: tuple[Any, ...]) -> None:
    data, idx, dn, sizes, mode = args
    want = oracle.lax_gather(data, idx, dn, sizes, mode=mode)
    assert_same(L.gather(data, idx, dn, sizes, mode=mode), want)


@st.composite
def scatter_inputs(draw: Any) -> tuple[Any, ...]:
    oshape = draw(gst.shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    r = len(oshape)
    roles = [draw(st.sampled_from(["inserted", "indexed", "window", "batch"])) for _ in range(r)]
    wsize = {
        d: draw(st.integers(1 if roles[d] == "indexed" else 0, oshape[d]))
        for d in range(r)
        if roles[d] in ("indexed", "window")
    }
    sdod = list(draw(st.permutations([d for d in range(r) if roles[d] in ("inserted", "indexed")])))
    obd = [d for d in range(r) if roles[d] == "batch"]
    extra = draw(st.lists(st.integers(1, 3), max_size=2))
    nb = len(obd) + len(extra)
    slots = list(draw(st.permutations(range(nb))))
    bshape = [0] * nb
    ibd = []
    for j, d in enumerate(obd):
        bshape[slots[j]] = oshape[d]
        ibd.append(slots[j])
    for j, n in enumerate(extra):
        bshape[slots[len(obd) + j]] = n
    cols = [draw(gst.index_arrays(tuple(bshape), oshape[d], dtype=np.int64)) for d in sdod]
    idx = np.stack(cols, axis=-1) if cols else np.zeros((*bshape, 0), np.int64)
    window = [d for d in range(r) if roles[d] in ("indexed", "window")]
    urank = len(window) + nb
    uwd = sorted(draw(st.permutations(range(urank)))[: len(window)])
    ushape = []
    wi = iter(window)
    bi = iter(bshape)
    for u in range(urank):
        ushape.append(wsize[next(wi)] if u in uwd else next(bi))
    dn = SDN(tuple(uwd), tuple(d for d in range(r) if roles[d] == "inserted"), tuple(sdod), tuple(obd), tuple(ibd))
    name = draw(st.sampled_from(["scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"]))
    dtype = draw(st.sampled_from([np.float64, np.int32]))
    data = draw(gst.data_arrays(oshape)).astype(dtype)
    upd = (np.arange(int(np.prod(ushape)), dtype=np.float64).reshape(ushape) % 7 - 3).astype(dtype)
    mode = draw(st.sampled_from([None, "clip", "drop", "promise_in_bounds"]))
    return data, idx, upd, dn, name, mode


@given(scatter_inputs())
def test_scatter_property_matches_oracle(args: tuple[Any, ...]) -> None:
    data, idx, upd, dn, name, mode = args
    want = oracle.lax_scatter(data, idx, upd, dn, name, mode=mode)
    assert_same(getattr(L, name)(data, idx, upd, dn, mode=mode), want)
