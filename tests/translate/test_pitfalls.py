"""The pitfalls of docs/semantics.md#s10 as regression tests: the naive, name-based mapping differs; ``gs.translate``
does not.

Each test runs the NAIVE mapping (the same-named or obvious target op on the same arrays, through our
dialects, each verified against its real framework) and shows it computes something else (or raises
where the source computes), then shows that ``gs.translate`` gets it right: its ``verify`` passes, or the
remaining difference is listed as a residual divergence. Pitfalls that are not about translation
(gradients, constant folding, accumulation order, spec errata) get a short test of the fact and say why.
"""

from __future__ import annotations

import numpy as np
import pytest

import gatherscatter as gs

VERIFY_N = 90


def same(x, y) -> bool:
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f"))


def outcome(fn):
    try:
        return fn()
    except gs.GatherScatterError as e:
        return e


def differs(a, b) -> bool:
    """Different values, or one side raises where the other computes."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        return isinstance(a, Exception) != isinstance(b, Exception)
    return not same(a, b)


def assert_verified(t, n: int = VERIFY_N):
    r = t.verify(n=n)
    assert r.ok, str(r)
    return r


def names(t) -> list[str]:
    return [s.name for s in t.steps]


def residual_whens(t) -> set[str]:
    return {r.when for r in t.residuals}


D = np.arange(12.0).reshape(3, 4)


# 1 ------------------------------------------------------------------------------------ index dtypes


def test_p01_gather_nd_takes_int64_only():
    i32 = np.array([[0, 1], [2, 3]], dtype=np.int32)
    assert same(gs.tensorflow.gather_nd(D, i32), np.array([1.0, 11.0]))
    with pytest.raises(gs.DTypeError):  # naive: forward TF's int32 indices to GatherND
        gs.onnx.GatherND(D, i32)
    t = gs.translate("tensorflow.gather_nd", to="onnx")
    assert "cast" in names(t)
    assert same(t.run(params=D, indices=i32), gs.tensorflow.gather_nd(D, i32))
    assert_verified(t)


def test_p01_int16_and_float_indices_are_cast():
    i16 = np.array([2, 0], dtype=np.int16)
    with pytest.raises(gs.DTypeError):
        gs.onnx.Gather(D, i16, axis=0)  # TF accepts int16, ONNX Gather only int32/int64
    t = gs.translate("tensorflow.gather", to="onnx", axis=0)
    assert same(t.run(params=D, indices=i16), gs.tensorflow.gather(D, i16, axis=0))
    f32 = np.array([[2, 0]], dtype=np.float32)  # MXNet: float indices, tuples on axis 0
    with pytest.raises(gs.DTypeError):
        gs.onnx.GatherND(D, np.moveaxis(f32, 0, -1))
    m = gs.translate("mxnet.gather_nd", to="onnx")
    assert same(m.run(data=D, indices=f32), gs.mxnet.gather_nd(D, f32))


def test_p01_onnxruntime_rejects_int32_gather_nd():
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    from .ort_util import session

    node = helper.make_node("GatherND", ["d", "i"], ["y"])
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("d", TensorProto.DOUBLE, [3, 4]),
                                        helper.make_tensor_value_info("i", TensorProto.INT32, [2, 2])],
                          [helper.make_tensor_value_info("y", TensorProto.DOUBLE, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 10
    assert onnx is not None
    with pytest.raises(Exception, match=r"tensor\(int32\).*GatherND.*is invalid"):
        session(m)


# 2 ------------------------------------------------------------------------------------ negative indices


def test_p02_negative_indices_forwarded_to_torch_raise():
    i = np.array([[-1, 0, -3, 1]])
    onnx_result = gs.onnx.GatherElements(D, i, axis=0)  # ONNX wraps
    assert isinstance(outcome(lambda: gs.torch.gather(D, 0, i)), gs.IndexOutOfRangeError)  # onnx2torch's bug
    t = gs.translate("onnx.GatherElements", to="torch", axis=0)
    assert "normalize_negative" in names(t)
    assert same(t.run(data=D, indices=i), onnx_result)
    assert_verified(t)


def test_p02_torch_gather_raises_where_onnx_and_take_along_dim_wrap():
    i = np.array([[-1, 0, 2, 1]])
    assert isinstance(outcome(lambda: gs.torch.gather(D, 0, i)), gs.IndexOutOfRangeError)
    assert same(gs.torch.take_along_dim(D, i, dim=0), gs.onnx.GatherElements(D, i, axis=0))
    t = gs.translate("torch.gather", to="onnx", dim=0)
    assert "negative" in residual_whens(t)  # listed: torch raises, ONNX wraps
    assert_verified(t)


# 3 ------------------------------------------------------------------------------------ clip is not wrap


def test_p03_mxnet_take_clips_where_onnx_gather_wraps():
    i = np.array([-1, 5, 1])
    src = gs.mxnet.take(D, i)  # mode='clip' by default: -1 -> 0, 5 -> 2
    assert same(src, D[[0, 2, 1]])
    assert differs(src, outcome(lambda: gs.onnx.Gather(D, i, axis=0)))
    t = gs.translate("mxnet.take", to="onnx")
    assert "clip_index" in names(t)
    assert same(t.run(a=D, indices=i), src)
    assert_verified(t)


# 4 ------------------------------------------------------------------------------------ device-dependent bounds


def test_p04_out_of_range_depends_on_the_device():
    i = np.array([3, 0])
    cpu = outcome(lambda: gs.tensorflow.gather(D, i, axis=0))
    gpu = gs.tensorflow.gather(D, i, axis=0, device="gpu")
    xla = gs.tensorflow.gather(D, i, axis=0, device="xla")
    assert isinstance(cpu, gs.IndexOutOfRangeError)
    assert same(gpu, np.stack([np.zeros(4), D[0]])) and same(xla, D[[2, 0]])
    assert differs(gpu, outcome(lambda: gs.onnx.Gather(D, i, axis=0)))  # naive: ONNX raises
    for device in ("gpu", "xla"):
        t = gs.translate("tensorflow.gather", to="onnx", axis=0, device=device)
        assert same(t.run(params=D, indices=i), gs.tensorflow.gather(D, i, axis=0, device=device))
        assert_verified(t)


# 5 ------------------------------------------------------------------------------------ duplicate overwrites


def test_p05_duplicate_overwrites_are_listed_not_hidden():
    i, u = np.array([[1], [1]]), np.array([[1.0] * 4, [2.0] * 4])
    first = gs.scatter_nd(D, i, u, duplicates="first")
    assert differs(first, gs.onnx.ScatterND(D, i, u))  # every CPU kernel is last-wins; ONNX leaves it open
    t = gs.translate("gatherscatter.scatter_nd", to="onnx", duplicates="first")
    assert "duplicates" in residual_whens(t)
    r = assert_verified(t)
    assert any("indices repeat" in why for why in r.explained)
    # torch.scatter leaves duplicates unspecified too (its docs: nondeterministic): nothing to list
    torch_t = gs.translate("torch.scatter", to="onnx", dim=0)
    assert not torch_t.source.canonical.duplicates_specified
    assert "duplicates" not in {r.when for r in torch_t.planned_residuals}
    # ... but torch's own record says CUDA picks another winner: that divergence is listed with the pair
    assert any("CUDA" in r.source for r in torch_t.residuals if r.when == "duplicates")


# 6 ------------------------------------------------------------------------------------ accumulation lost


def test_p06_scatter_add_exported_without_reduction_loses_the_sum():
    i = np.array([[0, 0, 0, 0], [0, 1, 0, 1]])
    src = np.ones((2, 4))
    exact = gs.torch.scatter_add(D, 0, i, src)
    naive = gs.onnx.ScatterElements(D, i, src, axis=0)  # pytorch#32960: reduction dropped
    assert differs(exact, naive)
    t = gs.translate("torch.scatter_add", to="onnx", dim=0)
    assert [s.attr_map.get("reduction") for s in t.steps if s.kind == "op"] == ["add"]
    assert same(t.run(input=D, index=i, src=src), exact)
    assert_verified(t)
    old = gs.translate("torch.scatter_add", to="onnx", dim=0, version=11)
    assert not old.exact and any("opset 16" in d for d in old.divergences)  # said, not hidden


@pytest.mark.parametrize(("op", "attrs"), [("torch.index_put", {"accumulate": True}),
                                           ("torch.index_add", {"dim": 0}),
                                           ("tensorflow.scatter_nd", {})])
def test_p06_every_accumulating_source_keeps_its_reduction(op, attrs):
    t = gs.translate(op, to="onnx", **attrs)
    assert "add" in [s.attr_map.get("reduction") for s in t.steps if s.kind == "op"]
    assert_verified(t)


# 7 ------------------------------------------------------------------------------------ batch_dims


def test_p07_gather_nd_5_flattens_batch_dims_and_onnx_gather_has_none():
    d = np.arange(24.0).reshape(2, 3, 4)
    i = np.array([[[1], [0]], [[2], [2]]])
    assert gs.openvino.GatherND(d[None], i[None], batch_dims=2, version=5).shape != \
        gs.openvino.GatherND(d[None], i[None], batch_dims=2, version=8).shape
    j = np.array([[2, 0], [1, 1]])
    tf = gs.tensorflow.gather(d, j, axis=1, batch_dims=1)
    assert differs(tf, outcome(lambda: gs.onnx.Gather(d, j, axis=1)))  # naive: batch_dims dropped
    t = gs.translate("tensorflow.gather", to="onnx", axis=1, batch_dims=1)
    assert t.ops == ["onnx.GatherND"]
    assert same(t.run(params=d, indices=j), tf)
    assert_verified(t)


# 8 ------------------------------------------------------------------------------------ same name, other op


def test_p08_onnx_gather_is_not_torch_gather():
    i = np.array([[2, 0, 1, 0]])
    assert differs(gs.torch.gather(D, 0, i), outcome(lambda: gs.onnx.Gather(D, i, axis=0)))
    t = gs.translate("torch.gather", to="onnx", dim=0)
    assert t.ops == ["onnx.GatherElements"]
    back = gs.translate("onnx.Gather", to="torch", axis=0)
    assert "torch.gather" not in back.ops
    assert_verified(back)


# 9 ------------------------------------------------------------------------------------ index layout


def test_p09_mxnet_index_tuples_are_on_the_first_axis():
    i = np.array([[0, 2], [1, 3]])  # MXNet: tuples (0, 1) and (2, 3)
    src = gs.mxnet.gather_nd(D, i.astype(np.float32))
    assert same(src, np.array([1.0, 11.0]))
    assert differs(src, outcome(lambda: gs.onnx.GatherND(D, i)))  # naive: (0, 2), (1, 3)
    assert differs(src, outcome(lambda: gs.tensorflow.gather_nd(D, i)))
    t = gs.translate("mxnet.gather_nd", to="tensorflow")
    assert "moveaxis" in names(t)
    assert_verified(t)


# 10 ----------------------------------------------------------------------------------- paddle overwrite=False


def test_p10_paddle_scatter_overwrite_false_drops_the_old_rows():
    i, u = np.array([1, 1]), np.ones((2, 4))
    src = gs.paddle.scatter(D, i, u, overwrite=False)
    assert same(src[1], np.full(4, 2.0))  # zeroed, then both updates added
    naive = gs.paddle.scatter_nd_add(D, i[:, None], u)  # a scatter-add onto x
    assert differs(src, naive)
    t = gs.translate("paddle.scatter", to="onnx", overwrite=False)
    assert same(t.run(x=D, index=i, updates=u), src)
    assert_verified(t)


# 11 ----------------------------------------------------------------------------------- include_self, mean, finfo


def test_p11_mean_mapped_to_reduction_none_is_wrong():
    i, src = np.array([[0, 0, 1, 1], [0, 2, 1, 1]]), np.arange(8.0).reshape(2, 4)
    mean = gs.torch.scatter_reduce(D, 0, i, src, "mean")
    assert differs(mean, gs.onnx.ScatterElements(D, i, src, axis=0))  # torchlib's reduction='none'
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="mean")
    assert same(t.run(input=D, index=i, src=src), mean)
    assert_verified(t)


def test_p11_finfo_min_prefill_is_not_minus_infinity():
    d = np.array([1.0, 2.0])
    i = np.array([0, 0])
    src = np.array([-np.inf, -np.inf])
    exact = gs.torch.scatter_reduce(d, 0, i, src, "amax", include_self=False)
    assert exact.tolist() == [-np.inf, 2.0]
    pre = gs.onnx.ScatterElements(d, i, np.full(2, np.finfo(np.float64).min), axis=0)  # torchlib's pre-fill
    naive = gs.onnx.ScatterElements(pre, i, src, axis=0, reduction="max")
    assert naive.tolist() == [np.finfo(np.float64).min, 2.0]
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="amax", include_self=False)
    assert same(t.run(input=d, index=i, src=src), exact)
    assert_verified(t)


def test_p11_include_self_false_is_not_the_default():
    i, src = np.array([0, 0]), np.array([5.0, 7.0])
    d = np.array([100.0, 1.0])
    assert differs(gs.torch.scatter_reduce(d, 0, i, src, "sum", include_self=False),
                   gs.onnx.ScatterElements(d, i, src, axis=0, reduction="add"))
    t = gs.translate("torch.scatter_reduce", to="onnx", dim=0, reduce="sum", include_self=False)
    assert "identity_like" in names(t)
    assert_verified(t)


# 12 ----------------------------------------------------------------------------------- shape rules


def test_p12_torch_scatter_reads_a_block_of_a_larger_src():
    i = np.array([[1, 0]])
    src = np.arange(12.0).reshape(3, 4) + 100  # larger than index: torch reads src[:1, :2]
    exact = gs.torch.scatter(D, 0, i, src)
    assert isinstance(outcome(lambda: gs.onnx.ScatterElements(D, i, src, axis=0)), gs.ShapeError)
    t = gs.translate("torch.scatter", to="onnx", dim=0)
    assert "slice_like" in names(t)
    assert same(t.run(input=D, index=i, src=src), exact)
    assert_verified(t)


def test_p12_take_along_axis_broadcasts_gather_elements_does_not():
    d = np.arange(12.0).reshape(3, 4)
    j = np.array([[2, 0, 1, 1]])
    wide = gs.numpy.take_along_axis(d[:, :1], j, axis=0)  # data broadcast to the index's width
    assert isinstance(outcome(lambda: gs.onnx.GatherElements(d[:, :1], j, axis=0)), gs.ShapeError)
    t = gs.translate("numpy.take_along_axis", to="onnx", axis=0)
    assert same(t.run(arr=d[:, :1], indices=j), wide)
    assert_verified(t)


# 13 ----------------------------------------------------------------------------------- scalar indices


def test_p13_index_select_keeps_the_dim_of_a_scalar_index():
    i = np.array(1)
    exact = gs.torch.index_select(D, 0, i)
    assert exact.shape == (1, 4)
    assert gs.onnx.Gather(D, i, axis=0).shape == (4,)  # naive: the axis is dropped
    t = gs.translate("torch.index_select", to="onnx", dim=0)
    assert same(t.run(input=D, index=i), exact)
    assert_verified(t)


# 14 ----------------------------------------------------------------------------------- k = 0


def test_p14_empty_index_tuples():
    k0 = np.zeros((2, 0), np.int64)
    exact = gs.tensorflow.gather_nd(D, k0)
    assert exact.shape == (2, 3, 4)  # each empty tuple selects all of params
    assert isinstance(outcome(lambda: gs.onnx.GatherND(D, k0)), gs.ShapeError)
    t = gs.translate("tensorflow.gather_nd", to="onnx")
    assert isinstance(outcome(lambda: t.run(params=D, indices=k0)), gs.ShapeError)  # fails loudly, and ...
    assert any(r.when == "empty" and "k = 0" in r.target for r in t.residuals)  # ... the residual says so
    to_np = gs.translate("tensorflow.gather_nd", to="numpy")
    assert same(to_np.run(params=D, indices=k0), exact)


# 15 ----------------------------------------------------------------------------------- gradients


def test_p15_gradients_through_duplicate_overwrites_differ():
    """Not a forward-value translation issue: ``gs.translate`` translates values, and a translated
    program's gradient is the target framework's. The fact, through ``gs.vjp``: the forward values agree,
    but torch credits every duplicate update (tensorflow#56961), JAX only the winner."""
    x, i, v = np.zeros(3), np.array([1, 1]), np.array([5.0, 7.0])
    out_t, pb_t = gs.vjp(gs.torch.scatter, x, 0, i, v)
    out_j, pb_j = gs.vjp(gs.jax.at_set, x, i, v)
    assert same(out_t, out_j)
    g = np.ones(3)
    assert pb_t(g)[3].tolist() == [1.0, 1.0]  # torch: every duplicate
    assert pb_j(g)[2].tolist() == [0.0, 1.0]  # JAX: only the winner


# 16 ----------------------------------------------------------------------------------- constant folding


def test_p16_constant_folding_is_a_runtime_effect_recorded_as_a_divergence():
    """Not a translation issue: our dialects model the runtime kernel, and the record says what folding does."""
    recs = [r for r in gs.divergences() if r.op == "openvino.Gather" and "constant folding" in r.theirs]
    assert recs
    with pytest.raises(gs.IndexOutOfRangeError):
        gs.openvino.Gather(D, [-1], axis=0, version=7)
    t = gs.translate("openvino.Gather", to="onnx", axis=0, op_version=7)
    assert "negative" in residual_whens(t)
    assert_verified(t)


# 17 ----------------------------------------------------------------------------------- lenient reference


def test_p17_onnx_reference_is_lenient_where_onnxruntime_raises():
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx.reference import ReferenceEvaluator

    from .ort_util import session

    t = gs.translate("torch.gather", to="onnx", dim=0)
    model = t.to_onnx(input=D, index=np.array([[0, 1, 2, 0]]))
    bad = {"input": D, "index": np.array([[0, 3, 2, 0]])}
    ref = ReferenceEvaluator(model).run(None, bad)[0]  # wraps 3 -> 0 instead of failing
    assert ref.shape == (1, 4)
    with pytest.raises(Exception, match=r"(?i)out of (range|bounds)|invalid"):
        session(model).run(None, bad)
    with pytest.raises(gs.IndexOutOfRangeError):
        t.run_source(**bad)
    assert onnx is not None


# 18 ----------------------------------------------------------------------------------- errata


def test_p18_scatter_nd_mul_multiplies():
    """Not a translation issue: the spec text's 'addition' for reduction='mul' is an erratum."""
    out = gs.onnx.ScatterND(np.array([2.0, 3.0]), [[0], [0]], np.array([5.0, 7.0]), reduction="mul")
    assert out.tolist() == [70.0, 3.0]


# 19 ----------------------------------------------------------------------------------- accumulation order


def test_p19_float_accumulation_order_matters():
    """Not a translation issue (threads/GPUs reorder sums): our ops accumulate in index order, so every
    translation is compared deterministically, and the exported graphs run in onnxruntime with one thread."""
    d = np.zeros(1, np.float32)
    u = np.array([1e8, 1.0, -1e8], np.float32)
    forward = gs.onnx.ScatterND(d, [[0], [0], [0]], u, reduction="add")
    reverse = gs.onnx.ScatterND(d, [[0], [0], [0]], u[::-1].copy(), reduction="add")
    assert forward.tolist() != reverse.tolist() or forward.tolist() == [0.0]


# 20 ----------------------------------------------------------------------------------- float indices


def test_p20_float32_indices_are_exact_only_to_2_24():
    """MXNet rounds ``i + s`` in float32: past 2**24 even integral indices read another row. An ONNX
    translation casts the float index to int64 first, so it reads the row the float names: the difference
    is listed (the ``float_index`` residual describes MXNet's rounding of ``i + s`` in the index dtype)."""
    big = 2**24 + 1
    assert int(np.float32(big)) == 2**24  # the index itself is already rounded in float32
    t = gs.translate("mxnet.gather_nd", to="onnx")
    res = [r for r in t.residuals if r.when == "float_index"]
    assert res and "(i + s)" in res[0].source
    d = np.arange(big + 1, dtype=np.float32)
    i = np.array([[2**24]], dtype=np.float32)
    src = gs.mxnet.gather_nd(d, i)
    assert src.tolist() == [float(2**24 - 2)]  # (2**24 + s) rounds in float32 before the modulo
    assert t.run(data=d, indices=i).tolist() == [float(2**24)]
    small = np.array([[3.0, -1.0, 2**22]], dtype=np.float32)  # while i + s <= 2**24 both agree
    assert same(t.run(data=d[: 2**22 + 1], indices=small), gs.mxnet.gather_nd(d[: 2**22 + 1], small))


# 21 ----------------------------------------------------------------------------------- 1-D scatter indices


def test_p21_one_dimensional_scatter_nd_indices_are_one_tuple():
    i = np.array([0, 2])
    exact = gs.torch.index_put(D, (i,), np.array(-1.0))  # rows 0 and 2
    naive = gs.onnx.ScatterND(D, i, np.array(-1.0))  # ONE tuple (0, 2): element D[0, 2]
    assert differs(exact, naive)
    t = gs.translate("torch.index_put", to="onnx")
    assert "stack_last" in names(t)
    assert same(t.run(input=D, indices=(i,), values=np.array(-1.0)), exact)
    assert_verified(t)


# 22 ----------------------------------------------------------------------------------- converter gaps

CONVERTER_GAPS = [
    ("onnx.GatherElements", "torch", {"axis": 1}),  # onnx2torch: bare torch.gather
    ("onnx.GatherND", "torch", {"batch_dims": 1}),  # onnx2torch: NotImplementedError
    ("onnx.ScatterND", "torch", {"reduction": "add"}),  # onnx2torch: NotImplementedError
    ("onnx.ScatterND", "torch", {"reduction": "max"}),
    ("onnx.ScatterElements", "torch", {"axis": 0, "reduction": "mul"}),  # onnx2torch: no converter
    ("onnx.ScatterND", "tensorflow", {"reduction": "add"}),  # onnx-tf: opsets 11/13 only, no reduction
    ("onnx.ScatterND", "tensorflow", {"reduction": "max"}),
    ("onnx.ScatterElements", "tensorflow", {"axis": 1, "reduction": "add"}),  # onnx2tf: only since 2026
    ("onnx.GatherND", "tensorflow", {"batch_dims": 1}),
    ("tensorflow.tensor_scatter_nd_max", "onnx", {}),  # tf2onnx: opset 16+ required
    ("tensorflow.gather", "onnx", {"axis": 1, "batch_dims": 1}),  # tf2onnx: GatherV2(batch_dims) needs opset 12
]


@pytest.mark.parametrize(("op", "to", "attrs"), CONVERTER_GAPS, ids=[f"{o}->{t}" for o, t, _ in CONVERTER_GAPS])
def test_p22_converter_gaps_are_translated(op, to, attrs):
    t = gs.translate(op, to=to, **attrs)
    assert t.exact, t.divergences
    assert_verified(t)
