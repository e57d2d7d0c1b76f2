"""A small process pool for heavy pure work (exact odds today), with a deadline and a memory cap.

The bot serves every chat from one event loop, so a computation of a few seconds on it makes
every other chat wait. Heavy pure functions (rules_core odds, the odds view's summaries) run
here instead, in other processes; the event loop only awaits them.

- Processes, not threads: pure Python holds the GIL, so a thread would still stall the loop.
- One `ProcessPoolExecutor(max_workers=1)` per worker: a running call cannot be cancelled, and
  killing a process of a shared executor breaks the whole executor (every call in it fails with
  `BrokenProcessPool`). With one executor per worker, a call past its deadline is killed with
  its process, which is replaced, and no other call is touched.
- `spawn` start method: the bot process has threads (aiosqlite's, the executors' own), and a
  fork copies them mid-state.
- Each worker runs at a lower priority (nice +5), so the event loop keeps its core when the
  machine is busy, and under an address-space cap (`RLIMIT_AS`): past it the call fails with a
  clear sentence and the worker is replaced.
- Deadline per call, counted from when a worker takes it (a worker's start-up is not counted);
  a call that waits longer than the deadline for a free worker is refused as "busy".
- The pool is loop-agnostic (its hand-offs are `concurrent.futures` futures), so one pool per
  process is shared by whatever event loop runs (`shared()`); workers start on first use.

Usage: `await pool.run(fn, *args)`; `fn` and its arguments must be picklable (module-level
functions, pydantic models). Handlers call it through `Context.offload`, which also closes the
command's transaction while the worker computes (see `bot.app`).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures as cf
import contextlib
import logging
import os
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from rules_core.errors import UserError

log = logging.getLogger(__name__)

T = TypeVar("T")

DEADLINE_S = 10.0
"""Seconds one call may run (the heaviest accepted message takes about 1 s)."""
MEMORY_MB = 384
"""Address space of one worker (an idle one maps about 65 MB; the heaviest odds about 80 MB)."""
WARM_S = 120.0
"""Seconds a worker's warm-up may take: imports and font caches, long on a busy machine, and
a worker killed for it would only have to start again."""
INLINE_OPERATIONS = 5_000
"""Work estimated at most this many operations (with few values) runs inline: about 1 ms,
what a hop to the pool and back costs anyway."""
INLINE_VALUES = 1_000


def default_size() -> int:
    """One worker per core beyond the event loop's, one at least and two at most."""
    return max(1, min(2, (os.cpu_count() or 2) - 1))


def is_light(operations: int, values: int = 0) -> bool:
    """Cheap enough to run on the event loop (see INLINE_OPERATIONS)."""
    return operations <= INLINE_OPERATIONS and values <= INLINE_VALUES


