"""The NumPy path's elementwise gather along the last axis, row by row (``ROW_TAKE_MIN`` indices per row and more).

Small property examples never reach rows of thousands of indices, so these cases do: index blocks as long as
the data's and shorter on dim 0, more dims, negative indices wrapped and out-of-range ones clipped or filled,
and ``out=``. Each must equal the element loop of ``core.loops`` (the oracle, sharing no code with the path).
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter.core import IndexSpec, Policy, gather
from gatherscatter.core.gather import ROW_TAKE_MIN
from gatherscatter.core.loops import gather_loop
from tests.conftest import using_backend

RNG = np.random.default_rng(20261127)


def _spec(ndim):
    return IndexSpec(axis=ndim - 1, batch=ndim - 1, elementwise=True)  # GatherElements along the last axis


@pytest.mark.parametrize(
    ("dshape", "ishape"),
    [
        ((3, 2500), (3, ROW_TAKE_MIN)),  # the shortest rows that take the per-row path
        ((4, 3000), (2, 3100)),  # fewer index rows than data rows: the data's first rows
        ((3, 2, 2100), (2, 2, ROW_TAKE_MIN + 5)),  # more dims, cut on dim 0
        ((2, 100), (2, ROW_TAKE_MIN)),  # more indices than the row is long: duplicates
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, object])
def test_rows_of_indices_match_the_loop(dshape, ishape, dtype):
    data = RNG.integers(-1000, 1000, dshape).astype(dtype)
    idx = RNG.integers(0, dshape[-1], ishape)
    spec = _spec(len(dshape))
    with using_backend("numpy"):
        got = gather(data, idx, spec)
    want = gather_loop(data, idx, spec)
    assert got.dtype == want.dtype and got.shape == want.shape == ishape
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("policy", [Policy(negative="wrap"), Policy(bounds="clip"), Policy(bounds="fill", fill_value=7)])
def test_rows_under_index_policies(policy):
    data = RNG.standard_normal((3, 2200)).astype(np.float32)
    idx = RNG.integers(-2300, 2300, (3, ROW_TAKE_MIN + 1))
    if policy.bounds.value == "raise":  # wrap only: keep every index within [-size, size)
        idx = np.clip(idx, -2200, 2199)
    spec = _spec(2)
    with using_backend("numpy"):
        got = gather(data, idx, spec, policy)
    assert got.tolist() == gather_loop(data, idx, spec, policy).tolist()


def test_rows_into_out_and_inputs_untouched():
    data = RNG.standard_normal((5, 2600))
    idx = RNG.integers(0, 2600, (5, 3000))
    data0, idx0 = data.copy(), idx.copy()
    out = np.full((5, 3000), np.nan)
    with using_backend("numpy"):
        got = gather(data, idx, _spec(2), out=out)
    assert got is out and out.tolist() == gather_loop(data0, idx0, _spec(2)).tolist()
    assert np.array_equal(data, data0) and np.array_equal(idx, idx0)
