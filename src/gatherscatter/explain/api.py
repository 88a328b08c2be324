"""``gs.explain(op, *args, **kwargs)``: the explanation of one call, written as the call itself.

>>> import gatherscatter as gs
>>> e = gs.explain("torch.gather", [[1, 2], [3, 4]], 1, [[0, 0], [1, 0]])
>>> e.output.tolist()
[[1, 1], [4, 3]]
>>> e.sources[(1, 0)]        # output[1, 0] was read from input[1, 1]
(1, 1)
>>> print(str(e).splitlines()[0])
torch.gather (2.13)  dim=1

In Jupyter the object shows its picture (``_repr_svg_`` / ``_repr_html_``); in a
console, its text (``repr``).
"""

from __future__ import annotations

from typing import Any

from ..dialects._registry import get_op
from .adapter import Binding, bind_call
from .model import Explanation
from .model import explain as _explain

__all__ = ["explain"]


def explain(op: Any, *args: Any, **kwargs: Any) -> Explanation:
    """Run ``op(*args, **kwargs)`` and explain it: which cell went where, and why.

    ``op`` is a dialect function (``gs.torch.gather``) or its name (``"torch.gather"``);
    the arguments are the op's own, positional or by name. An op error does not
    raise: it is recorded in ``.error`` and shown. (A :class:`~.adapter.Binding` is
    accepted too, with the keywords of :func:`gatherscatter.explain.model.explain`.)
    """
    if isinstance(op, Binding):
        return _explain(op, **kwargs)
    dop = get_op(op)
    return _explain(bind_call(dop, args, kwargs))
