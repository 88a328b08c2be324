"""The benchmark workloads (../shared/perf/perf-anchors.md §9) and each peer's formulation.

Every workload builds its inputs once (fixed seed, float32 data, int64 indices,
data meant to be zeros filled explicitly so its pages are real), then offers:
``ours`` (gatherscatter), ``onnx`` (op type + attributes for onnxruntime and
onnx.reference), ``torch`` (the best torch formulation), ``numpy`` (the best
plain-NumPy formulation from perf-anchors §6) and the compulsory traffic in
bytes ("MB moved").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import gatherscatter as gs

Arrays = dict[str, np.ndarray]


@dataclass
class Workload:
    name: str
    op: str  # ONNX op type
    attrs: dict[str, Any]
    inputs: Callable[[int], Arrays]  # scale divisor -> arrays
    ours: Callable[[Arrays], np.ndarray]
    numpy: Callable[[Arrays], np.ndarray]
    torch: Callable[[Any, dict[str, Any]], Any] | None = None
    exact: bool = True  # gathers, none and max compare exactly; sums with allclose
    streaming: bool = False  # a streaming gather (bandwidth target applies)
    onnx_inputs: tuple[str, ...] = ("data", "indices")
    inplace: bool = False  # updates data in place (out=data): no ONNX peer; checked on fresh copies
    out_buffer: bool = False  # writes into a["out"], allocated once (like ORT's arena); checked on fresh copies
    notes: str = field(default="")

    def moved(self, a: Arrays, out: np.ndarray) -> int:
        """Compulsory traffic: indices + data actually needed + output (+ data copy for scatters)."""
        if self.inplace:
            return a["indices"].nbytes + 2 * a["updates"].nbytes  # read the updates, write the rows
        if self.out_buffer:
            a = {k: v for k, v in a.items() if k != "out"}
        n = a["indices"].nbytes + out.nbytes
        if "updates" in a:
            n += a["updates"].nbytes + 2 * a["data"].nbytes  # read + write of the data copy
        elif self.op == "GatherElements" and a["indices"].shape == a["data"].shape:
            n += a["data"].nbytes
        else:
            n += out.nbytes  # the elements read equal the elements written
        return n


def _rng(k: int) -> np.random.Generator:
    return np.random.default_rng(k)


def _zeros(shape: tuple[int, ...]) -> np.ndarray:
    z = np.empty(shape, np.float32)
    z.fill(0.0)
    return z


def _d(n: int, q: int) -> int:
    return max(1, n // q)


def gather_rows(q: int) -> Arrays:
    r = _rng(1)
    rows = _d(1_000_000, q)
    return {"data": r.random((rows, 64), np.float32), "indices": r.integers(0, rows, _d(2_000_000, q))}


def gather_axis1(q: int) -> Arrays:
    r = _rng(2)
    return {"data": r.random((_d(64, q), 4096, 256), np.float32), "indices": r.integers(0, 4096, 2048)}


def gather_elements_last(q: int) -> Arrays:
    r = _rng(3)
    n = _d(4096, q)
    return {"data": r.random((n, 4096), np.float32), "indices": r.integers(0, 4096, (n, 4096))}


def with_out(build: Callable[[int], Arrays], shape: Callable[[Arrays], tuple[int, ...]]) -> Callable[[int], Arrays]:
    """The same inputs plus a touched output buffer ``out`` (reused by every call)."""

    def inputs(q: int) -> Arrays:
        a = build(q)
        out = np.empty(shape(a), a["data"].dtype)
        out.fill(0)
        return {**a, "out": out}

    return inputs


def gather_elements_topk(q: int) -> Arrays:
    r = _rng(4)
    n = _d(4096, q)
    return {"data": r.random((n, 4096), np.float32), "indices": r.integers(0, 4096, (n, 32))}


def gathernd_elem(q: int) -> Arrays:
    r = _rng(5)
    n = _d(8192, int(q**0.5) or 1)
    m = _d(4_000_000, q)
    idx = np.stack([r.integers(0, n, m), r.integers(0, 8192, m)], -1)
    return {"data": r.random((n, 8192), np.float32), "indices": idx}


def gathernd_rows(q: int) -> Arrays:
    r = _rng(6)
    a = _d(256, q)
    m = _d(262_144, q)
    return {
        "data": r.random((a, 1024, 128), np.float32),
        "indices": np.stack([r.integers(0, a, m), r.integers(0, 1024, m)], -1),
    }


def gathernd_batch1(q: int) -> Arrays:
    r = _rng(7)
    b = _d(64, q)
    return {"data": r.random((b, 4096, 256), np.float32), "indices": r.integers(0, 4096, (b, 1024, 1))}


def scatter_elements_none_last(q: int) -> Arrays:
    r = _rng(8)
    n = _d(4096, q)
    idx = np.argsort(r.random((n, 4096)), axis=1)
    return {"data": r.random((n, 4096), np.float32), "indices": idx, "updates": r.random((n, 4096), np.float32)}


def scatter_elements_axis0(q: int, *, zeros: bool) -> Arrays:
    r = _rng(9 if zeros else 10)
    seg = _d(10_000, q)
    m = _d(500_000, q)
    idx = np.repeat(r.integers(0, seg, m)[:, None], 64, axis=1)
    data = _zeros((seg, 64)) if zeros else r.random((seg, 64), np.float32)
    return {"data": data, "indices": idx, "updates": r.random((m, 64), np.float32)}


def scatter_elements_add_last(q: int) -> Arrays:
    r = _rng(11)
    n = _d(4096, q)
    idx = r.integers(0, 1024, (n, 4096))
    return {"data": _zeros((n, 1024)), "indices": idx, "updates": r.random((n, 4096), np.float32)}


def scatternd_none_rows(q: int) -> Arrays:
    r = _rng(12)
    n = _d(262_144, q)
    m = _d(16_384, q)
    return {
        "data": r.random((n, 256), np.float32),
        "indices": r.permutation(n)[:m, None],
        "updates": r.random((m, 256), np.float32),
    }


def scatternd_add_rows(q: int) -> Arrays:
    r = _rng(13)
    n = _d(1_000_000, q)
    m = _d(2_000_000, q)
    return {"data": _zeros((n, 64)), "indices": r.integers(0, n, (m, 1)), "updates": r.random((m, 64), np.float32)}


def scatternd_add_elem(q: int) -> Arrays:
    r = _rng(14)
    n = _d(4096, int(q**0.5) or 1)
    m = _d(4_000_000, q)
    return {
        "data": _zeros((n, 4096)),
        "indices": np.stack([r.integers(0, n, m), r.integers(0, 4096, m)], -1),
        "updates": r.random(m, np.float32),
    }


# ---- plain NumPy formulations (the winners of perf-anchors §6)


def np_scatter_elements(a: Arrays, axis: int, ufunc: np.ufunc | None) -> np.ndarray:
    d, i, u = a["data"], a["indices"], a["updates"]
    out = d.copy()
    flat = i * d.shape[1] + np.arange(i.shape[1]) if axis == 0 else i + (np.arange(i.shape[0]) * d.shape[1])[:, None]
    if ufunc is None:
        out.reshape(-1)[flat.reshape(-1)] = u.reshape(-1)
    else:
        ufunc.at(out.reshape(-1), flat.reshape(-1), u.reshape(-1))
    return out


def np_gathernd_flat(a: Arrays) -> np.ndarray:
    d, i = a["data"], a["indices"]
    flat = i[:, 0] * d.shape[1] + i[:, 1]
    return np.take(d.reshape(d.shape[0] * d.shape[1], -1), flat, axis=0).reshape(i.shape[:-1] + d.shape[2:])


def np_scatternd_add_rows(a: Arrays) -> np.ndarray:
    d, i, u = a["data"], a["indices"], a["updates"]
    out = d.copy()
    el = (i[:, 0:1] * d.shape[1] + np.arange(d.shape[1])).reshape(-1)
    np.add.at(out.reshape(-1), el, u.reshape(-1))
    return out


def np_scatternd_add_elem(a: Arrays) -> np.ndarray:
    d, i, u = a["data"], a["indices"], a["updates"]
    out = d.copy()
    np.add.at(out.reshape(-1), i[:, 0] * d.shape[1] + i[:, 1], u)
    return out


def np_scatternd_none_rows(a: Arrays) -> np.ndarray:
    out = a["data"].copy()
    out[a["indices"][:, 0]] = a["updates"]
    return out


def np_scatternd_none_rows_inplace(a: Arrays) -> np.ndarray:
    d = a["data"]
    d[a["indices"][:, 0]] = a["updates"]
    return d


def np_gathernd_batch1(a: Arrays) -> np.ndarray:
    d, i = a["data"], a["indices"]
    b, s = d.shape[0], d.shape[1]
    rows = (np.arange(b)[:, None] * s + i[..., 0]).reshape(-1)
    return np.take(d.reshape(b * s, -1), rows, axis=0).reshape(i.shape[:-1] + d.shape[2:])


def np_gather_elements(a: Arrays) -> np.ndarray:
    d, i = a["data"], a["indices"]
    flat = i + (np.arange(i.shape[0]) * d.shape[1])[:, None]
    return np.take(d.reshape(-1), flat)


# ---- torch formulations (best of perf-anchors appendix)


def _t_gathernd_flat(t: Any, a: dict[str, Any]) -> Any:
    d, i = a["data"], a["indices"]
    flat = i[:, 0] * d.shape[1] + i[:, 1]
    out = t.index_select(d.reshape(d.shape[0] * d.shape[1], -1), 0, flat)
    return out.reshape(tuple(i.shape[:-1]) + tuple(d.shape[2:]))


def _t_gathernd_batch1(t: Any, a: dict[str, Any]) -> Any:
    d, i = a["data"], a["indices"]
    b, s = d.shape[0], d.shape[1]
    rows = (t.arange(b)[:, None] * s + i[..., 0]).reshape(-1)
    return t.index_select(d.reshape(b * s, -1), 0, rows).reshape(tuple(i.shape[:-1]) + tuple(d.shape[2:]))


def _t_scatternd_add_rows(t: Any, a: dict[str, Any]) -> Any:
    d, i, u = a["data"], a["indices"], a["updates"]
    return d.index_add(0, i[:, 0], u)


def _t_scatternd_add_elem(t: Any, a: dict[str, Any]) -> Any:
    d, i, u = a["data"], a["indices"], a["updates"]
    out = d.clone().reshape(-1)
    out.index_add_(0, i[:, 0] * d.shape[1] + i[:, 1], u)
    return out.reshape(d.shape)


def _t_scatternd_none_rows(t: Any, a: dict[str, Any]) -> Any:
    d, i, u = a["data"], a["indices"], a["updates"]
    return d.index_copy(0, i[:, 0], u)


def _t_scatternd_none_rows_inplace(t: Any, a: dict[str, Any]) -> Any:
    d, i, u = a["data"], a["indices"], a["updates"]
    return d.index_copy_(0, i[:, 0], u)


WORKLOADS: list[Workload] = [
    Workload("gather_rows", "Gather", {"axis": 0}, gather_rows,
             ours=lambda a: gs.onnx.Gather(a["data"], a["indices"], axis=0),
             numpy=lambda a: np.take(a["data"], a["indices"], axis=0),
             torch=lambda t, a: t.index_select(a["data"], 0, a["indices"]), streaming=True),
    Workload("gather_axis1", "Gather", {"axis": 1}, gather_axis1,
             ours=lambda a: gs.onnx.Gather(a["data"], a["indices"], axis=1),
             numpy=lambda a: np.take(a["data"], a["indices"], axis=1),
             torch=lambda t, a: t.index_select(a["data"], 1, a["indices"]), streaming=True),
    Workload("gather_elements_last", "GatherElements", {"axis": -1}, gather_elements_last,
             ours=lambda a: gs.onnx.GatherElements(a["data"], a["indices"], axis=-1),
             numpy=np_gather_elements,
             torch=lambda t, a: t.gather(a["data"], 1, a["indices"]), streaming=True),
    Workload("gather_rows_out", "Gather", {"axis": 0},
             with_out(gather_rows, lambda a: a["indices"].shape + a["data"].shape[1:]),
             ours=lambda a: gs.take(a["data"], a["indices"], axis=0, out=a["out"]),
             numpy=lambda a: np.take(a["data"], a["indices"], axis=0, mode="wrap", out=a["out"]),
             torch=lambda t, a: t.index_select(a["data"], 0, a["indices"], out=a["out"]), streaming=True,
             out_buffer=True, notes="gather_rows into a reused output (out=), as ORT's arena"),
    Workload("gather_elements_last_out", "GatherElements", {"axis": -1},
             with_out(gather_elements_last, lambda a: a["indices"].shape),
             ours=lambda a: gs.take_along_axis(a["data"], a["indices"], axis=-1, out=a["out"]),
             numpy=lambda a: np.take(a["data"].reshape(-1), a["indices"] + (np.arange(a["indices"].shape[0])
                                     * a["data"].shape[1])[:, None], mode="wrap", out=a["out"]),
             torch=lambda t, a: t.gather(a["data"], 1, a["indices"], out=a["out"]), streaming=True,
             out_buffer=True, notes="gather_elements_last into a reused output (out=), as ORT's arena"),
    Workload("gather_elements_topk", "GatherElements", {"axis": -1}, gather_elements_topk,
             ours=lambda a: gs.onnx.GatherElements(a["data"], a["indices"], axis=-1),
             numpy=np_gather_elements,
             torch=lambda t, a: t.gather(a["data"], 1, a["indices"]), streaming=True),
    Workload("gathernd_elem", "GatherND", {}, gathernd_elem,
             ours=lambda a: gs.onnx.GatherND(a["data"], a["indices"]),
             numpy=np_gathernd_flat, torch=_t_gathernd_flat),
    Workload("gathernd_rows", "GatherND", {}, gathernd_rows,
             ours=lambda a: gs.onnx.GatherND(a["data"], a["indices"]),
             numpy=np_gathernd_flat, torch=_t_gathernd_flat, streaming=True),
    Workload("gathernd_batch1", "GatherND", {"batch_dims": 1}, gathernd_batch1,
             ours=lambda a: gs.onnx.GatherND(a["data"], a["indices"], batch_dims=1),
             numpy=np_gathernd_batch1, torch=_t_gathernd_batch1, streaming=True),
    Workload("scatter_elements_none_last", "ScatterElements", {"axis": -1}, scatter_elements_none_last,
             ours=lambda a: gs.onnx.ScatterElements(a["data"], a["indices"], a["updates"], axis=-1),
             numpy=lambda a: np_scatter_elements(a, 1, None),
             torch=lambda t, a: a["data"].scatter(1, a["indices"], a["updates"]),
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatter_elements_add_axis0", "ScatterElements", {"axis": 0, "reduction": "add"},
             lambda q: scatter_elements_axis0(q, zeros=True),
             ours=lambda a: gs.onnx.ScatterElements(a["data"], a["indices"], a["updates"], axis=0, reduction="add"),
             numpy=lambda a: np_scatter_elements(a, 0, np.add),
             torch=lambda t, a: a["data"].scatter_add(0, a["indices"], a["updates"]), exact=False,
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatter_elements_max_axis0", "ScatterElements", {"axis": 0, "reduction": "max"},
             lambda q: scatter_elements_axis0(q, zeros=False),
             ours=lambda a: gs.onnx.ScatterElements(a["data"], a["indices"], a["updates"], axis=0, reduction="max"),
             numpy=lambda a: np_scatter_elements(a, 0, np.maximum),
             torch=lambda t, a: a["data"].scatter_reduce(0, a["indices"], a["updates"], "amax"),
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatter_elements_add_last", "ScatterElements", {"axis": -1, "reduction": "add"},
             scatter_elements_add_last,
             ours=lambda a: gs.onnx.ScatterElements(a["data"], a["indices"], a["updates"], axis=-1, reduction="add"),
             numpy=lambda a: np_scatter_elements(a, 1, np.add),
             torch=lambda t, a: a["data"].scatter_add(1, a["indices"], a["updates"]), exact=False,
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatternd_none_rows", "ScatterND", {}, scatternd_none_rows,
             ours=lambda a: gs.onnx.ScatterND(a["data"], a["indices"], a["updates"]),
             numpy=np_scatternd_none_rows, torch=_t_scatternd_none_rows,
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatternd_none_rows_inplace", "ScatterND", {}, scatternd_none_rows,
             ours=lambda a: gs.scatter_nd(a["data"], a["indices"], a["updates"], out=a["data"]),
             numpy=np_scatternd_none_rows_inplace, torch=_t_scatternd_none_rows_inplace,
             onnx_inputs=("data", "indices", "updates"), inplace=True,
             notes="the KV-cache write in place (out=data); ONNX has no in-place form"),
    Workload("scatternd_add_rows", "ScatterND", {"reduction": "add"}, scatternd_add_rows,
             ours=lambda a: gs.onnx.ScatterND(a["data"], a["indices"], a["updates"], reduction="add"),
             numpy=np_scatternd_add_rows, torch=_t_scatternd_add_rows, exact=False,
             onnx_inputs=("data", "indices", "updates")),
    Workload("scatternd_add_elem", "ScatterND", {"reduction": "add"}, scatternd_add_elem,
             ours=lambda a: gs.onnx.ScatterND(a["data"], a["indices"], a["updates"], reduction="add"),
             numpy=np_scatternd_add_elem, torch=_t_scatternd_add_elem, exact=False,
             onnx_inputs=("data", "indices", "updates")),
]
