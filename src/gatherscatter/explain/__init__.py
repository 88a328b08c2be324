"""Explanations: which source cell went where, the seed tables computed live, the tour.

* :func:`explain` (``api``): ``explain(op, *args, **kwargs)``, the explanation of one
  call (``model``: the pure explanation model; it shows itself in Jupyter);
* ``text`` / ``terminal`` / ``svg`` / ``png``: its renderers (plain text, rich
  terminal colours, SVG, PNG with Pillow; rich and Pillow are imported lazily);
* :func:`make_table` (``table``): the seed documents' comparison tables, computed by
  running probes through every registered op and version;
* :func:`compare` (``report``): one input through every op of a family;
* ``seeds`` / ``tour``: the seed documents' worked examples, explained and checked;
* ``adapter``: how neutral arguments (data, indices, updates, axis) reach each op.
"""

from typing import Any

from .adapter import Binding, ProbeError, Roles, bind, bind_call
from .api import explain
from .model import BadIndex, Explanation

_LAZY = {
    "Comparison": "report",
    "compare": "report",
    "SEED_EXAMPLES": "seeds",
    "SeedExample": "seeds",
    "Table": "table",
    "make_table": "table",
}


def __getattr__(name: str) -> Any:
    # the table and compare machinery loads on first use (``import gatherscatter`` stays light)
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SEED_EXAMPLES",
    "BadIndex",
    "Binding",
    "Comparison",
    "Explanation",
    "ProbeError",
    "Roles",
    "SeedExample",
    "Table",
    "bind",
    "bind_call",
    "compare",
    "explain",
    "make_table",
]
