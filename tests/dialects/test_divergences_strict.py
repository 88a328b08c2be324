"""Known divergences, asserted strictly: every record with an ``example`` runs on the real framework and on ours.

Each :class:`~gatherscatter.dialects._registry.Divergence` may carry an ``example``
(plain TOML-encodable data: the framework callable, the arguments, their dtypes and
the two recorded outcomes). This test runs the real framework (when importable:
NumPy, PyTorch, JAX, onnxruntime, onnx.reference and OpenVINO here and in CI;
TensorFlow and its TFLite interpreter, Paddle, Keras and MLX only in the opt-in
framework venv; MXNet 1.9.1 through ``tests/frameworks/mxnet_worker.py`` in its
own venv, ``$GS_MXNET_PYTHON`` or ``/work/venvs/mxnet``) and our op on it, and
asserts that each side does what its outcome says and that the outcomes differ:
a divergence that stops happening (a framework fixed, or ours changed) fails here.
A record whose ``ours`` reproduces the framework's quirk (the difference is with
another device, backend or the documentation) says ``ours = "same"``: both sides
must then give the framework's outcome, so a quirk that goes away fails too.
The expected outcomes are hand-written in the records, not computed by the code.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects._registry import Divergence, divergences

RECORDS = divergences()
EXAMPLES = [(f"{d.op}#{i}", d) for i, d in enumerate(RECORDS) if d.example]

# frameworks whose every record must say how it is reproduced (an example) or why it cannot be here
COVERED = ("numpy", "torch", "onnx", "jax", "tensorflow", "tflite", "keras", "mlx", "paddle", "openvino", "mxnet",
           "caffe2")

# the module each call form needs
_ROOTS = {"onnxruntime:": "onnxruntime", "onnx.reference:": "onnx.reference", "openvino:": "openvino",
          "tflite:": "tflite", "mxnet.": "mxnet"}
_NEEDS = {"tflite": "tensorflow"}  # the package a runner imports, where it is not the root's
MXNET_PYTHON = os.environ.get("GS_MXNET_PYTHON") or "/work/venvs/mxnet/bin/python"


def _root(call: str) -> str:
    for prefix, mod in _ROOTS.items():
        if call.startswith(prefix):
            return mod
    return call.split(".")[0]


# ------------------------------------------------------------------------------------------------ inputs


def _array(value: Any, dtype: str) -> np.ndarray[Any, Any]:
    """An array of ``dtype`` from nested lists (complex values are written as [real, imag] pairs)."""
    value = _nan(value)
    if dtype.startswith("complex"):
        pairs = np.asarray(value, dtype=np.float64)
        return (pairs[..., 0] + 1j * pairs[..., 1]).astype(dtype)
    if dtype in ("bfloat16",) or dtype.startswith("float8"):
        import ml_dtypes

        return np.asarray(value, dtype=np.float64).astype(getattr(ml_dtypes, dtype))
    return np.asarray(value, dtype=dtype)


def _nan(value: Any) -> Any:
    """``'nan'`` (how an example writes a NaN) as the float, in nested lists."""
    if isinstance(value, list):
        return [_nan(v) for v in value]
    return float("nan") if value == "nan" else value


class _Keep(np.ndarray):  # type: ignore[type-arg]
    """A NumPy array the runners pass to the framework as it is."""


def _inputs(d: Divergence) -> tuple[list[Any], dict[str, Any]]:
    """The example's positional and keyword arguments as NumPy values (tuples of arrays for ``tuple:`` dtypes)."""
    ex = d.example
    dtypes = ex.get("dtypes", {})

    def conv(name: str, value: Any) -> Any:
        dt = dtypes.get(name)
        if dt is None:
            return value
        if dt.startswith("scalar:"):  # a NumPy scalar (np.bool_(True) ...), not a 0-d array
            return np.dtype(dt[len("scalar:"):]).type(value)
        if dt.startswith("ndarray:"):  # stays a NumPy array on the framework's side too (not converted)
            return _array(value, dt[len("ndarray:"):]).view(_Keep)
        if dt.startswith("tuple:"):
            return tuple(_array(v, dt[len("tuple:"):]) for v in value)
        return _array(value, dt)

    args = [conv(k, v) for k, v in ex["args"].items()]
    kwargs = {k: conv(k, v) for k, v in ex.get("kwargs", {}).items()}
    return args, kwargs


def _resolve(path: str) -> Any:
    """``'numpy.add.at'`` -> the object (the longest importable module prefix, then attributes)."""
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for p in parts[n:]:
            obj = getattr(obj, p)
        return obj
    raise ImportError(path)


# ------------------------------------------------------------------------------------------------ runners


