"""The tools of a connected MCP server as dialectic functions ``NAME.TOOL``.

The description, parameters (``inputSchema``), result type (``outputSchema``) and effects
(annotations) come from :func:`dialectic.registry.importers.from_mcp_tool`. A tool name that is
not an identifier (``get-sum``) is called by its identifier form (``everything.get_sum``); the
server still receives ``get-sum``.
"""

from __future__ import annotations

import re

from dialectic.connectors.mcp_client import MCPConnectError, MCPConnections, ServerSession
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.importers import from_mcp_tool

__all__ = ["session_functions", "tool_identifier"]

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]")


def tool_identifier(name: str) -> str:
    """A tool's name as a Plan identifier: ``get-sum`` -> ``get_sum``."""
    ident = _NOT_IDENT.sub("_", name)
    return f"_{ident}" if not ident or ident[0].isdigit() else ident


def session_functions(
    connections: MCPConnections, session: ServerSession
) -> list[FunctionDescription]:
    """One function per tool of ``session``, named ``NAMESPACE.TOOL``."""
    namespace = session.config.namespace
    out: list[FunctionDescription] = []
    seen: dict[str, str] = {}
    for tool in session.tools:
        ident = tool_identifier(tool.name)
        if ident in seen:
            raise MCPConnectError(
                f"the MCP server {session.name!r} has the tools {seen[ident]!r} and "
                f"{tool.name!r}, which both become {namespace}.{ident}"
            )
        seen[ident] = tool.name
        impl = connections.implementation(session.name, tool.name)
        fn = from_mcp_tool(tool, impl, namespace=namespace)
        fn.name, fn.namespace = ident, namespace  # the registry names it NAMESPACE.IDENT
        if session.config.timeout is not None:
            fn.timeout = session.config.timeout
        out.append(fn)
    return out
