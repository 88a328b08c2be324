"""gatherscatter.onnx against ONNX itself: the backend node cases, onnxruntime and onnx.reference.

onnxruntime (CPU, 1 thread) and onnx.reference are run on generated in-range
inputs for every (op, opset). Known oracle faults are excluded where the
divergence records say so: onnx.reference wraps out-of-range GatherElements
indices, demands equal non-axis shapes and cannot take more than 64 entries on
the gathered axis; onnxruntime runs unknown reductions as 'none'.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gatherscatter as gs
from tests.strategies import index_arrays, shapes

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from tests.frameworks.onnx_models import run_ort, run_ref  # noqa: E402

OPS = ["Gather", "GatherElements", "GatherND", "Scatter", "ScatterElements", "ScatterND"]


def _collect():
    # ONNX's node cases are made when their module is imported (each class's export methods run then): import
    # the six ops' modules only, not every node case (collect_testcases: 25 s of pytest's collection, in each
    # worker, mostly other ops' reference outputs). Their cases are on the package's list.
    import importlib

    from onnx.backend.test.case import node

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for op in OPS:
            importlib.import_module(f"onnx.backend.test.case.node.{op.lower()}")
        cases = node._NodeTestCases
    return [c for c in cases if len(c.model.graph.node) == 1 and c.model.graph.node[0].op_type in OPS]


NODE_CASES = _collect()


def test_node_case_count():
    # docs/behavior-matrix.md#s4: 4 Gather + 3 GatherElements + 3 GatherND + 2 Scatter + 7 + 7
    assert len(NODE_CASES) == 26


@pytest.mark.parametrize("case", NODE_CASES, ids=lambda c: c.name)
def test_backend_node_case(case):
    node = case.model.graph.node[0]
    opset = case.model.opset_import[0].version
    attrs = {}
    for a in node.attribute:
        v = onnx.helper.get_attribute_value(a)
        attrs[a.name] = v.decode() if isinstance(v, bytes) else v
    inputs, outputs = case.data_sets[0]
    out = getattr(gs.onnx, node.op_type)(*inputs, **attrs, opset=opset)
    expected = outputs[0]
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=case.rtol, atol=case.atol)


# ---- generated in-range inputs against onnxruntime and onnx.reference

VERSIONS = {
    "Gather": [9, 11, 13, 18],
    "GatherElements": [11, 13, 18],
    "GatherND": [11, 12, 13, 18],
    "Scatter": [9, 10],
    "ScatterElements": [11, 13, 16, 18],
    "ScatterND": [11, 13, 16, 18],
}
DTYPES = [np.float32, np.float64, np.int64, np.int32, np.int8, np.uint8, np.bool_, np.float16]


@st.composite
def case(draw, op):
    opset = draw(st.sampled_from(VERSIONS[op]))
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1))
    r = len(shape)
    data = (np.arange(int(np.prod(shape))).reshape(shape) % 11 + 1).astype(dtype)
    idt = np.int64 if op in ("GatherND", "ScatterND") else draw(st.sampled_from([np.int32, np.int64]))
    attrs: dict = {}
    arrays = [data]
    if op == "Gather":
        axis = draw(st.integers(-r, r - 1))
        ishape = draw(shapes(min_dims=0, max_dims=2))
        arrays.append(draw(index_arrays(ishape, shape[axis], dtype=idt, in_range=True)))
        attrs["axis"] = axis
    elif op in ("GatherElements", "ScatterElements", "Scatter"):
        axis = draw(st.integers(-r, r - 1))
        a = axis % r
        ishape = tuple(draw(st.integers(0, 4)) if d == a else draw(st.integers(1, n)) for d, n in enumerate(shape))
        idx = draw(index_arrays(ishape, shape[a], dtype=idt, in_range=True))
        arrays.append(idx)
        attrs["axis"] = axis
        if op != "GatherElements":
            arrays.append(np.asarray(np.arange(idx.size).reshape(ishape) % 5 + 2).astype(dtype))
    else:
        b = draw(st.integers(0, r - 1)) if op == "GatherND" and opset >= 12 else 0
        k = draw(st.integers(1, r - b))
        mshape = draw(shapes(min_dims=0, max_dims=2, min_side=0))
        lead = shape[:b] + mshape
        if len(lead) == 0 and op == "GatherND":
            lead = (1,)
        idx = np.stack([draw(index_arrays(lead, shape[b + j], in_range=True)) for j in range(k)], -1)
        arrays.append(idx.astype(np.int64))
        if b:
            attrs["batch_dims"] = b
        if op == "ScatterND":
            ushape = lead + shape[k:]
            arrays.append(np.asarray(np.arange(int(np.prod(ushape))).reshape(ushape) % 5 + 2).astype(dtype))
    if op in ("ScatterElements", "ScatterND") and opset >= 16:
        reds = ["none", "add", "mul"] + (["max", "min"] if opset >= 18 else [])
        if dtype == np.bool_ or dtype == np.float16:
            reds = ["none"]
        attrs["reduction"] = draw(st.sampled_from(reds))
    return opset, arrays, attrs


def _ours(op, opset, arrays, attrs):
    return getattr(gs.onnx, op)(*arrays, **attrs, opset=opset)


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_against_onnxruntime(op, data):
    opset, arrays, attrs = data.draw(case(op))
    try:
        expected = run_ort(op, opset, arrays, **attrs)
    except Exception as exc:  # ORT has no kernel for some (op, type) pairs
        if "NOT_IMPLEMENTED" in str(exc) or "Could not find an implementation" in str(exc):
            pytest.skip(f"onnxruntime has no kernel: {str(exc)[:80]}")
        raise
    out = _ours(op, opset, arrays, attrs)
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("op", ["Gather", "GatherElements", "GatherND", "ScatterElements", "ScatterND"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_against_onnx_reference(op, data):
    opset, arrays, attrs = data.draw(case(op))
    if op in ("GatherElements", "ScatterElements"):
        d, i = arrays[0], arrays[1]
        a = attrs["axis"] % d.ndim
        if any(i.shape[x] != d.shape[x] for x in range(d.ndim) if x != a) or d.shape[a] > 64:
            return  # onnx.reference limitation (divergence records)
        if attrs["axis"] < 0 and i.shape[a] != d.shape[a]:
            return  # onnx.reference compares shapes with the un-normalised negative axis
    with np.errstate(over="ignore"):  # the reference's integer mul/add wraps as ours does, but warns per scalar
        expected = run_ref(op, opset, arrays, **attrs)
    out = _ours(op, opset, arrays, attrs)
    assert out.shape == expected.shape
    np.testing.assert_array_equal(out, expected.astype(out.dtype))


# ---- error paths: onnxruntime raises where we raise

ERROR_CASES = [
    ("Gather", 18, [np.array([10.0, 20, 30], np.float32), np.array([0, 3])], {}),
    ("Gather", 18, [np.array([10.0, 20, 30], np.float32), np.array([0, -4])], {}),
    ("GatherElements", 18, [np.ones((2, 3), np.float32), np.array([[0], [3]])], {"axis": 1}),
    ("GatherND", 18, [np.ones((3, 3), np.float32), np.array([[0, 0], [3, 0]])], {}),
    ("ScatterElements", 18, [np.ones(3, np.float32), np.array([3]), np.ones(1, np.float32)], {}),
    ("ScatterND", 18, [np.ones(3, np.float32), np.array([[-4]]), np.ones(1, np.float32)], {}),
    ("Scatter", 10, [np.ones(3, np.float32), np.array([3]), np.ones(1, np.float32)], {}),
]


@pytest.mark.parametrize(("op", "opset", "arrays", "attrs"), ERROR_CASES)
def test_out_of_range_raises_like_onnxruntime(op, opset, arrays, attrs):
    with pytest.raises(Exception):  # noqa: B017, PT011 - any ORT failure
        run_ort(op, opset, arrays, **attrs)
    with pytest.raises(gs.IndexOutOfRangeError):
        _ours(op, opset, arrays, attrs)


def test_gather_opset_9_wraps_negative_like_onnxruntime():
    arrays = [np.array([10.0, 20, 30], np.float32), np.array([0, -1])]
    np.testing.assert_array_equal(run_ort("Gather", 9, arrays), _ours("Gather", 9, arrays, {}))


def test_orts_lenient_bogus_reduction_is_refused():
    arrays = [np.full(3, 5.0, np.float32), np.array([0, 0]), np.array([2.0, 3.0], np.float32)]
    assert run_ort("ScatterElements", 18, arrays, reduction="bogus").tolist() == [3.0, 5.0, 5.0]
    with pytest.raises(gs.UnsupportedError):
        _ours("ScatterElements", 18, arrays, {"reduction": "bogus"})


def test_reference_gather_elements_wraps_out_of_range_but_we_raise():
    arrays = [np.array([[1, 2, 3], [4, 5, 6]], np.float32), np.array([[0], [3]])]
    assert run_ref("GatherElements", 18, arrays, axis=1).tolist() == [[1], [4]]
    with pytest.raises(gs.IndexOutOfRangeError):
        _ours("GatherElements", 18, arrays, {"axis": 1})


@pytest.mark.parametrize("op", ["ScatterND", "ScatterElements"])
@pytest.mark.parametrize(("reduction", "expected"), [
    # hand-computed: data [F, T, F, T], updates [T, F, T, T] at indices [0, 1, 2, 2]
    ("add", [True, True, True, True]),  # OR
    ("mul", [False, False, False, True]),  # AND
    ("max", [True, True, True, True]),  # OR
    ("min", [False, False, False, True]),  # AND
])
def test_bool_max_min_reductions_onnxruntime_refuses(op, reduction, expected):
    # issue 15: ORT refuses max/min on bool data ("bool data type is not supported"); we compute the spec's
    # result, and the difference is a divergence record like the others
    d = np.array([False, True, False, True])
    i = np.array([0, 1, 2, 2])
    u = np.array([True, False, True, True])
    arrays = [d, i[:, None] if op == "ScatterND" else i, u]
    assert _ours(op, 18, arrays, {"reduction": reduction}).tolist() == expected
    if reduction in ("add", "mul"):
        assert run_ort(op, 18, arrays, reduction=reduction).tolist() == expected
        return
    with pytest.raises(Exception, match="bool data type is not supported"):
        run_ort(op, 18, arrays, reduction=reduction)
    recs = [r for r in gs.divergences(f"onnx.{op}") if "bool" in r.case and r.reference.startswith("ONNX Runtime")]
    assert len(recs) == 1 and "'max' or 'min'" in recs[0].case and "max=OR, min=AND" in recs[0].ours
