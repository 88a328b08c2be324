"""A live explorer for browser tests and the screenshot script: uvicorn on a free loopback port, Chromium.

Chromium comes from the distribution (``apt-get install chromium``: ``/usr/bin/chromium``),
driven by Playwright for Python with that executable (``playwright install`` is never used).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    """The distribution's Chromium, or None."""
    for name in (os.environ.get("GS_CHROMIUM", ""), "/usr/bin/chromium", "chromium", "chromium-browser"):
        if name and (os.path.isfile(name) or shutil.which(name)):
            return name if os.path.isfile(name) else shutil.which(name)
    return None


@contextlib.contextmanager
def serve(**options: Any) -> Iterator[str]:
    """The explorer on ``http://127.0.0.1:<free port>`` in a thread; yields the base URL."""
    import uvicorn

    from gatherscatter.web.app import create_app

    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(**options), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the explorer did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright's sync API over the distribution's binary)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError("no chromium: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def wait_ready(page: Any) -> None:
    """Until the page has loaded its ops and drawn the first picture."""
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#picture svg, #error:not([hidden])", state="attached")
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def cells(page: Any, tensor: str) -> dict[tuple[int, ...], dict[str, Any]]:
    """The SVG cells of one tensor: position -> {fill, value, group, tag}, read from the cell's own data
    attributes (``data-value``, ``data-group``, ``data-tag``: what the SVG writer states, not the text drawn)."""
    found = page.evaluate(
        """(tensor) => [...document.querySelectorAll(`#picture svg rect[data-tensor="${tensor}"]`)].map(r => ({
            pos: r.getAttribute('data-pos'), fill: r.getAttribute('fill'), value: r.getAttribute('data-value'),
            group: r.getAttribute('data-group'), tag: r.getAttribute('data-tag')}))""",
        tensor,
    )
    out: dict[tuple[int, ...], dict[str, Any]] = {}
    for c in found:
        pos = tuple(int(x) for x in c["pos"].split(",")) if c["pos"] else ()
        assert c["value"] is not None, f"{tensor}[{c['pos']}] has no data-value"
        out[pos] = {"fill": c["fill"], "value": c["value"], "group": c["group"], "tag": c["tag"]}
    return out
