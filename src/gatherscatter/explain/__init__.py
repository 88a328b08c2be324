"""Explanations: which source cell went where, the seed tables computed live, the tour.

* :func:`explain` (``model``): the pure explanation model of one op call;
* ``text`` / ``terminal`` / ``svg`` / ``png``: its renderers (plain text, rich
  terminal colours, SVG, PNG with Pillow; rich and Pillow are imported lazily);
* :func:`make_table` (``table``): the seed documents' comparison tables, computed by
  running probes through every registered op and version;
* :func:`compare` (``report``): one input through every op of a family;
* ``seeds`` / ``tour``: the seed documents' worked examples, explained and checked;
* ``adapter``: how neutral arguments (data, indices, updates, axis) reach each op.
"""

from .adapter import Binding, ProbeError, Roles, bind, bind_call
from .model import BadIndex, Explanation, explain
from .report import Comparison, compare
from .seeds import SEED_EXAMPLES, SeedExample
from .table import Table, make_table

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
