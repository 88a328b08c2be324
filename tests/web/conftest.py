"""Fixtures of the web explorer's tests: an API client, a live server, a real browser.

The API tests need Starlette and its test client (the ``web`` and ``test`` extras); the
browser tests need Playwright for Python and the distribution's Chromium. Locally they
skip cleanly without them; in CI (``CI`` set) a missing Chromium or Playwright is an
error, since ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from ..conftest import has
from .harness import LAPTOP, browser, chromium_path, serve

IN_CI = (os.environ.get("CI") or "").strip().lower() in ("1", "true", "yes", "on")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A Starlette test client of the explorer with one worker process."""
    pytest.importorskip("starlette")
    if not (has("httpx2") or has("httpx")):
        pytest.skip("the test client needs httpx2 (the test extra)")
    from starlette.testclient import TestClient

    from gatherscatter.web.app import create_app

    with TestClient(create_app(processes=1, timeout=60), base_url="http://127.0.0.1") as c:
        yield c


def _need_browser() -> None:
    missing = [what for what, ok in (("playwright", has("playwright")), ("chromium", chromium_path() is not None),
                                     ("uvicorn", has("uvicorn"))) if not ok]
    if missing:
        if IN_CI:
            pytest.fail(f"browser tests need {', '.join(missing)} (.ci/run installs them)")
        pytest.skip(f"browser tests need {', '.join(missing)} (apt-get install chromium; pip install playwright)")


@pytest.fixture(scope="session")
def live() -> Iterator[str]:
    """Base URL of a running explorer (uvicorn in a thread, free loopback port)."""
    _need_browser()
    with serve(processes=1, timeout=60) as url:
        yield url


@pytest.fixture(scope="session")
def chrome() -> Iterator[Any]:
    """A headless Chromium."""
    _need_browser()
    with browser() as b:
        yield b


@pytest.fixture
def page(chrome: Any, live: str) -> Iterator[Any]:
    """A fresh laptop-sized page; fails the test on any JavaScript error or console error."""
    ctx = chrome.new_context(viewport=LAPTOP)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    # a 4xx answer is logged by Chromium as "Failed to load resource": the error tests cause those on purpose
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
          if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    pg.base = live  # type: ignore[attr-defined]
    pg.problems = problems  # type: ignore[attr-defined]
    yield pg
    ctx.close()
