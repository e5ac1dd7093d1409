"""What a stdio MCP server writes on its standard error: kept, bounded, and told when it fails.

A server's standard error is its log: banners ("Secure MCP Filesystem Server running on
stdio"), warnings, and, when it cannot start, the reason ("missing API key"). Passed through to
the terminal it interleaves with dialectic's own output (a CLI's result, a batch's progress
bar); dropped, a server that exits at once says nothing. So each stdio server writes into a pipe
read on the session loop, of which :class:`StderrTail` keeps the last
:data:`KEEP_BYTES` bytes (a chatty server costs no memory beyond that), and a failure to connect
or a call on a dead server quotes its last lines (:meth:`StderrTail.quote`). Given an ``errlog``
(``MCPConnections(errlog=sys.stderr)``), the server writes there instead, as the SDK does.
"""

from __future__ import annotations

import asyncio
import os
from typing import IO, TextIO

__all__ = ["KEEP_BYTES", "StderrTail", "settle"]

#: how much of a server's standard error is kept (its end)
KEEP_BYTES = 8192
#: how much of it an error message quotes (its last lines)
QUOTE_CHARS = 600


class _Collector(asyncio.Protocol):
    def __init__(self, tail: StderrTail) -> None:
        self.tail = tail

    def data_received(self, data: bytes) -> None:
        buf = self.tail.buffer
        buf += data
        if len(buf) > KEEP_BYTES:
            del buf[: len(buf) - KEEP_BYTES]


class StderrTail:
    """A pipe whose write end the server's process gets as its standard error, read on the
    session loop into a bounded buffer. ``writer`` goes to the SDK's ``stdio_client`` as its
    ``errlog``; :meth:`start` begins reading; :meth:`spawned` closes this process's copy of the
    write end once the server has its own; :meth:`close` ends it all (idempotent)."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.writer: TextIO = os.fdopen(write_fd, "w")
        self._reader: IO[bytes] | None = os.fdopen(read_fd, "rb", buffering=0)
        self._transport: asyncio.BaseTransport | None = None
        self.buffer = bytearray()

    async def start(self) -> None:
        reader = self._reader
        assert reader is not None
        loop = asyncio.get_running_loop()
        transport, _ = await loop.connect_read_pipe(lambda: _Collector(self), reader)
        self._transport = transport
        self._reader = None  # the transport owns it now

    def spawned(self) -> None:
        if not self.writer.closed:
            self.writer.close()

    def close(self) -> None:
        self.spawned()
        if self._transport is not None:
            self._transport.close()
            self._transport = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def text(self) -> str:
        return self.buffer.decode("utf-8", errors="replace")

    def quote(self) -> str:
        """The end of what the server wrote, for an error message ("" when it wrote nothing)."""
        lines = [line.strip() for line in self.text().splitlines() if line.strip()]
        shown = " | ".join(lines[-5:])
        if not shown:
            return ""
        if len(shown) > QUOTE_CHARS:
            shown = "..." + shown[-QUOTE_CHARS:]
        return f"; its standard error ended: {shown}"


async def settle() -> None:
    """Let the session loop read what a server that just ended wrote (already in the pipe, it
    is delivered on the loop's next turns), before an error quotes it."""
    for _ in range(3):
        await asyncio.sleep(0)
