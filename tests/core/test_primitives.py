"""The vectorised primitives against their readable loop versions, for every policy.

The loops (core/loops.py) move one element at a time; the primitives must give
the same array for every spec shape, policy and dtype, or raise the same error.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gatherscatter import errors
from gatherscatter.core import IndexSpec, Policy, gather, gather_shape, scatter
from gatherscatter.core.loops import gather_loop, gather_trace, scatter_loop, scatter_trace
from tests.conftest import BACKENDS, using_backend
from tests.strategies import index_arrays, shapes


@st.composite
def spec_and_arrays(draw, scatter_op=False):
    dshape = draw(shapes(min_dims=1, max_dims=4, max_side=3))
    r = len(dshape)
    kind = draw(st.sampled_from(["take", "nd", "elements"]))
    if kind == "elements":
        a = draw(st.integers(0, r - 1))
        spec = IndexSpec(axis=a, batch=a, elementwise=True)
        ishape = tuple(draw(st.integers(0, 4)) if d == a else draw(st.integers(0, n)) for d, n in enumerate(dshape))
        idx = draw(index_arrays(ishape, dshape[a]))
    elif kind == "take":
        a = draw(st.integers(0, r - 1))
        b = draw(st.integers(0, a))
        spec = IndexSpec(axis=a, batch=b)
        ishape = dshape[:b] + draw(shapes(min_dims=0, max_dims=2, max_side=3))
        idx = draw(index_arrays(ishape, dshape[a]))
    else:
        b = draw(st.integers(0, r - 1))
        k = draw(st.integers(0, r - b))
        a = draw(st.integers(b, r - k))
        spec = IndexSpec(axis=a, depth=k, batch=b, vector=True)
        lead = dshape[:b] + draw(shapes(min_dims=0, max_dims=2, max_side=3))
        comps = [draw(index_arrays(lead, dshape[a + j])) for j in range(k)]
        idx = np.stack(comps, -1) if k else np.zeros((*lead, 0), np.int64)
    dtype = draw(st.sampled_from([np.float64, np.int32, np.uint8, np.int64, np.complex128, np.float16, np.bool_]))
    data = (np.arange(int(np.prod(dshape))).reshape(dshape) % 9 + 1).astype(dtype)
    if dtype is np.complex128:
        data = data * (1 + 2j)
    upd = None
    if scatter_op:
        ushape = gather_shape(dshape, idx.shape, spec)
        upd = np.asarray(np.arange(int(np.prod(ushape))).reshape(ushape) % 7 + 2).astype(dtype)
        if dtype is np.complex128:
            upd = upd * (3 - 1j)
        if draw(st.booleans()) and upd.size:
            upd = np.broadcast_to(upd.reshape(-1)[:1].reshape((1,) * upd.ndim), upd.shape)  # zero-stride updates
    return data, idx, upd, spec


gather_policies = st.builds(
    Policy,
    bounds=st.sampled_from(["raise", "wrap", "clip", "fill"]),
    negative=st.sampled_from(["wrap", "raise", "bounds"]),
    fill_value=st.sampled_from([None, 7]),
)
scatter_policies = st.builds(
    Policy,
    bounds=st.sampled_from(["raise", "wrap", "clip", "drop"]),
    negative=st.sampled_from(["wrap", "raise", "bounds"]),
    duplicates=st.sampled_from(["last", "first", "raise"]),
    reduction=st.sampled_from(["none", "add", "sub", "mul", "max", "min", "mean"]),
    include_self=st.booleans(),
    mean_rounding=st.sampled_from(["floor", "trunc"]),
    accumulate=st.sampled_from(["data", "float32"]),
    mean_count=st.sampled_from(["exact", "rounded", "stepwise"]),
    identity=st.sampled_from(["inf", "finite"]),
)


def _both(fast, slow):
    try:
        expected = slow()
    except errors.GatherScatterError as exc:
        with pytest.raises(type(exc)):
            fast()
        return None
    out = fast()
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@given(spec_and_arrays(), gather_policies)
def test_gather_matches_loop(backend, arrays, policy):
    data, idx, _, spec = arrays
    with using_backend(backend):
        _both(lambda: gather(data, idx, spec, policy), lambda: gather_loop(data, idx, spec, policy))


@pytest.mark.parametrize("backend", BACKENDS)
@given(spec_and_arrays(scatter_op=True), scatter_policies)
def test_scatter_matches_loop(backend, arrays, policy):
    data, idx, upd, spec = arrays
    if policy.duplicates.value == "raise" and policy.reduction.value == "none":
        return  # the loop does not implement 'raise'; covered below
    with using_backend(backend):
        _both(lambda: scatter(data, idx, upd, spec, policy), lambda: scatter_loop(data, idx, upd, spec, policy))


# Every policy corner on fixed arrays: indices in range, negative, at the size, beyond it, far
CORNER_INDICES = [0, 2, -1, -3, 3, 4, -4, -7, 2**62]
CORNER_DATA = np.arange(12).reshape(4, 3) * 10 + 1  # every element distinct


def _corner_cases():
    idx = np.array(CORNER_INDICES)
    pairs = np.array([(r, c) for r in (0, 3, -1, 4, -5, 9) for c in CORNER_INDICES])
    return [
        (IndexSpec(axis=1), idx),
        (IndexSpec(axis=1, batch=1), np.tile(idx, (4, 1))),
        (IndexSpec(axis=0), idx.reshape(3, 3)),
        (IndexSpec(axis=0, depth=2, vector=True), pairs),
        (IndexSpec(axis=1, batch=1, elementwise=True), np.tile(idx, (4, 1))),
        (IndexSpec(axis=0, batch=0, elementwise=True), np.array([CORNER_INDICES[:3]] * 2)),
    ]


CORNER_GATHER_POLICIES = [
    Policy(bounds=b, negative=n, fill_value=f)
    for b in ("raise", "wrap", "clip", "fill") for n in ("wrap", "raise", "bounds") for f in (None, -5)
    if f is None or b == "fill"
]


def check_gather_corners(backend: str) -> None:
    """Core and loop agree on every gather policy corner (AssertionError naming none otherwise)."""
    with using_backend(backend):
        for spec, idx in _corner_cases():
            for policy in CORNER_GATHER_POLICIES:
                _both(partial(gather, CORNER_DATA, idx, spec, policy), partial(gather_loop, CORNER_DATA, idx, spec, policy))


def check_scatter_corners(backend: str) -> None:
    with using_backend(backend):
        for spec, idx in _corner_cases():
            ushape = gather_shape(CORNER_DATA.shape, idx.shape, spec)
            upd = (np.arange(int(np.prod(ushape))).reshape(ushape) % 7 - 3) * 100
            for b in ("raise", "wrap", "clip", "drop"):
                for n in ("wrap", "raise", "bounds"):
                    for red in ("none", "add", "mul", "max", "min", "mean"):
                        policy = Policy(bounds=b, negative=n, reduction=red, include_self=red != "min")
                        _both(partial(scatter, CORNER_DATA, idx, upd, spec, policy),
                              partial(scatter_loop, CORNER_DATA, idx, upd, spec, policy))


@pytest.mark.parametrize("backend", BACKENDS)
def test_gather_matches_loop_on_every_policy_corner(backend):
    check_gather_corners(backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_scatter_matches_loop_on_every_policy_corner(backend):
    check_scatter_corners(backend)


@given(spec_and_arrays())
def test_gather_non_contiguous_data(arrays):
    data, idx, _, spec = arrays
    big = np.zeros((2,) + tuple(n * 2 for n in data.shape), data.dtype)
    view = big[(1,) + tuple(slice(None, None, 2) for _ in data.shape)]
    view[...] = data
    _both(lambda: gather(view, idx, spec, Policy(bounds="clip")), lambda: gather_loop(data, idx, spec, Policy(bounds="clip")))


def test_duplicates_raise_names_both_positions():
    with pytest.raises(errors.DuplicateIndexError) as info:
        scatter(np.zeros((3, 2)), [[0], [2], [0]], np.ones((3, 2)), IndexSpec(axis=0, vector=True),
                Policy(duplicates="raise"))
    assert "indices[0] and indices[2]" in str(info.value) and "slice starting at [0, 0]" in str(info.value)


def test_duplicates_raise_ignores_dropped_updates():
    out = scatter(np.zeros(3), [0, 5, 5], [1.0, 2.0, 3.0], IndexSpec(axis=0), Policy(duplicates="raise", bounds="drop"))
    assert out.tolist() == [1.0, 0.0, 0.0]


# Hand-computed policy tables (values typed from the semantics, not from the code)
GATHER_POLICY_CASES = [
    # data [10,20,30], indices [-4, -1, 3, 4]
    (dict(bounds="wrap"), [30, 30, 10, 20]),
    (dict(bounds="clip"), [10, 30, 30, 30]),  # -4 wraps to -1 first, then clips to 0
    (dict(bounds="clip", negative="bounds"), [10, 10, 30, 30]),  # numpy/MXNet clip: -1 -> 0
    (dict(bounds="wrap", negative="bounds"), [30, 30, 10, 20]),  # numpy wrap: mod 3
    (dict(bounds="fill"), [0, 30, 0, 0]),
    (dict(bounds="fill", fill_value=-1), [-1, 30, -1, -1]),
    (dict(bounds="fill", negative="bounds"), [0, 0, 0, 0]),
]


@pytest.mark.parametrize("fn", [gather, gather_loop], ids=["core", "loop"])
@pytest.mark.parametrize(("kw", "expected"), GATHER_POLICY_CASES)
def test_gather_policy_table(kw, expected, fn):
    out = fn(np.array([10, 20, 30]), [-4, -1, 3, 4], IndexSpec(axis=0), Policy(**kw))
    assert out.tolist() == expected


SCATTER_POLICY_CASES = [
    # data [1,2,3,4], indices [0,1,0,1,2,1], updates [1..6] (semantics docs/semantics.md#s5-2 worked example)
    (dict(reduction="add"), [5, 14, 8, 4]),
    (dict(reduction="add", include_self=False), [4, 12, 5, 4]),
    (dict(reduction="mul"), [3, 96, 15, 4]),
    (dict(reduction="mul", include_self=False), [3, 48, 5, 4]),
    (dict(reduction="max"), [3, 6, 5, 4]),
    (dict(reduction="max", include_self=False), [3, 6, 5, 4]),
    (dict(reduction="min"), [1, 2, 3, 4]),
    (dict(reduction="min", include_self=False), [1, 2, 5, 4]),
    (dict(reduction="mean", include_self=False), [2, 4, 5, 4]),
    (dict(reduction="sub"), [-3, -10, -2, 4]),
    (dict(reduction="none"), [3, 6, 5, 4]),
    (dict(reduction="none", duplicates="first"), [1, 2, 5, 4]),
]


@pytest.mark.parametrize("fn", [scatter, scatter_loop], ids=["core", "loop"])
@pytest.mark.parametrize(("kw", "expected"), SCATTER_POLICY_CASES)
def test_scatter_policy_table(kw, expected, fn):
    out = fn(np.array([1, 2, 3, 4]), [0, 1, 0, 1, 2, 1], [1, 2, 3, 4, 5, 6], IndexSpec(axis=0), Policy(**kw))
    assert out.tolist() == expected


def test_mean_float_and_integer_rounding():
    spec = IndexSpec(axis=0)
    out = scatter(np.array([1.0, 2, 3, 4]), [0, 1, 0, 1, 2, 1], [1.0, 2, 3, 4, 5, 6], spec, Policy(reduction="mean"))
    np.testing.assert_allclose(out, [5 / 3, 14 / 4, 8 / 2, 4])
    # torch: [-1] with {-2, -4} -> -7/3 -> floor -3 ; trunc -2 ; behaviour matrix -11/3 -> -4 floor, -3 trunc
    assert scatter(np.array([-1]), [0, 0], [-2, -4], spec, Policy(reduction="mean")).tolist() == [-3]
    assert scatter(np.array([-1]), [0, 0], [-2, -4], spec, Policy(reduction="mean", mean_rounding="trunc")).tolist() == [-2]
    assert scatter(np.array([-5]), [0, 0], [-2, -4], spec, Policy(reduction="mean")).tolist() == [-4]
    assert scatter(np.array([-5]), [0, 0], [-2, -4], spec, Policy(reduction="mean", mean_rounding="trunc")).tolist() == [-3]
    assert scatter(np.array([5]), [0, 0], [2, 4], spec, Policy(reduction="mean", mean_rounding="trunc")).tolist() == [3]


def test_scatter_drop_and_clip():
    spec = IndexSpec(axis=0)
    assert scatter(np.array([1, 2, 3]), [3, -4, 1], [7, 8, 9], spec, Policy(bounds="drop")).tolist() == [1, 9, 3]
    # -4 wraps once to -1, which is still out of range, and clips to 0
    assert scatter(np.array([1, 2, 3]), [3, -4], [7, 8], spec, Policy(bounds="clip")).tolist() == [8, 2, 7]
    # -1 wraps to 2 (and the later update wins); with negative='bounds' it clips to 0
    assert scatter(np.array([1, 2, 3]), [3, -1], [7, 8], spec, Policy(bounds="clip")).tolist() == [1, 2, 8]
    assert scatter(np.array([1, 2, 3]), [3, -1], [7, 8], spec, Policy(bounds="clip", negative="bounds")).tolist() == [8, 2, 7]


def test_include_self_false_max_of_negative_infinity():
    out = scatter(np.array([0.0, 0.0]), [0, 0], [-np.inf, -np.inf], IndexSpec(axis=0),
                  Policy(reduction="max", include_self=False))
    assert out.tolist() == [-np.inf, 0.0]


def test_traces():
    tr = gather_trace(np.arange(3), [2, 5], IndexSpec(axis=0), Policy(bounds="fill"))
    assert [(m.source, m.target, m.index_pos) for m in tr] == [((2,), (0,), (0,)), (None, (1,), (1,))]
    tr = scatter_trace(np.arange(3), [[1], [7]], IndexSpec(axis=0, vector=True), Policy(bounds="drop"))
    assert [(m.source, m.target) for m in tr] == [((0,), (1,)), ((1,), None)]


def test_uint64_indices_beyond_int64():
    big = np.array([0, 2**64 - 1], np.uint64)
    with pytest.raises(errors.IndexOutOfRangeError, match="18446744073709551615"):
        gather(np.arange(3), big, IndexSpec(axis=0))
    assert gather(np.arange(3), big, IndexSpec(axis=0), Policy(bounds="wrap")).tolist() == [0, (2**64 - 1) % 3]
    assert gather(np.arange(3), big, IndexSpec(axis=0), Policy(bounds="clip")).tolist() == [0, 2]


def test_policy_parsing():
    with pytest.raises(errors.UnsupportedError, match="unknown reduction 'avg'"):
        Policy(reduction="avg")
    with pytest.raises(errors.ArgumentError):
        Policy(bounds=3)
    with pytest.raises(errors.ArgumentError):
        Policy(include_self="yes")
    assert Policy(include_self=np.bool_(False)).include_self is False
    from gatherscatter import fill

    p = Policy(bounds=fill(-1))
    assert p.bounds.value == "fill" and p.fill_value == -1
    assert "fill(-1)" in p.describe()


def test_fill_rejected_for_scatter_and_drop_for_gather():
    with pytest.raises(errors.UnsupportedError, match="drop"):
        gather([1], [0], IndexSpec(axis=0), Policy(bounds="drop"))
    with pytest.raises(errors.UnsupportedError, match="fill"):
        scatter([1], [0], [1], IndexSpec(axis=0), Policy(bounds="fill"))


def test_huge_broadcast_view_is_not_copied():
    data = np.broadcast_to(np.arange(4.0), (10**9, 4))  # 32 GB if materialised
    out = gather(data, [5, 10**9 - 1], IndexSpec(axis=0))
    assert out.tolist() == [[0, 1, 2, 3], [0, 1, 2, 3]]


def test_zero_size_axis_fills_or_drops_under_masking_policies():
    spec = IndexSpec(axis=1)
    out = gather(np.zeros((2, 0)), [0, 3], spec, Policy(bounds="fill", fill_value=5))
    assert out.tolist() == [[5, 5], [5, 5]]
    out = scatter(np.zeros((2, 0)), [0], np.ones((2, 1)), spec, Policy(bounds="drop"))
    assert out.shape == (2, 0)
    with pytest.raises(errors.IndexOutOfRangeError, match="size 0"):
        gather(np.zeros((2, 0)), [0], spec, Policy(bounds="clip"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_complex128_elementwise_and_broadcast_updates(backend):
    # regressions found through gs.torch: 16-byte items in elementwise kernels, zero-stride updates
    with using_backend(backend):
        out = gather(np.array([1 + 2j, 3 + 4j, 5 + 6j]), [0, 0, 2], IndexSpec(axis=0, elementwise=True))
        assert out.tolist() == [1 + 2j, 1 + 2j, 5 + 6j]
        upd = np.broadcast_to(np.array([1.5 + 0j]), (4, 2))
        out = scatter(np.zeros((5, 2), complex), [[4], [0], [1], [0]], upd, IndexSpec(axis=0, vector=True))
        assert out[:, 0].tolist() == [1.5, 1.5, 0, 0, 1.5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("dtype", "size"), [(np.int8, 127), (np.int8, 128), (np.int8, 129), (np.int8, 300),
                                             (np.int16, 40000), (np.int32, 5)])
def test_small_signed_index_dtypes_wrap_negatives(backend, dtype, size):
    # the one-pass range check views indices as unsigned: -1 as uint8 is 255, which is
    # a valid index on an axis longer than 255, so the check must not accept it there
    with using_backend(backend):
        low = -min(size, 128)  # the most negative index every case's dtype holds
        got = gather(np.arange(size), np.array([-1, 0, low], dtype), IndexSpec(axis=0))
    assert got.tolist() == [size - 1, 0, size + low]


# ---- found by the fuzzer (python -m gatherscatter.fuzz)


@pytest.mark.parametrize("indices", [[5], [1]])
def test_fill_value_that_is_not_a_scalar_of_the_dtype_raises_dtype_error(indices):
    # fill 'x' on float data: a DTypeError whether or not an index is out of range (was a bare ValueError,
    # or silently accepted when every index was in range)
    with pytest.raises(errors.DTypeError, match=r"fill_value 'x' cannot be read as float64"):
        gather(np.array([1.0, 2.0]), np.array(indices), IndexSpec(), Policy(bounds="fill", fill_value="x"))
    with pytest.raises(errors.DTypeError, match=r"fill_value must be a scalar"):
        gather(np.array([1.0, 2.0]), np.array(indices), IndexSpec(), Policy(bounds="fill", fill_value=[1, 2]))


def test_fill_value_still_fills():
    out = gather(np.array([1.0, 2.0]), np.array([5, 1]), IndexSpec(), Policy(bounds="fill", fill_value=-7))
    assert out.tolist() == [-7.0, 2.0]


def test_output_too_large_to_allocate_is_a_shape_error_not_memory_error():
    import gatherscatter as gs

    # a zero-stride view of 2**44 float32 (64 TiB): a scatter must return a copy of that size, which no
    # machine here can allocate; the answer is a typed error naming the op, never a MemoryError
    big = np.broadcast_to(np.float32(1), (2**44,))
    with pytest.raises(errors.ShapeError, match=r"onnx.ScatterElements: this call needs an array that cannot be"):
        gs.onnx.ScatterElements(big, np.array([0]), np.array([2.0], np.float32))
    # ... while a gather from the same view needs no copy: three elements
    assert gs.onnx.Gather(big, np.array([0, 5, -1])).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reduction", ["max", "min"])
def test_max_min_ties_between_signed_zeros_keep_the_update(backend, reduction):
    # found by the fuzzer: the numba kernels kept the current value on a tie (0.0 vs -0.0) where NumPy's
    # np.maximum / np.minimum (and so the NumPy backend) return the update: the backends disagreed in the sign
    data = np.array([0.0, -0.0, 0.0], np.float32)
    with using_backend(backend):
        out = scatter(data, np.array([0, 1]), np.array([-0.0, 0.0], np.float32), IndexSpec(),
                      Policy(reduction=reduction))
    assert np.signbit(out).tolist() == [True, False, False]


def test_gather_loop_ignores_fill_value_unless_bounds_is_fill():
    # found by the fuzzer: the loop version read fill_value (and failed on [1, 2]) under bounds='raise'
    out = gather_loop(np.array([1.0, 2.0]), np.array([1]), IndexSpec(), Policy(fill_value=[1, 2]))
    assert out.tolist() == [2.0]


def test_full_depth_0d_index_on_a_strided_array_keeps_the_dtype():
    # found by the fuzzer: NumPy fancy indexing returns a scalar here (native byte order, bytes trimmed to
    # their length), so a non-contiguous '>f4' gave '<f4' and 'S2' gave 'S1'
    spec = IndexSpec(axis=0, depth=2, vector=True)
    be = np.arange(6, dtype=">f4").reshape(2, 3)[:, ::-1]
    out = gather(be, np.array([1, 0]), spec)
    assert out.dtype.str == ">f4" and out.shape == () and out.tolist() == 5.0
    s = np.array([[b"a", b"bb"], [b"c", b"dd"]], "S2")[::-1, ::-1]
    out = gather(s, np.array([0, 1]), spec)
    assert out.dtype.str == "|S2" and out.tolist() == b"c"


def test_gather_with_an_enormous_broadcast_output_fails_fast():
    import gatherscatter as gs

    # found by the fuzzer: take_along_axis broadcasts (1, 1, 1) indices to the data's 2**38 positions and read
    # them all (hours) before the output allocation failed; the output is checked first now
    big = np.broadcast_to(np.int64(1), (2**19, 2**19, 2**19))
    with pytest.raises(errors.ShapeError, match=r"numpy\.take_along_axis"):
        gs.numpy.take_along_axis(big, np.zeros((1, 1, 1), np.int64), axis=1)


def test_scatter_into_an_enormous_broadcast_fails_fast():
    import gatherscatter as gs

    # found by the fuzzer: the scatter read its (broadcast) indices before allocating the output copy
    big = np.broadcast_to(np.int64(0), (2**18, 2**18, 2**18, 2))
    with pytest.raises(errors.ShapeError, match=r"numpy\.put_along_axis"):
        gs.numpy.put_along_axis(big, np.ones((1, 1, 1, 2), np.int64), 2, axis=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_gather_elements_with_a_shorter_trailing_dim(backend):
    # found by the fuzzer: the numba 2-D fast path reshaped data (3, 3, 4, 3) as (9, 4) when the indices'
    # trailing dim (1) was shorter than the data's (3): ValueError on the numba backend only
    data = np.arange(108.0).reshape(3, 3, 4, 3)
    idx = np.ones((3, 3, 2, 1), np.int64)
    want = np.array([[[[i * 36 + j * 12 + 3.0]] * 2 for j in range(3)] for i in range(3)])
    with using_backend(backend):
        out = gather(data, idx, IndexSpec(axis=2, batch=2, elementwise=True))
    assert out.tolist() == want.tolist()


def test_gather_loop_fills_object_arrays_with_the_scalar():
    # found by the fuzzer: the loop stored the 0-d fill array itself in an object output
    out = gather_loop(np.array([1, "a"], dtype=object), np.array([5, 0]), IndexSpec(), Policy(bounds="fill"))
    assert out.tolist() == [0, 1] and type(out[0]) is int


def test_gather_loop_with_an_empty_output_beside_an_enormous_dim():
    # found by the fuzzer: np.ndindex(0, 2**40) raises MemoryError; an empty output has no element to visit
    d = np.broadcast_to(np.float32(1), (3, 2**40))
    out = gather_loop(d, np.zeros((0,), np.int64), IndexSpec())
    assert out.shape == (0, 2**40) and out.dtype == np.float32


@pytest.mark.parametrize("bounds", ["wrap", "clip", "fill", "drop"])
def test_negative_raise_names_the_negative_index_not_one_the_bounds_policy_handles(bounds):
    # found by the Dask backend's differential tests: [5] wrapped to 0 while [5, -1] raised naming indices[0] = 5
    import gatherscatter as gs

    kw = {"fill_value": 9} if bounds == "fill" else {}
    if bounds != "drop":
        assert gs.take(np.arange(5), [5], negative="raise", bounds=bounds, **kw).tolist() == {
            "wrap": [0], "clip": [4], "fill": [9]}[bounds]
    def call() -> object:
        if bounds == "drop":
            return gs.scatter_nd(np.zeros(5), [[5], [-1]], [1.0, 2.0], negative="raise", bounds="drop")
        return gs.take(np.arange(5), [5, -1], negative="raise", bounds=bounds, **kw)

    with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[1(, 0)?\] = -1 is negative") as e:
        call()
    assert (e.value.value, e.value.position) == (-1, (1,) if bounds != "drop" else (1, 0))
    # with bounds='raise' both are errors: the first in row-major order is named
    with pytest.raises(gs.IndexOutOfRangeError, match=r"indices\[0\] = 5"):
        gs.take(np.arange(5), [5, -1], negative="raise", bounds="raise")
