"""gatherscatter.numpy against NumPy 2.4 itself (always installed: part of the default suite).

Every generated input runs through the real NumPy function (in-place ones on a
copy) and through ``gs.numpy``; results must agree value for value, in dtype
and in shape, and where NumPy raises we must raise. ``mode='wrap'`` indices
stay small (NumPy wraps them one step of ``s`` at a time). Known divergences
(documented with ``divergence()``): ``ufunc.at`` on object/str data, complex
max/min, and mixed-dtype loops with repeated elements raise UnsupportedError.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gatherscatter as gs
from tests.strategies import index_arrays, shapes

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int8, np.uint8, np.bool_, np.complex64, "U3", object]


def _data(shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape))
    base = np.asarray(np.arange(n).reshape(shape) * 3 % 11 + 1)
    if dtype == "U3":
        return base.astype("U3")
    if dtype is object:
        return base.astype(object)
    return base.astype(dtype)


def _run(f: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return f()
        except (IndexError, ValueError, TypeError, OverflowError) as exc:
            return exc


def _same(ours: Any, ref: Any) -> None:
    if isinstance(ref, Exception):
        assert isinstance(ours, gs.GatherScatterError), f"NumPy raised {ref!r}, we returned {ours!r}"
        if isinstance(ref, IndexError) and "bounds" in str(ref):
            assert isinstance(ours, gs.IndexOutOfRangeError), f"{ref!r} vs {ours!r}"
        return
    assert not isinstance(ours, Exception), f"we raised {ours!r}, NumPy returned {ref!r}"
    if not isinstance(ref, np.ndarray):
        # NumPy returns a scalar for a 0-d result (a Python object for object arrays, and a str
        # scalar that forgets the itemsize); we return a 0-d array of the data's dtype
        assert ours.shape == (), (ours, ref)
        if isinstance(ref, np.generic) and ref.dtype.kind not in "US":
            assert ours.dtype == ref.dtype, (ours, ref)
        assert ours[()] == ref or (ours[()] != ours[()] and ref != ref), (ours, ref)
        return
    assert ours.dtype == ref.dtype and ours.shape == ref.shape, (ours, ref)
    if ours.dtype == object:
        assert ours.tolist() == ref.tolist()
    else:
        np.testing.assert_array_equal(ours, ref)


def _ours(f: Any) -> Any:
    try:
        return f()
    except gs.GatherScatterError as exc:
        return exc


def _inplace(fn: Any, a: np.ndarray[Any, Any], *args: Any, **kw: Any) -> Any:
    a = a.copy()
    fn(a, *args, **kw)
    return a


@st.composite
def take_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    dtype = draw(st.sampled_from(DTYPES))
    mode = draw(st.sampled_from(["raise", "wrap", "clip", None]))
    if shape and draw(st.booleans()):
        axis: int | None = draw(st.integers(-len(shape), len(shape) - 1))
        size = shape[axis]
    else:
        axis = None
        size = int(np.prod(shape))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    idt = draw(st.sampled_from([np.int64, np.int32, np.int8, np.uint8, np.uint64]))
    if mode == "wrap":
        idx = draw(index_arrays(ishape, max(size, 1), dtype=np.int64, in_range=True)).astype(idt)
        idx = (idx * draw(st.sampled_from([1, 3]))).astype(idt)
    else:
        idx = draw(index_arrays(ishape, size, dtype=np.int64)).astype(idt)
    return _data(shape, dtype), idx, axis, mode


@given(take_inputs())
def test_take_matches_numpy(args):
    a, idx, axis, mode = args
    size = a.size if axis is None else a.shape[axis]
    if mode == "wrap" and size == 0 and idx.size:
        # NumPy loops forever on an empty axis in wrap mode when the result is empty (divergence record)
        ours = _ours(lambda: gs.numpy.take(a, idx, axis=axis, mode=mode))
        assert isinstance(ours, gs.IndexOutOfRangeError) or ours.size == 0
        return
    _same(_ours(lambda: gs.numpy.take(a, idx, axis=axis, mode=mode)), _run(lambda: np.take(a, idx, axis=axis, mode=mode)))


@st.composite
def along_inputs(draw, with_values=False):
    shape = draw(shapes(min_dims=1, max_dims=3))
    dtype = draw(st.sampled_from(DTYPES))
    if draw(st.integers(0, 5)) == 0:
        axis = None
        ishape = (draw(st.integers(0, 4)),)
        size = int(np.prod(shape))
    else:
        axis = draw(st.integers(-len(shape), len(shape) - 1))
        a = axis % len(shape)
        ishape = tuple(
            draw(st.integers(0, 4)) if d == a else draw(st.sampled_from([n, 1, n, draw(st.integers(0, 3))]))
            for d, n in enumerate(shape)
        )
        size = shape[a]
    idx = draw(index_arrays(ishape, size, dtype=draw(st.sampled_from([np.int64, np.int32, np.uint8, np.int16]))))
    data = _data(shape, dtype)
    if not with_values:
        return data, idx, axis
    vshape = draw(st.sampled_from([(), ishape, ishape[-1:], (1,) * len(ishape)]))
    values = (np.arange(int(np.prod(vshape))).reshape(vshape) + 100).astype(data.dtype)
    return data, idx, axis, values


@given(along_inputs())
def test_take_along_axis_matches_numpy(args):
    a, idx, axis = args
    _same(
        _ours(lambda: gs.numpy.take_along_axis(a, idx, axis=axis)),
        _run(lambda: np.take_along_axis(a, idx, axis=axis)),
    )


@given(along_inputs(with_values=True))
def test_put_along_axis_matches_numpy(args):
    a, idx, axis, values = args
    _same(
        _ours(lambda: gs.numpy.put_along_axis(a, idx, values, axis)),
        _run(lambda: _inplace(np.put_along_axis, a, idx, values, axis)),
    )


@st.composite
def put_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3))
    dtype = draw(st.sampled_from(DTYPES))
    size = int(np.prod(shape))
    mode = draw(st.sampled_from(["raise", "wrap", "clip"]))
    ishape = draw(shapes(min_dims=0, max_dims=2))
    if mode == "wrap":
        idx = draw(index_arrays(ishape, max(size, 1), in_range=True))
    else:
        idx = draw(index_arrays(ishape, size))
    idx = idx.astype(draw(st.sampled_from([np.int64, np.int32, np.int8, np.uint8])))
    nv = draw(st.integers(0, 5))
    v = (np.arange(nv) + 50).astype(_data((1,), dtype).dtype)
    return _data(shape, dtype), idx, v, mode


@given(put_inputs())
def test_put_matches_numpy(args):
    a, idx, v, mode = args
    _same(_ours(lambda: gs.numpy.put(a, idx, v, mode=mode)), _run(lambda: _inplace(np.put, a, idx, v, mode=mode)))


@st.composite
def index_expressions(draw, shape):
    """A NumPy index expression for ``shape``: ints, slices, arrays, masks, None and '...'."""
    parts: list[Any] = []
    d = 0
    ellipsis = False
    while d < len(shape) and draw(st.integers(0, 4)) > 0:
        n = shape[d]
        kind = draw(st.sampled_from(["int", "slice", "arr", "arr", "mask", "none", "ell"]))
        if kind == "int":
            parts.append(draw(st.integers(-n - 1, n)) if n else 0)
            d += 1
        elif kind == "slice":
            parts.append(slice(draw(st.none() | st.integers(-5, 5)), draw(st.none() | st.integers(-5, 5)),
                               draw(st.sampled_from([None, 1, 2, -1, -2]))))
            d += 1
        elif kind == "arr":
            size = max(n, 1)
            parts.append(draw(index_arrays(draw(st.sampled_from([(2,), (3,), (1,), (2, 1)])), size,
                                           in_range=draw(st.integers(0, 5)) > 0)))
            d += 1
        elif kind == "mask":
            parts.append(draw(st.lists(st.booleans(), min_size=n, max_size=n)).copy() and np.array(
                draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool))
            d += 1
        elif kind == "none":
            parts.append(None)
        elif not ellipsis:
            ellipsis = True
            parts.append(Ellipsis)
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]
    return tuple(parts)


UFUNCS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum}


@st.composite
def at_inputs(draw):
    shape = draw(shapes(min_dims=0, max_dims=3, max_side=4))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.int8, np.uint8, np.bool_,
                                  np.complex128]))
    name = draw(st.sampled_from(sorted(UFUNCS)))
    index = draw(index_expressions(shape))
    a = _data(shape, dtype)
    bkind = draw(st.sampled_from(["same", "same", "scalar", "pyint", "pyfloat", "other"]))
    if bkind == "pyint":
        b: Any = draw(st.integers(-300, 300))
    elif bkind == "pyfloat":
        b = draw(st.sampled_from([0.5, 1.0, -2.0, 0.1, 1e10]))
    else:
        try:
            rshape = np.arange(max(a.size, 1)).reshape(a.shape)[index].shape if a.size else ()
        except (IndexError, ValueError, TypeError):
            rshape = ()
        bshape = () if bkind == "scalar" else draw(st.sampled_from([rshape, rshape[-1:], ()]))
        bdt = dtype if bkind != "other" else draw(st.sampled_from([np.float64, np.int64, np.int16, np.float32]))
        b = ((np.arange(int(np.prod(bshape))).reshape(bshape) % 5) + 1).astype(bdt)
    return name, a, index, b


@given(at_inputs())
def test_ufunc_at_matches_numpy(args):
    name, a, index, b = args
    ours = _ours(lambda: getattr(gs.numpy, f"{name}_at")(a, index, b))
    ref = _run(lambda: _inplace(UFUNCS[name].at, a, index, b))
    if isinstance(ours, gs.UnsupportedError) and not isinstance(ref, Exception):
        # documented divergences only: a loop wider than a with a repeated element, complex max/min
        msg = str(ours)
        assert "more than once" in msg or "complex" in msg or "cannot hold every value" in msg, msg
        return
    _same(ours, ref)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.zeros(3, np.float32), np.array([0.1, 0.2, 0.3])),
        (np.zeros(3, np.float16), np.array([0.1, 0.2, 0.3], np.float32)),
        (np.zeros(3, np.int8), np.array([300, -200, 5])),
        (np.full(3, 100, np.int8), 300),
        (np.zeros(3, np.uint8), -1),
        (np.zeros(3, np.int64), np.array([2**63 - 1, 1, 2], np.uint64)),
        (np.zeros(3, np.bool_), 2),
        (np.zeros(3, np.complex64), np.array([1 + 1j, 2, 3])),
        (np.zeros(3, "m8[s]"), np.array([1, 2, 3], "m8[s]")),
        (np.ones(3, np.float32), 2.0**-24 + 2.0**-60),
    ],
)
@pytest.mark.parametrize("name", sorted(UFUNCS))
def test_ufunc_at_dtype_promotion_matches_numpy(name, a, b):
    """Distinct indices: every promotion case is exact (cast back after the single update)."""
    ours = _ours(lambda: getattr(gs.numpy, f"{name}_at")(a, [2, 0, 1], b))
    ref = _run(lambda: _inplace(UFUNCS[name].at, a, [2, 0, 1], b))
    if isinstance(ours, gs.UnsupportedError) and not isinstance(ref, Exception):
        assert "complex" in str(ours)
        return
    _same(ours, ref)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.zeros(2, np.float32), np.array([0.5, 0.25, 0.125])),  # representable: exact with repeats
        (np.zeros(2, np.int8), np.array([300, -200, 5])),  # modular
        (np.full(2, 100, np.int8), np.array([300, 5, -3])),  # max/min: values a cannot hold
        (np.zeros(2, np.float32), np.array([0.1, 0.2, 0.3])),  # inexact: per-update rounding
    ],
)
@pytest.mark.parametrize("name", sorted(UFUNCS))
def test_ufunc_at_repeated_elements_exact_or_refused(name, a, b):
    ours = _ours(lambda: getattr(gs.numpy, f"{name}_at")(a, [1, 1, 1], b))
    ref = _run(lambda: _inplace(UFUNCS[name].at, a, [1, 1, 1], b))
    if isinstance(ours, gs.UnsupportedError):
        assert "more than once" in str(ours) and not isinstance(ref, Exception)
        return
    _same(ours, ref)
