"""The Starlette application: the page, its static files and the JSON API.

Why Starlette and uvicorn: Starlette is a small, well-kept ASGI toolkit (routing, static
files, JSON responses, trusted-host middleware) with a test client, and nothing more;
uvicorn is the reference ASGI server. The API has nine endpoints and no database, forms
or templates, so a larger framework (FastAPI, Django) would add dependencies without
adding anything the explorer uses; a hand-written ``http.server`` would lack the request
limits, async work hand-off and test client.

Safety for a local tool: the server binds 127.0.0.1 unless told otherwise; the ``Host``
header must name the address it serves (no DNS rebinding); responses carry a strict
Content-Security-Policy (scripts and styles from the server only, nothing fetched from
elsewhere); every request's work runs in a worker process with a time and memory limit.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING

from .worker import Workers

if TYPE_CHECKING:  # Starlette is imported when the app is made (the web extra), not with this module
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "create_app", "static_dir"]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def static_dir() -> str:
    """The folder of the page's files (``index.html``, ``app.js``, ``app.css``) inside the package."""
    from importlib.resources import files

    return str(files("gatherscatter.web") / "static")


class _SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    *,
    processes: int = 2,
    timeout: float = 20.0,
    memory_limit: int | None = 3 << 30,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The explorer as an ASGI application.

    ``processes``: worker processes (0: run jobs in a server thread, no kill on time-out);
    ``timeout``: seconds per request; ``memory_limit``: bytes of address space per worker;
    ``allowed_hosts``: accepted ``Host`` headers (default: the loopback names).
    """
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from . import api

    workers = Workers(processes, timeout, memory_limit)
    folder = static_dir()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        workers.start()
        try:
            yield
        finally:
            workers.stop()

    async def page(request: Request) -> Response:
        return FileResponse(f"{folder}/index.html", media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        kind = {404: "NotFound", 405: "MethodNotAllowed"}.get(exc.status_code, "BadRequest")
        message = "no such endpoint: GET /api lists them" if exc.status_code == 404 else str(exc.detail)
        return api.error_response(exc.status_code, kind, f"{message} ({request.method} {request.url.path})")

    async def server_error(request: Request, exc: Exception) -> Response:  # pragma: no cover - a defect
        return JSONResponse({"error": {"type": "ServerError", "message": type(exc).__name__}}, status_code=500)

    hosts = list(allowed_hosts) if allowed_hosts is not None else ["127.0.0.1", "localhost", "::1"]
    app = Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            *api.routes(workers),
            Mount("/static", StaticFiles(directory=folder), name="static"),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts), Middleware(_SecurityHeaders)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.workers = workers
    return app
