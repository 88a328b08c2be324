"""Every registered op's VJP against central finite differences (float64).

Cases come from :mod:`tests.grad.cases`; an op registered without a case is
skipped with the reason, so a new dialect op shows up in the skip list.
"""

from __future__ import annotations

import inspect
import zlib
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

from ._fd import fd_grads
from .cases import CASES, SKIP


def _params() -> list[Any]:
    out = []
    for op in gs.ops():
        name = op.info.qualname
        if name in SKIP:
            out.append(pytest.param(name, None, id=f"{name}-skipped", marks=pytest.mark.skip(reason=SKIP[name])))
        elif name not in CASES:
            out.append(pytest.param(name, None, id=f"{name}-nocase", marks=pytest.mark.skip(reason="no gradient case yet")))
        else:
            out.extend(pytest.param(name, i, id=f"{name}-{cid}") for i, (cid, _) in enumerate(CASES[name]))
    return out


@pytest.mark.parametrize(("name", "index"), _params())
def test_vjp_matches_finite_differences(name: str, index: int) -> None:
    rng = np.random.default_rng(zlib.crc32(name.encode()) + index)
    args, kwargs = CASES[name][index][1](rng)
    op = gs.get_op(name)
    out, pullback = gs.vjp(op, *args, **kwargs)
    np.testing.assert_array_equal(out, op(*args, **kwargs))
    ct = rng.normal(size=out.shape)
    grads = pullback.named(ct)
    expected = fd_grads(op, args, kwargs, ct)
    assert set(grads) == set(expected)
    for key, g in grads.items():
        assert g.shape == expected[key].shape
        np.testing.assert_allclose(g, expected[key], rtol=1e-6, atol=1e-7, err_msg=f"d{key}")
    # one entry per positional argument: arrays exactly for the differentiable ones
    tup = pullback(ct)
    assert len(tup) == len(args)
    params = list(inspect.signature(op.lower).parameters)
    for pos, entry in enumerate(tup):
        if params[pos] in grads:
            np.testing.assert_array_equal(entry, grads[params[pos]])
        else:
            assert entry is None
