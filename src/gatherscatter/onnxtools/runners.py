"""Run an ONNX model file on a runtime, optionally in a worker process (a crash is a result).

Runtimes: ``onnxruntime`` (CPU execution provider), ``openvino`` (CPU plugin, f32
inference precision, reading the ONNX file with its ONNX frontend), ``reference``
(the stock ``onnx.reference.ReferenceEvaluator``) and ``gatherscatter`` (the same
evaluator with :func:`~gatherscatter.onnxtools.reference_ops.reference_ops`).
Every runtime is imported only when used.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

__all__ = ["Executor", "run_model", "runtime_version"]

_CORE: list[Any] = []


def runtime_version(runtime: str) -> str:
    """The installed version of ``runtime`` (an ImportError names the missing package)."""
    if runtime == "onnxruntime":
        import onnxruntime  # type: ignore[import-untyped]

        return str(onnxruntime.__version__)
    if runtime == "openvino":
        import openvino  # type: ignore[import-untyped]

        return str(openvino.__version__).split("-")[0]
    import onnx

    from .. import __version__

    return f"onnx {onnx.__version__}" + (f" + gatherscatter {__version__}" if runtime == "gatherscatter" else "")


Feeds = dict[str, np.ndarray[Any, Any]]


def run_model(runtime: str, model: Any, feeds: Feeds, threads: int | None = None) -> list[np.ndarray[Any, Any]]:
    """Run ``model`` (a path or an ``onnx.ModelProto``) on ``runtime``; the outputs as NumPy arrays."""
    return _session(runtime, model, threads)(feeds)


def _session(runtime: str, model: Any, threads: int | None) -> Callable[[Feeds], list[np.ndarray[Any, Any]]]:
    """Load ``model`` once on ``runtime``; the returned function runs it."""
    if runtime == "onnxruntime":
        import onnxruntime as ort

        ort.set_default_logger_severity(4)  # a refused case is an outcome, not a log line
        so = ort.SessionOptions()
        so.log_severity_level = 4
        if threads is not None:
            so.intra_op_num_threads = threads
        src = str(model) if isinstance(model, (str, Path)) else model.SerializeToString()
        sess = ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
        return lambda feeds: [np.asarray(x) for x in sess.run(None, feeds)]
    if runtime == "openvino":
        import openvino as ov

        if not _CORE:
            _CORE.append(ov.Core())
        core = _CORE[0]
        m = core.read_model(str(model)) if isinstance(model, (str, Path)) else core.read_model(
            model.SerializeToString(), b""
        )
        config: dict[str, Any] = {"INFERENCE_PRECISION_HINT": "f32"}
        if threads is not None:
            config["INFERENCE_NUM_THREADS"] = threads
        compiled = core.compile_model(m, "CPU", config)

        def run_ov(feeds: Feeds) -> list[np.ndarray[Any, Any]]:
            res = compiled([np.array(feeds[p.get_any_name()]) for p in compiled.inputs])  # writeable copies
            return [np.array(res[o]) for o in compiled.outputs]

        return run_ov
    if runtime in ("reference", "gatherscatter"):
        from onnx.reference import ReferenceEvaluator

        new_ops = None
        if runtime == "gatherscatter":
            from .reference_ops import reference_ops

            new_ops = reference_ops()
        ref = ReferenceEvaluator(str(model) if isinstance(model, Path) else model, new_ops=new_ops)
        return lambda feeds: [np.asarray(x) for x in ref.run(None, feeds)]
    raise ValueError(f"unknown runtime {runtime!r}")


def _run_case(runtime: str, threads: int | None, case_dir: str, n_inputs: int, repeat: int = 1) -> tuple[str, Any]:
    from onnx import TensorProto, numpy_helper

    feeds = {}
    for k in range(n_inputs):
        t = TensorProto()
        t.ParseFromString((Path(case_dir) / "test_data_set_0" / f"input_{k}.pb").read_bytes())
        feeds[t.name] = numpy_helper.to_array(t)
    outs = []
    try:
        session = _session(runtime, str(Path(case_dir) / "model.onnx"), threads)
        for _ in range(repeat):
            outs.append(session(feeds)[0])
    except ImportError:
        raise
    except Exception as exc:  # a runtime refusing the model or failing the run: that is the outcome
        return "raise", f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    return "output", outs


class Executor:
    """Runs cases one by one on ``runtime``, in a worker process when ``isolate``."""

    def __init__(self, runtime: str, threads: int | None, *, isolate: bool = True, timeout: float | None = None
                 ) -> None:
        self.runtime = runtime
        self.threads = threads
        self.isolate = isolate
        self.timeout = timeout
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if et is not None:
            self._drop_pool()
        elif self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def run_case(self, case_dir: str, n_inputs: int, repeat: int = 1) -> tuple[str, Any]:
        """``('output', [array per run])``, ``('raise', message)`` or ``('crash', message)``."""
        if not self.isolate:
            return _run_case(self.runtime, self.threads, case_dir, n_inputs, repeat)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            # start the worker and import the runtime outside the per-case timeout
            self._pool.submit(runtime_version, self.runtime).result()
        fut = self._pool.submit(_run_case, self.runtime, self.threads, case_dir, n_inputs, repeat)
        try:
            return fut.result(timeout=self.timeout)
        except BrokenProcessPool:
            self._drop_pool()
            return "crash", "the runtime killed its process (e.g. SIGSEGV) on this case"
        except FuturesTimeout:
            self._drop_pool()
            return "timeout", f"no result within {self.timeout:g} s (the worker was stopped)"

    def _drop_pool(self) -> None:
        pool = self._pool
        self._pool = None
        if pool is None:
            return
        for proc in list(getattr(pool, "_processes", {}).values()):  # our own worker, stopped by its handle
            proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
