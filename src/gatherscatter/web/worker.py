"""Backend jobs in worker processes, each with a time limit and a memory limit.

A request's work (:func:`gatherscatter.web.backend.run`) runs in a pool of worker
processes (``multiprocessing`` with the ``spawn`` start method: no fork of a threaded
server). A job still running at its time limit is answered with a 504 and its pool is
terminated and started again, so a runaway call never keeps a core busy; the address
space of each worker is limited (``RLIMIT_AS`` where the platform has it), so that an
output too large for the machine is a clean ``MemoryError`` in the worker, reported as a
413, not a machine that swaps. With ``processes=0`` jobs run in a thread of the server
(no kill on time-out: for tests and debugging).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from typing import Any

from . import backend

__all__ = ["Workers"]


def _init(memory_limit: int | None) -> None:
    """Worker start: cap the address space, load the registry and every op's facts once."""
    if memory_limit:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        except (ImportError, ValueError, OSError):  # pragma: no cover - platforms without RLIMIT_AS
            pass
    backend.run("ops", {})


def _timeout_body(seconds: float) -> dict[str, Any]:
    return backend.RequestError(
        504, "Timeout", f"the request took longer than {seconds:g} s and was stopped; try smaller inputs"
    ).payload()


class Workers:
    """A restartable process pool that runs :func:`backend.run` jobs with a time limit."""

    def __init__(self, processes: int = 2, timeout: float = 20.0, memory_limit: int | None = 3 << 30) -> None:
        self.processes = processes
        self.timeout = timeout
        self.memory_limit = memory_limit
        self._pool: Any = None
        self._pending: dict[Any, set[asyncio.Future[Any]]] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the pool and wait for a worker to be ready (no-op with ``processes=0``)."""
        if self.processes and self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            pool = ctx.Pool(self.processes, initializer=_init, initargs=(self.memory_limit,))
            # wait until a worker has loaded the library: start-up time never counts against a request's limit
            pool.apply(backend.run, ("ops", {}))
            self._pending[pool] = set()
            self._pool = pool

    def stop(self) -> None:
        """Terminate the pool."""
        pool, self._pool = self._pool, None
        if pool is not None:
            self._fail_pending(pool)
            pool.terminate()
            pool.join()

    def _fail_pending(self, pool: Any) -> None:
        for fut in self._pending.pop(pool, set()):
            loop = fut.get_loop()
            loop.call_soon_threadsafe(_resolve, fut, (503, backend.RequestError(
                503, "Restarted", "the worker was restarted while this request waited (another request ran past "
                "its time limit); send it again").payload()))

    async def call(self, job: str, kwargs: dict[str, Any]) -> tuple[int, Any]:
        """``(status, body)`` of one job; a 504 body when it runs past the time limit."""
        if not self.processes:
            import anyio

            with anyio.move_on_after(self.timeout):
                return await anyio.to_thread.run_sync(backend.run, job, kwargs, abandon_on_cancel=True)
            return 504, _timeout_body(self.timeout)
        if self._pool is None:
            self.start()
        pool = self._pool
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._pending[pool].add(fut)

        def done(result: Any) -> None:
            loop.call_soon_threadsafe(_resolve, fut, result)

        def failed(exc: BaseException) -> None:
            body = backend.RequestError(422, "UnexpectedError", f"{type(exc).__name__}: {exc}").payload()
            loop.call_soon_threadsafe(_resolve, fut, (422, body))

        pool.apply_async(backend.run, (job, kwargs), callback=done, error_callback=failed)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), self.timeout)
        except asyncio.TimeoutError:
            await asyncio.to_thread(self._restart, pool)
            return 504, _timeout_body(self.timeout)
        finally:
            self._pending.get(pool, set()).discard(fut)

    def _restart(self, pool: Any) -> None:
        with self._lock:
            if self._pool is not pool:
                return  # another time-out restarted it already
            self._pool = None
            self._fail_pending(pool)
            pool.terminate()
            pool.join()
            self.start()


def _resolve(fut: asyncio.Future[Any], result: Any) -> None:
    if not fut.done():
        fut.set_result(result)