def _init_worker(memory_mb: int | None) -> None:
    """In each new worker: ignore Ctrl-C (the parent stops the pool), lower the priority, cap
    the address space."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(5)
    if memory_mb is not None:
        try:
            import resource

            cap = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        except (ImportError, ValueError, OSError):  # not on this platform
            log.warning("worker memory cap not available here")


@dataclass
class _Worker:
    executor: cf.ProcessPoolExecutor
    pid: int


class WorkerPool:
    def __init__(
        self,
        size: int | None = None,
        *,
        deadline: float = DEADLINE_S,
        memory_mb: int | None = MEMORY_MB,
        start_method: str = "spawn",
    ) -> None:
        self.size = size or default_size()
        self.deadline = deadline
        self.memory_mb = memory_mb
        self.start_method = start_method
        self._idle: list[_Worker] = []
        self._pids: set[int] = set()  # every started worker's process
        self._live = 0  # workers running or starting
        # Calls waiting for a worker: each gets one, or None meaning "start your own".
        self._waiters: deque[cf.Future[_Worker | None]] = deque()
        self.replaced = 0  # workers killed past a deadline or the memory cap (for tests/bench)

    # --- public -------------------------------------------------------------------------------

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float | None = None) -> T:
        """`fn(*args)` in a worker. `work.too_slow` past the deadline, `work.too_big` past the
        memory cap, `work.busy` when no worker frees up within the deadline; exceptions of
        `fn` (a `UserError` too) are raised here as they were raised there."""
        limit = self.deadline if deadline is None else deadline
        worker = await self._acquire(limit)
        healthy = False
        try:
            call = worker.executor.submit(fn, *args)
            try:
                result = await asyncio.wait_for(asyncio.wrap_future(call), limit)
            except TimeoutError:
                log.warning("work past its %.1f s deadline: %s", limit, _name(fn))
                raise UserError("work.too_slow", seconds=_seconds(limit)) from None
            except MemoryError:
                log.warning("work past the %s MB memory cap: %s", self.memory_mb, _name(fn))
                raise UserError("work.too_big", limit=self.memory_mb) from None
            except cf.BrokenExecutor as exc:  # the process pool's BrokenProcessPool
                raise RuntimeError(f"a worker process died running {_name(fn)}") from exc
            except Exception:
                healthy = True  # the function's own error: the worker is fine
                raise
            healthy = True
            return result
        finally:
            if healthy:
                self._release(worker)
            else:
                self._discard(worker)

    async def warm_up(self, fn: Callable[[], T], *, deadline: float = WARM_S) -> list[T]:
        """Start every worker now and run `fn` once in each (imports, font caches, a first
        picture: bot.images.render.warm), so the first real call doesn't pay them. Run it as
        a task at start-up: the event loop only awaits. A worker that fails is logged only
        (what it failed to warm, a real call does later); the results of those that ran."""
        calls = [self.run(fn, deadline=deadline) for _ in range(self.size)]
        done: list[T] = []
        for result in await asyncio.gather(*calls, return_exceptions=True):
            if isinstance(result, BaseException):
                log.warning("worker warm-up failed: %s", result)
            else:
                done.append(result)
        return done

    def usage(self) -> tuple[int, int]:
        """(workers running or starting, of them busy with a call) — for the metrics."""
        return self._live, self._live - len(self._idle)

    def pids(self) -> set[int]:
        """The process ids of the workers started and not stopped."""
        return set(self._pids)

    def shutdown(self) -> None:
        """Stop every idle worker; a call still running has its worker stopped when it ends."""
        idle, self._idle = self._idle, []
        for worker in idle:
            self._live -= 1
            self._pids.discard(worker.pid)
            worker.executor.shutdown(wait=True, cancel_futures=True)

    # --- workers ----------------------------------------------------------------------------

    async def _acquire(self, limit: float) -> _Worker:
        if self._idle:
            return self._idle.pop()
        if self._live >= self.size:
            waiter: cf.Future[_Worker | None] = cf.Future()
            self._waiters.append(waiter)
            try:
                got = await asyncio.wait_for(asyncio.wrap_future(waiter), limit)
            except TimeoutError:
                self._abandon(waiter)
                raise UserError("work.busy", seconds=_seconds(limit)) from None
            except BaseException:
                self._abandon(waiter)
                raise
            if got is not None:
                return got
            # A worker was discarded and its place handed to this call (already counted).
        else:
            self._live += 1
        try:
            return await self._start()
        except BaseException:
            self._live -= 1
            self._hand_over()
            raise

    async def _start(self) -> _Worker:
        # multiprocessing is imported here, by the first heavy command, not by every start
        import multiprocessing

        executor = cf.ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context(self.start_method),
            initializer=_init_worker,
            initargs=(self.memory_mb,),
        )
        try:
            pid = await asyncio.wrap_future(executor.submit(os.getpid))
        except BaseException:
            executor.shutdown(wait=False, cancel_futures=True)
            raise
        self._pids.add(pid)
        return _Worker(executor, pid)

    def _release(self, worker: _Worker) -> None:
        """A worker is free: to the first live waiter, else idle."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if waiter.set_running_or_notify_cancel():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _discard(self, worker: _Worker) -> None:
        """Kill a worker whose call went wrong (deadline, memory, crash, cancelled awaiting)."""
        self.replaced += 1
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGKILL)
        self._pids.discard(worker.pid)
        worker.executor.shutdown(wait=False, cancel_futures=True)
        self._live -= 1
        self._hand_over()

    def _hand_over(self) -> None:
        """A place is free: a waiting call (if any) takes it and starts a worker."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if waiter.set_running_or_notify_cancel():
                self._live += 1
                waiter.set_result(None)
                return

    def _abandon(self, waiter: cf.Future[_Worker | None]) -> None:
        """A waiting call gave up: drop it, or pass on what it was handed meanwhile."""
        if waiter in self._waiters:
            self._waiters.remove(waiter)
            waiter.cancel()
            return
        if waiter.done() and not waiter.cancelled():
            got = waiter.result()
            if got is None:
                self._live -= 1
                self._hand_over()
            else:
                self._release(got)


def _seconds(limit: float) -> str:
    return f"{limit:g}"


def _name(fn: Callable[..., Any]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


_shared: WorkerPool | None = None


def shared() -> WorkerPool:
    """The process's pool, made on first use and stopped at exit."""
    global _shared
    if _shared is None:
        _shared = WorkerPool()
        atexit.register(_shared.shutdown)
    return _shared
