"""Dask tests skip cleanly where Dask is not installed (CI installs the ``dask`` extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("dask.array")
