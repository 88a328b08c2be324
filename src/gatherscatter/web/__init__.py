"""The web explorer: ``gatherscatter serve`` (the ``web`` extra: Starlette and uvicorn).

* :mod:`.backend`: the only module that calls the library (op facts, explain, compare,
  table, translate), JSON in, JSON out;
* :mod:`.worker`: runs backend jobs in worker processes with a time limit;
* :mod:`.api`: the JSON API (``/api/...``) over them;
* :mod:`.app`: the Starlette application (API, the page, its static files).

Importing this package imports nothing beyond NumPy; Starlette is imported by :mod:`.app`
and :mod:`.api` only. See ``docs/web.md``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(**options: Any) -> Any:
    """The Starlette application (see :func:`gatherscatter.web.app.create_app`)."""
    from .app import create_app as _create_app

    return _create_app(**options)
