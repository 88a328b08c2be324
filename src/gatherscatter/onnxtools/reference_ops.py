"""gatherscatter's ONNX ops as ``onnx.reference`` implementations, for whole models.

``onnx.reference.ReferenceEvaluator(model, new_ops=reference_ops())`` runs a whole
model with every gather/scatter node (Gather, GatherElements, GatherND, Scatter,
ScatterElements, ScatterND, TensorScatter) computed by
``gs.onnx``: exact (out-of-range indices raise instead of wrapping, as the stock
GatherElements does; unknown reductions raise instead of running as 'none'),
vectorised (the stock ScatterElements and element-wise GatherND/ScatterND loop in
Python over every scalar) and versioned (each node runs the op version in force at
the model's opset for the node's domain).

The list is built from the op registry (``ops(framework='onnx')``): a new ONNX op
in ``gs.onnx`` appears here without a change. Each class is named after the ONNX
op type, which is how ``ReferenceEvaluator`` matches ``new_ops`` to nodes.

Provenance: ``onnx/reference/op_run.py`` (``OpRun``: attributes reach ``_run`` as
keyword arguments; the evaluator hands every node ``run_params['opsets']``).

>>> import numpy as np
>>> from onnx import TensorProto, helper
>>> from onnx.reference import ReferenceEvaluator
>>> node = helper.make_node("GatherElements", ["x", "i"], ["y"], axis=1)
>>> graph = helper.make_graph([node], "g",
...     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2]),
...      helper.make_tensor_value_info("i", TensorProto.INT64, [2, 2])],
...     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
>>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
>>> ref = ReferenceEvaluator(model, new_ops=reference_ops())
>>> ref.run(None, {"x": np.array([[1., 2.], [3., 4.]], np.float32),
...                "i": np.array([[0, 0], [1, 0]])})[0].tolist()
[[1.0, 1.0], [4.0, 3.0]]

Where the stock evaluator silently wraps the out-of-range index 2 to 0:

>>> ref.run(None, {"x": np.array([[1., 2.], [3., 4.]], np.float32),
...                "i": np.array([[0, 2], [1, 0]])})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gatherscatter.errors.IndexOutOfRangeError: onnx.GatherElements (opset 13, GatherElements-13): indices[0, 1] = 2 ...
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dialects._registry import DialectOp, ops
from ..errors import GatherScatterError

__all__ = ["ONNX_DOMAINS", "call_node", "index_input", "onnx_ops", "op_for", "reference_ops"]

ONNX_DOMAINS = ("", "ai.onnx")
"""The domain names of the default ONNX operator set."""


def onnx_ops() -> dict[str, DialectOp]:
    """Every ONNX op gatherscatter implements, by ONNX op type (from the registry)."""
    return {op.info.name: op for op in ops(framework="onnx")}


def op_for(op_type: str, domain: str = "") -> DialectOp | None:
    """The gatherscatter op for an ONNX node type (None: not a gather/scatter op we know)."""
    if domain not in ONNX_DOMAINS:
        return None
    return onnx_ops().get(op_type)


def index_input(op: DialectOp) -> int:
    """Which ONNX input of ``op`` holds the indices: 1 (``data, indices[, updates]``), 2 for TensorScatter
    (``past_cache, update, write_indices``)."""
    return 2 if op.info.family == "scatter_axis" else 1


def call_node(
    op: DialectOp,
    inputs: Sequence[Any],
    attrs: dict[str, Any],
    opset: int | None,
    *,
    node: str | None = None,
) -> np.ndarray[Any, Any]:
    """Run one ONNX node with ``op``: ONNX inputs positionally, attributes by name, the opset.

    Trailing omitted optional inputs are left out; an omitted optional input in
    the middle is passed as None. A gatherscatter error gets a note naming the
    node (Python >= 3.11).
    """
    args = list(inputs)
    while args and args[-1] is None:
        args.pop()
    kwargs = dict(attrs)
    if op.info.version_kw is not None and opset is not None:
        kwargs[op.info.version_kw] = int(opset)
    try:
        return op(*args, **kwargs)
    except GatherScatterError as exc:
        if node is not None and hasattr(exc, "add_note"):
            exc.add_note(f"in ONNX node {node!r} ({op.info.name})")
        raise


def reference_ops() -> list[type[Any]]:
    """``onnx.reference`` ``OpRun`` classes for every ONNX gather/scatter op gatherscatter has.

    Pass them as ``ReferenceEvaluator(model, new_ops=reference_ops())``. Needs the
    ``onnx`` package (the ``onnx`` extra). Errors are gatherscatter's typed errors
    (``IndexOutOfRangeError`` ...), not the evaluator's generic ``TypeError`` wrapper.
    """
    return list(_classes())


@functools.lru_cache(maxsize=1)
def _classes() -> tuple[type[Any], ...]:
    from onnx.reference.op_run import OpRun

    def _run(self: Any, *inputs: Any, **_defaults: Any) -> tuple[np.ndarray[Any, Any]]:
        # only the attributes written on the node: the op's own defaults are those of the version in force
        node = self.onnx_node
        attrs = {a.name: getattr(self, a.name) for a in node.attribute}
        opsets = self.run_params.get("opsets") or {}
        opset = opsets.get(node.domain, opsets.get("", opsets.get("ai.onnx")))
        return (call_node(self._gs_op, inputs, attrs, opset, node=node.name or None),)

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return OpRun.run(self, *args, **kwargs)  # type: ignore[no-untyped-call]
        except TypeError as exc:
            # OpRun.run re-raises every TypeError as a generic one; DTypeError/ArgumentError keep their type
            if isinstance(exc.__cause__, GatherScatterError):
                raise exc.__cause__ from None
            raise

    classes = []
    for name, op in onnx_ops().items():
        cls = type(
            name,
            (OpRun,),
            {
                "op_domain": "",
                "_gs_op": staticmethod(op),
                "_run": _run,
                "run": run,
                "__module__": __name__,
                "__doc__": f"ONNX {name} computed by gatherscatter ({op.info.qualname}, versions "
                f"{', '.join(op.info.versions)}).",
            },
        )
        classes.append(cls)
    return tuple(classes)
