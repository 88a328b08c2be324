"""Small real PyTorch modules exported with torch.onnx.export (test helper).

Each module is the gather/scatter core of a common model: a GNN mean aggregation
(``scatter_reduce(..., 'mean', include_self=False)``, and the same mean as
``scatter_add`` sum / count), an embedding lookup, a
KV-cache update (``index_copy`` and ``index_put``) and a top-k selection
(``topk`` + ``gather``). :func:`export` returns the ONNX model, sample inputs and
torch's own eager output (the oracle the tests compare with).
"""

from __future__ import annotations

import io
import warnings
from typing import Any

import numpy as np
import torch


class GNNMean(torch.nn.Module):
    """Mean of the messages x[src] arriving at each node dst (PyG-style aggregation)."""

    def forward(self, x: torch.Tensor, src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
        msg = x[src]
        index = dst.unsqueeze(1).expand(-1, x.shape[1])
        out = torch.zeros_like(x).scatter_reduce(0, index, msg, reduce="mean", include_self=False)
        return out


class GNNMeanAdd(torch.nn.Module):
    """The same mean written as sum / count with scatter_add (how PyG-style code often spells it)."""

    def forward(self, x: torch.Tensor, src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
        msg = x[src]
        index = dst.unsqueeze(1).expand(-1, x.shape[1])
        total = torch.zeros_like(x).scatter_add(0, index, msg)
        count = torch.zeros(x.shape[0]).scatter_add(0, dst, torch.ones(dst.shape[0]))
        return total / count.clamp(min=1).unsqueeze(1)


class Embedding(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = torch.nn.Embedding(10, 4)
        with torch.no_grad():
            self.emb.weight.copy_(torch.arange(40, dtype=torch.float32).reshape(10, 4))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.emb(tokens)


class KVCache(torch.nn.Module):
    """Write new keys at positions ``pos`` along the sequence axis (index_copy), and values with index_put."""

    def forward(self, k_cache: torch.Tensor, v_cache: torch.Tensor, k_new: torch.Tensor, v_new: torch.Tensor,
                pos: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        k = k_cache.index_copy(1, pos, k_new)
        v = v_cache.index_put((torch.arange(v_cache.shape[0]).unsqueeze(1), pos.unsqueeze(0)), v_new)
        return k, v


class TopK(torch.nn.Module):
    def forward(self, scores: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        _, idx = torch.topk(scores, 3, dim=-1)
        return torch.gather(values, -1, idx)


def _inputs(name: str) -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    g = torch.Generator().manual_seed(0)
    if name == "gnn_mean":
        x = torch.randn(6, 4, generator=g)
        return GNNMean(), (x, torch.tensor([0, 1, 2, 3, 4, 5, 0]), torch.tensor([1, 1, 2, 0, 5, 5, 1]))
    if name == "gnn_mean_add":
        x = torch.randn(6, 4, generator=g)
        return GNNMeanAdd(), (x, torch.tensor([0, 1, 2, 3, 4, 5, 0]), torch.tensor([1, 1, 2, 0, 5, 5, 1]))
    if name == "embedding":
        return Embedding(), (torch.tensor([[1, 9, 0], [3, 3, 2]]),)
    if name == "kv_cache":
        kc, vc = torch.zeros(2, 8, 4), torch.zeros(2, 8, 4)
        return KVCache(), (kc, vc, torch.randn(2, 2, 4, generator=g), torch.randn(2, 2, 4, generator=g),
                           torch.tensor([5, 6]))
    if name == "topk":
        return TopK(), (torch.randn(4, 10, generator=g), torch.randn(4, 10, generator=g))
    raise KeyError(name)


MODELS = ("gnn_mean", "gnn_mean_add", "embedding", "kv_cache", "topk")


def export(name: str) -> tuple[Any, dict[str, np.ndarray], list[np.ndarray]]:
    """``(onnx.ModelProto, feeds, torch's outputs)`` for one module (dynamo exporter; TorchScript if that fails)."""
    import onnx

    module, args = _inputs(name)
    with torch.no_grad():
        want = module(*args)
    want_list = [w.numpy() for w in (want if isinstance(want, tuple) else (want,))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            prog = torch.onnx.export(module, args, dynamo=True, opset_version=18, verbose=False)
            model = prog.model_proto
        except Exception:
            buf = io.BytesIO()
            torch.onnx.export(module, args, buf, dynamo=False, opset_version=18)
            model = onnx.load_from_string(buf.getvalue())
    names = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    feeds = {n: a.numpy() for n, a in zip(names, args, strict=True)}
    return model, feeds, want_list
