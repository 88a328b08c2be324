"""The worked examples of the seed documents, as data.

Each :class:`SeedExample` holds the call the seed describes and the result the
seed prints, typed in by hand from the seed text (never computed by us), so
that the tour can check the library against it. The examples themselves are
data: ``seeds.json`` next to this module (one object per example, with the
fields of :class:`SeedExample`; JSON lists become tuples where the field is a
tuple).

Seeds: (A) PathPartner, "All About Gather-Scatter Operation in Deep Learning
Framework" (2020); (B) OpenVINO GatherElements-6 specification; (C) ONNX
ScatterND-18 operator documentation. Seed (A) draws its GatherElements and
ScatterElements examples as pictures only, and cites the ONNX operator
documentation for them (its reference 1 and 2): those examples are typed from
that documentation (ONNX GatherElements-13 examples 1 and 2, ScatterElements-18
example 1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SEED_EXAMPLES", "SeedExample"]

#: the examples, typed from the seed documents
SPEC = Path(__file__).with_name("seeds.json")


@dataclass(frozen=True)
class SeedExample:
    """One worked example: ``op(*args, **kwargs)`` should print ``expected``.

    ``expected_at`` instead lists ``(position, value)`` pairs when the seed
    prints only some cells (its full tensors are pictures).
    """

    title: str
    source: str
    op: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    expected: Any = None
    expected_shape: tuple[int, ...] | None = None
    expected_at: tuple[tuple[tuple[int, ...], Any], ...] = ()
    note: str = ""
    fallback: tuple[str, dict[str, Any]] | None = None
    """``(op, extra kwargs)`` to run instead while ``op`` is not registered yet."""


def _example(item: dict[str, Any]) -> SeedExample:
    """One example from its JSON object (the tuple fields back to tuples)."""
    kw = dict(item)
    kw["args"] = tuple(kw["args"])
    if kw.get("expected_shape") is not None:
        kw["expected_shape"] = tuple(kw["expected_shape"])
    kw["expected_at"] = tuple((tuple(pos), v) for pos, v in kw.get("expected_at", ()))
    if kw.get("fallback") is not None:
        kw["fallback"] = tuple(kw["fallback"])
    return SeedExample(**kw)


SEED_EXAMPLES: tuple[SeedExample, ...] = tuple(_example(d) for d in json.loads(SPEC.read_text(encoding="utf-8")))
