"""Whole ONNX models: exact reference ops, a portability audit, a conformance kit.

* :func:`~gatherscatter.onnxtools.reference_ops.reference_ops`: gather/scatter
  implementations for ``onnx.reference.ReferenceEvaluator(model, new_ops=...)``
  (also reachable as ``gatherscatter.onnx.reference_ops()``);
* :mod:`~gatherscatter.onnxtools.audit`: every gather/scatter node of a model and
  what could make its result differ between runtimes (``gatherscatter audit``);
* :mod:`~gatherscatter.onnxtools.conformance`: edge-case tests in the ONNX
  backend-test layout, with a manifest, and a runner (``gatherscatter conformance``).

Everything here needs the ``onnx`` extra (onnx; onnxruntime for the audit's
dynamic checks and the onnxruntime runner). Nothing is imported by
``import gatherscatter``: import the submodules explicitly.
"""

from __future__ import annotations

__all__: list[str] = []
