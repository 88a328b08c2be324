"""Backend jobs in worker processes, each with a time limit and a memory limit.

A request's work (:func:`gatherscatter.web.backend.run`) runs in a pool of worker
processes (``multiprocessing`` with the ``spawn`` start method: no fork of a threaded
server). A job still running at its time limit is answered with a 504 and its pool is
terminated and started again, so a runaway call never keeps a core busy; requests that
arrive meanwhile wait for the new pool. The address space of each worker is limited
(``RLIMIT_AS`` where the platform has it), so that an output too large for the machine is
a clean ``MemoryError`` in the worker, reported as a 413, not a machine that swaps. With
``processes=0`` jobs run in a thread of the server (no kill on time-out: for tests and
debugging).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
from typing import Any

from . import backend

__all__ = ["Workers"]


def _init(memory_limit: int | None) -> None:
    """Worker start: cap the address space; load the library by running each kind of job once (the first
    seed example), so that no request pays for imports."""
    if memory_limit:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        except (ImportError, ValueError, OSError):  # pragma: no cover - platforms without RLIMIT_AS
            pass
    backend.run("ops", {})
    for seed in backend.seeds()[:1]:
        call = {"op": seed["op"], "args": seed["args"], "version": seed["version"]}
        backend.run("explain", call)
        backend.run("compare", call)
        backend.run("translate", {"op": seed["op"], "to": backend.targets()[0], "attrs": {}})


def _error(status: int, kind: str, message: str) -> tuple[int, dict[str, Any]]:
    return status, backend.RequestError(status, kind, message).payload()


class Workers:
    """A restartable process pool that runs :func:`backend.run` jobs with a time limit."""

    def __init__(self, processes: int = 2, timeout: float = 20.0, memory_limit: int | None = 3 << 30) -> None:
        self.processes = processes
        self.timeout = timeout
        self.memory_limit = memory_limit
        self._pool: Any = None
        self._pending: dict[Any, set[asyncio.Future[Any]]] = {}
        self._lock = threading.Lock()  # held while a pool is made, replaced or stopped

    def _new_pool(self) -> Any:
        ctx = multiprocessing.get_context("spawn")
        pool = ctx.Pool(self.processes, initializer=_init, initargs=(self.memory_limit,))
        # wait until a worker has loaded the library: start-up time never counts against a request's limit
        pool.apply(backend.run, ("ops", {}))
        self._pending[pool] = set()
        return pool

    def start(self) -> None:
        """Start the pool and wait for a worker to be ready (no-op with ``processes=0``)."""
        with self._lock:
            if self.processes and self._pool is None:
                self._pool = self._new_pool()

    def stop(self) -> None:
        """Terminate the pool."""
        with self._lock:
            pool, self._pool = self._pool, None
            if pool is not None:
                self._fail_pending(pool)
                pool.terminate()
                pool.join()

    def _fail_pending(self, pool: Any) -> None:
        # a tuple made in one C call: the event loop may discard from the set meanwhile
        for fut in tuple(self._pending.pop(pool, set())):
            fut.get_loop().call_soon_threadsafe(_resolve, fut, _error(
                503, "Restarted", "the worker was restarted while this request waited (another request ran past "
                "its time limit); send it again"))

    def _restart(self, old: Any) -> None:
        with self._lock:
            if self._pool is not old:
                return  # another time-out restarted it already
            self._fail_pending(old)
            old.terminate()
            old.join()
            self._pool = self._new_pool()

    async def _ready_pool(self) -> Any:
        """The running pool; waits (up to the time limit) while one is being made."""
        deadline = time.monotonic() + self.timeout
        while True:
            if self._lock.acquire(blocking=False):
                try:
                    pool = self._pool
                finally:
                    self._lock.release()
                if pool is not None:
                    return pool
                await asyncio.to_thread(self.start)
                continue
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.05)

    async def call(self, job: str, kwargs: dict[str, Any]) -> tuple[int, Any]:
        """``(status, body)`` of one job; a 504 body when it runs past the time limit."""
        if not self.processes:
            import anyio

            with anyio.move_on_after(self.timeout):
                return await anyio.to_thread.run_sync(backend.run, job, kwargs, abandon_on_cancel=True)
            return _error(504, "Timeout", f"the request took longer than {self.timeout:g} s and was stopped; "
                                          "try smaller inputs")
        pool = await self._ready_pool()
        if pool is None:
            return _error(503, "Restarted", "the worker is being restarted; send the request again")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        pending = self._pending.setdefault(pool, set())
        pending.add(fut)

        def done(result: Any) -> None:
            loop.call_soon_threadsafe(_resolve, fut, result)

        def failed(exc: BaseException) -> None:
            loop.call_soon_threadsafe(_resolve, fut, _error(422, "UnexpectedError", f"{type(exc).__name__}: {exc}"))

        try:
            pool.apply_async(backend.run, (job, kwargs), callback=done, error_callback=failed)
        except ValueError:  # the pool was terminated between the check and the call
            if self._pool is not pool:
                self._pending.pop(pool, None)
            return _error(503, "Restarted", "the worker is being restarted; send the request again")
        try:
            result: tuple[int, Any] = await asyncio.wait_for(asyncio.shield(fut), self.timeout)
            return result
        except TimeoutError:
            await asyncio.to_thread(self._restart, pool)
            return _error(504, "Timeout", f"the request took longer than {self.timeout:g} s and was stopped; "
                                          "try smaller inputs")
        finally:
            pending.discard(fut)


def _resolve(fut: asyncio.Future[Any], result: Any) -> None:
    if not fut.done():
        fut.set_result(result)
