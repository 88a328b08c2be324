"""``gatherscatter serve``: the web explorer on a local port (the ``web`` extra).

::

    gatherscatter serve [--host 127.0.0.1] [--port 8000] [--open] [--workers 2] [--timeout 20]

Binds 127.0.0.1 by default: only this machine can reach it. ``--host 0.0.0.0`` serves
the network (every request still runs with its size, time and memory limits).
"""

from __future__ import annotations

import argparse
import socket
import threading
import webbrowser
from typing import Any, TextIO

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """Register the ``serve`` subcommand on the ``gatherscatter`` parser's subparsers."""
    p = sub.add_parser("serve", help="the web explorer in your browser (needs the web extra)", parents=[common])
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds allowed per request (default: 20)")


def _error(message: str) -> Exception:
    from . import CliError

    return CliError(message)


def run(args: argparse.Namespace, stream: TextIO) -> int:
    """Serve until interrupted; 0 on a clean stop."""
    try:
        import starlette  # noqa: F401  (the app's framework: checked here to say which extra is missing)
        import uvicorn

        from ..web.app import create_app
    except ImportError as exc:
        raise _error(f"serve needs the web extra ({exc.name} is missing): pip install 'gatherscatter[web]'") from None
    if not 0 <= args.port <= 65535:
        raise _error(f"--port must be from 0 to 65535; got {args.port}")
    if args.workers < 0 or args.timeout <= 0:
        raise _error("--workers must be >= 0 and --timeout > 0")
    try:
        sock = socket.create_server((args.host, args.port))
    except OSError as exc:
        raise _error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}; try another --port") from None
    host, port = sock.getsockname()[:2]
    loopback = {"127.0.0.1", "localhost", "::1"}
    hosts = ["*"] if args.host in ("0.0.0.0", "::", "") else sorted(loopback | {args.host})
    app = create_app(processes=args.workers, timeout=args.timeout, allowed_hosts=hosts)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    stream.write(f"gatherscatter explorer at {url}  (Ctrl+C to stop)\n")
    stream.flush()
    if args.open:
        threading.Timer(1.0, webbrowser.open, [url]).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover - interactive stop
        pass
    finally:
        sock.close()
    return 0
