"""``Runtime.add_mcp_servers``: connect the servers of a configuration, register their tools.

What ``Runtime.add_mcp_servers`` (sessions on a thread of their own), ``add_mcp_servers_async``
(sessions on the caller's loop) and ``dialectic run --mcp-config`` do: read the MCP hosts'
configuration, connect every server once (sessions are reused by every run), and register each
tool as ``NAME.TOOL``. The runtime's ``close()``/``aclose()`` ends the sessions and processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.connectors.mcp_client import MCPConnectError, MCPConnections, ServerSession
from dialectic.connectors.mcp_config import ServerConfig, load_mcp_config

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

__all__ = ["add_mcp_servers", "add_mcp_servers_async"]


def _servers(config: Any) -> list[ServerConfig]:
    return list(config) if isinstance(config, list) else load_mcp_config(config)


def add_mcp_servers(runtime: Runtime, config: Any, connections: MCPConnections) -> list[str]:
    """Connect the servers of ``config`` (a path, the parsed object, or ``ServerConfig``s)
    through ``connections`` and register their tools in ``runtime``; the names registered. On a
    failure nothing is registered and the servers this call started are stopped."""
    sessions = connections.connect(_servers(config))
    return _register(runtime, connections, sessions)


async def add_mcp_servers_async(
    runtime: Runtime, config: Any, connections: MCPConnections
) -> list[str]:
    """``add_mcp_servers`` from async code: the sessions live on the caller's loop."""
    sessions = await connections.aconnect(_servers(config))
    return _register(runtime, connections, sessions)


def _register(
    runtime: Runtime, connections: MCPConnections, sessions: list[ServerSession]
) -> list[str]:
    from dialectic.connectors.mcp_functions import session_functions

    try:
        functions = [fn for s in sessions for fn in session_functions(connections, s)]
        for fn in functions:
            full = f"{fn.namespace}.{fn.name}"
            if full in runtime.registry.sources:
                raise MCPConnectError(
                    f"the MCP tool {full} is already registered by {runtime.registry.sources[full]}"
                )
        runtime.register(*functions)
    except BaseException:
        connections.disconnect(sessions)
        raise
    return [fn.name for fn in functions]
