"""Where MCP sessions live: :class:`ServerSession` (one connected server) and :class:`Home` (a
loop of their own in a daemon thread, or the caller's asyncio loop), used by
:class:`dialectic.connectors.mcp_client.MCPConnections`."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from mcp import Client
from mcp_types import Tool

from dialectic.connectors.mcp_config import ServerConfig
from dialectic.connectors.mcp_stderr import StderrTail

__all__ = ["CLOSE_TIMEOUT", "Home", "ServerSession", "running_loop"]

T = TypeVar("T")
#: seconds to wait for every session to end on ``close`` (the SDK bounds each shutdown too)
CLOSE_TIMEOUT = 15.0


@dataclass(eq=False)
class ServerSession:
    """One connected server: its configuration, tools and (while connected) SDK client."""

    config: ServerConfig
    tools: list[Tool] = field(default_factory=list)
    client: Client | None = None
    #: why the session ended, once it has
    dead: str | None = None
    #: the end of a stdio server's standard error (None: it writes to an ``errlog``)
    stderr: StderrTail | None = None
    stopping: bool = False
    #: a reconnection of this (dead) session under way, and when the last one failed
    #: (monotonic seconds): see ``MCPConnections._revive``
    reviving: asyncio.Future[ServerSession] | None = None
    revive_failed_at: float | None = None
    stop: asyncio.Event | None = None
    task: asyncio.Task[None] | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def name(self) -> str:
        return self.config.name

    def request_stop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Ask the holder task to leave the session (from any thread)."""
        self.stopping = True
        stop = self.stop
        if stop is None:
            return  # the holder has not started: it sees `stopping`
        if running_loop() is loop:
            stop.set()
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the holder is gone
            loop.call_soon_threadsafe(stop.set)


class Home:
    """Where the sessions live: a loop of their own in a daemon thread (``start``), or the
    caller's asyncio loop (``thread`` None). ``close`` is the finalizer of the connections."""

    def __init__(self, loop: asyncio.AbstractEventLoop, thread: threading.Thread | None) -> None:
        self.loop = loop
        self.thread = thread
        self.sessions: dict[str, ServerSession] = {}
        self.closed = False

    @classmethod
    def start(cls) -> Home:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=serve_forever, args=(loop,), name="dialectic-mcp")
        thread.daemon = True
        home = cls(loop, thread)
        thread.start()
        return home

    @property
    def here(self) -> bool:
        """Whether the current thread runs the sessions' loop."""
        return running_loop() is self.loop

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        try:
            return asyncio.run_coroutine_threadsafe(coro, self.loop)
        except RuntimeError:  # the loop is closed
            coro.close()
            raise

    def spawn(self, session: ServerSession, coro: Coroutine[Any, Any, None]) -> None:
        if self.here:
            session.task = self.loop.create_task(coro)
        else:
            self.submit(coro)

    def end_sessions(self, sessions: Iterable[ServerSession], timeout: float) -> None:
        """Stop the sessions; wait for them unless this thread runs their loop (``aend``)."""
        chosen = list(sessions)
        for s in chosen:
            s.request_stop(self.loop)
        if self.here:
            return
        deadline = time.monotonic() + timeout
        for s in chosen:
            s.finished.wait(max(0.0, deadline - time.monotonic()))

    async def aend_sessions(self, sessions: Iterable[ServerSession], timeout: float) -> None:
        chosen = list(sessions)
        if not self.here:
            await anyio.to_thread.run_sync(self.end_sessions, chosen, timeout)
            return
        for s in chosen:
            s.request_stop(self.loop)
        tasks = [s.task for s in chosen if s.task is not None and not s.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        if self.closed:
            return
        self.closed = True
        if self.thread is not None and threading.current_thread() is self.thread:
            raise RuntimeError("MCPConnections.close() cannot run on its own session loop")
        if not self.loop.is_closed():
            self.end_sessions(list(self.sessions.values()), timeout)
            if self.thread is not None:
                with contextlib.suppress(RuntimeError):
                    self.loop.call_soon_threadsafe(self.loop.stop)
        if self.thread is not None:
            self.thread.join(timeout)

    async def aclose(self, timeout: float = CLOSE_TIMEOUT) -> None:
        if self.closed:
            return
        if self.thread is not None or not self.here:
            await anyio.to_thread.run_sync(self.close, timeout)
            return
        self.closed = True
        await self.aend_sessions(list(self.sessions.values()), timeout)


def serve_forever(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def running_loop() -> asyncio.AbstractEventLoop | None:
    return asyncio._get_running_loop()