def _convert(args: list[Any], kwargs: dict[str, Any], to: Callable[[np.ndarray[Any, Any]], Any]) -> tuple[Any, Any]:
    def c(v: Any) -> Any:
        if isinstance(v, _Keep):
            return np.asarray(v)
        if isinstance(v, np.ndarray):
            return to(v)
        if isinstance(v, tuple):
            return tuple(c(x) for x in v)
        return v

    return [c(a) for a in args], {k: c(v) for k, v in kwargs.items()}


def _run_numpy(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    fn = _resolve(d.example["call"])
    res = fn(*args, **kwargs)
    return args[0] if d.example.get("inplace") else res


def _run_torch(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import torch

    fn = _resolve(d.example["call"])
    targs, tkw = _convert(args, kwargs, lambda a: torch.from_numpy(a.copy()))
    res = fn(*targs, **tkw)
    res = targs[0] if d.example.get("inplace") else res
    return res.numpy() if isinstance(res, torch.Tensor) else res


def _run_jax(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import jax
    import jax.numpy as jnp

    call = d.example["call"]
    with jax.enable_x64(bool(d.example.get("x64", True))):
        jargs, jkw = _convert(args, kwargs, jnp.asarray)
        if "dimension_numbers" in d.example["args"]:
            i = list(d.example["args"]).index("dimension_numbers")
            cls = jax.lax.GatherDimensionNumbers if call.endswith("gather") else jax.lax.ScatterDimensionNumbers
            jargs[i] = cls(**{k: tuple(v) for k, v in jargs[i].items()})
        if ".at." in call:  # 'jax.numpy.ndarray.at.add': x.at[idx].add(*rest)
            x, idx, *rest = jargs
            res = getattr(x.at[idx], call.rsplit(".", 1)[1])(*rest, **jkw)
        else:
            res = _resolve(call)(*jargs, **jkw)
        return np.asarray(res)


def _onnx_model(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    from onnx import helper

    op_type = d.example["call"].split(":", 1)[1]
    names = list(d.example["args"])
    node = helper.make_node(op_type, names, ["y"], **kwargs)
    inputs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
              for n, a in zip(names, args, strict=True)]
    out = helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(args[0].dtype), None)
    graph = helper.make_graph([node], "g", inputs, [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", int(d.example["opset"]))], ir_version=10)


def _run_onnx(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    model = _onnx_model(d, args, kwargs)
    feeds = dict(zip(d.example["args"], args, strict=True))
    if d.example["call"].startswith("onnxruntime:"):
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.log_severity_level = 4
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)[0]
    from onnx.reference import ReferenceEvaluator

    return ReferenceEvaluator(model).run(None, feeds)[0]


def _run_tensorflow(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import tensorflow as tf

    fn = _resolve(d.example["call"])
    targs, tkw = _convert(args, kwargs, tf.constant)
    targs = [list(a) if isinstance(a, tuple) else a for a in targs]  # a list of tensors (sharded params)
    if d.example.get("device") == "xla":  # XLA on CPU: the function compiled with jit_compile
        return tf.function(lambda *a: fn(*a, **tkw), jit_compile=True)(*targs).numpy()
    return fn(*targs, **tkw).numpy()


def _paddle_call(call: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """One paddle call, in the spawned worker (paddle crashes in a process that has imported tensorflow)."""
    import paddle

    pargs, pkw = _convert(args, kwargs, paddle.to_tensor)
    return _resolve(call)(*pargs, **pkw).numpy()


_PADDLE: list[Any] = []


def _run_paddle(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if not _PADDLE:  # one worker for every paddle example (tests/frameworks/test_paddle.py does the same)
        _PADDLE.append(ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))
    return _PADDLE[0].submit(_paddle_call, d.example["call"], args, kwargs).result(timeout=300)


def _run_mlx(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import mlx.core as mx

    call = d.example["call"].replace(".array.at_", ".array.at.")  # a family table's 'mlx.core.array.at_add'
    margs, mkw = _convert(args, kwargs, mx.array)
    if ".at." in call:  # 'mlx.core.array.at.add': a.at[idx].add(values)
        x, idx, *rest = margs
        return np.asarray(getattr(x.at[idx], call.rsplit(".", 1)[1])(*rest, **mkw))
    return np.asarray(_resolve(call)(*margs, **mkw))


def _run_openvino(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """One OpenVINO node (``'openvino:Gather'``, version from ``opset``) over Parameters, compiled for CPU."""
    import openvino as ov
    import openvino.opset1 as o1

    name = d.example["call"].split(":", 1)[1]
    # GatherND -> gather_nd, ScatterNDUpdate -> scatter_nd_update
    fn_name = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    version = int(d.example["opset"])
    fn = next(getattr(m, fn_name) for v in range(version, 17)
              if hasattr(m := importlib.import_module(f"openvino.opset{v}"), fn_name))
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    params = [o1.parameter(list(a.shape), ov.Type.boolean if a.dtype == np.bool_ else ov.Type(a.dtype))
              for a in arrays]
    it = iter(params)
    node = fn(*[next(it) if isinstance(a, np.ndarray) else a for a in args], **kwargs)
    compiled = ov.Core().compile_model(ov.Model([node], params), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return np.array(compiled(arrays)[compiled.output(0)], copy=True)


def _run_tflite(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """A one-op TFLite model (``'tflite:tensorflow.gather'``: that TF call converted) run by TF's interpreter."""
    import tensorflow as tf

    fn = _resolve(d.example["call"].split(":", 1)[1])
    arrays = [a for a in args if isinstance(a, np.ndarray)]

    def body(*ts: Any) -> Any:
        it = iter(ts)
        return fn(*[next(it) if isinstance(a, np.ndarray) else a for a in args], **kwargs)

    f = tf.function(body, input_signature=[tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in arrays])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f).convert()
        interp = tf.lite.Interpreter(model_content=model)
    interp.allocate_tensors()
    for det, a in zip(interp.get_input_details(), arrays, strict=True):
        interp.set_tensor(det["index"], a)
    interp.invoke()
    return np.array(interp.get_tensor(interp.get_output_details()[0]["index"]))


def _keras_call(call: str, args: list[Any], kwargs: dict[str, Any], inplace: bool = False) -> Any:
    """One keras call, in a worker whose KERAS_BACKEND was set before keras was imported (``inplace``: the
    first argument afterwards)."""
    import keras

    res = _resolve(call)(*args, **kwargs)
    return keras.ops.convert_to_numpy(args[0] if inplace else res)


def _keras_backend(backend: str) -> None:
    os.environ["KERAS_BACKEND"] = backend


_KERAS: dict[str, Any] = {}


def _run_keras(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    backend = d.example["backend"]
    if backend not in _KERAS:  # one worker per backend (the backend is fixed at import)
        _KERAS[backend] = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=_keras_backend, initargs=(backend,))
    return _KERAS[backend].submit(_keras_call, d.example["call"], args, kwargs,
                                    bool(d.example.get("inplace"))).result(timeout=300)


def _run_mxnet(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """``'mxnet.nd.take'`` through tests/frameworks/mxnet_worker.py under MXNet's own interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        named = dict(zip(d.example["args"], args, strict=True))
        for name, a in named.items():
            if isinstance(a, np.ndarray):
                np.save(root / f"{name}.npy", a)
        case = {"op": d.example["call"].rsplit(".", 1)[1],
                "inputs": [f"{k}.npy" for k, a in named.items() if isinstance(a, np.ndarray)],
                "kwargs": {**kwargs, **{k: a for k, a in named.items() if not isinstance(a, np.ndarray)}}}
        (root / "cases.json").write_text(json.dumps([case]))
        worker = Path(__file__).parents[1] / "frameworks" / "mxnet_worker.py"
        subprocess.run([MXNET_PYTHON, str(worker), tmp], check=True, capture_output=True, timeout=300)
        res = json.loads((root / "results.json").read_text())[0]
        if not res["ok"]:
            raise type(res["error"].split(":")[0], (Exception,), {})(res["error"])
        return np.load(root / res["out"])


RUNNERS: dict[str, Callable[[Divergence, list[Any], dict[str, Any]], Any]] = {
    "numpy": _run_numpy,
    "torch": _run_torch,
    "jax": _run_jax,
    "onnxruntime": _run_onnx,
    "onnx.reference": _run_onnx,
    "tensorflow": _run_tensorflow,
    "paddle": _run_paddle,
    "mlx": _run_mlx,
    "openvino": _run_openvino,
    "tflite": _run_tflite,
    "keras": _run_keras,
    "mxnet": _run_mxnet,
}


def _available(root: str) -> bool:
    if root == "mxnet":
        return Path(MXNET_PYTHON).exists()
    return importlib.util.find_spec(_NEEDS.get(root, root).split(".")[0]) is not None


def _run_ours(d: Divergence, args: list[Any], kwargs: dict[str, Any]) -> Any:
    op = gs.get_op(d.op)
    args, kwargs = _convert(args, kwargs, lambda a: a)
    if "dimension_numbers" in d.example["args"]:  # jax.lax: a dict of the fields -> the tuple of them
        i = list(d.example["args"]).index("dimension_numbers")
        args = [*args[:i], tuple(tuple(v) for v in args[i].values()), *args[i + 1:]]
    if "opset" in d.example and op.info.version_kw:
        kwargs = {**kwargs, op.info.version_kw: int(d.example["opset"])}
    for key in ("device", "backend"):  # ours selects the framework's device / Keras backend by that keyword
        if key in d.example:
            kwargs = {**kwargs, key: d.example[key]}
    res = op(*args, **kwargs)
    return args[0] if d.example.get("inplace") else res  # inplace: the caller's first array afterwards


def _outcome(run: Callable[[], Any]) -> tuple[BaseException | None, Any, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return None, run(), caught
        except Exception as exc:  # the framework's own error is an outcome
            return exc, None, caught


def _check(side: str, expected: dict[str, Any], outcome: tuple[BaseException | None, Any, list[Any]]) -> None:
    exc, res, caught = outcome
    if "raises" in expected:
        names = [c.__name__ for c in type(exc).__mro__] if exc is not None else []
        assert expected["raises"] in names, f"{side}: expected {expected['raises']}, got {exc!r} / {res!r}"
        return
    assert exc is None, f"{side}: expected a result ({expected}), got {type(exc).__name__}: {exc}"
    if "warns" in expected:
        got = [type(w.message).__name__ for w in caught]
        assert expected["warns"] in got, f"{side}: expected a {expected['warns']}, got warnings {got}"
    if side.endswith("ours") and "warns" not in expected:
        assert not caught, f"{side}: unexpected warnings {[str(w.message) for w in caught]}"
    res = np.asarray(res)
    if "dtype" in expected:
        assert str(res.dtype) == expected["dtype"], f"{side}: expected dtype {expected['dtype']}, got {res.dtype}"
    if "equals" in expected:
        if res.dtype.kind == "c":  # complex values are written as [real, imag] pairs
            res = np.stack([res.real, res.imag], axis=-1)
        want = np.asarray(_nan(expected["equals"]))
        same = res.shape == want.shape and bool(np.all((res == want) | ((res != res) & (want != want))))
        assert same, f"{side}: expected {expected['equals']}, got {res.tolist()}"


# ------------------------------------------------------------------------------------------------ tests


@pytest.fixture(scope="module", autouse=True)
def _workers() -> Any:
    """Shut the Paddle and Keras workers down with the module (not at interpreter exit)."""
    yield
    for pool in [*_PADDLE, *_KERAS.values()]:
        pool.shutdown()
    _PADDLE.clear()
    _KERAS.clear()


def _this_test(rid: str) -> str:
    return f"test_divergence_still_happens[{rid}]"


@pytest.mark.parametrize(("rid", "d"), EXAMPLES, ids=[r for r, _ in EXAMPLES])
def test_divergence_still_happens(rid: str, d: Divergence) -> None:
    """The framework and ours do on the record's example what the record says, and they differ."""
    root = _root(d.example["call"])
    if not _available(root):
        pytest.skip(f"{root} is not installed")
    if root == "torch" and "warns" in d.example["theirs"] and not os.environ.get("GS_STRICT_FRESH"):
        # torch warns once per process (TORCH_WARN_ONCE): an earlier test may have spent it, so a fresh one runs it
        env = {**os.environ, "GS_STRICT_FRESH": "1"}
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::{_this_test(rid)}"]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        return
    args, kwargs = _inputs(d)
    theirs = _outcome(lambda: RUNNERS[root](d, *_inputs(d)))
    ours = _outcome(lambda: _run_ours(d, args, kwargs))
    _check(f"{rid} theirs ({d.example['call']})", d.example["theirs"], theirs)
    same = d.example["ours"] == "same"  # ours reproduces the framework's quirk
    _check(f"{rid} ours", d.example["theirs"] if same else d.example["ours"], ours)
    # the outcomes differ: an error class, or a value, or a warning one side gives and the other does not
    assert same or d.example["theirs"] != d.example["ours"]


def test_examples_are_well_formed() -> None:
    """Every example names a runnable call form and two different outcomes of the known kinds."""
    kinds = {"raises", "warns", "dtype", "equals"}
    for rid, d in EXAMPLES:
        ex = d.example
        assert _root(ex["call"]) in RUNNERS, (rid, ex["call"])
        assert ex["theirs"] != ex["ours"], rid
        for side in ("theirs", "ours") if ex["ours"] != "same" else ("theirs",):
            assert ex[side] and set(ex[side]) <= kinds, (rid, side, ex[side])
        assert set(ex.get("dtypes", {})) <= set(ex["args"]) | set(ex.get("kwargs", {})), rid
        assert ex["call"].startswith(("onnx", "openvino")) == ("opset" in ex), rid
        assert (_root(ex["call"]) == "keras") == ("backend" in ex), rid


@pytest.mark.parametrize("fw", COVERED)
def test_every_record_is_reproduced_or_says_why_not(fw: str) -> None:
    """Each divergence of these frameworks has an example, or the reason none can run on a CPU-only machine."""
    missing = [(d.op, d.case) for d in RECORDS if d.op.split(".")[0] == fw and not d.example and not d.not_reproducible]
    assert not missing, missing
