"""The readable list :func:`gatherscatter.ops` returns.

A ``list`` of the op functions (callers iterate, index, filter and compare it
as before) whose ``repr``/``str`` is a table of the ops: qualified name,
family, kind and versions, one op per line.

>>> import gatherscatter as gs
>>> onnx_ops = gs.ops("onnx")
>>> isinstance(onnx_ops, list), onnx_ops[0] is gs.onnx.Gather
(True, True)
>>> print(onnx_ops)
op                    family            kind     versions
onnx.Gather           gather            gather   opset 1, 11, 13
onnx.GatherElements   gather_elements   gather   opset 11, 13
onnx.GatherND         gather_nd         gather   opset 11, 12, 13
onnx.ScatterElements  scatter_elements  scatter  opset 11, 13, 16, 18
onnx.Scatter          scatter_elements  scatter  opset 9
onnx.ScatterND        scatter_nd        scatter  opset 11, 13, 16, 18
onnx.TensorScatter    scatter_axis      scatter  opset 24
(7 ops)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._registry import DialectOp

__all__ = ["OpList"]

_HEAD = ("op", "family", "kind", "versions")


def _versions(op: DialectOp) -> str:
    info = op.info
    if not info.versions:
        return "-"
    text = ", ".join(info.versions)
    return f"{info.version_kw} {text}" if info.version_kw else text


class OpList(list["DialectOp"]):
    """Registered ops: a plain ``list`` of op functions that prints as a table (op, family, kind, versions)."""

    def table(self) -> str:
        """The table ``str()`` and ``repr()`` show."""
        rows = [_HEAD] + [(op.info.qualname, op.info.family, op.info.kind, _versions(op)) for op in self]
        widths = [max(len(r[c]) for r in rows) for c in range(len(_HEAD) - 1)]
        lines = ["  ".join(r[c].ljust(widths[c]) for c in range(len(_HEAD) - 1)) + "  " + r[-1] for r in rows]
        lines.append(f"({len(self)} op{'' if len(self) == 1 else 's'})")
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        return self.table()

    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython
        p.text(self.table())
