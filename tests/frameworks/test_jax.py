"""gs.jax against the real JAX (CPU, jax_enable_x64=True): values, dtype and shape.

Inputs are generated from fixed seeds (negative, duplicate, out-of-range and empty
indices; several dtypes), with shapes reused so that JAX compiles each shape once.
Every known divergence recorded by the dialect is checked here too: JAX must
still behave as the record says (if JAX changes, the test fails and the record
has to be revisited).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = pytest.importorskip("jax.numpy")
jlax = pytest.importorskip("jax.lax")

COMPARED: dict[str, int] = {}


def _theirs(f: Callable[..., Any], *args: Any, **kw: Any) -> tuple[Any, BaseException | None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.asarray(f(*args, **kw)), None
        except Exception as exc:  # any JAX error counts as "raises"
            return None, exc


def _ours(f: Callable[..., Any], *args: Any, **kw: Any) -> tuple[Any, BaseException | None]:
    try:
        return f(*args, **kw), None
    except gs.GatherScatterError as exc:
        return None, exc


def _compare(label: str, theirs: tuple[Any, Any], ours: tuple[Any, Any], problems: list[str], op: str) -> None:
    COMPARED[op] = COMPARED.get(op, 0) + 1
    (t, terr), (o, oerr) = theirs, ours
    if terr is not None or oerr is not None:
        if (terr is None) != (oerr is None):
            problems.append(f"{label}: jax -> {terr!r:.120}, ours -> {oerr!r:.120}")
        return
    if t.shape != o.shape or t.dtype != o.dtype:
        problems.append(f"{label}: jax {t.dtype}{list(t.shape)} vs ours {o.dtype}{list(o.shape)}")
    elif not np.array_equal(t, o, equal_nan=t.dtype.kind in "fc"):
        problems.append(f"{label}: jax {t.tolist()} vs ours {o.tolist()}")


def _indices(rng: np.random.Generator, shape: tuple[int, ...], size: int, draw: int) -> np.ndarray[Any, Any]:
    """Index values in [-2s-1, 2s+1]: negative, out-of-range and (at small sizes) duplicates."""
    if draw == 0 and int(np.prod(shape)) >= 1:  # a fixed edge vector: -s-1, -s, -1, s, s+1, 0 ...
        edge = np.array([-size - 1, -size, -1, size, size + 1, 0, 0], np.int64)
        return np.resize(edge, shape)
    return rng.integers(-2 * size - 1, 2 * size + 2, size=shape).astype(np.int64)


DATA = {
    "f64": np.arange(1.0, 13.0).reshape(3, 4) * 1.5,
    "i32": (np.arange(12, dtype=np.int32).reshape(3, 4) - 5) * 3,
    "u8": np.arange(12, dtype=np.uint8).reshape(3, 4) * 7,
    "bool": (np.arange(12).reshape(3, 4) % 3 == 0),
    "f32": np.linspace(-2, 3, 12, dtype=np.float32).reshape(3, 4),
}


# ---------------------------------------------------------------------------------------
# jnp.take


TAKE_COMBOS = [
    (dt, ishape, axis, mode, fill)
    for dt, ishape, axis in [
        ("f64", (7,), None),
        ("f64", (2, 3), 0),
        ("f64", (), 1),
        ("i32", (7,), -1),
        ("u8", (2, 3), 1),
        ("bool", (7,), 0),
        ("f32", (0,), 1),
        ("i32", (1, 7), None),
    ]
    for mode, fill in [(None, None), ("clip", None), ("wrap", None), ("fill", -1)]
]


@pytest.mark.parametrize(("dt", "ishape", "axis", "mode", "fill"), TAKE_COMBOS)
def test_take(dt: str, ishape: tuple[int, ...], axis: int | None, mode: str | None, fill: Any) -> None:
    rng = np.random.default_rng(len(COMPARED) + 1)
    a = DATA[dt]
    size = a.size if axis is None else a.shape[axis]
    problems: list[str] = []
    for draw in range(3):
        idx = _indices(rng, ishape, size, draw)
        kw = {"axis": axis, "mode": mode, "fill_value": fill}
        _compare(
            f"take {dt} {idx.tolist()} {kw}",
            _theirs(jnp.take, a, idx, **kw),
            _ours(gs.jax.take, a, idx, **kw),
            problems,
            "jax.take",
        )
    assert not problems, "\n".join(problems)


def test_take_edges() -> None:
    problems: list[str] = []
    cases = [
        (np.zeros((3, 0)), np.zeros((2, 0), np.int64), {"axis": 1}),
        (np.zeros((3, 0)), np.zeros((0,), np.int64), {}),
        (np.zeros((3, 0)), np.array([0]), {"axis": 1}),
        (np.float64(3.0), np.array([0, 1]), {}),
        (np.arange(5.0), np.array([True, False]), {}),
        (np.arange(5.0), np.array([2**64 - 1], np.uint64), {"mode": "wrap"}),
        (np.arange(5.0), np.array([-3, 7], np.int32), {"mode": "clip"}),
        (DATA["i32"], np.array([9]), {"fill_value": 2.5}),
        (DATA["u8"], np.array([99]), {"fill_value": 300}),
    ]
    for a, idx, kw in cases:
        _compare(
            f"take {idx.tolist()} {kw}",
            _theirs(jnp.take, a, idx, **kw),
            _ours(gs.jax.take, a, idx, **kw),
            problems,
            "jax.take",
        )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------
# jnp.take_along_axis


TALA_COMBOS = [
    (dt, ishape, axis, mode, wrap)
    for dt, ishape, axis in [
        ("f64", (3, 2), 1),
        ("i32", (1, 5), 1),
        ("f64", (2, 4), 0),
        ("u8", (6,), None),
        ("bool", (3, 0), -1),
    ]
    for mode, wrap in [(None, None), ("clip", None), ("promise_in_bounds", None), ("fill", False)]
]


@pytest.mark.parametrize(("dt", "ishape", "axis", "mode", "wrap"), TALA_COMBOS)
def test_take_along_axis(dt: str, ishape: tuple[int, ...], axis: int | None, mode: str | None, wrap: Any) -> None:
    rng = np.random.default_rng(100 + len(COMPARED))
    a = DATA[dt]
    size = a.size if axis is None else a.shape[axis]
    problems: list[str] = []
    for draw in range(3):
        idx = _indices(rng, ishape, size, draw)
        kw = {"mode": mode, "wrap_negative_indices": wrap, "fill_value": 7 if mode == "fill" else None}
        _compare(
            f"take_along_axis {dt} {idx.tolist()} axis={axis} {kw}",
            _theirs(jnp.take_along_axis, a, idx, axis, **kw),
            _ours(gs.jax.take_along_axis, a, idx, axis, **kw),
            problems,
            "jax.take_along_axis",
        )
    assert not problems, "\n".join(problems)


def test_take_along_axis_edges() -> None:
    problems: list[str] = []
    cases = [
        (np.zeros((2, 0)), np.array([[1], [5]]), 1, {}),
        (np.zeros((2, 3)), np.array([[1], [5]]), 1, {}),
        (np.zeros((1, 3)), np.array([[1], [5], [-1]]), 1, {"mode": "clip"}),
        (np.ones((0, 3)), np.zeros((1, 2), np.int64), 1, {}),
        (np.arange(5.0), np.array([-1, 7], np.int8), 0, {"mode": "promise_in_bounds"}),
        (np.arange(5.0), np.array([-1]), 0, {"mode": jlax.GatherScatterMode.PROMISE_IN_BOUNDS}),
    ]
    for a, idx, axis, kw in cases:
        ours_kw = dict(kw)
        if "mode" in kw and not isinstance(kw["mode"], str):
            ours_kw["mode"] = gs.jax.lax.GatherScatterMode[kw["mode"].name]
        _compare(
            f"take_along_axis {idx.tolist()} {kw}",
            _theirs(jnp.take_along_axis, a, idx, axis, **kw),
            _ours(gs.jax.take_along_axis, a, idx, axis, **ours_kw),
            problems,
            "jax.take_along_axis",
        )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------
# x.at[idx]: index templates over a (3, 4) array; "a" is an integer array drawn per case


def _template(name: str, rng: np.random.Generator, draw: int) -> Any:
    def arr(shape: tuple[int, ...], size: int) -> np.ndarray[Any, Any]:
        return _indices(rng, shape, size, draw)

    return {
        "rows": lambda: (arr((5,), 3),),
        "pairs": lambda: (arr((4,), 3), arr((4,), 4)),
        "cols": lambda: (slice(None), arr((2, 2), 4)),
        "rows+slice": lambda: (arr((3,), 3), slice(1, None)),
        "int": lambda: (int(arr((1,), 3)[0]),),
        "int+arr": lambda: (int(arr((1,), 3)[0]), arr((3,), 4)),
        "None+arr": lambda: (None, arr((2,), 3)),
        "ell+arr": lambda: (..., arr((3,), 4)),
        "mask": lambda: (rng.integers(0, 2, size=3).astype(bool),),
        "rev+arr": lambda: (slice(None, None, -1), arr((2,), 4)),
        "arr-None-arr": lambda: (arr((2,), 3), None, arr((2,), 4)),
        "True+arr quirk": lambda: (True, slice(None), arr((2,), 4)),
        "slice-True-arr quirk": lambda: (slice(None), True, arr((1,), 4)),
        "empty": lambda: (np.zeros((0,), np.int64),),
        "2d rows": lambda: (arr((2, 3), 3),),
    }[name]()


_GET_MODES = [("f64", None), ("i32", "fill"), ("bool", "clip")]
GET_COMBOS = [
    (t, *_GET_MODES[(i + j) % 3])
    for i, t in enumerate(
        [
            "rows",
            "pairs",
            "cols",
            "rows+slice",
            "int",
            "int+arr",
            "None+arr",
            "ell+arr",
            "mask",
            "rev+arr",
            "arr-None-arr",
            "True+arr quirk",
            "slice-True-arr quirk",
            "empty",
            "2d rows",
        ]
    )
    for j in range(2)
]


@pytest.mark.parametrize(("template", "dt", "mode"), GET_COMBOS)
def test_at_get(template: str, dt: str, mode: str | None) -> None:
    rng = np.random.default_rng(200 + len(COMPARED))
    x = DATA[dt]
    problems: list[str] = []
    for draw in range(2):
        idx = _template(template, rng, draw)
        _compare(
            f"get {template} {idx} mode={mode}",
            _theirs(lambda i=idx: jnp.asarray(x).at[i].get(mode=mode)),
            _ours(lambda i=idx: gs.jax.at(x)[i].get(mode=mode)),
            problems,
            "jax.at_get",
        )
    assert not problems, "\n".join(problems)


SCATTER_COMBOS = [
    (op, t, dt, mode)
    for op, dt in [("set", "f64"), ("add", "i32"), ("multiply", "f64"), ("min", "i32"), ("max", "f64")]
    for t, mode in [("pairs", "clip"), ("cols", None), ("int+arr", "drop"), ("rows+slice", "promise_in_bounds")]
]


@pytest.mark.parametrize(("op", "template", "dt", "mode"), SCATTER_COMBOS)
def test_at_scatter(op: str, template: str, dt: str, mode: str | None) -> None:
    rng = np.random.default_rng(300 + len(COMPARED))
    x = DATA[dt]
    problems: list[str] = []
    for draw in range(2):
        idx = _template(template, rng, draw)
        shape = np.empty(x.shape)[
            tuple(
                np.zeros(np.shape(i), np.int64) if isinstance(i, np.ndarray) else (0 if isinstance(i, int) else i)
                for i in idx
            )
        ].shape
        values = (rng.integers(-4, 5, size=shape)).astype(x.dtype)
        _compare(
            f"{op} {template} {idx} mode={mode}",
            _theirs(lambda i=idx, v=values: getattr(jnp.asarray(x).at[i], op)(v, mode=mode)),
            _ours(lambda i=idx, v=values: getattr(gs.jax.at(x)[i], op)(v, mode=mode)),
            problems,
            f"jax.at_{op}",
        )
    assert not problems, "\n".join(problems)


PROMOTION_CASES = [
    ("set", np.array([10, 20, 30], np.int32), 0, 2.7),
    ("add", np.array([10, 20, 30], np.int32), (np.array([0, 0]),), np.array([2.7, 2.7])),
    ("multiply", np.array([10, 20, 30], np.int32), 0, 1.5),
    ("set", np.array([10, 20, 30], np.int32), 0, np.nan),
    ("set", np.array([10, 20, 30], np.int32), 0, -np.inf),
    ("set", np.array([1, 2], np.int64), 0, 1e19),
    ("set", np.array([1, 2], np.uint64), 0, 1e20),
    ("set", np.array([1, 2], np.uint8), 0, -1.5),
    ("set", np.array([1, 2], np.uint8), 0, 300),
    ("add", np.array([1, 2], np.int32), 0, 2**40),
    ("add", np.array([1, 2], np.int8), 0, np.array(200, np.uint8)),
    ("set", np.array([1.0, 2.0]), 0, 1 + 2j),
    ("add", np.array([True, False]), 1, 1),
    ("multiply", np.array([True, False]), 1, 2),
    ("min", np.array([True, False]), 1, 0.5),
    ("max", np.array([True, False]), (np.array([0, 1]),), np.array([False, True])),
    ("add", np.array([1.0], np.float32), (np.zeros(1000, np.int64),), np.full(1000, 1e-8)),
    ("add", np.array([1.0, 2.0], np.float16), 0, np.array(70000, np.int64)),
    ("add", np.array([1.0], np.float32), (np.zeros(1000, np.int64),), np.float64(1e-8)),
    ("add", np.array([1.0], np.float32), (np.zeros(1000, np.int64),), 1e-8),
    ("set", np.array([2**53 + 1, 0], np.int64), 1, 1.5),
    ("add", np.array([1.0, 2.0], np.float32), 0, [0.1]),
    ("set", np.zeros((3, 3)), (slice(None, None, -1), np.array([0, 0])), np.arange(6.0).reshape(3, 2)),
    ("set", np.zeros(4), (np.array([1, 1, 1]),), np.array([10.0, 20.0, 30.0])),
    ("set", np.zeros(3), (np.array([[0, 1], [1, 0]]),), np.arange(4.0).reshape(2, 2)),
    ("set", np.float64(5.0), True, np.array([7.0])),
    ("set", np.zeros((0, 3)), (np.array([0]),), 1.0),
    ("set", np.zeros((3, 0)), (np.array([5]),), np.ones(7)),
    ("add", np.array([True, False]), 0, np.array([True])),
]


def test_at_promotion_and_edges() -> None:
    problems: list[str] = []
    for op, x, idx, v in PROMOTION_CASES:
        _compare(
            f"{op} x={x.dtype}{list(x.shape)} idx={idx} v={v!r:.40}",
            _theirs(lambda x=x, i=idx, op=op, v=v: getattr(jnp.asarray(x).at[i], op)(v)),
            _ours(lambda x=x, i=idx, op=op, v=v: getattr(gs.jax.at(x)[i], op)(v)),
            problems,
            f"jax.at_{op}",
        )
    assert not problems, "\n".join(problems)


def test_at_duplicates_stress_last_wins() -> None:
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 16, size=20000)
    v = np.arange(20000.0)
    problems: list[str] = []
    _compare(
        "set 20000 updates into 16 slots",
        _theirs(lambda: jnp.zeros(16).at[idx].set(v)),
        _ours(lambda: gs.jax.at(np.zeros(16))[(idx,)].set(v)),
        problems,
        "jax.at_set",
    )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------
# lax.gather / lax.scatter*


def _gdn(*fields: tuple[int, ...]) -> tuple[Any, Any]:
    return jlax.GatherDimensionNumbers(*fields), gs.jax.lax.GatherDimensionNumbers(*fields)


def _sdn(*fields: tuple[int, ...]) -> tuple[Any, Any]:
    return jlax.ScatterDimensionNumbers(*fields), gs.jax.lax.ScatterDimensionNumbers(*fields)


LAX_GATHER = {
    # name: (operand, index batch shape, dnums fields, slice_sizes)
    "elements": (np.arange(5.0), (4,), ((), (0,), (0,)), (1,)),
    "rows": (DATA["f64"], (2, 3), ((2,), (0,), (0,)), (1, 4)),
    "window 2": (DATA["i32"], (3,), ((1, 2), (), (0, 1)), (2, 3)),
    "nd": (DATA["f64"], (5,), ((), (0, 1), (1, 0)), (1, 1)),
    "batched": (DATA["f64"], (3, 2), ((), (1,), (1,), (0,), (0,)), (1, 1)),
    "batched window": (np.arange(24.0).reshape(2, 3, 4), (2, 2), ((2,), (1,), (1,), (0,), (0,)), (1, 1, 2)),
    "offset first": (DATA["f64"], (3,), ((0,), (1,), (1,)), (2, 1)),
}


@pytest.mark.parametrize("mode", [None, "fill", "clip"])
@pytest.mark.parametrize("name", list(LAX_GATHER))
def test_lax_gather(name: str, mode: str | None) -> None:
    rng = np.random.default_rng(400 + len(COMPARED))
    operand, bshape, fields, sizes = LAX_GATHER[name]
    theirs_dn, ours_dn = _gdn(*fields)
    k = len(fields[2])
    problems: list[str] = []
    for draw in range(2):
        cols = []
        for d in fields[2]:
            cols.append(_indices(rng, bshape, operand.shape[d], draw))
        idx = np.stack(cols, -1) if k else np.zeros((*bshape, 0), np.int64)
        _compare(
            f"lax.gather {name} {idx.tolist()} mode={mode}",
            _theirs(jlax.gather, operand, idx, theirs_dn, sizes, mode=mode),
            _ours(gs.jax.lax.gather, operand, idx, ours_dn, sizes, mode=mode),
            problems,
            "jax.lax.gather",
        )
    assert not problems, "\n".join(problems)


LAX_SCATTER = {
    # name: (operand, index batch shape, dnums fields, updates shape)
    "elements": (np.zeros(5), (6,), ((), (0,), (0,)), (6,)),
    "window last": (np.zeros(5), (2,), ((1,), (), (0,)), (2, 2)),
    "window first": (np.zeros(5), (3,), ((0,), (), (0,)), (2, 3)),
    "rows": (np.zeros((3, 4)), (4,), ((1,), (0,), (0,)), (4, 4)),
    "batched": (np.zeros((3, 4)), (3, 2), ((), (1,), (1,), (0,), (0,)), (3, 2)),
}


@pytest.mark.parametrize(
    ("name", "fn", "mode"),
    [
        (name, fn, [None, "clip"][(i + j) % 2])
        for i, name in enumerate(LAX_SCATTER)
        for j, fn in enumerate(["scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"])
    ],
)
def test_lax_scatter(name: str, fn: str, mode: str | None) -> None:
    rng = np.random.default_rng(500 + len(COMPARED))
    operand, bshape, fields, ushape = LAX_SCATTER[name]
    operand = operand + 1.0
    theirs_dn, ours_dn = _sdn(*fields)
    problems: list[str] = []
    for draw in range(2):
        idx = np.stack([_indices(rng, bshape, operand.shape[d], draw) for d in fields[2]], -1)
        upd = rng.integers(-3, 4, size=ushape).astype(np.float64)
        _compare(
            f"lax.{fn} {name} {idx.tolist()} mode={mode}",
            _theirs(getattr(jlax, fn), operand, idx, upd, theirs_dn, mode=mode),
            _ours(getattr(gs.jax.lax, fn), operand, idx, upd, ours_dn, mode=mode),
            problems,
            f"jax.lax.{fn}",
        )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------
# known divergences: JAX must still do what the records say


def test_known_divergence_int32_indices() -> None:
    x = np.array([10.0, 20.0, 30.0])
    i = np.array([2**32], np.int64)  # JAX narrows to int32: 0 -> in range
    assert np.asarray(jnp.take(x, i)).tolist() == [10.0]
    assert np.isnan(gs.jax.take(x, i)).all()
    assert np.asarray(jnp.asarray(x).at[i].get()).tolist() == [10.0]
    assert gs.jax.at(x)[(i,)].get().tolist() == [30.0]
    assert np.asarray(jnp.asarray(x).at[i].set(99.0)).tolist() == [99.0, 20.0, 30.0]
    assert gs.jax.at(x)[(i,)].set(99.0).tolist() == [10.0, 20.0, 30.0]
    assert np.asarray(jnp.take_along_axis(x, i, axis=0)).tolist() == [10.0]
    dn = jlax.GatherDimensionNumbers((), (0,), (0,))
    assert np.asarray(jlax.gather(x, i[:, None], dn, (1,), mode="fill")).tolist() == [10.0]
    assert np.isnan(gs.jax.lax.gather(x, i[:, None], ((), (0,), (0,)), (1,), mode="fill")).all()
    recorded = {d.op for d in gs.divergences() if d.case.startswith("index values outside the int32 range")}
    assert {"jax.take", "jax.take_along_axis", "jax.at_get", "jax.at_set", "jax.lax.gather"} <= recorded


def test_known_divergence_narrow_index_dtype() -> None:
    x = np.arange(300.0)
    i = np.array([-1], np.int8)
    assert np.asarray(jnp.take(x, i)).tolist() == [43.0]
    assert gs.jax.take(x, i).tolist() == [299.0]
    with pytest.raises(OverflowError):
        jnp.asarray(x).at[i].get()
    assert gs.jax.at(x)[(i,)].get().tolist() == [299.0]


def test_known_divergence_bool_take_wrap() -> None:
    assert np.asarray(jnp.take(np.arange(5.0), np.array([True, True]), mode="wrap")).tolist() == [0.0, 0.0]
    with pytest.raises(gs.DTypeError):
        gs.jax.take(np.arange(5.0), np.array([True, True]), mode="wrap")


def test_known_divergence_np_bool_scalar() -> None:
    with pytest.raises(AssertionError):
        jnp.arange(3.0).at[np.bool_(True)].get()
    assert gs.jax.at(np.arange(3.0))[np.bool_(True)].get().shape == (1, 3)


def test_known_divergence_complex_minmax() -> None:
    dn = jlax.ScatterDimensionNumbers((), (0,), (0,))
    assert np.asarray(jlax.scatter_max(np.array([1j, 2]), np.array([[1]]), np.array([3j]), dn)).tolist() == [1j, 2]
    assert np.asarray(jlax.scatter_min(np.array([1j, 2]), np.array([[1]]), np.array([3j]), dn)).tolist() == [1j, 3j]
    with pytest.raises(gs.UnsupportedError):
        gs.jax.lax.scatter_max(np.array([1j, 2]), np.array([[1]]), np.array([3j]), ((), (0,), (0,)))
    with pytest.raises(gs.UnsupportedError):
        gs.jax.at(np.array([1j, 2]))[1].min(3j)


def test_known_divergence_one_hot() -> None:
    x = np.array([1.0, np.inf, 3.0])
    assert np.isnan(np.asarray(jnp.take_along_axis(x, np.array([0]), axis=0, mode="one_hot"))).all()
    with pytest.raises(gs.UnsupportedError):
        gs.jax.take_along_axis(x, np.array([0]), axis=0, mode="one_hot")
    with pytest.raises(AssertionError):
        jnp.asarray(x).at[np.array([0])].get(mode="one_hot")


def test_known_divergence_x64_default_and_lists() -> None:
    with pytest.raises(TypeError):
        jnp.take([1, 2, 3], np.array([0]))
    assert gs.jax.take([1, 2, 3], [0]).tolist() == [1]
    ops = {d.op for d in gs.divergences() if d.case.startswith("JAX's 32-bit default")}
    assert ops == {op.info.qualname for op in gs.ops("jax")}


def test_promotion_lattice_matches_jax() -> None:
    """The scatter dtype (x's dtype joined with the values') is JAX's, for every pair and weak scalar."""
    import ml_dtypes

    from gatherscatter.dialects.jax._common import _join

    names = [
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "bfloat16",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ]
    weak = {"i*": (1, "int64"), "f*": (1.5, "float64"), "c*": (1j, "complex128")}

    def dt(name: str) -> Any:
        return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)

    problems = []
    for a in names:
        for b in names:
            want = str(jnp.promote_types(dt(a), dt(b)))
            got = _join(a, b)
            if weak.get(got, (None, got))[1] != want:
                problems.append(f"{a} + {b}: jax {want}, ours {got}")
        for w, (scalar, _default) in weak.items():
            want = str(jnp.result_type(dt(a), scalar))
            got = _join(a, w)
            if weak.get(got, (None, got))[1] != want:
                problems.append(f"{a} + weak {w}: jax {want}, ours {got}")
    assert not problems, "\n".join(problems)
