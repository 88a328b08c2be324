"""The JSON API of the web explorer (the page uses exactly these; ``docs/web.md`` documents them).

=======  ========================  ===================================================
method   path                      body / query -> answer
=======  ========================  ===================================================
GET      ``/api``                  the endpoints and the limits
GET      ``/api/ops``              every op: name, framework, family, kind, versions
GET      ``/api/ops/{op}``         one op's facts: arguments with roles, attributes
GET      ``/api/seeds``            the tour's seed examples as op + arguments
GET      ``/api/targets``          the frameworks ``translate`` writes for
GET      ``/api/table?family=F``   the live comparison table of a family
POST     ``/api/explain``          ``{op, args, dtypes?, version?}`` -> picture, text
POST     ``/api/compare``          ``{op, args, dtypes?, version?, ops?}`` -> grouped results
POST     ``/api/translate``        ``{op, to, attrs?, version?, verify?}`` -> plan, code
=======  ========================  ===================================================

Errors are JSON ``{"error": {"type": ..., "message": ...}}`` with a 4xx status: 400
malformed JSON, 404 unknown op or path, 405 wrong method, 413 too large (body over
:data:`MAX_BODY` bytes, more than :data:`~gatherscatter.web.backend.MAX_ELEMENTS` numbers,
an output past that size), 415 not JSON, 422 an input the op or the library refuses
(``type`` is the library's error class, ``message`` its message), 503/504 a worker
restarted / the time limit. The request body is parsed as JSON only: no user text is
ever evaluated.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from . import backend
from .worker import Workers

if TYPE_CHECKING:  # Starlette is imported when the routes are made (the web extra), not with this module
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

__all__ = ["MAX_BODY", "error_response", "routes"]

MAX_BODY = 16 << 20
"""Largest request body in bytes (16 MiB: 10^6 numbers as JSON fit)."""

_CACHED = frozenset({"ops", "op", "seeds", "targets", "table"})
_FIELDS = {
    "explain": ({"op", "args"}, {"dtypes", "version"}),
    "compare": ({"op", "args"}, {"dtypes", "version", "ops"}),
    "translate": ({"op", "to"}, {"attrs", "version", "verify"}),
}


def error_response(status: int, kind: str, message: str) -> JSONResponse:
    return _json(status, backend.RequestError(status, kind, message).payload())


def _json(status: int, body: Any) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (numbers must be finite)")


async def _read_json(request: Request) -> Any:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise backend.RequestError(415, "BadRequest", "send the request body as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise backend.RequestError(413, "TooLarge", f"the request body is larger than {MAX_BODY >> 20} MiB")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise backend.RequestError(413, "TooLarge", f"the request body is larger than {MAX_BODY >> 20} MiB")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise backend.RequestError(400, "BadRequest", "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise backend.RequestError(400, "BadRequest", f"the request body is not valid JSON: {exc.msg} at line "
                                                      f"{exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise backend.RequestError(400, "BadRequest", str(exc)) from None
    except RecursionError:
        raise backend.RequestError(400, "BadRequest", "the request body is nested too deeply") from None


def _checked(job: str, body: Any) -> dict[str, Any]:
    required, optional = _FIELDS[job]
    if not isinstance(body, dict):
        fields = ", ".join(sorted(required))
        raise backend.RequestError(422, "ArgumentError", f"the body must be a JSON object with {fields}")
    missing = sorted(required - set(body))
    unknown = sorted(set(body) - required - optional)
    if missing:
        raise backend.RequestError(422, "ArgumentError", f"missing {', '.join(missing)} (fields: "
                                                         f"{', '.join(sorted(required | optional))})")
    if unknown:
        raise backend.RequestError(422, "ArgumentError", f"unknown field {unknown[0]!r} (fields: "
                                                         f"{', '.join(sorted(required | optional))})")
    return dict(body)


def routes(workers: Workers) -> list[Route]:
    """The API routes, running their work on ``workers``."""
    from starlette.routing import Route

    # answers that depend on the installed library only (the op list, facts, seeds, tables) are kept
    cache: dict[str, Any] = {}

    async def run(job: str, kwargs: dict[str, Any]) -> JSONResponse:
        key = json.dumps([job, kwargs], sort_keys=True) if job in _CACHED else ""
        if key in cache:
            return _json(200, cache[key])
        status, body = await workers.call(job, kwargs)
        if key and status == 200 and len(cache) < 256:
            cache[key] = body
        return _json(status, body)

    async def index(request: Request) -> JSONResponse:
        return _json(200, {
            "endpoints": [
                "GET /api/ops", "GET /api/ops/{op}", "GET /api/seeds", "GET /api/targets",
                "GET /api/table?family=F", "POST /api/explain", "POST /api/compare", "POST /api/translate",
            ],
            "limits": {"body_bytes": MAX_BODY, "elements": backend.MAX_ELEMENTS, "rank": backend.MAX_RANK,
                       "verify_cases": backend.MAX_VERIFY, "compare_ops": backend.MAX_COMPARE,
                       "seconds": workers.timeout},
            "dtypes": list(backend.DTYPES),
            "docs": "docs/web.md",
        })

    async def ops(request: Request) -> JSONResponse:
        return await run("ops", {})

    async def op(request: Request) -> JSONResponse:
        return await run("op", {"name": request.path_params["op"]})

    async def seeds(request: Request) -> JSONResponse:
        return await run("seeds", {})

    async def targets(request: Request) -> JSONResponse:
        return await run("targets", {})

    async def table(request: Request) -> JSONResponse:
        return await run("table", {"family": request.query_params.get("family")})

    def post(job: str) -> Any:
        async def endpoint(request: Request) -> JSONResponse:
            try:
                body = _checked(job, await _read_json(request))
            except backend.RequestError as exc:
                return _json(exc.status, exc.payload())
            return await run(job, body)

        return endpoint

    return [
        Route("/api", index, methods=["GET"]),
        Route("/api/ops", ops, methods=["GET"]),
        Route("/api/ops/{op:str}", op, methods=["GET"]),
        Route("/api/seeds", seeds, methods=["GET"]),
        Route("/api/targets", targets, methods=["GET"]),
        Route("/api/table", table, methods=["GET"]),
        Route("/api/explain", post("explain"), methods=["POST"]),
        Route("/api/compare", post("compare"), methods=["POST"]),
        Route("/api/translate", post("translate"), methods=["POST"]),
    ]
