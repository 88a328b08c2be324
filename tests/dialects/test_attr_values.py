"""Every attribute of every op record says its domain: its accepted values when they are finitely many
(``dialect_op(values=...)``), else an open domain (``values={name: 'int'}``, :data:`OPEN_DOMAINS`) or a
``bool``/``int``/``float`` annotation. The web page and the table read these (no probing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs
from gatherscatter.dialects._record import OPEN_DOMAINS


def test_every_attribute_declares_its_domain() -> None:
    """Each attribute the web page offers (``/api/op``'s attrs: the op's parameters other than its tensors) has
    its values or an open domain in the record, unless its annotation says ``bool`` or ``int``."""
    from gatherscatter.web.backend import op_facts

    missing = []
    for op in gs.ops():
        vals = op.record.values
        for a in op_facts(op.info.qualname)["attrs"]:
            v = vals.get(a["name"])
            if isinstance(v, str):
                assert v in OPEN_DOMAINS, (op.info.qualname, a["name"], v)
            elif v is not None:
                assert len(v) > 0, (op.info.qualname, a["name"])
            elif a["type"] not in ("bool", "int"):
                missing.append(f"{op.info.qualname}.{a['name']}")
    assert not missing, missing


@pytest.mark.parametrize(("qualname", "name", "value"), [
    ("numpy.take", "mode", "wrap"), ("jax.take", "mode", "clip"), ("torch.embedding_bag", "mode", "max"),
    ("torch.segment_reduce", "reduce", "amin"), ("keras.take", "backend", "numpy"),
    ("tensorflow.gather_nd", "bad_indices_policy", "IGNORE"), ("gatherscatter.scatter_nd", "bounds", "drop"),
])
def test_listed_values_are_accepted(qualname: str, name: str, value: Any) -> None:
    """A listed value is one the op really takes (hand-picked cases; the web page offers exactly these)."""
    op = gs.get_op(qualname)
    listed = op.record.values[name]
    assert value in (tuple(listed) if isinstance(listed, Mapping) else listed)
    assert "bogus" not in listed


def test_open_domains_are_not_enumerated() -> None:
    """Hand-picked open domains: an int axis, a number, an array are declared, never listed."""
    assert gs.get_op("jax.segment_sum").record.values["num_segments"] == "int"
    assert gs.get_op("torch.index_add").record.values["alpha"] == "number"
    assert gs.get_op("torch.embedding_bag").record.values["offsets"] == "array"
    assert np.issubdtype(type(gs.get_op("mlx.take").record.values.get("axis", "int")), np.str_)
