"""An MCP server written with the SDK, for the error cases: ``python pyserver.py`` (stdio) or
``python pyserver.py --http PORT`` (streamable HTTP on 127.0.0.1).

Tools: ``add`` (structured output), ``echo`` (text), ``as_json`` (JSON text), ``fail`` (isError),
``die`` (the process exits mid-call), ``hang`` (never answers; records that it was cancelled),
``slow`` (read-only: answers after ``seconds``, with the peak number of overlapping calls).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

server = MCPServer("pyserver", log_level="WARNING")
_state: dict[str, Any] = {"active": 0, "peak": 0}


@server.tool()
def add(a: int, b: int) -> dict[str, int]:
    """Add two integers."""
    return {"sum": a + b}


@server.tool(structured_output=False)
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@server.tool(structured_output=False)
def as_json(value: str) -> str:
    """Answer a JSON document as text: {"value": VALUE, "n": 1}."""
    return json.dumps({"value": value, "n": 1})


@server.tool()
def fail(reason: str) -> str:
    """Fail with the reason."""
    raise ToolError(f"cannot do that: {reason}")


@server.tool()
def die() -> str:
    """Exit the process in the middle of the call, saying so on standard error."""
    sys.stderr.write("pyserver: out of disk space, giving up\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool(structured_output=False)
async def hang(marker: str = "") -> str:
    """Never answer. With a marker path, write 'cancelled' there when the call is cancelled."""
    try:
        await anyio.sleep_forever()
    finally:
        if marker:
            with open(marker, "w") as f:
                f.write("cancelled")
    return "unreachable"


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
async def slow(seconds: float, tag: str) -> dict[str, Any]:
    """Answer after the given seconds, with the peak number of overlapping calls."""
    _state["active"] += 1
    _state["peak"] = max(_state["peak"], _state["active"])
    await anyio.sleep(seconds)
    _state["active"] -= 1
    return {"tag": tag, "peak": _state["peak"]}


if __name__ == "__main__":
    refuse = os.environ.get("PYSERVER_REFUSE_IF")
    if refuse and os.path.exists(refuse):  # a server that can no longer start
        print("pyserver: refusing to start (the flag file exists)", file=sys.stderr)
        sys.exit(4)
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
