"""Sessions to MCP servers, opened once and reused by every run, on one background event loop.

An MCP session is bound to the task that entered it (the SDK's ``Client`` is an async context
manager over anyio task groups), while dialectic runs programs both synchronously (``rt.run``
starts a loop per run) and inside a caller's loop (``run_async``, under asyncio or trio). So the
sessions live on a loop of their own, in a daemon thread started on the first connection: each
server has one holder task that enters its ``Client`` and waits for ``close``; a tool call is a
coroutine submitted to that loop (``asyncio.run_coroutine_threadsafe``) and awaited from the
caller's loop (``asyncio.wrap_future``), one hop each way (tens of microseconds; an MCP call over
stdio costs a millisecond or more, see ``benchmarks/mcp_overhead.py``). Cancelling the caller
(the run's deadline, a per-call timeout, a cancelled task) cancels the call on the session loop,
and the SDK sends the server ``notifications/cancelled``. ``close`` ends every session and
server subprocess (the SDK closes stdin, then terminates the process tree) and stops the thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
import weakref
from collections.abc import Callable, Coroutine, Iterable
from contextlib import AsyncExitStack
from typing import Any, TextIO, TypeVar

import anyio
import anyio.to_thread
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, CallToolResult, Tool

from dialectic.connectors.mcp_config import ServerConfig
from dialectic.connectors.mcp_results import MCP_CALL_FAILED, result_value, server_failure
from dialectic.connectors.mcp_sessions import CLOSE_TIMEOUT, Home, ServerSession, running_loop
from dialectic.connectors.mcp_stderr import StderrTail, settle
from dialectic.outcome.errors import Failure, PluginError

__all__ = ["REVIVE_INTERVAL", "MCPConnectError", "MCPConnections", "ServerSession"]

#: seconds after a failed restart of a server before a call tries again
REVIVE_INTERVAL = 5.0

T = TypeVar("T")
#: bounds on what a server may list (a server is not trusted to be small)
MAX_TOOLS_PER_SERVER = 2000
MAX_TOOL_PAGES = 100


class MCPConnectError(PluginError):
    """A server that could not be started, connected or listed (names it, says why)."""


class MCPConnections:
    """Connections to MCP servers, shared by every run of a runtime (``close`` ends them).

    ``connect(servers)`` starts (stdio) or reaches (HTTP) each server concurrently, lists its
    tools and keeps the session open on a loop in a thread of its own (calls from any thread or
    loop); ``await aconnect(servers)`` from a running asyncio loop keeps them on that loop
    instead (no thread hop per call; calls only from that loop). ``call(server, tool,
    arguments)`` calls a tool and returns its value (see :func:`result_value`).
    """

    def __init__(self, *, connect_timeout: float = 60.0, errlog: TextIO | None = None) -> None:
        self.connect_timeout = connect_timeout
        self._errlog = errlog
        self._home: Home | None = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- life cycle -------------------------------------------------------------------------
    def _where(self, here: asyncio.AbstractEventLoop | None = None) -> Home:
        """The sessions' home, made on first use: ``here`` (a running asyncio loop) or a thread."""
        with self._lock:
            home = self._home
            if home is None:
                home = self._home = Home(here, None) if here is not None else Home.start()
                self._finalizer = weakref.finalize(self, home.close)
            elif home.closed:
                raise RuntimeError("these MCP connections are closed")
            return home

    @property
    def sessions(self) -> dict[str, ServerSession]:
        return self._home.sessions if self._home is not None else {}

    @property
    def closed(self) -> bool:
        return self._home is not None and self._home.closed

    @property
    def local(self) -> bool:
        """Whether the sessions live on a caller's loop (``aconnect``), not a thread's."""
        return self._home is not None and self._home.thread is None

    def _begin(
        self, home: Home, servers: Iterable[ServerConfig]
    ) -> list[tuple[ServerSession, Any]]:
        fresh: list[tuple[ServerSession, concurrent.futures.Future[None]]] = []
        names = {c.name for c in servers if c.name in home.sessions}
        if names:
            raise MCPConnectError(f"the MCP server {sorted(names)[0]!r} is already connected")
        for config in servers:
            session = ServerSession(config)
            ready: concurrent.futures.Future[None] = concurrent.futures.Future()
            try:
                home.spawn(session, self._hold(session, ready))
            except RuntimeError:  # the loop holding the sessions has ended
                home.end_sessions([s for s, _ in fresh], CLOSE_TIMEOUT)
                raise MCPConnectError(
                    f"cannot connect the MCP server {config.name!r}: the event loop that "
                    "holds these MCP sessions has ended (use a new Runtime)"
                ) from None
            fresh.append((session, ready))
        return fresh

    def connect(self, servers: Iterable[ServerConfig]) -> list[ServerSession]:
        """Open a session to each server (concurrently) and list its tools.

        Raises :class:`MCPConnectError` naming the first server that failed (the others opened
        by this call are closed again)."""
        home = self._where()
        if home.here:
            raise RuntimeError("connect() would block the loop of the sessions: await aconnect()")
        fresh = self._begin(home, list(servers))
        problems: list[tuple[str, BaseException]] = []
        for session, ready in fresh:
            try:
                ready.result(self.connect_timeout + CLOSE_TIMEOUT)
            except BaseException as exc:
                problems.append((session.name, exc))
        return self._finish(home, fresh, problems)

    async def aconnect(self, servers: Iterable[ServerConfig]) -> list[ServerSession]:
        """``connect`` from async code: the sessions live on this (asyncio) loop when they are
        the first of these connections, else where the others are."""
        home = self._where(running_loop())
        if not home.here:
            return await anyio.to_thread.run_sync(self.connect, servers)
        fresh = self._begin(home, list(servers))
        waits = [asyncio.wrap_future(ready) for _, ready in fresh]
        got = await asyncio.gather(*waits, return_exceptions=True)
        problems = [
            (s.name, r)
            for (s, _), r in zip(fresh, got, strict=True)
            if isinstance(r, BaseException)
        ]
        if problems:
            await home.aend_sessions([s for s, _ in fresh], CLOSE_TIMEOUT)
        return self._finish(home, fresh, problems)

    def _finish(
        self,
        home: Home,
        fresh: list[tuple[ServerSession, Any]],
        problems: list[tuple[str, BaseException]],
    ) -> list[ServerSession]:
        if problems:
            home.end_sessions([s for s, _ in fresh], CLOSE_TIMEOUT)
            name, exc = problems[0]
            tails = {s.name: s.stderr for s, _ in fresh}
            tail = tails.get(name)
            raise MCPConnectError(
                f"could not connect the MCP server {name!r}: {_describe(exc)}"
                + (tail.quote() if tail is not None else "")
            )
        for session, _ in fresh:
            home.sessions[session.name] = session
        return [s for s, _ in fresh]

    def disconnect(self, sessions: Iterable[ServerSession]) -> None:
        """End these sessions (and their server processes)."""
        home = self._home
        if home is None or home.closed:
            return
        chosen = list(sessions)
        home.end_sessions(chosen, CLOSE_TIMEOUT)
        for s in chosen:
            if home.sessions.get(s.name) is s:
                del home.sessions[s.name]

    def close(self) -> None:
        """End every session and server process, and stop the session thread. Idempotent.
        (Called on the loop of sessions made by ``aconnect``, it cannot wait for them to end:
        use ``aclose`` there.)"""
        if self._finalizer is not None:
            self._finalizer()  # runs Home.close once

    async def aclose(self) -> None:
        home = self._home
        if home is None:
            return
        if self._finalizer is not None:
            self._finalizer.detach()
        await home.aclose()

    # -- sessions (on the session loop) -----------------------------------------------------
    async def _transport(
        self, session: ServerSession, config: ServerConfig, stack: AsyncExitStack
    ) -> Any:
        if config.command is not None:
            params = StdioServerParameters(
                command=config.command,
                args=list(config.args),
                env=dict(config.env) or None,
                cwd=config.cwd,
            )
            if self._errlog is not None:
                return stdio_client(params, errlog=self._errlog)
            tail = session.stderr = StderrTail()
            stack.callback(tail.close)
            await tail.start()
            return stdio_client(params, errlog=tail.writer)
        assert config.url is not None
        # the SDK's recommended timeouts: 30 s to connect and write, 300 s to read (a stream)
        http = httpx2.AsyncClient(
            headers=dict(config.headers), timeout=httpx2.Timeout(30.0, read=300.0)
        )
        stack.push_async_callback(http.aclose)
        return streamable_http_client(config.url, http_client=http)

    async def _hold(self, session: ServerSession, ready: concurrent.futures.Future[None]) -> None:
        """The task that owns one session: enters the client, waits for ``stop``, leaves."""
        session.stop = asyncio.Event()
        session.task = asyncio.current_task()
        try:
            async with AsyncExitStack() as stack:
                client = await self._open(session, stack)
                session.client = client
                ready.set_result(None)
                if not session.stopping:
                    await session.stop.wait()
                session.dead = "closed"
                session.client = None
        except BaseException as exc:
            session.client = None
            if session.dead is None:
                session.dead = _describe(exc)
            if isinstance(exc, Exception) and session.stderr is not None:
                with contextlib.suppress(BaseException):
                    await settle()  # the server's last words, read before they are quoted
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
            if not isinstance(exc, Exception):
                raise
        finally:
            session.client = None
            session.finished.set()

    async def _open(self, session: ServerSession, stack: AsyncExitStack) -> Client:
        """Enter the session's client and list its tools, within ``connect_timeout`` (a timer
        that cancels this task: a cancel scope cannot enclose a context left open)."""
        task = asyncio.current_task()
        assert task is not None
        fired: list[bool] = []

        def expire() -> None:
            fired.append(True)
            task.cancel()

        timer = asyncio.get_running_loop().call_later(self.connect_timeout, expire)
        try:
            transport = await self._transport(session, session.config, stack)
            try:
                client = await stack.enter_async_context(Client(transport))
            finally:  # the server has its own copy of the pipe (or never started)
                if session.stderr is not None:
                    session.stderr.spawned()
            session.tools = await _list_tools(client)
            return client
        except asyncio.CancelledError:
            if fired and task.uncancel() == 0:
                raise TimeoutError from None
            raise
        finally:
            timer.cancel()

    async def _revive(self, session: ServerSession, label: str) -> ServerSession:
        """A new session for a server whose session ended (it died, or broke the connection):
        started once for every call waiting on it, at most once per
        :data:`REVIVE_INTERVAL` seconds after a failed attempt (a server that dies at start is
        not restarted in a loop). Runs on the sessions' loop; raises ``server_failure``."""
        home = self._home
        if home is None or home.closed or session.stopping:
            raise server_failure(label, session.name, session.dead or "closed")
        if session.reviving is not None:
            return await asyncio.shield(session.reviving)
        failed = session.revive_failed_at
        if failed is not None and time.monotonic() - failed < REVIVE_INTERVAL:
            raise server_failure(label, session.name, session.dead or "not connected")
        waiting: asyncio.Future[ServerSession] = asyncio.get_running_loop().create_future()
        session.reviving = waiting
        fresh = ServerSession(session.config)
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        try:
            home.spawn(fresh, self._hold(fresh, ready))
            await asyncio.wrap_future(ready)
        except Exception as exc:
            session.revive_failed_at = time.monotonic()
            why = f"{session.dead or 'not connected'}; restarting it failed: {_describe(exc)}"
            session.dead = why + (fresh.stderr.quote() if fresh.stderr is not None else "")
            failure = server_failure(label, session.name, session.dead)
            waiting.set_exception(failure)
            waiting.exception()  # (retrieved: the callers waiting see it)
            raise failure from None
        finally:
            session.reviving = None
        if home.closed:  # closed while it started: end it too
            home.end_sessions([fresh], CLOSE_TIMEOUT)
            raise server_failure(label, session.name, "closed")
        home.sessions[session.name] = fresh
        waiting.set_result(fresh)
        return fresh

    async def _call(self, session: ServerSession, tool: str, arguments: dict[str, Any]) -> Any:
        label = f"{session.config.namespace}.{tool}"
        client = session.client
        if client is None:  # it ended: start it again (SPEC 15.3)
            session = await self._revive(session, label)
            client = session.client
            if client is None:
                raise server_failure(label, session.name, session.dead or "not connected")
        try:
            result: CallToolResult = await client.call_tool(tool, arguments)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                session.client = None
                if session.stderr is not None:
                    await settle()
                session.dead = exc.error.message + (
                    session.stderr.quote() if session.stderr is not None else ""
                )
                raise server_failure(label, session.name, session.dead) from None
            raise Failure(
                f"the MCP server {session.name!r} refused the call of {label}: error {exc.code}: "
                f"{exc.error.message[:2000]}",
                hint="Check the tool's name and arguments against its description.",
                code=MCP_CALL_FAILED,
            ) from None
        except (Failure, asyncio.CancelledError):
            raise
        except Exception as exc:
            raise server_failure(label, session.name, exc) from None
        return result_value(result, label)

    # -- calls (from any thread or loop) ----------------------------------------------------
    async def call(self, server: str, tool: str, arguments: dict[str, Any]) -> Any:
        """Call ``tool`` of the connected ``server`` with ``arguments``; its value, or a
        :class:`Failure` (the tool's error, or the server's)."""
        home = self._home
        session = home.sessions.get(server) if home is not None else None
        if home is None or session is None:
            raise Failure(f"no MCP server {server!r} is connected", code=MCP_CALL_FAILED)
        running = running_loop()
        if running is home.loop:
            return await self._call(session, tool, arguments)
        label = f"{session.config.namespace}.{tool}"
        if home.thread is None:
            raise Failure(
                f"{label}: the MCP sessions live in the event loop that connected them "
                "(aconnect / add_mcp_servers_async); this run is in another one",
                hint="Run the program in that loop with `await runtime.run_async(...)`, or "
                "connect the servers with the synchronous add_mcp_servers.",
                code=MCP_CALL_FAILED,
            )
        try:
            future = home.submit(self._call(session, tool, arguments))
        except RuntimeError:
            raise server_failure(label, server, "closed") from None
        if running is not None:
            return await asyncio.wrap_future(future)
        return await _await_from_other_library(future)

    def call_sync(self, server: str, tool: str, arguments: dict[str, Any]) -> Any:
        """``call`` from synchronous code (sessions on their own thread: ``connect``)."""
        home = self._where()
        if home.thread is None:
            raise RuntimeError("call_sync needs sessions made by connect(), not aconnect()")
        return home.submit(self.call(server, tool, arguments)).result()

    def implementation(self, server: str, tool: str) -> Callable[..., Coroutine[Any, Any, Any]]:
        """An async implementation calling ``tool`` of ``server`` with its keyword arguments."""

        async def call_tool(**arguments: Any) -> Any:
            return await self.call(server, tool, arguments)

        call_tool.__name__ = call_tool.__qualname__ = f"mcp_{tool}"
        return call_tool


async def _await_from_other_library(future: concurrent.futures.Future[T]) -> T:
    """Await a concurrent future under trio (no asyncio loop): in a worker thread, cancelling
    the future when the caller is cancelled."""
    try:
        return await anyio.to_thread.run_sync(future.result, abandon_on_cancel=True)
    except BaseException:
        future.cancel()
        raise


async def _list_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        if len(tools) > MAX_TOOLS_PER_SERVER:
            raise RuntimeError(f"the server lists more than {MAX_TOOLS_PER_SERVER} tools")
        cursor = page.next_cursor
        if cursor is None:
            return tools
    raise RuntimeError(f"the tool listing has more than {MAX_TOOL_PAGES} pages")


def _describe(exc: BaseException) -> str:
    """One line for an exception, looking into exception groups (anyio task groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        return "timed out while starting or listing its tools"
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if isinstance(exc, MCPError):
        return f"MCP error {exc.code}: {exc.error.message}"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
